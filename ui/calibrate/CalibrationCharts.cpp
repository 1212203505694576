#include "ui/calibrate/CalibrationCharts.h"

#include "cuda/CalibrationSummary.h"
#include "ui/charts/ChartBuilders.h"
#include "ui/charts/ChartStyle.h"
#include "ui/widgets/Format.h"
#include "ui/widgets/Palette.h"

#include <QGridLayout>
#include <QLabel>
#include <QVBoxLayout>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLegend>
#include <QtCharts/QLineSeries>
#include <QtCharts/QLogValueAxis>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QValueAxis>

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

namespace lp::ui {
namespace {

constexpr double kMiB = 1024.0 * 1024.0;
constexpr double kGiga = 1e9; // GEMM sizes shown in GFLOP
const QColor kBlue(0x4E, 0x79, 0xA7);
const QColor kOrange(0xF2, 0x8E, 0x2B);
const QColor kPurple(0xB0, 0x7A, 0xA1);
const QColor kGreen(0x59, 0xA1, 0x4F);
const QColor kTeal(0x49, 0x98, 0x94);
const QColor kBrown(0x9C, 0x75, 0x5F);

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

enum class Shown { Active, Builtin, Measured };

// The profiles drawn, in legend order: the active one solid, the built-in one dotted, the measured one
// dashed.
struct ProfileLine {
    const core::HardwareProfile* profile;
    Shown which;
};

std::vector<ProfileLine> profileLines(const ProfilesShown& p) {
    std::vector<ProfileLine> lines;
    for (const ProfileLine line :
         {ProfileLine{p.active, Shown::Active}, ProfileLine{p.builtin, Shown::Builtin},
          ProfileLine{p.measured, Shown::Measured}})
        if (line.profile)
            lines.push_back(line);
    return lines;
}

QPen profilePen(Shown which, const QPalette& palette) {
    switch (which) {
    case Shown::Active:
        return seriesPen(recedingColor(palette, 0.45), Qt::SolidLine);
    case Shown::Builtin:
        return seriesPen(recedingColor(palette, 0.35), Qt::DotLine);
    case Shown::Measured:
        return seriesPen(kGreen, Qt::DashLine);
    }
    return {};
}

// y(x) = curve.at(x) * scale sampled over [x0, x1] in log steps (x in the curve's units; shown / xShow).
QLineSeries* curveSeries(const core::Curve& curve, double x0, double x1, double scale, double xShow,
                         const QString& name, const QPen& pen) {
    auto* s = new QLineSeries;
    s->setName(name);
    constexpr int kSteps = 64;
    for (int i = 0; i <= kSteps; ++i) {
        const double x = x0 * std::pow(x1 / x0, static_cast<double>(i) / kSteps);
        s->append(x / xShow, curve.at(x) * scale);
    }
    s->setPen(pen);
    return s;
}

// A data-sheet figure across the whole chart.
QLineSeries* nominalLine(const QLogValueAxis* x, double value, const QString& name,
                         const QColor& color = palette::capacityLine()) {
    return lineSeries({x->min(), value}, {x->max(), value}, name, seriesPen(color, Qt::DashLine, 1.5));
}

QScatterSeries* scatterSeries(const QString& name, const QColor& color, QScatterSeries::MarkerShape shape) {
    auto* s = new QScatterSeries;
    s->setName(name);
    s->setColor(color);
    s->setBorderColor(color.darker(125));
    s->setMarkerSize(9);
    s->setMarkerShape(shape);
    return s;
}

// Measured points joined in size order.
QLineSeries* measuredLine(const QString& name, const QColor& color, QList<QPointF> points) {
    std::sort(points.begin(), points.end(), [](const QPointF& a, const QPointF& b) { return a.x() < b.x(); });
    auto* s = new QLineSeries;
    s->setName(name);
    s->setPen(seriesPen(color));
    s->setPointsVisible(true);
    s->append(points);
    return s;
}

} // namespace

CalibrationCharts::CalibrationCharts(QWidget* parent) : QWidget(parent) {
    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->setSpacing(6);
    grid->addWidget(makePanel(m_gemm, QStringLiteral("gemmChart")), 0, 0, 1, 2);
    grid->addWidget(makePanel(m_hbm, QStringLiteral("hbmChart")), 1, 0);
    grid->addWidget(makePanel(m_bus, QStringLiteral("busChart")), 1, 1);
    grid->setRowStretch(0, 3);
    grid->setRowStretch(1, 2);
}

// A chart with its legend under it.
QWidget* CalibrationCharts::makePanel(Panel& panel, const QString& name) {
    panel.chart = new QChart;
    panel.chart->legend()->hide();
    auto* box = new QWidget(this);
    box->setBackgroundRole(QPalette::Base);
    box->setAutoFillBackground(true);
    panel.view = new QChartView(panel.chart, box);
    panel.view->setObjectName(name);
    panel.view->setRenderHint(QPainter::Antialiasing);
    panel.view->setMinimumSize(240, 200);
    panel.legend = new QLabel(box);
    panel.legend->setObjectName(name + QStringLiteral("Legend"));
    panel.legend->setTextFormat(Qt::RichText);
    panel.legend->setWordWrap(true);
    panel.legend->setAlignment(Qt::AlignHCenter);
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 6);
    layout->setSpacing(0);
    layout->addWidget(panel.view, 1);
    layout->addWidget(panel.legend);
    return box;
}

