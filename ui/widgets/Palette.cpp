#include "ui/widgets/Palette.h"

#include "core/report/SvgCharts.h"
#include "ui/widgets/Format.h"

#include <string_view>
#include <vector>

namespace lp::ui {
namespace {
// The step-time components' labels and colours, in the breakdown order TimeComponent follows.
const std::vector<core::TimeRow>& timeComponentRows() {
    static const std::vector<core::TimeRow> rows = core::timeRows(core::TimeBreakdown{});
    return rows;
}
} // namespace

namespace palette {

namespace {
QColor fromHex(std::string_view hex) {
    return QColor(QString::fromLatin1(hex.data(), static_cast<qsizetype>(hex.size())));
}
} // namespace

// The product's colours live in core/report/SvgCharts.h (the reports draw the same charts):
// colour-blind-friendly hues after Tableau 10 and Okabe-Ito, with red kept for "does not fit".
QColor memory(core::MemoryComponent c) {
    return fromHex(core::memoryComponentColor(c));
}

QColor time(TimeComponent c) {
    const std::vector<core::TimeRow>& rows = timeComponentRows();
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
    return qs(core::memoryComponentLabel(c));
}

QString memoryExplainKey(core::MemoryComponent c) {
    return QStringLiteral("memory.") + qs(core::memoryComponentKey(c));
}

double memoryBytes(const core::StageMemory& m, core::MemoryComponent c) {
    return core::memoryComponentBytes(m, c);
}

QString timeName(TimeComponent c) {
    const std::vector<core::TimeRow>& rows = timeComponentRows();
    const auto i = static_cast<std::size_t>(c);
    return i < rows.size() ? qs(rows[i].label) : QString();
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
