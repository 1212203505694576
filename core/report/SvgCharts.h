#pragma once
// The report's charts as self-contained SVG (no scripts, no external fonts or images), Qt-free:
// memory per GPU by pipeline stage (stacked bars, capacity line, worst stage marked) and the
// step-time breakdown (one bar per component). The HTML report inlines them; the PDF
// (ui/interop/ReportWriter.h) renders the same SVG with QSvgRenderer, so they use only SVG Tiny features
// (rect, line, text, g, presentation attributes).
//
// Colours are the product's, the same as the window's charts (ui/widgets/Palette.cpp): one per memory
// component and per time component; red only for "does not fit".
#include "core/estimate/Plan.h"
#include "core/estimate/Timeline.h"

#include <string>
#include <string_view>
#include <vector>

namespace lp::core {

inline constexpr std::string_view kColorDoesNotFit = "#D62728";
inline constexpr std::string_view kColorCapacity = "#444444";

// The memory components in the order the stacked bars draw them (bottom up).
inline constexpr MemoryComponent kMemoryComponentOrder[] = {
    MemoryComponent::Weights, MemoryComponent::Gradients, MemoryComponent::Optimizer,
    MemoryComponent::Activations, MemoryComponent::Overhead};

std::string_view memoryComponentKey(MemoryComponent c);   // "weights", ... (as in the JSON)
std::string_view memoryComponentLabel(MemoryComponent c); // "Weights", "Optimizer state", ...
std::string_view memoryComponentColor(MemoryComponent c); // "#4E79A7", ...
double memoryComponentBytes(const StageMemory& m, MemoryComponent c);

// One row of the step-time breakdown.
struct TimeRow {
    std::string_view key;   // "compute", "tp_comm", ... (the JSON key without "_s")
    std::string_view label; // "Compute (forward + backward)", ...
    std::string_view color;
    double seconds = 0;
};
// All thirteen components in the breakdown order (compute, recompute, TP, PP, CP, EP, activation offload,
// bubble, exposed DP, optimizer, loader, stragglers, host overhead), zeros included.
std::vector<TimeRow> timeRows(const TimeBreakdown& t);

struct SvgChart {
    std::string svg; // one <svg> element with width, height and viewBox
    int width = 0;
    int height = 0;
};

// Memory per GPU (GiB) by pipeline stage. An invalid plan (no stages) gives a small "no data" chart.
SvgChart memoryChartSvg(const Plan& p, int width = 760);
// Step time by component (ms), components of zero time left out.
SvgChart timeChartSvg(const Plan& p, int width = 760);
// The run's wall clock as one bar: the ideal days, then the days checkpoints and failures cost.
SvgChart goodputChartSvg(const Plan& p, int width = 760);
// Predicted loss against tokens (logarithmic) for the plan's model, the chosen budget and the
// compute-optimal tokens marked.
SvgChart lossChartSvg(const Plan& p, int width = 760);

// The step timeline: one lane per pipeline rank (compute above, communication below), time in ms, a legend of
// the kinds drawn; events narrower than a twentieth of a pixel are left out.
SvgChart timelineChartSvg(const Timeline& timeline, int width = 760);
std::string_view timelineKindColor(TimelineKind kind); // from the chart palette above; the bubble's yellow

} // namespace lp::core
