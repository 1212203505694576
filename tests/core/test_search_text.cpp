// A search and its choices in words: the choice's summary (the Explore tab's tool tips and filter words),
// the ranking's name, the rejection reasons by frequency and the summary of a search (with the nearest miss
// where nothing fits).
#include "TestHarness.h"
#include "core/estimate/Evaluate.h"
#include "core/io/Presets.h"
#include "core/model/Units.h"
#include "core/search/SearchText.h"

#include <string>
#include <vector>

using namespace lp::core;

namespace {

SearchChoice defaultChoice() {
    return choiceOf(defaultScenario()); // TP 8 x PP 4 x DP 2, micro batch 2 x 16, ZeRO-1, selective, SP
}

} // namespace

LP_TEST(choiceTextNamesWhatIsSet) {
    SearchChoice c = defaultChoice();
    LP_CHECK_EQ(choiceText(c),
                std::string("TP 8 · PP 4 · DP 2 · mb 2 × 16 · ZeRO-1 · selective recompute · SP"));
    c.layout.cp = 2;
    c.layout.ep = 4;
    c.layout.vpp = 5;
    c.layout.dp = 8;
    c.zeroShardDegree = 4;
    c.recompute = Recompute::Full;
    c.recomputeLayers = 3;
    c.sequenceParallel = false;
    LP_CHECK_EQ(choiceText(c),
                std::string("TP 8 · PP 4 · DP 8 · CP 2 · EP 4 · v 5 · mb 2 × 16 · ZeRO-1 (HSDP 4) · "
                            "full (block 3) recompute · no SP"));
    c.layout.tp = 1; // no SP to speak of
    c.zeroShardDegree = 8;
    LP_CHECK_EQ(choiceText(c), std::string("TP 1 · PP 4 · DP 8 · CP 2 · EP 4 · v 5 · mb 2 × 16 · ZeRO-1 · "
                                           "full (block 3) recompute"));
    c.recompute = Recompute::None;
    LP_CHECK_EQ(choiceText(c), std::string("TP 1 · PP 4 · DP 8 · CP 2 · EP 4 · v 5 · mb 2 × 16 · ZeRO-1 · "
                                           "no recompute"));
}

LP_TEST(rankAndReasonNames) {
    LP_CHECK_EQ(rankByName(RankBy::StepTime), std::string("step time"));
    LP_CHECK_EQ(rankByName(RankBy::Mfu), std::string("MFU"));
    LP_CHECK_EQ(rankByName(RankBy::Cost), std::string("cost (GPU-hours)"));
    LP_CHECK_EQ(rankByName(RankBy::Headroom), std::string("memory headroom"));
    LP_CHECK_EQ(reasonText("tp_beyond_nvlink_domain"), std::string("tp beyond nvlink domain"));
}

LP_TEST(rejectionLinesAreMostFrequentFirst) {
    SearchResult r;
    r.rejected = {{"does_not_fit", 30}, {"batch_not_divisible", 1200}, {"heads_not_divisible_by_tp", 30}};
    const std::vector<std::string> lines = rejectionLines(r, FigureFormat{});
    LP_CHECK(lines == (std::vector<std::string>{"1,200 batch not divisible", "30 does not fit",
                                                "30 heads not divisible by tp"}));
}

LP_TEST(summaryOfASearch) {
    SearchResult r;
    r.evaluated = r.candidates = 1500;
    r.valid = 400;
    r.fitting = 120;
    r.threads = 4;
    r.seconds = 0.25;
    r.pareto.resize(7);
    r.rankBy = RankBy::Mfu;
    r.rejected = {{"a", 6}, {"b", 5}, {"c", 4}, {"d", 3}, {"e", 2}, {"f", 1}};
    const FigureFormat f;
    LP_CHECK_EQ(searchSummary(r, f),
                std::string("Tried 1,500 layouts in 250.0 ms on 4 threads. 400 valid, 120 fit. "
                            "Ranked by MFU; 7 on the Pareto front.\n"
                            "Rejected: 6 a · 5 b · 4 c · 3 d · 2 more reasons"));
    r.cancelled = true;
    r.evaluated = 300;
    r.fitting = 0;
    r.blockRecompute = 2;
    r.selectiveAsNone = 3;
    r.rejected.clear();
    LP_CHECK_EQ(searchSummary(r, f),
                std::string("Cancelled after 300 of 1,500 layouts: partial results. 400 valid, "
                            "0 fit (2 of them also ranked with block recompute); 3 with "
                            "selective recompute listed as none, whose plan they equal. No "
                            "layout fits: see the reasons below."));
}

