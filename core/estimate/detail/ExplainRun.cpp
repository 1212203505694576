#include "core/estimate/detail/ExplainRun.h"

namespace lp::core::detail {
namespace {

constexpr const char* kHoffmannPaper = "Hoffmann et al. 2022, Training Compute-Optimal Large Language Models";
constexpr const char* kLlama3Paper =
    "Dubey et al. 2024, The Llama 3 Herd of Models (419 interruptions in 54 days on 16,384 H100)";
constexpr const char* kYoungPaper =
    "Young 1974, A first order approximation to the optimum checkpoint interval; Daly 2006";

// How the rule gives the tokens, with the values substituted.
std::string tokensWorking(const Scenario& s, const Plan& p, const RunPlan& r) {
    const RunOptions& o = s.run;
    const std::string n = count(r.scalingParameters);
    switch (r.tokenRule) {
    case TokenRule::Tokens:
        return count(r.tokens) + " tokens, as stated";
    case TokenRule::ComputeOptimal:
        return lp::format("20 x {} = {} tokens", n, count(r.tokens));
    case TokenRule::TokensPerParameter:
        return lp::format("{:g} x {} = {} tokens", o.tokensPerParameter, n, count(r.tokens));
    case TokenRule::Compute:
        return lp::format("{:.3g} FLOPs / (6 x {}) = {} tokens", o.computeBudgetFlops, n, count(r.tokens));
    case TokenRule::Days:
        return lp::format("{:g} days x 86,400 x goodput {:.3f} x {} tokens/s = {} tokens", o.daysBudget,
                          r.goodput, count(p.tokensPerSecond), count(r.tokens));
    case TokenRule::Money:
        return lp::format("${:g} / ${:.2f} per GPU-hour, x goodput {:.3f}, at this throughput = {} tokens",
                          o.moneyBudgetUsd, r.pricePerGpuHourUsd, r.goodput, count(r.tokens));
    }
    return {};
}

void explainRunLength(ExplanationList& list) {
    const Scenario& s = list.scenario;
    const RunPlan& r = list.plan.run;
    list.add(
        "run.tokens", "Tokens to train", r.tokens, "tokens",
        "token rule: " + std::string(toString(r.tokenRule)), tokensWorking(s, list.plan, r), kHoffmannPaper,
        lp::format("{:.0f} tokens per parameter; compute-optimal (Chinchilla) is about 20. For this compute "
                   "({:.3g} FLOPs = 6 N D) the compute-optimal model has {} parameters and {} tokens.",
                   r.tokensPerParameter, r.computeFlops, count(r.computeOptimal.parameters),
                   count(r.computeOptimal.tokens)));
    const ScalingFit& fit = scalingFit(r.lossFit);
    list.add("run.predicted_loss", "Predicted loss", r.predictedLoss, "nats/token",
             "L(N, D) = E + A / N^alpha + B / D^beta",
             lp::format("{:g} + {:g} / {}^{:g} + {:g} / {}^{:g} = {:.3f}", fit.e, fit.a,
                        count(r.scalingParameters), fit.alpha, fit.b, count(r.tokens), fit.beta,
                        r.predictedLoss),
             fit.source,
             "The loss a published fit predicts for this model size and these tokens, on the fit's own data "
             "(MassiveText): another data set or tokenizer shifts the curve, so compare runs, not absolute "
             "values. Mixtures of experts use their active parameters, where dense scaling laws hold only "
             "roughly.");
}

void explainGoodput(ExplanationList& list) {
    const Scenario& s = list.scenario;
    const RunPlan& r = list.plan.run;
    list.add("run.checkpoint_bytes", "Checkpoint size", r.checkpointBytes, "bytes",
             "parameters x (training state bytes per parameter - 2 bytes of gradients)",
             lp::format("{} x {:g} bytes = {}", count(list.plan.params.total),
                        list.plan.intermediates.bytesPerParamState - 2.0, list.bytes(r.checkpointBytes)),
             kEstimationDoc,
             "The 16-bit weights and the optimizer state; every node writes its shard at once.");
    list.add("run.checkpoint_write", "Checkpoint write time", r.checkpointWriteSeconds, "s",
             "checkpoint bytes / (nodes x write bandwidth per node)",
             lp::format("{} / ({:.0f} x {} GB/s) = {}", list.bytes(r.checkpointBytes), r.nodes,
                        fmt::fixed(s.run.checkpointBandwidth / 1e9, 1), secs(r.checkpointWriteSeconds)),
             kEstimationDoc,
             s.run.asyncCheckpoint
                 ? "Written in the background (async_checkpoint): it must end before the next "
                   "checkpoint, and until it ends a failure falls back to the previous one."
                 : "Training waits while a synchronous checkpoint is written.");
    if (s.run.asyncCheckpoint)
        list.add(
            "run.checkpoint_stall", "Checkpoint pause", r.checkpointStallSeconds, "s",
            "weights and optimizer state one GPU holds / its host link bandwidth",
            lp::format("{} / host link = {}", list.bytes(r.checkpointHostBytesPerGpu),
                       secs(r.checkpointStallSeconds)),
            kEstimationDoc,
            "Asynchronous checkpoints (torch.distributed.checkpoint async_save, Megatron-LM --async-save) "
            "pause training only while each GPU copies its state to pinned host memory.");
    list.add("run.interruptions_per_day", "Interruptions per day", r.interruptionsPerDay, "per day",
             "failure rate per GPU-hour x GPUs x 24",
             lp::format("{:.3g} x {} x 24 = {:.2f} a day, {:.0f} over the run", s.run.gpuFailuresPerHour,
                        s.layout.gpus(), r.interruptionsPerDay, r.interruptions),
             kLlama3Paper,
             "Unexpected interruptions of the whole job: any failing GPU, host or link stops it.");
    list.add(
        "run.checkpoint_interval", "Checkpoint interval", r.checkpointIntervalSeconds, "s",
        "sqrt(2 d M) x (1 + sqrt(d / 2M) / 3 + d / 18M) - d, d the pause per checkpoint, M the MTBF (Daly)",
        lp::format("d = {}, M = {} s: {} s{}", secs(r.checkpointStallSeconds), fmt::fixed(r.mtbfSeconds, 0),
                   count(r.checkpointIntervalSeconds),
                   s.run.asyncCheckpoint
                       ? ", at least the background write's " + secs(r.checkpointWriteSeconds)
                       : std::string()),
        kYoungPaper,
        "The interval that loses the least time: shorter spends more on writing, longer redoes more work "
        "after each failure.");
    list.add(
        "run.goodput", "Goodput", r.goodput, "fraction",
        "(1 - failures per second x lost per failure) / (1 + pause / interval)",
        lp::format("(1 - {:.3g} x {} s) / (1 + {:.1f} / {}) = {:.3f}", r.jobFailuresPerSecond,
                   count(r.lostPerFailureSeconds), r.checkpointStallSeconds,
                   count(r.checkpointIntervalSeconds), r.goodput),
        kYoungPaper,
        "The share of wall-clock time that trains: each failure loses half an interval of work on average "
        "and the restart (and, asynchronous, the background write), and every checkpoint its pause.");
    list.add("run.wall_clock_days", "Wall-clock days", r.wallClockSeconds / 86400.0, "days",
             "ideal days / goodput",
             lp::format("{:.1f} / {:.3f} = {:.1f} days", r.idealSeconds / 86400.0, r.goodput,
                        r.wallClockSeconds / 86400.0),
             "definition", "How long the run really takes once GPUs fail and checkpoints are written.");
}

void explainCost(ExplanationList& list) {
    const Scenario& s = list.scenario;
    const RunPlan& r = list.plan.run;
    list.add("run.gpu_hours", "GPU-hours billed", r.gpuHours, "GPU-hours", "GPUs x wall-clock hours",
             lp::format("{} x {} h = {} GPU-hours", s.layout.gpus(), count(r.wallClockSeconds / 3600.0),
                        count(r.gpuHours)),
             "definition", "The GPUs are held, and paid for, for the whole wall clock, lost time included.");
    list.add("run.cost", "Cost", r.costUsd, "USD", "GPU-hours x price per GPU-hour",
             lp::format("{} x ${:.2f} = ${}", count(r.gpuHours), r.pricePerGpuHourUsd, count(r.costUsd)),
             r.priceSource.empty() ? std::string("no price: set one in the run settings")
                                   : std::string(r.priceSource),
             "Public on-demand prices; committed-use and reserved prices are often far lower.");
    list.add(
        "run.cost_per_million_tokens", "Cost per million tokens", r.costPerMillionTokensUsd, "USD",
        "cost / tokens x 1e6",
        lp::format("${} / {} x 1e6 = ${:.3f}", count(r.costUsd), count(r.tokens), r.costPerMillionTokensUsd),
        "definition", "What one million training tokens cost on this layout.");
    list.add("run.energy", "Energy", r.energyMwh, "MWh",
             "GPU-hours x board power x (1 + node overhead) x PUE",
             lp::format("{} x {:.0f} W x {:.2f} x {:.2f} = {:.1f} MWh", count(r.gpuHours), r.boardPowerWatts,
                        1.0 + s.run.nodeOverheadFraction, s.run.pue, r.energyMwh),
             r.powerSource.empty() ? std::string("no board power: set one in the run settings")
                                   : std::string(r.powerSource),
             "Electricity drawn by the GPUs, their hosts and the data centre's cooling, at full board power: "
             "an upper bound.");
}

} // namespace

void explainRun(ExplanationList& list) {
    explainRunLength(list);
    explainGoodput(list);
    explainCost(list);
}

} // namespace lp::core::detail
