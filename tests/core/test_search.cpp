// Layout search: the search equals a plain brute-force enumeration on small spaces (the rankings:
// test_search_ranking.cpp), every layout it reports is valid and fits, the rejected counts add
// up, 1 and 4 threads give identical results, and cancelling stops early. Which choices are the same
// layout, and when a search of one scenario holds for another.
#include "TestHarness.h"
#include "core/estimate/Evaluate.h"
#include "core/io/Presets.h"
#include "core/search/Search.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

using namespace lp::core;

namespace {

// A small model on 2 nodes x 4 GPUs (NVLink domain 4) with little memory, so that every kind of
// rejection occurs: 12 heads but 2 KV heads, 12 layers, a 2,048-token sequence, 5 GB per GPU.
Scenario smallScenario() {
    Scenario s = defaultScenario();
    s.name = "small";
    ModelSpec& m = s.model;
    m.layers = 12;
    m.hidden = 1536;
    m.heads = 12;
    m.kvHeads = 2;
    m.ffnHidden = 4096;
    m.vocab = 32000;
    m.seqLen = 2048;
    s.cluster.nodes = 2;
    s.cluster.gpusPerNode = 4;
    s.cluster.nvlinkDomain = 4;
    s.cluster.gpu.hbmBytes = 5e9;
    s.layout = Layout{};
    s.layout.tp = 2;
    s.layout.pp = 2;
    s.layout.dp = 2;
    s.layout.microBatch = 1;
    s.layout.accumulation = 4; // global batch 8
    return s;
}

SearchSpace smallSpace() {
    SearchSpace sp;
    sp.tp = {1, 2, 4, 8};
    sp.pp = {1, 2, 4, 8};
    sp.cp = {1, 2};
    sp.vpp = {1, 2, 3};
    sp.microBatch = {1, 2, 3};
    sp.zeroStages = {0, 1, 3};
    sp.recompute = {Recompute::None, Recompute::Selective, Recompute::Full};
    sp.sequenceParallel = {false, true};
    sp.globalBatchMin = sp.globalBatchMax = 8;
    return sp;
}

// ---- The reference: every combination, written out plainly ----

struct Reference {
    long long evaluated = 0, valid = 0, fitting = 0, selectiveAsNone = 0;
    std::map<std::string, long long> rejected;
    std::vector<SearchEntry> fits;
    std::optional<SearchEntry> closestMiss; // of the valid layouts that do not fit, the least memory
};

// The shard degrees tried for ZeRO stage z at this DP: ZeRO-0 none (0); otherwise each listed degree,
// with 0 and every degree of DP or more meaning the same plain sharding, once.
std::vector<int> degreesOf(const SearchSpace& sp, const Scenario& base, int z, int dp) {
    if (z == 0)
        return {0};
    std::set<int> out;
    for (int d : sp.shardDegrees.empty() ? std::vector<int>{base.training.zeroShardDegree} : sp.shardDegrees)
        out.insert(d == 0 || d >= dp ? 0 : d);
    return {out.begin(), out.end()};
}

SearchEntry entryOf(const Scenario& s, const Plan& p) {
    SearchEntry e;
    e.choice = {s.layout,
                s.training.zeroStage,
                s.training.recompute,
                s.training.sequenceParallel,
                s.training.zeroShardDegree,
                s.training.recomputeLayers};
    e.globalBatch = s.layout.effectiveBatch();
    e.stepSeconds = p.time.stepSeconds;
    e.mfu = p.mfu;
    e.tokensPerSecond = p.tokensPerSecond;
    e.worstStageBytes = p.memory.stages[p.memory.worstStage].totalBytes;
    e.headroomBytes = p.memory.headroomBytes;
    e.gpuHours = p.gpuHours;
    e.costUsd = p.run.costUsd;
    e.wallClockDays = p.run.wallClockSeconds / 86400.0;
    return e;
}

// Block recompute, by counting up: the first layer count per chunk that fits, ranked beside full
// recompute of every layer when it is faster.
void addBlockRecompute(Reference& ref, Scenario s, const Plan& all, const SearchConstraints& c) {
    for (int n = 1; n < s.model.layers; ++n) {
        s.training.recomputeLayers = n;
        const Plan p = evaluate(s);
        if (p.valid && p.memory.fits && p.memory.headroomBytes >= c.minHeadroomBytes) {
            if (p.time.stepSeconds < all.time.stepSeconds)
                ref.fits.push_back(entryOf(s, p));
            return;
        }
    }
}

// The layout order choiceLess spells out.
auto choiceKey(const SearchChoice& c) {
    const Layout& l = c.layout;
    return std::make_tuple(l.tp, l.pp, l.dp, l.cp, l.vpp, l.microBatch, l.accumulation, l.ep, c.zeroStage,
                           c.zeroShardDegree, static_cast<int>(c.recompute), c.sequenceParallel,
                           c.recomputeLayers);
}

Reference bruteForce(const Scenario& base, const SearchSpace& sp, const SearchConstraints& c) {
    Reference ref;
    const long long gpus = base.cluster.gpus();
    const long long bmin = sp.globalBatchMin;
    const long long bmax = std::max(sp.globalBatchMax, bmin);
    for (int tp : sp.tp)
        for (int pp : sp.pp)
            for (int cp : sp.cp) {
                if (gpus % (tp * pp * cp) != 0)
                    continue; // DP would not be a whole number: not a layout
                const int dp = static_cast<int>(gpus / (tp * pp * cp));
                const std::vector<int> vs = pp == 1 ? std::vector<int>{1} : sp.vpp;
                std::vector<int> zeros;
                for (int z : sp.zeroStages) // with one shard, ZeRO 0-2 are one choice: the lowest
                    if (dp * cp > 1 || z == 3 ||
                        std::none_of(zeros.begin(), zeros.end(), [](int x) { return x < 3; }))
                        zeros.push_back(z);
                std::vector<bool> sps = sp.sequenceParallel;
                if (tp == 1)
                    sps = {false};
                const std::vector<int> eps = sp.ep.empty() ? std::vector<int>{base.layout.ep} : sp.ep;
                for (int ep : eps)
                    for (int v : vs)
                        for (int mb : sp.microBatch) {
                            std::vector<int> accs;
                            for (long long acc = 1; acc * mb * dp <= bmax; ++acc)
                                if (acc * mb * dp >= bmin)
                                    accs.push_back(static_cast<int>(acc));
                            for (int z : zeros)
                                for (int degree : degreesOf(sp, base, z, dp))
                                    for (Recompute r : sp.recompute)
                                        for (bool seqPar : sps) {
                                            if (accs.empty()) {
                                                ++ref.evaluated;
                                                ++ref.rejected["batch_not_divisible"];
                                                continue;
                                            }
                                            for (int acc : accs) {
                                                ++ref.evaluated;
                                                Scenario s = base;
                                                s.layout.tp = tp;
                                                s.layout.pp = pp;
                                                s.layout.cp = cp;
                                                s.layout.dp = dp;
                                                s.layout.ep = ep;
                                                s.layout.vpp = v;
                                                s.layout.microBatch = mb;
                                                s.layout.accumulation = acc;
                                                s.training.zeroStage = z;
                                                s.training.zeroShardDegree = degree;
                                                s.training.recompute = r;
                                                if (sp.fewestRecomputeLayers)
                                                    s.training.recomputeLayers = 0;
                                                s.training.sequenceParallel = seqPar;
                                                const Plan p = evaluate(s);
                                                if (!p.valid) {
                                                    for (const Diagnostic& d : p.diagnostics)
                                                        if (isInvalidLayoutId(d.id)) {
                                                            ++ref.rejected[std::string(
                                                                diagnosticIdString(d.id))];
                                                            break;
                                                        }
                                                    continue;
                                                }
                                                ++ref.valid;
                                                if (c.tpWithinNvlinkDomain && tp > s.cluster.nvlinkDomain) {
                                                    ++ref.rejected["tp_beyond_nvlink_domain"];
                                                } else if (!p.memory.fits) {
                                                    ++ref.rejected["does_not_fit"];
                                                    const SearchEntry e = entryOf(s, p);
                                                    const auto& m = ref.closestMiss;
                                                    if (!m || e.worstStageBytes < m->worstStageBytes ||
                                                        (e.worstStageBytes == m->worstStageBytes &&
                                                         choiceKey(e.choice) < choiceKey(m->choice)))
                                                        ref.closestMiss = e;
                                                } else if (p.memory.headroomBytes < c.minHeadroomBytes) {
                                                    ++ref.rejected["headroom_below_minimum"];
                                                } else {
                                                    ++ref.fitting;
                                                    ref.fits.push_back(entryOf(s, p));
                                                    if (sp.fewestRecomputeLayers && r == Recompute::Full)
                                                        addBlockRecompute(ref, s, p, c);
                                                }
                                            }
                                        }
                        }
            }
    // Selective recompute that plans exactly as the same choices without recompute is listed once, as none.
    std::vector<SearchEntry> kept;
    for (const SearchEntry& e : ref.fits) {
        const bool twin = e.choice.recompute == Recompute::Selective &&
                          std::any_of(ref.fits.begin(), ref.fits.end(), [&e](const SearchEntry& f) {
                              SearchChoice none = e.choice;
                              none.recompute = Recompute::None;
                              return f.choice == none && f.stepSeconds == e.stepSeconds &&
                                     f.worstStageBytes == e.worstStageBytes;
                          });
        if (twin)
            ++ref.selectiveAsNone;
        else
            kept.push_back(e);
    }
    ref.fits = std::move(kept);
    return ref;
}

// The ranking, spelled out: the rank key, then headroom (throughput when ranking by headroom), then
// the layout.
bool plainBetter(const SearchEntry& a, const SearchEntry& b, RankBy by) {
    double ka = 0, kb = 0;
    switch (by) {
    case RankBy::StepTime:
        ka = a.stepSeconds / static_cast<double>(a.globalBatch);
        kb = b.stepSeconds / static_cast<double>(b.globalBatch);
        break;
    case RankBy::Mfu:
        ka = -a.mfu;
        kb = -b.mfu;
        break;
    case RankBy::Cost:
        ka = a.gpuHours;
        kb = b.gpuHours;
        break;
    case RankBy::Headroom:
        ka = -a.headroomBytes;
        kb = -b.headroomBytes;
        break;
    case RankBy::Money:
        ka = a.costUsd;
        kb = b.costUsd;
        break;
    case RankBy::WallClock:
        ka = a.wallClockDays;
        kb = b.wallClockDays;
        break;
    }
    if (ka != kb)
        return ka < kb;
    const double sa = by == RankBy::Headroom ? -a.tokensPerSecond : -a.headroomBytes;
    const double sb = by == RankBy::Headroom ? -b.tokensPerSecond : -b.headroomBytes;
    if (sa != sb)
        return sa < sb;
    return choiceKey(a.choice) < choiceKey(b.choice);
}

std::vector<SearchEntry> plainTop(std::vector<SearchEntry> all, RankBy by, std::size_t n) {
    std::sort(all.begin(), all.end(),
              [by](const SearchEntry& a, const SearchEntry& b) { return plainBetter(a, b, by); });
    if (all.size() > n)
        all.resize(n);
    return all;
}

// e is on the front unless another entry is at least as fast and has at least as much headroom
// (and is strictly better in one, or identical in both and earlier in the layout order).
std::vector<SearchEntry> plainPareto(const std::vector<SearchEntry>& all) {
    std::vector<SearchEntry> front;
    for (const SearchEntry& e : all) {
        bool dominated = false;
        for (const SearchEntry& f : all) {
            if (&f == &e || f.tokensPerSecond < e.tokensPerSecond || f.headroomBytes < e.headroomBytes)
                continue;
            if (f.tokensPerSecond > e.tokensPerSecond || f.headroomBytes > e.headroomBytes ||
                choiceKey(f.choice) < choiceKey(e.choice)) {
                dominated = true;
                break;
            }
        }
        if (!dominated)
            front.push_back(e);
    }
    std::sort(front.begin(), front.end(), [](const SearchEntry& a, const SearchEntry& b) {
        return a.tokensPerSecond > b.tokensPerSecond;
    });
    return front;
}

long long sum(const std::map<std::string, long long>& m) {
    return std::accumulate(m.begin(), m.end(), 0LL,
                           [](long long acc, const auto& kv) { return acc + kv.second; });
}

SearchOptions threadsAndTop(int threads, int topN, RankBy by = RankBy::StepTime) {
    SearchOptions o;
    o.threads = threads;
    o.topN = topN;
    o.rankBy = by;
    return o;
}

void checkEqualsReference(const Scenario& s, const SearchSpace& sp, const SearchConstraints& c, RankBy by) {
    const Reference ref = bruteForce(s, sp, c);
    const SearchResult r = search(s, sp, c, threadsAndTop(3, 15, by));
    LP_CHECK(!r.cancelled);
    LP_CHECK_EQ(r.candidates, ref.evaluated);
    LP_CHECK_EQ(countCandidates(s, sp), ref.evaluated);
    LP_CHECK_EQ(r.evaluated, ref.evaluated);
    LP_CHECK_EQ(r.valid, ref.valid);
    LP_CHECK_EQ(r.fitting, ref.fitting);
    LP_CHECK_EQ(r.selectiveAsNone, ref.selectiveAsNone);
    LP_CHECK(r.rejected == ref.rejected);
    LP_CHECK_EQ(sum(r.rejected), r.evaluated - r.fitting);
    LP_CHECK(r.top == plainTop(ref.fits, by, 15));
    LP_CHECK(r.pareto == plainPareto(ref.fits));
    LP_CHECK(r.closestMiss == ref.closestMiss);
    LP_CHECK(!r.top.empty());
    LP_CHECK(!r.pareto.empty());
}

// Re-evaluates a reported layout: it must be valid, fit, meet the constraints and carry its figures.
void checkReported(const Scenario& base, const SearchEntry& e, const SearchConstraints& c) {
    const Plan p = evaluate(applyChoice(base, e.choice));
    LP_CHECK(p.valid);
    LP_CHECK(p.memory.fits);
    LP_CHECK(p.memory.headroomBytes >= c.minHeadroomBytes);
    LP_CHECK(!c.tpWithinNvlinkDomain || e.choice.layout.tp <= base.cluster.nvlinkDomain);
    LP_CHECK_EQ(e.choice.layout.gpus(), base.cluster.gpus());
    LP_CHECK_EQ(e.globalBatch, e.choice.layout.effectiveBatch());
    LP_CHECK_EQ(e.stepSeconds, p.time.stepSeconds);
    LP_CHECK_EQ(e.mfu, p.mfu);
    LP_CHECK_EQ(e.tokensPerSecond, p.tokensPerSecond);
    LP_CHECK_EQ(e.headroomBytes, p.memory.headroomBytes);
    LP_CHECK_EQ(e.gpuHours, p.gpuHours);
}

bool sameResults(const SearchResult& a, const SearchResult& b) {
    return a.candidates == b.candidates && a.evaluated == b.evaluated && a.valid == b.valid &&
           a.fitting == b.fitting && a.blockRecompute == b.blockRecompute &&
           a.selectiveAsNone == b.selectiveAsNone && a.rejected == b.rejected && a.top == b.top &&
           a.pareto == b.pareto && a.closestMiss == b.closestMiss && a.cancelled == b.cancelled;
}

} // namespace

