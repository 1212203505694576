#include "ui/calibrate/CalibrateTabParts.h"

#include "core/model/Units.h"

namespace lp::ui::calibrate {

QColor mix(const QPalette& p, double t) {
    const QColor a = p.color(QPalette::Text);
    const QColor b = p.color(QPalette::Base);
    return QColor::fromRgbF(static_cast<float>(a.redF() * t + b.redF() * (1 - t)),
                            static_cast<float>(a.greenF() * t + b.greenF() * (1 - t)),
                            static_cast<float>(a.blueF() * t + b.blueF() * (1 - t)));
}

QColor collectiveColor(calib::Collective c) {
    switch (c) {
    case calib::Collective::AllReduce:
        return kBlue;
    case calib::Collective::AllGather:
        return kGreen;
    case calib::Collective::ReduceScatter:
        return kPurple;
    case calib::Collective::SendRecv:
        return kBrown;
    }
    return kBlue;
}

QString collectiveName(calib::Collective c) {
    switch (c) {
    case calib::Collective::AllReduce:
        return QStringLiteral("all-reduce");
    case calib::Collective::AllGather:
        return QStringLiteral("all-gather");
    case calib::Collective::ReduceScatter:
        return QStringLiteral("reduce-scatter");
    case calib::Collective::SendRecv:
        return QStringLiteral("send/recv");
    }
    return {};
}

bool isSweepShape(const calib::GemmShape& g) {
    return g.label.starts_with("square") || g.label.starts_with("skinny");
}

QString sizeText(double bytes) {
    if (bytes >= 1024.0 * kMiB)
        return formatNumber(bytes / (1024.0 * kMiB), bytes >= 10 * 1024.0 * kMiB ? 0 : 1) +
               QStringLiteral(" GiB");
    if (bytes >= kMiB)
        return formatNumber(bytes / kMiB, 0) + QStringLiteral(" MiB");
    return formatNumber(bytes / 1024.0, 0) + QStringLiteral(" KiB");
}

QString tflops(double flopsPerSecond) {
    return formatNumber(flopsPerSecond / 1e12, 1) + QStringLiteral(" TFLOP/s");
}
QString peakText(double flopsPerSecond) {
    return formatNumber(flopsPerSecond / 1e12, 0) + QStringLiteral(" TFLOP/s");
}

// A log axis over whole decades around [lo, hi] (labels always show), for values scaled by `scale`.
QLogValueAxis* logAxis(const QString& title, double lo, double hi) {
    auto* axis = new QLogValueAxis;
    axis->setBase(10);
    axis->setLabelFormat(QStringLiteral("%g"));
    axis->setMinorTickCount(8);
    axis->setTitleText(title);
    lo = std::max(lo, 1e-12);
    hi = std::max(hi, lo);
    double a = lo / 1.25;
    double b = hi * 1.25;
    if (std::log10(b / a) < 1.5) { // too short for labels at whole decades: round out to them
        a = std::pow(10.0, std::floor(std::log10(a)));
        b = std::pow(10.0, std::ceil(std::log10(b)));
    }
    axis->setRange(a, b);
    return axis;
}

// 0 to a little above `top`, with ticks at a round step (1, 2 or 5 x a power of ten).
QValueAxis* valueAxis(const QString& title, double top) {
    auto* axis = new QValueAxis;
    axis->setTitleText(title);
    if (!(top > 0))
        top = 1;
    const double raw = top / 5;
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    double step = magnitude * 10;
    for (double f : {1.0, 2.0, 2.5, 5.0, 10.0})
        if (f * magnitude >= raw) {
            step = f * magnitude;
            break;
        }
    const double hi = std::ceil(top * 1.04 / step) * step;
    axis->setRange(0, hi);
    axis->setTickType(QValueAxis::TicksDynamic);
    axis->setTickAnchor(0);
    axis->setTickInterval(step);
    axis->setLabelFormat(step < 1 ? QStringLiteral("%.1f") : QStringLiteral("%.0f"));
    return axis;
}

void resetChart(QChart* chart, const QPalette& pal) {
    chart->removeAllSeries();
    for (QAbstractAxis* axis : chart->axes())
        chart->removeAxis(axis);
    applyChartTheme(chart, pal);
}

void attach(QChart* chart, QAbstractSeries* s, QAbstractAxis* x, QAbstractAxis* y, bool inLegend) {
    chart->addSeries(s);
    s->attachAxis(x);
    s->attachAxis(y);
    if (!inLegend)
        for (QLegendMarker* m : chart->legend()->markers(s))
            m->setVisible(false);
}

QLineSeries* flat(double x0, double x1, double y, const QString& name, const QColor& color,
                  Qt::PenStyle style, double width) {
    auto* s = new QLineSeries;
    s->setName(name);
    s->append(x0, y);
    s->append(x1, y);
    QPen pen(color);
    pen.setStyle(style);
    pen.setWidthF(width);
    s->setPen(pen);
    return s;
}

// y(x) = curve.at(x) * scale sampled over [x0, x1] in log steps (x in the curve's units; shown / xShow).
QLineSeries* curveSeries(const core::Curve& curve, double x0, double x1, double scale, double xShow,
                         const QString& name, const QColor& color, Qt::PenStyle style) {
    auto* s = new QLineSeries;
    s->setName(name);
    constexpr int kSteps = 64;
    for (int i = 0; i <= kSteps; ++i) {
        const double x = x0 * std::pow(x1 / x0, static_cast<double>(i) / kSteps);
        s->append(x / xShow, curve.at(x) * scale);
    }
    QPen pen(color);
    pen.setStyle(style);
    pen.setWidthF(2.0);
    s->setPen(pen);
    return s;
}

// The chart's named series as a rich-text legend: a coloured mark (dot, square, line or dashes) and the name.
QString legendHtml(const QChart* chart) {
    QStringList entries;
    for (const QAbstractSeries* series : chart->series()) {
        if (series->name().isEmpty())
            continue;
        QColor color;
        QString mark;
        if (const auto* scatter = qobject_cast<const QScatterSeries*>(series)) {
            color = scatter->color();
            mark = scatter->markerShape() == QScatterSeries::MarkerShapeRectangle ? QStringLiteral("■")
                                                                                  : QStringLiteral("●");
        } else if (const auto* line = qobject_cast<const QLineSeries*>(series)) {
            color = line->pen().color();
            const Qt::PenStyle style = line->pen().style();
            mark = style == Qt::SolidLine
                       ? (line->pointsVisible() ? QStringLiteral("━●━") : QStringLiteral("━━"))
                   : style == Qt::DotLine ? QStringLiteral("┅┅")
                                          : QStringLiteral("╍╍");
            mark = QStringLiteral("<b>%1</b>").arg(mark);
        } else {
            continue;
        }
        QString name = series->name().toHtmlEscaped();
        name.replace(QLatin1Char(' '), QStringLiteral("&nbsp;"));
        entries << QStringLiteral("<span style='color:%1'>%2</span>&nbsp;%3").arg(color.name(), mark, name);
    }
    return entries.join(QStringLiteral(" &nbsp; "));
}

QTableWidgetItem* cell(const QString& text, bool right, const QString& tip) {
    auto* item = new QTableWidgetItem(text);
    item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    if (right)
        item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    if (!tip.isEmpty())
        item->setToolTip(tip);
    return item;
}

QString deviceMemory(double bytes) {
    return formatNumber(bytes / core::kGiB, 0) + QStringLiteral(" GiB");
}

} // namespace lp::ui::calibrate
