#include "core/measured/ValidationRun.h"
#include "ui/charts/ChartStyle.h"
#include "ui/document/ScenarioDocument.h"
#include "ui/validate/ValidationModel.h"
#include "ui/validate/ValidationTab.h"
#include "ui/widgets/Format.h"
#include "ui/widgets/InlineBanner.h"
#include "ui/widgets/Palette.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QCursor>
#include <QDir>
#include <QEvent>
#include <QFileInfo>
#include <QFrame>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLayout>
#include <QLineEdit>
#include <QMouseEvent>
#include <QPushButton>
#include <QScrollBar>
#include <QSettings>
#include <QSplitter>
#include <QStandardPaths>
#include <QTableView>
#include <QTimer>
#include <QToolTip>
#include <QVBoxLayout>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLegend>
#include <QtCharts/QLegendMarker>
#include <QtCharts/QLineSeries>
#include <QtCharts/QLogValueAxis>
#include <QtCharts/QScatterSeries>

#include <algorithm>
#include <cmath>
#include <map>

// The Validate tab's predicted-against-measured chart.
namespace lp::ui {
namespace validation {
QColor mix(const QPalette& p, double t);
} // namespace validation
using namespace validation;

namespace {

QColor metricColor(const QString& metric) {
    if (metric == QLatin1String("iteration_time_s"))
        return QColor(0x4E, 0x79, 0xA7); // blue
    if (metric == QLatin1String("model_tflops_per_gpu"))
        return QColor(0x49, 0x98, 0x94); // dark teal
    if (metric == QLatin1String("hardware_tflops_per_gpu"))
        return QColor(0x59, 0xA1, 0x4F); // green
    if (metric == QLatin1String("mfu"))
        return QColor(0xF2, 0x8E, 0x2B); // orange
    if (metric == QLatin1String("hfu"))
        return QColor(0xB0, 0x7A, 0xA1); // purple
    if (metric == QLatin1String("tokens_per_s_per_gpu"))
        return QColor(0x9C, 0x75, 0x5F); // brown
    if (metric == QLatin1String("peak_memory_gib"))
        return QColor(0xB6, 0x99, 0x2D); // ochre
    return QColor(0x9D, 0x94, 0x8F);
}

QLineSeries* line(double x0, double y0, double x1, double y1) {
    auto* s = new QLineSeries;
    s->append(x0, y0);
    s->append(x1, y1);
    return s;
}

} // namespace

void ValidationTab::rebuildChart() {
    m_chart->removeAllSeries();
    for (QAbstractAxis* axis : m_chart->axes())
        m_chart->removeAxis(axis);
    m_selectedMarker = nullptr;
    m_seriesRows.clear();
    m_plotted = 0;
    const QPalette pal = palette();
    applyChartTheme(m_chart, pal);
    m_chart->setTitle(tr("Predicted against measured (log scales)"));
    QFont titleFont = font();
    titleFont.setBold(true);
    m_chart->setTitleFont(titleFont);

    // Visible rows by metric, in the metrics' usual order.
    std::map<int, std::pair<QString, std::vector<int>>> byMetric;
    double lo = 0, hi = 0;
    int missing = 0;
    for (int r = 0; r < m_filter->rowCount(); ++r) {
        const int src = m_filter->mapToSource(m_filter->index(r, 0)).row();
        const core::ValidationRow* row = m_model->rowAt(src);
        if (!row)
            continue;
        if (!(row->predicted > 0) || !(row->measured > 0) || !std::isfinite(row->predicted)) {
            ++missing;
            continue;
        }
        const QString metric = qs(row->metric);
        int order = static_cast<int>(ValidationModel::metricOrder().indexOf(metric));
        if (order < 0)
            order = 100 + static_cast<int>(qHash(metric) % 1000);
        auto& slot = byMetric[order];
        slot.first = metric;
        slot.second.push_back(src);
        const double a = std::min(row->measured, row->predicted);
        const double b = std::max(row->measured, row->predicted);
        lo = lo > 0 ? std::min(lo, a) : a;
        hi = std::max(hi, b);
    }

    auto* x = new QLogValueAxis;
    auto* y = new QLogValueAxis;
    const QString unit =
        byMetric.size() == 1 ? ValidationModel::metricUnit(byMetric.begin()->second.first) : QString();
    const bool fraction = unit == QLatin1String("%");
    x->setTitleText(unit.isEmpty() || fraction ? tr("Measured") : tr("Measured (%1)").arg(unit));
    y->setTitleText(unit.isEmpty() || fraction ? tr("Predicted") : tr("Predicted (%1)").arg(unit));
    for (QLogValueAxis* axis : {x, y}) {
        axis->setBase(10);
        axis->setLabelFormat(QStringLiteral("%g"));
        axis->setMinorTickCount(8);
        styleAxis(axis, pal, font());
        axis->setMinorGridLineColor(mix(pal, 0.07));
    }
    if (!(lo > 0)) {
        lo = 0.1;
        hi = 100;
    }
    // A little room around the points; whole decades when the span is too short to show a label otherwise.
    double axisLo = lo / 1.25;
    double axisHi = hi * 1.25;
    if (std::log10(axisHi / axisLo) < 1.5) {
        axisLo = std::pow(10.0, std::floor(std::log10(axisLo)));
        axisHi = std::pow(10.0, std::ceil(std::log10(axisHi)));
    }
    m_chart->addAxis(x, Qt::AlignBottom);
    m_chart->addAxis(y, Qt::AlignLeft);
    x->setRange(axisLo, axisHi);
    y->setRange(axisLo, axisHi);

    const auto addLine = [&](QLineSeries* s, const QString& name, const QPen& pen, bool inLegend) {
        s->setName(name);
        s->setPen(pen);
        m_chart->addSeries(s);
        s->attachAxis(x);
        s->attachAxis(y);
        if (!inLegend)
            for (QLegendMarker* marker : m_chart->legend()->markers(s))
                marker->setVisible(false);
    };
    QPen identity(mix(pal, 0.55));
    identity.setWidthF(1.5);
    addLine(line(axisLo, axisLo, axisHi, axisHi), tr("1:1 (exact)"), identity, true);
    QPen band(palette::bandGood());
    band.setStyle(Qt::DashLine);
    band.setWidthF(1.0);
    addLine(line(axisLo, axisLo * 1.1, axisHi, axisHi * 1.1), tr("±10%"), band, true);
    addLine(line(axisLo, axisLo / 1.1, axisHi, axisHi / 1.1), tr("±10%"), band, false);
    QPen band20(palette::warning());
    band20.setStyle(Qt::DotLine);
    band20.setWidthF(1.0);
    addLine(line(axisLo, axisLo * 1.2, axisHi, axisHi * 1.2), tr("±20%"), band20, true);
    addLine(line(axisLo, axisLo / 1.2, axisHi, axisHi / 1.2), tr("±20%"), band20, false);

    for (const auto& [order, entry] : byMetric) {
        const auto& [metric, rows] = entry;
        auto* s = new QScatterSeries;
        s->setName(ValidationModel::metricName(metric));
        s->setMarkerShape(QScatterSeries::MarkerShapeCircle);
        s->setMarkerSize(9);
        s->setColor(metricColor(metric));
        s->setBorderColor(metricColor(metric).darker(125));
        for (int src : rows) {
            const core::ValidationRow* row = m_model->rowAt(src);
            s->append(row->measured, row->predicted);
        }
        m_chart->addSeries(s);
        s->attachAxis(x);
        s->attachAxis(y);
        const int seriesIndex = static_cast<int>(m_seriesRows.size());
        m_seriesRows.push_back(rows);
        m_plotted += static_cast<int>(rows.size());
        const auto nearest = [this, seriesIndex](const QPointF& p) {
            const auto& rowsOf = m_seriesRows[static_cast<std::size_t>(seriesIndex)];
            int best = -1;
            double bestDistance = 0;
            for (int src : rowsOf) {
                const core::ValidationRow* row = m_model->rowAt(src);
                const double d =
                    std::hypot(std::log(row->measured / p.x()), std::log(row->predicted / p.y()));
                if (best < 0 || d < bestDistance) {
                    best = src;
                    bestDistance = d;
                }
            }
            return best;
        };
        connect(s, &QScatterSeries::clicked, this, [this, nearest](const QPointF& p) {
            const int src = nearest(p);
            if (src >= 0)
                selectSourceRow(src);
        });
        connect(s, &QScatterSeries::doubleClicked, this, [this, nearest](const QPointF& p) {
            const int src = nearest(p);
            if (src >= 0)
                openCase(src);
        });
        connect(s, &QScatterSeries::hovered, this, [this, nearest](const QPointF& p, bool state) {
            if (!state) {
                QToolTip::hideText();
                return;
            }
            const int src = nearest(p);
            const core::ValidationRow* row = m_model->rowAt(src);
            if (!row)
                return;
            const QString rowMetric = qs(row->metric);
            QToolTip::showText(QCursor::pos(),
                               tr("<b>%1</b><br>%2: measured %3, predicted %4 (%5)")
                                   .arg(qs(row->caseId).toHtmlEscaped(),
                                        ValidationModel::metricName(rowMetric),
                                        ValidationModel::formatMetricValue(rowMetric, row->measured),
                                        ValidationModel::formatMetricValue(rowMetric, row->predicted),
                                        ValidationModel::formatError(row->relativeError)),
                               m_chartView);
        });
    }

    // The selected row, ringed.
    m_selectedMarker = new QScatterSeries;
    m_selectedMarker->setName(tr("Selected"));
    m_selectedMarker->setMarkerShape(QScatterSeries::MarkerShapeCircle);
    m_selectedMarker->setMarkerSize(18);
    m_selectedMarker->setColor(Qt::transparent);
    QPen ring(pal.color(QPalette::Text));
    ring.setWidthF(2.0);
    m_selectedMarker->setPen(ring);
    m_chart->addSeries(m_selectedMarker);
    m_selectedMarker->attachAxis(x);
    m_selectedMarker->attachAxis(y);
    for (QLegendMarker* marker : m_chart->legend()->markers(m_selectedMarker))
        marker->setVisible(false);
    updateSelectionMarker();

    // The legend: the metrics with their counts, then what the lines mean. Wraps when narrow.
    QStringList entries;
    const auto entry = [](const QColor& c, const QString& mark, const QString& text) {
        QString t = text.toHtmlEscaped();
        t.replace(QLatin1Char(' '), QStringLiteral("&nbsp;"));
        return QStringLiteral("<span style='color:%1'>%2</span>&nbsp;%3").arg(c.name(), mark, t);
    };
    for (const auto& [order, e] : byMetric)
        entries << entry(
            metricColor(e.first), QStringLiteral("●"),
            QStringLiteral("%1 (%2)").arg(ValidationModel::metricShortName(e.first)).arg(e.second.size()));
    entries << entry(mix(pal, 0.55), QStringLiteral("<b>━━</b>"), tr("exact"))
            << entry(palette::bandGood(), QStringLiteral("<b>╍╍</b>"), tr("±10%"))
            << entry(palette::warning(), QStringLiteral("<b>┅┅</b>"), tr("±20%"));
    m_legend->setText(entries.join(QStringLiteral(" &nbsp; ")));

    QStringList notes;
    if (missing > 0)
        notes << tr(
            "%n value(s) without a prediction (the layout is invalid in the planner) are not plotted.",
            nullptr, missing);
    if (byMetric.size() > 1)
        notes << tr(
            "Metrics of different units share the axes: the distance from the 1:1 line is the relative "
            "error. Pick one metric to see its own scale.");
    if (m_model->rowCount() == 0)
        notes << tr("No cases loaded.");
    m_chartNote->setText(notes.join(QLatin1Char(' ')));
    m_chartNote->setVisible(!notes.isEmpty());
}

} // namespace lp::ui