LP_TEST(equalsBruteForceOnSmallSpace) {
    const Scenario s = smallScenario();
    const SearchSpace sp = smallSpace();
    const Reference ref = bruteForce(s, sp, {});
    // The space is built so that every rejection reason of the layout checks shows up.
    for (const char* id : {"heads_not_divisible_by_tp", "kv_heads_not_divisible_by_tp",
                           "layers_not_divisible_by_pp", "batch_not_divisible", "does_not_fit"})
        LP_CHECK(ref.rejected.count(id) == 1);
    LP_CHECK(ref.fitting > 20);
    for (RankBy by : kRankings)
        checkEqualsReference(s, sp, {}, by);
}

LP_TEST(equalsBruteForceWithConstraints) {
    Scenario s = smallScenario();
    s.cluster.nvlinkDomain = 1; // GPUs joined by PCIe only: any TP > 1 crosses the domain
    SearchConstraints c;
    c.tpWithinNvlinkDomain = true;
    c.minHeadroomBytes = 2e9;
    const Reference ref = bruteForce(s, smallSpace(), c);
    LP_CHECK(ref.rejected.count("tp_beyond_nvlink_domain") == 1);
    LP_CHECK(ref.rejected.count("headroom_below_minimum") == 1);
    checkEqualsReference(s, smallSpace(), c, RankBy::StepTime);
    const SearchResult r = search(s, smallSpace(), c);
    for (const SearchEntry& e : r.top)
        checkReported(s, e, c);
}

