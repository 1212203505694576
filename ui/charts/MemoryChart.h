#pragma once
// Memory per GPU, by pipeline stage: stacked bars of the five memory components against the GPU's
// capacity line, the worst stage marked, and the core's headline (headroom or overflow in the chosen
// unit and in percent). Turns red (capacity line and headline) when the layout does not fit. A thin
// adapter over core::MemoryPlan: it only scales bytes into the display unit.
#include "core/estimate/Plan.h"
#include "ui/charts/ChartPanel.h"
#include "ui/widgets/Format.h"

#include <QRectF>

#include <array>

class QBarCategoryAxis;
class QCategoryAxis;
class QBarSet;
class QLineSeries;
class QGraphicsSimpleTextItem;
class QStackedBarSeries;
class QValueAxis;

namespace lp::ui {

class ChartLegend;

class MemoryChart : public ChartPanel {
    Q_OBJECT
public:
    explicit MemoryChart(QWidget* parent = nullptr);

    void setPlan(const core::Plan& plan, bool stale);
    void setUnit(MemoryUnit unit);
    MemoryUnit unit() const { return m_unit; }

    // For tests and the benchmark.
    bool isOverflow() const { return m_overflow; }
    QBarSet* barSet(core::MemoryComponent c) const { return m_sets[static_cast<std::size_t>(c)]; }
    int stageCount() const;
    int markedWorstStage() const { return m_worst; }
    double capacityShown() const;   // in the display unit
    QRectF worstMarkerRect() const; // "worst ▼" in the chart's coordinates; empty when hidden
    double capacityLineY() const;   // the capacity line's height in the chart's coordinates
    ChartLegend* legend() const { return m_legend; }

protected:
    void applyTheme() override;

private:
    void connectBars();
    void rebuild();
    void rebuildStageAxis(int stages);
    double rebuildBars(); // the tallest stage, in the display unit
    void rebuildCapacity(double tallest);
    void rebuildHeadline();
    void placeWorstMarker();
    core::Plan m_plan;
    bool m_stale = false;
    bool m_overflow = false;
    int m_worst = 0;
    MemoryUnit m_unit = MemoryUnit::GiB;
    ChartLegend* m_legend; // under the chart, wrapping (Qt Charts' legend is hidden)
    QStackedBarSeries* m_series;
    std::array<QBarSet*, 5> m_sets{};
    QLineSeries* m_capacity;
    QGraphicsSimpleTextItem* m_worstMarker; // "worst ▼" above the fullest stage
    QBarCategoryAxis* m_stageAxis;          // "Stage 0" ... for up to 8 stages
    QCategoryAxis* m_stageTicks;            // a numbered axis with a label every few stages, for more
    QValueAxis* m_lineAxis;                 // hidden x axis for the capacity line and the marker
    QValueAxis* m_valueAxis;
    QStringList m_categories;
};

} // namespace lp::ui
