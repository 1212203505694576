// The Megatron style's two host-dispatch numbers (the host time per layer pass and the host/GPU overlap
// exponent) are an estimate on the 1,440 single-node Megatron-DeepSpeed runs published with vTrain, by the
// rule docs/estimation.md (section 6) states: the fewest runs beyond 20%, then the least mean absolute error.
// This test re-checks that rule around the built-in pair, so that a change to the GPU-side or host model
// which moves the estimate fails here instead of leaving a stale pair behind.
#include "TestHarness.h"
#include "core/estimate/Evaluate.h"
#include "core/estimate/ExecutionStyle.h"
#include "core/estimate/Explain.h"
#include "core/measured/ValidationRun.h"

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

using namespace lp::core;

namespace {

struct Fit {
    int beyond20 = 0;
    double meanAbsError = 0;
};

// The single-node runs' fit with the Megatron style's host pair set to (seconds, exponent), restored after.
Fit fitWith(const std::vector<ValidationCase>& cases, double seconds, double exponent) {
    StyleTraits& st = mutableStyleTraits(ExecutionStyle::Megatron);
    const double savedSeconds = st.hostSecondsPerLayerPass, savedExponent = st.hostHidingExponent;
    st.hostSecondsPerLayerPass = seconds;
    st.hostHidingExponent = exponent;
    const ValidationReport r = runValidation(cases, nullptr);
    st.hostSecondsPerLayerPass = savedSeconds;
    st.hostHidingExponent = savedExponent;
    Fit f;
    int n = 0;
    for (const ValidationRow& row : r.rows) {
        if (!isThroughputMetric(row.metric))
            continue;
        ++n;
        f.meanAbsError += std::abs(row.relativeError);
        f.beyond20 += std::abs(row.relativeError) > 0.20 ? 1 : 0;
    }
    f.meanAbsError /= n > 0 ? n : 1;
    return f;
}

// a is at least as good as b by the rule: fewer runs beyond 20%, or as many and a mean error no larger
// (to a hundredth of a point, the grid's resolution in error).
bool atLeastAsGood(const Fit& a, const Fit& b) {
    return a.beyond20 < b.beyond20 || (a.beyond20 == b.beyond20 && a.meanAbsError <= b.meanAbsError + 1e-4);
}

std::vector<ValidationCase> singleNodeRuns() {
    const auto cases = loadValidationCases(std::string(LP_TEST_DATA_DIR) + "/validation/vtrain-runs.json");
    LP_CHECK(cases.has_value());
    std::vector<ValidationCase> single;
    if (cases)
        for (const ValidationCase& c : *cases)
            if (c.id.find("single") != std::string::npos)
                single.push_back(c);
    return single;
}

} // namespace

LP_TEST(the_megatron_host_pair_is_the_documented_estimate_on_the_single_node_runs) {
    const std::vector<ValidationCase> cases = singleNodeRuns();
    LP_CHECK_EQ(cases.size(), std::size_t{1440});
    const StyleTraits& st = styleTraits(ExecutionStyle::Megatron);
    const double seconds = st.hostSecondsPerLayerPass, exponent = st.hostHidingExponent;
    const Fit chosen = fitWith(cases, seconds, exponent);
    std::printf("built-in pair %.3f ms, k %.3f: %d of %zu beyond 20%%, mean %.2f%%\n", seconds * 1e3,
                exponent, chosen.beyond20, cases.size(), 100 * chosen.meanAbsError);
    // Its neighbours on the documented grid (0.025 ms, 0.125 steps), one and two steps away on each axis.
    for (int i = -2; i <= 2; ++i)
        for (int j = -2; j <= 2; ++j) {
            if (i == 0 && j == 0)
                continue;
            const double s = seconds + i * 0.025e-3, k = exponent + j * 0.125;
            const Fit other = fitWith(cases, s, k);
            if (!atLeastAsGood(chosen, other))
                std::printf("  better: %.3f ms, k %.3f: %d beyond 20%%, mean %.2f%%\n", s * 1e3, k,
                            other.beyond20, 100 * other.meanAbsError);
            LP_CHECK(atLeastAsGood(chosen, other));
        }
    // The trade the rule makes, as the docs state it: the floor of the mean error (1.175 ms, k 3, the pair
    // used before) has a lower mean error but at least twice the runs beyond 20%.
    const Fit floor = fitWith(cases, 1.175e-3, 3.0);
    LP_CHECK(floor.meanAbsError < chosen.meanAbsError);
    LP_CHECK(floor.beyond20 >= 2 * chosen.beyond20);
}

LP_TEST(the_host_overhead_explains_itself_with_the_pair_as_it_is) {
    // The explanation names the exponent and the host time per layer pass unrounded (3.75, not 4).
    const auto cases = singleNodeRuns();
    LP_CHECK(!cases.empty());
    if (cases.empty())
        return;
    const Scenario s = resolveCase(cases.front(), nullptr);
    const auto e = explainFigure(s, evaluate(s), "time.overhead");
    LP_CHECK(e.has_value());
    if (!e)
        return;
    std::printf("%s\n%s\n", e->formula.c_str(), e->substituted.c_str());
    LP_CHECK(e->formula.find("^3.75,") != std::string::npos);
    LP_CHECK(e->substituted.find("1.275 ms per layer pass") != std::string::npos);
}

LP_TEST_MAIN()