LP_TEST(equalsBruteForceWithBlockRecompute) {
    // Block recompute: the smallest layer count that fits, found by counting up here and by bisection in
    // the search; both variants of a full-recompute candidate are ranked, once counted as fitting.
    const Scenario s = smallScenario();
    SearchSpace sp = smallSpace();
    sp.fewestRecomputeLayers = true;
    const Reference ref = bruteForce(s, sp, {});
    const auto blocks = std::count_if(ref.fits.begin(), ref.fits.end(),
                                      [](const SearchEntry& e) { return e.choice.recomputeLayers > 0; });
    LP_CHECK(blocks > 0);
    LP_CHECK_EQ(static_cast<long long>(ref.fits.size()), ref.fitting + blocks - ref.selectiveAsNone);
    for (RankBy by : {RankBy::StepTime, RankBy::Headroom})
        checkEqualsReference(s, sp, {}, by);
    LP_CHECK_EQ(search(s, sp).blockRecompute, static_cast<long long>(blocks));
    sp.fewestRecomputeLayers = false;
    LP_CHECK_EQ(search(s, sp).blockRecompute, 0);
    sp.fewestRecomputeLayers = true;
    SearchConstraints c;
    c.minHeadroomBytes = 1e9;
    checkEqualsReference(s, sp, c, RankBy::StepTime);
    for (const SearchEntry& e : search(s, sp, c).top)
        checkReported(s, e, c);
}

