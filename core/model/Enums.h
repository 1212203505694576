#pragma once
// Small enums shared by the whole core, with their stable spellings in files and on the command line.
#include <optional>
#include <string>
#include <string_view>

namespace lp::core {

enum class MlpKind { Gelu, SwiGlu };
enum class NormKind { LayerNorm, RmsNorm };
enum class AttentionKind { Standard, Mla }; // multi-head / grouped-query, or multi-head latent
enum class Precision { Bf16, Fp16, Fp8 };
enum class Optimizer { Adam, SgdMomentum };
enum class Recompute { None, Selective, Full };
// Megatron-Core's selective recompute by module (--recompute-modules): bits of
// TrainingOptions::recomputeModules. core_attn: the attention core (Korthikanti's selective recompute, the
// default); layernorm: the outputs of the norms that are separate modules; mla_up_proj: MLA's
// up-projections and rotary (q, k, v); mlp: dense layers' MLP; moe_act: the routed experts' activation
// function; shared_experts: the shared experts' MLP; moe: the whole MoE block.
enum RecomputeModule : unsigned {
    kRecomputeCoreAttn = 1u << 0,
    kRecomputeLayerNorm = 1u << 1,
    kRecomputeMlaUpProj = 1u << 2,
    kRecomputeMlp = 1u << 3,
    kRecomputeMoeAct = 1u << 4,
    kRecomputeSharedExperts = 1u << 5,
    kRecomputeMoe = 1u << 6,
};
inline constexpr unsigned kRecomputeModulesDefault = kRecomputeCoreAttn;
inline constexpr unsigned kRecomputeModulesAll = (1u << 7) - 1;
// How a framework schedules work: Megatron-LM (TP/PP/DP with bucketed gradient all-reduce or the
// distributed optimizer) or FSDP-style (PyTorch FSDP2 / torchtitan / DeepSpeed ZeRO-3: per-layer
// gathers prefetched one layer ahead). Auto picks FSDP when ZeRO stage 3 is used, Megatron otherwise.
enum class ExecutionStyle { Auto, Megatron, Fsdp };
// Gradient buffer and data-parallel reduction format: the framework's default (Auto: Megatron keeps
// fp32 main grads in bf16/fp8, 16-bit in fp16; FSDP keeps bf16 and reduces in fp32), fp32, or the
// training's 16-bit type (Half: Megatron --grad-reduce-in-bf16, NeMo grad_reduce_in_fp32=False).
enum class GradPrecision { Auto, Fp32, Half };
// The loss kernel, which sets how much memory the logits take at the loss: the framework's default
// (Auto: Megatron's fused vocab-parallel cross-entropy; the FSDP style's eager fp32 loss, or its compiled
// loss when the model is compiled), an unfused eager loss (fp32 upcast, log-probs and their gradient:
// 12 bytes per logit), a fused one (Megatron's kernel: 16-bit logits + one fp32 buffer, 6 bytes), a
// torch.compile'd eager loss (Inductor saves the 16-bit logits, recomputes the softmax in backward and
// writes a 16-bit gradient: 4 bytes), a fused linear cross-entropy that never holds the whole logits
// (Liger, Cut Cross-Entropy, NeMo AutoModel), or a fused kernel on the 16-bit logits that writes a 16-bit
// gradient (flash-attn's cross_entropy, llm-foundry's MPT default: 4 bytes).
enum class CrossEntropy { Auto, Unfused, Fused, FusedLinear, Compiled, Fused16 };
// What the optimizer keeps per parameter beyond the 16-bit weights and gradients: an fp32 master copy and
// fp32 moments (Fp32: mixed precision as the ZeRO paper counts it, 12 bytes with Adam), an fp32 master copy
// with 16-bit moments (Bf16Moments: Megatron-Core's precision-aware optimizer with --exp-avg-dtype and
// --exp-avg-sq-dtype bf16, DeepSeek-V3's training: 8 bytes), or 16-bit moments and no master copy, the
// parameters themselves being 16-bit (Bf16: a model built in bf16 and trained with torch.optim.Adam, as NeMo
// AutoModel's own models are: 4 bytes).
enum class OptimizerPrecision { Fp32, Bf16Moments, Bf16 };
// What selective recompute keeps when a run names a JAX/MaxText rematerialization policy (MaxText's
// remat_policy; Auto: the execution style's own selective recompute). A policy names the matmul outputs
// that may be saved (q/k/v projections, the attention output "context", the output projection, the MLP's
// up-projections "mlpwi" and down-projection "mlpwo"); JAX saves those of them that the backward needs, with
// the layer's input, and re-runs the rest: minimal_with_context (MaxText's minimal_flash) saves all;
// minimal every one but the context (flash attention re-runs); save_dot_with_context_except_mlp the
// attention's; save_dot_except_mlp and save_dot_except_mlpwi the projections without the context (alike:
// the down-projection's output, mlpwo, is never needed); save_qkv_proj and save_out_proj one each.
enum class RematPolicy {
    Auto,
    MinimalWithContext,
    Minimal,
    SaveDotWithContextExceptMlp,
    SaveDotExceptMlpwi,
    SaveDotExceptMlp,
    SaveQkvProj,
    SaveOutProj,
};
// The tensors the backward needs that a remat policy saves (all for Auto, which names none).
struct RematSaves {
    bool qkv = true;     // the q, k and v projections' outputs
    bool context = true; // the attention's output (with flash attention, its softmax statistics too;
                         // unfused attention re-runs anyway, for the probabilities no policy saves)
    bool outProj = true; // the output projection's output (with the input, the MLP norm's input)
    bool mlpwi = true;   // the MLP's up-projection outputs (gate and up)
};
RematSaves rematSaves(RematPolicy p);
// How context-parallel ranks exchange their key/value chunks: the style's default (Auto: Megatron's
// Transformer Engine ring, torch's all-gather in the FSDP style), a ring that sends one chunk per step
// behind that step's attention (Megatron --cp-comm-type p2p, torchtitan context_parallel_rotate_method
// "alltoall"), or one all-gather of every chunk that only the first step hides (torchtitan "allgather",
// Megatron --cp-comm-type all_gather).
enum class CpExchange { Auto, Ring, AllGather };
// What the pipeline split divides among the PP x VPP chunks: the decoder layers only (Layers), or the
// layers plus the embedding and the loss as one layer each (EmbeddingAndLoss: Megatron-LM's
// --account-for-embedding-in-pipeline-split and --account-for-loss-in-pipeline-split, torchtitan's
// input and output weights), which lets 126 layers run on 128 chunks. Auto counts them where the split
// needs it (see pipelineSplitCountsEmbeddingAndLoss in Scenario.h).
enum class PipelineSplit { Auto, Layers, EmbeddingAndLoss };
// How MoE tokens travel to their experts in an expert-parallel group that spans several NVLink domains:
// an all-to-all of every top-k copy (Megatron-Core's alltoall dispatcher), or a dispatcher that sends each
// token once to every other domain holding one of its experts and forwards it there over NVLink
// (DeepSeek's DeepEP, Megatron-Core's flex dispatcher with DeepEP or HybridEP), fp8 tokens in fp8 training.
enum class MoeDispatcher { AllToAll, Deduplicated };
// Attention score FLOPs: counted in full (PaLM / Megatron convention) or halved for causal kernels.
enum class AttentionFlops { Full, Causal };
// The attention kernel the trainer runs: the execution style's own (Auto: torch SDPA's FlashAttention-2
// backend in the FSDP style, the GPU's fused attention, Transformer Engine / cuDNN, in the Megatron style),
// Tri Dao's FlashAttention-2 or -3 (Hopper only), cuDNN's fused attention (Transformer Engine, torch SDPA's
// cuDNN backend), or no fused kernel: the scores pass through HBM (eager / SDPA math). docs/estimation.md,
// "Attention kernels".
enum class AttentionKernel { Auto, FlashAttention2, FlashAttention3, Cudnn, Unfused };
// The order in which a pipeline runs its micro batches' forwards and backwards: 1F1B (PipeDream-Flush,
// Megatron-LM and torchtitan's default; interleaved when the layout has virtual stages), GPipe (all forwards,
// then all backwards: the same bubble, every micro batch's activations held at once), or zero-bubble ZB-H1
// (Qi et al. 2024: the backward split into its input and weight gradients, the weight gradients filling the
// bubble at 1F1B's memory).
enum class PipelineSchedule { OneFOneB, GPipe, ZeroBubbleH1 };
// What one ZeRO-3 weight all-gather fetches: a whole layer (PyTorch FSDP/FSDP2 wrapping each transformer
// block, torchtitan, MaxText) or one linear module at a time (DeepSpeed ZeRO-3, which gathers each
// submodule's parameters in its forward and backward pre-hooks and prefetches the next ones up to
// stage3_prefetch_bucket_size). docs/estimation.md, "ZeRO-3 / FSDP".
enum class Zero3Gather { Layer, Module };
// A switch whose default depends on the rest of the scenario: Auto takes the execution style's habit for
// the GPU (docs/estimation.md, "Communication overlap"), On and Off are what the user stated.
enum class Toggle { Auto, Off, On };
enum class Severity { Info, Warning, Error };

std::string_view toString(MlpKind v);
std::string_view toString(NormKind v);
std::string_view toString(AttentionKind v);
std::string_view toString(Precision v);
std::string_view toString(Optimizer v);
std::string_view toString(Recompute v);
std::string_view toString(ExecutionStyle v);
std::string_view toString(GradPrecision v);
std::string_view toString(CrossEntropy v);
std::string_view toString(OptimizerPrecision v);
std::string_view toString(RematPolicy v);
std::string_view toString(CpExchange v);
std::string_view toString(PipelineSplit v);
std::string_view toString(MoeDispatcher v);
std::string_view toString(AttentionFlops v);
std::string_view toString(AttentionKernel v);
std::string_view toString(PipelineSchedule v);
std::string_view toString(Zero3Gather v);
std::string_view toString(Toggle v);
std::string_view toString(Severity v);

std::optional<MlpKind> parseMlpKind(std::string_view s);
std::optional<NormKind> parseNormKind(std::string_view s);
std::optional<AttentionKind> parseAttentionKind(std::string_view s);
std::optional<Precision> parsePrecision(std::string_view s);
std::optional<Optimizer> parseOptimizer(std::string_view s);
std::optional<Recompute> parseRecompute(std::string_view s);
std::optional<ExecutionStyle> parseExecutionStyle(std::string_view s);
std::optional<GradPrecision> parseGradPrecision(std::string_view s);
std::optional<CrossEntropy> parseCrossEntropy(std::string_view s);
std::optional<OptimizerPrecision> parseOptimizerPrecision(std::string_view s);
std::optional<RematPolicy> parseRematPolicy(std::string_view s); // also MaxText's old name minimal_flash
std::optional<CpExchange> parseCpExchange(std::string_view s);
std::optional<PipelineSplit> parsePipelineSplit(std::string_view s);
std::optional<MoeDispatcher> parseMoeDispatcher(std::string_view s);
std::optional<AttentionFlops> parseAttentionFlops(std::string_view s);
std::optional<AttentionKernel> parseAttentionKernel(std::string_view s);   // also fa2, fa3, te, math, ...
std::optional<PipelineSchedule> parsePipelineSchedule(std::string_view s); // also torchtitan's names
std::optional<Zero3Gather> parseZero3Gather(std::string_view s);
std::optional<Toggle> parseToggle(std::string_view s); // auto, on, off (also true, false)

// Recompute modules: Megatron-Core's spellings, one bit each, in Megatron's order.
struct RecomputeModuleName {
    RecomputeModule bit;
    std::string_view name;
};
inline constexpr RecomputeModuleName kRecomputeModuleNames[] = {
    {kRecomputeCoreAttn, "core_attn"},
    {kRecomputeMoeAct, "moe_act"},
    {kRecomputeLayerNorm, "layernorm"},
    {kRecomputeMlaUpProj, "mla_up_proj"},
    {kRecomputeMlp, "mlp"},
    {kRecomputeMoe, "moe"},
    {kRecomputeSharedExperts, "shared_experts"},
};
std::optional<RecomputeModule> parseRecomputeModule(std::string_view s);
// "core_attn,mla_up_proj" (the given separator between names); empty for none.
std::string recomputeModulesText(unsigned modules, std::string_view separator = ",");
// A comma-separated list (spaces ignored) into bits; the first unknown name in `bad` and nullopt if any.
std::optional<unsigned> parseRecomputeModules(std::string_view list, std::string* bad = nullptr);

} // namespace lp::core
