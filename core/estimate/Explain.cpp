// Explanations of every figure of a Plan: formula, values substituted, source and plain words.
#include "core/estimate/Explain.h"

#include "core/estimate/Collectives.h"
#include "core/estimate/ExecutionStyle.h"
#include "core/estimate/Precision.h"
#include "core/io/Presets.h"
#include "core/model/Units.h"

#include <cctype>
#include <cstdarg>
#include <cstdio>

namespace lp::core {
namespace {

std::string fmt(const char* f, ...) {
    char buf[1024];
    va_list ap;
    va_start(ap, f);
    std::vsnprintf(buf, sizeof buf, f, ap);
    va_end(ap);
    return buf;
}

// Human-readable numbers: 69.0e9 -> "69.0 B", 1.12e12 bytes -> "1.12 TB".
std::string count(double v) {
    if (v >= 1e18)
        return fmt("%.2f E", v / 1e18);
    if (v >= 1e15)
        return fmt("%.2f P", v / 1e15);
    if (v >= 1e12)
        return fmt("%.2f T", v / 1e12);
    if (v >= 1e9)
        return fmt("%.2f B", v / 1e9);
    if (v >= 1e6)
        return fmt("%.2f M", v / 1e6);
    return fmt("%.0f", v);
}
std::string bytes(double v) {
    if (v >= 1e12)
        return fmt("%.2f TB", v / 1e12);
    if (v >= 1e9)
        return fmt("%.2f GB (%.2f GiB)", v / 1e9, v / kGiB);
    return fmt("%.1f MB", v / 1e6);
}
std::string secs(double v) {
    return v >= 1.0 ? fmt("%.3f s", v) : fmt("%.2f ms", v * 1e3);
}

// "a", "a and b", "a, b and c".
std::string joinedWords(const std::vector<std::string>& items) {
    std::string out;
    for (std::size_t i = 0; i < items.size(); ++i)
        out += (i == 0 ? "" : (i + 1 == items.size() ? " and " : ", ")) + items[i];
    return out;
}

// What a JAX/MaxText remat policy saves and what the backward re-runs from it.
std::string rematPolicyWords(const TrainingOptions& t) {
    const RematSaves keep = rematSaves(t.rematPolicy);
    std::vector<std::string> saved, again;
    (keep.qkv ? saved : again).emplace_back("the q/k/v projections");
    (keep.context ? saved : again)
        .emplace_back(t.flashAttention ? "the attention (its output, context)"
                                       : "the attention output (context)");
    if (keep.context && !t.flashAttention)
        again.emplace_back(
            "the attention's probabilities (unfused attention's s x s tensors, which no policy "
            "keeps)");
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
        return m == kRecomputeModulesDefault ? std::string{}
                                             : " The recompute modules are Megatron-Core's: the FSDP style's "
                                               "selective recompute is its own "
                                               "operator policy and does not read them.";
    if (m == 0)
        return " No recompute module is chosen: selective recompute re-runs nothing.";
    const bool onlyCore = m == kRecomputeCoreAttn;
    if (onlyCore && t.flashAttention)
        return " Megatron's selective recompute re-runs the attention core, whose s x s scores flash "
               "attention "
               "never stores: here it changes nothing, in time or in memory, from no recompute.";
    if (onlyCore)
        return " Megatron's selective recompute re-runs the attention core: its s x s scores are not kept.";
    std::string words =
        " Selective recompute here re-runs Megatron-Core's modules " + recomputeModulesText(m, ", ") +
        " (--recompute-modules): layernorm, mla_up_proj and moe_act discard their outputs after "
        "use, mlp, shared_experts and moe keep only their input; each is re-run once before its "
        "backward.";
    const bool mla = s.model.attention == AttentionKind::Mla, moe = s.model.moe.experts > 0;
    std::vector<std::string> idle;
    if ((m & kRecomputeCoreAttn) && t.flashAttention)
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

constexpr const char* kZero = "Rajbhandari et al. 2020, ZeRO (2+2+12 bytes per parameter)";
constexpr const char* kKorth = "Korthikanti et al. 2022, Reducing Activation Recomputation";
constexpr const char* kNarayanan =
    "Narayanan et al. 2021, Efficient Large-Scale Language Model Training (Megatron-LM)";
constexpr const char* kPalm = "Chowdhery et al. 2022, PaLM, Appendix B (MFU)";
constexpr const char* kModel = "docs/estimation.md";

struct Builder {
    const Scenario& s;
    const Plan& p;
    std::vector<Explanation> out;

    void add(std::string key, std::string label, double value, std::string unit, std::string formula,
             std::string substituted, std::string source, std::string words) {
        out.push_back({std::move(key), std::move(label), value, std::move(unit), std::move(formula),
                       std::move(substituted), std::move(source), std::move(words)});
    }
};

std::string capitalised(std::string text) {
    if (!text.empty())
        text[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(text[0])));
    return text;
}

// What the optimizer keeps per parameter, in words (TrainingOptions::optimizerPrecision).
const char* optimizerStateWords(const TrainingOptions& t) {
    const bool adam = t.optimizer == Optimizer::Adam;
    switch (t.optimizerPrecision) {
    case OptimizerPrecision::Bf16Moments:
        return adam ? "the fp32 master weights and Adam's two moments in bf16"
                    : "the fp32 master weights and the momentum in bf16";
    case OptimizerPrecision::Bf16:
        return adam ? "Adam's two moments in bf16, with no master copy (the parameters are bf16)"
                    : "the momentum in bf16, with no master copy (the parameters are bf16)";
    case OptimizerPrecision::Fp32:
        break;
    }
    return adam ? "the fp32 master weights and Adam's two moments"
                : "the fp32 master weights and the momentum";
}

void explainModel(Builder& b) {
    const ModelSpec& m = b.s.model;
    const ParameterCount& pc = b.p.params;
    const Layout& l = b.s.layout;
    b.add("parameters", "Parameters", pc.total, "parameters",
          "P = L x (attention + MLP + norms) + V x h (embedding) + V x h (output head, unless tied)",
          fmt("P = %d x (%s + %s + %s) + %s + %s = %s", m.layers, count(pc.attentionPerLayer).c_str(),
              count(m.isMoe() ? pc.moePerLayer : pc.mlpPerLayer).c_str(), count(pc.normsPerLayer).c_str(),
              count(pc.embedding).c_str(), count(pc.head).c_str(), count(pc.total).c_str()),
          "ESTIMATION.md section 1 (Llama-2-70B: about 69.0e9)",
          "Every weight matrix of the model counted from its architecture: attention projections, MLP and "
          "norms in each "
          "layer, plus the embedding table and the output head.");
    b.add("weights_bytes", "Weights (16-bit, whole model)", pc.total * 2.0, "bytes", "weights = P x 2 bytes",
          fmt("%s x 2 B = %s", count(pc.total).c_str(), bytes(pc.total * 2.0).c_str()), kZero,
          "Just holding the 16-bit weights of the whole model takes this much memory - more than one GPU has "
          "for a 70B model.");
    b.add("training_state_bytes", "Training state (whole model)", b.p.trainingStateBytes, "bytes",
          fmt("state = P x (2 weights + 2 gradients + %.0f optimizer) bytes",
              optimizerBytesPerParam(b.s.training)),
          fmt("%s x %.0f B = %s", count(pc.total).c_str(), b.p.intermediates.bytesPerParamState,
              bytes(b.p.trainingStateBytes).c_str()),
          kZero,
          "Mixed-precision Adam keeps 16-bit weights and gradients plus an fp32 master copy and two fp32 "
          "moments: about 16 bytes per parameter before any activation (the ZeRO paper's count; Megatron's "
          "fp32 gradient buffer in bf16 makes it 18, as the per-GPU memory shows). This is why the model "
          "must be split over many GPUs." +
              std::string(b.s.training.optimizerPrecision == OptimizerPrecision::Fp32
                              ? ""
                              : " This plan's optimizer keeps less: " +
                                    std::string(optimizerStateWords(b.s.training)) + "."));
    b.add("gpus", "GPUs", static_cast<double>(l.gpus()), "GPUs", "GPUs = TP x PP x CP x DP",
          fmt("%d x %d x %d x %d = %lld", l.tp, l.pp, l.cp, l.dp, l.gpus()), "ESTIMATION.md notation",
          "Each GPU holds one tensor-parallel slice of one pipeline stage of one data-parallel replica.");
    b.add("effective_batch", "Effective batch", static_cast<double>(b.p.effectiveBatchSequences), "sequences",
          "batch = micro batch x accumulation x DP",
          fmt("%d x %d x %d = %lld", l.microBatch, l.accumulation, l.dp, b.p.effectiveBatchSequences),
          "the seed's formula",
          "Sequences that contribute to one optimizer step: each replica runs several micro batches and the "
          "DP replicas "
          "average their gradients.");
    b.add("tokens_per_step", "Tokens per step", b.p.tokensPerStep, "tokens",
          "tokens = batch x sequence length",
          fmt("%lld x %d = %s", b.p.effectiveBatchSequences, m.seqLen, count(b.p.tokensPerStep).c_str()),
          "definition", "How many tokens the model learns from in one optimizer step.");
}

void explainMemory(Builder& b) {
    if (b.p.memory.stages.empty())
        return;
    const MemoryPlan& mem = b.p.memory;
    const StageMemory& w = mem.stages[static_cast<std::size_t>(mem.worstStage)];
    const Layout& l = b.s.layout;
    const int zero = b.s.training.zeroStage;
    const int n = effectiveShardDegree(b.s) * l.cp; // the shard group (DP x CP unless hybrid)
    const Intermediates& x = b.p.intermediates;
    const bool fp8Extra = x.fp8WeightCopyBytes > 0 || x.fp8ScalingStateBytes > 0;
    std::string weightsFormula = "stage parameters / TP x 2 bytes (/ shard group with ZeRO-3: DP x CP, or "
                                 "shard degree x CP when hybrid)";
    std::string weightsValues = fmt("stage %d: %s%s", w.stage, bytes(w.weightsBytes).c_str(),
                                    zero >= 3 ? fmt(" (sharded over %d)", n).c_str() : "");
    std::string weightsWords =
        "TP splits every matrix, PP gives each stage L/PP layers (embedding on the first, head on the last).";
    if (fp8Extra) {
        const Fp8Habits f8 = fp8Habits(b.s, b.p.style);
        weightsFormula +=
            " + fp8 weight copies (linear weights on the GPU x " + fmt("%.0f", f8.weightCopyBytesPerParam) +
            " bytes) + fp8 scaling state (linear modules x 5 tensors x (amax history + 2) x 4 bytes)";
        weightsValues += fmt(", of which fp8 weight copies %s and scaling state %.2f MiB",
                             bytes(x.fp8WeightCopyBytes).c_str(), x.fp8ScalingStateBytes / (1024.0 * 1024.0));
        weightsWords += fmt(" With FP8, Transformer Engine also caches an fp8 copy and transpose of every "
                            "linear weight (%.0f bytes "
                            "per parameter) and keeps delayed-scaling state (%d amax values per fp8 tensor).",
                            f8.weightCopyBytesPerParam, f8.amaxHistoryLength);
    }
    b.add("memory.weights", "Weights on the worst stage", w.weightsBytes, "bytes", std::move(weightsFormula),
          std::move(weightsValues),
          std::string(kZero) +
              (fp8Extra ? "; NVIDIA Transformer Engine (fp8 weight caching, delayed scaling)" : ""),
          std::move(weightsWords));
    const GradientFormat g = gradientFormat(b.s.training, b.p.style);
    const bool fp32Grads = g.heldBytes >= 4;
    b.add(
        "memory.gradients", "Gradients", w.gradientsBytes, "bytes",
        fmt("stage parameters / TP x %.0f bytes (/ shard group with ZeRO-2+)", g.heldBytes),
        fmt("%s, %s gradients", bytes(w.gradientsBytes).c_str(), g.held.c_str()),
        fp32Grads
            ? std::string(kZero) + "; Megatron-LM --accumulate-allreduce-grads-in-fp32 (forced on for bf16)"
            : std::string(kZero),
        fp32Grads
            ? "One fp32 gradient per weight: Megatron accumulates gradients in an fp32 main_grad buffer when "
              "training in bf16 or fp8, sharded from ZeRO stage 2 on."
            : "One 16-bit gradient per weight, sharded from ZeRO stage 2 on.");
    b.add("memory.optimizer", "Optimizer state", w.optimizerBytes, "bytes",
          fmt("stage parameters / TP x %.0f bytes (/ shard group with ZeRO-1+, the distributed optimizer)",
              optimizerBytesPerParam(b.s.training)),
          fmt("%s%s", bytes(w.optimizerBytes).c_str(),
              zero >= 1 ? fmt(", sharded over %d ranks", n).c_str() : ""),
          kZero,
          capitalised(optimizerStateWords(b.s.training)) +
              ": the largest part of the training state, and the first to shard.");
    b.add(
        "memory.activations", "Activations", w.activationsBytes, "bytes",
        "layers in flight x bytes per layer (+ logits on the last stage: tokens x vocab / TP x bytes per "
        "logit; + the "
        "context-parallel K/V chunks, and torch's fp32 gradient buffers, in the running layer; + torch "
        "pipelining's "
        "receive buffers and cached outputs)",
        fmt("stage %d: %.1f layer-micro-batches x %s", w.stage, b.p.intermediates.worstStageLayersInFlight,
            bytes(b.p.intermediates.activationBytesPerLayer).c_str()) +
            (w.stage != l.pp - 1
                 ? std::string()
                 : " + logits " + bytes(b.p.intermediates.logitsBytes) +
                       (lossKernel(b.s.training, b.p.style) == CrossEntropy::FusedLinear
                            ? std::string(" (fused linear cross-entropy: one fp32 chunk and its gradient)")
                            : fmt(" (%.0f bytes per logit)",
                                  lossBytesPerLogit(lossKernel(b.s.training, b.p.style), b.p.style,
                                                    b.s.layout.tp)))) +
            (b.p.intermediates.cpBufferBytes > 0
                 ? " + context-parallel buffers " + bytes(b.p.intermediates.cpBufferBytes)
                 : std::string()) +
            (b.p.intermediates.pipelineBufferBytes > 0
                 ? " + torch pipeline buffers " + bytes(b.p.intermediates.pipelineBufferBytes)
                 : std::string()),
        kKorth,
        std::string(
            "Tensors saved in the forward pass for the backward pass. With 1F1B the first stage keeps up to "
            "PP "
            "micro batches in flight (interleaved, every rank also holds its warm-up chunks); recompute "
            "trades "
            "memory for extra forward work. At the loss the logits take 12 bytes each with an eager fp32 "
            "loss "
            "(16 under torch's loss_parallel with TP), 6 with a fused kernel, 4 with a compiled loss (the "
            "FSDP "
            "style's when the model is compiled), and almost nothing with a fused linear cross-entropy (the "
            "Cross-entropy choice).") +
            (styleTraits(b.p.style).torchTensorParallel && b.s.layout.tp > 1
                 ? " torch's tensor parallelism hands the QKV and MLP-input linears the all-gathered "
                   "sequence, and "
                   "autograd saves it whole rather than the 1/TP shard Megatron keeps."
                 : "") +
            (b.p.intermediates.pipelineBufferBytes > 0
                 ? " torch's pipelining allocates a receive buffer per micro batch "
                   "for the activations coming in and "
                   "the gradients coming back, and keeps each in-flight micro "
                   "batch's output until its backward."
                 : ""));
    if (b.p.intermediates.logitsMetricPeak && w.stage == l.pp - 1)
        b.out.back().substituted +=
            "; the peak comes after the backward, where the training metrics' fp32 copies of the logits (" +
            bytes(b.p.intermediates.logitsMetricBytes) + ", 10 bytes per logit) replace the layers' tensors";
    b.add("memory.overhead", "Overheads", w.overheadBytes, "bytes",
          "CUDA context + communication buffers + allocator reserve (+ ZeRO-3 gather buffers)",
          bytes(w.overheadBytes), kModel,
          "Memory the framework needs besides the model: the CUDA context, NCCL buffers and allocator "
          "fragmentation.");
    b.add("memory.total", "Worst-stage memory", w.totalBytes, "bytes",
          "weights + gradients + optimizer + activations + overheads",
          fmt("%s of %s capacity (%s)", bytes(w.totalBytes).c_str(), bytes(mem.capacityBytes).c_str(),
              mem.fits ? "fits" : "does not fit"),
          kModel, "The pipeline stage that needs the most memory decides whether the layout fits.");
    b.add("memory.headroom", "Headroom", mem.headroomBytes, "bytes", "capacity - worst-stage total",
          fmt("%s - %s = %s", bytes(mem.capacityBytes).c_str(), bytes(w.totalBytes).c_str(),
              bytes(mem.headroomBytes).c_str()),
          kModel,
          "Free memory on the fullest GPU; negative means the layout runs out of memory. The capacity is the "
          "memory CUDA reports (PyTorch's \"total capacity\"): a data sheet's \"80 GB\" is about 80 GiB, "
          "of which an H100 exposes 79.2 GiB.");
    if (mem.hostBytesPerGpu > 0) {
        std::string values;
        if (x.offloadedStateBytes > 0)
            values = "optimizer state " + bytes(x.offloadedStateBytes);
        if (x.offloadedGradientBytes > 0)
            values += " + gradient shard " + bytes(x.offloadedGradientBytes);
        if (x.offloadedActivationBytes > 0)
            values += (values.empty() ? "" : " + ") + fmt("%d layers x %.1f micro batches in flight x %s",
                                                          x.offloadedLayers, x.offloadMicroBatchesInFlight,
                                                          bytes(x.offloadBytesPerLayer).c_str());
        b.add(
            "memory.host_offload", "Host memory (CPU offloading)", mem.hostBytesPerGpu, "bytes",
            "optimizer state (+ the gradient shard with ZeRO 2-3) + offloaded layers x micro batches in "
            "flight x bytes per layer",
            values + " = " + bytes(mem.hostBytesPerGpu) + " per GPU, of its " + bytes(mem.hostCapacityBytes) +
                " share of the host's memory",
            kModel,
            "What CPU offloading keeps in the host's memory instead of the GPU's, for each GPU (a node needs "
            "its GPUs' worth, pinned; more than the GPU's share is flagged). The GPU keeps one offloaded "
            "layer's activations as the staging buffer.");
    }
}

void explainTime(Builder& b) {
    const TimeBreakdown& t = b.p.time;
    const Layout& l = b.s.layout;
    const Intermediates& x = b.p.intermediates;
    b.add("time.step", "Step time", t.stepSeconds, "s",
          "step = (m x t_mb + bubble) + exposed DP comm + optimizer + loader, x (1 + straggler)",
          fmt("(%d x %s + %s) + %s + %s + %s, + straggler %s = %s", l.accumulation,
              secs(x.microbatchStageSeconds).c_str(), secs(t.bubbleSeconds).c_str(),
              secs(t.dpCommExposedSeconds).c_str(), secs(t.optimizerSeconds).c_str(),
              secs(t.loaderSeconds).c_str(), secs(t.stragglerSeconds).c_str(), secs(t.stepSeconds).c_str()),
          "ESTIMATION.md section 6",
          "One optimizer step: every micro batch through the pipeline, the pipeline's fill and drain, the "
          "gradient "
          "reduction that is not hidden, and the optimizer update.");
    std::string computeValues = fmt("GEMMs at %.0f%% of peak on average", 100.0 * x.gemmEfficiency);
    std::string computeWords =
        "Matrix multiplications, attention and memory-bound kernels of the forward and backward passes "
        "(backward is about 2x forward), and on the last stage the output layer and the loss, whose "
        "passes over the logits (tokens x vocabulary) weigh heavily in small models with large "
        "vocabularies unless the loss kernel is fused.";
    computeValues +=
        fmt("; the loss passes over the logits with %.0f bytes of traffic per logit (%s)",
            lossTrafficBytesPerLogit(lossKernel(b.s.training, b.p.style), b.p.style, b.s.layout.tp),
            std::string(toString(lossKernel(b.s.training, b.p.style))).c_str());
    if (const int passes = b.s.training.logitsMetricPasses; passes > 0)
        computeValues += fmt(", plus %.0f for %d training-metric pass%s after the backward",
                             passes * kLogitsMetricTrafficPerLogit, passes, passes == 1 ? "" : "es");
    const double eagerFactor = styleTraits(b.p.style).elementwiseTrafficFactor;
    const bool fusedByCompile = elementwiseTrafficFactor(b.s.training, b.p.style) < eagerFactor;
    computeValues +=
        fmt("; memory-bound kernels move %.0f MB per layer forward (%s)", x.memoryBoundBytesPerLayer / 1e6,
            eagerFactor > 1.0 ? (!fusedByCompile             ? "eager: one kernel per op"
                                 : b.s.training.torchCompile ? "compiled: fused"
                                                             : "fused kernels: TE, Liger")
                              : "fused kernels");
    if (eagerFactor > 1.0)
        computeWords +=
            fusedByCompile
                ? (b.s.training.torchCompile
                       ? " torch.compile fuses the norms, the activation function, rotary and the residual "
                         "adds into a few kernels that read and write each tensor about once, as fused "
                         "kernels do."
                       : " Fused norm, rotary and SwiGLU kernels (Transformer Engine's, Liger's) read and "
                         "write each tensor about once, as Megatron's do.")
                : " Eager PyTorch runs the norms (with their fp32 upcast), the activation function, rotary "
                  "and "
                  "the residual adds one kernel per op: about twice the memory traffic of fused kernels "
                  "(torch.compile fuses them).";
    if (b.s.training.flashAttention) {
        computeValues +=
            fmt("; flash attention %s per layer forward, at %.0f%% (forward) and %.0f%% (backward) of the "
                "16-bit peak",
                secs(x.attentionCoreFwdSeconds).c_str(), 100.0 * x.flashFwdEfficiency,
                100.0 * x.flashBwdEfficiency);
        if (x.attentionLengthFactorFwd < 1.0 || x.attentionLengthFactorBwd < 1.0) {
            computeValues +=
                fmt(" (%.0f%% and %.0f%% of the profile's long-sequence limits at %.0f-token kernels)",
                    100.0 * x.attentionLengthFactorFwd, 100.0 * x.attentionLengthFactorBwd,
                    x.attentionKernelTokens);
            computeWords +=
                " Short sequences run further from the limit: the score work grows as the square of the "
                "length, the per-row work (softmax statistics, the causal diagonal's tiles, the backward's "
                "dO.O products) only as the length, so efficiency = limit x s / (s + s_half).";
        }
        if (x.attentionHeadFactorFwd < 1.0 || x.attentionHeadFactorBwd < 1.0) {
            computeValues +=
                fmt(" (%.0f%% and %.0f%% of the profile's heads-of-128 figures at heads of %.0f)",
                    100.0 * x.attentionHeadFactorFwd, 100.0 * x.attentionHeadFactorBwd, x.attentionHeadSize);
            computeWords +=
                " Small heads run further from peak: a score's exponential costs the same whatever the "
                "head size, while its tensor-core work (4 x d FLOPs forward, 10 x d backward) shrinks "
                "with it; with r the exponentials' share of the MMA time at heads of 128, efficiency = "
                "figure x (1 + r) / (1 + r x 128 / d).";
        }
        computeWords +=
            " Flash attention keeps the scores on chip, but its kernels alternate tensor-core work with the "
            "softmax's exponentials, one per score, on far slower units: they run further from peak than "
            "GEMMs, and further still on GPUs whose exponential units lag their tensor cores (Blackwell; "
            "Blackwell Ultra doubles them).";
        if (x.flashFwdIsFa2)
            computeWords +=
                " torch's scaled_dot_product_attention runs FlashAttention-2 kernels, whose forward trails "
                "this GPU's fused attention (Transformer Engine, cuDNN).";
    } else {
        computeValues += "; attention core " + secs(x.attentionCoreFwdSeconds) + " per layer forward" +
                         (x.attentionCoreMemoryBound ? " (bound by the scores' trip through HBM)" : "");
        computeWords +=
            " Without flash attention the s x s scores go through HBM between the two batched GEMMs (QK^T "
            "writes them, AV reads them): at small head sizes that traffic, not the arithmetic, sets their "
            "time.";
        if (b.p.has(DiagnosticId::UnfusedSoftmax))
            computeWords += " Megatron's fused softmax kernel does not take this shape, so the softmax runs "
                            "unfused in fp32: "
                            "about ten times the memory traffic and four more kernels per layer and pass.";
    }
    b.add("time.compute", "Compute", t.computeSeconds, "s", "m x L/PP x (forward + backward) per layer",
          std::move(computeValues), kNarayanan, std::move(computeWords));
    std::string recomputeWords =
        "Activation checkpointing re-runs part of the forward pass to save memory: full recompute costs "
        "about a third more compute. Block recompute (Megatron-LM --recompute-method block) re-runs only "
        "the first N layers of each model chunk: that share of the cost, and those layers keep only their "
        "input.";
    recomputeWords += recomputeModulesWords(b.s, b.p.style);
    b.add("time.recompute", "Recompute", t.recomputeSeconds, "s", "forward work repeated during backward",
          fmt("%s (%s recompute%s)", secs(t.recomputeSeconds).c_str(),
              std::string(toString(b.s.training.recompute)).c_str(),
              recomputeDetailText(b.s.training).c_str()),
          kKorth, std::move(recomputeWords));
    const TrainingOptions& o = b.s.training;
    std::string tpFormula = "per layer: 4 (+2 with full recompute) x all-reduce of s x b x h x 2 bytes; ring "
                            "2(n-1)/n S/B + 2(n-1)a";
    std::string tpWords = "Tensor parallelism all-reduces the activations twice per layer and pass: cheap on "
                          "NVLink, expensive across nodes.";
    if (b.p.intermediates.tpForwardGathersFp8) {
        tpFormula += "; the forward all-gathers carry the fp8 cast (1 byte)";
        tpWords += " Under fp8, torchao's Float8 TP plans cast the column-parallel linears' input to fp8 "
                   "before the sequence "
                   "all-gather, so the forward passes' all-gathers move half the bytes.";
    }
    if (l.tp > b.s.cluster.nvlinkDomain)
        tpWords +=
            fmt(" This TP group spans %d NVLink domains of %d GPUs: NCCL runs a ring on each member's "
                "network card, "
                "so the group's collectives see %d cards' bandwidth (up to NVLink's) instead of NVLink.",
                static_cast<int>((l.tp + b.s.cluster.nvlinkDomain - 1) / b.s.cluster.nvlinkDomain),
                static_cast<int>(b.s.cluster.nvlinkDomain), static_cast<int>(b.s.cluster.nvlinkDomain));
    if (o.overlapTpComm) {
        tpFormula = fmt("per layer: max(0, TP - GEMM time of the layer) + %.1f x min(TP, GEMM time), ",
                        kOverlapResidual) +
                    "with TP = 4 (+2 with full recompute) x all-reduce of s x b x h x 2 bytes and the GEMM "
                    "time of the "
                    "forward, backward and any recomputed forward";
        tpWords += " The TP communication overlap is on (Megatron-LM --tp-comm-overlap, torchtitan AsyncTP): "
                   "the collectives run "
                   "in chunks while the neighbouring GEMMs compute, so only what exceeds the layer's GEMM "
                   "time is exposed; the "
                   "hidden part still costs " +
                   fmt("%.0f%%", 100.0 * kOverlapResidual) +
                   " of its time, because the communication kernels take SMs and memory "
                   "bandwidth from the GEMMs.";
    }
    b.add("time.tp_comm", "Tensor-parallel communication", t.tpCommSeconds, "s", std::move(tpFormula),
          fmt("message %s at %.0f GB/s bus bandwidth%s", bytes(x.tpMessageBytes).c_str(),
              x.tpBusBandwidth / 1e9,
              o.overlapTpComm ? fmt(": %s exposed with the overlap", secs(t.tpCommSeconds).c_str()).c_str()
                              : ""),
          kNarayanan, std::move(tpWords));
    std::string ppFormula = "per micro batch: send activations, receive gradients";
    std::string ppWords = "Neighbouring pipeline stages exchange activations and their gradients.";
    if (o.overlapPpComm) {
        ppFormula = "per micro batch: max(0, p2p - stage compute) + " + fmt("%.1f", kOverlapResidual) +
                    " x min(p2p, stage compute), with p2p = 2 x v x send(s x b x h x 2 bytes / TP) and the "
                    "stage compute = L/PP layers x (forward + backward + recompute)";
        ppWords += " The PP communication overlap is on (Megatron-LM --overlap-p2p-communication, the "
                   "default with virtual "
                   "stages): sends and receives are posted ahead and finish behind the stage's compute, so "
                   "what exceeds it "
                   "is exposed, plus a fifth of the hidden part (overlapped communication kernels slow the "
                   "compute down).";
    }
    b.add("time.pp_comm", "Pipeline communication", t.ppCommSeconds, "s", std::move(ppFormula),
          secs(t.ppCommSeconds) + (o.overlapPpComm ? " exposed with the overlap" : ""), kNarayanan,
          std::move(ppWords));
    std::string cpValues = secs(t.cpCommSeconds);
    std::string cpWords =
        "Context parallelism passes key/value chunks around a ring while attention computes.";
    if (l.cp > 1) {
        cpValues += fmt(" exposed; K/V chunk %s per ring step, %.0f tokens of each sequence per rank",
                        bytes(x.cpExchangeBytes).c_str(), static_cast<double>(b.s.model.seqLen) / l.cp);
        if (x.cpHidingTokens > 0)
            cpValues += fmt(", hidden above about %.0f tokens per rank", x.cpHidingTokens);
        cpWords += " Attention work per ring step grows with the square of the chunk, the exchange only "
                   "linearly: long chunks hide "
                   "it, short ones (many CP ranks, or CP across the network) leave it exposed.";
        if (b.p.has(DiagnosticId::CpCrossesNodes))
            cpWords += " Here TP x CP is larger than the NVLink domain, so the ring crosses the network.";
    }
    const bool torchCp = styleTraits(b.p.style).cpTorchRingAttention;
    const bool gatherOnce = cpExchangeOf(b.s.training, b.p.style) == CpExchange::AllGather;
    if (l.cp > 1) {
        if (gatherOnce)
            cpWords += " The exchange is one all-gather of every rank's chunk (allgather), which only the "
                       "first (local) step's "
                       "attention hides; a ring (Megatron's p2p, torchtitan's alltoall) sends one chunk "
                       "behind each step.";
        if (torchCp)
            cpWords += " torch's context_parallel (this style) receives K/V repeated to every query head, "
                       "passes dK/dV around the "
                       "ring in fp32, and merges the steps' partial results in fp32 (that memory traffic is "
                       "counted in compute).";
        cpWords += " The chunks held while a layer runs" +
                   std::string(torchCp ? ", with the fp32 accumulators," : "") +
                   " are counted in activations: " + bytes(x.cpBufferBytes) + ".";
    }
    const std::string dkv = torchCp ? "send(2 x chunk, fp32 dK/dV)" : "send(dK/dV chunk)";
    const std::string residual = ", each + " + fmt("%.1f", kOverlapResidual) + " x the hidden part";
    std::string cpFormula = gatherOnce ? "per layer and micro batch: max(0, all-gather(c chunks) - attention "
                                         "/ c) forward; backward the same + max(0, "
                                         "(c - 1) x " +
                                             dkv + " - backward attention)" + residual
                                       : "per layer and micro batch: max(0, (c - 1) x send(K/V chunk) - "
                                         "attention) forward, max(0, (c - 1) x (send + " +
                                             dkv + ") - backward attention) backward" + residual +
                                             "; hides when tokens per rank > send time per "
                                             "token / attention time per token pair";
    if (torchCp)
        cpFormula += "; + the last " + dkv +
                     ", waited for at once; chunk = tokens per rank x (q + v width of all heads) x 2 bytes";
    b.add(
        "time.cp_comm", "Context-parallel communication", t.cpCommSeconds, "s", std::move(cpFormula),
        std::move(cpValues),
        torchCp
            ? "Liu et al. 2023, Ring Attention; PyTorch "
              "torch.distributed.tensor.experimental.context_parallel "
              "(repeat_kv before SDPA, convert_to_f32, rotate_method)"
            : "Liu et al. 2023, Ring Attention; NVIDIA Transformer Engine context parallelism (cp_comm_type)",
        std::move(cpWords));
    std::string epValues =
        fmt("%s per dispatch, %s per step", bytes(x.epMessageBytes).c_str(), secs(t.epCommSeconds).c_str());
    std::string epWords = "Mixture-of-experts layers send each token to its experts and back: cheap inside "
                          "an NVLink domain, costly across nodes.";
    if (b.s.model.isMoe() && l.ep > 1) {
        const int etp = expertTensorParallel(b.s);
        epValues += fmt("; EP %d x expert TP %d = %d GPUs per group", l.ep, etp, l.ep * etp);
        epWords += etp == l.tp ? " Each expert is split by TP like the dense layers (expert TP = TP), and "
                                 "the EP group is EP TP groups."
                               : fmt(" The experts are split over %d GPU%s (expert TP %d, TP %d): the expert "
                                     "layers regroup the stage's "
                                     "TP x CP x DP ranks, so EP also spans TP ranks; with whole experts the "
                                     "MLP half of the layer needs no "
                                     "TP collective.",
                                     etp, etp == 1 ? "" : "s", etp, l.tp);
    }
    std::string epFormula =
        "per MoE layer and pass: dispatch + combine all-to-all of tokens x top-k x h x 2 bytes";
    if (x.epRanksPerToken > 0 && x.epRemoteDomainsPerToken == 0) {
        epFormula = "per MoE layer and pass: NVLink: tokens x h x G x (n - 1)/n for the dispatch (1 byte per "
                    "value in "
                    "fp8 training, else 2) and again for the combine (2 bytes)";
        epValues += fmt("; G = %.2f GPUs per token", x.epRanksPerToken);
        epWords += " The dispatcher deduplicates (DeepEP-style): each token goes once to each other GPU that "
                   "holds one of "
                   "its experts, and the combine sums there before sending one result back, instead of once "
                   "per expert "
                   "copy.";
    }
    if (x.epRemoteDomainsPerToken > 0) {
        epFormula =
            "per MoE layer and pass: max(network: tokens x h x R other nodes, NVLink: tokens x h x G x "
            "(g - 1)/g) for the dispatch (1 byte per value in fp8 training, else 2) and again for the "
            "combine "
            "(2 bytes)";
        epValues += fmt("; R = %.2f other nodes, G = %.2f GPUs per token", x.epRemoteDomainsPerToken,
                        x.epRanksPerToken);
        epWords +=
            " The dispatcher deduplicates (DeepEP-style): each token crosses the network once per other node "
            "that "
            "holds one of its experts and is forwarded there over NVLink, instead of once per expert copy";
        epWords += b.s.model.moe.groups > 0
                       ? fmt("; group-limited routing keeps each token's experts in at most %d of %d groups.",
                             b.s.model.moe.groupLimit, b.s.model.moe.groups)
                       : std::string(".");
    }
    if (o.overlapEpComm && l.ep > 1) {
        epFormula +=
            fmt("; with the overlap, per layer: max(0, EP - compute of the layer) + %.1f x min(EP, compute)",
                kOverlapResidual);
        epWords +=
            " The EP communication overlap is on (Megatron-Core --overlap-moe-expert-parallel-comm): one "
            "micro "
            "batch's all-to-alls run while another computes the same layer, so only what exceeds the layer's "
            "compute is exposed.";
    }
    b.add("time.ep_comm", "Expert-parallel communication", t.epCommSeconds, "s", std::move(epFormula),
          std::move(epValues), "Lepikhin et al. 2020, GShard", std::move(epWords));
    b.add("time.bubble", "Pipeline bubble", t.bubbleSeconds, "s", "bubble = (p - 1)/v x t_mb",
          fmt("(%d - 1)/%d x %s = %s", l.pp, l.vpp, secs(x.microbatchStageSeconds).c_str(),
              secs(t.bubbleSeconds).c_str()),
          kNarayanan,
          "While the pipeline fills and drains, some stages wait: more micro batches or interleaving shrink "
          "it.");
    b.add("bubble_fraction", "Bubble fraction", t.bubbleFraction, "fraction",
          "bubble fraction = (p - 1)/(v x m)",
          fmt("(%d - 1)/(%d x %d) = %.1f%%", l.pp, l.vpp, l.accumulation, 100.0 * t.bubbleFraction),
          kNarayanan, "The share of the pipeline time that GPUs sit idle in the fill and drain.");
    const bool dpOverlap = o.overlapDpComm || styleTraits(b.p.style).overlapGradReduce;
    std::string dpFormula =
        "all-reduce (or reduce-scatter + all-gather) of the gradients, minus what overlaps the backward pass";
    std::string dpWords = "Data-parallel replicas average their gradients once per step; with ZeRO-3/FSDP "
                          "weights are also gathered per layer.";
    if (dpOverlap && o.zeroStage < 3)
        dpFormula = "max(0, reduction of the stage's gradients - backward window) + " +
                    fmt("%.1f", kOverlapResidual) +
                    " x min(reduction, backward window), with the backward window = L/PP layers x "
                    "(backward + recompute) of the last micro batch, as in the FSDP style";
    if (b.p.intermediates.gatherBytesPerParam < 2.0 && (o.zeroStage >= 1 && l.dp * l.cp > 1)) {
        dpFormula += "; the weight all-gathers carry the fp8 cast (1 byte per weight)";
        dpWords += " FP8 weight gathers are on (fp8_param_gather: torchao's float8 all-gather, Megatron-LM "
                   "--fp8-param-gather): each weight travels as its 1-byte fp8 cast, half the 16-bit bytes.";
    }
    if (o.overlapDpComm && b.p.style == ExecutionStyle::Fsdp)
        dpWords += " The DP communication overlap is on, but the FSDP style overlaps the reduction with the "
                   "backward pass anyway.";
    else if (o.overlapDpComm)
        dpWords += " The DP communication overlap is on (Megatron-LM --overlap-grad-reduce, with "
                   "--overlap-param-gather for the "
                   "distributed optimizer; DeepSpeed overlap_comm): gradient buckets are reduced while the "
                   "backward pass still "
                   "runs, so what exceeds the backward window is exposed, plus a fifth of the hidden part.";
    else if (!dpOverlap)
        dpWords += " The Megatron-LM style reduces them after the backward pass (no --overlap-grad-reduce), "
                   "so all of it is exposed.";
    if (const int degree = effectiveShardDegree(b.s); degree < l.dp) {
        dpFormula += "; hybrid sharding: reduce-scatter and gather within the shard group, all-reduce of the "
                     "gradient shard across the replicas";
        dpWords +=
            fmt(" Hybrid sharding: the state is sharded over %d DP rank%s and replicated %d times, so the "
                "gathers stay within the group and only the gradient shards cross between replicas.",
                degree, degree == 1 ? "" : "s", l.dp / degree);
    }
    b.add("time.dp_comm", "Exposed data-parallel / sharding communication", t.dpCommExposedSeconds, "s",
          std::move(dpFormula),
          fmt("%s per GPU at %.0f GB/s bus bandwidth: %s exposed", bytes(x.dpMessageBytes).c_str(),
              x.dpBusBandwidth / 1e9, secs(t.dpCommExposedSeconds).c_str()),
          kZero, std::move(dpWords));
    if (b.s.training.optimizerOffload)
        b.add("time.optimizer", "Optimizer step (on the CPU)", t.optimizerSeconds, "s",
              fmt("held parameters x %.0f bytes / (host DRAM bandwidth share x 0.5) + gradients to the host "
                  "(beyond the last backward) + 16-bit weights back, over the host link at 80%%",
                  optimizerStepBytesPerParam(b.s.training)),
              fmt("CPU step %s + copies %s = %s", secs(x.cpuOptimizerSeconds).c_str(),
                  secs(x.optimizerTransferSeconds).c_str(), secs(t.optimizerSeconds).c_str()),
              "Ren et al. 2021, ZeRO-Offload; docs/estimation.md",
              "With the optimizer offloaded, the CPU updates " +
                  std::string(optimizerStateWords(b.s.training)) +
                  " in host memory: the gradients cross to the host, the CPU streams the state through its "
                  "DRAM, and the new 16-bit weights cross back.");
    else
        b.add("time.optimizer", "Optimizer step", t.optimizerSeconds, "s",
              fmt("held parameters x %.0f bytes / HBM bandwidth", optimizerStepBytesPerParam(b.s.training)),
              secs(t.optimizerSeconds), kModel,
              "The step reads the gradients and reads and writes " +
                  std::string(optimizerStateWords(b.s.training)) +
                  (b.s.training.optimizerPrecision == OptimizerPrecision::Bf16
                       ? ", and the weights themselves"
                       : "") +
                  " once per step: memory-bound.");
    b.add("time.offload", "Activation offload (exposed)", t.offloadSeconds, "s",
          "per micro batch and offloaded layer: copy beyond the next layer's forward + copy beyond its "
          "backward (each with its exposed TP collectives); copy = bytes per layer / (host link x 80%)",
          x.offloadedLayers > 0
              ? fmt("%d x %d layers x 2 copies of %s (%s each)", l.accumulation, x.offloadedLayers,
                    bytes(x.offloadBytesPerLayer).c_str(), secs(x.offloadCopySecondsPerLayer).c_str()) +
                    " = " + secs(t.offloadSeconds) + " exposed"
              : std::string("no activations offloaded"),
          "Megatron-LM --cpu-offloading-num-layers; docs/estimation.md",
          "Offloaded activations travel to host memory after their layer's forward and back before its "
          "backward, on a side stream: free while the neighbouring layer computes longer than the copy "
          "takes, exposed beyond that.");
    b.add("time.loader", "Exposed data loading", t.loaderSeconds, "s",
          "tokens per rank / loader throughput (hidden when prefetching)", secs(t.loaderSeconds), kModel,
          "A loader that does not prefetch makes every step wait for the next batch.");
    b.add("time.straggler", "Stragglers", t.stragglerSeconds, "s", "step x straggler slowdown",
          fmt("%.0f%% of the step", 100.0 * b.s.training.stragglerSlowdown), kModel,
          "Synchronous training runs at the pace of the slowest rank.");
    const StyleTraits& st = styleTraits(b.p.style);
    const bool unfused = b.p.has(DiagnosticId::UnfusedSoftmax);
    b.add("time.overhead", "Host overhead", t.overheadSeconds, "s",
          fmt("per micro batch and stage: exposed host time = host x (host / (host + gpu))^%g, with host = "
              "layers x passes x the time per layer pass",
              st.hostHidingExponent),
          fmt("%.4g ms per layer pass (%s style, about %.0f kernels)%s", st.hostSecondsPerLayerPass * 1e3,
              std::string(toString(b.p.style)).c_str(), st.hostKernelsPerLayerPass,
              unfused ? fmt(", + %.0f kernels of the unfused softmax in every forward and in the backward",
                            kUnfusedSoftmaxExtraKernels)
                            .c_str()
                      : ""),
          kModel,
          "Small layers finish before the host has queued the next kernels, so the GPU waits. The host's "
          "dispatch overlaps the GPU's work: when the GPU work is long it hides the host, when it is short "
          "the host sets the pace.");
}

void explainRates(Builder& b) {
    const Plan& p = b.p;
    const Layout& l = b.s.layout;
    const double gpus = static_cast<double>(l.gpus());
    const double peak = b.s.cluster.gpu.peakFlops16;
    b.add("flops_per_token", "Model FLOPs per token", p.intermediates.flopsPerTokenModel, "FLOP",
          "6 x matmul parameters + 12 x L x h x s (attention, full count)",
          fmt("6 x %s + %s = %s", count(p.params.matmulActive).c_str(),
              count(p.intermediates.attentionFlopsPerToken).c_str(),
              count(p.intermediates.flopsPerTokenModel).c_str()),
          kNarayanan,
          "Forward and backward passes (backward is twice the forward) of every matrix multiplication, plus "
          "attention scores.");
    b.add("mfu", "Model FLOPs utilization (MFU)", p.mfu, "fraction",
          "MFU = model FLOPs per step / (step time x GPUs x peak)",
          fmt("%s / (%s x %.0f x %.0f TFLOP/s) = %.1f%%", count(p.modelFlopsPerStep).c_str(),
              secs(p.time.stepSeconds).c_str(), gpus, peak / 1e12, 100.0 * p.mfu),
          kPalm,
          "The share of the GPUs' peak arithmetic spent on the model's own FLOPs: 35-55% is typical of "
          "well-tuned "
          "pretraining; under 20% something is wrong.");
    b.add("hfu", "Hardware FLOPs utilization (HFU)", p.hfu, "fraction",
          "HFU = (model + recomputed FLOPs) / (step time x GPUs x peak)",
          fmt("%s / (%s x %.0f x %.0f TFLOP/s) = %.1f%%", count(p.hardwareFlopsPerStep).c_str(),
              secs(p.time.stepSeconds).c_str(), gpus, peak / 1e12, 100.0 * p.hfu),
          kPalm, "Like MFU but also counting the forward work repeated by activation recompute.");
    b.add("mfu_6nd", "6ND yardstick MFU", p.mfu6nd, "fraction",
          "6 x parameters x tokens / (step time x GPUs x peak)",
          fmt("6 x %s x %s / (%s x %.0f x %.0f TFLOP/s) = %.1f%%", count(p.params.active).c_str(),
              count(p.tokensPerStep).c_str(), secs(p.time.stepSeconds).c_str(), gpus, peak / 1e12,
              100.0 * p.mfu6nd),
          "Kaplan et al. 2020 (C = 6ND)",
          "The quick rule of thumb: training costs about 6 FLOPs per parameter per token.");
    b.add("model_tflops_per_gpu", "Model TFLOP/s per GPU", p.modelTflopsPerGpu, "TFLOP/s",
          "model FLOPs per step / (step time x GPUs)",
          fmt("%.1f TFLOP/s of %.0f peak", p.modelTflopsPerGpu, peak / 1e12), kNarayanan,
          "Useful arithmetic each GPU does per second.");
    b.add("tokens_per_s", "Tokens per second", p.tokensPerSecond, "tokens/s", "tokens per step / step time",
          fmt("%s / %s = %s tokens/s", count(p.tokensPerStep).c_str(), secs(p.time.stepSeconds).c_str(),
              count(p.tokensPerSecond).c_str()),
          "definition", "Training throughput of the whole cluster.");
    b.add("training_time", "Time to train the token budget", p.trainingSeconds, "s",
          "token budget / tokens per second",
          fmt("%s / %s tokens/s = %.1f days", count(b.s.training.tokenBudget).c_str(),
              count(p.tokensPerSecond).c_str(), p.trainingSeconds / 86400.0),
          "definition",
          "Wall-clock time of the whole run at this throughput, without restarts or evaluation pauses.");
    b.add("gpu_hours", "GPU-hours for the token budget", p.gpuHours, "GPU-hours",
          "token budget / tokens per second x GPUs / 3600",
          fmt("%s / %s x %.0f / 3600 = %s GPU-hours (%.1f days)", count(b.s.training.tokenBudget).c_str(),
              count(p.tokensPerSecond).c_str(), gpus, count(p.gpuHours).c_str(), p.trainingSeconds / 86400.0),
          "definition", "What the whole training run costs in GPU time at this throughput.");
}

} // namespace

std::vector<Explanation> explainPlan(const Scenario& s, const Plan& p) {
    Builder b{s, p, {}};
    explainModel(b);
    if (p.valid) {
        explainMemory(b);
        explainTime(b);
        explainRates(b);
    }
    return b.out;
}

std::optional<Explanation> explainFigure(const Scenario& s, const Plan& p, const std::string& key) {
    for (Explanation& e : explainPlan(s, p))
        if (e.key == key)
            return std::move(e);
    return std::nullopt;
}

std::vector<std::string> explanationKeys() {
    Scenario s = defaultScenario();
    std::vector<std::string> keys;
    // Keys are the same for every valid plan; take them from the default scenario's explanations.
    Plan p;
    p.valid = true;
    p.memory.stages.resize(1);
    for (const Explanation& e : explainPlan(s, p))
        keys.push_back(e.key);
    return keys;
}

} // namespace lp::core
