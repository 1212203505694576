#pragma once
// Chart appearance that follows the window's light or dark palette. Series colours are set by the
// charts themselves from Palette.h after the theme is applied.
class QChart;
class QPalette;
class QAbstractAxis;
class QFont;

namespace lp::ui {

bool isDarkPalette(const QPalette& p);
void applyChartTheme(QChart* chart, const QPalette& p);
void styleAxis(QAbstractAxis* axis, const QPalette& p, const QFont& font);
// The charts' small type (axes, legends): 90% of the widget's font.
QFont smallChartFont(const QFont& base);
// A chart title: the widget's font, bold.
QFont chartTitleFont(const QFont& base);
// A round axis maximum at or above v: 1, 2, 2.5, 4, 5 or 8 x 10^k.
double roundAxisCeiling(double v);

} // namespace lp::ui
