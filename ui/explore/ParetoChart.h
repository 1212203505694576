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
    QScatterSeries* frontSeries() const { return m_frontSeries; }
    QLineSeries* frontLine() const { return m_frontLine; }
    QScatterSeries* currentSeries() const { return m_currentSeries; }
    QScatterSeries* selectedSeries() const { return m_selectedSeries; }

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

    MemoryUnit m_unit = MemoryUnit::GiB;
    std::vector<SearchResultModel::Row> m_rows;
    std::optional<QPointF> m_current;  // bytes, MFU
    double m_currentCapacityBytes = 0; // of the planner's layout
    int m_selected = -1;

    QChart* m_chart;
    QValueAxis* m_xAxis = nullptr;
    QValueAxis* m_yAxis = nullptr;
    QScatterSeries* m_topSeries = nullptr;
    QScatterSeries* m_frontSeries = nullptr;
    QLineSeries* m_frontLine = nullptr;
    QLineSeries* m_capacityLine = nullptr;
    QScatterSeries* m_currentSeries = nullptr;
    QScatterSeries* m_selectedSeries = nullptr;
};

} // namespace lp::ui
