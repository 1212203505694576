#pragma once
// Chart appearance that follows the window's light or dark palette. Series colours are set by the
// charts themselves from Palette.h after the theme is applied.
class QChart;
class QPalette;
class QAbstractAxis;
class QFont;
class QValueAxis;
class QColor;
class QPen;

namespace lp::ui {

bool isDarkPalette(const QPalette& p);
void applyChartTheme(QChart* chart, const QPalette& p);
void styleAxis(QAbstractAxis* axis, const QPalette& p, const QFont& font);
// The dashed capacity line: dashes short enough that a legend's short line marker shows two of them.
QPen capacityPen(const QColor& colour, double width);
// The charts' small type (axes, legends): 90% of the widget's font.
QFont smallChartFont(const QFont& base);
// A chart title: the widget's font, bold.
QFont chartTitleFont(const QFont& base);
// A round axis maximum at or above v: 1, 2, 2.5, 4, 5 or 8 x 10^k.
double roundAxisCeiling(double v);
// The round tick step at or above `minimum`: 1, 2, 2.5 or 5 x 10^k (never 1.25 or 0.4).
double roundTickStep(double minimum);
// The decimals a multiple of `step` needs: 0 for 500, 1 for 2.5, 2 for 0.25.
int stepDecimals(double step);
// Ticks from 0 at a round step, at most `maxTicks` of them over the axis' range (0 / 1 / 2 / 3 / 4 rather
// than 0 / 1.3 / 2.5 / 3.8), labelled with the decimals the step needs.
void setRoundTicks(QValueAxis* axis, int maxTicks);

} // namespace lp::ui
