// One axis at a time: every point is evaluate()'s, the others axes are held (TP, PP and CP keep the GPU
// count, the global batch is held by rebalancing accumulation where it can be), the values tried per axis,
// and the captions: which change helps and by how much, and the best single change over all axes.
#include "TestHarness.h"
#include "core/estimate/Evaluate.h"
#include "core/io/Presets.h"
#include "core/search/Sweep.h"

#include <algorithm>
#include <string>
#include <vector>

using namespace lp::core;

namespace {

const HardwareProfile& profileOf(const Scenario& s) {
    static const HardwareProfile profile = builtinProfile(s.cluster.gpu);
    return profile;
}

std::vector<SweepPoint> sweepOf(const Scenario& s, SweepAxis axis, bool holdBatch = true) {
    SweepOptions options;
    options.holdGlobalBatch = holdBatch;
    return sweep(s, profileOf(s), axis, options);
}

const SweepPoint* pointAt(const std::vector<SweepPoint>& points, int value) {
    for (const SweepPoint& p : points)
        if (p.value == value)
            return &p;
    return nullptr;
}

std::vector<int> valuesOf(const std::vector<SweepPoint>& points) {
    std::vector<int> values;
    for (const SweepPoint& p : points)
        values.push_back(p.value);
    return values;
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

} // namespace

LP_TEST(everyPointIsEvaluatesWithTheOtherAxesHeld) {
    const Scenario s = defaultScenario(); // 70B on 64 GPUs: TP 8 x PP 4 x DP 2, micro batch 2 x 16
    for (int a = 0; a < kSweepAxisCount; ++a) {
        const auto axis = static_cast<SweepAxis>(a);
        const std::vector<SweepPoint> points = sweepOf(s, axis);
        LP_CHECK(points.size() >= 2 || axis == SweepAxis::Ep); // a dense model: EP 1 only
        LP_CHECK(std::is_sorted(points.begin(), points.end(),
                                [](const SweepPoint& x, const SweepPoint& y) { return x.value < y.value; }));
        int current = 0;
        for (const SweepPoint& p : points) {
            current += p.current;
            const Plan expected = evaluate(p.scenario, profileOf(s));
            LP_CHECK_EQ(p.plan.mfu, expected.mfu);
            LP_CHECK_EQ(p.plan.valid, expected.valid);
            LP_CHECK_EQ(p.fits, p.valid && p.plan.memory.fits);
            LP_CHECK(p.valid || !p.reason.empty());
            if (p.current)
                LP_CHECK(p.scenario == s);
            if (axis == SweepAxis::Tp || axis == SweepAxis::Pp || axis == SweepAxis::Cp) {
                LP_CHECK_EQ(p.scenario.layout.gpus(), s.cluster.gpus());
                LP_CHECK_EQ(p.scenario.layout.microBatch, s.layout.microBatch);
            }
            if (p.valid && axis != SweepAxis::Accumulation)
                LP_CHECK_EQ(p.scenario.layout.effectiveBatch(), s.layout.effectiveBatch());
            if (axis == SweepAxis::Recompute || axis == SweepAxis::ZeroStage || axis == SweepAxis::ShardGroup)
                LP_CHECK(p.scenario.layout == s.layout);
            if (axis == SweepAxis::Vpp) // interleaving: only v changes
                LP_CHECK_EQ(p.scenario.layout.dp, s.layout.dp);
        }
        LP_CHECK_EQ(current, 1);
        LP_CHECK(!sweepCaption(axis, points, FigureFormat{}).empty());
    }
}

LP_TEST(valuesTriedPerAxis) {
    const Scenario s = defaultScenario();
    // The shard group: DP 2 gives "1" (each rank keeps the whole optimizer state) and "2 (all)", the
    // current plain sharding.
    const std::vector<SweepPoint> shard = sweepOf(s, SweepAxis::ShardGroup);
    LP_CHECK_EQ(shard.size(), std::size_t{2});
    LP_CHECK_EQ(shard.back().label, std::string("2 (all)"));
    LP_CHECK(shard.back().current);
    LP_CHECK_EQ(shard.front().scenario.training.zeroShardDegree, 1);
    const auto optimizerOf = [](const SweepPoint& p) { return p.plan.memory.worst()->optimizerBytes; };
    LP_CHECK_EQ(optimizerOf(shard.front()), 2.0 * optimizerOf(shard.back()));
    LP_CHECK_EQ(sweepOf(s, SweepAxis::ZeroStage).size(), std::size_t{4});
    const std::vector<SweepPoint> recompute = sweepOf(s, SweepAxis::Recompute);
    LP_CHECK_EQ(recompute.size(), std::size_t{3});
    LP_CHECK_EQ(recompute[1].label, std::string("selective"));
    // TP: the divisors that leave a whole DP on 64 GPUs with PP 4.
    LP_CHECK(valuesOf(sweepOf(s, SweepAxis::Tp)) == (std::vector<int>{1, 2, 4, 8, 16}));
    // Micro batch with the batch of 64 held over DP 2: at most 32.
    LP_CHECK(valuesOf(sweepOf(s, SweepAxis::MicroBatch)) == (std::vector<int>{1, 2, 4, 8, 16, 32}));
    // Virtual stages: PP 4 gives each rank 20 of the 80 layers, split into 1, 2, 4 or 5 chunks, never into
    // a count that leaves part of a layer.
    const std::vector<SweepPoint> vpp = sweepOf(s, SweepAxis::Vpp);
    for (const SweepPoint& p : vpp)
        LP_CHECK_EQ(80 % (4 * p.value), 0);
    LP_CHECK(vpp.size() >= 3);
}

LP_TEST(layoutAxesRebalanceDpAndAccumulation) {
    const Scenario s = defaultScenario();
    // CP 2 on 64 GPUs: DP 2 -> 1, the batch held by doubling accumulation.
    const std::vector<SweepPoint> cp = sweepOf(s, SweepAxis::Cp);
    const SweepPoint* cp2 = pointAt(cp, 2);
    LP_CHECK(cp2 != nullptr);
    if (cp2) {
        LP_CHECK_EQ(cp2->scenario.layout.dp, 1);
        LP_CHECK_EQ(cp2->scenario.layout.accumulation, 32);
    }
    // TP 8 -> 4 on 64 GPUs rebalances DP to 4 and halves accumulation (batch 64 held).
    const std::vector<SweepPoint> tp = sweepOf(s, SweepAxis::Tp);
    const SweepPoint* tp4 = pointAt(tp, 4);
    LP_CHECK(tp4 != nullptr);
    if (tp4) {
        LP_CHECK_EQ(tp4->scenario.layout.dp, 4);
        LP_CHECK_EQ(tp4->scenario.layout.accumulation, 8);
        LP_CHECK_EQ(sweepChangeText(SweepAxis::Tp, *pointAt(tp, 8), *tp4, FigureFormat{}),
                    std::string("TP 8 → 4 (DP 2 → 4, accumulation 16 → 8)"));
    }
    // Without holding the batch, accumulation stays and the batch follows.
    const std::vector<SweepPoint> free = sweepOf(s, SweepAxis::Tp, false);
    const SweepPoint* free4 = pointAt(free, 4);
    LP_CHECK(free4 != nullptr);
    if (free4) {
        LP_CHECK_EQ(free4->scenario.layout.accumulation, s.layout.accumulation);
        LP_CHECK_EQ(sweepChangeText(SweepAxis::Tp, *pointAt(free, 8), *free4, FigureFormat{}),
                    std::string("TP 8 → 4 (DP 2 → 4, global batch 64 → 128)"));
    }
    // The current point follows the scenario.
    Scenario mb1 = s;
    mb1.layout.microBatch = 1;
    for (const SweepPoint& p : sweepOf(mb1, SweepAxis::Tp))
        if (p.current)
            LP_CHECK_EQ(p.scenario.layout.microBatch, 1);
}

LP_TEST(aBatchThatDoesNotSplitIsInvalidWithItsReason) {
    Scenario s = defaultScenario();
    s.layout.accumulation = 3; // batch 2 x 3 x DP 2 = 12: micro batch 4 x DP 2 does not split it
    const std::vector<SweepPoint> mb = sweepOf(s, SweepAxis::MicroBatch);
    const SweepPoint* mb4 = pointAt(mb, 4);
    LP_CHECK(mb4 != nullptr);
    if (mb4) {
        LP_CHECK(!mb4->valid);
        LP_CHECK(!mb4->fits);
        LP_CHECK_EQ(mb4->reason,
                    std::string("the global batch of 12 does not split into micro batch 4 × DP 2"));
        LP_CHECK(contains(sweepPointText(SweepAxis::MicroBatch, *mb4, FigureFormat{}),
                          "\nInvalid: the global batch of 12"));
    }
}

LP_TEST(expertParallelismOfAMixtureOfExperts) {
    // Mixtral 8x7B on 64 GPUs: EP takes the divisors of its 8 experts; EP comes out of DP x CP, so DP and
    // the batch stay.
    Scenario s = defaultScenario();
    s.model = findModelPreset("mixtral-8x7b")->model;
    s.model.seqLen = 4096;
    s.layout.tp = 2;
    s.layout.pp = 4;
    s.layout.dp = 8;
    s.layout.microBatch = 1;
    s.layout.accumulation = 8;
    const std::vector<SweepPoint> points = sweepOf(s, SweepAxis::Ep);
    for (const SweepPoint& p : points) {
        LP_CHECK_EQ(p.scenario.layout.dp, 8);
        LP_CHECK_EQ(p.scenario.layout.effectiveBatch(), s.layout.effectiveBatch());
    }
    LP_CHECK(valuesOf(points) == (std::vector<int>{1, 2, 4, 8}));
    LP_CHECK(!contains(sweepCaption(SweepAxis::Ep, points, FigureFormat{}), "dense"));
}

LP_TEST(captionsSayWhyThereIsNothingToVary) {
    Scenario s = defaultScenario();
    const std::vector<SweepPoint> ep = sweepOf(s, SweepAxis::Ep);
    LP_CHECK_EQ(ep.size(), std::size_t{1});
    LP_CHECK_EQ(sweepCaption(SweepAxis::Ep, ep, FigureFormat{}),
                std::string("EP splits the experts of a mixture-of-experts model; this model is dense."));
    s.layout.pp = 1;
    s.layout.dp = 8;
    LP_CHECK_EQ(sweepCaption(SweepAxis::Vpp, sweepOf(s, SweepAxis::Vpp), FigureFormat{}),
                std::string("Virtual stages interleave a pipeline: with PP 1 there is none to interleave."));
    LP_CHECK(sweepCaption(SweepAxis::Tp, {}, FigureFormat{}).empty());
}

LP_TEST(highlightsAreTheBestAndTheRunnerUpThatFit) {
    const Scenario s = defaultScenario();
    for (int a = 0; a < kSweepAxisCount; ++a) {
        const std::vector<SweepPoint> points = sweepOf(s, static_cast<SweepAxis>(a));
        const SweepHighlights h = sweepHighlights(points);
        LP_CHECK(h.current != nullptr && h.current->current);
        for (const SweepPoint& p : points) {
            if (!p.fits)
                continue;
            LP_CHECK(h.best != nullptr && h.best->fits && h.best->plan.mfu >= p.plan.mfu);
            if (!p.current)
                LP_CHECK(h.runnerUp != nullptr && !h.runnerUp->current && h.runnerUp->plan.mfu >= p.plan.mfu);
        }
    }
}

LP_TEST(captionNamesTheBestChangeAndItsFigures) {
    const Scenario s = defaultScenario();
    const FigureFormat f;
    for (int a = 0; a < kSweepAxisCount; ++a) {
        const auto axis = static_cast<SweepAxis>(a);
        const std::vector<SweepPoint> points = sweepOf(s, axis);
        const SweepHighlights h = sweepHighlights(points);
        const std::string caption = sweepCaption(axis, points, f);
        if (!h.best || !h.current->fits || points.size() < 2)
            continue;
        if (h.best->plan.mfu > h.current->plan.mfu + 1e-9) {
            LP_CHECK_EQ(caption.rfind("Best change: " + sweepChangeText(axis, *h.current, *h.best, f), 0),
                        std::size_t{0});
            LP_CHECK(contains(caption, "raises MFU from " + f.percent(h.current->plan.mfu, 1) + " to " +
                                           f.percent(h.best->plan.mfu, 1)));
            LP_CHECK(
                contains(caption, "the worst stage needs " + f.bytes(h.best->plan.memory.worstTotalBytes())));
        } else if (h.runnerUp) {
            LP_CHECK(contains(caption, "is already the best value with the other axes held. Next best: " +
                                           sweepChangeText(axis, *h.current, *h.runnerUp, f)));
        }
    }
}

LP_TEST(aLayoutThatDoesNotFitIsShownTheChangeThatMakesItFit) {
    Scenario s = defaultScenario();
    s.training.recompute = Recompute::None;
    s.layout.microBatch = 8;
    s.layout.accumulation = 4;
    const HardwareProfile& profile = profileOf(s);
    LP_CHECK(!evaluate(s, profile).memory.fits);
    const std::vector<SweepPoint> points = sweepOf(s, SweepAxis::Recompute);
    const SweepHighlights h = sweepHighlights(points);
    LP_CHECK(h.best != nullptr);
    if (h.best)
        LP_CHECK_EQ(
            sweepCaption(SweepAxis::Recompute, points, FigureFormat{})
                .rfind("The current layout does not fit. Changing recompute none → " + h.best->label, 0),
            std::size_t{0});
    SweepOptions options;
    const std::optional<SingleChange> best = bestSingleChange(s, profile, options);
    LP_CHECK(best.has_value());
    if (best) {
        LP_CHECK(best->to.fits);
        LP_CHECK(contains(bestSingleChangeCaption(evaluate(s, profile), best, options, FigureFormat{}),
                          "Over all axes, the best single change that makes the layout fit is "));
    }
}

LP_TEST(bestSingleChangeIsTheHighestMfuOverEveryAxis) {
    const Scenario s = defaultScenario();
    const HardwareProfile& profile = profileOf(s);
    const Plan now = evaluate(s, profile);
    for (bool hold : {true, false}) {
        SweepOptions options;
        options.holdGlobalBatch = hold;
        double best = now.mfu;
        for (int a = 0; a < kSweepAxisCount; ++a) {
            const auto axis = static_cast<SweepAxis>(a);
            if (axis == SweepAxis::Accumulation && hold)
                continue;
            for (const SweepPoint& p : sweep(s, profile, axis, options))
                if (p.fits && !p.current && p.scenario.layout.gpus() == s.layout.gpus())
                    best = std::max(best, p.plan.mfu);
        }
        const std::optional<SingleChange> change = bestSingleChange(s, profile, options);
        const std::string caption = bestSingleChangeCaption(now, change, options, FigureFormat{});
        LP_CHECK_EQ(contains(caption, "Accumulation is left out while the global batch is held."), hold);
        LP_CHECK(contains(caption, "DP is left out: it changes the number of GPUs."));
        if (best <= now.mfu + 1e-9) {
            LP_CHECK(!change.has_value());
            LP_CHECK_EQ(caption.rfind("Over all axes: no single change raises MFU", 0), std::size_t{0});
            continue;
        }
        LP_CHECK(change.has_value());
        if (!change)
            continue;
        LP_CHECK_EQ(change->to.plan.mfu, best);
        LP_CHECK(change->from.current && change->to.fits);
        LP_CHECK_EQ(change->to.scenario.layout.gpus(), s.layout.gpus());
        // On the default scenario with its batch held, half the GPUs (DP 2 → 1, twice the accumulation) would
        // raise MFU more: it is not the answer.
        if (hold) {
            double fewerGpus = 0;
            for (const SweepPoint& p : sweep(s, profile, SweepAxis::Dp, options))
                if (p.fits && p.scenario.layout.gpus() < s.layout.gpus())
                    fewerGpus = std::max(fewerGpus, p.plan.mfu);
            LP_CHECK(fewerGpus > change->to.plan.mfu);
        }
        LP_CHECK(!(hold && change->axis == SweepAxis::Accumulation));
        LP_CHECK_EQ(
            caption.rfind("Over all axes, the best single change is " +
                              sweepChangeText(change->axis, change->from, change->to, FigureFormat{}) +
                              ": MFU " + FigureFormat{}.percent(now.mfu, 1) + " → ",
                          0),
            std::size_t{0});
    }
}

LP_TEST(anInvalidLayoutIsToldToBeFixedFirst) {
    Scenario s = defaultScenario();
    s.layout.tp = 3; // does not divide the 64 heads
    const HardwareProfile& profile = profileOf(s);
    const Plan now = evaluate(s, profile);
    LP_CHECK(!now.valid);
    LP_CHECK_EQ(bestSingleChangeCaption(now, bestSingleChange(s, profile, {}), {}, FigureFormat{}),
                std::string("The current layout is invalid: fix it in the planner first."));
    const std::vector<SweepPoint> tp = sweepOf(s, SweepAxis::Tp);
    const SweepPoint* tp3 = pointAt(tp, 3);
    LP_CHECK(tp3 != nullptr && tp3->current && !tp3->valid && !tp3->reason.empty());
}

LP_TEST(pointTextDescribesTheLayoutAndItsFigures) {
    const Scenario s = defaultScenario();
    const FigureFormat f;
    const std::vector<SweepPoint> tp = sweepOf(s, SweepAxis::Tp);
    const SweepPoint* cur = pointAt(tp, 8);
    LP_CHECK(cur != nullptr);
    if (!cur)
        return;
    const std::string text = sweepPointText(SweepAxis::Tp, *cur, f);
    LP_CHECK_EQ(text.rfind("TP = 8 (current)\nTP 8 · PP 4 · DP 2 · mb 2 × 16 = 64\nMFU " +
                               f.percent(cur->plan.mfu, 1) + " · " + f.seconds(cur->plan.time.stepSeconds) +
                               " · worst stage " + f.bytes(cur->plan.memory.worstTotalBytes()) + " of " +
                               f.bytes(cur->plan.memory.capacityBytes),
                           0),
                std::size_t{0});
    LP_CHECK_EQ(sweepAxisName(SweepAxis::ShardGroup), std::string_view("ZeRO shard group"));
}

LP_TEST_MAIN()
