#pragma once
// The Validate tab's summary: one card per metric (its median error coloured against the target, its largest
// error and count; a click shows only its rows) and one for how many runs fit their GPUs' memory. The figures
// come from core (ValidationReport), their order and targets from core/measured/ValidationText.h.
#include <QStringList>
#include <QWidget>

class QFrame;

namespace lp::core {
struct MetricSummary;
struct ValidationReport;
} // namespace lp::core

namespace lp::ui {

class FlowLayout;

class ValidationSummary : public QWidget {
    Q_OBJECT
public:
    explicit ValidationSummary(QWidget* parent = nullptr);

    void showReport(const core::ValidationReport& report);
    // One line per card: "iteration_time_s: median 5.5%, max 33.5%, 59 values", "memory fit: ...".
    QStringList lines() const { return m_lines; }

    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;

signals:
    void metricClicked(const QString& metric); // "throughput" or a metric id

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void addMetricCard(const core::MetricSummary& summary);
    void addMemoryFitCard(const core::ValidationReport& report);
    QFrame* addCard(const QString& objectName, const QString& caption, const QString& value,
                    const QColor& valueColor, const QString& detail);

    FlowLayout* m_cards;
    QStringList m_lines;
};

} // namespace lp::ui
