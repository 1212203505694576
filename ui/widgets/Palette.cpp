#include "ui/widgets/Palette.h"

#include "core/report/SvgCharts.h"

#include <string_view>
#include <vector>

namespace lp::ui {
namespace palette {

namespace {
QColor fromHex(std::string_view hex) {
    return QColor(QString::fromLatin1(hex.data(), static_cast<qsizetype>(hex.size())));
}
} // namespace

// The product's colours live in core/SvgCharts (the reports draw the same charts): colour-blind-friendly
// hues after Tableau 10 and Okabe-Ito, with red kept for "does not fit".
QColor memory(core::MemoryComponent c) {
    return fromHex(core::memoryComponentColor(c));
}

QColor time(TimeComponent c) {
    // TimeComponent follows the breakdown order of core::timeRows.
    static const std::vector<core::TimeRow> rows = core::timeRows(core::TimeBreakdown{});
    const auto i = static_cast<std::size_t>(c);
    return i < rows.size() ? fromHex(rows[i].color) : QColor(Qt::gray);
}

QColor error() {
    return fromHex(core::kColorDoesNotFit);
}
QColor warning() {
    return QColor(0xE0, 0x8E, 0x0B);
}
QColor info() {
    return QColor(0x3B, 0x7D, 0xD8);
}
QColor capacityLine() {
    return fromHex(core::kColorCapacity);
}
QColor bandAlarm() {
    return QColor(0xD6, 0x27, 0x28);
}
QColor bandGood() {
    return QColor(0x3C, 0xA5, 0x5C);
}
QColor bandNeutral() {
    return QColor(0x9A, 0x9A, 0x9A);
}

} // namespace palette

QString memoryName(core::MemoryComponent c) {
    const std::string_view label = core::memoryComponentLabel(c);
    return QString::fromUtf8(label.data(), static_cast<qsizetype>(label.size()));
}

QString memoryExplainKey(core::MemoryComponent c) {
    return QStringLiteral("memory.") +
           QString::fromLatin1(core::memoryComponentKey(c).data(),
                               static_cast<qsizetype>(core::memoryComponentKey(c).size()));
}

double memoryBytes(const core::StageMemory& m, core::MemoryComponent c) {
    return core::memoryComponentBytes(m, c);
}

QString timeName(TimeComponent c) {
    switch (c) {
    case TimeComponent::Compute:
        return QStringLiteral("Compute");
    case TimeComponent::Recompute:
        return QStringLiteral("Recompute");
    case TimeComponent::TpComm:
        return QStringLiteral("TP communication");
    case TimeComponent::PpComm:
        return QStringLiteral("PP communication");
    case TimeComponent::CpComm:
        return QStringLiteral("CP communication");
    case TimeComponent::EpComm:
        return QStringLiteral("EP communication");
    case TimeComponent::Offload:
        return QStringLiteral("Activation offload");
    case TimeComponent::Bubble:
        return QStringLiteral("Pipeline bubble");
    case TimeComponent::DpExposed:
        return QStringLiteral("Exposed DP/sharding comm.");
    case TimeComponent::Optimizer:
        return QStringLiteral("Optimizer step");
    case TimeComponent::Loader:
        return QStringLiteral("Data loader");
    case TimeComponent::Straggler:
        return QStringLiteral("Stragglers");
    case TimeComponent::Overhead:
        return QStringLiteral("Host overhead");
    }
    return {};
}

QString timeExplainKey(TimeComponent c) {
    switch (c) {
    case TimeComponent::Compute:
        return QStringLiteral("time.compute");
    case TimeComponent::Recompute:
        return QStringLiteral("time.recompute");
    case TimeComponent::TpComm:
        return QStringLiteral("time.tp_comm");
    case TimeComponent::PpComm:
        return QStringLiteral("time.pp_comm");
    case TimeComponent::CpComm:
        return QStringLiteral("time.cp_comm");
    case TimeComponent::EpComm:
        return QStringLiteral("time.ep_comm");
    case TimeComponent::Offload:
        return QStringLiteral("time.offload");
    case TimeComponent::Bubble:
        return QStringLiteral("time.bubble");
    case TimeComponent::DpExposed:
        return QStringLiteral("time.dp_comm");
    case TimeComponent::Optimizer:
        return QStringLiteral("time.optimizer");
    case TimeComponent::Loader:
        return QStringLiteral("time.loader");
    case TimeComponent::Straggler:
        return QStringLiteral("time.straggler");
    case TimeComponent::Overhead:
        return QStringLiteral("time.overhead");
    }
    return {};
}

double timeSeconds(const core::TimeBreakdown& t, TimeComponent c) {
    switch (c) {
    case TimeComponent::Compute:
        return t.computeSeconds;
    case TimeComponent::Recompute:
        return t.recomputeSeconds;
    case TimeComponent::TpComm:
        return t.tpCommSeconds;
    case TimeComponent::PpComm:
        return t.ppCommSeconds;
    case TimeComponent::CpComm:
        return t.cpCommSeconds;
    case TimeComponent::EpComm:
        return t.epCommSeconds;
    case TimeComponent::Offload:
        return t.offloadSeconds;
    case TimeComponent::Bubble:
        return t.bubbleSeconds;
    case TimeComponent::DpExposed:
        return t.dpCommExposedSeconds;
    case TimeComponent::Optimizer:
        return t.optimizerSeconds;
    case TimeComponent::Loader:
        return t.loaderSeconds;
    case TimeComponent::Straggler:
        return t.stragglerSeconds;
    case TimeComponent::Overhead:
        return t.overheadSeconds;
    }
    return 0;
}

} // namespace lp::ui
