#pragma once
// One chart of the One axis tab: MFU or worst-stage memory of each point of a core::sweep, one labelled
// position per value; fitting, over-capacity, invalid and current points marked apart, runs of valid
// points joined, the usable capacity drawn on the memory chart. Hovering a point shows its description,
// double-clicking it asks for it to be applied.
#include "core/search/Sweep.h"
#include "ui/widgets/Format.h"

#include <QtCharts/QChartView>

#include <vector>

class QCategoryAxis;
class QLineSeries;
class QScatterSeries;
class QValueAxis;

namespace lp::ui {

class SweepChart : public QChartView {
    Q_OBJECT
public:
    enum class Quantity { Mfu, WorstStageMemory };

    explicit SweepChart(Quantity quantity, QWidget* parent = nullptr);

    void setPoints(const std::vector<core::SweepPoint>& points, core::SweepAxis axis, MemoryUnit unit);
    // The width the legend needs on one line (QLegend elides, it does not wrap).
    int legendWidth() const;
    // Where the plot area would start without the extra left margin (the y axis labels' width decides).
    qreal naturalPlotLeft() const;
    // Margin added on the left so that a chart drawn above or below starts its plot area at the same x.
    void setExtraLeftMargin(qreal px);

signals:
    void pointDoubleClicked(int index);

protected:
    void changeEvent(QEvent* event) override;

private:
    void addMarkers();
    void applyTheme();
    void colourSeries();
    double yValue(const core::SweepPoint& p) const;
    void setRanges(const std::vector<core::SweepPoint>& points, core::SweepAxis axis);
    void drawPoints(const std::vector<core::SweepPoint>& points);
    void drawCapacity(double capacity, int count);
    QLineSeries* addRun();

    Quantity m_quantity;
    MemoryUnit m_unit = MemoryUnit::GiB;
    QStringList m_pointTexts; // the hover text of each point
    QChart* m_chart;
    qreal m_baseLeftMargin = 0;
    qreal m_extraLeftMargin = 0;
    QCategoryAxis* m_x;
    QValueAxis* m_y;
    QScatterSeries* m_fits = nullptr;
    QScatterSeries* m_over = nullptr;    // valid but does not fit
    QScatterSeries* m_invalid = nullptr; // drawn on the x axis
    QScatterSeries* m_current = nullptr;
    QLineSeries* m_capacity = nullptr; // memory chart only
    std::vector<QLineSeries*> m_runs;  // runs of valid points
};

} // namespace lp::ui
