#include "ui/charts/ChartBuilders.h"

#include "ui/charts/ChartStyle.h"

#include <QPalette>
#include <QStringList>
#include <QtCharts/QChart>
#include <QtCharts/QLegend>
#include <QtCharts/QLegendMarker>
#include <QtCharts/QLineSeries>
#include <QtCharts/QLogValueAxis>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QValueAxis>

#include <algorithm>
#include <cmath>

namespace lp::ui {
namespace {

// The legend mark of a series in its colour: a dot, square or star for points, a line or dashes for lines.
QString legendMark(const QAbstractSeries* series, QColor& color) {
    if (const auto* scatter = qobject_cast<const QScatterSeries*>(series)) {
        color = scatter->color();
        switch (scatter->markerShape()) {
        case QScatterSeries::MarkerShapeRectangle:
            return QStringLiteral("■");
        case QScatterSeries::MarkerShapeStar:
            return QStringLiteral("★");
        default:
            return QStringLiteral("●");
        }
    }
    if (const auto* line = qobject_cast<const QLineSeries*>(series)) {
        color = line->pen().color();
        const Qt::PenStyle style = line->pen().style();
        const QString mark = style == Qt::SolidLine
                                 ? (line->pointsVisible() ? QStringLiteral("━●━") : QStringLiteral("━━"))
                             : style == Qt::DotLine ? QStringLiteral("┅┅")
                                                    : QStringLiteral("╍╍");
        return QStringLiteral("<b>%1</b>").arg(mark);
    }
    return {};
}

} // namespace

QColor recedingColor(const QPalette& palette, double share) {
    const QColor text = palette.color(QPalette::Text);
    const QColor base = palette.color(QPalette::Base);
    const auto channel = [share](double t, double b) {
        return static_cast<float>(t * share + b * (1 - share));
    };
    return QColor::fromRgbF(channel(text.redF(), base.redF()), channel(text.greenF(), base.greenF()),
                            channel(text.blueF(), base.blueF()));
}

QLogValueAxis* logAxis(const QString& title, double lo, double hi) {
    auto* axis = new QLogValueAxis;
    axis->setBase(10);
    axis->setLabelFormat(QStringLiteral("%g"));
    axis->setMinorTickCount(8);
    axis->setTitleText(title);
    lo = std::max(lo, 1e-12);
    hi = std::max(hi, lo);
    double from = lo / 1.25;
    double to = hi * 1.25;
    if (std::log10(to / from) < 1.5) {
        from = std::pow(10.0, std::floor(std::log10(from)));
        to = std::pow(10.0, std::ceil(std::log10(to)));
    }
    axis->setRange(from, to);
    return axis;
}

QValueAxis* valueAxis(const QString& title, double top) {
    auto* axis = new QValueAxis;
    axis->setTitleText(title);
    if (!(top > 0))
        top = 1;
    const double step = roundTickStep(top / 5);
    axis->setRange(0, std::ceil(top * 1.04 / step) * step);
    axis->setTickType(QValueAxis::TicksDynamic);
    axis->setTickAnchor(0);
    axis->setTickInterval(step);
    axis->setLabelFormat(QStringLiteral("%.%1f").arg(stepDecimals(step)));
    return axis;
}

void clearChart(QChart* chart) {
    chart->removeAllSeries();
    for (QAbstractAxis* axis : chart->axes()) {
        chart->removeAxis(axis);
        delete axis;
    }
}

void resetChart(QChart* chart, const QPalette& palette) {
    clearChart(chart);
    applyChartTheme(chart, palette);
}

void attachSeries(QChart* chart, QAbstractSeries* series, QAbstractAxis* x, QAbstractAxis* y, bool inLegend) {
    chart->addSeries(series);
    series->attachAxis(x);
    series->attachAxis(y);
    if (!inLegend)
        for (QLegendMarker* marker : chart->legend()->markers(series))
            marker->setVisible(false);
}

QPen seriesPen(const QColor& color, Qt::PenStyle style, double width) {
    QPen pen(color);
    pen.setStyle(style);
    pen.setWidthF(width);
    return pen;
}

QLineSeries* lineSeries(QPointF from, QPointF to, const QString& name, const QPen& pen) {
    auto* series = new QLineSeries;
    series->setName(name);
    series->append(from);
    series->append(to);
    series->setPen(pen);
    return series;
}

QString legendEntryHtml(const QColor& color, const QString& mark, const QString& name) {
    QString text = name.toHtmlEscaped();
    text.replace(QLatin1Char(' '), QStringLiteral("&nbsp;"));
    return QStringLiteral("<span style='color:%1'>%2</span>&nbsp;%3").arg(color.name(), mark, text);
}

QString legendHtml(const QChart* chart) {
    QStringList entries;
    for (const QAbstractSeries* series : chart->series()) {
        if (series->name().isEmpty())
            continue;
        QColor color;
        const QString mark = legendMark(series, color);
        if (!mark.isEmpty())
            entries << legendEntryHtml(color, mark, series->name());
    }
    return entries.join(QStringLiteral(" &nbsp; "));
}

} // namespace lp::ui