void CalibrationCharts::showMeasurements(const calib::CalibrationResult* result, const core::GpuSpec& gpu,
                                         const ProfilesShown& profiles) {
    showGemms(result, gpu, profiles);
    showHbm(result, gpu, profiles);
    showBus(result, gpu, profiles);
    for (const Panel* panel : {&m_gemm, &m_hbm, &m_bus})
        panel->legend->setText(legendHtml(panel->chart));
}

void CalibrationCharts::startChart(const Panel& panel, const QString& title) {
    resetChart(panel.chart, palette());
    panel.chart->setTitleFont(chartTitleFont(font()));
    panel.chart->setTitle(title);
}

// Sizes across on a log scale, rates up from 0.
void CalibrationCharts::addAxes(QChart* chart, QLogValueAxis* x, QValueAxis* y) {
    styleAxis(x, palette(), font());
    styleAxis(y, palette(), font());
    x->setMinorGridLineColor(recedingColor(palette(), 0.07));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
}

void CalibrationCharts::showGemms(const calib::CalibrationResult* result, const core::GpuSpec& gpu,
                                  const ProfilesShown& profiles) {
    QChart* chart = m_gemm.chart;
    startChart(m_gemm, tr("GEMM throughput against size — %1").arg(qs(gpu.name)));
    double lo = 1e7, hi = 1e13, top = gpu.peakFlops16;
    auto* sweep = scatterSeries(tr("bf16, sweep"), kBlue, QScatterSeries::MarkerShapeCircle);
    auto* shapes =
        scatterSeries(tr("bf16, scenario's shapes"), kOrange, QScatterSeries::MarkerShapeRectangle);
    auto* fp8 = scatterSeries(tr("fp8"), kPurple, QScatterSeries::MarkerShapeCircle);
    auto* held =
        scatterSeries(tr("held back to back (power limit)"), kGreen, QScatterSeries::MarkerShapeRectangle);
    if (result) {
        for (const auto& h : result->sustained)
            if (h.ok())
                held->append(h.shape.flops() / kGiga, h.heldFlopsPerSecond / 1e12);
        for (const auto& g : result->gemms) {
            if (!g.ok() || !(g.flopsPerSecond > 0))
                continue;
            const double f = g.shape.flops();
            lo = std::min(lo, f);
            hi = std::max(hi, f);
            top = std::max(top, g.flopsPerSecond);
            QScatterSeries* into =
                g.dtype == calib::GemmDtype::Fp8 ? fp8 : (calib::isSweepShape(g.shape) ? sweep : shapes);
            into->append(f / kGiga, g.flopsPerSecond / 1e12);
        }
    }
    const bool anyFp8 = fp8->count() > 0;
    if (anyFp8)
        top = std::max(top, gpu.peakFlops8);
    auto* x = logAxis(tr("GEMM size (GFLOP per GEMM, 2·m·n·k)"), lo / kGiga, hi / kGiga);
    auto* y = valueAxis(tr("Achieved TFLOP/s"), top / 1e12 * 1.08);
    addAxes(chart, x, y);

    attachSeries(chart,
                 nominalLine(x, gpu.peakFlops16 / 1e12,
                             tr("bf16 peak (%1)").arg(qs(calib::peakTflopsText(gpu.peakFlops16)))),
                 x, y);
    if (anyFp8 && gpu.peakFlops8 > 0)
        attachSeries(chart,
                     nominalLine(x, gpu.peakFlops8 / 1e12,
                                 tr("fp8 peak (%1)").arg(qs(calib::peakTflopsText(gpu.peakFlops8))), kPurple),
                     x, y);
    for (const ProfileLine& line : profileLines(profiles)) {
        const core::Curve& curve = line.profile->gemmEfficiency;
        if (curve.empty())
            continue;
        const QString name = line.which == Shown::Active
                                 ? tr("active profile (%1)").arg(qs(line.profile->name))
                             : line.which == Shown::Builtin ? tr("built-in profile")
                                                            : tr("measured profile");
        attachSeries(chart,
                     curveSeries(curve, x->min() * kGiga, x->max() * kGiga, gpu.peakFlops16 / 1e12, kGiga,
                                 name, profilePen(line.which, palette())),
                     x, y);
    }
    for (QScatterSeries* s : {sweep, shapes, fp8, held}) {
        if (s->count() > 0)
            attachSeries(chart, s, x, y);
        else
            delete s;
    }
}

