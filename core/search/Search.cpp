// Layout search: the space is cut into groups (TP, PP, CP, EP, v, micro batch with DP and the accumulation
// range derived); threads take groups from an atomic counter, each keeping its own counts, top N and
// Pareto front, merged at the end under total orders, so the result does not depend on the threads.
#include "core/search/Search.h"

#include "core/estimate/Evaluate.h"
#include "core/estimate/Plan.h"
#include "core/io/Presets.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <climits>
#include <cmath>
#include <condition_variable>
#include <exception>
#include <limits>
#include <mutex>
#include <optional>
#include <thread>
#include <tuple>
#include <utility>

namespace lp::core {

namespace {

// Rejection reasons: every diagnostic id, then the constraints.
constexpr int kReasonTpDomain = kDiagnosticCount;
constexpr int kReasonHeadroom = kDiagnosticCount + 1;
constexpr int kReasonCount = kDiagnosticCount + 2;

std::string_view reasonString(int r) {
    if (r == kReasonTpDomain)
        return "tp_beyond_nvlink_domain";
    if (r == kReasonHeadroom)
        return "headroom_below_minimum";
    return diagnosticIdString(static_cast<DiagnosticId>(r));
}

template <class T> std::vector<T> sortedUnique(std::vector<T> v) {
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    return v;
}

// The distinct shard degrees for DP: a degree of DP or more (or 0) is plain sharding, 0.
std::vector<int> degreesFor(const std::vector<int>& degrees, int dp) {
    std::vector<int> out;
    for (int d : degrees)
        out.push_back(d == 0 || d >= dp ? 0 : d);
    return sortedUnique(std::move(out));
}

// Training choices per accumulation, recompute and SP value: ZeRO-0 once, each other stage per degree.
long long zeroChoices(const std::vector<int>& zeros, std::size_t degrees) {
    long long n = 0;
    for (int z : zeros)
        n += z == 0 ? 1 : static_cast<long long>(degrees);
    return n;
}

std::vector<int> positive(const std::vector<int>& values, int fallback) {
    std::vector<int> out;
    for (int v : values.empty() ? std::vector<int>{fallback} : values)
        if (v > 0)
            out.push_back(v);
    return sortedUnique(std::move(out));
}

// One group: everything but accumulation and the training choices fixed.
struct Group {
    int tp, pp, cp, dp, ep, vpp, microBatch;
    long long accLo, accHi; // accHi < accLo: no accumulation reaches the global batch
    bool singleShard;       // DP x CP == 1: ZeRO 0-2 are the same
    long long size;         // candidates in the group
};

// The space with its lists cleaned and its groups laid out.
struct Space {
    std::vector<int> zero, zeroSingleShard;
    std::vector<int> shardDegrees; // as given (0 = all DP ranks)
    std::vector<Recompute> recompute;
    std::vector<bool> sp;
    std::vector<Group> groups;
    long long candidates = 0;
};

Space layOut(const Scenario& s, const SearchSpace& in) {
    Space sp;
    const std::vector<int> tps = positive(in.tp, s.layout.tp);
    const std::vector<int> pps = positive(in.pp, s.layout.pp);
    const std::vector<int> cps = positive(in.cp, s.layout.cp);
    const std::vector<int> eps = positive(in.ep, s.layout.ep);
    // GPipe runs one stage per rank: the search tries VPP 1 only (docs/estimation.md, "Pipeline bubble").
    const std::vector<int> vpps = s.training.pipelineSchedule == PipelineSchedule::GPipe
                                      ? std::vector<int>{1}
                                      : positive(in.vpp, s.layout.vpp);
    const std::vector<int> mbs = positive(in.microBatch, s.layout.microBatch);
    for (int z : in.zeroStages.empty() ? std::vector<int>{s.training.zeroStage} : in.zeroStages)
        if (z >= 0 && z <= 3)
            sp.zero.push_back(z);
    sp.zero = sortedUnique(std::move(sp.zero));
    for (int d : in.shardDegrees.empty() ? std::vector<int>{s.training.zeroShardDegree} : in.shardDegrees)
        if (d >= 0)
            sp.shardDegrees.push_back(d);
    if (sp.shardDegrees.empty())
        sp.shardDegrees.push_back(0);
    sp.shardDegrees = sortedUnique(std::move(sp.shardDegrees));
    for (int z : sp.zero)
        if (z == 3 || sp.zeroSingleShard.empty())
            sp.zeroSingleShard.push_back(z); // the lowest of 0-2, and 3
    sp.recompute =
        sortedUnique(in.recompute.empty() ? std::vector<Recompute>{s.training.recompute} : in.recompute);
    bool spOff = false, spOn = false;
    for (bool v :
         in.sequenceParallel.empty() ? std::vector<bool>{s.training.sequenceParallel} : in.sequenceParallel)
        (v ? spOn : spOff) = true;
    if (spOff)
        sp.sp.push_back(false);
    if (spOn)
        sp.sp.push_back(true);

    const long long gpus = s.cluster.gpus();
    const long long batchMin = in.globalBatchMin > 0 ? in.globalBatchMin : s.layout.effectiveBatch();
    const long long batchMax = in.globalBatchMax >= batchMin ? in.globalBatchMax : batchMin;
    if (gpus <= 0 || gpus > INT_MAX || batchMin <= 0 || sp.zero.empty())
        return sp;
    const long long inner = static_cast<long long>(sp.recompute.size());
    for (int tp : tps)
        for (int pp : pps)
            for (int cp : cps) {
                const long long prod = static_cast<long long>(tp) * pp * cp;
                if (gpus % prod != 0)
                    continue;
                const int dp = static_cast<int>(gpus / prod);
                const bool single = static_cast<long long>(dp) * cp == 1;
                const long long zeros = zeroChoices(single ? sp.zeroSingleShard : sp.zero,
                                                    degreesFor(sp.shardDegrees, dp).size());
                const long long sps = tp == 1 ? 1 : static_cast<long long>(sp.sp.size());
                for (int ep : eps)
                    for (int v : pp == 1 ? std::vector<int>{1} : vpps)
                        for (int mb : mbs) {
                            const long long unit = static_cast<long long>(mb) * dp;
                            const long long lo = std::max(1LL, (batchMin + unit - 1) / unit);
                            const long long hi = std::min(batchMax / unit, static_cast<long long>(INT_MAX));
                            const long long accs = hi >= lo ? hi - lo + 1 : 1;
                            Group g{tp, pp, cp, dp, ep, v, mb, lo, hi, single, accs * zeros * inner * sps};
                            sp.candidates += g.size;
                            sp.groups.push_back(g);
                        }
            }
    return sp;
}

// Smaller is better; NaN last.
double rankKey(const SearchEntry& e, RankBy by) {
    double k = 0;
    switch (by) {
    case RankBy::StepTime:
        k = e.stepSeconds / static_cast<double>(e.globalBatch);
        break;
    case RankBy::Mfu:
        k = -e.mfu;
        break;
    case RankBy::Cost:
        k = e.gpuHours;
        break;
    case RankBy::Headroom:
        k = -e.headroomBytes;
        break;
    case RankBy::Money:
        k = e.costUsd;
        break;
    case RankBy::WallClock:
        k = e.wallClockDays;
        break;
    }
    return std::isnan(k) ? std::numeric_limits<double>::infinity() : k;
}

double secondaryKey(const SearchEntry& e, RankBy by) {
    const double k = by == RankBy::Headroom ? -e.tokensPerSecond : -e.headroomBytes;
    return std::isnan(k) ? std::numeric_limits<double>::infinity() : k;
}

// Fitting layouts no other matches or beats in both tokens/s (T) and headroom (H). Kept sorted with T
// strictly falling and H strictly rising, so each insertion is a binary search and one erase.
class ParetoFront {
public:
    void insert(const SearchEntry& e) {
        const double t = e.tokensPerSecond;
        const double h = e.headroomBytes;
        if (!std::isfinite(t) || !std::isfinite(h))
            return;
        const auto it = std::partition_point(m_points.begin(), m_points.end(),
                                             [t](const SearchEntry& q) { return q.tokensPerSecond >= t; });
        const std::size_t k = static_cast<std::size_t>(it - m_points.begin());
        if (k > 0) {
            const SearchEntry& q = m_points[k - 1]; // the most headroom among those at least as fast
            if (q.headroomBytes > h)
                return;
            if (q.headroomBytes == h && (q.tokensPerSecond != t || choiceLess(q.choice, e.choice)))
                return;
        }
        const std::size_t from = k > 0 && m_points[k - 1].tokensPerSecond == t ? k - 1 : k;
        std::size_t to = from;
        while (to < m_points.size() && m_points[to].headroomBytes <= h)
            ++to;
        if (to > from) {
            m_points[from] = e;
            m_points.erase(m_points.begin() + static_cast<std::ptrdiff_t>(from + 1),
                           m_points.begin() + static_cast<std::ptrdiff_t>(to));
        } else {
            m_points.insert(m_points.begin() + static_cast<std::ptrdiff_t>(from), e);
        }
    }
    const std::vector<SearchEntry>& points() const { return m_points; }

private:
    std::vector<SearchEntry> m_points;
};

// The best N under rankedBefore: a heap with the worst kept on top.
class TopN {
public:
    TopN(std::size_t n, RankBy by) : m_n(n), m_by(by) { m_heap.reserve(n); }
    void offer(const SearchEntry& e) {
        const auto cmp = [this](const SearchEntry& a, const SearchEntry& b) {
            return rankedBefore(a, b, m_by);
        };
        if (m_n == 0)
            return;
        if (m_heap.size() < m_n) {
            m_heap.push_back(e);
            std::push_heap(m_heap.begin(), m_heap.end(), cmp);
        } else if (cmp(e, m_heap.front())) {
            std::pop_heap(m_heap.begin(), m_heap.end(), cmp);
            m_heap.back() = e;
            std::push_heap(m_heap.begin(), m_heap.end(), cmp);
        }
    }
    const std::vector<SearchEntry>& entries() const { return m_heap; }

private:
    std::size_t m_n;
    RankBy m_by;
    std::vector<SearchEntry> m_heap;
};

struct Shared {
    const Space& space;
    const HardwareProfile& profile;
    const SearchConstraints& constraints;
    bool fewestRecomputeLayers;
    std::atomic<std::size_t> nextGroup{0};
    std::atomic<long long> done{0};
    std::atomic<bool> cancel{false};
};

// One thread's share: its own scenario copy (only layout and training fields change), counts, top N
// and front. Cache-line aligned so that neighbouring workers do not share a line.
struct alignas(64) Worker {
    Worker(const Scenario& s, std::size_t topN, RankBy by) : sc(s), top(topN, by) {}

