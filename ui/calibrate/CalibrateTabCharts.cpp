#include "core/estimate/Evaluate.h"
#include "core/io/Presets.h"
#include "core/io/ScenarioJson.h"
#include "core/model/Enums.h"
#include "cuda/Workload.h"
#include "ui/calibrate/CalibrateTab.h"
#include "ui/calibrate/CalibrateTabParts.h"
#include "ui/charts/ChartStyle.h"
#include "ui/document/ScenarioDocument.h"
#include "ui/widgets/Format.h"
#include "ui/widgets/InlineBanner.h"
#include "ui/widgets/Palette.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QFrame>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QTextDocumentFragment>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLegend>
#include <QtCharts/QLegendMarker>
#include <QtCharts/QLineSeries>
#include <QtCharts/QLogValueAxis>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QValueAxis>

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <map>
#include <tuple>

// The Calibrate tab's measurement table and charts.
namespace lp::ui {
using namespace calibrate;

void CalibrateTab::rebuildTable() {
    m_table->setRowCount(0);
    if (!m_result) {
        m_resultTabs->setTabText(1, tr("Measurements"));
        return;
    }
    const calib::CalibrationResult& r = *m_result;
    const core::GpuSpec gpu = referenceGpu();
    const auto spread = [](const calib::Stats& s) {
        return s.samples > 0 ? formatPercent(s.spread, 1) : QString();
    };
    const auto addRow = [this](const QList<QTableWidgetItem*>& cells) {
        const int row = m_table->rowCount();
        m_table->insertRow(row);
        for (int c = 0; c < cells.size(); ++c)
            m_table->setItem(row, c, cells[c]);
    };
    for (const auto& g : r.gemms) {
        const double peak = g.dtype == calib::GemmDtype::Fp8 ? gpu.peakFlops8 : gpu.peakFlops16;
        addRow({cell(tr("GEMM %1").arg(QString::fromLatin1(calib::toString(g.dtype)))),
                cell(qs(g.shape.label)),
                cell(QStringLiteral("%1×%2×%3").arg(g.shape.m).arg(g.shape.n).arg(g.shape.k), true,
                     tr("%1 GFLOP per GEMM").arg(formatNumber(g.shape.flops() / 1e9, 1))),
                cell(g.ok() ? formatSeconds(g.seconds.median) : QString(), true),
                cell(g.ok() ? tflops(g.flopsPerSecond) : QString(), true),
                cell(g.ok() && peak > 0 ? formatPercent(g.flopsPerSecond / peak) : QString(), true),
                cell(spread(g.seconds), true), cell(qs(g.error), false, qs(g.error))});
    }
    for (const auto& h : r.sustained) {
        const double peak = h.dtype == calib::GemmDtype::Fp8 ? gpu.peakFlops8 : gpu.peakFlops16;
        addRow(
            {cell(tr("GEMM %1 held").arg(QString::fromLatin1(calib::toString(h.dtype)))),
             cell(qs(h.shape.label)),
             cell(QStringLiteral("%1×%2×%3").arg(h.shape.m).arg(h.shape.n).arg(h.shape.k), true,
                  tr("Run back to back in %n windows of %1", nullptr, static_cast<int>(h.windowFlops.size()))
                      .arg(formatSeconds(h.windowSeconds))),
             cell(QString(), true),
             cell(h.ok() ? tflops(h.heldFlopsPerSecond) : QString(), true,
                  h.ok() ? tr("%1 of the short samples' %2: the GPU at its power limit")
                               .arg(formatPercent(h.ratio()), tflops(h.burstFlopsPerSecond))
                         : QString()),
             cell(h.ok() && peak > 0 ? formatPercent(h.heldFlopsPerSecond / peak) : QString(), true),
             cell(QString(), true), cell(qs(h.error), false, qs(h.error))});
    }
    for (const auto& h : r.hbm) {
        addRow({cell(tr("HBM %1").arg(QString::fromLatin1(calib::toString(h.method)))), cell(QString()),
                cell(sizeText(h.bufferBytes), true),
                cell(h.ok() ? formatSeconds(h.seconds.median) : QString(), true),
                cell(h.ok() ? formatBandwidth(h.bytesPerSecond) : QString(), true),
                cell(h.ok() && gpu.hbmBandwidth > 0 ? formatPercent(h.bytesPerSecond / gpu.hbmBandwidth)
                                                    : QString(),
                     true),
                cell(spread(h.seconds), true), cell(qs(h.error), false, qs(h.error))});
    }
    for (const auto& c : r.comm) {
        addRow(
            {cell(tr("NCCL %1").arg(collectiveName(c.op))), cell(tr("%n GPUs", nullptr, c.ranks)),
             cell(sizeText(c.bytes), true), cell(c.ok() ? formatSeconds(c.seconds.median) : QString(), true),
             cell(c.ok() ? tr("%1 bus").arg(formatBandwidth(c.busBytesPerSecond)) : QString(), true,
                  c.ok() ? tr("algorithm bandwidth %1").arg(formatBandwidth(c.algBytesPerSecond))
                         : QString()),
             cell(c.ok() && gpu.nvlinkBandwidth > 0 ? formatPercent(c.busBytesPerSecond / gpu.nvlinkBandwidth)
                                                    : QString(),
                  true, tr("of the nominal NVLink bandwidth")),
             cell(spread(c.seconds), true), cell(qs(c.error), false, qs(c.error))});
    }
    m_resultTabs->setTabText(1, tr("Measurements (%1)").arg(m_table->rowCount()));
}

void CalibrateTab::rebuildCharts() {
    rebuildGemmChart();
    rebuildHbmChart();
    rebuildBusChart();
    m_gemmLegend->setText(legendHtml(m_gemmChart));
    m_hbmLegend->setText(legendHtml(m_hbmChart));
    m_busLegend->setText(legendHtml(m_busChart));
}

void CalibrateTab::rebuildGemmChart() {
    const QPalette pal = palette();
    resetChart(m_gemmChart, pal);
    const core::GpuSpec gpu = referenceGpu();
    const core::HardwareProfile& active = m_doc.profile();
    QFont titleFont = font();
    titleFont.setBold(true);
    m_gemmChart->setTitleFont(titleFont);
    m_gemmChart->setTitle(tr("GEMM throughput against size — %1").arg(qs(gpu.name)));

    constexpr double kG = 1e9; // x shown in GFLOP per GEMM
    double lo = 1e7, hi = 1e13, top = gpu.peakFlops16;
    auto* sweep = new QScatterSeries;
    sweep->setName(tr("bf16, sweep"));
    auto* shapes = new QScatterSeries;
    shapes->setName(tr("bf16, scenario's shapes"));
    auto* fp8 = new QScatterSeries;
    fp8->setName(tr("fp8"));
    auto* held = new QScatterSeries;
    held->setName(tr("held back to back (power limit)"));
    for (auto [s, color, shape] : {std::tuple{sweep, kBlue, QScatterSeries::MarkerShapeCircle},
                                   std::tuple{shapes, kOrange, QScatterSeries::MarkerShapeRectangle},
                                   std::tuple{fp8, kPurple, QScatterSeries::MarkerShapeCircle},
                                   std::tuple{held, kGreen, QScatterSeries::MarkerShapeRectangle}}) {
        s->setColor(color);
        s->setBorderColor(color.darker(125));
        s->setMarkerSize(9);
        s->setMarkerShape(shape);
    }
    if (m_result)
        for (const auto& h : m_result->sustained)
            if (h.ok())
                held->append(h.shape.flops() / kG, h.heldFlopsPerSecond / 1e12);
    bool anyFp8 = false;
    if (m_result)
        for (const auto& g : m_result->gemms) {
            if (!g.ok() || !(g.flopsPerSecond > 0))
                continue;
            const double f = g.shape.flops();
            lo = std::min(lo, f);
            hi = std::max(hi, f);
            top = std::max(top, g.flopsPerSecond);
            if (g.dtype == calib::GemmDtype::Fp8) {
                fp8->append(f / kG, g.flopsPerSecond / 1e12);
                anyFp8 = true;
            } else {
                (isSweepShape(g.shape) ? sweep : shapes)->append(f / kG, g.flopsPerSecond / 1e12);
            }
        }
    if (anyFp8)
        top = std::max(top, gpu.peakFlops8);
    auto* x = logAxis(tr("GEMM size (GFLOP per GEMM, 2·m·n·k)"), lo / kG, hi / kG);
    auto* y = valueAxis(tr("Achieved TFLOP/s"), top / 1e12 * 1.08);
    for (QAbstractAxis* a : {static_cast<QAbstractAxis*>(x), static_cast<QAbstractAxis*>(y)}) {
        styleAxis(a, pal, font());
    }
    x->setMinorGridLineColor(mix(pal, 0.07));
    m_gemmChart->addAxis(x, Qt::AlignBottom);
    m_gemmChart->addAxis(y, Qt::AlignLeft);
    const double x0 = x->min() * kG, x1 = x->max() * kG;

    attach(m_gemmChart,
           flat(x0 / kG, x1 / kG, gpu.peakFlops16 / 1e12, tr("bf16 peak (%1)").arg(peakText(gpu.peakFlops16)),
                palette::capacityLine(), Qt::DashLine),
           x, y);
    if (anyFp8 && gpu.peakFlops8 > 0)
        attach(m_gemmChart,
               flat(x0 / kG, x1 / kG, gpu.peakFlops8 / 1e12,
                    tr("fp8 peak (%1)").arg(peakText(gpu.peakFlops8)), kPurple, Qt::DashLine),
               x, y);
    if (!active.gemmEfficiency.empty())
        attach(m_gemmChart,
               curveSeries(active.gemmEfficiency, x0, x1, gpu.peakFlops16 / 1e12, kG,
                           tr("active profile (%1)").arg(qs(active.name)), mix(pal, 0.45), Qt::SolidLine),
               x, y);
    if (isOverrideActive()) { // what the measured profile changed
        const core::HardwareProfile builtin = core::builtinProfile(m_doc.scenario().cluster.gpu);
        if (!builtin.gemmEfficiency.empty())
            attach(m_gemmChart,
                   curveSeries(builtin.gemmEfficiency, x0, x1, gpu.peakFlops16 / 1e12, kG,
                               tr("built-in profile"), mix(pal, 0.35), Qt::DotLine),
                   x, y);
    }
    if (m_candidate && !(*m_candidate == active) && !m_candidate->gemmEfficiency.empty())
        attach(m_gemmChart,
               curveSeries(m_candidate->gemmEfficiency, x0, x1, gpu.peakFlops16 / 1e12, kG,
                           tr("measured profile"), kGreen, Qt::DashLine),
               x, y);
    for (QScatterSeries* s : {sweep, shapes, fp8, held}) {
        if (s->count() > 0)
            attach(m_gemmChart, s, x, y);
        else
            delete s;
    }
}

void CalibrateTab::rebuildHbmChart() {
    const QPalette pal = palette();
    resetChart(m_hbmChart, pal);
    const core::GpuSpec gpu = referenceGpu();
    const core::HardwareProfile& active = m_doc.profile();
    QFont titleFont = font();
    titleFont.setBold(true);
    m_hbmChart->setTitleFont(titleFont);
    m_hbmChart->setTitle(tr("HBM bandwidth against buffer size"));
    std::map<calib::HbmMethod, QList<QPointF>> points;
    double lo = 1 * kMiB, hi = 4096 * kMiB, top = gpu.hbmBandwidth;
    if (m_result)
        for (const auto& h : m_result->hbm) {
            if (!h.ok() || !(h.bytesPerSecond > 0))
                continue;
            points[h.method].append(QPointF(h.bufferBytes / kMiB, h.bytesPerSecond / 1e9));
            lo = std::min(lo, h.bufferBytes);
            hi = std::max(hi, h.bufferBytes);
            top = std::max(top, h.bytesPerSecond);
        }
    auto* x = logAxis(tr("Buffer size (MiB)"), lo / kMiB, hi / kMiB);
    auto* y = valueAxis(tr("GB/s"), top / 1e9 * 1.1);
    styleAxis(x, pal, font());
    styleAxis(y, pal, font());
    x->setMinorGridLineColor(mix(pal, 0.07));
    m_hbmChart->addAxis(x, Qt::AlignBottom);
    m_hbmChart->addAxis(y, Qt::AlignLeft);
    if (gpu.hbmBandwidth > 0) {
        attach(m_hbmChart,
               flat(x->min(), x->max(), gpu.hbmBandwidth / 1e9,
                    tr("nominal %1").arg(formatBandwidth(gpu.hbmBandwidth)), palette::capacityLine(),
                    Qt::DashLine),
               x, y);
        attach(m_hbmChart,
               flat(x->min(), x->max(), active.kernels.hbmEfficiency * gpu.hbmBandwidth / 1e9,
                    tr("active profile (%1)").arg(formatPercent(active.kernels.hbmEfficiency, 0)),
                    mix(pal, 0.45), Qt::SolidLine, 2.0),
               x, y);
        if (isOverrideActive()) {
            const core::HardwareProfile builtin = core::builtinProfile(m_doc.scenario().cluster.gpu);
            attach(m_hbmChart,
                   flat(x->min(), x->max(), builtin.kernels.hbmEfficiency * gpu.hbmBandwidth / 1e9,
                        tr("built-in (%1)").arg(formatPercent(builtin.kernels.hbmEfficiency, 0)),
                        mix(pal, 0.35), Qt::DotLine, 2.0),
                   x, y);
        }
        if (m_candidate && !(*m_candidate == active))
            attach(m_hbmChart,
                   flat(x->min(), x->max(), m_candidate->kernels.hbmEfficiency * gpu.hbmBandwidth / 1e9,
                        tr("measured profile (%1)").arg(formatPercent(m_candidate->kernels.hbmEfficiency, 0)),
                        kGreen, Qt::DashLine, 2.0),
                   x, y);
    }
    for (auto& [method, list] : points) {
        std::sort(list.begin(), list.end(), [](const QPointF& a, const QPointF& b) { return a.x() < b.x(); });
        auto* s = new QLineSeries;
        s->setName(method == calib::HbmMethod::Kernel ? tr("read-write kernel") : tr("device copy"));
        QPen pen(method == calib::HbmMethod::Kernel ? kBlue : kTeal);
        pen.setWidthF(2.0);
        s->setPen(pen);
        s->setPointsVisible(true);
        s->append(list);
        attach(m_hbmChart, s, x, y);
    }
}

void CalibrateTab::rebuildBusChart() {
    const QPalette pal = palette();
    resetChart(m_busChart, pal);
    const core::GpuSpec gpu = referenceGpu();
    const core::HardwareProfile& active = m_doc.profile();
    QFont titleFont = font();
    titleFont.setBold(true);
    m_busChart->setTitleFont(titleFont);
    std::map<calib::Collective, QList<QPointF>> series;
    double lo = 8.0 * 1024, hi = 1024 * kMiB, top = gpu.nvlinkBandwidth;
    int ranks = 0;
    if (m_result)
        for (const auto& c : m_result->comm) {
            if (!c.ok() || !(c.busBytesPerSecond > 0))
                continue;
            series[c.op].append(QPointF(c.bytes / kMiB, c.busBytesPerSecond / 1e9));
            lo = std::min(lo, c.bytes);
            hi = std::max(hi, c.bytes);
            top = std::max(top, c.busBytesPerSecond);
            ranks = std::max(ranks, c.ranks);
        }
    m_busChart->setTitle(series.empty() ? tr("NCCL bus bandwidth (not measured)")
                                        : tr("NCCL bus bandwidth on %n GPUs", nullptr, ranks));
    auto* x = logAxis(tr("Message size (MiB)"), lo / kMiB, hi / kMiB);
    auto* y = valueAxis(tr("Bus bandwidth (GB/s)"), top / 1e9 * 1.1);
    styleAxis(x, pal, font());
    styleAxis(y, pal, font());
    x->setMinorGridLineColor(mix(pal, 0.07));
    m_busChart->addAxis(x, Qt::AlignBottom);
    m_busChart->addAxis(y, Qt::AlignLeft);
    if (gpu.nvlinkBandwidth > 0) {
        attach(m_busChart,
               flat(x->min(), x->max(), gpu.nvlinkBandwidth / 1e9,
                    tr("NVLink nominal %1").arg(formatBandwidth(gpu.nvlinkBandwidth)),
                    palette::capacityLine(), Qt::DashLine),
               x, y);
        if (!active.nvlinkBusEfficiency.empty())
            attach(m_busChart,
                   curveSeries(active.nvlinkBusEfficiency, x->min() * kMiB, x->max() * kMiB,
                               gpu.nvlinkBandwidth / 1e9, kMiB, tr("active profile"), mix(pal, 0.45),
                               Qt::SolidLine),
                   x, y);
        if (isOverrideActive()) {
            const core::HardwareProfile builtin = core::builtinProfile(m_doc.scenario().cluster.gpu);
            if (!builtin.nvlinkBusEfficiency.empty())
                attach(m_busChart,
                       curveSeries(builtin.nvlinkBusEfficiency, x->min() * kMiB, x->max() * kMiB,
                                   gpu.nvlinkBandwidth / 1e9, kMiB, tr("built-in profile"), mix(pal, 0.35),
                                   Qt::DotLine),
                       x, y);
        }
        if (m_candidate && !(*m_candidate == active) && !m_candidate->nvlinkBusEfficiency.empty())
            attach(m_busChart,
                   curveSeries(m_candidate->nvlinkBusEfficiency, x->min() * kMiB, x->max() * kMiB,
                               gpu.nvlinkBandwidth / 1e9, kMiB, tr("measured profile"), kGreen, Qt::DashLine),
                   x, y);
    }
    for (auto& [op, list] : series) {
        std::sort(list.begin(), list.end(), [](const QPointF& a, const QPointF& b) { return a.x() < b.x(); });
        auto* s = new QLineSeries;
        s->setName(collectiveName(op));
        QPen pen(collectiveColor(op));
        pen.setWidthF(2.0);
        s->setPen(pen);
        s->setPointsVisible(true);
        s->append(list);
        attach(m_busChart, s, x, y);
    }
}

} // namespace lp::ui
