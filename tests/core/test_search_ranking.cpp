// Search rankings: the best layout by each ranking is at least as good as the default layout on that
// figure, the rankings' names read back, and ranking by money follows the run's price.
#include "TestHarness.h"
#include "core/estimate/Evaluate.h"
#include "core/io/Presets.h"
#include "core/search/Search.h"

using namespace lp::core;

namespace {

SearchOptions threadsAndTop(int threads, int topN, RankBy by = RankBy::StepTime) {
    SearchOptions o;
    o.threads = threads;
    o.topN = topN;
    o.rankBy = by;
    return o;
}

} // namespace

LP_TEST(bestIsAtLeastAsGoodAsTheDefaultLayout) {
    const Scenario s = defaultScenario();
    const Plan current = evaluate(s);
    LP_CHECK(current.valid && current.memory.fits);
    const SearchSpace sp = defaultSearchSpace(s);
    const SearchResult byTime = search(s, sp, {}, threadsAndTop(0, 10, RankBy::StepTime));
    LP_CHECK(!byTime.top.empty());
    LP_CHECK(byTime.top.front().stepSeconds <= current.time.stepSeconds);
    LP_CHECK(byTime.top.front().tokensPerSecond >= current.tokensPerSecond);
    const SearchResult byMfu = search(s, sp, {}, threadsAndTop(0, 10, RankBy::Mfu));
    LP_CHECK(byMfu.top.front().mfu >= current.mfu);
    const SearchResult byCost = search(s, sp, {}, threadsAndTop(0, 10, RankBy::Cost));
    LP_CHECK(byCost.top.front().gpuHours <= current.gpuHours);
    const SearchResult byHeadroom = search(s, sp, {}, threadsAndTop(0, 10, RankBy::Headroom));
    LP_CHECK(byHeadroom.top.front().headroomBytes >= current.memory.headroomBytes);
    const SearchResult byMoney = search(s, sp, {}, threadsAndTop(0, 10, RankBy::Money));
    LP_CHECK(current.run.costUsd > 0);
    LP_CHECK(byMoney.top.front().costUsd <= current.run.costUsd);
    const SearchResult byDays = search(s, sp, {}, threadsAndTop(0, 10, RankBy::WallClock));
    LP_CHECK(byDays.top.front().wallClockDays <= current.run.wallClockSeconds / 86400.0);
    // The front's ends are the fastest and the roomiest layouts.
    LP_CHECK_EQ(byTime.pareto.front().tokensPerSecond, byTime.top.front().tokensPerSecond);
    LP_CHECK_EQ(byTime.pareto.back().headroomBytes, byHeadroom.top.front().headroomBytes);
    // The default layout itself is a candidate: the seed's choices are all in the default space.
    LP_CHECK(byTime.fitting > 0 && byTime.evaluated == countCandidates(s, sp));
}

LP_TEST(rankNamesRoundTrip) {
    for (RankBy r : kRankings)
        LP_CHECK(parseRankBy(toString(r)) == r);
    LP_CHECK(parseRankBy("money") == RankBy::Money);
    LP_CHECK(parseRankBy("wall_clock") == RankBy::WallClock);
    LP_CHECK(parseRankBy("step_time") == RankBy::StepTime);
    LP_CHECK(!parseRankBy("speed").has_value());
}

// Ranking by money orders by the run's price: each entry's cost is its wall-clock GPU-hours at the price,
// and the list rises.
LP_TEST(rankByMoneyIsTheRunsPrice) {
    Scenario s = defaultScenario();
    s.run.pricePerGpuHourUsd = 2.5;
    SearchSpace sp = defaultSearchSpace(s);
    sp.zeroStages = {1};
    sp.sequenceParallel = {true};
    const SearchResult r = search(s, sp, {}, threadsAndTop(0, 10, RankBy::Money));
    LP_CHECK(r.top.size() > 1);
    for (std::size_t i = 0; i < r.top.size(); ++i) {
        const Plan p = evaluate(applyChoice(s, r.top[i].choice));
        LP_CHECK_NEAR(r.top[i].costUsd, p.run.gpuHours * 2.5, 1e-9);
        LP_CHECK_NEAR(r.top[i].wallClockDays, p.run.wallClockSeconds / 86400.0, 1e-9);
        if (i > 0)
            LP_CHECK(r.top[i - 1].costUsd <= r.top[i].costUsd);
    }
}

LP_TEST_MAIN()
