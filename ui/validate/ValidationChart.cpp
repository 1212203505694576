#include "ui/validate/ValidationChart.h"

#include "core/measured/ValidationRun.h"
#include "core/measured/ValidationText.h"
#include "ui/charts/ChartBuilders.h"
#include "ui/charts/ChartStyle.h"
#include "ui/validate/ValidationModel.h"
#include "ui/widgets/Format.h"
#include "ui/widgets/Palette.h"

#include <QCursor>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QToolTip>
#include <QVBoxLayout>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLegend>
#include <QtCharts/QLineSeries>
#include <QtCharts/QLogValueAxis>
#include <QtCharts/QScatterSeries>

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

namespace lp::ui {
namespace {

QColor metricColor(const QString& metric) {
    static const std::map<QString, QColor> kColors = {
        {QStringLiteral("iteration_time_s"), QColor(0x4E, 0x79, 0xA7)},        // blue
        {QStringLiteral("model_tflops_per_gpu"), QColor(0x49, 0x98, 0x94)},    // dark teal
        {QStringLiteral("hardware_tflops_per_gpu"), QColor(0x59, 0xA1, 0x4F)}, // green
        {QStringLiteral("mfu"), QColor(0xF2, 0x8E, 0x2B)},                     // orange
        {QStringLiteral("hfu"), QColor(0xB0, 0x7A, 0xA1)},                     // purple
        {QStringLiteral("tokens_per_s_per_gpu"), QColor(0x9C, 0x75, 0x5F)},    // brown
        {QStringLiteral("peak_memory_gib"), QColor(0xB6, 0x99, 0x2D)},         // ochre
    };
    const auto it = kColors.find(metric);
    return it != kColors.end() ? it->second : QColor(0x9D, 0x94, 0x8F);
}

bool plottable(const core::ValidationRow& row) {
    return row.predicted > 0 && row.measured > 0 && std::isfinite(row.predicted);
}

} // namespace

ValidationChart::ValidationChart(const ValidationModel& model, const QSortFilterProxyModel& shown,
                                 QWidget* parent)
    : QWidget(parent), m_model(model), m_shown(shown), m_chart(new QChart),
      m_view(new QChartView(m_chart, this)), m_legend(new QLabel(this)), m_note(new QLabel(this)) {
    m_chart->legend()->hide(); // the wrapping legend under the chart instead
    m_view->setObjectName(QStringLiteral("validationChart"));
    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setMinimumSize(320, 240);
    m_legend->setObjectName(QStringLiteral("validationLegend"));
    m_legend->setTextFormat(Qt::RichText);
    m_legend->setWordWrap(true);
    m_note->setWordWrap(true);
    m_note->setForegroundRole(QPalette::PlaceholderText);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_legend);
    layout->addWidget(m_note);
    applyChartTheme(m_chart, palette());
}

void ValidationChart::rebuild() {
    resetChart(m_chart, palette());
    m_selected = nullptr;
    m_seriesRows.clear();
    m_plotted = 0;
    m_chart->setTitle(tr("Predicted against measured (log scales)"));
    m_chart->setTitleFont(chartTitleFont(font()));
    double lo = 0, hi = 0;
    int missing = 0;
    const std::vector<MetricRows> metrics = plottableRows(lo, hi, missing);
    addAxes(metrics, lo, hi);
    addReferenceLines();
    for (const MetricRows& metric : metrics)
        addMetricSeries(metric);
    addSelectionMarker();
    showLegend(metrics);
    showNotes(metrics, missing);
}

