#include "core/estimate/ExecutionStyle.h"

#include "core/model/Units.h"

#include <algorithm>

namespace lp::core {

namespace {

StyleTraits megatron() {
    StyleTraits t;
    t.hostSecondsPerLayerPass = 1.275e-3; // ~20 kernels x ~64 us (2021-22 Megatron-LM/DeepSpeed, A100 hosts)
    t.hostKernelsPerLayerPass = 20; // 2 norms, QKV/out/MLP GEMMs, 2 attention bmm, softmax, 2 dropouts, the
                                    // context permute, bias-GeLU, 2 bias-dropout-adds, 2 all-reduces
    t.fusedSoftmaxHasShapeRules = true; // FusedScaleMaskSoftmax falls back to torch softmax on other shapes
    t.collectiveLaunchSeconds = 10e-6;
    t.overlapGradReduce = false; // Megatron-LM: --overlap-grad-reduce is off unless asked for
    t.gradReduceBytesPerParam = 2;
    t.fsdpLayersInFlight = 2;
    t.selectiveMatmulRecompute = 0.0; // Korthikanti: selective recomputes only the attention core
    t.selectiveActivationKeep = 1.0;
    t.cudaContextBytes = 0.75 * kGiB;
    t.commBufferBytes = 0.5 * kGiB;
    t.elementwiseTrafficFactor = 1.0; // fused LayerNorm, bias-GeLU, bias-dropout-add, softmax kernels
    t.hostHidingExponent = 3.75;
    t.p2pFixedSeconds = 0.0;
    t.logitsBytesPerElement =
        kFusedLossBytesPerLogit;      // vocab-parallel cross-entropy: 16-bit logits + fp32 copy
    t.fp8WeightCopyBytesPerParam = 2; // Transformer Engine caches the fp8 weight and its transpose per step
    t.fp8SavesLinearInputs = true;    // TE saves the fp8 cast of each linear input for the weight gradient
    t.fp8AmaxHistoryLength = 1024;    // delayed scaling, --fp8-amax-history-len 1024 in Megatron/NeMo recipes
    return t;
}

StyleTraits fsdp() {
    StyleTraits t;
    t.hostSecondsPerLayerPass = 0.2e-3;
    t.hostKernelsPerLayerPass = 40; // eager RMSNorm, rotary and SwiGLU: more, smaller kernels
    t.collectiveLaunchSeconds = 30e-6;
    t.overlapGradReduce = true;
    t.gradReduceBytesPerParam = 4;         // torchtitan / FSDP2 MixedPrecisionPolicy reduce_dtype=float32
    t.fsdpLayersInFlight = 2;              // reshard_after_forward with one layer of prefetch
    t.fsdpKeepsStageGatheredWithPp = true; // torchtitan: reshard_after_forward = not pp_enabled; gradients
                                           // reduce-scattered after the last micro batch only
    t.selectiveMatmulRecompute = 0.4;      // torchtitan "op" SAC recomputes every second matmul (wk, wo, w3)
    t.selectiveActivationKeep = 0.5;       // ... and keeps about half of a layer's tensors
    t.cudaContextBytes = 0.75 * kGiB;
    t.commBufferBytes = 0.5 * kGiB;
    t.elementwiseTrafficFactor = 2.0; // eager RMSNorm (fp32 upcast), SiLU*mul, rotary: one kernel per op
    t.hostHidingExponent = 1.0;
    t.p2pFixedSeconds = 0.0;
    t.logitsBytesPerElement = kUnfusedLossBytesPerLogit; // eager loss, peak in log_softmax backward: fp32
                                                         // log-probs, their gradient and the input gradient
                                                         // (torchtitan frees the bf16 logits)
    t.fp8WeightCopyBytesPerParam = 0; // torchao Float8Linear casts the (gathered) bf16 weight on the fly
    t.fp8SavesLinearInputs = false;   // ... and saves the high-precision input for backward
    t.fp8AmaxHistoryLength = 0;       // tensorwise dynamic scaling: scales computed from the current amax
    t.torchSdpaAttention = true;
    t.cpTorchRingAttention = true; // torch.distributed.tensor.experimental.context_parallel: repeat_kv before
    t.cpDefaultExchange = CpExchange::AllGather; // SDPA, convert_to_f32, rotate_method "allgather"
    t.torchTensorParallel = true; // DTensor TP plans: gathered linear inputs saved whole, loss_parallel
    t.torchPipelineBuffers =
        true; // torch.distributed.pipelining: per-micro-batch receive buffers, cached outputs
    return t;
}

} // namespace

StyleTraits& mutableStyleTraits(ExecutionStyle style) {
    static StyleTraits kMegatron = megatron();
    static StyleTraits kFsdp = fsdp();
    return style == ExecutionStyle::Fsdp ? kFsdp : kMegatron;
}

const StyleTraits& styleTraits(ExecutionStyle style) {
    return mutableStyleTraits(style);
}

double elementwiseTrafficFactor(const TrainingOptions& t, ExecutionStyle style) {
    const double habit = styleTraits(style).elementwiseTrafficFactor;
    return t.torchCompile || t.fusedKernels ? std::min(habit, 1.0) : habit;
}

CpExchange cpExchangeOf(const TrainingOptions& t, ExecutionStyle style) {
    return t.cpExchange == CpExchange::Auto ? styleTraits(style).cpDefaultExchange : t.cpExchange;
}

bool fusedAttention(const TrainingOptions& t) {
    return t.attentionKernel == AttentionKernel::Auto ? t.flashAttention
                                                      : t.attentionKernel != AttentionKernel::Unfused;
}

bool attentionKernelFallsBack(const TrainingOptions& t, const KernelEfficiencies& k) {
    return t.attentionKernel == AttentionKernel::FlashAttention3 && !(k.fa3AttentionFwdEfficiency > 0);
}

AttentionKernel attentionKernelOf(const TrainingOptions& t, ExecutionStyle style,
                                  const KernelEfficiencies& k) {
    if (!fusedAttention(t))
        return AttentionKernel::Unfused;
    if (t.attentionKernel == AttentionKernel::Auto)
        return styleTraits(style).torchSdpaAttention ? AttentionKernel::FlashAttention2
                                                     : AttentionKernel::Cudnn;
    return attentionKernelFallsBack(t, k) ? AttentionKernel::Cudnn : t.attentionKernel;
}

std::string attentionKernelText(const TrainingOptions& t, AttentionKernel resolved) {
    std::string name;
    switch (resolved) {
    case AttentionKernel::FlashAttention2:
        name = "FlashAttention-2";
        break;
    case AttentionKernel::FlashAttention3:
        name = "FlashAttention-3";
        break;
    case AttentionKernel::Cudnn:
        name = "cuDNN fused attention";
        break;
    case AttentionKernel::Auto:
    case AttentionKernel::Unfused:
        name = "unfused attention";
        break;
    }
    if (t.attentionKernel == AttentionKernel::Auto)
        name += resolved == AttentionKernel::Unfused ? " (flash attention off)" : " (framework default)";
    else if (t.attentionKernel != resolved)
        name += " (FlashAttention-3 needs Hopper)";
    return name;
}

bool unfusedSoftmaxFallback(const Scenario& s) {
    const Layout& l = s.layout;
    return !fusedAttention(s.training) && styleTraits(resolvedStyle(s.training)).fusedSoftmaxHasShapeRules &&
           !megatronFusedSoftmaxFits(l.microBatch, s.model.heads / std::max(1, l.tp), s.model.seqLen);
}

bool megatronFusedSoftmaxFits(long long microBatch, long long headsPerTpRank, long long seqLen) {
    const long long batches = microBatch * headsPerTpRank;
    const long long perBlock = seqLen <= 128 ? 8 : 4; // warps per 128-thread block x rows per warp
    return seqLen > 16 && seqLen <= 4096 && seqLen % 4 == 0 && batches % 4 == 0 && batches % perBlock == 0;
}

namespace {
// An eager fp32 loss on logits that torch's tensor parallelism leaves sharded over the vocabulary.
bool lossParallel(CrossEntropy kernel, ExecutionStyle style, int tp) {
    const bool eager = kernel == CrossEntropy::Unfused ||
                       (kernel == CrossEntropy::Auto &&
                        styleTraits(style).logitsBytesPerElement == kUnfusedLossBytesPerLogit);
    return eager && tp > 1 && styleTraits(style).torchTensorParallel;
}
} // namespace

CrossEntropy lossKernel(const TrainingOptions& t, ExecutionStyle style) {
    if (t.crossEntropy == CrossEntropy::Auto && style == ExecutionStyle::Fsdp && t.torchCompile)
        return CrossEntropy::Compiled;
    return t.crossEntropy;
}

double lossTrafficBytesPerLogit(CrossEntropy kernel, ExecutionStyle style, int tp) {
    if (lossParallel(kernel, style, tp))
        return 76.0;
    switch (kernel) {
    case CrossEntropy::Unfused:
        return 44.0;
    case CrossEntropy::Fused:
        return 6.0;
    case CrossEntropy::FusedLinear:
        return 4.0;
    case CrossEntropy::Compiled:
        return 8.0;
    case CrossEntropy::Fused16:
        return 8.0;
    case CrossEntropy::Auto:
        break;
    }
    return style == ExecutionStyle::Fsdp ? 44.0 : 52.0;
}

double logitsTrafficBytesPerLogit(const TrainingOptions& t, ExecutionStyle style, int tp) {
    return lossTrafficBytesPerLogit(lossKernel(t, style), style, tp) +
           std::max(0, t.logitsMetricPasses) * kLogitsMetricTrafficPerLogit;
}

double lossBytesPerLogit(CrossEntropy kernel, ExecutionStyle style, int tp) {
    if (lossParallel(kernel, style, tp))
        return kLossParallelBytesPerLogit;
    switch (kernel) {
    case CrossEntropy::Unfused:
        return kUnfusedLossBytesPerLogit;
    case CrossEntropy::Fused:
        return kFusedLossBytesPerLogit;
    case CrossEntropy::FusedLinear:
        return 0.0;
    case CrossEntropy::Compiled:
        return kCompiledLossBytesPerLogit;
    case CrossEntropy::Fused16:
        return kFused16LossBytesPerLogit;
    case CrossEntropy::Auto:
        break;
    }
    return styleTraits(style).logitsBytesPerElement;
}

} // namespace lp::core
