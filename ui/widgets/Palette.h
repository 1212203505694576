#pragma once
// The colours of the product: one per memory component, one per time component (both defined once,
// in core/report/SvgCharts.h, which the reports share), the MFU bands, and the severity colours. Red means
// only "does not fit" and errors.
#include "core/estimate/Plan.h"

#include <QColor>
#include <QString>

#include <array>

namespace lp::ui {

// The step-time components, in the order the breakdown chart lists them.
enum class TimeComponent {
    Compute,
    Recompute,
    TpComm,
    PpComm,
    CpComm,
    EpComm,
    Offload,
    Bubble,
    DpExposed,
    Optimizer,
    Loader,
    Straggler,
    Overhead,
};
inline constexpr int kTimeComponentCount = static_cast<int>(TimeComponent::Overhead) + 1;

inline constexpr std::array<core::MemoryComponent, 5> kMemoryComponents = {
    core::MemoryComponent::Weights, core::MemoryComponent::Gradients, core::MemoryComponent::Optimizer,
    core::MemoryComponent::Activations, core::MemoryComponent::Overhead};

namespace palette {

QColor memory(core::MemoryComponent c);
QColor time(TimeComponent c);

QColor error();        // does not fit, error diagnostics
QColor warning();      // warning diagnostics
QColor info();         // information diagnostics
QColor capacityLine(); // the GPU's capacity when the plan fits
QColor bandAlarm();    // MFU under 20%
QColor bandGood();     // MFU 35-55%
QColor bandNeutral();  // the rest of the gauge

} // namespace palette

// The components' names (the core's labels, as the command line and the reports print them) and the
// explanation keys of the same components.
QString memoryName(core::MemoryComponent c);
QString memoryExplainKey(core::MemoryComponent c);
double memoryBytes(const core::StageMemory& m, core::MemoryComponent c);

QString timeName(TimeComponent c);
QString timeExplainKey(TimeComponent c);
double timeSeconds(const core::TimeBreakdown& t, TimeComponent c);

} // namespace lp::ui
