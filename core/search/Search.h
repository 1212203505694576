#pragma once
// Layout search: try every layout of a space for a fixed GPU count, keep the valid ones that fit, rank
// them, and say why the others were rejected. Multi-threaded (std::thread), deterministic
// whatever the thread count, cancellable through the progress callback. Qt-free.
#include "core/model/Enums.h"
#include "core/model/Hardware.h"
#include "core/model/Scenario.h"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lp::core {

// The values each axis may take. An empty list keeps the scenario's own value for that axis.
// DP is derived (GPU count / (TP x PP x CP)); combinations whose product does not divide the GPU count
// are not layouts and are not part of the space. Accumulation is derived from the global batch:
// for a fixed batch B it is B / (micro batch x DP); for a range [min, max] every accumulation whose
// effective batch lies in the range is a candidate. A (micro batch, DP) pair that reaches no batch
// is one rejected candidate per training choice (reason "batch_not_divisible").
// Three combinations that change nothing are tried once only: sequence parallel with TP 1 (off),
// virtual stages with PP 1 (v = 1), and ZeRO 0, 1 and 2 with DP x CP = 1 (the lowest listed stage).
// Non-positive values, ZeRO stages outside 0-3 and duplicates are ignored.
struct SearchSpace {
    std::vector<int> tp;
    std::vector<int> pp;
    std::vector<int> cp;
    std::vector<int> ep; // expert parallelism, carved out of DP x CP (MoE models)
    std::vector<int> vpp;
    std::vector<int> microBatch;
    std::vector<int> zeroStages;
    // Hybrid-sharding degrees to try with ZeRO >= 1 (TrainingOptions::zeroShardDegree; 0 = all DP ranks).
    // For a layout, a degree of DP or more is plain sharding (tried once, as 0); ZeRO-0 tries 0 only; a
    // degree that does not divide DP is rejected ("shard_degree_does_not_divide_dp").
    std::vector<int> shardDegrees;
    std::vector<Recompute> recompute;
    // Block recompute: each full-recompute candidate that fits with every layer recomputed is also tried
    // with the fewest layers of each model chunk recomputed that still fit (Megatron-LM --recompute-method
    // block --recompute-num-layers N), and both are ranked when that is faster (one candidate, two
    // entries). Off: full recompute keeps the scenario's own layer count.
    bool fewestRecomputeLayers = false;
    std::vector<bool> sequenceParallel;
    long long globalBatchMin = 0; // sequences; 0: the scenario's effective batch
    long long globalBatchMax = 0; // 0 or < min: the same as min (a fixed global batch)
};

// The full default space for a scenario:
//   TP: divisors of the heads that divide the GPU count, up to twice the NVLink domain;
//   PP: divisors of the layers that divide the GPU count; CP: divisors of the GPU count up to 32 that
//   leave at least 512 tokens per rank and split the sequence into 2 x CP chunks; EP: 1 for a dense
//   model, the divisors of the experts that divide the GPU count for a MoE model; v: divisors of the
//   layers up to 8; micro batch 1-8; ZeRO 0-3; recompute none, selective, full (with the fewest layers
//   per chunk that fit);
//   sequence parallel off and on; the scenario's own shard degree; the scenario's effective batch as
//   the fixed global batch.
SearchSpace defaultSearchSpace(const Scenario& s);

struct SearchConstraints {
    double minHeadroomBytes = 0; // free memory the worst stage must keep (reason "headroom_below_minimum")
    bool tpWithinNvlinkDomain =
        false; // TP may not cross the NVLink domain (reason "tp_beyond_nvlink_domain")
};

enum class RankBy {
    StepTime,  // shortest step (per sequence, so that a range of global batches compares fairly)
    Mfu,       // highest model FLOPs utilisation
    Cost,      // fewest GPU-hours for the token budget
    Headroom,  // most free memory on the worst stage
    Money,     // lowest price of the run in dollars (GPU-hours of wall clock x the price per GPU-hour)
    WallClock, // fewest wall-clock days, failures and checkpoints included
};
inline constexpr RankBy kRankings[] = {RankBy::StepTime, RankBy::Mfu,   RankBy::Cost,
                                       RankBy::Headroom, RankBy::Money, RankBy::WallClock};
// "step_time", "mfu", "cost", "headroom", "money", "wall_clock"
std::string_view toString(RankBy r);
std::optional<RankBy> parseRankBy(std::string_view s);

struct SearchOptions {
    int threads = 0; // 0: std::thread::hardware_concurrency()
    int topN = 20;
    RankBy rankBy = RankBy::StepTime;
    // Called on the calling thread with the fraction done: 0 at the start, then about every 15 ms,
    // and 1 at the end (its answer ignored). Returning false cancels: the search stops early and
    // returns what it has, with cancelled = true.
    std::function<bool(double fraction)> progress;
};