    Scenario sc;
    std::array<long long, kReasonCount> rejected{};
    long long evaluated = 0;
    long long valid = 0;
    long long fitting = 0;
    long long blockRecompute = 0;
    long long selectiveAsNone = 0;
    // The plan of recompute none for the current training choices, per SP value (its step time and
    // worst-stage bytes), set only when it fits: selective recompute that plans the same is not ranked again.
    std::array<std::optional<std::pair<double, double>>, 2> noneFitted;
    TopN top;
    ParetoFront front;
    std::exception_ptr error;
    Plan plan; // the candidate being judged, evaluated over the last one (its buffers reused)

    void run(Shared& sh) {
        try {
            const std::size_t n = sh.space.groups.size();
            for (;;) {
                if (sh.cancel.load(std::memory_order_relaxed))
                    return;
                const std::size_t i = sh.nextGroup.fetch_add(1, std::memory_order_relaxed);
                if (i >= n)
                    return;
                runGroup(sh, sh.space.groups[i]);
            }
        } catch (...) {
            error = std::current_exception();
            sh.cancel.store(true);
        }
    }

    void runGroup(Shared& sh, const Group& g) {
        if (g.accHi < g.accLo) { // no accumulation gives a global batch in range: one rejection each
            rejected[static_cast<int>(DiagnosticId::BatchNotDivisible)] += g.size;
            evaluated += g.size;
            sh.done.fetch_add(g.size, std::memory_order_relaxed);
            return;
        }
        Layout& l = sc.layout;
        l.tp = g.tp;
        l.pp = g.pp;
        l.cp = g.cp;
        l.dp = g.dp;
        l.ep = g.ep;
        l.vpp = g.vpp;
        l.microBatch = g.microBatch;
        const std::vector<int>& zeros = g.singleShard ? sh.space.zeroSingleShard : sh.space.zero;
        const std::vector<int> degrees = degreesFor(sh.space.shardDegrees, g.dp);
        static const std::vector<int> kPlain{0};
        static const std::vector<bool> kSpOff{false};
        const std::vector<bool>& sps = g.tp == 1 ? kSpOff : sh.space.sp;
        long long pending = 0;
        for (long long acc = g.accLo; acc <= g.accHi; ++acc) {
            l.accumulation = static_cast<int>(acc);
            for (int z : zeros) {
                sc.training.zeroStage = z;
                for (int d : z == 0 ? kPlain : degrees) {
                    sc.training.zeroShardDegree = d;
                    noneFitted = {};
                    for (Recompute r : sh.space.recompute) {
                        sc.training.recompute = r;
                        for (bool s : sps) {
                            if (sh.cancel.load(std::memory_order_relaxed)) {
                                sh.done.fetch_add(pending, std::memory_order_relaxed);
                                return;
                            }
                            sc.training.sequenceParallel = s;
                            evaluateOne(sh);
                            if (++pending == 256) {
                                sh.done.fetch_add(pending, std::memory_order_relaxed);
                                pending = 0;
                            }
                        }
                    }
                }
            }
        }
        sh.done.fetch_add(pending, std::memory_order_relaxed);
    }

