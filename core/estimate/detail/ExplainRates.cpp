#include "core/estimate/detail/ExplainRates.h"

#include "core/estimate/KeyFigures.h"

namespace lp::core::detail {
namespace {

// The working of every utilisation: "<FLOPs per step> / (<step> x <GPUs> x <peak> TFLOP/s) = 41.0%".
std::string utilisationWorking(const Scenario& s, const Plan& p, const std::string& flopsPerStep,
                               double share) {
    return lp::format("{} / ({} x {:.0f} x {:.0f} TFLOP/s) = {:.1f}%", flopsPerStep, secs(p.time.stepSeconds),
                      static_cast<double>(s.layout.gpus()), s.cluster.gpu.peakFlops16 / 1e12, 100.0 * share);
}

} // namespace

void explainRates(ExplanationList& list) {
    const auto [s, p, t, l, im, o] = inputsOf(list);
    const double gpus = static_cast<double>(l.gpus());
    const double peak = s.cluster.gpu.peakFlops16;
    list.add("flops_per_token", "Model FLOPs per token", p.intermediates.flopsPerTokenModel, "FLOP",
             "6 x matmul parameters + 12 x L x h x s (attention, full count)",
             lp::format("6 x {} + {} = {}", count(p.params.matmulActive),
                        count(p.intermediates.attentionFlopsPerToken),
                        count(p.intermediates.flopsPerTokenModel)),
             kNarayananPaper,
             "Forward and backward passes (backward is twice the forward) of every matrix multiplication, "
             "plus attention scores.");
    list.add("mfu", "Model FLOPs utilization (MFU)", p.mfu, "fraction",
             "MFU = model FLOPs per step / (step time x GPUs x peak)",
             utilisationWorking(s, p, count(p.modelFlopsPerStep), p.mfu), kPalmPaper,
             "The share of the GPUs' peak arithmetic spent on the model's own FLOPs: 35-55% is typical of "
             "well-tuned pretraining; under 20% something is wrong.");
    list.add("hfu", "Hardware FLOPs utilization (HFU)", p.hfu, "fraction",
             "HFU = (model + recomputed FLOPs) / (step time x GPUs x peak)",
             utilisationWorking(s, p, count(p.hardwareFlopsPerStep), p.hfu), kPalmPaper,
             "Like MFU but also counting the forward work repeated by activation recompute.");
    list.add("mfu_6nd", "6ND yardstick MFU", p.mfu6nd, "fraction",
             "6 x " + yardstickParameters(s.model) + " x tokens / (step time x GPUs x peak)",
             utilisationWorking(
                 s, p, lp::format("6 x {} x {}", count(p.params.active), count(p.tokensPerStep)), p.mfu6nd),
             "Kaplan et al. 2020 (C = 6ND)",
             "The quick rule of thumb: training costs about 6 FLOPs per parameter per token.");
    list.add("model_tflops_per_gpu", "Model TFLOP/s per GPU", p.modelTflopsPerGpu, "TFLOP/s",
             "model FLOPs per step / (step time x GPUs)",
             lp::format("{:.1f} TFLOP/s of {:.0f} peak", p.modelTflopsPerGpu, peak / 1e12), kNarayananPaper,
             "Useful arithmetic each GPU does per second.");
    list.add("tokens_per_s", "Tokens per second", p.tokensPerSecond, "tokens/s",
             "tokens per step / step time",
             lp::format("{} / {} = {} tokens/s", count(p.tokensPerStep), secs(p.time.stepSeconds),
                        count(p.tokensPerSecond)),
             "definition", "Training throughput of the whole cluster.");
    list.add(
        "training_time", "Time to train the token budget", p.trainingSeconds, "s",
        "token budget / tokens per second",
        lp::format("{} / {} tokens/s = {:.1f} days", count(p.run.tokens), count(p.tokensPerSecond),
                   p.trainingSeconds / 86400.0),
        "definition",
        "Wall-clock time of the whole run at this throughput, ideal: without checkpoint writes, "
        "failures and restarts or evaluation pauses (the Run section's wall clock adds the first three).");
    list.add(
        "gpu_hours", "GPU-hours for the token budget", p.gpuHours, "GPU-hours",
        "token budget / tokens per second x GPUs / 3600",
        lp::format("{} / {} x {:.0f} / 3600 = {} GPU-hours ({:.1f} days)", count(p.run.tokens),
                   count(p.tokensPerSecond), gpus, count(p.gpuHours), p.trainingSeconds / 86400.0),
        "definition",
        "What the whole training run costs in GPU time at this throughput, ideal: the Run section's billed "
        "GPU-hours add checkpoint writes and the time lost to failures.");
}

} // namespace lp::core::detail
