#include "ui/explore/ParetoChart.h"

#include "ui/charts/ChartStyle.h"
#include "ui/widgets/Palette.h"

#include <QEvent>
#include <QtCharts/QChart>
#include <QtCharts/QLegend>
#include <QtCharts/QLegendMarker>
#include <QtCharts/QLineSeries>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QValueAxis>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace lp::ui {
namespace {

// As many decimals as the tick step needs: a narrow range (one point before a search) would otherwise
// print the same whole number on several ticks.
void setLabelDecimals(QValueAxis* axis) {
    const double step = axis->tickCount() > 1 ? (axis->max() - axis->min()) / (axis->tickCount() - 1) : 1.0;
    const int decimals = step >= 1 ? 0 : step >= 0.1 ? 1 : 2;
    axis->setLabelFormat(QStringLiteral("%.") + QString::number(decimals) + QStringLiteral("f"));
}

} // namespace

ParetoChart::ParetoChart(QWidget* parent) : QChartView(new QChart, parent), m_chart(chart()) {
    setObjectName(QStringLiteral("exploreChart"));
    setRenderHint(QPainter::Antialiasing, true);
    setMinimumHeight(240);
    setToolTip(tr("Each point is a layout that fits. Click a point to select it, double-click to apply it. "
                  "The line joins the Pareto front: more MFU needs more memory along it."));
    m_axes.memory = new QValueAxis;
    m_axes.mfu = new QValueAxis;
    m_chart->addAxis(m_axes.memory, Qt::AlignBottom);
    m_chart->addAxis(m_axes.mfu, Qt::AlignLeft);
    m_axes.mfu->setTitleText(tr("MFU (%)"));
    m_axes.mfu->setLabelFormat(QStringLiteral("%.0f"));
    m_axes.memory->setLabelFormat(QStringLiteral("%.0f"));
    addSeries();
    m_chart->legend()->setAlignment(Qt::AlignBottom);
    applyTheme();
}

void ParetoChart::addSeries() {
    m_capacityLine = new QLineSeries;
    m_capacityLine->setName(tr("Usable capacity"));
    m_topSeries = new QScatterSeries;
    m_topSeries->setName(tr("Top layouts"));
    m_topSeries->setMarkerSize(8);
    m_front.line = new QLineSeries;
    m_front.line->setName(tr("Pareto front"));
    m_front.points = new QScatterSeries;
    m_front.points->setName(tr("Pareto front"));
    m_front.points->setMarkerSize(10);
    m_marked.current = new QScatterSeries;
    m_marked.current->setName(tr("Current layout"));
    m_marked.current->setMarkerShape(QScatterSeries::MarkerShapeStar);
    m_marked.current->setMarkerSize(18);
    m_marked.selected = new QScatterSeries;
    m_marked.selected->setName(tr("Selected"));
    m_marked.selected->setMarkerSize(20);
    for (QAbstractSeries* s :
         std::initializer_list<QAbstractSeries*>{m_capacityLine, m_front.line, m_topSeries, m_front.points,
                                                 m_marked.current, m_marked.selected}) {
        m_chart->addSeries(s);
        s->attachAxis(m_axes.memory);
        s->attachAxis(m_axes.mfu);
    }
    for (QScatterSeries* s : {m_topSeries, m_front.points, m_marked.selected}) {
        connect(s, &QXYSeries::clicked, this, [this](const QPointF& p) { emit rowClicked(rowAt(p)); });
        connect(s, &QXYSeries::doubleClicked, this,
                [this](const QPointF& p) { emit rowDoubleClicked(rowAt(p)); });
    }
}

void ParetoChart::changeEvent(QEvent* event) {
    QChartView::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::StyleChange)
        applyTheme();
}

void ParetoChart::applyTheme() {
    applyChartTheme(m_chart, palette());
    const QFont small = smallChartFont(font());
    styleAxis(m_axes.memory, palette(), small);
    styleAxis(m_axes.mfu, palette(), small);
    m_chart->legend()->setFont(small);
    const QColor text = palette().color(QPalette::Text);
    const QColor top = palette::memory(core::MemoryComponent::Weights);
    m_topSeries->setColor(top);
    m_topSeries->setBorderColor(top.darker(130));
    const QColor front = palette::bandGood();
    m_front.points->setColor(front);
    m_front.points->setBorderColor(front.darker(140));
    QPen frontPen(front);
    frontPen.setWidthF(2);
    m_front.line->setPen(frontPen);
    m_capacityLine->setPen(capacityPen(text, 1.5));
    m_marked.current->setColor(text);
    m_marked.current->setBorderColor(palette().color(QPalette::Base));
    QPen ring(palette().color(QPalette::Highlight));
    ring.setWidthF(3);
    m_marked.selected->setPen(ring);
    m_marked.selected->setBrush(Qt::NoBrush);
    // The ring needs no legend entry, nor the front's points beside its line.
    for (QAbstractSeries* s : std::initializer_list<QAbstractSeries*>{m_marked.selected, m_front.points})
        for (QLegendMarker* m : m_chart->legend()->markers(s))
            m->setVisible(false);
    redraw();
}

