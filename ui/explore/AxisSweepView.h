#pragma once
// "One axis at a time": for the current layout, MFU and worst-stage memory as one axis varies (TP, PP,
// DP, micro batch, accumulation, recompute, ZeRO stage and shard group, CP, EP, virtual stages) with the
// others held; TP, PP and CP keep the GPU count by rebalancing DP (the planner's keep-GPU-count rule), and
// optionally the global batch by rebalancing accumulation. Every point is core::evaluate's; the view only
// enumerates the values and says which change helps and by how much.
#include "core/estimate/Plan.h"
#include "core/model/Hardware.h"
#include "core/model/Scenario.h"
#include "core/search/LayoutSteps.h"
#include "ui/widgets/Format.h"

#include <QWidget>

#include <vector>

class QBoxLayout;
class QCategoryAxis;
class QChart;
class QChartView;
class QCheckBox;
class QComboBox;
class QLabel;
class QLineSeries;
class QScatterSeries;
class QValueAxis;

namespace lp::ui {

class ScenarioDocument;

class AxisSweepView : public QWidget {
    Q_OBJECT
public:
    enum class Axis { Tp, Pp, Dp, MicroBatch, Accumulation, Recompute, ZeroStage, ShardGroup, Cp, Ep, Vpp };
    static constexpr int kAxisCount = 11;

    struct Point {
        int value = 0;           // the axis value (Recompute: the enum as int; ShardGroup: DP ranks)
        QString label;           // "8", "selective"
        core::Scenario scenario; // the layout evaluated
        core::Plan plan;
        bool valid = false; // core found the layout valid
        bool fits = false;
        bool current = false; // the document's own value
        QString reason;       // why it is invalid
    };

    explicit AxisSweepView(ScenarioDocument* doc, QWidget* parent = nullptr);

    void setUnit(MemoryUnit unit);
    void setAxis(Axis axis);
    Axis axis() const { return m_axis; }
    void setHoldGlobalBatch(bool hold);
    bool holdsGlobalBatch() const { return m_holdBatch; }

    static QString axisName(Axis axis);
    // The values tried for `axis` around scenario `s`, each evaluated (no Qt, no widgets).
    static std::vector<Point> sweep(const core::Scenario& s, const core::HardwareProfile& profile, Axis axis,
                                    bool holdGlobalBatch, const core::LayoutRules& rules);

    void refresh(); // recompute now (otherwise done when shown after a change)
    const std::vector<Point>& points() const { return m_points; }
    QString caption() const;        // the chosen axis: which change helps and by how much
    QString overallCaption() const; // the best single change over all the axes

    // For tests and the screenshot.
    QComboBox* axisCombo() const { return m_axisCombo; }
    QCheckBox* holdBatchCheck() const { return m_holdCheck; }
    QLabel* captionLabel() const { return m_caption; }
    QChartView* mfuChartView() const { return m_mfuView; }
    QChartView* memoryChartView() const { return m_memoryView; }

protected:
    void showEvent(QShowEvent* event) override;
    void changeEvent(QEvent* event) override;
    // The two charts side by side, or one above the other where side by side their legends would be cut.
    void resizeEvent(QResizeEvent* event) override;

private:
    struct ChartParts {
        QChart* chart = nullptr;
        QChartView* view = nullptr;
        QCategoryAxis* x = nullptr;
        QValueAxis* y = nullptr;
        QScatterSeries* fits = nullptr;
        QScatterSeries* over = nullptr;    // valid but does not fit
        QScatterSeries* invalid = nullptr; // drawn on the x axis
        QScatterSeries* current = nullptr;
        QLineSeries* capacity = nullptr; // memory chart only
        std::vector<QLineSeries*> lines; // runs of valid points
    };
    void buildChart(ChartParts& parts, const QString& title, bool memory);
    void applyTheme();
    void colourSeries(ChartParts& parts);
    void scheduleRefresh();
    void rebuildChart(ChartParts& parts, bool memory);
    double yValue(const Point& p, bool memory) const;
    QString pointText(const Point& p) const;
    QString changeText(Axis axis, const Point& from, const Point& to) const;

    ScenarioDocument* m_doc;
    Axis m_axis = Axis::Tp;
    bool m_holdBatch = true;
    bool m_dirty = true;
    MemoryUnit m_unit = MemoryUnit::GiB;
    std::vector<Point> m_points;
    QString m_overall;

    QComboBox* m_axisCombo = nullptr;
    QCheckBox* m_holdCheck = nullptr;
    QLabel* m_caption = nullptr;
    QLabel* m_overallLabel = nullptr;
    ChartParts m_mfu;
    ChartParts m_memory;
    QChartView* m_mfuView = nullptr;
    QChartView* m_memoryView = nullptr;
    QBoxLayout* m_charts = nullptr;
};

} // namespace lp::ui
