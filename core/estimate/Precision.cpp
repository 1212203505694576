#include "core/estimate/Precision.h"

#include "core/estimate/ExecutionStyle.h"

namespace lp::core {
namespace {

// fp32 amax history + scale + inverse scale per scaled tensor.
constexpr double kScaleFields = 2.0;
// Bytes of a 16-bit value (bf16 or fp16).
constexpr double kHalfBytes = 2.0;

} // namespace

Fp8Habits fp8Habits(const Scenario& s, ExecutionStyle resolved) {
    Fp8Habits h;
    if (s.training.precision != Precision::Fp8 || s.cluster.gpu.peakFlops8 <= 0)
        return h;
    const StyleTraits& st = styleTraits(resolved);
    h.active = true;
    h.weightCopyBytesPerParam = st.fp8WeightCopyBytesPerParam;
    h.savesLinearInputsInFp8 = st.fp8SavesLinearInputs;
    h.amaxHistoryLength = st.fp8AmaxHistoryLength;
    // Transformer Engine keeps meta for input, weight and output (forward) and for the output and input
    // gradients (backward); dynamic scaling keeps nothing between steps.
    h.scaledTensorsPerGemm = h.amaxHistoryLength > 0 ? 5 : 0;
    return h;
}

GradientFormat gradientFormat(const Scenario& s, ExecutionStyle resolved) {
    const TrainingOptions& t = s.training;
    const std::string half = t.precision == Precision::Fp16 ? "fp16" : "bf16";
    GradientFormat g;
    g.held = half;
    g.reduced = half;
    auto fp32 = [&](bool held) {
        g.reduceBytes = 4;
        g.reduced = "fp32";
        if (held) {
            g.heldBytes = 4;
            g.held = "fp32";
        }
    };
    switch (t.gradPrecision) {
    case GradPrecision::Half:
        break; // 16-bit buffers, 16-bit reduction
    case GradPrecision::Fp32:
        fp32(resolved == ExecutionStyle::Megatron); // FSDP: fp32 reduction of the (sharded) bf16 gradients
        break;
    case GradPrecision::Auto:
        if (resolved == ExecutionStyle::Megatron) {
            if (t.precision != Precision::Fp16 && !megatronRecipeHabits(s))
                fp32(true);
        } else if (styleTraits(resolved).gradReduceBytesPerParam >= 4) {
            fp32(false);
        }
        break;
    }
    return g;
}

double fp8ScalingBytesPerModule(const Fp8Habits& h) {
    if (!h.active || h.scaledTensorsPerGemm == 0)
        return 0;
    return 4.0 * h.scaledTensorsPerGemm * (h.amaxHistoryLength + kScaleFields);
}

double optimizerBytesPerParam(const TrainingOptions& t) {
    const double moments = t.optimizer == Optimizer::Adam ? 2.0 : 1.0;
    switch (t.optimizerPrecision) {
    case OptimizerPrecision::Bf16Moments:
        return 4.0 + 2.0 * moments;
    case OptimizerPrecision::Bf16:
        return 2.0 * moments;
    case OptimizerPrecision::Fp32:
        break;
    }
    return 4.0 + 4.0 * moments;
}

double optimizerStepBytesPerParam(const TrainingOptions& t) {
    // Reads the gradient, reads and writes the state; without a master copy it also reads and writes the
    // 16-bit weights (with one, writing them from the master is the state's write).
    if (t.optimizerPrecision == OptimizerPrecision::Bf16)
        return 2.0 + 2.0 * (optimizerBytesPerParam(t) + 2.0);
    return 4.0 + 2.0 * optimizerBytesPerParam(t);
}

namespace {

// What the loss kernel keeps per logit, in words (the fused linear cross-entropy is worded at its row).
std::string lossWords(CrossEntropy lossKind, double lossBytes) {
    if (lossKind == CrossEntropy::Compiled)
        return "Compiled loss (torch.compile): the fp32 softmax is computed on the fly from the 16-bit "
               "logits, which are saved, and the backward writes a 16-bit gradient, 4 bytes per logit.";
    if (lossKind == CrossEntropy::Fused16)
        return "flash-attn's fused cross-entropy kernel: the 16-bit logits and the per-row log-sum-exp are "
               "saved, and the backward writes a 16-bit gradient, 4 bytes per logit.";
    if (lossBytes <= kFusedLossBytesPerLogit)
        return "Megatron's vocab-parallel cross-entropy or a fused kernel: one fp32 buffer beside the 16-bit "
               "logits, 6 bytes per logit.";
    if (lossBytes >= kLossParallelBytesPerLogit)
        return "torch's loss_parallel on the vocabulary-sharded logits (TP): fp32 log-probs, and in backward "
               "their exponent, the zero-filled gradient and its product held at once, 16 bytes per logit at "
               "the peak.";
    return "Unfused loss: the logits are upcast to fp32 for the log-softmax and its gradient, 12 bytes per "
           "logit at the peak.";
}

// The table as it is filled: the scenario, its resolved style, fp8 habits and 16-bit format.
struct PrecisionRows {
    const Scenario& scenario;
    ExecutionStyle style;
    Fp8Habits f8;
    std::string half; // "bf16" or "fp16"
    std::vector<TensorPrecision> table;

