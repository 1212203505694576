#pragma once
// Documented habits of each framework's execution style (justified in docs/estimation.md).
// These are per framework, never per measured case.
#include "core/model/Enums.h"
#include "core/model/Hardware.h"
#include "core/model/Scenario.h"

#include <string>

namespace lp::core {

struct StyleTraits {
    // Host-side cost of dispatching one decoder layer's forward kernels (eager PyTorch); the backward
    // counts twice. When the GPU work per layer is small the GPU waits for the host; large layers hide it.
    double hostSecondsPerLayerPass = 0;
    // Kernels that make up one such forward pass, each launched with its Python, dispatch and autograd
    // bookkeeping: hostSecondsPerLayerPass / hostKernelsPerLayerPass is the host cost of one kernel.
    double hostKernelsPerLayerPass = 20;
    // The attention-core softmax without flash attention is Megatron's fused scale-mask-softmax kernel,
    // which runs only for shapes it supports (megatronFusedSoftmaxFits); other shapes fall back to
    // PyTorch's softmax in fp32. False: the style's own (eager) softmax, whatever the shape.
    bool fusedSoftmaxHasShapeRules = false;
    // Fixed cost of one blocking tensor-parallel collective (kernel launch and stream synchronisation).
    double collectiveLaunchSeconds = 0;
    // Data-parallel gradient reduction overlaps the backward pass of the last micro batch.
    bool overlapGradReduce = true;
    double gradReduceBytesPerParam = 2;        // 16-bit (Megatron) or fp32 (FSDP reduce_dtype)
    double fsdpLayersInFlight = 2;             // ZeRO-3: gathered layers held at once (current + prefetch)
    bool fsdpKeepsStageGatheredWithPp = false; // ZeRO-3 with PP: no reshard between micro batches
    double selectiveMatmulRecompute = 0;       // forward matmul FLOPs that "selective" recomputes
    double selectiveActivationKeep = 1;        // fraction of non-attention-core activations "selective" keeps
    double cudaContextBytes = 0;               // CUDA context, cuBLAS/cuDNN workspaces
    double commBufferBytes = 0;                // NCCL buffers and gradient buckets beyond the model state
    // Memory traffic of the elementwise work (norms, activation, rotary, residuals) relative to fused
    // kernels: Megatron ships fused kernels (1); eager PyTorch runs each op as its own kernel.
    double elementwiseTrafficFactor = 1;
    // How much host dispatch time hides behind GPU work: exposed = host * (host / (host + gpu))^exponent.
    double hostHidingExponent = 1;
    // Attention through torch's scaled_dot_product_attention, whose flash backend runs FlashAttention-2
    // kernels (cuDNN's stays opt-in until torch 2.11 bundles cuDNN 9.15): the profile's FA2 forward
    // efficiency where it has one. Megatron-Core runs Transformer Engine's fused attention (cuDNN).
    bool torchSdpaAttention = false;
    // Fixed cost of one pipeline send/receive pair (blocking p2p synchronisation).
    double p2pFixedSeconds = 0;
    double logitsBytesPerElement = 6; // loss-time copies of the logits (16-bit + fp32, or more unfused)
    // FP8 training (Transformer Engine or torchao Float8Linear).
    double fp8WeightCopyBytesPerParam = 0; // fp8 weight copies kept beside the 16-bit weights
    bool fp8SavesLinearInputs = false;     // linear-layer inputs saved for backward as fp8 casts
    int fp8AmaxHistoryLength = 0;          // delayed scaling history per fp8 tensor (0: dynamic scaling)
    // Context parallelism as torch's context_parallel runs it (torchtitan): K and V reach the attention call
    // already repeated to every query head, dK/dV travel the ring in fp32, and partial results merge in fp32.
    bool cpTorchRingAttention = false;
    // The K/V exchange CpExchange::Auto means: Megatron's Transformer Engine ring (p2p), or torch's
    // default rotate method, one all-gather of every rank's chunk that only the first (local) step hides.
    CpExchange cpDefaultExchange = CpExchange::Ring;
    // Tensor parallelism as torch's DTensor plans run it (torchtitan): a column-parallel linear receives its
    // input all-gathered along the sequence (PrepareModuleInput to Replicate), so autograd saves the whole
    // gathered tensor, not the sequence shard that Megatron saves and gathers again in backward; and the loss
    // runs under loss_parallel on the vocabulary-sharded logits (kLossParallelBytesPerLogit).
    bool torchTensorParallel = false;
    // Pipeline parallelism as torch.distributed.pipelining runs it (torchtitan): every stage allocates, once,
    // a receive buffer per micro batch for its input activations (unless it is the first stage) and for the
    // gradients of its output (unless it is the last), and keeps each in-flight micro batch's output until
    // its backward. Megatron-LM receives into short-lived tensors and frees the sent output's data
    // (deallocate_pipeline_outputs).
    bool torchPipelineBuffers = false;
};

// Memory traffic of the elementwise work relative to fused kernels, as planned: the style's habit, or the
// fused kernels' 1 when the model is compiled (torch.compile fuses eager chains; Megatron's are fused
// already).
double elementwiseTrafficFactor(const TrainingOptions& t, ExecutionStyle style);

// Memory the loss takes per logit: an eager fp32 loss (upcast, log-probs and their gradient, the input
// gradient), a fused kernel (16-bit logits + one fp32 buffer), or a torch.compile'd loss (Inductor's
// partitioner saves the 16-bit logits and the per-row log-sum-exp rather than the fp32 log-probs, and the
// backward's one kernel writes the 16-bit gradient: the logits and their gradient, 2 + 2 bytes).
inline constexpr double kUnfusedLossBytesPerLogit = 12;
inline constexpr double kFusedLossBytesPerLogit = 6;
inline constexpr double kCompiledLossBytesPerLogit = 4;
// flash-attn's cross_entropy kernel (xentropy; llm-foundry's MPT "fused_crossentropy") saves the 16-bit
// logits and the per-row log-sum-exp, and its backward writes a 16-bit gradient: 2 + 2 bytes, as a compiled
// loss.
inline constexpr double kFused16LossBytesPerLogit = 4;
// A training metric computed from the logits after the backward (Composer's LanguageCrossEntropy: an eager
// F.cross_entropy under autocast, without gradient): the held 16-bit logits, their fp32 upcast and the fp32
// log-probs, 2 + 4 + 4 bytes, while the layers' activations are already freed. Its traffic is the eager
// loss's forward: upcast (2 + 4), max (4), sum of exponentials (4), log-probs written (4 + 4).
inline constexpr double kLogitsMetricBytesPerLogit = 10;
inline constexpr double kLogitsMetricTrafficPerLogit = 22;
// torch's loss_parallel (the eager loss on vocabulary-sharded logits,
// torch.distributed.tensor.parallel.loss): its nll-loss backward builds the gradient as (zeros +
// exp(log-probs)) x grad while the saved fp32 log-probs and the zeros are still held: four fp32 tensors per
// logit at the peak.
inline constexpr double kLossParallelBytesPerLogit = 16;
// The loss kernel the plan assumes: the scenario's choice, where Auto in the FSDP style with the model
// compiled is the compiled loss, as torchtitan compiles it (docs/estimation.md, "Activations"). Otherwise
// Auto stays the style's habit.
CrossEntropy lossKernel(const TrainingOptions& t, ExecutionStyle style);
// Bytes per logit the scenario's loss kernel holds (its style's habit for CrossEntropy::Auto; 0 for a
// fused linear cross-entropy, which computes the logits in chunks and never holds them whole). tp: the
// tensor-parallel degree (an eager loss in the torch style runs under loss_parallel when it is above 1).
double lossBytesPerLogit(CrossEntropy kernel, ExecutionStyle style, int tp);
// Memory traffic per logit of the loss, forward and backward, beyond the output layer's GEMMs: 52 bytes for
// Megatron-LM's vocab-parallel cross-entropy, 44 for an eager fp32 loss (76 under torch's loss_parallel), 8
// compiled, 6 fused, 4 fused with the output layer (docs/estimation.md, "Step time", output layer and loss).
double lossTrafficBytesPerLogit(CrossEntropy kernel, ExecutionStyle style, int tp);
// Every pass over the logits per micro batch: the planned loss kernel's, and the training metrics' eager
// forward passes (TrainingOptions::logitsMetricPasses).
double logitsTrafficBytesPerLogit(const TrainingOptions& t, ExecutionStyle style, int tp);

// Megatron-LM's FusedScaleMaskSoftmax.is_kernel_available for a causal mask: 16 < s <= 4096, s a multiple
// of 4, and micro batch x attention heads per TP rank a multiple of the kernel's batches per block (4, or 8
// for s <= 128). Megatron-DeepSpeed and Megatron-LM releases of 2021 also need s <= 2048 there.
bool megatronFusedSoftmaxFits(long long microBatch, long long headsPerTpRank, long long seqLen);
// True when the scenario's attention softmax falls back to PyTorch's in fp32: no flash attention, a style
// whose fused kernel has shape rules (Megatron), and a shape megatronFusedSoftmaxFits refuses.
bool unfusedSoftmaxFallback(const Scenario& s);
// Kernels the unfused fallback adds to every forward pass of a layer (the fp32 upcast, the scaling, the
// masked fill and the 16-bit downcast around PyTorch's softmax, in place of one fused kernel) and, through
// their autograd nodes, to its backward pass: each at the host cost of one kernel.
inline constexpr double kUnfusedSoftmaxExtraKernels = 4;

const StyleTraits& styleTraits(ExecutionStyle style);
// Whether a fused attention kernel runs: attention_kernel where it names one (unfused: none), else
// flash_attention.
bool fusedAttention(const TrainingOptions& t);
// The attention kernel a plan times (docs/estimation.md, "Attention kernels"): attention_kernel, or for auto
// the style's (FlashAttention-2 where it calls torch SDPA, the GPU's fused attention, cuDNN, otherwise), or
// unfused without a fused kernel. FlashAttention-3 where the profile has no figures for it (not Hopper)
// runs as the GPU's fused attention (attentionKernelFallsBack says so).
AttentionKernel attentionKernelOf(const TrainingOptions& t, ExecutionStyle style,
                                  const KernelEfficiencies& k);
// The attention kernel `resolved` (attentionKernelOf) as reports, exports and validation tables word it:
// "FlashAttention-2", "FlashAttention-3", "cuDNN fused attention" or "unfused attention", with " (framework
// default)" where attention_kernel is auto (" (flash attention off)" where that leaves none) and the reason
// where FlashAttention-3 fell back.
std::string attentionKernelText(const TrainingOptions& t, AttentionKernel resolved);
bool attentionKernelFallsBack(const TrainingOptions& t, const KernelEfficiencies& k);
// The scenario's context-parallel K/V exchange, Auto resolved by the style.
CpExchange cpExchangeOf(const TrainingOptions& t, ExecutionStyle style);
// Mutable access for the calibration tool (tests/bench/tune_model); the application never changes them.
StyleTraits& mutableStyleTraits(ExecutionStyle style);

} // namespace lp::core
