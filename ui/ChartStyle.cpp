#include "ui/ChartStyle.h"

#include <QtCharts/QAbstractAxis>
#include <QtCharts/QChart>
#include <QtCharts/QLegend>
#include <QGraphicsLayout>
#include <QPalette>

namespace lp::ui {

bool isDarkPalette(const QPalette& p) { return p.color(QPalette::Window).lightness() < 128; }

void applyChartTheme(QChart* chart, const QPalette& p) {
    chart->setTheme(isDarkPalette(p) ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    chart->setBackgroundBrush(p.brush(QPalette::Base));
    chart->setBackgroundRoundness(0);
    chart->setPlotAreaBackgroundVisible(false);
    chart->setTitleBrush(p.brush(QPalette::Text));
    chart->legend()->setLabelColor(p.color(QPalette::Text));
    chart->setMargins(QMargins(4, 4, 4, 4));
    chart->layout()->setContentsMargins(0, 0, 0, 0);
    chart->setAnimationOptions(QChart::NoAnimation);
}

void styleAxis(QAbstractAxis* axis, const QPalette& p, const QFont& font) {
    axis->setLabelsColor(p.color(QPalette::Text));
    axis->setLabelsFont(font);
    axis->setTitleBrush(p.brush(QPalette::Text));
    QFont title = font;
    title.setBold(false);
    axis->setTitleFont(title);
    QColor grid = p.color(QPalette::Text);
    grid.setAlpha(40);
    axis->setGridLineColor(grid);
    QColor line = p.color(QPalette::Text);
    line.setAlpha(110);
    axis->setLinePenColor(line);
}

} // namespace lp::ui
