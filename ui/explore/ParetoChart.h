#pragma once
// The Explore tab's chart: worst-stage memory against MFU for the ranked layouts, the Pareto front joined
// by a line, the current and the selected layout, and the GPU's usable capacity. A click on a point
// selects its row, a double-click applies it.
#include "core/estimate/Plan.h"
#include "ui/explore/SearchResultModel.h"
#include "ui/widgets/Format.h"

#include <QtCharts/QChartView>

#include <optional>
#include <vector>

class QLineSeries;
class QScatterSeries;
class QValueAxis;

namespace lp::ui {

class ParetoChart : public QChartView {
    Q_OBJECT
public:
    explicit ParetoChart(QWidget* parent = nullptr);

    void setUnit(MemoryUnit unit);
    // The rows of the table, by source row.
    void setRows(const std::vector<SearchResultModel::Row>& rows);
    // The planner's layout: its point where `shown`, and its capacity until a search gives one.
    void setCurrent(const core::Plan& plan, bool shown);
    void setSelectedRow(int row); // -1: none

    // The row of the point nearest to `value` (chart coordinates), -1 when there are none.
    int rowAt(const QPointF& value) const;

    // For tests.
    QScatterSeries* topSeries() const { return m_topSeries; }
    QScatterSeries* frontSeries() const { return m_front.points; }
    QLineSeries* frontLine() const { return m_front.line; }
    QScatterSeries* currentSeries() const { return m_marked.current; }
    QScatterSeries* selectedSeries() const { return m_marked.selected; }

signals:
    void rowClicked(int row);
    void rowDoubleClicked(int row);

protected:
    void changeEvent(QEvent* event) override;

private:
    void addSeries();
    void applyTheme();
    void redraw();
    void setRanges(double capacity);
    void refreshSelection();
    QPointF pointOf(double worstStageBytes, double mfu) const;

    // The axes: memory of the worst stage per GPU (x) against MFU (y).
    struct Axes {
        QValueAxis* memory = nullptr;
        QValueAxis* mfu = nullptr;
    };
    // The Pareto front: its points, joined by a line.
    struct Front {
        QScatterSeries* points = nullptr;
        QLineSeries* line = nullptr;
    };
    // Drawn over the others: the planner's layout (a star) and the row selected in the table (a ring).
    struct Marked {
        QScatterSeries* current = nullptr;
        QScatterSeries* selected = nullptr;
    };

    MemoryUnit m_unit = MemoryUnit::GiB;
    std::vector<SearchResultModel::Row> m_rows;
    std::optional<QPointF> m_current;  // bytes, MFU
    double m_currentCapacityBytes = 0; // of the planner's layout
    int m_selected = -1;

    QChart* m_chart;
    Axes m_axes;
    QLineSeries* m_capacityLine = nullptr;
    QScatterSeries* m_topSeries = nullptr;
    Front m_front;
    Marked m_marked;
};

} // namespace lp::ui
