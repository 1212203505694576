#include "core/search/Sweep.h"

#include "core/estimate/Evaluate.h"
#include "core/util/NumberFormat.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace lp::core {
namespace {

int currentValue(const Scenario& s, SweepAxis axis) {
    switch (axis) {
    case SweepAxis::Tp:
        return s.layout.tp;
    case SweepAxis::Pp:
        return s.layout.pp;
    case SweepAxis::Dp:
        return s.layout.dp;
    case SweepAxis::MicroBatch:
        return s.layout.microBatch;
    case SweepAxis::Accumulation:
        return s.layout.accumulation;
    case SweepAxis::Recompute:
        return static_cast<int>(s.training.recompute);
    case SweepAxis::ZeroStage:
        return s.training.zeroStage;
    case SweepAxis::ShardGroup:
        return effectiveShardDegree(s);
    case SweepAxis::Cp:
        return s.layout.cp;
    case SweepAxis::Ep:
        return s.layout.ep;
    case SweepAxis::Vpp:
        return s.layout.vpp;
    }
    return 0;
}

// TP, PP and CP: the values that leave a whole DP for the cluster's GPUs (the keep-GPU-count rule); the
// core says which of them split the heads, layers or sequence.
void addGpuKeepingValues(const Scenario& s, SweepAxis axis, std::set<int>& values) {
    const Layout& l = s.layout;
    const long long gpus = s.cluster.gpus();
    if (axis == SweepAxis::Cp) {
        for (int v = 1; v <= 32; ++v)
            if (gpus > 0 && gpus % (static_cast<long long>(l.tp) * l.pp * v) == 0)
                values.insert(v);
        return;
    }
    const long long other = static_cast<long long>(axis == SweepAxis::Tp ? l.pp : l.tp) * l.cp;
    const int limit = std::clamp(axis == SweepAxis::Tp ? s.model.heads : s.model.layers, 1, 128);
    for (int v = 1; v <= limit; ++v)
        if (other > 0 && gpus > 0 && gpus % (other * v) == 0)
            values.insert(v);
}

// The values tried: what the axis can take around the current layout, the current one always.
std::vector<int> candidateValues(const Scenario& s, SweepAxis axis, bool holdBatch) {
    const Layout& l = s.layout;
    std::set<int> values{currentValue(s, axis)};
    switch (axis) {
    case SweepAxis::Tp:
    case SweepAxis::Pp:
    case SweepAxis::Cp:
        addGpuKeepingValues(s, axis, values);
        break;
    case SweepAxis::Dp:
        values.insert(1);
        for (int k = -3; k <= 3; ++k) {
            const double v = l.dp * std::pow(2.0, k);
            if (v >= 1 && v <= 65536 && v == std::floor(v))
                values.insert(static_cast<int>(v));
        }
        break;
    case SweepAxis::MicroBatch:
        for (int v : {1, 2, 4, 8, 16, 32})
            if (!holdBatch || static_cast<long long>(v) * l.dp <= l.effectiveBatch())
                values.insert(v);
        break;
    case SweepAxis::Accumulation:
        for (int v = 1; v <= 256; v *= 2)
            values.insert(v);
        break;
    case SweepAxis::Recompute:
        values = {0, 1, 2};
        break;
    case SweepAxis::ZeroStage:
        values = {0, 1, 2, 3};
        break;
    case SweepAxis::ShardGroup:
        // Hybrid sharding: the divisors of DP (the whole of DP is plain sharding), at most 16 of them.
        for (int v = 1; v <= l.dp && values.size() < 16; ++v)
            if (l.dp % v == 0)
                values.insert(v);
        values.insert(l.dp);
        break;
    case SweepAxis::Ep:
        // Mixture of experts only: the divisors of the expert count, up to the GPUs there are.
        for (int v = 1; s.model.isMoe() && v <= s.model.moe.experts && v <= s.cluster.gpus(); ++v)
            if (s.model.moe.experts % v == 0)
                values.insert(v);
        break;
    case SweepAxis::Vpp:
        // Interleaving needs a pipeline; chunks of whole layers.
        for (int v = 1; l.pp > 1 && v <= 8; ++v)
            if (s.model.layers % (l.pp * v) == 0)
                values.insert(v);
        break;
    }
    return {values.begin(), values.end()};
}

// The scenario with `axis` at `value`, before the batch is held.
Scenario withAxisValue(const Scenario& s, SweepAxis axis, int value, bool current, const LayoutRules& rules) {
    LayoutRules own = rules;
    own.holdGlobalBatch = false; // the sweep holds the batch itself, by its own option
    LayoutRules keep = own;
    keep.keepGpuCount = true;
    Scenario n = s;
    switch (axis) {
    case SweepAxis::Tp:
        return withLayoutValue(s, LayoutAxis::Tp, value, keep);
    case SweepAxis::Pp:
        return withLayoutValue(s, LayoutAxis::Pp, value, keep);
    case SweepAxis::Cp:
        return withLayoutValue(s, LayoutAxis::Cp, value, keep);
    case SweepAxis::Dp:
        return withLayoutValue(s, LayoutAxis::Dp, value, own);
    case SweepAxis::MicroBatch:
        n.layout.microBatch = value;
        break;
    case SweepAxis::Accumulation:
        n.layout.accumulation = value;
        break;
    case SweepAxis::Recompute:
        n.training.recompute = static_cast<Recompute>(value);
        break;
    case SweepAxis::ZeroStage:
        n.training.zeroStage = value;
        break;
    case SweepAxis::ShardGroup:
        if (!current)
            n.training.zeroShardDegree = value >= s.layout.dp ? 0 : value;
        break;
    case SweepAxis::Ep:
        n.layout.ep = value;
        break;
    case SweepAxis::Vpp:
        n.layout.vpp = value;
        break;
    }
    return n;
}

// Whether a change of `axis` moves the global batch, which holding it then rebalances.
bool changesBatch(SweepAxis axis) {
    return axis != SweepAxis::Recompute && axis != SweepAxis::ZeroStage && axis != SweepAxis::ShardGroup &&
           axis != SweepAxis::Accumulation;
}

std::string pointLabel(const Scenario& s, SweepAxis axis, int value) {
    if (axis == SweepAxis::Recompute)
        return std::string(toString(static_cast<Recompute>(value)));
    if (axis == SweepAxis::ShardGroup && value == s.layout.dp)
        return std::to_string(value) + " (all)";
    return std::to_string(value);
}

// The first error of an invalid plan, in words.
std::string firstError(const Plan& plan) {
    for (const Diagnostic& d : plan.diagnostics)
        if (d.severity == Severity::Error)
            return diagnosticMessage(d);
    return {};
}

SweepPoint evaluatePoint(const Scenario& s, const HardwareProfile& profile, SweepAxis axis, int value,
                         const SweepOptions& options) {
    SweepPoint p;
    p.value = value;
    p.current = value == currentValue(s, axis);
    p.label = pointLabel(s, axis, value);
    p.scenario = withAxisValue(s, axis, value, p.current, options.rules);
    Layout& l = p.scenario.layout;
    const long long batch = s.layout.effectiveBatch();
    bool batchSplits = true;
    if (options.holdGlobalBatch && changesBatch(axis) && !p.current)
        batchSplits = holdGlobalBatch(l, batch);
    p.plan = evaluate(p.scenario, profile);
    p.valid = p.plan.valid && batchSplits;
    p.fits = p.valid && p.plan.memory.fits;
    if (!batchSplits)
        p.reason = "the global batch of " + fmt::fixed(static_cast<double>(batch), 0) +
                   " does not split into micro batch " + std::to_string(l.microBatch) + " × DP " +
                   std::to_string(l.dp);
    else if (!p.plan.valid)
        p.reason = firstError(p.plan);
    return p;
}

std::string percentText(double fraction, const FigureFormat& f) {
    return f.percent(fraction, 1);
}

// A difference of two fractions in percentage points, signed: "+2.9", "−0.4".
std::string pointsText(double deltaFraction, const FigureFormat& f) {
    const double d = deltaFraction * 100;
    return (d >= 0 ? "+" : "−") + f.number(std::fabs(d), 1);
}

std::string fromTo(const std::string& from, const std::string& to) {
    return from + " → " + to;
}

// Why the axis has nothing to vary, where that is so.
std::string nothingToVary(SweepAxis axis, const std::vector<SweepPoint>& points, const SweepPoint& current) {
    if (points.size() == 1 && axis == SweepAxis::Ep)
        return "EP splits the experts of a mixture-of-experts model; this model is dense.";
    if (points.size() == 1 && axis == SweepAxis::Vpp)
        return "Virtual stages interleave a pipeline: with PP " + std::to_string(current.scenario.layout.pp) +
               " there is none to interleave.";
    return {};
}

// The caption where the current value is already the best that fits.
std::string alreadyBestCaption(SweepAxis axis, const SweepHighlights& h, const FigureFormat& f) {
    const std::string name(sweepAxisName(axis));
    const SweepPoint& cur = *h.current;
    if (!h.runnerUp)
        return name + " " + cur.label + " is the only value that fits with the other axes held.";
    const SweepPoint& next = *h.runnerUp;
    return name + " " + cur.label + " is already the best value with the other axes held. Next best: " +
           sweepChangeText(axis, cur, next, f) + ", MFU " + percentText(next.plan.mfu, f) + " (" +
           pointsText(next.plan.mfu - cur.plan.mfu, f) + " points), worst stage " +
           f.bytes(next.plan.memory.worstTotalBytes()) + ".";
}

} // namespace

