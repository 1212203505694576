#include "ui/calibrate/MeasurementsTable.h"

#include "cuda/CalibrationSummary.h"
#include "ui/widgets/Format.h"

#include <QHeaderView>

namespace lp::ui {
namespace {

constexpr double kMiB = 1024.0 * 1024.0;

enum Column {
    BenchmarkColumn,
    ItemColumn,
    SizeColumn,
    TimeColumn,
    AchievedColumn,
    OfPeakColumn,
    SpreadColumn,
    NoteColumn,
    ColumnCount
};

QTableWidgetItem* cell(const QString& text, bool number = false, const QString& tip = {}) {
    auto* item = new QTableWidgetItem(text);
    item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    if (number)
        item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    if (!tip.isEmpty())
        item->setToolTip(tip);
    return item;
}

// The last two cells of every row: the timing spread and why the item was not measured.
QList<QTableWidgetItem*> spreadAndNote(const calib::Stats* s, const std::string& error) {
    const bool timed = s && s->samples > 0;
    return {cell(timed ? formatPercent(s->spread, 1) : QString(), true), cell(qs(error), false, qs(error))};
}

QString sizeText(double bytes) {
    if (bytes >= 1024.0 * kMiB)
        return formatNumber(bytes / (1024.0 * kMiB), bytes >= 10 * 1024.0 * kMiB ? 0 : 1) +
               QStringLiteral(" GiB");
    if (bytes >= kMiB)
        return formatNumber(bytes / kMiB, 0) + QStringLiteral(" MiB");
    return formatNumber(bytes / 1024.0, 0) + QStringLiteral(" KiB");
}

QString shapeText(const calib::GemmShape& g) {
    return QStringLiteral("%1×%2×%3").arg(g.m).arg(g.n).arg(g.k);
}

// The share of a peak, empty when either is unknown.
QString ofPeak(bool ok, double achieved, double peak) {
    return ok && peak > 0 ? formatPercent(achieved / peak) : QString();
}

double peakOf(calib::GemmDtype dtype, const core::GpuSpec& gpu) {
    return dtype == calib::GemmDtype::Fp8 ? gpu.peakFlops8 : gpu.peakFlops16;
}

} // namespace

MeasurementsTable::MeasurementsTable(QWidget* parent) : QTableWidget(0, ColumnCount, parent) {
    setObjectName(QStringLiteral("measurementsTable"));
    setHorizontalHeaderLabels({tr("Benchmark"), tr("Item"), tr("Size"), tr("Median time"), tr("Achieved"),
                               tr("Of peak"), tr("Spread"), tr("Note")});
    horizontalHeaderItem(SpreadColumn)->setToolTip(tr("(p90 − p10) / median of the timed repetitions"));
    verticalHeader()->hide();
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setAlternatingRowColors(true);
    setWordWrap(false);
    horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    horizontalHeader()->setStretchLastSection(true);
}

void MeasurementsTable::showResult(const calib::CalibrationResult* result, const core::GpuSpec& gpu) {
    setRowCount(0);
    if (!result)
        return;
    addGemms(*result, gpu);
    addHeldGemms(*result, gpu);
    addHbm(*result, gpu);
    addCollectives(*result, gpu);
}

void MeasurementsTable::addRow(const QList<QTableWidgetItem*>& cells) {
    const int row = rowCount();
    insertRow(row);
    for (int c = 0; c < cells.size(); ++c)
        setItem(row, c, cells[c]);
}

void MeasurementsTable::addGemms(const calib::CalibrationResult& r, const core::GpuSpec& gpu) {
    for (const auto& g : r.gemms)
        addRow(QList<QTableWidgetItem*>{
                   cell(tr("GEMM %1").arg(QString::fromLatin1(calib::toString(g.dtype)))),
                   cell(qs(g.shape.label)),
                   cell(shapeText(g.shape), true,
                        tr("%1 GFLOP per GEMM").arg(formatNumber(g.shape.flops() / 1e9, 1))),
                   cell(g.ok() ? formatSeconds(g.seconds.median) : QString(), true),
                   cell(g.ok() ? qs(calib::tflopsText(g.flopsPerSecond)) : QString(), true),
                   cell(ofPeak(g.ok(), g.flopsPerSecond, peakOf(g.dtype, gpu)), true)} +
               spreadAndNote(&g.seconds, g.error));
}

void MeasurementsTable::addHeldGemms(const calib::CalibrationResult& r, const core::GpuSpec& gpu) {
    for (const auto& h : r.sustained) {
        const QString held =
            h.ok() ? tr("%1 of the short samples' %2: the GPU at its power limit")
                         .arg(formatPercent(h.ratio()), qs(calib::tflopsText(h.burstFlopsPerSecond)))
                   : QString();
        addRow(QList<QTableWidgetItem*>{
                   cell(tr("GEMM %1 held").arg(QString::fromLatin1(calib::toString(h.dtype)))),
                   cell(qs(h.shape.label)),
                   cell(shapeText(h.shape), true,
                        tr("Run back to back in %n windows of %1", nullptr,
                           static_cast<int>(h.windowFlops.size()))
                            .arg(formatSeconds(h.windowSeconds))),
                   cell(QString(), true),
                   cell(h.ok() ? qs(calib::tflopsText(h.heldFlopsPerSecond)) : QString(), true, held),
                   cell(ofPeak(h.ok(), h.heldFlopsPerSecond, peakOf(h.dtype, gpu)), true)} +
               spreadAndNote(nullptr, h.error));
    }
}

void MeasurementsTable::addHbm(const calib::CalibrationResult& r, const core::GpuSpec& gpu) {
    for (const auto& h : r.hbm)
        addRow(
            QList<QTableWidgetItem*>{cell(tr("HBM %1").arg(QString::fromLatin1(calib::toString(h.method)))),
                                     cell(QString()), cell(sizeText(h.bufferBytes), true),
                                     cell(h.ok() ? formatSeconds(h.seconds.median) : QString(), true),
                                     cell(h.ok() ? formatBandwidth(h.bytesPerSecond) : QString(), true),
                                     cell(ofPeak(h.ok(), h.bytesPerSecond, gpu.hbmBandwidth), true)} +
            spreadAndNote(&h.seconds, h.error));
}

void MeasurementsTable::addCollectives(const calib::CalibrationResult& r, const core::GpuSpec& gpu) {
    for (const auto& c : r.comm)
        addRow(QList<QTableWidgetItem*>{
                   cell(tr("NCCL %1").arg(QString::fromLatin1(calib::toString(c.op)))),
                   cell(tr("%n GPUs", nullptr, c.ranks)), cell(sizeText(c.bytes), true),
                   cell(c.ok() ? formatSeconds(c.seconds.median) : QString(), true),
                   cell(c.ok() ? tr("%1 bus").arg(formatBandwidth(c.busBytesPerSecond)) : QString(), true,
                        c.ok() ? tr("algorithm bandwidth %1").arg(formatBandwidth(c.algBytesPerSecond))
                               : QString()),
                   cell(ofPeak(c.ok(), c.busBytesPerSecond, gpu.nvlinkBandwidth), true,
                        tr("of the nominal NVLink bandwidth"))} +
               spreadAndNote(&c.seconds, c.error));
}

} // namespace lp::ui
