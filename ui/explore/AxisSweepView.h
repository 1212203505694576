#pragma once
// The One axis tab: MFU and worst-stage memory of the document's layout as one axis varies with the others
// held (core::sweep), the caption saying which change helps and by how much, and the best single change
// over all the axes. The sweep's rules and words are core's (core/search/Sweep.h); the view lays them out.
#include "core/search/Sweep.h"
#include "ui/widgets/Format.h"

#include <QWidget>

#include <vector>

class QBoxLayout;
class QCheckBox;
class QComboBox;
class QLabel;

namespace lp::ui {

class ScenarioDocument;
class SweepChart;

class AxisSweepView : public QWidget {
    Q_OBJECT
public:
    explicit AxisSweepView(ScenarioDocument* doc, QWidget* parent = nullptr);

    void setUnit(MemoryUnit unit);
    void setAxis(core::SweepAxis axis);
    core::SweepAxis axis() const { return m_axis; }
    void setHoldGlobalBatch(bool hold);
    bool holdsGlobalBatch() const { return m_options.holdGlobalBatch; }

    void refresh(); // recompute now (otherwise done when shown after a change)
    const std::vector<core::SweepPoint>& points() const { return m_points; }

    // For tests and the screenshot.
    QComboBox* axisCombo() const { return m_axisCombo; }
    QCheckBox* holdBatchCheck() const { return m_holdCheck; }
    SweepChart* mfuChart() const { return m_charts.mfu; }
    SweepChart* memoryChart() const { return m_charts.memory; }
    QLabel* captionLabel() const { return m_caption; }
    QLabel* overallLabel() const { return m_overallLabel; }

protected:
    void showEvent(QShowEvent* event) override;
    // The two charts side by side, or one above the other where side by side their legends would be cut.
    void resizeEvent(QResizeEvent* event) override;

private:
    QLayout* buildHeader();
    void buildCaptions();
    void scheduleRefresh();
    void applyPoint(int index);
    // One above the other, both plot areas start at the same x, so one value of the axis sits at one x.
    void alignPlotAreas();

    ScenarioDocument* m_doc;
    core::SweepAxis m_axis = core::SweepAxis::Tp;
    core::SweepOptions m_options;
    bool m_dirty = true;
    MemoryUnit m_unit = MemoryUnit::GiB;
    std::vector<core::SweepPoint> m_points;

    QComboBox* m_axisCombo = nullptr;
    QCheckBox* m_holdCheck = nullptr;
    // MFU and memory, side by side or one above the other.
    struct {
        SweepChart* mfu = nullptr;
        SweepChart* memory = nullptr;
        QBoxLayout* layout = nullptr;
    } m_charts;
    // Above the charts: which change along the axis helps, and the best single change over all the axes.
    QLabel* m_caption = nullptr;
    QLabel* m_overallLabel = nullptr;
};

} // namespace lp::ui