LP_TEST(selectiveRecomputeThatChangesNothingIsListedOnceAsNone) {
    // Megatron style with flash attention: selective recompute has no attention core left to recompute,
    // so it plans exactly as none and gets no row of its own. Without flash attention it saves the s x s
    // scores at a cost and keeps its rows.
    Scenario s = smallScenario();
    SearchSpace sp = smallSpace();
    sp.zeroStages = {0, 1}; // the Megatron style
    const SearchResult flash = search(s, sp, {}, threadsAndTop(2, 1000));
    LP_CHECK(flash.selectiveAsNone > 0);
    long long noneRows = 0;
    for (const SearchEntry& e : flash.top) {
        LP_CHECK(e.choice.recompute != Recompute::Selective);
        noneRows += e.choice.recompute == Recompute::None;
        SearchChoice selective = e.choice;
        selective.recompute = Recompute::Selective;
        if (e.choice.recompute == Recompute::None) { // its selective twin plans the same
            const Plan p = evaluate(applyChoice(s, selective));
            LP_CHECK_EQ(p.time.stepSeconds, e.stepSeconds);
        }
    }
    LP_CHECK_EQ(noneRows, flash.selectiveAsNone); // every twin's none row fits and is listed
    s.training.flashAttention = false;
    const SearchResult eager = search(s, sp, {}, threadsAndTop(2, 1000));
    LP_CHECK_EQ(eager.selectiveAsNone, 0);
    LP_CHECK(std::any_of(eager.top.begin(), eager.top.end(),
                         [](const SearchEntry& e) { return e.choice.recompute == Recompute::Selective; }));
    checkEqualsReference(s, sp, {}, RankBy::StepTime);
}