void CalibrationCharts::showHbm(const calib::CalibrationResult* result, const core::GpuSpec& gpu,
                                const ProfilesShown& profiles) {
    QChart* chart = m_hbm.chart;
    startChart(m_hbm, tr("HBM bandwidth against buffer size"));
    std::map<calib::HbmMethod, QList<QPointF>> points;
    double lo = 1 * kMiB, hi = 4096 * kMiB, top = gpu.hbmBandwidth;
    if (result)
        for (const auto& h : result->hbm) {
            if (!h.ok() || !(h.bytesPerSecond > 0))
                continue;
            points[h.method].append(QPointF(h.bufferBytes / kMiB, h.bytesPerSecond / 1e9));
            lo = std::min(lo, h.bufferBytes);
            hi = std::max(hi, h.bufferBytes);
            top = std::max(top, h.bytesPerSecond);
        }
    auto* x = logAxis(tr("Buffer size (MiB)"), lo / kMiB, hi / kMiB);
    auto* y = valueAxis(tr("GB/s"), top / 1e9 * 1.1);
    addAxes(chart, x, y);
    if (gpu.hbmBandwidth > 0) {
        attachSeries(
            chart,
            nominalLine(x, gpu.hbmBandwidth / 1e9, tr("nominal %1").arg(formatBandwidth(gpu.hbmBandwidth))),
            x, y);
        for (const ProfileLine& line : profileLines(profiles)) {
            const double efficiency = line.profile->kernels.hbmEfficiency;
            const QString share = formatPercent(efficiency, 0);
            const QString name = line.which == Shown::Active    ? tr("active profile (%1)").arg(share)
                                 : line.which == Shown::Builtin ? tr("built-in (%1)").arg(share)
                                                                : tr("measured profile (%1)").arg(share);
            const double value = efficiency * gpu.hbmBandwidth / 1e9;
            attachSeries(
                chart,
                lineSeries({x->min(), value}, {x->max(), value}, name, profilePen(line.which, palette())), x,
                y);
        }
    }
    for (auto& [method, list] : points)
        attachSeries(
            chart,
            measuredLine(method == calib::HbmMethod::Kernel ? tr("read-write kernel") : tr("device copy"),
                         method == calib::HbmMethod::Kernel ? kBlue : kTeal, list),
            x, y);
}

void CalibrationCharts::showBus(const calib::CalibrationResult* result, const core::GpuSpec& gpu,
                                const ProfilesShown& profiles) {
    QChart* chart = m_bus.chart;
    std::map<calib::Collective, QList<QPointF>> series;
    double lo = 8.0 * 1024, hi = 1024 * kMiB, top = gpu.nvlinkBandwidth;
    int ranks = 0;
    if (result)
        for (const auto& c : result->comm) {
            if (!c.ok() || !(c.busBytesPerSecond > 0))
                continue;
            series[c.op].append(QPointF(c.bytes / kMiB, c.busBytesPerSecond / 1e9));
            lo = std::min(lo, c.bytes);
            hi = std::max(hi, c.bytes);
            top = std::max(top, c.busBytesPerSecond);
            ranks = std::max(ranks, c.ranks);
        }
    startChart(m_bus, series.empty() ? tr("NCCL bus bandwidth (not measured)")
                                     : tr("NCCL bus bandwidth on %n GPUs", nullptr, ranks));
    auto* x = logAxis(tr("Message size (MiB)"), lo / kMiB, hi / kMiB);
    // Bus bandwidth, as the chart's title says: a longer axis title would be cut in the short bottom row.
    auto* y = valueAxis(tr("GB/s"), top / 1e9 * 1.1);
    addAxes(chart, x, y);
    if (gpu.nvlinkBandwidth > 0) {
        attachSeries(chart,
                     nominalLine(x, gpu.nvlinkBandwidth / 1e9,
                                 tr("NVLink nominal %1").arg(formatBandwidth(gpu.nvlinkBandwidth))),
                     x, y);
        for (const ProfileLine& line : profileLines(profiles)) {
            const core::Curve& curve = line.profile->nvlinkBusEfficiency;
            if (curve.empty())
                continue;
            const QString name = line.which == Shown::Active    ? tr("active profile")
                                 : line.which == Shown::Builtin ? tr("built-in profile")
                                                                : tr("measured profile");
            attachSeries(chart,
                         curveSeries(curve, x->min() * kMiB, x->max() * kMiB, gpu.nvlinkBandwidth / 1e9, kMiB,
                                     name, profilePen(line.which, palette())),
                         x, y);
        }
    }
    for (auto& [op, list] : series)
        attachSeries(chart, measuredLine(QString::fromLatin1(calib::toString(op)), collectiveColor(op), list),
                     x, y);
}

} // namespace lp::ui
