// The step time's explanations: the step, compute, recompute, the pipeline bubble, the optimizer step,
// activation offloading, the loader, stragglers and host overhead.
#include "core/estimate/detail/ExplainTime.h"

#include "core/estimate/Collectives.h"
#include "core/estimate/ExecutionStyle.h"
#include "core/estimate/KeyFigures.h"
#include "core/estimate/Precision.h"
#include "core/estimate/detail/ExplainCommunication.h"

#include <algorithm>
#include <cmath>

namespace lp::core::detail {
namespace {

void explainStep(ExplanationList& list) {
    const auto [s, p, t, l, im, o] = inputsOf(list);
    list.add("time.step", "Step time", t.stepSeconds, "s",
             "step = (m x t_mb + bubble) + exposed DP comm + optimizer + loader, x (1 + straggler)",
             lp::format("({} x {} + {}) + {} + {} + {}, + straggler {} = {}", l.accumulation,
                        secs(im.microbatchStageSeconds), secs(t.bubbleSeconds), secs(t.dpCommExposedSeconds),
                        secs(t.optimizerSeconds), secs(t.loaderSeconds), secs(t.stragglerSeconds),
                        secs(t.stepSeconds)),
             "docs/estimation.md section 6",
             "One optimizer step: every micro batch through the pipeline, the pipeline's fill and drain, the "
             "gradient reduction that is not hidden, and the optimizer update.");
}

// The loss's passes over the logits and the memory-bound kernels' traffic, in values and words.
void describeKernelTraffic(const Scenario& s, const Plan& p, std::string& values, std::string& words) {
    const Intermediates& im = p.intermediates;
    values += lp::format("; the loss passes over the logits with {:.0f} bytes of traffic per logit ({})",
                         lossTrafficBytesPerLogit(lossKernel(s.training, p.style), p.style, s.layout.tp),
                         std::string(toString(lossKernel(s.training, p.style))));
    if (const int passes = s.training.logitsMetricPasses; passes > 0)
        values += lp::format(", plus {:.0f} for {} training-metric pass{} after the backward",
                             passes * kLogitsMetricTrafficPerLogit, passes, passes == 1 ? "" : "es");
    const double eagerFactor = styleTraits(p.style).elementwiseTrafficFactor;
    const bool fusedByCompile = elementwiseTrafficFactor(s.training, p.style) < eagerFactor;
    values += lp::format("; memory-bound kernels move {:.0f} MB per layer forward ({})",
                         im.memoryBoundBytesPerLayer / 1e6,
                         eagerFactor > 1.0 ? (!fusedByCompile           ? "eager: one kernel per op"
                                              : s.training.torchCompile ? "compiled: fused"
                                                                        : "fused kernels: TE, Liger")
                                           : "fused kernels");
    if (eagerFactor > 1.0)
        words += fusedByCompile ? (s.training.torchCompile
                                       ? " torch.compile fuses the norms, the activation function, rotary "
                                         "and the residual adds into a few kernels that read and write each "
                                         "tensor about once, as fused kernels do."
                                       : " Fused norm, rotary and SwiGLU kernels (Transformer Engine's, "
                                         "Liger's) read and write each tensor about once, as Megatron's do.")
                                : " Eager PyTorch runs the norms (with their fp32 upcast), the activation "
                                  "function, rotary and the residual adds one kernel per op: about twice the "
                                  "memory traffic of fused kernels (torch.compile fuses them).";
}

// The attention core's time and its kernels' efficiency, in values and words.
void describeAttentionCore(const Scenario& s, const Plan& p, std::string& values, std::string& words) {
    const Intermediates& im = p.intermediates;
    if (fusedAttention(s.training)) {
        values += lp::format("; flash attention {} per layer forward, at {:.0f}% (forward) and {:.0f}% "
                             "(backward) of the 16-bit peak",
                             secs(im.attentionCoreFwdSeconds), 100.0 * im.flashFwdEfficiency,
                             100.0 * im.flashBwdEfficiency);
        if (im.attentionLengthFactorFwd < 1.0 || im.attentionLengthFactorBwd < 1.0) {
            values += lp::format(
                " ({:.0f}% and {:.0f}% of the profile's long-sequence limits at {:.0f}-token kernels)",
                100.0 * im.attentionLengthFactorFwd, 100.0 * im.attentionLengthFactorBwd,
                im.attentionKernelTokens);
            words +=
                " Short sequences run further from the limit: the score work grows as the square of the "
                "length, the per-row work (softmax statistics, the causal diagonal's tiles, the backward's "
                "dO.O products) only as the length, so efficiency = limit x s / (s + s_half).";
        }
        if (im.attentionHeadFactorFwd < 1.0 || im.attentionHeadFactorBwd < 1.0) {
            values += lp::format(
                " ({:.0f}% and {:.0f}% of the profile's heads-of-128 figures at heads of {:.0f})",
                100.0 * im.attentionHeadFactorFwd, 100.0 * im.attentionHeadFactorBwd, im.attentionHeadSize);
            words += " Small heads run further from peak: a score's exponential costs the same whatever the "
                     "head size, while its tensor-core work (4 x d FLOPs forward, 10 x d backward) shrinks "
                     "with it; with r the exponentials' share of the MMA time at heads of 128, efficiency = "
                     "figure x (1 + r) / (1 + r x 128 / d).";
        }
        words += " Flash attention keeps the scores on chip, but its kernels alternate tensor-core work with "
                 "the softmax's exponentials, one per score, on far slower units: they run further from peak "
                 "than GEMMs, and further still on GPUs whose exponential units lag their tensor cores "
                 "(Blackwell; Blackwell Ultra doubles them).";
        if (im.flashFwdIsFa2)
            words += " torch's scaled_dot_product_attention runs FlashAttention-2 kernels, whose forward "
                     "trails this GPU's fused attention (Transformer Engine, cuDNN).";
        if (im.attentionKernel == AttentionKernel::FlashAttention3)
            words += " FlashAttention-3 (attention_kernel) overlaps the softmax with Hopper's asynchronous "
                     "tensor-core MMAs: its curve is the FlashAttention-3 paper's (Shah et al. 2024).";
    } else {
        values += "; attention core " + secs(im.attentionCoreFwdSeconds) + " per layer forward" +
                  (im.attentionCoreMemoryBound ? " (bound by the scores' trip through HBM)" : "");
        words += " Without flash attention the s x s scores go through HBM between the two batched GEMMs "
                 "(QK^T writes them, AV reads them): at small head sizes that traffic, not the arithmetic, "
                 "sets their time.";
        if (p.has(DiagnosticId::UnfusedSoftmax))
            words += " Megatron's fused softmax kernel does not take this shape, so the softmax runs unfused "
                     "in fp32: about ten times the memory traffic and four more kernels per layer and pass.";
    }
}

void explainCompute(ExplanationList& list) {
    const auto [s, p, t, l, im, o] = inputsOf(list);
    std::string computeValues = lp::format("GEMMs at {:.0f}% of peak on average", 100.0 * im.gemmEfficiency);
    std::string computeWords =
        "Matrix multiplications, attention and memory-bound kernels of the forward and backward passes "
        "(backward is about 2x forward), and on the last stage the output layer and the loss, whose passes "
        "over the logits (tokens x vocabulary) weigh heavily in small models with large vocabularies unless "
        "the loss kernel is fused.";
    describeKernelTraffic(s, p, computeValues, computeWords);
    describeAttentionCore(s, p, computeValues, computeWords);
    list.add("time.compute", "Compute", t.computeSeconds, "s", "m x L/PP x (forward + backward) per layer",
             std::move(computeValues), kNarayananPaper, std::move(computeWords));
}

// What a JAX/MaxText remat policy saves and what the backward re-runs from it.
std::string rematPolicyWords(const TrainingOptions& t) {
    const RematSaves keep = rematSaves(t.rematPolicy);
    std::vector<std::string> saved, again;
    (keep.qkv ? saved : again).emplace_back("the q/k/v projections");
    (keep.context ? saved : again)
        .emplace_back(fusedAttention(t) ? "the attention (its output, context)"
                                        : "the attention output (context)");
    if (keep.context && !fusedAttention(t))
        again.emplace_back(
            "the attention's probabilities (unfused attention's s x s tensors, which no policy keeps)");
    (keep.outProj ? saved : again).emplace_back("the output projection");
    (keep.mlpwi ? saved : again).emplace_back("the MLP's up-projections");
    std::string words = " The remat policy " + std::string(toString(t.rematPolicy)) +
                        " (MaxText's remat_policy) saves each layer's input";
    words += saved.empty() ? "" : " and the outputs of " + joinedWords(saved);
    words += "; the backward re-runs the norms, rotary and activation function";
    words += again.empty() ? "" : ", and " + joinedWords(again);
    words += " (never the MLP's down-projection: nothing in the backward needs its output). It replaces the "
             "style's own selective recompute and Megatron's recompute modules.";
    return words;
}

// What selective recompute re-runs: a remat policy's tensors, or Megatron-Core's modules
// (--recompute-modules) and those that have nothing to act on in this model; the FSDP style's operator
// policy ignores the modules.
std::string recomputeModulesWords(const Scenario& s, ExecutionStyle style) {
    const TrainingOptions& t = s.training;
    if (t.recompute != Recompute::Selective)
        return t.rematPolicy == RematPolicy::Auto
                   ? std::string{}
                   : " The remat policy " + std::string(toString(t.rematPolicy)) +
                         " acts with selective recompute only: here it does nothing.";
    if (t.rematPolicy != RematPolicy::Auto)
        return rematPolicyWords(t);
    const unsigned m = t.recomputeModules & kRecomputeModulesAll;
    if (style != ExecutionStyle::Megatron)
        return m == kRecomputeModulesDefault
                   ? std::string{}
                   : " The recompute modules are Megatron-Core's: the FSDP style's selective recompute is "
                     "its own operator policy and does not read them.";
    if (m == 0)
        return " No recompute module is chosen: selective recompute re-runs nothing.";
    const bool onlyCore = m == kRecomputeCoreAttn;
    if (onlyCore && fusedAttention(t))
        return " Megatron's selective recompute re-runs the attention core, whose s x s scores flash "
               "attention never stores: here it changes nothing, in time or in memory, from no recompute.";
    if (onlyCore)
        return " Megatron's selective recompute re-runs the attention core: its s x s scores are not kept.";
    std::string words =
        " Selective recompute here re-runs Megatron-Core's modules " + recomputeModulesText(m, ", ") +
        " (--recompute-modules): layernorm, mla_up_proj and moe_act discard their outputs after use, mlp, "
        "shared_experts and moe keep only their input; each is re-run once before its backward.";
    const bool mla = s.model.attention == AttentionKind::Mla, moe = s.model.moe.experts > 0;
    std::vector<std::string> idle;
    if ((m & kRecomputeCoreAttn) && fusedAttention(t))
        idle.emplace_back("core_attn (flash attention keeps no scores)");
    if ((m & kRecomputeMlaUpProj) && !mla)
        idle.emplace_back("mla_up_proj (no multi-head latent attention)");
    if ((m & (kRecomputeMoeAct | kRecomputeMoe)) && !moe)
        idle.emplace_back(std::string(m & kRecomputeMoe ? "moe" : "moe_act") + " (a dense model)");
    if ((m & kRecomputeSharedExperts) && (!moe || s.model.moe.sharedExperts == 0))
        idle.emplace_back("shared_experts (no shared expert)");
    if ((m & kRecomputeMlp) && moe && (s.model.moe.moeLayers == 0 || s.model.moe.moeLayers >= s.model.layers))
        idle.emplace_back("mlp (every layer is a MoE layer)");
    if ((m & kRecomputeLayerNorm) && !mla && !moe)
        idle.emplace_back("layernorm (Transformer Engine fuses the norm into the next linear)");
    if (!idle.empty())
        words += " Nothing to re-run here for " + joinedWords(idle) + ".";
    return words;
}

void explainRecompute(ExplanationList& list) {
    const auto [s, p, t, l, im, o] = inputsOf(list);
    std::string recomputeWords =
        "Activation checkpointing re-runs part of the forward pass to save memory: full recompute costs "
        "about a third more compute. Block recompute (Megatron-LM --recompute-method block) re-runs only the "
        "first N layers of each model chunk: that share of the cost, and those layers keep only their input.";
    recomputeWords += recomputeModulesWords(s, p.style);
    list.add("time.recompute", "Recompute", t.recomputeSeconds, "s", "forward work repeated during backward",
             lp::format("{} ({} recompute{})", secs(t.recomputeSeconds),
                        std::string(toString(s.training.recompute)), recomputeDetailText(s.training)),
             kKorthikantiPaper, std::move(recomputeWords));
}

// Whether the other pipeline ranks take as long per micro batch as the slowest: then the bubble is the
// textbook (p - 1)/v x t_mb. The first rank also holds the embedding and the last the output layer and the
// loss, so in most plans they do not.
bool evenStages(const Intermediates& im, int pp) {
    const double textbook = (pp - 1) * im.microbatchStageSeconds;
    return std::abs(im.otherStagesSeconds - textbook) <= 1e-9 * std::max(1.0, textbook);
}

// The stages' fill and drain as the formulas substitute it: (p - 1) x t_mb where the stages are even, else
// the other ranks' times per micro batch, summed.
std::string otherStagesText(const Intermediates& im, int pp) {
    if (evenStages(im, pp))
        return lp::format("({} - 1) x {}", pp, secs(im.microbatchStageSeconds));
    return secs(im.otherStagesSeconds);
}

// "; 735.18 ms is the 3 other stages' t_mb summed (even stages: 3 x 248.08 ms = 744.24 ms)" where the stages
// are uneven: what the substituted sum is, beside the textbook's (p - 1) x t_mb.
std::string otherStagesNote(const Intermediates& im, int pp) {
    if (evenStages(im, pp))
        return {};
    return lp::format("; {} is the {} other stages' t_mb summed (even stages: {} x {} = {})",
                      secs(im.otherStagesSeconds), pp - 1, pp - 1, secs(im.microbatchStageSeconds),
                      secs((pp - 1) * im.microbatchStageSeconds));
}

// "; with even stages (p - 1)/(v x m) = (4 - 1)/(1 x 16) = 18.8%" where the stages are uneven.
std::string evenStagesFraction(const Intermediates& im, const Layout& l) {
    if (evenStages(im, l.pp))
        return {};
    return lp::format("; with even stages (p - 1)/(v x m) = ({} - 1)/({} x {}) = {:.1f}%", l.pp, l.vpp,
                      l.accumulation, 100.0 * (l.pp - 1) / (static_cast<double>(l.vpp) * l.accumulation));
}

// The bubble of a schedule other than 1F1B: GPipe's (the same) and ZB-H1's (the weight gradients fill it).
void explainScheduleBubble(ExplanationList& list) {
    const auto [s, p, t, l, im, o] = inputsOf(list);
    if (o.pipelineSchedule == PipelineSchedule::GPipe) {
        list.add("time.bubble", "Pipeline bubble", t.bubbleSeconds, "s",
                 "GPipe: bubble = the other stages' t_mb, summed ((p - 1) x t_mb with even stages)",
                 lp::format("{} = {}{}", otherStagesText(im, l.pp), secs(t.bubbleSeconds),
                            otherStagesNote(im, l.pp)),
                 kHuangPaper,
                 "GPipe runs every micro batch's forward, then every backward: the same bubble as 1F1B, but "
                 "each stage holds all m micro batches' activations at once (1F1B: at most p).");
        return;
    }
    list.add(
        "time.bubble", "Pipeline bubble", t.bubbleSeconds, "s",
        "ZB-H1: bubble = the other stages' t_mb, summed, / v x (1 - 2 x t_W / t_mb) ((p - 1)/v x (t_mb - 2 x "
        "t_W) with even stages)",
        lp::format("{}/{} x (1 - 2 x {} / {}) = {}{}", otherStagesText(im, l.pp), l.vpp,
                   secs(im.backwardWeightSeconds), secs(im.microbatchStageSeconds), secs(t.bubbleSeconds),
                   otherStagesNote(im, l.pp)),
        kQiPaper,
        "ZB-H1 splits the backward into the input gradient (B), which the previous stage waits for, and "
        "the weight gradient (W, t_W: half the backward's GEMMs), which waits for nothing: deferred W work "
        "fills the warm-up and drain, (p - 1)(T_F + T_B - T_W) instead of (p - 1)(T_F + T_B + T_W), at "
        "1F1B's memory.");
}

void explainBubble(ExplanationList& list) {
    const auto [s, p, t, l, im, o] = inputsOf(list);
    if (o.pipelineSchedule != PipelineSchedule::OneFOneB)
        explainScheduleBubble(list);
    else
        list.add("time.bubble", "Pipeline bubble", t.bubbleSeconds, "s",
                 "bubble = the other stages' t_mb, summed, / v ((p - 1)/v x t_mb with even stages)",
                 lp::format("{}/{} = {}{}", otherStagesText(im, l.pp), l.vpp, secs(t.bubbleSeconds),
                            otherStagesNote(im, l.pp)),
                 kNarayananPaper,
                 "While the pipeline fills and drains, the slowest stage waits for the others: more micro "
                 "batches or interleaving shrink it. Where the stages are uneven (the first holds the "
                 "embedding, the last the output layer and the loss) the others are quicker than the "
                 "slowest, and the bubble is smaller than (p - 1) of its t_mb.");
    list.add("bubble_fraction", "Bubble fraction", t.bubbleFraction, "fraction",
             "bubble fraction = bubble / (m x t_mb) ((p - 1)/(v x m) with even stages, 1F1B)",
             lp::format("{} / ({} x {}) = {:.1f}%{}", secs(t.bubbleSeconds), l.accumulation,
                        secs(im.microbatchStageSeconds), 100.0 * t.bubbleFraction,
                        o.pipelineSchedule == PipelineSchedule::ZeroBubbleH1 ? std::string()
                                                                             : evenStagesFraction(im, l)),
             o.pipelineSchedule == PipelineSchedule::ZeroBubbleH1 ? kQiPaper : kNarayananPaper,
             lp::format(
                 "The bubble over the bubble-free pipeline time (m micro batches through the slowest stage), "
                 "not a share of the step: the bubble is {:.1f}% of this step.",
                 100.0 * bubbleShareOfStep(t)));
}

void explainOptimizerStep(ExplanationList& list) {
    const auto [s, p, t, l, im, o] = inputsOf(list);
    if (s.training.optimizerOffload)
        list.add(
            "time.optimizer", "Optimizer step (on the CPU)", t.optimizerSeconds, "s",
            lp::format("held parameters x {:.0f} bytes / (host DRAM bandwidth share x 0.5) + gradients to "
                       "the host (beyond the last backward) + 16-bit weights back, over the host link at 80%",
                       optimizerStepBytesPerParam(s.training)),
            lp::format("CPU step {} + copies {} = {}", secs(im.cpuOptimizerSeconds),
                       secs(im.optimizerTransferSeconds), secs(t.optimizerSeconds)),
            "Ren et al. 2021, ZeRO-Offload; docs/estimation.md",
            "With the optimizer offloaded, the CPU updates " + std::string(optimizerStateWords(s.training)) +
                " in host memory: the gradients cross to the host, the CPU streams the state through its "
                "DRAM, and the new 16-bit weights cross back.");
    else
        list.add("time.optimizer", "Optimizer step", t.optimizerSeconds, "s",
                 lp::format("held parameters x {:.0f} bytes / HBM bandwidth",
                            optimizerStepBytesPerParam(s.training)),
                 secs(t.optimizerSeconds), kEstimationDoc,
                 "The step reads the gradients and reads and writes " +
                     std::string(optimizerStateWords(s.training)) +
                     (s.training.optimizerPrecision == OptimizerPrecision::Bf16
                          ? ", and the weights themselves"
                          : "") +
                     " once per step: memory-bound.");
}

void explainOffloadTime(ExplanationList& list) {
    const auto [s, p, t, l, im, o] = inputsOf(list);
    list.add("time.offload", "Activation offload (exposed)", t.offloadSeconds, "s",
             "per micro batch and offloaded layer: copy beyond the next layer's forward + copy beyond its "
             "backward (each with its exposed TP collectives); copy = bytes per layer / (host link x 80%)",
             im.offloadedLayers > 0
                 ? lp::format("{} x {} layers x 2 copies of {} ({} each)", l.accumulation, im.offloadedLayers,
                              list.bytes(im.offloadBytesPerLayer), secs(im.offloadCopySecondsPerLayer)) +
                       " = " + secs(t.offloadSeconds) + " exposed"
                 : std::string("no activations offloaded"),
             "Megatron-LM --cpu-offloading-num-layers; docs/estimation.md",
             "Offloaded activations travel to host memory after their layer's forward and back before its "
             "backward, on a side stream: free while the neighbouring layer computes longer than the copy "
             "takes, exposed beyond that.");
}

void explainLoaderAndStragglers(ExplanationList& list) {
    const auto [s, p, t, l, im, o] = inputsOf(list);
    list.add("time.loader", "Exposed data loading", t.loaderSeconds, "s",
             "tokens per rank / loader throughput (hidden when prefetching)", secs(t.loaderSeconds),
             kEstimationDoc, "A loader that does not prefetch makes every step wait for the next batch.");
    list.add("time.straggler", "Stragglers", t.stragglerSeconds, "s", "step x straggler slowdown",
             lp::format("{:.0f}% of the step", 100.0 * s.training.stragglerSlowdown), kEstimationDoc,
             "Synchronous training runs at the pace of the slowest rank.");
}

void explainHostOverhead(ExplanationList& list) {
    const Plan& p = list.plan;
    const TimeBreakdown& t = p.time;
    const StyleTraits& st = styleTraits(p.style);
    const bool unfused = p.has(DiagnosticId::UnfusedSoftmax);
    list.add(
        "time.overhead", "Host overhead", t.overheadSeconds, "s",
        lp::format("per micro batch and stage: exposed host time = host x (host / (host + gpu))^{:g}, with "
                   "host = layers x passes x the time per layer pass",
                   st.hostHidingExponent),
        lp::format(
            "{:.4g} ms per layer pass ({} style, about {:.0f} kernels){}", st.hostSecondsPerLayerPass * 1e3,
            std::string(toString(p.style)), st.hostKernelsPerLayerPass,
            unfused
                ? lp::format(", + {:.0f} kernels of the unfused softmax in every forward and in the backward",
                             kUnfusedSoftmaxExtraKernels)
                : std::string()),
        kEstimationDoc,
        "Small layers finish before the host has queued the next kernels, so the GPU waits. The host's "
        "dispatch overlaps the GPU's work: when the GPU work is long it hides the host, when it is short the "
        "host sets the pace.");
}

} // namespace

void explainTime(ExplanationList& list) {
    explainStep(list);
    explainCompute(list);
    explainRecompute(list);
    explainTpComm(list);
    explainPpComm(list);
    explainCpComm(list);
    explainEpComm(list);
    explainBubble(list);
    explainDpComm(list);
    explainOptimizerStep(list);
    explainOffloadTime(list);
    explainLoaderAndStragglers(list);
    explainHostOverhead(list);
}

} // namespace lp::core::detail
