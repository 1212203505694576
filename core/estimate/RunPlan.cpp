// Run length from scaling laws, cost, energy and goodput (docs/estimation.md, "Run length, cost and
// goodput").
#include "core/estimate/RunPlan.h"

#include "core/estimate/Plan.h"
#include "core/estimate/detail/EvalContext.h"
#include "core/io/Presets.h"
#include "core/model/Scenario.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace lp::core {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
constexpr double kSecondsPerDay = 86400;

constexpr ScalingFit kHoffmann{
    1.69, 406.4, 410.7,
    0.34, 0.28,  "Hoffmann et al. 2022, Training Compute-Optimal Large Language Models (approach 3)"};
constexpr ScalingFit kBesiroglu{1.8172,  482.01,
                                2085.43, 0.3478,
                                0.3658,  "Besiroglu et al. 2024, Chinchilla Scaling: A replication attempt"};

struct Price {
    double usd = 0;
    std::string_view source; // a literal or a built-in preset's
};

// The scenario's price, else its cluster preset's (a cloud instance), else its GPU preset's.
Price pricePerGpuHour(const Scenario& s) {
    if (s.run.pricePerGpuHourUsd > 0)
        return {s.run.pricePerGpuHourUsd, "the scenario"};
    if (const ClusterPreset* c = matchingClusterPreset(s.cluster); c && c->pricePerGpuHourUsd > 0)
        return {c->pricePerGpuHourUsd, c->priceSource};
    if (const GpuPreset* g = findGpuPreset(s.cluster.gpu.id); g && g->pricePerGpuHourUsd > 0)
        return {g->pricePerGpuHourUsd, g->priceSource};
    return {};
}

void boardPower(const Scenario& s, RunPlan& r) {
    if (s.run.boardPowerWatts > 0) {
        r.boardPowerWatts = s.run.boardPowerWatts;
        r.powerSource = "the scenario";
    } else if (const GpuPreset* g = findGpuPreset(s.cluster.gpu.id)) {
        r.boardPowerWatts = g->boardPowerWatts;
        r.powerSource = g->powerSource;
    }
}

// Checkpoints and failures: the interval, what each failure loses, and goodput, which do not depend on the
// run's length.
void planGoodput(const Scenario& s, const Plan& p, RunPlan& r) {
    const double gpus = static_cast<double>(s.layout.gpus());
    r.nodes = std::ceil(gpus / std::max(1, s.cluster.gpusPerNode));
    // A checkpoint holds the 16-bit weights and the optimizer state, not the gradients.
    r.checkpointBytes = p.params.total * (p.intermediates.bytesPerParamState - 2.0);
    r.checkpointWriteSeconds = r.checkpointBytes / (r.nodes * s.run.checkpointBandwidth);
    r.checkpointStallSeconds = r.checkpointWriteSeconds;
    if (s.run.asyncCheckpoint && !p.memory.stages.empty()) {
        // Each GPU stages what it holds of the weights and optimizer state over its host link.
        const StageMemory& held = p.memory.stages[static_cast<std::size_t>(p.memory.worstStage)];
        r.checkpointHostBytesPerGpu = held.weightsBytes + held.optimizerBytes;
        r.checkpointStallSeconds = std::min(
            r.checkpointWriteSeconds,
            r.checkpointHostBytesPerGpu / (s.cluster.gpu.hostLinkBandwidth * detail::kHostLinkEfficiency));
    }
    r.jobFailuresPerSecond = s.run.gpuFailuresPerHour * gpus / 3600.0;
    r.interruptionsPerDay = r.jobFailuresPerSecond * kSecondsPerDay;
    if (!(r.jobFailuresPerSecond > 0)) {
        r.mtbfSeconds = r.checkpointIntervalSeconds = kInfinity;
        r.goodput = 1;
        return;
    }
    r.mtbfSeconds = 1.0 / r.jobFailuresPerSecond;
    r.checkpointIntervalSeconds = youngDalyInterval(r.checkpointStallSeconds, r.mtbfSeconds);
    r.lostPerFailureSeconds = r.checkpointIntervalSeconds / 2.0 + s.run.restartSeconds;
    if (s.run.asyncCheckpoint) {
        // A background write must end before the next checkpoint starts, and until it ends the previous
        // checkpoint is the last one on storage: a failure then loses the write's time as well.
        r.checkpointIntervalSeconds = std::max(r.checkpointIntervalSeconds, r.checkpointWriteSeconds);
        r.lostPerFailureSeconds =
            r.checkpointIntervalSeconds / 2.0 + r.checkpointWriteSeconds + s.run.restartSeconds;
    }
    r.checkpointOverhead =
        r.checkpointIntervalSeconds > 0 ? r.checkpointStallSeconds / r.checkpointIntervalSeconds : 0;
    // Wall clock W = ideal x (1 + overhead) + W x failure rate x lost per failure.
    const double progress = 1.0 - r.jobFailuresPerSecond * r.lostPerFailureSeconds;
    r.goodput = progress > 0 ? progress / (1.0 + r.checkpointOverhead) : 0;
}