LP_TEST(blockRecomputeBeatsEveryLayerWhereOnlyFullFits) {
    // Llama-2-70B at 4K tokens on 16 H100: only full recompute fits, and recomputing fewer layers of each
    // chunk is faster. The best layout recomputes a block; one layer fewer would not fit; with block
    // recompute off the search keeps every layer (the scenario's count).
    Scenario s = defaultScenario();
    s.cluster.nodes = 2;
    SearchSpace sp = defaultSearchSpace(s);
    LP_CHECK(sp.fewestRecomputeLayers);
    const SearchResult r = search(s, sp);
    LP_CHECK(!r.top.empty());
    const SearchEntry& best = r.top.front();
    LP_CHECK(best.choice.recompute == Recompute::Full);
    LP_CHECK(best.choice.recomputeLayers > 0);
    checkReported(s, best, {});
    SearchChoice fewer = best.choice;
    fewer.recomputeLayers -= 1;
    if (fewer.recomputeLayers > 0)
        LP_CHECK(!evaluate(applyChoice(s, fewer)).memory.fits);
    SearchChoice every = best.choice;
    every.recomputeLayers = 0;
    LP_CHECK(evaluate(applyChoice(s, every)).time.stepSeconds > best.stepSeconds);
    LP_CHECK(recomputeChoiceText(best.choice) ==
             "full (block " + std::to_string(best.choice.recomputeLayers) + ")");
    sp.fewestRecomputeLayers = false;
    for (const SearchEntry& e : search(s, sp).top)
        LP_CHECK_EQ(e.choice.recomputeLayers, 0);
    // A non-full choice leaves the scenario's own count for a later switch to full.
    s.training.recomputeLayers = 3;
    SearchChoice none = best.choice;
    none.recompute = Recompute::None;
    LP_CHECK_EQ(applyChoice(s, none).training.recomputeLayers, 3);
}

LP_TEST(equalsBruteForceWithShardDegrees) {
    // Hybrid sharding: degree 1 (every rank keeps its state), 2, and 3, which divides no DP of these
    // 8 GPUs (1, 2, 4 or 8): rejected wherever it is below DP, plain sharding where it is not.
    const Scenario s = smallScenario();
    SearchSpace sp = smallSpace();
    sp.shardDegrees = {0, 1, 2, 3};
    const Reference ref = bruteForce(s, sp, {});
    LP_CHECK(ref.rejected.count("shard_degree_does_not_divide_dp") == 1);
    LP_CHECK(ref.evaluated > bruteForce(s, smallSpace(), {}).evaluated);
    checkEqualsReference(s, sp, {}, RankBy::StepTime);
    checkEqualsReference(s, sp, {}, RankBy::Headroom);
    // Hybrid layouts show up among the fitting ones, and each reports its degree.
    const SearchResult r = search(s, sp, {}, threadsAndTop(2, 1000));
    bool hybrid = false;
    for (const SearchEntry& e : r.top) {
        checkReported(s, e, {});
        hybrid = hybrid || (e.choice.zeroShardDegree > 0 && e.choice.zeroShardDegree < e.choice.layout.dp);
    }
    LP_CHECK(hybrid);
}