// The shown rows with a prediction, by metric in the metrics' usual order; the range of their values.
std::vector<ValidationChart::MetricRows> ValidationChart::plottableRows(double& lo, double& hi,
                                                                        int& missing) const {
    std::map<int, MetricRows> byMetric;
    for (int r = 0; r < m_shown.rowCount(); ++r) {
        const int src = m_shown.mapToSource(m_shown.index(r, 0)).row();
        const core::ValidationRow* row = m_model.rowAt(src);
        if (!row)
            continue;
        if (!plottable(*row)) {
            ++missing;
            continue;
        }
        int rank = core::metricRank(row->metric);
        if (rank < 0) // unknown metrics after the known ones
            rank = 100 + static_cast<int>(qHash(qs(row->metric)) % 1000);
        MetricRows& slot = byMetric[rank];
        slot.metric = qs(row->metric);
        slot.rows.push_back(src);
        lo = lo > 0 ? std::min({lo, row->measured, row->predicted}) : std::min(row->measured, row->predicted);
        hi = std::max({hi, row->measured, row->predicted});
    }
    std::vector<MetricRows> out;
    for (auto& [rank, rows] : byMetric)
        out.push_back(std::move(rows));
    return out;
}

// Both axes over the same range: the distance from the diagonal is the relative error.
void ValidationChart::addAxes(const std::vector<MetricRows>& metrics, double lo, double hi) {
    const QString unit =
        metrics.size() == 1 ? ValidationModel::metricUnit(metrics.front().metric) : QString();
    const bool plain = unit.isEmpty() || unit == QLatin1String("%");
    if (!(lo > 0)) {
        lo = 0.1;
        hi = 100;
    }
    m_x = logAxis(plain ? tr("Measured") : tr("Measured (%1)").arg(unit), lo, hi);
    m_y = logAxis(plain ? tr("Predicted") : tr("Predicted (%1)").arg(unit), lo, hi);
    for (QLogValueAxis* axis : {m_x, m_y}) {
        styleAxis(axis, palette(), font());
        axis->setMinorGridLineColor(recedingColor(palette(), 0.07));
    }
    m_chart->addAxis(m_x, Qt::AlignBottom);
    m_chart->addAxis(m_y, Qt::AlignLeft);
}

// The 1:1 line and the ±10% and ±20% bands either side of it.
void ValidationChart::addReferenceLines() {
    const double from = m_x->min(), to = m_x->max();
    attachSeries(m_chart,
                 lineSeries({from, from}, {to, to}, tr("1:1 (exact)"),
                            seriesPen(recedingColor(palette(), 0.55), Qt::SolidLine, 1.5)),
                 m_x, m_y);
    for (const auto& [factor, color, style, name] :
         {std::tuple{1.1, palette::bandGood(), Qt::DashLine, tr("±10%")},
          std::tuple{1.2, palette::warning(), Qt::DotLine, tr("±20%")}}) {
        const QPen pen = seriesPen(color, style, 1.0);
        attachSeries(m_chart, lineSeries({from, from * factor}, {to, to * factor}, name, pen), m_x, m_y);
        attachSeries(m_chart, lineSeries({from, from / factor}, {to, to / factor}, name, pen), m_x, m_y,
                     false);
    }
}

void ValidationChart::addMetricSeries(const MetricRows& metric) {
    auto* series = new QScatterSeries;
    series->setName(ValidationModel::metricName(metric.metric));
    series->setMarkerShape(QScatterSeries::MarkerShapeCircle);
    series->setMarkerSize(9);
    series->setColor(metricColor(metric.metric));
    series->setBorderColor(metricColor(metric.metric).darker(125));
    for (int src : metric.rows) {
        const core::ValidationRow* row = m_model.rowAt(src);
        series->append(row->measured, row->predicted);
    }
    attachSeries(m_chart, series, m_x, m_y);
    const int seriesIndex = static_cast<int>(m_seriesRows.size());
    m_seriesRows.push_back(metric.rows);
    m_plotted += static_cast<int>(metric.rows.size());
    connect(series, &QScatterSeries::clicked, this, [this, seriesIndex](const QPointF& p) {
        if (const int src = nearestRow(seriesIndex, p); src >= 0)
            emit rowClicked(src);
    });
    connect(series, &QScatterSeries::doubleClicked, this, [this, seriesIndex](const QPointF& p) {
        if (const int src = nearestRow(seriesIndex, p); src >= 0)
            emit rowDoubleClicked(src);
    });
    connect(series, &QScatterSeries::hovered, this, [this, seriesIndex](const QPointF& p, bool state) {
        if (state)
            showPointToolTip(nearestRow(seriesIndex, p));
        else
            QToolTip::hideText();
    });
}

