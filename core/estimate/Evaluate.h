#pragma once
#include "core/estimate/Plan.h"
#include "core/model/Hardware.h"
#include "core/model/Scenario.h"

namespace lp::core {

// Turns a scenario into a plan (docs/estimation.md). Never throws; an invalid
// layout yields valid == false and its error diagnostics. Allocation-light: safe to call per slider step.
Plan evaluate(const Scenario& s, const HardwareProfile& profile);
Plan evaluate(const Scenario& s); // with the GPU's built-in profile
// The same plan written over `out`, whose buffers (the stage lists, the diagnostics, the profile's name) it
// reuses: a caller that evaluates layout after layout (a search worker) allocates nothing once they have
// grown. Every field of `out` is replaced; the result equals evaluate(s, profile).
void evaluate(const Scenario& s, const HardwareProfile& profile, Plan& out);

// Only the layout checks (error diagnostics), for callers that just need to know validity.
std::vector<Diagnostic> checkLayout(const Scenario& s);

} // namespace lp::core