LP_TEST(equalsBruteForceWithGlobalBatchRange) {
    const Scenario s = smallScenario();
    SearchSpace sp = smallSpace();
    sp.globalBatchMin = 6;
    sp.globalBatchMax = 16;
    const Reference ref = bruteForce(s, sp, {});
    LP_CHECK(ref.evaluated > countCandidates(s, smallSpace())); // several accumulations per layout
    checkEqualsReference(s, sp, {}, RankBy::StepTime);
    checkEqualsReference(s, sp, {}, RankBy::Headroom);
    const SearchResult r = search(s, sp);
    for (const SearchEntry& e : r.top) {
        LP_CHECK(e.globalBatch >= 6);
        LP_CHECK(e.globalBatch <= 16);
    }
}

LP_TEST(equalsBruteForceWithExpertParallelism) {
    // A small mixture-of-experts model: EP must divide the 8 experts and DP x CP.
    Scenario s = smallScenario();
    s.model.moe.experts = 8;
    s.model.moe.topK = 2;
    s.model.moe.expertFfnHidden = 1024;
    s.cluster.gpu.hbmBytes = 16e9;
    SearchSpace sp = smallSpace();
    sp.ep = {1, 2, 4, 8};
    sp.vpp = {1, 2};
    sp.zeroStages = {1};
    const Reference ref = bruteForce(s, sp, {});
    LP_CHECK(ref.rejected.count("ep_does_not_divide_dp") == 1);
    checkEqualsReference(s, sp, {}, RankBy::StepTime);
    const SearchSpace def = defaultSearchSpace(s);
    LP_CHECK(def.ep == (std::vector<int>{1, 2, 4, 8}));
    const SearchResult r = search(s, def);
    LP_CHECK(r.fitting > 0);
    for (const SearchEntry& e : r.top)
        checkReported(s, e, {});
}

LP_TEST(defaultSpaceOfDefaultScenario) {
    const Scenario s = defaultScenario();
    const SearchSpace sp = defaultSearchSpace(s);
    LP_CHECK(sp.tp == (std::vector<int>{1, 2, 4, 8, 16})); // divisors of 64 heads up to 2 x NVLink domain
    LP_CHECK(sp.pp == (std::vector<int>{1, 2, 4, 8, 16})); // divisors of 80 layers that divide 64 GPUs
    LP_CHECK(sp.cp == (std::vector<int>{1, 2, 4, 8}));     // at least 512 of 4,096 tokens per rank
    LP_CHECK(sp.ep == (std::vector<int>{1}));              // a dense model
    LP_CHECK(sp.vpp == (std::vector<int>{1, 2, 4, 5, 8}));
    LP_CHECK_EQ(sp.globalBatchMin, 64LL);
    LP_CHECK_EQ(sp.globalBatchMax, 64LL);
}

LP_TEST(everyReportedLayoutIsValidAndFits) {
    const Scenario s = defaultScenario();
    SearchConstraints c;
    c.minHeadroomBytes = 8e9;
    const SearchResult r = search(s, defaultSearchSpace(s), c, threadsAndTop(2, 50));
    LP_CHECK_EQ(r.top.size(), std::size_t{50});
    for (const SearchEntry& e : r.top)
        checkReported(s, e, c);
    for (const SearchEntry& e : r.pareto)
        checkReported(s, e, c);
    for (std::size_t i = 1; i < r.top.size(); ++i)
        LP_CHECK(rankedBefore(r.top[i - 1], r.top[i], RankBy::StepTime));
    for (std::size_t i = 1; i < r.pareto.size(); ++i) {
        LP_CHECK(r.pareto[i - 1].tokensPerSecond > r.pareto[i].tokensPerSecond);
        LP_CHECK(r.pareto[i - 1].headroomBytes < r.pareto[i].headroomBytes);
    }
}

LP_TEST(rejectedCountsAddUp) {
    const Scenario s = defaultScenario();
    const SearchResult r = search(s, defaultSearchSpace(s));
    LP_CHECK_EQ(r.evaluated, r.candidates);
    LP_CHECK_EQ(sum(r.rejected), r.evaluated - r.fitting);
    LP_CHECK(r.valid >= r.fitting);
    long long invalid = 0;
    for (const auto& [id, n] : r.rejected) {
        LP_CHECK(n > 0);
        if (id != "does_not_fit")
            invalid += n;
    }
    LP_CHECK_EQ(invalid, r.evaluated - r.valid);
    LP_CHECK(r.rejected.count("does_not_fit") == 1);
    LP_CHECK(r.rejected.count("batch_not_divisible") == 1);
}

