#pragma once
// One axis at a time: the scenario with one axis varied (TP, PP, DP, micro batch, accumulation, recompute,
// ZeRO stage and shard group, CP, EP, virtual stages) and the others held. TP, PP and CP keep the GPU
// count by rebalancing DP; with the global batch held, accumulation is rebalanced too. Every point is
// evaluate()'s; the captions say which change helps and by how much.
#include "core/estimate/Plan.h"
#include "core/model/Hardware.h"
#include "core/model/Scenario.h"
#include "core/search/LayoutSteps.h"
#include "core/util/NumberFormat.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lp::core {

enum class SweepAxis { Tp, Pp, Dp, MicroBatch, Accumulation, Recompute, ZeroStage, ShardGroup, Cp, Ep, Vpp };
inline constexpr int kSweepAxisCount = static_cast<int>(SweepAxis::Vpp) + 1;

std::string_view sweepAxisName(SweepAxis axis); // "TP", "micro batch", "ZeRO shard group", ...

struct SweepOptions {
    // Rebalance accumulation so that micro batch x accumulation x DP stays the scenario's global batch
    // (a value that cannot is invalid). Off: accumulation is held and the batch follows the layout.
    bool holdGlobalBatch = true;
    LayoutRules rules; // for DP steps; TP, PP and CP keep the GPU count whatever rules.keepGpuCount says
};

struct SweepPoint {
    int value = 0;     // the axis value (Recompute: the enum as int; ShardGroup: DP ranks)
    std::string label; // "8", "selective", "2 (all)"
    Scenario scenario; // the layout evaluated
    Plan plan;
    bool valid = false;   // a valid layout whose batch splits (with the batch held)
    bool fits = false;    // valid and fits in memory
    bool current = false; // the scenario's own value
    std::string reason;   // why it is invalid
};

// The values tried for `axis` around `s` (its own value always among them), each evaluated, in order.
std::vector<SweepPoint> sweep(const Scenario& s, const HardwareProfile& profile, SweepAxis axis,
                              const SweepOptions& options);

// The points a caption names: the current one, the fitting one with the highest MFU, and the fitting one
// with the highest MFU other than the current (null where there is none).
struct SweepHighlights {
    const SweepPoint* current = nullptr;
    const SweepPoint* best = nullptr;
    const SweepPoint* runnerUp = nullptr;
};
SweepHighlights sweepHighlights(const std::vector<SweepPoint>& points);

// "TP 8 → 4 (DP 2 → 4, accumulation 16 → 8)": the change and what followed it.
std::string sweepChangeText(SweepAxis axis, const SweepPoint& from, const SweepPoint& to,
                            const FigureFormat& f);
// A point in a few lines: the value, the layout, MFU, step time and memory, or why it is invalid.
std::string sweepPointText(SweepAxis axis, const SweepPoint& p, const FigureFormat& f);
// Which value of the axis is best and by how much, the runner-up where the current value is best, or why
// there is nothing to vary (a dense model's EP, virtual stages without a pipeline); empty without a
// current point.
std::string sweepCaption(SweepAxis axis, const std::vector<SweepPoint>& points, const FigureFormat& f);

// The single change over all axes that raises MFU most or, for a layout that does not fit, that makes it
// fit with the highest MFU, on the same number of GPUs (DP, which changes it, is left out). With the global
// batch held, accumulation is left out (it changes the batch).
struct SingleChange {
    SweepAxis axis = SweepAxis::Tp;
    SweepPoint from; // the current layout
    SweepPoint to;
};
std::optional<SingleChange> bestSingleChange(const Scenario& s, const HardwareProfile& profile,
                                             const SweepOptions& options);
// "Over all axes, the best single change is TP 8 → 4 (...): MFU 38.1 % → 41.0 % (+2.9 points). DP is left
// out: ..." and the sentences for an invalid layout, for no better change, and for the batch held. `now` is
// the scenario's plan.
std::string bestSingleChangeCaption(const Plan& now, const std::optional<SingleChange>& best,
                                    const SweepOptions& options, const FigureFormat& f);

} // namespace lp::core
