#include "core/measured/ValidationTrust.h"

#include "core/util/NumberFormat.h"

#include <array>
#include <cmath>

namespace lp::core {
const GroupSummary* validationGroupFor(const Scenario& s, const std::vector<GroupSummary>& groups) {
    const std::string_view style = toString(resolvedStyle(s.training));
    const std::string_view precision = toString(s.training.precision);
    for (const GroupSummary& g : groups)
        if (g.gpu == s.cluster.gpu.id && g.style == style && g.precision == precision)
            return &g;
    return nullptr;
}

std::string trustSentence(const Scenario& s, const std::vector<GroupSummary>& groups) {
    const std::string what = s.cluster.gpu.name + " in the " +
                             std::string(toString(resolvedStyle(s.training))) + " style in " +
                             std::string(toString(s.training.precision));
    const GroupSummary* g = validationGroupFor(s, groups);
    if (!g || g->count < kMinGroupFigures)
        return "No published run on " + what +
               " comes with the program to check this figure against; the Validate tab shows how the planner "
               "did on others.";
    const double speed = g->medianSpeedError;
    return "On the " + fmt::fixed(g->count, 0) + " published throughput figures of runs on " + what +
           " that come with the program, the planner was off by " + fmt::percent(g->medianAbsError, 1) +
           " at the median and planned them " + fmt::percent(std::fabs(speed), 1) + " " +
           (speed >= 0 ? "faster" : "slower") +
           " than they ran (Validate tab, \"By GPU, style and precision\").";
}

bool isThroughputFigure(std::string_view explainKey) {
    static constexpr std::array<std::string_view, 8> kKeys = {
        "mfu",       "hfu",          "mfu_6nd",       "model_tflops_per_gpu",
        "time.step", "tokens_per_s", "training_time", "gpu_hours"};
    for (const std::string_view k : kKeys)
        if (explainKey == k)
            return true;
    return false;
}

} // namespace lp::core