    // Fits and meets the constraints (the TP-domain constraint is checked before).
    static bool accepted(const Plan& p, const SearchConstraints& c) {
        return p.valid && p.memory.fits && p.memory.headroomBytes >= c.minHeadroomBytes;
    }

    // Full recompute that fits with every layer: the fewest layers per chunk that still fit. Memory falls
    // as more layers are recomputed, so the smallest fitting count is found by bisection. Empty when it
    // is no faster than every layer (a count of a chunk's layers or more is every layer).
    std::optional<Plan> fewestRecomputedLayers(const Shared& sh, const Plan& all) {
        if (!sh.fewestRecomputeLayers || sc.training.recompute != Recompute::Full || sc.model.layers <= 1)
            return std::nullopt;
        // From one layer to a chunk's layers: that many or more is every layer (known to fit).
        int maxLayers = 1;
        for (const StageMemory& st : all.memory.stages)
            maxLayers = std::max(maxLayers, st.layers);
        const int v = std::max(1, sc.layout.vpp);
        int lo = 1, hi = (maxLayers + v - 1) / v;
        std::optional<Plan> best;
        while (lo < hi) {
            const int mid = lo + (hi - lo) / 2;
            sc.training.recomputeLayers = mid;
            Plan p = evaluate(sc, sh.profile);
            if (accepted(p, sh.constraints)) {
                hi = mid;
                best = std::move(p);
            } else {
                lo = mid + 1;
            }
        }
        sc.training.recomputeLayers = hi;
        if (best && best->time.stepSeconds < all.time.stepSeconds)
            return best;
        return std::nullopt;
    }

