// Explanations of every figure of a Plan: formula, values substituted, source and plain words. Each family
// of figures has its file in detail/: the model, memory, step time and communication, and rates.
#include "core/estimate/Explain.h"

#include "core/estimate/detail/ExplainMemory.h"
#include "core/estimate/detail/ExplainModel.h"
#include "core/estimate/detail/ExplainRates.h"
#include "core/estimate/detail/ExplainRun.h"
#include "core/estimate/detail/ExplainTime.h"
#include "core/io/Presets.h"
#include "core/model/Units.h"

namespace lp::core {

std::vector<Explanation> explainPlan(const Scenario& s, const Plan& p, MemoryUnit unit) {
    detail::ExplanationList list{s, p, unit, {}};
    detail::explainModel(list);
    if (p.valid) {
        detail::explainMemory(list);
        detail::explainTime(list);
        detail::explainRates(list);
        detail::explainRun(list);
    }
    return std::move(list.items);
}

std::optional<Explanation> explainFigure(const Scenario& s, const Plan& p, const std::string& key,
                                         MemoryUnit unit) {
    for (Explanation& e : explainPlan(s, p, unit))
        if (e.key == key)
            return std::move(e);
    return std::nullopt;
}

std::vector<std::string> explanationKeys() {
    Scenario s = defaultScenario();
    std::vector<std::string> keys;
    // Keys are the same for every valid plan; take them from the default scenario's explanations.
    Plan p;
    p.valid = true;
    p.memory.stages.resize(1);
    for (const Explanation& e : explainPlan(s, p))
        keys.push_back(e.key);
    return keys;
}

} // namespace lp::core
