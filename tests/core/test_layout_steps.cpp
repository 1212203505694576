// The values each layout control offers and how one change propagates (keep GPU count on and off).
#include "TestHarness.h"
#include "core/estimate/Evaluate.h"
#include "core/io/Presets.h"
#include "core/model/Scenario.h"
#include "core/search/LayoutSteps.h"

#include <algorithm>
#include <string>
#include <vector>

using namespace lp;
using core::LayoutAxis;

LP_TEST(tpStepsDivideHeadsAndKeepGpus) {
    const core::Scenario s = core::defaultScenario(); // 64 heads, 8 KV heads, 64 GPUs, PP 4
    core::LayoutRules rules;
    const std::vector<int> tp = core::validSteps(s, LayoutAxis::Tp, rules);
    LP_CHECK(tp == (std::vector<int>{1, 2, 4, 8}));
    for (int v : tp) {
        const core::Scenario n = core::withLayoutValue(s, LayoutAxis::Tp, v, rules);
        LP_CHECK_EQ(n.layout.gpus(), s.cluster.gpus());
        LP_CHECK(n.cluster == s.cluster);
    }
}

LP_TEST(ppStepsDivideLayers) {
    const core::Scenario s = core::defaultScenario(); // 80 layers; TP 8 on 64 GPUs leaves PP x DP = 8
    core::LayoutRules rules;
    LP_CHECK(core::validSteps(s, LayoutAxis::Pp, rules) == (std::vector<int>{1, 2, 4, 8}));
    rules.keepGpuCount = false; // the cluster follows: every divisor of 80 in whole nodes
    const std::vector<int> pp = core::validSteps(s, LayoutAxis::Pp, rules);
    LP_CHECK(pp == (std::vector<int>{1, 2, 4, 5, 8, 10, 16, 20, 40, 80}));
}

LP_TEST(tpFromEightToFourRebalancesDp) {
    const core::Scenario s = core::defaultScenario();
    core::LayoutRules rules;
    const core::Scenario n = core::withLayoutValue(s, LayoutAxis::Tp, 4, rules);
    LP_CHECK_EQ(n.layout.tp, 4);
    LP_CHECK_EQ(n.layout.dp, 4);
    LP_CHECK_EQ(n.cluster.gpus(), 64LL);
}

LP_TEST(holdingTheBatchMakesAccumulationFollowDp) {
    const core::Scenario s = core::defaultScenario(); // TP 8, DP 2 on 64 GPUs
    core::LayoutRules rules;
    rules.holdGlobalBatch = true;
    const core::Scenario n = core::withLayoutValue(s, LayoutAxis::Tp, 4, rules);
    LP_CHECK_EQ(n.layout.dp, 4);
    LP_CHECK_EQ(n.layout.effectiveBatch(), s.layout.effectiveBatch());
    LP_CHECK_EQ(n.layout.accumulation * 2, s.layout.accumulation);
    // Without the hold the batch doubles with DP.
    rules.holdGlobalBatch = false;
    LP_CHECK_EQ(core::withLayoutValue(s, LayoutAxis::Tp, 4, rules).layout.effectiveBatch(),
                2 * s.layout.effectiveBatch());
}

LP_TEST(heldBatchThatDoesNotSplitLeavesAccumulation) {
    core::Layout l;
    l.microBatch = 1;
    l.dp = 4;
    l.accumulation = 3;
    LP_CHECK(!core::holdGlobalBatch(l, 6)); // 6 is not a multiple of 1 x 4
    LP_CHECK_EQ(l.accumulation, 3);
    LP_CHECK(core::holdGlobalBatch(l, 64));
    LP_CHECK_EQ(l.accumulation, 16);
}

LP_TEST(withoutKeepTheClusterFollows) {
    const core::Scenario s = core::defaultScenario();
    core::LayoutRules rules;
    rules.keepGpuCount = false;
    const core::Scenario n = core::withLayoutValue(s, LayoutAxis::Tp, 4, rules);
    LP_CHECK_EQ(n.layout.dp, 2);
    LP_CHECK_EQ(n.cluster.gpus(), 32LL);
    LP_CHECK_EQ(n.cluster.nodes, 4);
    LP_CHECK_EQ(n.cluster.gpusPerNode, 8);
    LP_CHECK_EQ(core::clusterName(n.cluster), std::string("4 x DGX H100"));
    // Down to a partial node and back to whole nodes.
    core::Scenario small = core::withLayoutValue(s, LayoutAxis::Pp, 1, rules);
    small = core::withLayoutValue(small, LayoutAxis::Dp, 1, rules);
    LP_CHECK_EQ(small.cluster.gpus(), 8LL);
    small = core::withLayoutValue(small, LayoutAxis::Tp, 2, rules);
    LP_CHECK_EQ(small.cluster.nodes, 1);
    LP_CHECK_EQ(small.cluster.gpusPerNode, 2);
    const core::Scenario back = core::withLayoutValue(small, LayoutAxis::Pp, 8, rules);
    LP_CHECK_EQ(back.cluster.nodes, 2);
    LP_CHECK_EQ(back.cluster.gpusPerNode, 8);
    LP_CHECK(core::checkLayout(back).empty());
}

LP_TEST(dpIsDerivedWhileKeepingGpus) {
    const core::Scenario s = core::defaultScenario();
    core::LayoutRules rules;
    LP_CHECK(core::validSteps(s, LayoutAxis::Dp, rules) == (std::vector<int>{2}));
    rules.keepGpuCount = false;
    const std::vector<int> dp = core::validSteps(s, LayoutAxis::Dp, rules);
    LP_CHECK(dp.size() > 100);
    LP_CHECK_EQ(dp.front(), 1);
    for (int v : dp)
        LP_CHECK_EQ((32LL * v) % 8, 0LL);
}

LP_TEST(everyOfferedStepIsValid) {
    const core::Scenario s = core::defaultScenario();
    for (bool keep : {true, false}) {
        core::LayoutRules rules;
        rules.keepGpuCount = keep;
        for (LayoutAxis axis : {LayoutAxis::Tp, LayoutAxis::Pp, LayoutAxis::Cp, LayoutAxis::Vpp,
                                LayoutAxis::MicroBatch, LayoutAxis::Accumulation}) {
            for (int v : core::validSteps(s, axis, rules)) {
                const core::Scenario n = core::withLayoutValue(s, axis, v, rules);
                if (!core::checkLayout(n).empty())
                    lp::test::fail(__FILE__, __LINE__,
                                   "invalid step " + std::string(core::axisName(axis)) + " = " +
                                       std::to_string(v));
            }
        }
    }
}

LP_TEST(invalidCurrentValueIsStillShown) {
    core::Scenario s = core::defaultScenario();
    s.layout.tp = 3; // does not divide 64 heads
    const std::vector<int> tp = core::validSteps(s, LayoutAxis::Tp, {});
    LP_CHECK(std::find(tp.begin(), tp.end(), 3) != tp.end());
    LP_CHECK(std::is_sorted(tp.begin(), tp.end()));
}

LP_TEST(virtualStagesNeedAPipeline) {
    core::Scenario s = core::defaultScenario();
    LP_CHECK(core::validSteps(s, LayoutAxis::Vpp, {}) == (std::vector<int>{1, 2, 4, 5, 10, 20}));
    s.layout.pp = 1;
    s.layout.dp = 8;
    LP_CHECK(core::validSteps(s, LayoutAxis::Vpp, {}) == (std::vector<int>{1}));
}

LP_TEST_MAIN()
