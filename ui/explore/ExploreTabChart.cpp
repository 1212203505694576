#include "ui/document/ScenarioDocument.h"
#include "ui/explore/ExploreTab.h"
#include "ui/explore/SearchResultModel.h"

#include <QtCharts/QChart>
#include <QtCharts/QLegend>
#include <QtCharts/QLineSeries>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QValueAxis>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

// The Explore tab's chart: worst-stage memory against MFU for the ranked layouts, the Pareto front,
// the current and the selected layout, with the GPU's usable capacity.
namespace lp::ui {

namespace {

// As many decimals as the tick step needs: a narrow range (one point before a search) would
// otherwise print the same whole number on several ticks.
void setLabelDecimals(QValueAxis* axis) {
    const double step = axis->tickCount() > 1 ? (axis->max() - axis->min()) / (axis->tickCount() - 1) : 1.0;
    const int decimals = step >= 1 ? 0 : step >= 0.1 ? 1 : 2;
    axis->setLabelFormat(QStringLiteral("%.") + QString::number(decimals) + QStringLiteral("f"));
}

} // namespace

void ExploreTab::buildChart() {
    m_xAxis = new QValueAxis;
    m_yAxis = new QValueAxis;
    m_chart->addAxis(m_xAxis, Qt::AlignBottom);
    m_chart->addAxis(m_yAxis, Qt::AlignLeft);
    m_yAxis->setTitleText(tr("MFU (%)"));
    m_yAxis->setLabelFormat(QStringLiteral("%.0f"));
    m_xAxis->setLabelFormat(QStringLiteral("%.0f"));

    m_capacityLine = new QLineSeries;
    m_capacityLine->setName(tr("Usable capacity"));
    m_topSeries = new QScatterSeries;
    m_topSeries->setName(tr("Top layouts"));
    m_topSeries->setMarkerSize(8);
    m_frontLine = new QLineSeries;
    m_frontLine->setName(tr("Pareto front"));
    m_frontSeries = new QScatterSeries;
    m_frontSeries->setName(tr("Pareto front"));
    m_frontSeries->setMarkerSize(10);
    m_currentSeries = new QScatterSeries;
    m_currentSeries->setName(tr("Current layout"));
    m_currentSeries->setMarkerShape(QScatterSeries::MarkerShapeStar);
    m_currentSeries->setMarkerSize(18);
    m_selectedSeries = new QScatterSeries;
    m_selectedSeries->setName(tr("Selected"));
    m_selectedSeries->setMarkerSize(20);
    for (QAbstractSeries* s : std::initializer_list<QAbstractSeries*>{
             m_capacityLine, m_frontLine, m_topSeries, m_frontSeries, m_currentSeries, m_selectedSeries}) {
        m_chart->addSeries(s);
        s->attachAxis(m_xAxis);
        s->attachAxis(m_yAxis);
    }
    m_chart->legend()->setAlignment(Qt::AlignBottom);

    for (QScatterSeries* s : {m_topSeries, m_frontSeries, m_selectedSeries}) {
        connect(s, &QXYSeries::clicked, this, [this](const QPointF& p) { selectRow(rowAtChartPoint(p)); });
        connect(s, &QXYSeries::doubleClicked, this,
                [this](const QPointF& p) { applyRow(rowAtChartPoint(p)); });
    }
}

QPointF ExploreTab::chartPoint(const core::SearchEntry& e) const {
    return {e.worstStageBytes / bytesPerUnit(m_unit), e.mfu * 100};
}

void ExploreTab::refreshChart() {
    if (!m_topSeries)
        return;
    const double unit = bytesPerUnit(m_unit);
    QList<QPointF> top;
    QList<QPointF> front;
    m_topRows.clear();
    m_frontRows.clear();
    std::vector<std::pair<QPointF, int>> frontSorted;
    double xmin = std::numeric_limits<double>::max();
    double xmax = 0;
    double ymin = std::numeric_limits<double>::max();
    double ymax = 0;
    double capacity = 0;
    const auto extend = [&](const QPointF& p) {
        xmin = std::min(xmin, p.x());
        xmax = std::max(xmax, p.x());
        ymin = std::min(ymin, p.y());
        ymax = std::max(ymax, p.y());
    };
    const std::vector<SearchResultModel::Row>& rows = m_model->rows();
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const QPointF p = chartPoint(rows[i].entry);
        extend(p);
        capacity = (rows[i].entry.worstStageBytes + rows[i].entry.headroomBytes) / unit;
        if (rows[i].rank > 0) {
            top << p;
            m_topRows.push_back(static_cast<int>(i));
        }
        if (rows[i].pareto)
            frontSorted.emplace_back(p, static_cast<int>(i));
    }
    std::sort(frontSorted.begin(), frontSorted.end(),
              [](const auto& a, const auto& b) { return a.first.x() < b.first.x(); });
    for (const auto& [p, row] : frontSorted) {
        front << p;
        m_frontRows.push_back(row);
    }
    m_topSeries->replace(top);
    m_frontSeries->replace(front);
    m_frontLine->replace(front);
    for (const QPointF& p : m_currentSeries->points())
        extend(p);
    if (capacity <= 0 && m_doc->plan().valid)
        capacity = m_doc->plan().memory.capacityBytes / unit;

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
    m_xAxis->setRange(std::max(0.0, xmin - xpad), xmax + xpad);
    m_yAxis->setRange(std::max(0.0, ymin - ypad), std::min(100.0, ymax + ypad));
    m_xAxis->applyNiceNumbers();
    m_yAxis->applyNiceNumbers();
    for (QValueAxis* axis : {m_xAxis, m_yAxis})
        setLabelDecimals(axis);
    m_xAxis->setTitleText(tr("Memory of the worst stage, per GPU (%1)").arg(unitName(m_unit)));
    if (capacity > 0) {
        m_capacityLine->replace({QPointF(capacity, m_yAxis->min()), QPointF(capacity, m_yAxis->max())});
        m_capacityLine->setName(tr("Usable capacity %1").arg(formatBytes(capacity * unit, m_unit)));
    } else {
        m_capacityLine->clear();
    }
    refreshSelection();
}

void ExploreTab::refreshSelection() {
    QList<QPointF> points;
    if (m_selected >= 0 && m_selected < m_model->rowCount())
        points << chartPoint(m_model->row(m_selected).entry);
    if (m_selectedSeries->points() != points)
        m_selectedSeries->replace(points);
}

int ExploreTab::rowAtChartPoint(const QPointF& value) const {
    const QPointF at = m_chart->mapToPosition(value, m_topSeries);
    int best = -1;
    double bestDistance = std::numeric_limits<double>::max();
    const std::vector<SearchResultModel::Row>& rows = m_model->rows();
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const QPointF p = m_chart->mapToPosition(chartPoint(rows[i].entry), m_topSeries);
        const double d = std::hypot(p.x() - at.x(), p.y() - at.y());
        if (d < bestDistance) {
            bestDistance = d;
            best = static_cast<int>(i);
        }
    }
    return best;
}

} // namespace lp::ui
