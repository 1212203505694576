#include "ui/explore/SweepChart.h"

#include "ui/charts/ChartStyle.h"
#include "ui/widgets/Palette.h"

#include <QCursor>
#include <QEvent>
#include <QToolTip>
#include <QtCharts/QCategoryAxis>
#include <QtCharts/QChart>
#include <QtCharts/QLegend>
#include <QtCharts/QLegendMarker>
#include <QtCharts/QLineSeries>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QValueAxis>

#include <algorithm>
#include <cmath>

namespace lp::ui {

SweepChart::SweepChart(Quantity quantity, QWidget* parent)
    : QChartView(new QChart, parent), m_quantity(quantity), m_chart(chart()), m_x(new QCategoryAxis),
      m_y(new QValueAxis) {
    m_chart->setTitle(quantity == Quantity::Mfu ? tr("MFU") : tr("Worst-stage memory"));
    setRenderHint(QPainter::Antialiasing, true);
    setMinimumHeight(260);
    m_x->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    m_chart->addAxis(m_x, Qt::AlignBottom);
    m_chart->addAxis(m_y, Qt::AlignLeft);
    m_y->setLabelFormat(QStringLiteral("%.0f"));
    if (quantity == Quantity::WorstStageMemory) {
        m_capacity = new QLineSeries;
        m_capacity->setName(tr("Usable capacity"));
        m_chart->addSeries(m_capacity);
        m_capacity->attachAxis(m_x);
        m_capacity->attachAxis(m_y);
    }
    addMarkers();
    m_chart->legend()->setAlignment(Qt::AlignBottom);
    m_baseLeftMargin = m_chart->margins().left();
    setToolTip(tr("Each point changes only %1 from the current layout. Double-click a point to apply it.")
                   .arg(tr("the chosen axis")));
    applyTheme();
}

void SweepChart::addMarkers() {
    const auto scatter = [](const QString& name, QScatterSeries::MarkerShape shape, double size) {
        auto* s = new QScatterSeries;
        s->setName(name);
        s->setMarkerShape(shape);
        s->setMarkerSize(size);
        return s;
    };
    m_fits = scatter(tr("fits"), QScatterSeries::MarkerShapeCircle, 10);
    m_over = scatter(tr("does not fit"), QScatterSeries::MarkerShapeCircle, 10);
    m_invalid = scatter(tr("invalid"), QScatterSeries::MarkerShapeRectangle, 9);
    m_current = scatter(tr("current layout"), QScatterSeries::MarkerShapeStar, 18);
    for (QScatterSeries* s : {m_fits, m_over, m_invalid, m_current}) {
        m_chart->addSeries(s);
        s->attachAxis(m_x);
        s->attachAxis(m_y);
        connect(s, &QXYSeries::hovered, this, [this](const QPointF& p, bool on) {
            const long i = std::lround(p.x());
            if (on && i >= 0 && i < m_pointTexts.size())
                QToolTip::showText(QCursor::pos(), m_pointTexts[i], this);
        });
        connect(s, &QXYSeries::doubleClicked, this, [this](const QPointF& p) {
            const long i = std::lround(p.x());
            if (i >= 0 && i < m_pointTexts.size())
                emit pointDoubleClicked(static_cast<int>(i));
        });
    }
}

qreal SweepChart::naturalPlotLeft() const {
    return m_chart->plotArea().left() - m_extraLeftMargin;
}

void SweepChart::setExtraLeftMargin(qreal px) {
    if (std::abs(px - m_extraLeftMargin) < 0.5)
        return;
    m_extraLeftMargin = px;
    QMargins margins = m_chart->margins();
    margins.setLeft(static_cast<int>(std::lround(m_baseLeftMargin + px)));
    m_chart->setMargins(margins);
}

void SweepChart::changeEvent(QEvent* event) {
    QChartView::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::StyleChange)
        applyTheme();
}

void SweepChart::applyTheme() {
    const QFont small = smallChartFont(font());
    applyChartTheme(m_chart, palette());
    m_chart->setTitleFont(chartTitleFont(font()));
    m_chart->legend()->setFont(small);
    styleAxis(m_x, palette(), small);
    styleAxis(m_y, palette(), small);
    colourSeries();
}

void SweepChart::colourSeries() {
    const QColor text = palette().color(QPalette::Text);
    const QColor blue = palette::memory(core::MemoryComponent::Weights);
    m_fits->setColor(blue);
    m_fits->setBorderColor(blue.darker(130));
    m_over->setColor(palette::error());
    m_over->setBorderColor(palette::error().darker(130));
    m_invalid->setColor(palette::bandNeutral());
    m_invalid->setBorderColor(palette::bandNeutral().darker(130));
    m_current->setColor(text);
    m_current->setBorderColor(palette().color(QPalette::Base));
    if (m_capacity)
        m_capacity->setPen(capacityPen(text, 1.5));
    QPen line(blue);
    line.setWidthF(2);
    for (QLineSeries* run : m_runs)
        run->setPen(line);
}

