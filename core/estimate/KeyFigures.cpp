#include "core/estimate/KeyFigures.h"

#include "core/estimate/Precision.h"
#include "core/model/Units.h"
#include "core/util/NumberFormat.h"

#include <cmath>

namespace lp::core {
namespace {

std::string wholeNumber(double v) {
    return fmt::fixed(v, 0);
}

// "32 micro batches", "1 micro batch".
std::string microBatches(double m) {
    return wholeNumber(m) + (m == 1 ? " micro batch" : " micro batches");
}

// A card whose figure's explanation has the card's id.
KeyFigure card(std::string id, std::string caption, std::string meaning, double value, std::string valueText,
               std::string detail) {
    std::string explainKey = id;
    return {std::move(id), std::move(explainKey), std::move(caption), std::move(meaning),
            value,         std::move(valueText),  std::move(detail)};
}

KeyFigure utilisationCard(const Plan& p) {
    return card("hfu", "HFU",
                "Hardware FLOPs utilization: like MFU, but also counting the FLOPs spent on recomputation.",
                p.hfu, fmt::percent(p.hfu), "incl. recompute FLOPs");
}

// The 6ND yardstick counts the parameters one token passes through: a mixture of experts' active ones.
KeyFigure yardstickCard(const Scenario& s, const Plan& p) {
    const bool moe = s.model.isMoe();
    return card("mfu_6nd", "MFU by 6ND",
                "The seed's yardstick: 6 x " + yardstickParameters(s.model) +
                    " x tokens per step, over the GPUs' peak FLOP/s for the step time.",
                p.mfu6nd, fmt::percent(p.mfu6nd),
                "N = " + fmt::count(p.params.active) + (moe ? " active" : ""));
}

KeyFigure modelRateCard(const Plan& p) {
    return card("model_tflops_per_gpu", "Model TFLOP/s per GPU",
                "Model FLOPs each GPU achieves per second, against its dense 16-bit peak.",
                p.modelTflopsPerGpu, fmt::fixed(p.modelTflopsPerGpu, 1) + " TFLOP/s",
                "of " + wholeNumber(p.intermediates.peakFlops / 1e12) + " peak");
}

KeyFigure stepTimeCard(const Plan& p) {
    return card("time.step", "Step time", "Time of one optimizer step (all micro batches of all replicas).",
                p.time.stepSeconds, fmt::duration(p.time.stepSeconds),
                microBatches(p.intermediates.microbatches));
}

KeyFigure throughputCard(const Plan& p) {
    return card("tokens_per_s", "Throughput", "Tokens trained per second by the whole cluster.",
                p.tokensPerSecond, fmt::count(p.tokensPerSecond) + " tokens/s",
                fmt::fixed(p.tokensPerSecondPerGpu, 1) + " per GPU");
}

KeyFigure batchCard(const Scenario& s, const Plan& p, const Plan* previous) {
    const Layout& l = s.layout;
    const auto batch = static_cast<double>(p.effectiveBatchSequences);
    const std::string change = previous ? batchChangeText(*previous, p) : std::string();
    return card("effective_batch", "Effective batch",
                "Sequences per optimizer step: micro batch x accumulation x DP.", batch,
                wholeNumber(l.microBatch) + " × " + wholeNumber(l.accumulation) + " × " + wholeNumber(l.dp) +
                    " = " + wholeNumber(batch),
                "mb × acc × DP" + (change.empty() ? "" : ", " + change) + "\n" +
                    wholeNumber(p.tokensPerStep) + " tokens per step");
}

// The whole model's state before sharding, and the share the worst GPU holds of it (TP, PP, EP and ZeRO
// split it; without any of them every GPU holds it all).
KeyFigure stateCard(const Plan& p, MemoryUnit unit) {
    const StageMemory* worst = p.memory.worst();
    const double perGpu = worst ? worst->weightsBytes + worst->gradientsBytes + worst->optimizerBytes : 0;
    return card(
        "training_state_bytes", "Training state",
        "Weights, gradients and optimizer state of the whole model before sharding (about 16 bytes per "
        "parameter with mixed-precision Adam); the second line is what the GPU that needs the most memory "
        "holds of it.",
        p.trainingStateBytes, bytesIn(p.trainingStateBytes, unit, 0),
        "whole, " + wholeNumber(p.intermediates.bytesPerParamState) +
            " B/param\nper GPU: " + bytesIn(perGpu, unit, 1));
}

KeyFigure trainingTimeCard(const Scenario& s, const Plan& p) {
    return card(
        "training_time", "Ideal time to train",
        "Wall-clock time to train on the token budget, ideal: computing only. The Run section adds the "
        "checkpoint writes and the time lost to failures.",
        p.trainingSeconds, fmt::wallClock(p.trainingSeconds),
        fmt::count(s.training.tokenBudget) + " tokens, " + gpuCountText(s.layout.gpus()));
}

KeyFigure gpuHoursCard(const Plan& p) {
    return card("gpu_hours", "Ideal GPU-hours",
                "GPU-hours for the token budget: GPUs x time to train, ideal (computing only). The Run "
                "section's billed GPU-hours add the checkpoint writes and the time lost to failures.",
                p.gpuHours, wholeNumber(p.gpuHours), "for the token budget");
}

// The scaling state is a few MB: GB or GiB with two decimals would show 0.00.
std::string smallBytes(double bytes, MemoryUnit unit) {
    const double mega = unit == MemoryUnit::GiB ? 1024.0 * 1024.0 : 1e6;
    if (bytes >= 1000.0 * mega)
        return bytesIn(bytes, unit, 2);
    return fmt::fixed(bytes / mega, bytes < 10.0 * mega ? 2 : 1) + (unit == MemoryUnit::GiB ? " MiB" : " MB");
}

} // namespace

std::string batchChangeText(const Plan& previous, const Plan& current) {
    if (previous.effectiveBatchSequences == current.effectiveBatchSequences)
        return {};
    return "was " + wholeNumber(static_cast<double>(previous.effectiveBatchSequences));
}

std::vector<KeyFigure> keyFigures(const Scenario& s, const Plan& p, MemoryUnit unit, const Plan* previous) {
    std::vector<KeyFigure> cards{utilisationCard(p), yardstickCard(s, p),    modelRateCard(p),
                                 stepTimeCard(p),    throughputCard(p),      batchCard(s, p, previous),
                                 stateCard(p, unit), trainingTimeCard(s, p), gpuHoursCard(p)};
    if (planDoesNotFit(p))
        for (KeyFigure& c : cards) {
            // The batch and the training state are the scenario's; the rates and times are what the layout
            // would reach if it fit.
            if (c.id == "effective_batch" || c.id == "training_state_bytes")
                continue;
            c.greyed = true;
            c.meaning +=
                " This layout does not fit in GPU memory: the figure is what it would reach if it did.";
        }
    return cards;
}

std::string mfuText(double mfu) {
    return fmt::percent(mfu);
}

std::string mfuBandText(double mfu) {
    if (mfu < kMfuAlarm)
        return "under 20%: something is wrong";
    if (mfu < kMfuWellTunedLow)
        return "20-35%: below well-tuned";
    if (mfu <= kMfuWellTunedHigh)
        return "35-55%: well-tuned pretraining";
    return "above 55%: check the assumptions";
}

std::string gpuCountText(long long gpus) {
    return wholeNumber(static_cast<double>(gpus)) + (gpus == 1 ? " GPU" : " GPUs");
}

bool planDoesNotFit(const Plan& p) {
    return p.valid && !p.memory.stages.empty() && !p.memory.fits;
}

MfuGaugeState mfuGaugeState(const Plan& p, MemoryUnit unit) {
    MfuGaugeState g;
    g.mfu = p.mfu;
    g.valueText = mfuText(p.mfu);
    if (planDoesNotFit(p)) {
        g.band = MfuBand::DoesNotFit;
        g.bandText = "does not fit: " + bytesIn(p.memory.worstTotalBytes(), unit, 1) + " per GPU of " +
                     bytesIn(p.memory.capacityBytes, unit, 1);
        return g;
    }
    g.band = p.mfu < kMfuAlarm            ? MfuBand::Alarm
             : p.mfu < kMfuWellTunedLow   ? MfuBand::BelowWellTuned
             : p.mfu <= kMfuWellTunedHigh ? MfuBand::WellTuned
                                          : MfuBand::AboveWellTuned;
    g.bandText = mfuBandText(p.mfu);
    return g;
}

std::string yardstickParameters(const ModelSpec& m) {
    return m.isMoe() ? "active parameters" : "parameters";
}

double bubbleShareOfStep(const TimeBreakdown& t) {
    return t.stepSeconds > 0 ? t.bubbleSeconds / t.stepSeconds : 0;
}

std::string bubbleText(const TimeBreakdown& t) {
    return fmt::percent(bubbleShareOfStep(t)) +
           " of the step; bubble / (m x slowest stage) = " + fmt::percent(t.bubbleFraction) +
           " of the bubble-free pipeline time";
}

PlanChangeText planChangeText(const Plan& before, const Plan& after) {
    const double points = 100.0 * (after.mfu - before.mfu);
    return {mfuText(before.mfu), mfuText(after.mfu),
            (points >= 0 ? "+" : "−") + fmt::fixed(std::fabs(points), 1),
            "Step time " + fmt::duration(before.time.stepSeconds) + " → " +
                fmt::duration(after.time.stepSeconds) + "; " + fmt::fixed(before.tokensPerSecondPerGpu, 1) +
                " → " + fmt::fixed(after.tokensPerSecondPerGpu, 1) + " tokens/s per GPU",
            points};
}

std::string explanationValueText(const Explanation& e, const std::vector<KeyFigure>& cards, MemoryUnit unit) {
    if (e.unit != "bytes" || !std::isfinite(e.value)) {
        for (const KeyFigure& card : cards)
            if (card.explainKey == e.key)
                return card.valueText;
        return fmt::withUnit(e.value, e.unit);
    }
    return bytesBoth(e.value, unit); // "48.74 GiB (52.34 GB)", "1.10 TB (1.00 TiB)"
}

std::vector<KeyFigure> fp8Figures(const Scenario& s, const Plan& p, MemoryUnit unit, bool stale) {
    const Fp8Habits habits = fp8Habits(s, resolvedStyle(s.training));
    if (!habits.active)
        return {};
    const Intermediates& x = p.intermediates;
    KeyFigure copies{"fp8_weight_copies",
                     "memory.weights",
                     "FP8 weight copies",
                     "Cached fp8 casts (and transposes) of the linear weights one GPU computes with; counted "
                     "in the weights bar.",
                     x.fp8WeightCopyBytes,
                     {},
                     {}};
    KeyFigure scaling{"fp8_scaling_state",
                      "memory.weights",
                      "FP8 scaling state",
                      "Per-tensor scales and amax histories of the fp8 linear modules on one GPU; counted in "
                      "the weights bar.",
                      x.fp8ScalingStateBytes,
                      {},
                      {}};
    const std::string where = stale ? "per GPU, last valid layout" : "worst-stage GPU, in its weights";
    if (stale && habits.weightCopyBytesPerParam > 0 && x.fp8WeightCopyBytes <= 0) {
        // The last valid plan was not fp8: it has no figures for this scenario.
        for (KeyFigure* f : {&copies, &scaling}) {
            f->valueText = "–";
            f->detail = "no valid layout";
        }
        return {copies, scaling};
    }
    copies.valueText = x.fp8WeightCopyBytes > 0 ? bytesIn(x.fp8WeightCopyBytes, unit, 2) : "none kept";
    copies.detail = x.fp8WeightCopyBytes > 0 ? where : "cast inside each GEMM (torchao)";
    scaling.valueText = x.fp8ScalingStateBytes > 0 ? smallBytes(x.fp8ScalingStateBytes, unit) : "none kept";
    scaling.detail = x.fp8ScalingStateBytes > 0 ? where : "dynamic scaling, computed per step";
    return {copies, scaling};
}

} // namespace lp::core