    std::optional<SearchEntry> closestMiss; // the valid layout nearest to fitting (SearchResult)

    // Of two layouts that do not fit, whether a is nearer to fitting: less on its worst stage, then
    // choiceLess.
    static bool nearerToFitting(const SearchEntry& a, const SearchEntry& b) {
        if (a.worstStageBytes != b.worstStageBytes)
            return a.worstStageBytes < b.worstStageBytes;
        return choiceLess(a.choice, b.choice);
    }

    void offerMiss(const Plan& p) {
        const double worst = p.memory.stages[static_cast<std::size_t>(p.memory.worstStage)].totalBytes;
        if (closestMiss && worst > closestMiss->worstStageBytes)
            return; // the common case: no entry built
        const SearchEntry e = entryOf(p);
        if (!closestMiss || nearerToFitting(e, *closestMiss))
            closestMiss = e;
    }

    void offer(const Plan& p) {
        const SearchEntry e = entryOf(p);
        top.offer(e);
        front.insert(e);
    }

    SearchEntry entryOf(const Plan& p) const {
        SearchEntry e;
        e.choice.layout = sc.layout;
        e.choice.zeroStage = sc.training.zeroStage;
        e.choice.zeroShardDegree = sc.training.zeroShardDegree;
        e.choice.recompute = sc.training.recompute;
        e.choice.recomputeLayers = sc.training.recompute == Recompute::Full ? sc.training.recomputeLayers : 0;
        e.choice.sequenceParallel = sc.training.sequenceParallel;
        e.globalBatch = sc.layout.effectiveBatch();
        e.stepSeconds = p.time.stepSeconds;
        e.mfu = p.mfu;
        e.tokensPerSecond = p.tokensPerSecond;
        e.worstStageBytes = p.memory.stages[static_cast<std::size_t>(p.memory.worstStage)].totalBytes;
        e.headroomBytes = p.memory.headroomBytes;
        e.gpuHours = p.gpuHours;
        e.costUsd = p.run.costUsd;
        e.wallClockDays = p.run.wallClockSeconds / 86400.0;
        return e;
    }

