#include "ui/charts/ChartStyle.h"

#include <QFont>
#include <QGraphicsLayout>
#include <QPalette>
#include <QPen>
#include <QtCharts/QAbstractAxis>
#include <QtCharts/QChart>
#include <QtCharts/QLegend>
#include <QtCharts/QValueAxis>

#include <algorithm>
#include <cmath>

namespace lp::ui {

QPen capacityPen(const QColor& colour, double width) {
    QPen pen(colour);
    pen.setWidthF(width);
    pen.setDashPattern({2.5, 2.0}); // in pen widths: Qt::DashLine's 4 + 2 reads solid in a 9-pixel marker
    return pen;
}

QFont smallChartFont(const QFont& base) {
    QFont small = base;
    small.setPointSizeF(base.pointSizeF() * 0.9);
    return small;
}

QFont chartTitleFont(const QFont& base) {
    QFont title = base;
    title.setBold(true);
    return title;
}

double roundAxisCeiling(double v) {
    if (v <= 0)
        return 1;
    const double p = std::pow(10.0, std::floor(std::log10(v)));
    for (double m : {1.0, 2.0, 2.5, 4.0, 5.0, 8.0, 10.0})
        if (m * p >= v)
            return m * p;
    return 10 * p;
}

double roundTickStep(double minimum) {
    if (!(minimum > 0))
        return 1;
    const double p = std::pow(10.0, std::floor(std::log10(minimum)));
    for (double m : {1.0, 2.0, 2.5, 5.0})
        if (m * p >= minimum * (1 - 1e-9))
            return m * p;
    return 10 * p;
}

int stepDecimals(double step) {
    for (int decimals = 0; decimals < 6; ++decimals) {
        const double scaled = step * std::pow(10.0, decimals);
        if (std::fabs(scaled - std::round(scaled)) < 1e-6 * std::max(1.0, scaled))
            return decimals;
    }
    return 6;
}

void setRoundTicks(QValueAxis* axis, int maxTicks) {
    const double span = axis->max() - axis->min();
    double step = roundTickStep(span / std::max(1, maxTicks - 1));
    if (span > 0 && step > span) // two ticks on a range that is not itself a round step: its ends
        step = span;
    const QString format = QStringLiteral("%.%1f").arg(stepDecimals(step));
    if (axis->tickType() != QValueAxis::TicksDynamic)
        axis->setTickType(QValueAxis::TicksDynamic);
    if (axis->tickAnchor() != 0)
        axis->setTickAnchor(0);
    if (axis->tickInterval() != step)
        axis->setTickInterval(step);
    if (axis->labelFormat() != format)
        axis->setLabelFormat(format);
}

bool isDarkPalette(const QPalette& p) {
    return p.color(QPalette::Window).lightness() < 128;
}

void applyChartTheme(QChart* chart, const QPalette& p) {
    chart->setTheme(isDarkPalette(p) ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    chart->setBackgroundBrush(p.brush(QPalette::Base));
    chart->setBackgroundRoundness(0);
    chart->setPlotAreaBackgroundVisible(false);
    chart->setTitleBrush(p.brush(QPalette::Text));
    chart->legend()->setLabelColor(p.color(QPalette::Text));
    // A line's marker is a piece of the line (dashed for the capacity), a point's is its shape (the star).
    chart->legend()->setMarkerShape(QLegend::MarkerShapeFromSeries);
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
    // Opaque mixes of text and base colour: as light as a translucent line, cheaper to paint.
    const auto mix = [&](double t) {
        const QColor a = p.color(QPalette::Text);
        const QColor b = p.color(QPalette::Base);
        return QColor::fromRgbF(static_cast<float>(a.redF() * t + b.redF() * (1 - t)),
                                static_cast<float>(a.greenF() * t + b.greenF() * (1 - t)),
                                static_cast<float>(a.blueF() * t + b.blueF() * (1 - t)));
    };
    axis->setGridLineColor(mix(0.15));
    axis->setLinePenColor(mix(0.45));
}

} // namespace lp::ui
