#include "core/estimate/Plan.h"

#include "core/model/Units.h"

#include <algorithm>

namespace lp::core {

bool Plan::has(DiagnosticId id) const {
    return std::any_of(diagnostics.begin(), diagnostics.end(),
                       [id](const Diagnostic& d) { return d.id == id; });
}

const StageMemory* MemoryPlan::worst() const {
    if (stages.empty())
        return nullptr;
    const int last = static_cast<int>(stages.size()) - 1;
    return &stages[static_cast<std::size_t>(std::clamp(worstStage, 0, last))];
}

double MemoryPlan::worstTotalBytes() const {
    const StageMemory* w = worst();
    return w ? w->totalBytes : 0.0;
}

} // namespace lp::core