// The tokens the rule gives (the goodput and the price known).
double ruleTokens(const Scenario& s, const Plan& p, const RunPlan& r) {
    const RunOptions& o = s.run;
    const double n = r.scalingParameters;
    switch (o.tokenRule) {
    case TokenRule::Tokens:
        return s.training.tokenBudget;
    case TokenRule::ComputeOptimal:
        return kComputeOptimalTokensPerParameter * n;
    case TokenRule::TokensPerParameter:
        return o.tokensPerParameter * n;
    case TokenRule::Compute:
        return n > 0 ? o.computeBudgetFlops / (6.0 * n) : 0;
    case TokenRule::Days:
        return o.daysBudget * kSecondsPerDay * r.goodput * p.tokensPerSecond;
    case TokenRule::Money: {
        const double gpus = static_cast<double>(s.layout.gpus());
        if (!(r.pricePerGpuHourUsd > 0) || !(gpus > 0))
            return 0;
        const double wallSeconds = o.moneyBudgetUsd / r.pricePerGpuHourUsd / gpus * 3600.0;
        return wallSeconds * r.goodput * p.tokensPerSecond;
    }
    }
    return 0;
}

} // namespace

const ScalingFit& scalingFit(LossFit fit) {
    return fit == LossFit::Besiroglu2024 ? kBesiroglu : kHoffmann;
}

double predictedLoss(const ScalingFit& fit, double parameters, double tokens) {
    if (!(parameters > 0) || !(tokens > 0))
        return kInfinity;
    // Every layout of one model and token budget has the same loss: a search or a slider drag asks for it
    // again with the same numbers, and each thread keeps its last answer (two powers saved per plan).
    struct Last {
        ScalingFit fit;
        double parameters = 0, tokens = 0, loss = 0;
    };
    thread_local Last last;
    if (parameters == last.parameters && tokens == last.tokens && fit.e == last.fit.e &&
        fit.a == last.fit.a && fit.b == last.fit.b && fit.alpha == last.fit.alpha &&
        fit.beta == last.fit.beta)
        return last.loss;
    const double loss = fit.e + fit.a / std::pow(parameters, fit.alpha) + fit.b / std::pow(tokens, fit.beta);
    last = {fit, parameters, tokens, loss};
    return loss;
}

ComputeOptimalPoint computeOptimalPoint(double computeFlops) {
    const double n = std::sqrt(std::max(0.0, computeFlops) / (6.0 * kComputeOptimalTokensPerParameter));
    return {n, kComputeOptimalTokensPerParameter * n};
}

double youngDalyInterval(double stallSeconds, double mtbfSeconds) {
    if (!(stallSeconds > 0))
        return 0;
    if (stallSeconds >= 2.0 * mtbfSeconds)
        return mtbfSeconds;
    const double ratio = stallSeconds / (2.0 * mtbfSeconds);
    return std::sqrt(2.0 * stallSeconds * mtbfSeconds) * (1.0 + std::sqrt(ratio) / 3.0 + ratio / 9.0) -
           stallSeconds;
}

RunPlan planRun(const Scenario& s, const Plan& p) {
    RunPlan r;
    r.tokenRule = s.run.tokenRule;
    r.lossFit = s.run.lossFit;
    r.scalingParameters = p.params.active;
    planGoodput(s, p, r);
    const Price price = pricePerGpuHour(s);
    r.pricePerGpuHourUsd = price.usd;
    r.priceSource = price.source;
    boardPower(s, r);

    r.tokens = ruleTokens(s, p, r);
    r.tokensPerParameter = r.scalingParameters > 0 ? r.tokens / r.scalingParameters : 0;
    r.computeFlops = 6.0 * r.scalingParameters * r.tokens;
    r.computeOptimal = computeOptimalPoint(r.computeFlops);
    r.predictedLoss = predictedLoss(scalingFit(r.lossFit), r.scalingParameters, r.tokens);

    const double gpus = static_cast<double>(s.layout.gpus());
    r.idealSeconds = r.tokens / p.tokensPerSecond;
    r.wallClockSeconds = r.goodput > 0 ? r.idealSeconds / r.goodput : kInfinity;
    r.interruptions = r.jobFailuresPerSecond * r.wallClockSeconds;
    r.gpuHours = gpus * r.wallClockSeconds / 3600.0;
    r.costUsd = r.gpuHours * r.pricePerGpuHourUsd;
    r.costPerMillionTokensUsd = r.tokens > 0 ? r.costUsd / r.tokens * 1e6 : 0;
    // GPU boards, their nodes' share (CPUs, memory, network, fans) and the data centre's (PUE).
    const double facilityWatts = r.boardPowerWatts * (1.0 + s.run.nodeOverheadFraction) * s.run.pue;
    r.energyMwh = r.gpuHours * facilityWatts / 1e6;
    return r;
}

void diagnoseRun(const Scenario& s, const RunPlan& run, std::vector<Diagnostic>& out) {
    if (run.checkpointOverhead > kLongCheckpointShare)
        out.push_back(makeDiagnostic(Severity::Warning, 0,
                                     diagnostic::LongCheckpointWrite{run.checkpointWriteSeconds,
                                                                     run.checkpointIntervalSeconds,
                                                                     run.checkpointOverhead}));
    if (run.goodput < kLowGoodput)
        out.push_back(makeDiagnostic(
            Severity::Warning, 0,
            diagnostic::LowGoodput{run.goodput, run.interruptionsPerDay, run.lostPerFailureSeconds}));
    const double days = run.wallClockSeconds / kSecondsPerDay;
    if (s.run.deadlineDays > 0 && days > s.run.deadlineDays)
        out.push_back(
            makeDiagnostic(Severity::Warning, 0, diagnostic::PastDeadline{days, s.run.deadlineDays}));
}

} // namespace lp::core