void ParetoChart::setUnit(MemoryUnit unit) {
    if (unit == m_unit)
        return;
    m_unit = unit;
    redraw();
}

void ParetoChart::setRows(const std::vector<SearchResultModel::Row>& rows) {
    m_rows = rows;
    m_selected = -1;
    redraw();
}

void ParetoChart::setCurrent(const core::Plan& plan, bool shown) {
    std::optional<QPointF> current;
    if (shown && plan.valid && plan.memory.worst())
        current = QPointF(plan.memory.worstTotalBytes(), plan.mfu);
    const double capacity = plan.valid ? plan.memory.capacityBytes : 0;
    if (current == m_current && capacity == m_currentCapacityBytes)
        return;
    m_current = current;
    m_currentCapacityBytes = capacity;
    redraw(); // the axes must include it
}

void ParetoChart::setSelectedRow(int row) {
    m_selected = row;
    refreshSelection();
}

QPointF ParetoChart::pointOf(double worstStageBytes, double mfu) const {
    return {worstStageBytes / bytesPerUnit(m_unit), mfu * 100};
}

void ParetoChart::redraw() {
    QList<QPointF> top;
    std::vector<QPointF> front;
    double capacity = 0;
    for (const SearchResultModel::Row& row : m_rows) {
        const QPointF p = pointOf(row.entry.worstStageBytes, row.entry.mfu);
        capacity = (row.entry.worstStageBytes + row.entry.headroomBytes) / bytesPerUnit(m_unit);
        if (row.rank > 0)
            top << p;
        if (row.pareto)
            front.push_back(p);
    }
    std::sort(front.begin(), front.end(), [](const QPointF& a, const QPointF& b) { return a.x() < b.x(); });
    m_topSeries->replace(top);
    m_front.points->replace(QList<QPointF>(front.begin(), front.end()));
    m_front.line->replace(QList<QPointF>(front.begin(), front.end()));
    QList<QPointF> current;
    if (m_current)
        current << pointOf(m_current->x(), m_current->y());
    if (m_marked.current->points() != current)
        m_marked.current->replace(current);
    if (capacity <= 0)
        capacity = m_currentCapacityBytes / bytesPerUnit(m_unit);
    setRanges(capacity);
    refreshSelection();
}

void ParetoChart::setRanges(double capacity) {
    double xmin = std::numeric_limits<double>::max();
    double xmax = 0;
    double ymin = std::numeric_limits<double>::max();
    double ymax = 0;
    for (const QList<QPointF>& points :
         {m_topSeries->points(), m_front.points->points(), m_marked.current->points()})
        for (const QPointF& p : points) {
            xmin = std::min(xmin, p.x());
            xmax = std::max(xmax, p.x());
            ymin = std::min(ymin, p.y());
            ymax = std::max(ymax, p.y());
        }
    if (xmax <= 0) { // nothing to show yet
        xmin = 0;
        xmax = capacity > 0 ? capacity : 80;
        ymin = 0;
        ymax = 60;
    }
    if (capacity > 0)
        xmax = std::max(xmax, capacity);
    const double xpad = std::max(1.0, (xmax - xmin) * 0.06);
    const double ypad = std::max(1.0, (ymax - ymin) * 0.1);
    m_axes.memory->setRange(std::max(0.0, xmin - xpad), xmax + xpad);
    m_axes.mfu->setRange(std::max(0.0, ymin - ypad), std::min(100.0, ymax + ypad));
    m_axes.memory->applyNiceNumbers();
    m_axes.mfu->applyNiceNumbers();
    for (QValueAxis* axis : {m_axes.memory, m_axes.mfu})
        setLabelDecimals(axis);
    m_axes.memory->setTitleText(tr("Memory of the worst stage, per GPU (%1)").arg(unitName(m_unit)));
    if (capacity > 0) {
        m_capacityLine->replace({QPointF(capacity, m_axes.mfu->min()), QPointF(capacity, m_axes.mfu->max())});
        m_capacityLine->setName(
            tr("Usable capacity %1").arg(formatBytes(capacity * bytesPerUnit(m_unit), m_unit)));
    } else {
        m_capacityLine->clear();
    }
}

void ParetoChart::refreshSelection() {
    QList<QPointF> points;
    if (m_selected >= 0 && m_selected < static_cast<int>(m_rows.size())) {
        const core::SearchEntry& e = m_rows[static_cast<std::size_t>(m_selected)].entry;
        points << pointOf(e.worstStageBytes, e.mfu);
    }
    if (m_marked.selected->points() != points)
        m_marked.selected->replace(points);
}

int ParetoChart::rowAt(const QPointF& value) const {
    const QPointF at = m_chart->mapToPosition(value, m_topSeries);
    int best = -1;
    double bestDistance = std::numeric_limits<double>::max();
    for (std::size_t i = 0; i < m_rows.size(); ++i) {
        const QPointF p = m_chart->mapToPosition(
            pointOf(m_rows[i].entry.worstStageBytes, m_rows[i].entry.mfu), m_topSeries);
        const double d = std::hypot(p.x() - at.x(), p.y() - at.y());
        if (d < bestDistance) {
            bestDistance = d;
            best = static_cast<int>(i);
        }
    }
    return best;
}

} // namespace lp::ui
