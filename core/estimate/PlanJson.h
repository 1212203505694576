#pragma once
// A Plan as JSON: the object `layout-planner-cli evaluate --json` prints (documented in docs/cli.md),
// also the shape every other machine-readable output (search results, reports) reuses.
// JSON never carries NaN or infinity: non-finite numbers become null.
#include "core/estimate/Explain.h"
#include "core/estimate/Plan.h"
#include "core/estimate/Precision.h"
#include "core/model/Scenario.h"

#include <nlohmann/json_fwd.hpp>

namespace lp::core {

// The whole evaluate --json object: layout, batch, parameters, memory, time, utilisation,
// throughput, training time, diagnostics, profile and scenario name, and "valid".
nlohmann::json planToJson(const Scenario& s, const Plan& p);

// Parts of it, for callers that build their own objects.
nlohmann::json layoutToJson(const Layout& l);
nlohmann::json stageMemoryToJson(const StageMemory& m);
nlohmann::json memoryToJson(const MemoryPlan& m);
nlohmann::json timeToJson(const TimeBreakdown& t);
nlohmann::json runToJson(const RunPlan& r);
nlohmann::json diagnosticToJson(const Diagnostic& d);
nlohmann::json explanationToJson(const Explanation& e);
nlohmann::json precisionToJson(const std::vector<TensorPrecision>& rows);

// A number, or null when it is NaN or infinite.
nlohmann::json finiteOrNull(double v);
// Replaces every non-finite floating-point number in the tree with null. Returns how many it replaced.
int sanitizeNonFinite(nlohmann::json& j);

} // namespace lp::core