    void add(std::string tensor, std::string format, double bytes, std::string note) {
        table.push_back({std::move(tensor), std::move(format), bytes, std::move(note)});
    }
};

// The weights and their fp8 copies.
void addWeightRows(PrecisionRows& rows) {
    const Fp8Habits& f8 = rows.f8;
    const std::string& half = rows.half;
    const bool perModule = rows.scenario.training.zero3Gather == Zero3Gather::Module;
    rows.add("Weights (layers, embedding, head)", half, kHalfBytes,
             std::string("The model's working copy; every GEMM reads it (gathered ") +
                 (perModule ? "module by module with DeepSpeed ZeRO-3)." : "per layer with ZeRO-3/FSDP)."));
    if (f8.active) {
        if (f8.weightCopyBytesPerParam > 0)
            rows.add("FP8 weight copies (linear layers)", "fp8 e4m3 (weight + transpose)",
                     f8.weightCopyBytesPerParam,
                     "Transformer Engine casts each linear weight once per step and caches the cast and its "
                     "transpose (Hopper fp8 GEMMs take only the TN layout).");
        else
            rows.add("FP8 weight copies (linear layers)", "none kept", 0,
                     "torchao Float8Linear casts the bf16 weight inside each GEMM call; no copy outlives the "
                     "layer.");
    }
}

// The linear layers' GEMM inputs, fp8 or 16-bit.
void addGemmRows(PrecisionRows& rows) {
    const bool megatron = rows.style == ExecutionStyle::Megatron;
    const Fp8Habits& f8 = rows.f8;
    const bool fp8Asked = rows.scenario.training.precision == Precision::Fp8;
    const std::string& half = rows.half;
    if (f8.active) {
        rows.add("Linear-layer GEMM inputs, forward", "fp8 e4m3", 1,
                 "Activations and weights cast with a per-tensor scale; accumulation in fp32, output in " +
                     half + ".");
        rows.add("Linear-layer GEMM inputs, backward",
                 megatron ? "fp8 e5m2 (gradients), e4m3 (saved inputs)" : "fp8 e4m3", 1,
                 megatron ? "Transformer Engine's HYBRID recipe: the wider-range e5m2 for gradients."
                          : "torchao's tensorwise recipe casts gradients to e4m3 as well.");
        rows.add("Scaling state",
                 f8.amaxHistoryLength > 0 ? "fp32 amax history + scale" : "fp32 scale, per step", 4,
                 f8.amaxHistoryLength > 0
                     ? "Delayed scaling: " + std::to_string(f8.amaxHistoryLength) +
                           " amax values per fp8 tensor, 5 tensors per linear module (a few MB in all)."
                     : "Dynamic scaling computes each scale from the current tensor's amax: nothing kept "
                       "between steps.");
        rows.add("Linear inputs saved for backward", f8.savesLinearInputsInFp8 ? "fp8 e4m3" : half,
                 f8.savesLinearInputsInFp8 ? 1.0 : kHalfBytes,
                 f8.savesLinearInputsInFp8
                     ? "Transformer Engine saves the fp8 cast for the weight gradient: half the bytes."
                     : "torchao saves the high-precision input and casts again in backward.");
    } else {
        rows.add("Linear-layer GEMM inputs", half, kHalfBytes,
                 fp8Asked ? "This GPU has no fp8 tensor cores: fp8 falls back to " + half + " GEMMs."
                          : "Tensor-core GEMMs accumulate in fp32 and write " + half + ".");
    }
}

// Everything that stays in 16 or 32 bits in any case: attention, norms, router, logits, TP/PP traffic.
void addSixteenBitRows(PrecisionRows& rows) {
    const TrainingOptions& t = rows.scenario.training;
    const Scenario& s = rows.scenario;
    const ExecutionStyle style = rows.style;
    const Fp8Habits& f8 = rows.f8;
    const std::string& half = rows.half;
    if (unfusedSoftmaxFallback(s))
        rows.add("Attention core (QK^T, softmax, AV)", half + " scores, fp32 softmax", 4.0,
                 "Megatron's fused softmax kernel does not take this shape: PyTorch's softmax runs on an "
                 "fp32 copy of the s x s scores and saves its fp32 output for the backward pass.");
    else
        rows.add("Attention core (QK^T, softmax, AV)", half + ", fp32 softmax statistics", kHalfBytes,
                 fusedAttention(t)
                     ? "Flash attention keeps the scores on chip; only the fp32 log-sum-exp per row is saved."
                     : "The s x s scores and probabilities are written to memory in " + half + ".");
    rows.add("Norms, residual stream, activation functions", half + " (fp32 math)", kHalfBytes,
             "Normalisation statistics are computed in fp32; stored tensors stay 16-bit" +
                 std::string(f8.active ? ", fp8 never applies to them." : "."));
    if (s.model.isMoe())
        rows.add(
            "MoE router logits and probabilities", "fp32", 4,
            "Routing in fp32 keeps top-k choices stable (Megatron --moe-router-dtype fp32, DeepSeek-V3).");
    const CrossEntropy lossKind = lossKernel(t, style);
    const double lossBytes = lossBytesPerLogit(lossKind, style, s.layout.tp);
    if (lossKind == CrossEntropy::FusedLinear)
        rows.add("Logits and loss", "fp32, in chunks", 4,
                 "Fused linear cross-entropy: the logits are computed a chunk of tokens at a time, with "
                 "their gradient, and never held whole.");
    else
        rows.add("Logits and loss", half + " logits, fp32 softmax", kHalfBytes,
                 lossWords(lossKind, lossBytes));
    rows.add("Tensor/pipeline-parallel communication", half, kHalfBytes,
             "Activations and their gradients travel in 16 bits.");
}

// The gradients, their reduction and the weight all-gathers.
void addGradientRows(PrecisionRows& rows) {
    const TrainingOptions& t = rows.scenario.training;
    const bool megatron = rows.style == ExecutionStyle::Megatron;
    const ExecutionStyle style = rows.style;
    const Fp8Habits& f8 = rows.f8;
    const std::string& half = rows.half;
    const GradientFormat g = gradientFormat(rows.scenario, style);
    rows.add(
        "Weight gradients", g.held, g.heldBytes,
        !megatron          ? "Kept in bf16, reduced across ranks in fp32."
        : g.heldBytes >= 4 ? "Megatron accumulates every gradient in an fp32 main_grad buffer when "
                             "training in bf16 (--accumulate-allreduce-grads-in-fp32 is forced on)."
        : t.precision == Precision::Fp16
            ? "fp16 training keeps 16-bit main_grad buckets unless --accumulate-allreduce-grads-in-fp32 is "
              "given."
        : t.gradPrecision == GradPrecision::Auto
            ? "NVIDIA's Megatron-Core performance recipes keep 16-bit main_grad buckets "
              "(grad_reduce_in_fp32 = False), the habit on GPUs with fp8 tensor cores (grad_precision "
              "auto)."
            : "16-bit main_grad buckets, as stated (grad_precision half; Megatron-LM "
              "--grad-reduce-in-bf16).");
    rows.add("Gradient reduction (data parallel)", g.reduced, g.reduceBytes,
             !megatron            ? "FSDP2 MixedPrecisionPolicy(reduce_dtype=float32) as torchtitan sets it."
             : g.reduceBytes >= 4 ? "Megatron reduces the fp32 gradient buckets (reduce-scatter with the "
                                    "distributed optimizer, then an all-gather of the 16-bit weights)."
                                  : "Megatron reduces the 16-bit gradient buckets.");
    if (t.zeroStage >= 1) {
        const bool fp8Gathers = f8.active && t.fp8ParamGather;
        rows.add(t.zeroStage >= 3 ? "Weight all-gathers (ZeRO-3/FSDP, per layer)"
                                  : "Weight all-gather (after the step)",
                 fp8Gathers ? "fp8 e4m3 (linear weights)" : half, fp8Gathers ? 1.0 : kHalfBytes,
                 fp8Gathers ? "FP8 weight gathers: each weight travels as its fp8 cast (torchao's float8 "
                              "all-gather, Megatron-LM --fp8-param-gather), half the bytes."
                            : "Each rank gathers the weights the others hold in the working precision.");
    }
}

// The optimizer state and, in fp16, the loss scale.
void addOptimizerRows(PrecisionRows& rows) {
    const TrainingOptions& t = rows.scenario.training;
    const bool sixteenBitMoments = t.optimizerPrecision != OptimizerPrecision::Fp32;
    if (t.optimizerPrecision == OptimizerPrecision::Bf16)
        rows.add("Master weights", "none", 0,
                 "The parameters are 16-bit themselves (a model built in bf16): the optimizer updates them "
                 "in place.");
    else
        rows.add("Master weights", "fp32", 4,
                 "The optimizer updates an fp32 copy and writes the 16-bit working copy from it.");
    if (t.optimizer == Optimizer::Adam)
        rows.add("Adam moments (m, v)",
                 sixteenBitMoments ? "bf16, two per parameter" : "fp32, two per parameter",
                 sixteenBitMoments ? 2 : 4,
                 sixteenBitMoments ? "4 bytes per parameter: half the fp32 moments' memory and traffic."
                                   : "8 bytes per parameter with the master weight's 4: the largest part of "
                                     "the training state.");
    else
        rows.add("Momentum", sixteenBitMoments ? "bf16" : "fp32", sixteenBitMoments ? 2 : 4,
                 sixteenBitMoments ? "One 16-bit value per parameter." : "One fp32 value per parameter.");
    if (t.precision == Precision::Fp16)
        rows.add("Loss scale", "fp32 scalar", 4,
                 "fp16 needs dynamic loss scaling to keep small gradients representable.");
}

} // namespace

std::vector<TensorPrecision> precisionTable(const Scenario& s) {
    const ExecutionStyle style = resolvedStyle(s.training);
    PrecisionRows rows{
        s, style, fp8Habits(s, style), s.training.precision == Precision::Fp16 ? "fp16" : "bf16", {}};
    addWeightRows(rows);
    addGemmRows(rows);
    addSixteenBitRows(rows);
    addGradientRows(rows);
    addOptimizerRows(rows);
    return std::move(rows.table);
}

} // namespace lp::core
