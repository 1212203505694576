#include "ui/scenario/TrainingEditor.h"

#include "core/model/Limits.h"
#include "ui/document/ScenarioDocument.h"
#include "ui/scenario/FormBinder.h"
#include "ui/widgets/CollapsibleSection.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>

namespace lp::ui {
namespace {

using core::TrainingOptions;
using Kind = FormField::Kind;

template <auto Member> ScenarioValue training() {
    return scenarioValue<&core::Scenario::training, Member>();
}

// A switch with an automatic default (core::Toggle): the box shows what the plan uses (auto resolved, as
// Resolve says), and a click states it on or off.
template <core::Toggle TrainingOptions::*Member, bool (*Resolve)(const core::Scenario&)>
ScenarioValue toggle() {
    return {[](const core::Scenario& s) { return Resolve(s) ? 1.0 : 0.0; },
            [](core::Scenario& s, double v) {
                s.training.*Member = v != 0 ? core::Toggle::On : core::Toggle::Off;
            }};
}

template <typename Enum> int option(Enum value) {
    return static_cast<int>(value);
}

// Always shown: what changes a plan most.
const std::vector<FormField> kMainFields = {
    {.kind = Kind::Choice,
     .label = "P&recision",
     .tip = "Number format of the matrix multiplications: bf16/fp16, or fp8 on GPUs that support it.",
     .value = training<&TrainingOptions::precision>(),
     .choices = {{"bf16", option(core::Precision::Bf16)},
                 {"fp16", option(core::Precision::Fp16)},
                 {"fp8", option(core::Precision::Fp8)}}},
    {.kind = Kind::Choice,
     .label = "&ZeRO stage",
     .tip = "How much training state is sharded over the data-parallel group: 1 optimizer state (Megatron "
            "distributed optimizer), 2 also gradients, 3 also weights (FSDP).",
     .value = training<&TrainingOptions::zeroStage>(),
     .choices = {{"0 (replicated)", 0},
                 {"1 (optimizer state)", 1},
                 {"2 (+ gradients)", 2},
                 {"3 (+ weights, FSDP)", 3}}},
    {.kind = Kind::Choice,
     .label = "Re&compute",
     .tip = "Activation checkpointing: selective recomputes the attention core (in the Megatron style, or "
            "the Recompute modules chosen under More training options), full recomputes whole layers (about "
            "30% more compute, far less activation memory).",
     .value = training<&TrainingOptions::recompute>(),
     .choices = {{"None", option(core::Recompute::None)},
                 {"Selective", option(core::Recompute::Selective)},
                 {"Full", option(core::Recompute::Full)}}},
    {.kind = Kind::Double,
     .label = "Token &budget",
     .tip = "Tokens to train on, for the training time and GPU-hours.",
     .value = training<&TrainingOptions::tokenBudget>(),
     .range = {1, 1e6, 0},
     .shown = {1e9, " B tokens"}},
};

// The optimizer, sharding and recompute, up to the recompute modules.
const std::vector<FormField> kMemoryFields = {
    {.kind = Kind::Choice,
     .label = "O&ptimizer",
     .tip = "Adam keeps two fp32 moments per parameter, SGD with momentum one.",
     .value = training<&TrainingOptions::optimizer>(),
     .choices = {{"Adam", option(core::Optimizer::Adam)},
                 {"SGD (momentum)", option(core::Optimizer::SgdMomentum)}}},
    {.kind = Kind::Choice,
     .name = "optimizerPrecision",
     .label = "Optimizer state",
     .tip = "What the optimizer keeps per parameter beside the 16-bit weights and gradients. fp32: an fp32 "
            "master copy and fp32 moments (12 bytes with Adam), mixed precision as the ZeRO paper counts it. "
            "bf16 moments: the fp32 master copy with 16-bit moments (8 bytes; Megatron-LM "
            "--use-precision-aware-optimizer --exp-avg-dtype bf16 --exp-avg-sq-dtype bf16, as DeepSeek-V3 "
            "trained). bf16 parameters: a model built in bf16 and trained with torch.optim.Adam keeps no "
            "master copy and 16-bit moments (4 bytes; NeMo AutoModel's own models).",
     .value = training<&TrainingOptions::optimizerPrecision>(),
     .choices = {{"fp32 master and moments", option(core::OptimizerPrecision::Fp32)},
                 {"bf16 moments", option(core::OptimizerPrecision::Bf16Moments)},
                 {"bf16 parameters, no master", option(core::OptimizerPrecision::Bf16)}}},
    {.kind = Kind::Int,
     .name = "zeroShardDegree",
     .label = "ZeRO shard &group",
     .tip = "Hybrid sharding: the data-parallel ranks one copy of the ZeRO/FSDP state is sharded over; the "
            "state is replicated across DP / this many groups and the gradient shards are all-reduced across "
            "the replicas. Sharding within a node keeps the weight gathers on NVLink at the cost of more "
            "memory per GPU. FSDP HYBRID_SHARD, torchtitan data_parallel_shard_degree, Megatron-LM "
            "--num-distributed-optimizer-instances, DeepSpeed MiCS (mics_shard_size). It must divide DP; "
            "'all DP ranks' (0) shards over the whole group. No effect with ZeRO-0.",
     .value = training<&TrainingOptions::zeroShardDegree>(),
     .range = {0, 1000000},
     .shown = {1, " DP ranks", "all DP ranks"}},
    {.kind = Kind::Int,
     .name = "recomputeLayers",
     .label = "Recompute &layers",
     .tip = "With full recompute: how many layers of each model chunk (a pipeline stage, or a virtual stage "
            "when interleaved) are recomputed; the others keep their activations. Fewer layers cost less "
            "recompute and take more memory. Megatron-LM --recompute-method block --recompute-num-layers N, "
            "NeMo activations_checkpoint_num_layers. 'every layer' (0) recomputes them all; no effect "
            "without full recompute.",
     .value = training<&TrainingOptions::recomputeLayers>(),
     .range = {0, 1000000},
     .shown = {1, " per chunk", "every layer"}},
};

const char* const kPipelineScheduleTip =
    "The order in which the pipeline runs its micro batches (with PP > 1). 1F1B: one forward, one "
    "backward, holding at most PP micro batches on the first stage (Megatron-LM and torchtitan's "
    "default; interleaved with virtual stages). GPipe: every forward, then every backward: the same "
    "bubble, but every stage holds all the micro batches' activations (one stage per rank only). "
    "ZB-H1 (Qi et al. 2024): the backward split into input and weight gradients, the weight "
    "gradients filling the bubble, at 1F1B's memory (torchtitan's InterleavedZeroBubble; Megatron-LM "
    "has none).";
const char* const kZero3GatherTip =
    "What one ZeRO-3 weight all-gather fetches (with ZeRO stage 3). Per layer: PyTorch FSDP/FSDP2, "
    "torchtitan and MaxText gather each transformer block at once. Per module: DeepSpeed ZeRO-3 gathers "
    "each linear module on its own (prefetched up to stage3_prefetch_bucket_size ahead), so every module "
    "pays the ring's latency, which grows with the data-parallel ranks.";
const char* const kRecomputeModulesTip =
    "With selective recompute in the Megatron style: the parts of each layer that are recomputed "
    "(Megatron-Core --recompute-modules). core_attn: the attention core (the default; nothing to recompute "
    "with flash attention); layernorm: the norms that are separate modules (MLA's input norm, a MoE layer's "
    "pre-MLP norm); mla_up_proj: MLA's up-projected q, k and v; mlp: a dense layer's MLP; moe_act: the "
    "routed experts' activation; shared_experts: the shared experts; moe: the whole MoE block, its token "
    "all-to-all included. Each frees its tensors and re-runs its forward once before the backward.";

// What the framework runs: remat policy, offloading, kernels and communication overlap.
const std::vector<FormField> kExecutionFields = {
    {.kind = Kind::Choice,
     .name = "rematPolicy",
     .label = "Remat polic&y",
     .tip = "With selective recompute: a JAX/MaxText rematerialization policy (remat_policy), which names "
            "the matmul outputs each layer saves; the backward re-runs the rest, and the norms, rotary and "
            "activation function. minimal_with_context (MaxText's minimal_flash) saves q/k/v, the attention "
            "output, the output projection and the MLP's up-projections; minimal all but the attention "
            "output (the attention re-runs); save_dot_with_context_except_mlp the attention's (the MLP's "
            "up-projections re-run); save_dot_except_mlp the projections only; save_qkv_proj and "
            "save_out_proj one each. It replaces the style's own selective recompute and the Recompute "
            "modules. Style's own: no policy.",
     .value = training<&TrainingOptions::rematPolicy>(),
     .choices = {{"Style's own", option(core::RematPolicy::Auto)},
                 {"minimal_with_context", option(core::RematPolicy::MinimalWithContext)},
                 {"minimal", option(core::RematPolicy::Minimal)},
                 {"save_dot_with_context_except_mlp", option(core::RematPolicy::SaveDotWithContextExceptMlp)},
                 {"save_dot_except_mlpwi", option(core::RematPolicy::SaveDotExceptMlpwi)},
                 {"save_dot_except_mlp", option(core::RematPolicy::SaveDotExceptMlp)},
                 {"save_qkv_proj", option(core::RematPolicy::SaveQkvProj)},
                 {"save_out_proj", option(core::RematPolicy::SaveOutProj)}}},
    {.kind = Kind::Bool,
     .name = "optimizerOffload",
     .label = "Optimizer state on the CPU",
     .tip = "Keep the fp32 master weights and Adam moments in host memory and run the optimizer step on the "
            "CPU (DeepSpeed zero_optimization.offload_optimizer, Megatron-LM --optimizer-cpu-offload); with "
            "ZeRO-2 or higher the gradient shard goes to the host too. Frees the optimizer state from the "
            "GPU; the step then runs at the speed of host memory, and the gradients and updated weights "
            "cross the host link.",
     .value = training<&TrainingOptions::optimizerOffload>()},
    {.kind = Kind::Int,
     .name = "activationOffloadLayers",
     .label = "Offload activations",
     .tip = "Copy the saved activations of this many layers of each stage to host memory after their forward "
            "pass and back before their backward pass (Megatron-LM --cpu-offloading "
            "--cpu-offloading-num-layers N, as NeMo's GB200 recipes do). The copies overlap with compute; "
            "what the host link cannot hide shows as 'Activation offload' in the step time.",
     .value = training<&TrainingOptions::activationOffloadLayers>(),
     .range = {0, 1000000},
     .shown = {1, " layers", "none"}},
    {.kind = Kind::Bool,
     .label = "Sequence parallel",
     .tip = "Shard the norms' and dropouts' activations over the TP group (Megatron SP).",
     .value = training<&TrainingOptions::sequenceParallel>()},
    {.kind = Kind::Bool,
     .label = "Flash attention",
     .tip = "Fused attention kernels that never store the s x s score matrix.",
     .value = training<&TrainingOptions::flashAttention>()},
    {.kind = Kind::Bool,
     .name = "torchCompile",
     .label = "torch.compile",
     .tip = "The model compiled with torch.compile (torchtitan [compile] enable, components \"model\"): "
            "Inductor fuses the norms with their fp32 upcast, the activation function, rotary and the "
            "residual adds, so they move about half the memory traffic of eager PyTorch; with the "
            "Cross-entropy on Auto the loss is compiled too, as torchtitan does (4 bytes per logit instead "
            "of the eager loss's 12). Only the FSDP style runs eager; Megatron's kernels are fused already.",
     .value = training<&TrainingOptions::torchCompile>()},
    {.kind = Kind::Bool,
     .name = "fusedKernels",
     .label = "Fused kernels (TE, Liger)",
     .tip = "The PyTorch trainer runs fused kernels for the norms, rotary and the SwiGLU activation "
            "(Transformer Engine's, as NeMo AutoModel's TE backend does, or Liger's) without compiling the "
            "model: the same memory traffic as torch.compile's fused kernels, the loss left as it is. Only "
            "the FSDP style runs eager; Megatron's kernels are fused already.",
     .value = training<&TrainingOptions::fusedKernels>()},
    {.kind = Kind::Bool,
     .name = "fp8ParamGather",
     .label = "FP8 weight gathers",
     .tip = "In fp8 training, gather the weights as their fp8 casts: the ZeRO-3/FSDP layer all-gathers and "
            "the distributed optimizer's all-gather of the updated weights move 1 byte per weight instead of "
            "2 (torchtitan --float8.enable_fsdp_float8_all_gather, torchao's float8 all-gather; Megatron-LM "
            "--fp8-param-gather, NeMo fp8_params). No effect without fp8.",
     .value = training<&TrainingOptions::fp8ParamGather>()},
    // Communication overlap: each switch hides one kind of collective behind compute, as the framework
    // flag named in the tooltip does (docs/estimation.md, 'Communication overlap').
    {.kind = Kind::Bool,
     .name = "overlapTpComm",
     .label = "Overlap TP communication",
     .tip =
         "Run the tensor-parallel collectives in chunks while the neighbouring GEMMs compute: Megatron-LM "
         "--tp-comm-overlap (Transformer Engine userbuffers, needs sequence parallel), torchtitan "
         "parallelism.enable_async_tensor_parallel (AsyncTP, needs torch.compile). What exceeds the "
         "layer's GEMM time stays exposed, and a fifth of the hidden part is still paid (the "
         "communication kernels take SMs and memory bandwidth from the GEMMs). Until set, it follows the "
         "style's habit: on in the Megatron style on GPUs with fp8 tensor cores with sequence parallel, as "
         "NVIDIA's Megatron-Core performance recipes run.",
     .value = toggle<&TrainingOptions::overlapTpComm, &core::overlapsTpComm>()},
    {.kind = Kind::Bool,
     .name = "overlapPpComm",
     .label = "Overlap PP communication",
     .tip = "Post the pipeline sends and receives ahead and complete them behind the next chunk's compute: "
            "Megatron-LM --overlap-p2p-communication, the default with virtual pipeline stages. Only what "
            "exceeds the stage's compute per micro batch stays exposed.",
     .value = training<&TrainingOptions::overlapPpComm>()},
    {.kind = Kind::Bool,
     .name = "overlapDpComm",
     .label = "Overlap DP communication",
     .tip = "Reduce the gradients bucket by bucket while the backward pass still runs: Megatron-LM "
            "--overlap-grad-reduce (and --overlap-param-gather with the distributed optimizer), DeepSpeed "
            "zero_optimization.overlap_comm. Only what exceeds the backward pass stays exposed. The FSDP "
            "style always overlaps, so there it changes nothing. Until set, it follows the style's habit: on "
            "in the Megatron style on GPUs with fp8 tensor cores with the distributed optimizer, as NVIDIA's "
            "Megatron-Core performance recipes run.",
     .value = toggle<&TrainingOptions::overlapDpComm, &core::overlapsDpComm>()},
    {.kind = Kind::Bool,
     .name = "overlapEpComm",
     .label = "Overlap EP communication",
     .tip = "Mixture of experts: run one micro batch's token all-to-alls (dispatch and combine) while "
            "another micro batch computes, as Megatron-Core's --overlap-moe-expert-parallel-comm (combined "
            "1F1B) and DeepSeek's DualPipe do. What exceeds the layer's compute stays exposed, and a fifth "
            "of the hidden part is still paid.",
     .value = training<&TrainingOptions::overlapEpComm>()},
};

// The loader, stragglers, the allocator and load imbalance.
const std::vector<FormField> kPaceFields = {
    {.kind = Kind::Bool,
     .label = "Loader prefetch",
     .tip = "The data loader prepares the next batch while the GPUs compute.",
     .value = training<&TrainingOptions::loaderPrefetch>()},
    {.kind = Kind::Double,
     .label = "Loader throughput",
     .tip = "Tokens per second one data-parallel rank's loader delivers.",
     .value = training<&TrainingOptions::loaderTokensPerSecond>(),
     .range = {0.001, 1e6, 2},
     .shown = {1e6, " M tokens/s"}},
    {.kind = Kind::Double,
     .label = "Straggler slowdown",
     .tip = "How much slower the slowest rank is; it sets everyone's pace.",
     .value = training<&TrainingOptions::stragglerSlowdown>(),
     .range = {0, 500, 1},
     .shown = {0.01, " %"}},
    {.kind = Kind::Double,
     .label = "Allocator reserve",
     .tip = "GPU memory lost to the caching allocator's fragmentation, as a share of the GPU.",
     .value = training<&TrainingOptions::allocatorReserveFraction>(),
     .range = {0, 50, 1},
     .shown = {0.01, " %"}},
    {.kind = Kind::Double,
     .label = "MoE load imbalance",
     .tip = "Tokens of the busiest expert over the mean (MoE models only); it sets the expert layers' pace.",
     .value = training<&TrainingOptions::moeLoadImbalance>(),
     .range = {1.0, 16.0, 2},
     .shown = {1.0, " ×"}},
};

// The framework's habits a run may override: style, gradient format, loss kernel, CP, MoE, pipeline split.
const std::vector<FormField> kFrameworkFields = {
    {.kind = Kind::Choice,
     .label = "Execution style",
     .tip = "Megatron-LM (bucketed gradient reduction / distributed optimizer) or FSDP-style per-layer "
            "gathers; Auto picks FSDP for ZeRO stage 3.",
     .value = training<&TrainingOptions::executionStyle>(),
     .choices = {{"Auto", option(core::ExecutionStyle::Auto)},
                 {"Megatron-LM", option(core::ExecutionStyle::Megatron)},
                 {"FSDP", option(core::ExecutionStyle::Fsdp)}}},
    {.kind = Kind::Choice,
     .name = "zero3Gather",
     .label = "ZeRO-3 gathers",
     .tip = kZero3GatherTip,
     .value = training<&TrainingOptions::zero3Gather>(),
     .choices = {{"Per layer (FSDP)", option(core::Zero3Gather::Layer)},
                 {"Per module (DeepSpeed)", option(core::Zero3Gather::Module)}}},
    {.kind = Kind::Choice,
     .name = "gradPrecision",
     .label = "Gradients",
     .tip = "Format of the gradient buffer and of the data-parallel reduction. Auto follows the framework: "
            "Megatron-LM keeps fp32 main grads in bf16/fp8 (16-bit in fp16), FSDP keeps bf16 and reduces in "
            "fp32. 16-bit is Megatron's --grad-reduce-in-bf16 and NeMo's performance recipes "
            "(grad_reduce_in_fp32 = False).",
     .value = training<&TrainingOptions::gradPrecision>(),
     .choices = {{"Auto (framework default)", option(core::GradPrecision::Auto)},
                 {"fp32", option(core::GradPrecision::Fp32)},
                 {"16-bit", option(core::GradPrecision::Half)}}},
    {.kind = Kind::Choice,
     .name = "crossEntropy",
     .label = "Cross-entropy",
     .tip = "The loss kernel, which sets the logits' memory on the last stage (tokens x vocabulary values). "
            "Unfused: an eager fp32 loss, 12 bytes per logit at the peak (16 with TP in the FSDP style, "
            "where it runs under torch's loss_parallel). Fused: Megatron-LM's vocab-parallel kernel "
            "(--cross-entropy-loss-fusion), 6 bytes. Fused linear: the output layer fused with the loss, "
            "which never holds the whole logits (Liger kernel, Cut Cross-Entropy, Megatron "
            "--cross-entropy-fusion-impl linear). Compiled: the eager loss under torch.compile (torchtitan "
            "compile.components = [\"loss\"]), which keeps the 16-bit logits and writes a 16-bit gradient, 4 "
            "bytes. Fused 16-bit: flash-attn's cross-entropy kernel (llm-foundry's MPT loss_fn "
            "fused_crossentropy), which also keeps the 16-bit logits and writes a 16-bit gradient, 4 bytes. "
            "Auto follows the framework: fused for Megatron-LM; for FSDP unfused, or compiled when the model "
            "is compiled (torchtitan compiles the loss with it).",
     .value = training<&TrainingOptions::crossEntropy>(),
     .choices = {{"Auto (framework default)", option(core::CrossEntropy::Auto)},
                 {"Unfused (fp32)", option(core::CrossEntropy::Unfused)},
                 {"Fused", option(core::CrossEntropy::Fused)},
                 {"Fused linear", option(core::CrossEntropy::FusedLinear)},
                 {"Compiled (torch.compile)", option(core::CrossEntropy::Compiled)},
                 {"Fused 16-bit (flash-attn)", option(core::CrossEntropy::Fused16)}}},
    {.kind = Kind::Int,
     .name = "logitsMetricPasses",
     .label = "Metrics on logits",
     .tip = "Training metrics the trainer computes from each micro batch's logits after its backward, each "
            "an eager fp32 log-softmax over tokens x vocabulary values without gradient: passes over the "
            "logits that cost memory traffic on the last stage, and 10 bytes per logit of memory once the "
            "layers' tensors are freed. Composer (llm-foundry) computes two by default, LanguageCrossEntropy "
            "and LanguagePerplexity (use_train_metrics); Megatron-LM, torchtitan and NeMo none.",
     .value = training<&TrainingOptions::logitsMetricPasses>(),
     .range = {0, static_cast<double>(core::limits::kMaxLogitsMetricPasses)},
     .shown = {1, " passes", "none"}},
    {.kind = Kind::Choice,
     .name = "cpExchange",
     .label = "CP exchange",
     .tip = "How context-parallel GPUs pass their key/value chunks (with CP > 1). Ring: one chunk per step, "
            "behind that step's attention (Megatron-LM --cp-comm-type p2p, torchtitan "
            "context_parallel_rotate_method \"alltoall\"). All-gather: every chunk at once, which only the "
            "first step's attention hides: fine on NVLink, exposed across nodes (torchtitan \"allgather\", "
            "Megatron --cp-comm-type all_gather); it also holds all the chunks in memory. Auto follows the "
            "framework: the ring for Megatron-LM, the all-gather for FSDP (torch's default).",
     .value = training<&TrainingOptions::cpExchange>(),
     .choices = {{"Auto (framework default)", option(core::CpExchange::Auto)},
                 {"Ring", option(core::CpExchange::Ring)},
                 {"All-gather", option(core::CpExchange::AllGather)}}},
    {.kind = Kind::Choice,
     .name = "moeDispatcher",
     .label = "MoE dispatcher",
     .tip = "How MoE tokens reach experts on other nodes (when the EP group spans several NVLink domains). "
            "All-to-all: every top-k copy crosses the network (Megatron-Core's alltoall dispatcher). DeepEP: "
            "each token is sent once to every other node that holds one of its experts and forwarded there "
            "over NVLink, in fp8 when training in fp8 (DeepSeek's DeepEP, Megatron-Core's flex dispatcher "
            "with DeepEP or HybridEP); with group-limited routing (DeepSeek-V3: 4 of 8 groups) a token "
            "reaches at most that many nodes.",
     .value = training<&TrainingOptions::moeDispatcher>(),
     .choices = {{"All-to-all", option(core::MoeDispatcher::AllToAll)},
                 {"DeepEP", option(core::MoeDispatcher::Deduplicated)}}},
    {.kind = Kind::Choice,
     .name = "pipelineSplit",
     .label = "Pipeline split",
     .tip = "What the pipeline split divides among the PP x virtual-stage chunks. Layers: the decoder layers "
            "only, as evenly as they go (the first ranks take any extra layer). Embedding and loss: the "
            "embedding and the loss count as one layer each, so the first and last ranks, which also run the "
            "embedding and the output layer, hold one layer fewer, and up to layers + 2 chunks fit "
            "(Megatron-LM --account-for-embedding-in-pipeline-split --account-for-loss-in-pipeline-split; "
            "Llama 3.1 405B's 126 layers on PP 16 x 8 virtual stages). Auto counts them where the layers "
            "alone cannot fill the chunks, and for Megatron-LM where that makes an uneven split even.",
     .value = training<&TrainingOptions::pipelineSplit>(),
     .choices = {{"Auto", option(core::PipelineSplit::Auto)},
                 {"Layers", option(core::PipelineSplit::Layers)},
                 {"Embedding and loss", option(core::PipelineSplit::EmbeddingAndLoss)}}},
    {.kind = Kind::Choice,
     .name = "pipelineSchedule",
     .label = "Pipeline schedule",
     .tip = kPipelineScheduleTip,
     .value = training<&TrainingOptions::pipelineSchedule>(),
     .choices = {{"1F1B", option(core::PipelineSchedule::OneFOneB)},
                 {"GPipe", option(core::PipelineSchedule::GPipe)},
                 {"Zero bubble (ZB-H1)", option(core::PipelineSchedule::ZeroBubbleH1)}}},
    {.kind = Kind::Choice,
     .label = "Attention FLOPs",
     .tip = "Count the attention scores in full (PaLM / Megatron convention) or halved for causal kernels; "
            "changes MFU, not the step time.",
     .value = training<&TrainingOptions::attentionFlops>(),
     .choices = {{"Full", option(core::AttentionFlops::Full)},
                 {"Causal (half)", option(core::AttentionFlops::Causal)}}},
    {.kind = Kind::Choice,
     .name = "attentionKernel",
     .label = "Attention kernel",
     .tip =
         "The attention kernel the trainer runs; their speed differs by GPU, sequence length and head "
         "size (FlashAttention-3 paper, Shah et al. 2024). Auto follows the framework: torch SDPA's "
         "FlashAttention-2 kernels in the FSDP style, the GPU's fused attention (Transformer Engine, cuDNN) "
         "in the Megatron style, none with Flash attention off. FlashAttention-3 runs on Hopper only; "
         "elsewhere the plan falls back to the GPU's fused attention and says so. Unfused: the scores pass "
         "through memory (eager attention, SDPA's math backend), whatever Flash attention says.",
     .value = training<&TrainingOptions::attentionKernel>(),
     .choices = {{"Auto (framework default)", option(core::AttentionKernel::Auto)},
                 {"FlashAttention-2", option(core::AttentionKernel::FlashAttention2)},
                 {"FlashAttention-3", option(core::AttentionKernel::FlashAttention3)},
                 {"cuDNN / TE fused", option(core::AttentionKernel::Cudnn)},
                 {"Unfused (math)", option(core::AttentionKernel::Unfused)}}},
};

} // namespace

TrainingEditor::TrainingEditor(ScenarioDocument* doc, QWidget* parent)
    : QWidget(parent), m_section(new CollapsibleSection(tr("More training options"), this)),
      m_main(new FormBinder(doc, mergeIdFor(EditKind::Training), this)),
      m_more(new FormBinder(doc, mergeIdFor(EditKind::Training, 50), this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* top = new QWidget(this);
    m_main->addFields(makeForm(top), kMainFields);
    layout->addWidget(top);
    m_section->setContent(moreOptions());
    layout->addWidget(m_section);
    followLayout(doc);
}

QWidget* TrainingEditor::moreOptions() {
    auto* body = new QWidget(m_section);
    QFormLayout* form = makeForm(body, 16);
    addMemoryFields(form);
    m_more->addFields(form, kExecutionFields);
    // The policies' names are long: the box elides them rather than widening the whole panel.
    auto* policy = body->findChild<QComboBox*>(QStringLiteral("rematPolicy"));
    policy->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    policy->setMinimumContentsLength(12);
    m_more->addFields(form, kPaceFields);
    m_more->addFields(form, kFrameworkFields);
    return body;
}

void TrainingEditor::followLayout(ScenarioDocument* doc) {
    enableWhen(doc, "pipelineSchedule", kPipelineScheduleTip,
               "No pipeline (PP 1): the schedule applies with PP > 1.",
               [](const core::Scenario& s) { return s.layout.pp > 1; });
    enableWhen(doc, "zero3Gather", kZero3GatherTip, "Not ZeRO stage 3: nothing is gathered layer by layer.",
               [](const core::Scenario& s) { return s.training.zeroStage >= 3; });
}

void TrainingEditor::enableWhen(ScenarioDocument* doc, const char* name, const char* tip, const char* why,
                                bool (*applies)(const core::Scenario&)) {
    auto* box = findChild<QComboBox*>(QString::fromLatin1(name));
    const auto follow = [doc, box, tip, why, applies] {
        const bool on = applies(doc->scenario());
        box->setEnabled(on);
        box->setToolTip(on ? tr(tip) : tr(why) + QStringLiteral("\n\n") + tr(tip));
    };
    follow();
    connect(doc, &ScenarioDocument::scenarioChanged, box, follow);
}

QCheckBox* TrainingEditor::option(const char* name) const {
    return findChild<QCheckBox*>(QString::fromLatin1(name));
}

void TrainingEditor::addMemoryFields(QFormLayout* form) {
    m_more->addFields(form, kMemoryFields);
    auto* shard = form->parentWidget()->findChild<QSpinBox*>(QStringLiteral("zeroShardDegree"));
    const auto suffix = [shard](int v) { shard->setSuffix(v == 1 ? tr(" DP rank") : tr(" DP ranks")); };
    suffix(shard->value());
    connect(shard, &QSpinBox::valueChanged, this, suffix);
    std::vector<std::pair<QString, unsigned>> modules;
    for (const auto& m : core::kRecomputeModuleNames)
        modules.emplace_back(QString::fromUtf8(m.name.data(), static_cast<qsizetype>(m.name.size())), m.bit);
    m_more
        ->addFlags(
            form, tr("Recompute &modules"), tr(kRecomputeModulesTip), modules, tr("none"),
            [](const core::Scenario& s) { return s.training.recomputeModules; },
            [](core::Scenario& s, unsigned v) { s.training.recomputeModules = v; })
        ->setObjectName(QStringLiteral("recomputeModules"));
}

} // namespace lp::ui
