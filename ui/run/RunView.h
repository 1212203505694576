#pragma once
// The Run section of the Plan tab: how long the run is (the token rule and its value), what a GPU-hour costs,
// how often GPUs fail and how fast checkpoints are written, and what follows: tokens, days, GPU-hours, cost,
// energy, goodput, checkpoints and the predicted loss, each explained on click like every figure, a chart of
// the loss against tokens and the goodput bar. Edits go through the document (undo, autosave); the view
// follows the plan live.
#include "core/io/JsonReader.h"

#include <QString>
#include <QWidget>

#include <optional>
#include <vector>

class QChart;
class QCheckBox;
class QComboBox;
class QLineEdit;
class QLineSeries;
class QScatterSeries;
class QHorizontalStackedBarSeries;

namespace lp::core {
struct Scenario;
}

namespace lp::ui {

class FigureLabel;
class ScenarioDocument;

class RunView : public QWidget {
    Q_OBJECT
public:
    explicit RunView(ScenarioDocument* doc, QWidget* parent = nullptr);

    QComboBox* tokenRule() const { return m_rule; }
    QLineEdit* ruleValue() const { return m_ruleValue; }
    QCheckBox* asyncCheckpoint() const { return m_async; }
    // The last refused value's message ("Restart (s): -5 is below 0; it stays 600."), also shown in the
    // status bar and beside the field.
    QString lastRefusal() const { return m_lastRefusal; }
    // The first figure explained by a key ("run.tokens"), or nullptr.
    FigureLabel* figure(const QString& key) const;
    QChart* lossChart() const { return m_lossChart; }
    QChart* goodputChart() const { return m_goodputChart; }

signals:
    void explainRequested(const QString& key);
    void previewRequested(const QString& key); // pointed at; empty: the pointer left

protected:
    void changeEvent(QEvent* event) override;

private:
    struct Field {
        QLineEdit* edit = nullptr;
        int index = 0; // into the field table
    };
    QWidget* buildSettings();
    QWidget* buildFigures();
    QWidget* buildCharts();
    void commitRuleValue();
    void commitField(const Field& field);
    QString shownValue(const Field& field) const;
    void refuse(QLineEdit* edit, const QString& label, const QString& typed, std::optional<double> value,
                const core::json::DoubleRange& range, double scale, const QString& kept);
    void refresh();
    void fitFigures();
    void refreshSettings(const core::Scenario& s);
    void refreshCharts();

    ScenarioDocument* m_doc;
    QComboBox* m_rule = nullptr;
    QLineEdit* m_ruleValue = nullptr;
    QCheckBox* m_async = nullptr;
    std::vector<Field> m_fields;
    std::vector<FigureLabel*> m_figures;
    QString m_lastRefusal;
    QChart* m_lossChart = nullptr;
    QLineSeries* m_lossCurve = nullptr;
    QScatterSeries* m_chosen = nullptr;
    QScatterSeries* m_optimal = nullptr;
    QChart* m_goodputChart = nullptr;
    QHorizontalStackedBarSeries* m_goodput = nullptr;
};

} // namespace lp::ui