LP_TEST(sameResultsWithOneAndFourThreads) {
    const Scenario s = defaultScenario();
    const SearchSpace sp = defaultSearchSpace(s);
    for (RankBy by : {RankBy::StepTime, RankBy::Headroom}) {
        const SearchResult one = search(s, sp, {}, threadsAndTop(1, 25, by));
        const SearchResult four = search(s, sp, {}, threadsAndTop(4, 25, by));
        LP_CHECK_EQ(one.threads, 1);
        LP_CHECK_EQ(four.threads, 4);
        LP_CHECK(sameResults(one, four));
    }
    SearchSpace range = smallSpace();
    range.globalBatchMax = 32;
    const Scenario small = smallScenario();
    LP_CHECK(sameResults(search(small, range, {}, threadsAndTop(1, 40)),
                         search(small, range, {}, threadsAndTop(4, 40))));
}

LP_TEST(cancelStopsEarlyWithPartialResults) {
    // A large space (a wide range of global batches) cancelled on the first progress report after
    // the start.
    const Scenario s = defaultScenario();
    SearchSpace sp = defaultSearchSpace(s);
    sp.globalBatchMin = 1;
    sp.globalBatchMax = 1 << 14;
    const long long total = countCandidates(s, sp);
    LP_CHECK(total > 2'000'000);
    int calls = 0;
    SearchOptions o = threadsAndTop(2, 10);
    o.progress = [&calls](double fraction) {
        LP_CHECK(fraction >= 0 && fraction <= 1);
        return ++calls < 2;
    };
    const SearchResult r = search(s, sp, {}, o);
    LP_CHECK(r.cancelled);
    LP_CHECK_EQ(calls, 2);
    LP_CHECK_EQ(r.candidates, total);
    LP_CHECK(r.evaluated > 0);
    LP_CHECK(r.evaluated < total);
    LP_CHECK_EQ(sum(r.rejected), r.evaluated - r.fitting);
    for (const SearchEntry& e : r.top)
        checkReported(s, e, {});
}

LP_TEST(cancelBeforeTheStart) {
    const Scenario s = defaultScenario();
    SearchOptions o;
    o.progress = [](double) { return false; };
    const SearchResult r = search(s, defaultSearchSpace(s), {}, o);
    LP_CHECK(r.cancelled);
    LP_CHECK_EQ(r.evaluated, 0LL);
    LP_CHECK(r.top.empty());
    LP_CHECK(r.rejected.empty());
}

LP_TEST(progressRisesToOne) {
    const Scenario s = smallScenario();
    std::vector<double> seen;
    SearchOptions o;
    o.progress = [&seen](double f) {
        seen.push_back(f);
        return true;
    };
    const SearchResult r = search(s, smallSpace(), {}, o);
    LP_CHECK(!r.cancelled);
    LP_CHECK(seen.size() >= 2);
    LP_CHECK_EQ(seen.front(), 0.0);
    LP_CHECK_EQ(seen.back(), 1.0);
    LP_CHECK(std::is_sorted(seen.begin(), seen.end()));
}

LP_TEST(emptyListsKeepTheScenarioValues) {
    const Scenario s = defaultScenario();
    const SearchResult r = search(s, SearchSpace{});
    LP_CHECK_EQ(r.candidates, 1LL);
    LP_CHECK_EQ(r.fitting, 1LL);
    LP_CHECK_EQ(r.top.size(), std::size_t{1});
    const Plan p = evaluate(s);
    LP_CHECK(r.top.front().choice.layout == s.layout);
    LP_CHECK_EQ(r.top.front().stepSeconds, p.time.stepSeconds);
    LP_CHECK(applyChoice(s, r.top.front().choice) == s);
}

LP_TEST(redundantCombinationsAreTriedOnce) {
    // TP 1 ignores sequence parallel, PP 1 ignores virtual stages, one shard makes ZeRO 0-2 alike.
    Scenario s = smallScenario();
    SearchSpace sp;
    sp.tp = {1};
    sp.pp = {1};
    sp.cp = {1};
    sp.vpp = {1, 2, 3};
    sp.sequenceParallel = {false, true};
    sp.zeroStages = {1, 2, 3};
    s.cluster.nodes = 1;
    s.cluster.gpusPerNode = 1;
    sp.globalBatchMin = 8;
    const SearchResult r = search(s, sp);
    LP_CHECK_EQ(r.candidates, 2LL); // ZeRO 1 and 3
    for (const SearchEntry& e : r.top) {
        LP_CHECK(!e.choice.sequenceParallel);
        LP_CHECK_EQ(e.choice.layout.vpp, 1);
        LP_CHECK(e.choice.zeroStage == 1 || e.choice.zeroStage == 3);
    }
}

LP_TEST(badSpaceValuesAreIgnored) {
    const Scenario s = smallScenario();
    SearchSpace bad = smallSpace();
    bad.tp = {0, -2, 2, 2, 4};
    bad.zeroStages = {-1, 1, 4, 1};
    SearchSpace good = smallSpace();
    good.tp = {2, 4};
    good.zeroStages = {1};
    LP_CHECK(sameResults(search(s, bad), search(s, good)));
}