std::string_view sweepAxisName(SweepAxis axis) {
    switch (axis) {
    case SweepAxis::Tp:
        return "TP";
    case SweepAxis::Pp:
        return "PP";
    case SweepAxis::Dp:
        return "DP";
    case SweepAxis::MicroBatch:
        return "micro batch";
    case SweepAxis::Accumulation:
        return "accumulation";
    case SweepAxis::Recompute:
        return "recompute";
    case SweepAxis::ZeroStage:
        return "ZeRO stage";
    case SweepAxis::ShardGroup:
        return "ZeRO shard group";
    case SweepAxis::Cp:
        return "CP";
    case SweepAxis::Ep:
        return "EP";
    case SweepAxis::Vpp:
        return "virtual stages";
    }
    return {};
}

std::vector<SweepPoint> sweep(const Scenario& s, const HardwareProfile& profile, SweepAxis axis,
                              const SweepOptions& options) {
    std::vector<SweepPoint> points;
    for (int value : candidateValues(s, axis, options.holdGlobalBatch))
        points.push_back(evaluatePoint(s, profile, axis, value, options));
    return points;
}

SweepHighlights sweepHighlights(const std::vector<SweepPoint>& points) {
    SweepHighlights h;
    for (const SweepPoint& p : points) {
        if (p.current)
            h.current = &p;
        if (p.fits && (!h.best || p.plan.mfu > h.best->plan.mfu))
            h.best = &p;
        if (p.fits && !p.current && (!h.runnerUp || p.plan.mfu > h.runnerUp->plan.mfu))
            h.runnerUp = &p;
    }
    return h;
}