// The source row of the series' point nearest to `point` on the log scales.
int ValidationChart::nearestRow(int seriesIndex, const QPointF& point) const {
    int best = -1;
    double bestDistance = 0;
    for (int src : m_seriesRows[static_cast<std::size_t>(seriesIndex)]) {
        const core::ValidationRow* row = m_model.rowAt(src);
        const double d =
            std::hypot(std::log(row->measured / point.x()), std::log(row->predicted / point.y()));
        if (best < 0 || d < bestDistance) {
            best = src;
            bestDistance = d;
        }
    }
    return best;
}

void ValidationChart::showPointToolTip(int sourceRow) {
    const core::ValidationRow* row = m_model.rowAt(sourceRow);
    if (!row)
        return;
    const QString metric = qs(row->metric);
    QToolTip::showText(QCursor::pos(),
                       tr("<b>%1</b><br>%2: measured %3, predicted %4 (%5)")
                           .arg(qs(row->caseId).toHtmlEscaped(), ValidationModel::metricName(metric),
                                ValidationModel::formatMetricValue(metric, row->measured),
                                ValidationModel::formatMetricValue(metric, row->predicted),
                                ValidationModel::formatError(row->relativeError)),
                       m_view);
}

// The selected row, ringed.
void ValidationChart::addSelectionMarker() {
    m_selected = new QScatterSeries;
    m_selected->setName(tr("Selected"));
    m_selected->setMarkerShape(QScatterSeries::MarkerShapeCircle);
    m_selected->setMarkerSize(18);
    m_selected->setColor(Qt::transparent);
    m_selected->setPen(seriesPen(palette().color(QPalette::Text)));
    attachSeries(m_chart, m_selected, m_x, m_y, false);
}

void ValidationChart::showSelected(const core::ValidationRow* row) {
    if (!m_selected)
        return;
    m_selected->clear();
    if (row && row->predicted > 0 && row->measured > 0)
        m_selected->append(row->measured, row->predicted);
}

// The metrics with their counts, then what the lines mean; wraps when narrow.
void ValidationChart::showLegend(const std::vector<MetricRows>& metrics) {
    QStringList entries;
    for (const MetricRows& m : metrics)
        entries << legendEntryHtml(
            metricColor(m.metric), QStringLiteral("●"),
            QStringLiteral("%1 (%2)").arg(ValidationModel::metricShortName(m.metric)).arg(m.rows.size()));
    entries << legendEntryHtml(recedingColor(palette(), 0.55), QStringLiteral("<b>━━</b>"), tr("exact"))
            << legendEntryHtml(palette::bandGood(), QStringLiteral("<b>╍╍</b>"), tr("±10%"))
            << legendEntryHtml(palette::warning(), QStringLiteral("<b>┅┅</b>"), tr("±20%"));
    m_legend->setText(entries.join(QStringLiteral(" &nbsp; ")));
}

void ValidationChart::showNotes(const std::vector<MetricRows>& metrics, int missing) {
    QStringList notes;
    if (missing > 0)
        notes << tr(
            "%n value(s) without a prediction (the layout is invalid in the planner) are not plotted.",
            nullptr, missing);
    if (metrics.size() > 1)
        notes << tr("Metrics of different units share the axes: the distance from the 1:1 line is the "
                    "relative error. Pick one metric to see its own scale.");
    if (m_model.rowCount() == 0)
        notes << tr("No cases loaded.");
    m_note->setText(notes.join(QLatin1Char(' ')));
    m_note->setVisible(!notes.isEmpty());
}

} // namespace lp::ui
