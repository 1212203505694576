#pragma once
// The Validate tab's predicted-against-measured scatter: the rows the table shows, one colour per metric, on
// log axes with the 1:1 line and the ±10% and ±20% bands; the selected row ringed; a legend and notes under
// it. A click on a point selects its row, a double-click opens its case.
#include <QWidget>

#include <vector>

class QChart;
class QChartView;
class QLabel;
class QLogValueAxis;
class QPointF;
class QScatterSeries;
class QSortFilterProxyModel;

namespace lp::core {
struct ValidationRow;
}

namespace lp::ui {

class ValidationModel;

class ValidationChart : public QWidget {
    Q_OBJECT
public:
    // `model`'s rows, as far as `shown` (a proxy of it) keeps them.
    ValidationChart(const ValidationModel& model, const QSortFilterProxyModel& shown,
                    QWidget* parent = nullptr);

    void rebuild();
    void showSelected(const core::ValidationRow* row); // nullptr: none
    int plottedPoints() const { return m_plotted; }
    QChartView* chartView() const { return m_view; }

signals:
    void rowClicked(int sourceRow);
    void rowDoubleClicked(int sourceRow);

private:
    struct MetricRows {
        QString metric;
        std::vector<int> rows; // source rows
    };
    std::vector<MetricRows> plottableRows(double& lo, double& hi, int& missing) const;
    void addAxes(const std::vector<MetricRows>& metrics, double lo, double hi);
    void addReferenceLines();
    void addMetricSeries(const MetricRows& metric);
    void addSelectionMarker();
    void showLegend(const std::vector<MetricRows>& metrics);
    void showNotes(const std::vector<MetricRows>& metrics, int missing);
    int nearestRow(int seriesIndex, const QPointF& point) const;
    void showPointToolTip(int sourceRow);

    const ValidationModel& m_model;
    const QSortFilterProxyModel& m_shown;
    QChart* m_chart;
    QChartView* m_view;
    QLabel* m_legend;
    QLabel* m_note;
    QLogValueAxis* m_x = nullptr;
    QLogValueAxis* m_y = nullptr;
    QScatterSeries* m_selected = nullptr;
    std::vector<std::vector<int>> m_seriesRows; // per scatter series: the source row of each point
    int m_plotted = 0;
};

} // namespace lp::ui