std::string sweepChangeText(SweepAxis axis, const SweepPoint& from, const SweepPoint& to,
                            const FigureFormat& f) {
    std::string text = std::string(sweepAxisName(axis)) + " " + fromTo(from.label, to.label);
    const Layout& a = from.scenario.layout;
    const Layout& b = to.scenario.layout;
    std::vector<std::string> also;
    if (axis != SweepAxis::Dp && a.dp != b.dp)
        also.push_back("DP " + fromTo(std::to_string(a.dp), std::to_string(b.dp)));
    if (axis != SweepAxis::Accumulation && a.accumulation != b.accumulation)
        also.push_back("accumulation " +
                       fromTo(std::to_string(a.accumulation), std::to_string(b.accumulation)));
    if (a.gpus() != b.gpus())
        also.push_back(fromTo(f.count(a.gpus()), f.count(b.gpus())) + " GPUs");
    if (a.effectiveBatch() != b.effectiveBatch())
        also.push_back("global batch " + fromTo(f.count(a.effectiveBatch()), f.count(b.effectiveBatch())));
    for (std::size_t i = 0; i < also.size(); ++i)
        text += (i == 0 ? " (" : ", ") + also[i] + (i + 1 == also.size() ? ")" : "");
    return text;
}

std::string sweepPointText(SweepAxis axis, const SweepPoint& p, const FigureFormat& f) {
    const Layout& l = p.scenario.layout;
    std::string text = std::string(sweepAxisName(axis)) + " = " + p.label + (p.current ? " (current)" : "");
    text += "\nTP " + std::to_string(l.tp) + " · PP " + std::to_string(l.pp) + " · DP " +
            std::to_string(l.dp) + " · mb " + std::to_string(l.microBatch) + " × " +
            std::to_string(l.accumulation) + " = " + f.count(l.effectiveBatch());
    if (!p.valid)
        return text + "\nInvalid: " + p.reason;
    text += "\nMFU " + percentText(p.plan.mfu, f) + " · " + f.seconds(p.plan.time.stepSeconds) +
            " · worst stage " + f.bytes(p.plan.memory.worstTotalBytes()) + " of " +
            f.bytes(p.plan.memory.capacityBytes);
    if (!p.fits)
        text += "\nDoes not fit.";
    return text;
}