int SweepChart::legendWidth() const {
    const QFontMetrics fm(m_chart->legend()->font());
    int width = 0;
    for (const QLegendMarker* m : m_chart->legend()->markers())
        if (m->isVisible())
            width += fm.horizontalAdvance(m->label()) + 3 * fm.height();
    return width;
}

double SweepChart::yValue(const core::SweepPoint& p) const {
    return m_quantity == Quantity::WorstStageMemory ? p.plan.memory.worstTotalBytes() / bytesPerUnit(m_unit)
                                                    : p.plan.mfu * 100;
}

void SweepChart::setPoints(const std::vector<core::SweepPoint>& points, core::SweepAxis axis,
                           MemoryUnit unit) {
    m_unit = unit;
    const QString axisName = qs(core::sweepAxisName(axis));
    const bool memory = m_quantity == Quantity::WorstStageMemory;
    m_chart->setTitle(memory ? tr("Worst-stage memory as %1 varies").arg(axisName)
                             : tr("MFU as %1 varies").arg(axisName));
    const core::FigureFormat format{unit};
    m_pointTexts.clear();
    for (const core::SweepPoint& p : points)
        m_pointTexts << qs(core::sweepPointText(axis, p, format));
    setRanges(points, axis);
    drawPoints(points);
    colourSeries(); // re-added series may take the theme's colours: restore ours
}

void SweepChart::setRanges(const std::vector<core::SweepPoint>& points, core::SweepAxis axis) {
    const int n = static_cast<int>(points.size());
    // The x axis: one labelled position per value.
    for (const QString& label : m_x->categoriesLabels())
        m_x->remove(label);
    m_x->setStartValue(-0.5);
    for (int i = 0; i < n; ++i)
        m_x->append(qs(points[static_cast<std::size_t>(i)].label), i);
    m_x->setRange(-0.5, std::max(0.5, n - 0.5));
    m_x->setTitleText(qs(core::sweepAxisName(axis)));

    const bool memory = m_quantity == Quantity::WorstStageMemory;
    double lo = 1e300;
    double hi = 0;
    double capacity = 0;
    for (const core::SweepPoint& p : points) {
        if (!p.valid)
            continue;
        lo = std::min(lo, yValue(p));
        hi = std::max(hi, yValue(p));
        capacity = p.plan.memory.capacityBytes / bytesPerUnit(m_unit);
    }
    if (memory && capacity > 0)
        hi = std::max(hi, capacity);
    if (hi <= 0) {
        lo = 0;
        hi = memory ? 80 : 60;
    }
    const double pad = std::max(1.0, (hi - lo) * 0.1);
    m_y->setRange(std::max(0.0, lo - pad), hi + pad);
    m_y->applyNiceNumbers();
    m_y->setTitleText(memory ? tr("Worst stage (%1)").arg(unitName(m_unit)) : tr("MFU (%)"));
    if (m_capacity)
        drawCapacity(capacity, n);
}

void SweepChart::drawCapacity(double capacity, int count) {
    if (capacity <= 0) {
        m_capacity->clear();
        return;
    }
    m_capacity->replace({QPointF(-0.5, capacity), QPointF(count - 0.5, capacity)});
    m_capacity->setName(tr("Usable capacity %1").arg(formatBytes(capacity * bytesPerUnit(m_unit), m_unit)));
}

QLineSeries* SweepChart::addRun() {
    auto* run = new QLineSeries;
    m_chart->addSeries(run);
    run->attachAxis(m_x);
    run->attachAxis(m_y);
    for (QLegendMarker* m : m_chart->legend()->markers(run))
        m->setVisible(false);
    m_runs.push_back(run);
    return run;
}

void SweepChart::drawPoints(const std::vector<core::SweepPoint>& points) {
    for (QLineSeries* run : m_runs) {
        m_chart->removeSeries(run);
        delete run;
    }
    m_runs.clear();
    const double floor = m_y->min();
    QList<QPointF> fits;
    QList<QPointF> over;
    QList<QPointF> invalid;
    QList<QPointF> current;
    QLineSeries* run = nullptr;
    for (std::size_t i = 0; i < points.size(); ++i) {
        const core::SweepPoint& p = points[i];
        if (!p.valid) {
            invalid << QPointF(static_cast<double>(i), floor);
            run = nullptr;
            continue;
        }
        const QPointF pt(static_cast<double>(i), yValue(p));
        (p.fits ? fits : over) << pt;
        if (p.current)
            current << pt;
        if (!run)
            run = addRun();
        run->append(pt);
    }
    // Markers above the lines, and legend entries only for what is there.
    const std::pair<QScatterSeries*, const QList<QPointF>*> markers[] = {
        {m_fits, &fits}, {m_over, &over}, {m_invalid, &invalid}, {m_current, &current}};
    for (const auto& [series, list] : markers) {
        m_chart->removeSeries(series);
        m_chart->addSeries(series);
        series->attachAxis(m_x);
        series->attachAxis(m_y);
        series->replace(*list);
    }
    for (const auto& [series, list] : markers)
        for (QLegendMarker* m : m_chart->legend()->markers(series))
            m->setVisible(!list->isEmpty());
}

} // namespace lp::ui
