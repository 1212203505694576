#pragma once
// The "Plan" tab: the memory chart with the number formats folded under it, the MFU gauge with the
// key figures, the step-time breakdown and the run (ui/run/RunView.h), all showing the document's current (or
// last valid) Plan.
#include "ui/widgets/Format.h"

#include <QWidget>

class QBoxLayout;
class QLabel;
class QTimer;

namespace lp::ui {

class KeyFigures;
class MemoryChart;
class MfuGauge;
class PrecisionSection;
class RunView;
class ScenarioDocument;
class TimeChart;

class PlanView : public QWidget {
    Q_OBJECT
public:
    explicit PlanView(ScenarioDocument* doc, QWidget* parent = nullptr);

    MemoryChart* memoryChart() const { return m_memory; }
    MfuGauge* gauge() const { return m_gauge; }
    KeyFigures* keyFigures() const { return m_figures; }
    TimeChart* timeChart() const { return m_time; }
    PrecisionSection* precisionSection() const { return m_precision; }
    QLabel* mfuLabel() const { return m_mfuLabel; }
    RunView* runView() const { return m_run; }

    void setUnit(MemoryUnit unit);
    void setActiveKey(const QString& key);
    // Narrow, the gauge stands above the key figures instead of beside them.
    bool isGaugeAboveFigures() const;

signals:
    void explainRequested(const QString& key);
    void previewRequested(const QString& key); // pointed at; empty: the pointer left

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void showPlan();
    void showGauge();
    // The band of measured runs like the plan on the gauge, the cards and the step-time chart, once the
    // bundled runs are predicted (a worker thread; polled until then).
    void showTrust();
    void arrangeMiddle();
    ScenarioDocument* m_doc;
    QWidget* m_content = nullptr;   // the scrolling page's content
    QBoxLayout* m_middle = nullptr; // the gauge and the key figures
    MemoryChart* m_memory;
    PrecisionSection* m_precision;
    MfuGauge* m_gauge;
    QLabel* m_mfuLabel;
    KeyFigures* m_figures;
    TimeChart* m_time;
    RunView* m_run = nullptr;
    MemoryUnit m_unit = MemoryUnit::GiB;
    QTimer* m_trustPoll;
};

} // namespace lp::ui
