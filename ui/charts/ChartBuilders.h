#pragma once
// Building blocks for the tool tabs' Qt charts: axes that always show labels, straight lines, a colour that
// recedes into the page, and a legend as rich text that wraps under the chart (QLegend elides instead).
#include <QColor>
#include <QPen>
#include <QPointF>
#include <QString>

class QAbstractAxis;
class QAbstractSeries;
class QChart;
class QLineSeries;
class QLogValueAxis;
class QPalette;
class QValueAxis;

namespace lp::ui {

// The text colour mixed into the base colour, `share` of the way (0 base, 1 text): lines that recede.
QColor recedingColor(const QPalette& palette, double share);

// A base-10 log axis over [lo, hi] with a little room, rounded out to whole decades when the span is too
// short to show a label otherwise.
QLogValueAxis* logAxis(const QString& title, double lo, double hi);
// 0 to a little above `top`, with ticks at a round step (1, 2, 2.5 or 5 x a power of ten).
QValueAxis* valueAxis(const QString& title, double top);

// Removes (and deletes) the chart's series and axes.
void clearChart(QChart* chart);
// clearChart, then the palette's theme.
void resetChart(QChart* chart, const QPalette& palette);
// Adds the series to the chart on the two axes; `inLegend` false hides it from the legend.
void attachSeries(QChart* chart, QAbstractSeries* series, QAbstractAxis* x, QAbstractAxis* y,
                  bool inLegend = true);

QPen seriesPen(const QColor& color, Qt::PenStyle style = Qt::SolidLine, double width = 2.0);
// A straight line from `from` to `to`.
QLineSeries* lineSeries(QPointF from, QPointF to, const QString& name = {}, const QPen& pen = QPen());

// One legend entry: a coloured mark ("●", "<b>━━</b>") and the name, kept on one line.
QString legendEntryHtml(const QColor& color, const QString& mark, const QString& name);
// The chart's named series as legend entries: a dot, square, star, line or dashes in the series' colour.
QString legendHtml(const QChart* chart);

} // namespace lp::ui
