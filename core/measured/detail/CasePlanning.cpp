#include "core/measured/detail/CasePlanning.h"

#include <algorithm>

namespace lp::core::detail {

long long perReplicaUnits(long long total, long long per) {
    per = std::max(1LL, per);
    return std::max(1LL, (total + per / 2) / per);
}

bool megatronCoreRecipeApplies(const Scenario& s) {
    const TrainingOptions& t = s.training;
    return s.cluster.gpu.peakFlops8 > 0 && t.zeroStage < 3 && t.executionStyle != ExecutionStyle::Fsdp;
}

} // namespace lp::core::detail