LP_TEST(llama405bOn16kGpus) {
    const ModelPreset* model = findModelPreset("llama3.1-405b");
    const ClusterPreset* cluster = findClusterPreset("dgx-h100");
    LP_CHECK(model && cluster);
    if (!model || !cluster)
        return;
    Scenario s = defaultScenario();
    s.model = model->model;
    s.cluster = makeCluster(*cluster, 2048);
    SearchSpace sp = defaultSearchSpace(s);
    sp.globalBatchMin = sp.globalBatchMax = 2048;
    const SearchResult r = search(s, sp, {}, threadsAndTop(2, 5));
    LP_CHECK_EQ(sum(r.rejected), r.evaluated - r.fitting);
    LP_CHECK(r.fitting > 0);
    for (const SearchEntry& e : r.top) {
        LP_CHECK_EQ(e.globalBatch, 2048LL);
        checkReported(s, e, {});
    }
}

LP_TEST(choiceOfIsApplyChoicesInverse) {
    Scenario s = defaultScenario();
    s.training.recompute = Recompute::Full;
    s.training.recomputeLayers = 3;
    s.training.zeroShardDegree = 1;
    const SearchChoice c = choiceOf(s);
    LP_CHECK(c.layout == s.layout);
    LP_CHECK_EQ(c.zeroStage, s.training.zeroStage);
    LP_CHECK_EQ(c.zeroShardDegree, 1);
    LP_CHECK_EQ(c.recomputeLayers, 3);
    LP_CHECK(applyChoice(s, c) == s);
    LP_CHECK(choiceOf(applyChoice(defaultScenario(), c)) == c);
    s.training.recompute = Recompute::Selective; // a layer count kept for a later switch to full
    LP_CHECK_EQ(choiceOf(s).recomputeLayers, 0);
}

LP_TEST(hybridShardDegreeIsZeroForPlainSharding) {
    SearchChoice c;
    c.layout.dp = 8;
    c.zeroStage = 1;
    for (const auto& [degree, hybrid] :
         std::initializer_list<std::pair<int, int>>{{0, 0}, {1, 1}, {4, 4}, {8, 0}, {16, 0}}) {
        c.zeroShardDegree = degree;
        LP_CHECK_EQ(hybridShardDegree(c), hybrid);
    }
    c.zeroShardDegree = 4;
    c.zeroStage = 0; // ZeRO-0 shards nothing
    LP_CHECK_EQ(hybridShardDegree(c), 0);
}

LP_TEST(sameLayoutChoiceIgnoresWhatTheSearchDoesNotVary) {
    SearchChoice a;
    a.layout.tp = 1;
    a.layout.dp = 1;
    a.layout.cp = 1;
    SearchChoice b = a;
    b.sequenceParallel = !a.sequenceParallel; // SP is tried only with TP > 1
    b.zeroStage = 3;                          // the ZeRO stage only with DP x CP > 1
    b.recomputeLayers = 5;                    // not compared
    LP_CHECK(sameLayoutChoice(a, b));
    a.layout.tp = b.layout.tp = 2;
    LP_CHECK(!sameLayoutChoice(a, b));
    b.sequenceParallel = a.sequenceParallel;
    LP_CHECK(sameLayoutChoice(a, b));
    a.layout.dp = b.layout.dp = 4;
    LP_CHECK(!sameLayoutChoice(a, b));
    b.zeroStage = a.zeroStage = 1;
    a.zeroShardDegree = 0;
    b.zeroShardDegree = 4; // DP and more: plain sharding too
    LP_CHECK(sameLayoutChoice(a, b));
    b.zeroShardDegree = 2; // hybrid
    LP_CHECK(!sameLayoutChoice(a, b));
    b = a;
    b.recompute = Recompute::Full;
    LP_CHECK(!sameLayoutChoice(a, b));
    b = a;
    b.layout.microBatch = a.layout.microBatch + 1;
    LP_CHECK(!sameLayoutChoice(a, b));
}

LP_TEST(aSearchHoldsForTheSameInputsWhateverTheLayout) {
    const Scenario s = defaultScenario();
    Scenario other = applyChoice(s, SearchChoice{});
    other.name = "renamed";
    other.notes = "notes";
    LP_CHECK(sameSearchInputs(s, other));
    other.cluster.nodes = 4;
    LP_CHECK(!sameSearchInputs(s, other));
    other = s;
    other.training.flashAttention = !s.training.flashAttention;
    LP_CHECK(!sameSearchInputs(s, other));
    other = s;
    other.model.seqLen *= 2;
    LP_CHECK(!sameSearchInputs(s, other));
}

LP_TEST_MAIN()
