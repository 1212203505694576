#pragma once
// Every figure of a Plan explains itself: formula, values substituted, source, plain words.
// Produced on demand from the Plan's intermediates, never in the evaluation hot path.
#include "core/estimate/Plan.h"
#include "core/util/NumberFormat.h"

#include <optional>
#include <string>
#include <vector>

namespace lp::core {

struct Explanation {
    std::string key;   // stable key, e.g. "mfu", "memory.activations", "time.bubble"
    std::string label; // "Model FLOPs utilization"
    double value = 0;
    std::string unit;        // "bytes", "s", "fraction", "tokens/s", "sequences", ...
    std::string formula;     // symbolic
    std::string substituted; // with the values filled in
    std::string source;      // paper or documentation
    std::string words;       // one or two sentences in plain language
};

// Memory in the values substituted reads in `unit` first, the other unit beside it (the window passes the
// user's choice; the command line and the reports print GB).
std::vector<Explanation> explainPlan(const Scenario& s, const Plan& p, MemoryUnit unit = MemoryUnit::GB);
std::optional<Explanation> explainFigure(const Scenario& s, const Plan& p, const std::string& key,
                                         MemoryUnit unit = MemoryUnit::GB);
std::vector<std::string> explanationKeys();

} // namespace lp::core