    void evaluateOne(const Shared& sh) {
        ++evaluated;
        if (sh.fewestRecomputeLayers)
            sc.training.recomputeLayers = 0; // every layer first; fewestRecomputedLayers looks for fewer
        evaluate(sc, sh.profile, plan);
        const Plan& p = plan;
        if (!p.valid) {
            int reason = static_cast<int>(DiagnosticId::InvalidValue);
            for (const Diagnostic& d : p.diagnostics)
                if (isInvalidLayoutId(d.id)) {
                    reason = static_cast<int>(d.id);
                    break;
                }
            ++rejected[reason];
            return;
        }
        ++valid;
        const SearchConstraints& c = sh.constraints;
        if (c.tpWithinNvlinkDomain && sc.layout.tp > sc.cluster.nvlinkDomain) {
            ++rejected[kReasonTpDomain];
            return;
        }
        if (!p.memory.fits) {
            ++rejected[static_cast<int>(DiagnosticId::DoesNotFit)];
            offerMiss(p);
            return;
        }
        if (p.memory.headroomBytes < c.minHeadroomBytes) {
            ++rejected[kReasonHeadroom];
            return;
        }
        ++fitting;
        // Selective recompute with nothing to recompute (Megatron's attention core under flash attention)
        // plans exactly what no recompute does: one row for the two, the simpler.
        auto& none = noneFitted[sc.training.sequenceParallel ? 1 : 0];
        const std::pair<double, double> key{
            p.time.stepSeconds, p.memory.stages[static_cast<std::size_t>(p.memory.worstStage)].totalBytes};
        if (sc.training.recompute == Recompute::None)
            none = key;
        else if (sc.training.recompute == Recompute::Selective && none == key) {
            ++selectiveAsNone;
            return;
        }
        offer(p);
        // The same candidate with block recompute, ranked beside it when faster.
        if (const std::optional<Plan> block = fewestRecomputedLayers(sh, p)) {
            ++blockRecompute;
            offer(*block);
        }
    }
};

} // namespace

std::string_view toString(RankBy r) {
    switch (r) {
    case RankBy::StepTime:
        return "step_time";
    case RankBy::Mfu:
        return "mfu";
    case RankBy::Cost:
        return "cost";
    case RankBy::Headroom:
        return "headroom";
    case RankBy::Money:
        return "money";
    case RankBy::WallClock:
        return "wall_clock";
    }
    return "step_time";
}

std::optional<RankBy> parseRankBy(std::string_view s) {
    for (RankBy r : kRankings)
        if (s == toString(r))
            return r;
    return std::nullopt;
}

SearchSpace defaultSearchSpace(const Scenario& s) {
    SearchSpace sp;
    const ModelSpec& m = s.model;
    const long long gpus = s.cluster.gpus();
    const auto dividesGpus = [gpus](long long v) { return gpus > 0 && gpus % v == 0; };
    const long long tpMax = std::min<long long>(m.heads, 2LL * s.cluster.nvlinkDomain);
    for (int t = 1; t <= tpMax; ++t)
        if (m.heads % t == 0 && dividesGpus(t))
            sp.tp.push_back(t);
    for (int p = 1; p <= m.layers; ++p)
        if (m.layers % p == 0 && dividesGpus(p))
            sp.pp.push_back(p);
    for (int c = 1; c <= 32; ++c)
        if (dividesGpus(c) && (c == 1 || (m.seqLen % (2 * c) == 0 && m.seqLen / c >= 512)))
            sp.cp.push_back(c);
    sp.ep = {1};
    if (m.isMoe()) {
        sp.ep.clear();
        for (int e = 1; e <= m.moe.experts; ++e)
            if (m.moe.experts % e == 0 && dividesGpus(e))
                sp.ep.push_back(e);
    }
    for (int v = 1; v <= 8; ++v)
        if (m.layers > 0 && m.layers % v == 0)
            sp.vpp.push_back(v);
    for (int b = 1; b <= 8; ++b)
        sp.microBatch.push_back(b);
    sp.zeroStages = {0, 1, 2, 3};
    sp.recompute = {Recompute::None, Recompute::Selective, Recompute::Full};
    sp.fewestRecomputeLayers = true;
    sp.sequenceParallel = {false, true};
    sp.globalBatchMin = sp.globalBatchMax = s.layout.effectiveBatch();
    return sp;
}

bool choiceLess(const SearchChoice& a, const SearchChoice& b) {
    const auto key = [](const SearchChoice& c) {
        const Layout& l = c.layout;
        return std::make_tuple(l.tp, l.pp, l.dp, l.cp, l.vpp, l.microBatch, l.accumulation, l.ep, c.zeroStage,
                               c.zeroShardDegree, static_cast<int>(c.recompute), c.sequenceParallel,
                               c.recomputeLayers);
    };
    return key(a) < key(b);
}

std::string recomputeChoiceText(const SearchChoice& c) {
    std::string text(toString(c.recompute));
    if (c.recompute == Recompute::Full && c.recomputeLayers > 0)
        text += " (block " + std::to_string(c.recomputeLayers) + ")";
    return text;
}

Scenario applyChoice(const Scenario& base, const SearchChoice& c) {
    Scenario s = base;
    s.layout = c.layout;
    s.training.zeroStage = c.zeroStage;
    s.training.zeroShardDegree = c.zeroShardDegree;
    s.training.recompute = c.recompute;
    if (c.recompute == Recompute::Full) // otherwise the scenario's count stays for a later switch to full
        s.training.recomputeLayers = c.recomputeLayers;
    s.training.sequenceParallel = c.sequenceParallel;
    return s;
}

SearchChoice choiceOf(const Scenario& s) {
    SearchChoice c;
    c.layout = s.layout;
    c.zeroStage = s.training.zeroStage;
    c.zeroShardDegree = s.training.zeroShardDegree;
    c.recompute = s.training.recompute;
    c.recomputeLayers = s.training.recompute == Recompute::Full ? s.training.recomputeLayers : 0;
    c.sequenceParallel = s.training.sequenceParallel;
    return c;
}

int hybridShardDegree(const SearchChoice& c) {
    return c.zeroStage >= 1 && c.zeroShardDegree > 0 && c.zeroShardDegree < c.layout.dp ? c.zeroShardDegree
                                                                                        : 0;
}

bool sameLayoutChoice(const SearchChoice& a, const SearchChoice& b) {
    if (a.layout != b.layout || a.recompute != b.recompute)
        return false;
    if (a.sequenceParallel != b.sequenceParallel && a.layout.tp > 1)
        return false;
    if (a.zeroStage != b.zeroStage && static_cast<long long>(a.layout.dp) * a.layout.cp > 1)
        return false;
    return hybridShardDegree(a) == hybridShardDegree(b);
}

bool sameSearchInputs(const Scenario& a, const Scenario& b) {
    const auto inputs = [](Scenario s) {
        s.name.reset();
        s.notes.clear();
        s.layout = {};
        s.training.zeroStage = 0;
        s.training.recompute = Recompute::None;
        s.training.sequenceParallel = false;
        return s;
    };
    return inputs(a) == inputs(b);
}

bool rankedBefore(const SearchEntry& a, const SearchEntry& b, RankBy by) {
    const double ka = rankKey(a, by);
    const double kb = rankKey(b, by);
    if (ka != kb)
        return ka < kb;
    const double sa = secondaryKey(a, by);
    const double sb = secondaryKey(b, by);
    if (sa != sb)
        return sa < sb;
    return choiceLess(a.choice, b.choice);
}

long long countCandidates(const Scenario& s, const SearchSpace& space) {
    return layOut(s, space).candidates;
}

SearchResult search(const Scenario& s, const SearchSpace& space, const SearchConstraints& constraints,
                    const SearchOptions& options) {
    return search(s, builtinProfile(s.cluster.gpu), space, constraints, options);
}

SearchResult search(const Scenario& s, const HardwareProfile& profile, const SearchSpace& spaceIn,
                    const SearchConstraints& constraints, const SearchOptions& options) {
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    SearchResult result;
    result.rankBy = options.rankBy;
    const Space space = layOut(s, spaceIn);
    result.candidates = space.candidates;

    int threads =
        options.threads > 0 ? options.threads : static_cast<int>(std::thread::hardware_concurrency());
    threads = std::clamp(threads, 1, static_cast<int>(std::max<std::size_t>(1, space.groups.size())));
    result.threads = threads;

    const auto finish = [&] {
        result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
        return result;
    };
    if (options.progress && !options.progress(0.0)) {
        result.cancelled = true;
        return finish();
    }

    Shared shared{space, profile, constraints, spaceIn.fewestRecomputeLayers};
    const std::size_t topN = static_cast<std::size_t>(std::max(0, options.topN));
    std::vector<Worker> workers;
    workers.reserve(static_cast<std::size_t>(threads));
    for (int i = 0; i < threads; ++i)
        workers.emplace_back(s, topN, options.rankBy);

    std::mutex mutex;
    std::condition_variable cv;
    int running = threads;
    std::vector<std::thread> pool;
    pool.reserve(static_cast<std::size_t>(threads));
    for (Worker& w : workers)
        pool.emplace_back([&, wp = &w] {
            wp->run(shared);
            const std::lock_guard lock(mutex);
            --running;
            cv.notify_all();
        });
    if (options.progress) {
        std::unique_lock lock(mutex);
        while (!cv.wait_for(lock, std::chrono::milliseconds(15), [&] { return running == 0; })) {
            lock.unlock();
            const double fraction = space.candidates > 0 ? static_cast<double>(shared.done.load()) /
                                                               static_cast<double>(space.candidates)
                                                         : 1.0;
            // Once cancelled, wait for the workers without asking again.
            if (!shared.cancel.load() && !options.progress(std::min(fraction, 1.0)))
                shared.cancel.store(true);
            lock.lock();
        }
    }
    for (std::thread& t : pool)
        t.join();
    for (const Worker& w : workers)
        if (w.error)
            std::rethrow_exception(w.error);

    // Merge: sums, and the total orders for the top N and the front.
    std::array<long long, kReasonCount> rejected{};
    ParetoFront front;
    for (const Worker& w : workers) {
        result.evaluated += w.evaluated;
        result.valid += w.valid;
        result.fitting += w.fitting;
        result.blockRecompute += w.blockRecompute;
        result.selectiveAsNone += w.selectiveAsNone;
        for (int r = 0; r < kReasonCount; ++r)
            rejected[static_cast<std::size_t>(r)] += w.rejected[static_cast<std::size_t>(r)];
        result.top.insert(result.top.end(), w.top.entries().begin(), w.top.entries().end());
        for (const SearchEntry& e : w.front.points())
            front.insert(e);
        if (w.closestMiss &&
            (!result.closestMiss || Worker::nearerToFitting(*w.closestMiss, *result.closestMiss)))
            result.closestMiss = w.closestMiss;
    }
    for (int r = 0; r < kReasonCount; ++r)
        if (rejected[static_cast<std::size_t>(r)] > 0)
            result.rejected[std::string(reasonString(r))] = rejected[static_cast<std::size_t>(r)];
    std::sort(
        result.top.begin(), result.top.end(),
        [by = options.rankBy](const SearchEntry& a, const SearchEntry& b) { return rankedBefore(a, b, by); });
    if (result.top.size() > topN)
        result.top.resize(topN);
    result.pareto = front.points();
    result.cancelled = shared.cancel.load() && result.evaluated < result.candidates;
    if (options.progress && !result.cancelled)
        options.progress(1.0);
    return finish();
}

} // namespace lp::core