std::string sweepCaption(SweepAxis axis, const std::vector<SweepPoint>& points, const FigureFormat& f) {
    const SweepHighlights h = sweepHighlights(points);
    if (!h.current)
        return {};
    const SweepPoint& cur = *h.current;
    if (std::string why = nothingToVary(axis, points, cur); !why.empty())
        return why;
    if (!h.best)
        return "No value of " + std::string(sweepAxisName(axis)) + " fits with the other axes held.";
    const SweepPoint& best = *h.best;
    const std::string capacity = f.bytes(best.plan.memory.capacityBytes);
    if (!cur.fits)
        return std::string("The current layout ") + (cur.valid ? "does not fit" : "is invalid") +
               ". Changing " + sweepChangeText(axis, cur, best, f) + " makes it fit: MFU " +
               percentText(best.plan.mfu, f) + ", worst stage " +
               f.bytes(best.plan.memory.worstTotalBytes()) + " of " + capacity + ".";
    if (&best == &cur || best.plan.mfu <= cur.plan.mfu + 1e-9)
        return alreadyBestCaption(axis, h, f);
    return "Best change: " + sweepChangeText(axis, cur, best, f) + " raises MFU from " +
           percentText(cur.plan.mfu, f) + " to " + percentText(best.plan.mfu, f) + " (" +
           pointsText(best.plan.mfu - cur.plan.mfu, f) + " points, step " +
           fromTo(f.seconds(cur.plan.time.stepSeconds), f.seconds(best.plan.time.stepSeconds)) +
           "); the worst stage needs " + f.bytes(best.plan.memory.worstTotalBytes()) + " instead of " +
           f.bytes(cur.plan.memory.worstTotalBytes()) + " (of " + capacity + ").";
}

namespace {
// Fewer GPUs always raise MFU a little (less to synchronize, more micro batches per pipeline): a change
// that leaves part of the stated cluster idle is no answer to how to run on it.
bool keepsTheGpus(const Scenario& s, const SweepPoint& p) {
    return p.scenario.layout.gpus() == s.layout.gpus();
}
} // namespace

std::optional<SingleChange> bestSingleChange(const Scenario& s, const HardwareProfile& profile,
                                             const SweepOptions& options) {
    const Plan now = evaluate(s, profile);
    double bestMfu = now.valid && now.memory.fits ? now.mfu : -1;
    std::optional<SingleChange> best;
    for (int a = 0; a < kSweepAxisCount; ++a) {
        const auto axis = static_cast<SweepAxis>(a);
        if (axis == SweepAxis::Accumulation && options.holdGlobalBatch)
            continue;
        const std::vector<SweepPoint> points = sweep(s, profile, axis, options);
        const auto from =
            std::find_if(points.begin(), points.end(), [](const SweepPoint& p) { return p.current; });
        if (from == points.end())
            continue;
        for (const SweepPoint& p : points) {
            if (!p.fits || p.current || p.plan.mfu <= bestMfu + 1e-9 || !keepsTheGpus(s, p))
                continue;
            bestMfu = p.plan.mfu;
            best = SingleChange{axis, *from, p};
        }
    }
    return best;
}

std::string bestSingleChangeCaption(const Plan& now, const std::optional<SingleChange>& best,
                                    const SweepOptions& options, const FigureFormat& f) {
    if (!now.valid)
        return "The current layout is invalid: fix it in the planner first.";
    const bool nowFits = now.memory.fits;
    std::string text;
    if (!best)
        text = nowFits ? "Over all axes: no single change raises MFU; this layout is the best of its "
                         "one-at-a-time neighbours (changing several axes at once may still help)."
                       : "Over all axes: no single change makes this layout fit.";
    else if (nowFits)
        text = "Over all axes, the best single change is " +
               sweepChangeText(best->axis, best->from, best->to, f) + ": MFU " +
               fromTo(percentText(now.mfu, f), percentText(best->to.plan.mfu, f)) + " (" +
               pointsText(best->to.plan.mfu - now.mfu, f) + " points).";
    else
        text = "Over all axes, the best single change that makes the layout fit is " +
               sweepChangeText(best->axis, best->from, best->to, f) + ": MFU " +
               percentText(best->to.plan.mfu, f) + ".";
    text += " DP is left out: it changes the number of GPUs.";
    if (options.holdGlobalBatch)
        text += " Accumulation is left out while the global batch is held.";
    return text;
}

} // namespace lp::core
