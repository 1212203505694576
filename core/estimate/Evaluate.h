#pragma once
#include "core/estimate/Plan.h"
#include "core/model/Hardware.h"
#include "core/model/Scenario.h"

namespace lp::core {

// Turns a scenario into a plan (docs/estimation.md). Never throws; an invalid
// layout yields valid == false and its error diagnostics. Allocation-light: safe to call per slider step.
Plan evaluate(const Scenario& s, const HardwareProfile& profile);
Plan evaluate(const Scenario& s); // with the GPU's built-in profile

// Only the layout checks (error diagnostics), for callers that just need to know validity.
std::vector<Diagnostic> checkLayout(const Scenario& s);

} // namespace lp::core
