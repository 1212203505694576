// Plans validation cases and compares the predictions with the measured values: the settings a case leaves
// open are searched (resolveCase), then every measured figure gets its predicted value, error and summary.
#include "core/measured/ValidationRun.h"

#include "core/estimate/Evaluate.h"
#include "core/measured/Validation.h"
#include "core/measured/detail/CasePlanning.h"
#include "core/model/Units.h"
#include "core/util/Statistics.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>
#include <utility>

namespace lp::core {

using detail::megatronCoreRecipeApplies;
using detail::perReplicaUnits;

bool isThroughputMetric(const std::string& metric) {
    return metric != "peak_memory_gib";
}

double speedError(const ValidationRow& row) {
    if (row.metric == "iteration_time_s")
        return row.predicted > 0 ? row.measured / row.predicted - 1.0 : -1.0;
    return row.relativeError;
}

std::optional<double> predictedMetric(const std::string& metric, const Plan& plan) {
    if (metric == "iteration_time_s")
        return plan.time.stepSeconds;
    if (metric == "model_tflops_per_gpu")
        return plan.modelTflopsPerGpu;
    if (metric == "hardware_tflops_per_gpu")
        return plan.hardwareTflopsPerGpu;
    if (metric == "mfu")
        return plan.mfu;
    if (metric == "hfu")
        return plan.hfu;
    if (metric == "tokens_per_s_per_gpu")
        return plan.tokensPerSecondPerGpu;
    if (metric == "peak_memory_gib") {
        if (plan.memory.stages.empty())
            return std::nullopt;
        return plan.memory.stages[static_cast<std::size_t>(plan.memory.worstStage)].totalBytes / kGiB;
    }
    return std::nullopt;
}

Scenario resolveCase(const ValidationCase& c, const HardwareProfile* profile) {
    Scenario s = c.scenario;
    if (c.microBatchGiven && c.recomputeGiven && c.vppGiven)
        return s;
    // Not stated: the fastest micro batch (a divisor of the per-replica batch) and recomputation that fit.
    const long long perReplica = c.microBatchGiven ? 0 : perReplicaUnits(c.globalBatch, s.layout.dp);
    std::vector<long long> microBatches;
    for (long long mb = 1; mb <= perReplica; ++mb)
        if (perReplica % mb == 0)
            microBatches.push_back(mb);
    if (c.microBatchGiven)
        microBatches.push_back(s.layout.microBatch);
    // Recomputation: as stated, or none, selective, full of every layer and full of the first N layers of
    // each model chunk (Megatron's block method), N from 1 to one less than the chunk's layers.
    std::vector<std::pair<Recompute, int>> recomputes{{s.training.recompute, s.training.recomputeLayers}};
    if (!c.recomputeGiven)
        recomputes = {{Recompute::None, 0}, {Recompute::Selective, 0}, {Recompute::Full, 0}};
    // Interleavings: 1 to one layer per chunk (uneven stages allowed where the planner's split allows them).
    std::vector<int> vpps{s.layout.vpp};
    if (!c.vppGiven) {
        vpps.clear();
        const int pp = std::max(1, s.layout.pp);
        const int most = std::clamp((s.model.layers + pp - 1) / pp, 1, 64);
        for (int v = 1; v <= most; ++v)
            vpps.push_back(v);
    }
    const bool recipe = megatronCoreRecipeApplies(s);
    Scenario best = s;
    double bestTime = -1;
    bool bestFits = false;
    for (const int vpp : vpps) {
        auto options = recomputes;
        if (!c.recomputeGiven) {
            const int perChunk = (s.model.layers + s.layout.pp * vpp - 1) / std::max(1, s.layout.pp * vpp);
            for (int n = 1; n < std::min(perChunk, 64); ++n)
                options.emplace_back(Recompute::Full, n);
        }
        for (const auto& [recompute, recomputeLayers] : options)
            for (const long long mb : microBatches) {
                Scenario t = s;
                t.training.recompute = recompute;
                t.training.recomputeLayers = recomputeLayers;
                if (!c.vppGiven) {
                    t.layout.vpp = vpp;
                    if (recipe) // the recipes' interleaved-schedule p2p overlap (inferMegatronCoreRecipe)
                        t.training.overlapPpComm = t.layout.pp > 1 && vpp > 1;
                }
                if (!c.microBatchGiven) {
                    t.layout.microBatch = static_cast<int>(mb);
                    t.layout.accumulation = static_cast<int>(perReplica / mb);
                }
                const Plan p = profile ? evaluate(t, *profile) : evaluate(t);
                if (!p.valid)
                    continue;
                // The case ran, so it fitted: a guessed setting counts as fitting unless the plan overflows
                // by more than the memory model's documented accuracy (kFitTolerance).
                const bool fits = p.memory.headroomBytes >= -kFitTolerance * p.memory.capacityBytes;
                const bool better = bestTime < 0 || (fits && !bestFits) ||
                                    (fits == bestFits && p.time.stepSeconds < bestTime);
                if (better) {
                    best = t;
                    bestTime = p.time.stepSeconds;
                    bestFits = fits;
                }
            }
    }
    return best;
}

int beyondFitTolerance(const ValidationReport& report) {
    return static_cast<int>(
        std::count_if(report.overCapacity.begin(), report.overCapacity.end(),
                      [](const OverCapacity& o) { return o.usedFraction > 1.0 + kFitTolerance; }));
}

std::string memoryFitSentence(const ValidationReport& report) {
    const int n = report.plannedCases;
    const auto over = static_cast<int>(report.overCapacity.size());
    if (over == 0)
        return "All " + std::to_string(n) + " planned runs fit their GPUs' memory.";
    const int beyond = beyondFitTolerance(report);
    return std::to_string(over) + " of " + std::to_string(n) +
           " runs, which ran, plan over their GPUs' memory; " +
           (beyond == 0 ? std::string("none") : std::to_string(beyond)) +
           " by more than the memory model's " +
           std::to_string(static_cast<int>(std::lround(100 * kFitTolerance))) + "%.";
}

ValidationReport runValidation(const std::vector<ValidationCase>& cases, const HardwareProfile* given) {
    ValidationReport report;
    std::map<std::string, std::vector<double>> errs;
    struct GroupErrors {
        std::vector<double> abs;
        std::vector<double> speed;
    };
    std::map<std::tuple<std::string, std::string, std::string>, GroupErrors> groups;
    for (const ValidationCase& c : cases) {
        // A profile describes one GPU type: cases on other GPUs keep their built-in profiles.
        const HardwareProfile* profile =
            given && (given->gpuId.empty() || given->gpuId == c.scenario.cluster.gpu.id) ? given : nullptr;
        const Scenario s = resolveCase(c, profile);
        const Plan plan = profile ? evaluate(s, *profile) : evaluate(s);
        if (plan.valid) {
            ++report.plannedCases;
            if (plan.memory.headroomBytes < 0 && plan.memory.capacityBytes > 0)
                report.overCapacity.push_back(
                    {c.id, 1.0 - plan.memory.headroomBytes / plan.memory.capacityBytes});
        }
        for (const MeasuredValue& mv : c.measured) {
            const auto pred = predictedMetric(mv.metric, plan);
            ValidationRow row;
            row.caseId = c.id;
            row.metric = mv.metric;
            row.measured = mv.value;
            row.predicted = plan.valid && pred ? *pred : 0.0;
            if (!plan.valid)
                for (const Diagnostic& d : plan.diagnostics)
                    if (d.severity == Severity::Error) {
                        row.invalidReason = std::string(diagnosticIdString(d.id));
                        break;
                    }
            row.relativeError = (row.predicted - row.measured) / row.measured;
            row.microBatch = s.layout.microBatch;
            row.adjustments = c.adjustments;
            report.rows.push_back(row);
            errs[mv.metric].push_back(std::fabs(row.relativeError));
            if (isThroughputMetric(mv.metric)) {
                errs["throughput"].push_back(std::fabs(row.relativeError));
                GroupErrors& g = groups[{s.cluster.gpu.id, std::string(toString(resolvedStyle(s.training))),
                                         std::string(toString(s.training.precision))}];
                g.abs.push_back(std::fabs(row.relativeError));
                g.speed.push_back(speedError(row));
            }
        }
    }
    for (const auto& [key, g] : groups) {
        GroupSummary gs;
        std::tie(gs.gpu, gs.style, gs.precision) = key;
        gs.count = static_cast<int>(g.abs.size());
        gs.medianAbsError = median(g.abs, 0.0);
        gs.medianSpeedError = median(g.speed, 0.0);
        gs.beyond20 =
            static_cast<int>(std::count_if(g.abs.begin(), g.abs.end(), [](double e) { return e > 0.20; }));
        report.groups.push_back(gs);
    }
    std::stable_sort(report.groups.begin(), report.groups.end(),
                     [](const GroupSummary& a, const GroupSummary& b) { return a.count > b.count; });
    for (auto& [metric, v] : errs) {
        std::sort(v.begin(), v.end());
        MetricSummary ms;
        ms.metric = metric;
        ms.count = static_cast<int>(v.size());
        ms.medianAbsError = median(v, 0.0);
        ms.maxAbsError = v.back();
        report.summary.push_back(ms);
    }
    return report;
}

} // namespace lp::core