// One candidate: the layout and the training options the search varies.
struct SearchChoice {
    Layout layout;
    int zeroStage = 1;
    Recompute recompute = Recompute::Selective;
    bool sequenceParallel = true;
    int zeroShardDegree = 0; // hybrid sharding (0: all DP ranks)
    int recomputeLayers = 0; // full recompute of the first N layers of each chunk only (0: every layer)
    bool operator==(const SearchChoice&) const = default;
};
// A total order on choices (TP, PP, DP, CP, v, micro batch, accumulation, EP, ZeRO, shard degree,
// recompute, SP, recomputed layers): the
// last tie-break of every ranking, which makes results independent of the thread count.
bool choiceLess(const SearchChoice& a, const SearchChoice& b);
// "none", "selective", "full", or "full (block N)" for full recompute of N layers per chunk.
std::string recomputeChoiceText(const SearchChoice& c);
// The scenario with the choice applied (layout, ZeRO stage and shard degree, recompute and its layer
// count, sequence parallel).
Scenario applyChoice(const Scenario& base, const SearchChoice& c);
// The scenario's own values of what a choice holds (applyChoice's inverse).
SearchChoice choiceOf(const Scenario& s);
// The degree of hybrid sharding: the shard degree where it splits DP into groups with ZeRO 1-3, else 0 (a
// degree of 0 or of DP and more is plain sharding; ZeRO-0 shards nothing).
int hybridShardDegree(const SearchChoice& c);
// Whether two choices are the same layout. The search tries sequence parallelism only with TP > 1 and the
// ZeRO stage only with DP x CP > 1, so choices that differ only there are the same, and so are plain
// sharding's shard degrees. The recomputed layer count is not compared.
bool sameLayoutChoice(const SearchChoice& a, const SearchChoice& b);

// A ranked layout and its key figures (evaluate it through applyChoice for the full plan).
struct SearchEntry {
    SearchChoice choice;
    long long globalBatch = 0; // sequences per step
    double stepSeconds = 0;
    double mfu = 0;
    double tokensPerSecond = 0;
    double worstStageBytes = 0; // memory of the worst pipeline stage, per GPU
    double headroomBytes = 0;   // capacity - worst stage
    double gpuHours = 0;        // for the token budget
    double costUsd = 0;         // the run's price (Plan::run)
    double wallClockDays = 0;   // the run's wall clock, failures and checkpoints included
    bool operator==(const SearchEntry&) const = default;
};
// The ranking's strict total order: the rank key, then (memory headroom, or throughput when ranking
// by headroom), then choiceLess.
bool rankedBefore(const SearchEntry& a, const SearchEntry& b, RankBy by);

struct SearchResult {
    long long candidates = 0;     // layouts in the space
    long long evaluated = 0;      // layouts looked at (== candidates unless cancelled)
    long long valid = 0;          // passed the layout checks
    long long fitting = 0;        // valid, fit in memory and meet the constraints: the ranked set
    long long blockRecompute = 0; // full-recompute layouts of those also ranked with block recompute
    // Fitting layouts with selective recompute that plan exactly as the same layout without recompute
    // (nothing left to recompute: Megatron's attention core under flash attention): counted in fitting,
    // ranked once, as recompute none.
    long long selectiveAsNone = 0;
    // Why the others were rejected, one reason each (the first invalid-layout diagnostic id, else
    // "tp_beyond_nvlink_domain", "does_not_fit", "headroom_below_minimum"); sums to evaluated - fitting.
    std::map<std::string, long long> rejected;
    std::vector<SearchEntry> top; // the best topN fitting layouts, best first
    // Fitting layouts that no other matches or beats in both tokens/s and headroom (of identical
    // pairs, the first by choiceLess), by descending tokens/s.
    std::vector<SearchEntry> pareto;
    // Where no layout fits: of the valid ones that do not fit in memory, the one whose worst stage needs the
    // least (then by choiceLess), to say how far the cluster is from the model. Kept whether or not others
    // fit.
    std::optional<SearchEntry> closestMiss;
    RankBy rankBy = RankBy::StepTime;
    int threads = 1;    // threads used
    double seconds = 0; // wall time
    bool cancelled = false;
};

// Whether a search of `a` holds for `b`: the same model, cluster and training options apart from what the
// search varies (the layout, ZeRO stage, recompute, sequence parallelism); names and notes do not count.
bool sameSearchInputs(const Scenario& a, const Scenario& b);

// Layouts in the space (what SearchResult::candidates will be), without evaluating any.
long long countCandidates(const Scenario& s, const SearchSpace& space);

SearchResult search(const Scenario& s, const HardwareProfile& profile, const SearchSpace& space,
                    const SearchConstraints& constraints = {}, const SearchOptions& options = {});
// With the GPU's built-in profile.
SearchResult search(const Scenario& s, const SearchSpace& space, const SearchConstraints& constraints = {},
                    const SearchOptions& options = {});

} // namespace lp::core