// The list's caption agrees with the limit: the top N of those that fit, then the Pareto layouts beyond them.
LP_TEST(listedLayoutsAgreeWithTheLimit) {
    SearchResult r;
    r.fitting = 812;
    for (int mb : {1, 2, 4, 8, 16}) {
        SearchEntry e;
        e.choice = defaultChoice();
        e.choice.layout.microBatch = mb;
        r.top.push_back(e);
    }
    r.pareto = {r.top[0], r.top[1]}; // on the front and ranked: counted once
    LP_CHECK_EQ(paretoBeyondTop(r), 0LL);
    const FigureFormat f;
    LP_CHECK_EQ(listedLayoutsText(r, 5, 0, f), std::string("Top 5 of 812 that fit"));
    SearchEntry beyond;
    beyond.choice = defaultChoice();
    beyond.choice.layout.accumulation = 2;
    r.pareto.push_back(beyond);
    r.pareto.push_back(beyond);
    r.pareto.back().choice.layout.accumulation = 4;
    LP_CHECK_EQ(paretoBeyondTop(r), 2LL);
    LP_CHECK_EQ(listedLayoutsText(r, 5, 2, f),
                std::string("Top 5 of 812 that fit + 2 more on the Pareto front"));
    LP_CHECK_EQ(listedLayoutsText(r, 3, 1, f),
                std::string("Filter: 3 of the top 5 + 1 of 2 more on the Pareto front"));
    r.fitting = 5; // fewer fit than the limit
    LP_CHECK_EQ(listedLayoutsText(r, 5, 2, f), std::string("All 5 that fit + 2 more on the Pareto front"));
    r.pareto.clear();
    LP_CHECK_EQ(listedLayoutsText(r, 0, 0, f), std::string("Filter: 0 of the 5 that fit"));
    LP_CHECK_EQ(listedLayoutsText(SearchResult{}, 0, 0, f), std::string());
}

// Where no layout fits (DeepSeek-V3 on 64 H100), the search still says how far the nearest is: the valid
// layout with the least memory on its worst stage, over the capacity, the same on any number of threads.
LP_TEST(whereNothingFitsTheNearestMissIsNamed) {
    Scenario s = defaultScenario();
    s.model = findModelPreset("deepseek-v3")->model;
    const SearchSpace sp = defaultSearchSpace(s);
    SearchOptions options;
    options.threads = 3;
    const SearchResult r = search(s, sp, {}, options);
    LP_CHECK_EQ(r.fitting, 0LL);
    LP_CHECK(r.closestMiss.has_value());
    if (!r.closestMiss)
        return;
    const SearchEntry& miss = *r.closestMiss;
    const Plan p = evaluate(applyChoice(s, miss.choice));
    LP_CHECK(p.valid && !p.memory.fits);
    LP_CHECK_EQ(miss.worstStageBytes,
                p.memory.stages[static_cast<std::size_t>(p.memory.worstStage)].totalBytes);
    LP_CHECK(miss.headroomBytes < 0);
    options.threads = 1;
    LP_CHECK(search(s, sp, {}, options).closestMiss == r.closestMiss);
    const std::string summary = searchSummary(r, FigureFormat{});
    LP_CHECK(summary.find("No layout fits. The nearest, " + choiceText(miss.choice) + ", needs ") !=
             std::string::npos);
    LP_CHECK(summary.find("GPUs with more memory") != std::string::npos);
}

// A ranked layout's columns, as the Explore table and `search` both print them: the figures as the Plan
// tab's cards word them, memory as a number in the chosen unit.
LP_TEST(searchColumnsAreWordedOnce) {
    SearchEntry e;
    e.choice = defaultChoice();
    e.stepSeconds = 4.8685;
    e.mfu = 0.3781;
    e.tokensPerSecond = 53844.8;
    e.worstStageBytes = 48.74 * kGiB;
    e.headroomBytes = 30.47 * kGiB;
    e.gpuHours = 660334.2;
    const auto text = [&](SearchFigure f) { return searchFigureText(e, f, MemoryUnit::GiB); };
    LP_CHECK_EQ(text(SearchFigure::StepTime), fmt::duration(e.stepSeconds));
    LP_CHECK_EQ(text(SearchFigure::StepTime), std::string("4.869 s"));
    LP_CHECK_EQ(text(SearchFigure::Mfu), std::string("37.8 %"));
    LP_CHECK_EQ(text(SearchFigure::TokensPerSecond), std::string("53,845"));
    LP_CHECK_EQ(text(SearchFigure::GpuHours), std::string("660,334"));
    LP_CHECK_EQ(text(SearchFigure::WorstMemory), std::string("48.7"));
    LP_CHECK_EQ(searchFigureText(e, SearchFigure::WorstMemory, MemoryUnit::GB), std::string("52.3"));
    LP_CHECK_EQ(text(SearchFigure::Headroom), std::string("30.5"));
    LP_CHECK_EQ(text(SearchFigure::Zero), std::string("1"));
    LP_CHECK_EQ(text(SearchFigure::SequenceParallel), std::string("on"));
    e.choice.layout.dp = 8;
    e.choice.zeroShardDegree = 4;
    LP_CHECK_EQ(text(SearchFigure::Zero), std::string("1 (HSDP 4)"));
    e.choice.layout.tp = 1;
    LP_CHECK_EQ(text(SearchFigure::SequenceParallel), std::string("–"));
}

LP_TEST_MAIN()
