#pragma once
// The sentences over the memory and step-time charts (the Plan tab's, worded once): whether the worst
// pipeline stage fits and with what headroom, and what the step is made of.
#include "core/estimate/KeyFigures.h"
#include "core/estimate/Plan.h"

#include <string>

namespace lp::core {

struct MemoryHeadline {
    std::string verdict; // "Fits." or "Does not fit:" ("" without stages)
    std::string text;    // "Worst stage 3 uses 61.2 GiB of 79.2 GiB usable: headroom 18.0 GiB (23 %)."
};

// The worst stage against the usable capacity, headroom or overflow in `unit` and in percent, the largest
// part when it does not fit, and what CPU offloading keeps in host memory.
MemoryHeadline memoryHeadline(const MemoryPlan& m, MemoryUnit unit);

// "Step time 9.812 s per optimizer step · pipeline bubble 12.5 % of the pipeline time · exposed
// communication 8.1 %": the bubble only with a pipeline, and the communication not hidden behind compute.
std::string stepTimeHeadline(const TimeBreakdown& t);
// One component's time per step and its share of the step: "412.3 ms · 43 %".
std::string timeShareText(double seconds, double stepSeconds);

} // namespace lp::core
