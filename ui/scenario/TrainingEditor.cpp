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

using core::Scenario;

TrainingEditor::TrainingEditor(ScenarioDocument* doc, QWidget* parent)
    : QWidget(parent), m_section(new CollapsibleSection(tr("More training options"), this)),
      m_main(new FormBinder(doc, mergeIdFor(EditKind::Training), this)),
      m_more(new FormBinder(doc, mergeIdFor(EditKind::Training, 50), this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* top = new QWidget(this);
    auto* form = new QFormLayout(top);
    form->setContentsMargins(0, 0, 0, 0);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_main->addChoice(
        form, tr("P&recision"),
        tr("Number format of the matrix multiplications: bf16/fp16, or fp8 on GPUs that support it."),
        {{QStringLiteral("bf16"), static_cast<int>(core::Precision::Bf16)},
         {QStringLiteral("fp16"), static_cast<int>(core::Precision::Fp16)},
         {QStringLiteral("fp8"), static_cast<int>(core::Precision::Fp8)}},
        [](const Scenario& s) { return static_cast<int>(s.training.precision); },
        [](Scenario& s, int v) { s.training.precision = static_cast<core::Precision>(v); });
    m_main->addChoice(
        form, tr("&ZeRO stage"),
        tr("How much training state is sharded over the data-parallel group: 1 optimizer state "
           "(Megatron distributed optimizer), 2 also gradients, 3 also weights (FSDP)."),
        {{tr("0 (replicated)"), 0},
         {tr("1 (optimizer state)"), 1},
         {tr("2 (+ gradients)"), 2},
         {tr("3 (+ weights, FSDP)"), 3}},
        [](const Scenario& s) { return s.training.zeroStage; },
        [](Scenario& s, int v) { s.training.zeroStage = v; });
    m_main->addChoice(
        form, tr("Re&compute"),
        tr("Activation checkpointing: selective recomputes the attention core (in the Megatron "
           "style, or the Recompute modules chosen under More training options), full recomputes "
           "whole layers (about 30% more compute, far less activation memory)."),
        {{tr("None"), static_cast<int>(core::Recompute::None)},
         {tr("Selective"), static_cast<int>(core::Recompute::Selective)},
         {tr("Full"), static_cast<int>(core::Recompute::Full)}},
        [](const Scenario& s) { return static_cast<int>(s.training.recompute); },
        [](Scenario& s, int v) { s.training.recompute = static_cast<core::Recompute>(v); });
    m_main->addDouble(
        form, tr("Token &budget"), tr("Tokens to train on, for the training time and GPU-hours."), 1, 1e6, 0,
        1e9, [](const Scenario& s) { return s.training.tokenBudget; },
        [](Scenario& s, double v) { s.training.tokenBudget = v; }, tr(" B tokens"));
    layout->addWidget(top);

    auto* body = new QWidget(m_section);
    auto* more = new QFormLayout(body);
    more->setContentsMargins(16, 0, 0, 0);
    more->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_more->addChoice(
        more, tr("O&ptimizer"), tr("Adam keeps two fp32 moments per parameter, SGD with momentum one."),
        {{QStringLiteral("Adam"), static_cast<int>(core::Optimizer::Adam)},
         {tr("SGD (momentum)"), static_cast<int>(core::Optimizer::SgdMomentum)}},
        [](const Scenario& s) { return static_cast<int>(s.training.optimizer); },
        [](Scenario& s, int v) { s.training.optimizer = static_cast<core::Optimizer>(v); });
    QComboBox* optimizerState = m_more->addChoice(
        more, tr("Optimizer state"),
        tr("What the optimizer keeps per parameter beside the 16-bit weights and gradients. fp32: an fp32 "
           "master copy and fp32 moments (12 bytes with Adam), mixed precision as the ZeRO paper counts it. "
           "bf16 moments: the fp32 master copy with 16-bit moments (8 bytes; Megatron-LM "
           "--use-precision-aware-optimizer --exp-avg-dtype bf16 --exp-avg-sq-dtype bf16, as DeepSeek-V3 "
           "trained). bf16 parameters: a model built in bf16 and trained with torch.optim.Adam keeps no "
           "master copy and 16-bit moments (4 bytes; NeMo AutoModel's own models)."),
        {{tr("fp32 master and moments"), static_cast<int>(core::OptimizerPrecision::Fp32)},
         {tr("bf16 moments"), static_cast<int>(core::OptimizerPrecision::Bf16Moments)},
         {tr("bf16 parameters, no master"), static_cast<int>(core::OptimizerPrecision::Bf16)}},
        [](const Scenario& s) { return static_cast<int>(s.training.optimizerPrecision); },
        [](Scenario& s, int v) { s.training.optimizerPrecision = static_cast<core::OptimizerPrecision>(v); });
    optimizerState->setObjectName(QStringLiteral("optimizerPrecision"));
    QSpinBox* shard = m_more->addInt(
        more, tr("ZeRO shard &group"),
        tr("Hybrid sharding: the data-parallel ranks one copy of the ZeRO/FSDP state is sharded over; the "
           "state is "
           "replicated across DP / this many groups and the gradient shards are all-reduced across the "
           "replicas. "
           "Sharding within a node keeps the weight gathers on NVLink at the cost of more memory per GPU. "
           "FSDP "
           "HYBRID_SHARD, torchtitan data_parallel_shard_degree, Megatron-LM "
           "--num-distributed-optimizer-instances, "
           "DeepSpeed MiCS (mics_shard_size). It must divide DP; 'all DP ranks' (0) shards over the whole "
           "group. "
           "No effect with ZeRO-0."),
        0, 1000000, [](const Scenario& s) { return s.training.zeroShardDegree; },
        [](Scenario& s, int v) { s.training.zeroShardDegree = v; }, tr(" DP ranks"));
    shard->setSpecialValueText(tr("all DP ranks"));
    const auto suffix = [shard](int v) { shard->setSuffix(v == 1 ? tr(" DP rank") : tr(" DP ranks")); };
    suffix(shard->value());
    connect(shard, &QSpinBox::valueChanged, this, suffix);
    shard->setObjectName(QStringLiteral("zeroShardDegree"));
    QSpinBox* block = m_more->addInt(
        more, tr("Recompute &layers"),
        tr("With full recompute: how many layers of each model chunk (a pipeline stage, or a virtual stage "
           "when interleaved) are recomputed; the others keep their activations. Fewer layers cost less "
           "recompute and take more memory. Megatron-LM --recompute-method block --recompute-num-layers N, "
           "NeMo activations_checkpoint_num_layers. 'every layer' (0) recomputes them all; no effect without "
           "full recompute."),
        0, 1000000, [](const Scenario& s) { return s.training.recomputeLayers; },
        [](Scenario& s, int v) { s.training.recomputeLayers = v; }, tr(" per chunk"));
    block->setSpecialValueText(tr("every layer"));
    block->setObjectName(QStringLiteral("recomputeLayers"));
    std::vector<std::pair<QString, unsigned>> modules;
    for (const auto& m : core::kRecomputeModuleNames)
        modules.emplace_back(QString::fromUtf8(m.name.data(), static_cast<qsizetype>(m.name.size())), m.bit);
    m_more
        ->addFlags(
            more, tr("Recompute &modules"),
            tr("With selective recompute in the Megatron style: the parts of each layer that are "
               "recomputed (Megatron-Core --recompute-modules). core_attn: the attention core (the "
               "default; nothing to recompute with flash attention); layernorm: the norms that are "
               "separate modules (MLA's input norm, a MoE layer's pre-MLP norm); mla_up_proj: MLA's "
               "up-projected q, k and v; mlp: a dense layer's MLP; moe_act: the routed experts' "
               "activation; shared_experts: the shared experts; moe: the whole MoE block, its token "
               "all-to-all included. Each frees its tensors and re-runs its forward once before the "
               "backward."),
            modules, tr("none"), [](const Scenario& s) { return s.training.recomputeModules; },
            [](Scenario& s, unsigned v) { s.training.recomputeModules = v; })
        ->setObjectName(QStringLiteral("recomputeModules"));
    m_more
        ->addChoice(
            more, tr("Remat polic&y"),
            tr("With selective recompute: a JAX/MaxText rematerialization policy (remat_policy), which names "
               "the "
               "matmul outputs each layer saves; the backward re-runs the rest, and the norms, rotary and "
               "activation function. minimal_with_context (MaxText's minimal_flash) saves q/k/v, the "
               "attention "
               "output, the output projection and the MLP's up-projections; minimal all but the attention "
               "output (the attention re-runs); save_dot_with_context_except_mlp the attention's (the MLP's "
               "up-projections re-run); save_dot_except_mlp the projections only; save_qkv_proj and "
               "save_out_proj one each. It replaces the style's own selective recompute and the Recompute "
               "modules. Style's own: no policy."),
            {{tr("Style's own"), static_cast<int>(core::RematPolicy::Auto)},
             {QStringLiteral("minimal_with_context"),
              static_cast<int>(core::RematPolicy::MinimalWithContext)},
             {QStringLiteral("minimal"), static_cast<int>(core::RematPolicy::Minimal)},
             {QStringLiteral("save_dot_with_context_except_mlp"),
              static_cast<int>(core::RematPolicy::SaveDotWithContextExceptMlp)},
             {QStringLiteral("save_dot_except_mlpwi"),
              static_cast<int>(core::RematPolicy::SaveDotExceptMlpwi)},
             {QStringLiteral("save_dot_except_mlp"), static_cast<int>(core::RematPolicy::SaveDotExceptMlp)},
             {QStringLiteral("save_qkv_proj"), static_cast<int>(core::RematPolicy::SaveQkvProj)},
             {QStringLiteral("save_out_proj"), static_cast<int>(core::RematPolicy::SaveOutProj)}},
            [](const Scenario& s) { return static_cast<int>(s.training.rematPolicy); },
            [](Scenario& s, int v) { s.training.rematPolicy = static_cast<core::RematPolicy>(v); })
        ->setObjectName(QStringLiteral("rematPolicy"));
    // The policies' names are long: the box elides them rather than widening the whole panel.
    auto* policy = body->findChild<QComboBox*>(QStringLiteral("rematPolicy"));
    policy->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    policy->setMinimumContentsLength(12);
    m_more
        ->addBool(
            more, tr("Optimizer state on the CPU"),
            tr("Keep the fp32 master weights and Adam moments in host memory and run the optimizer step on "
               "the CPU (DeepSpeed zero_optimization.offload_optimizer, Megatron-LM "
               "--optimizer-cpu-offload); with ZeRO-2 or higher the gradient shard goes to the host too. "
               "Frees the optimizer state from the GPU; the step then runs at the speed of host memory, and "
               "the gradients and updated weights cross the host link."),
            [](const Scenario& s) { return s.training.optimizerOffload; },
            [](Scenario& s, bool v) { s.training.optimizerOffload = v; })
        ->setObjectName(QStringLiteral("optimizerOffload"));
    QSpinBox* offload = m_more->addInt(
        more, tr("Offload activations"),
        tr("Copy the saved activations of this many layers of each stage to host memory after their "
           "forward pass and back before their backward pass (Megatron-LM --cpu-offloading "
           "--cpu-offloading-num-layers N, as NeMo's GB200 recipes do). The copies overlap with compute; "
           "what the host link cannot hide shows as 'Activation offload' in the step time."),
        0, 1000000, [](const Scenario& s) { return s.training.activationOffloadLayers; },
        [](Scenario& s, int v) { s.training.activationOffloadLayers = v; }, tr(" layers"));
    offload->setSpecialValueText(tr("none"));
    offload->setObjectName(QStringLiteral("activationOffloadLayers"));
    m_more->addBool(
        more, tr("Sequence parallel"),
        tr("Shard the norms' and dropouts' activations over the TP group (Megatron SP)."),
        [](const Scenario& s) { return s.training.sequenceParallel; },
        [](Scenario& s, bool v) { s.training.sequenceParallel = v; });
    m_more->addBool(
        more, tr("Flash attention"), tr("Fused attention kernels that never store the s x s score matrix."),
        [](const Scenario& s) { return s.training.flashAttention; },
        [](Scenario& s, bool v) { s.training.flashAttention = v; });
    m_more
        ->addBool(
            more, tr("torch.compile"),
            tr("The model compiled with torch.compile (torchtitan [compile] enable, components \"model\"): "
               "Inductor fuses the norms with their fp32 upcast, the activation function, rotary and the "
               "residual adds, so they move about half the memory traffic of eager PyTorch; with the "
               "Cross-entropy on Auto the loss is compiled too, as torchtitan does (4 bytes per logit "
               "instead of the eager loss's 12). Only the FSDP style runs eager; Megatron's kernels are "
               "fused already."),
            [](const Scenario& s) { return s.training.torchCompile; },
            [](Scenario& s, bool v) { s.training.torchCompile = v; })
        ->setObjectName(QStringLiteral("torchCompile"));
    m_more
        ->addBool(
            more, tr("Fused kernels (TE, Liger)"),
            tr("The PyTorch trainer runs fused kernels for the norms, rotary and the SwiGLU activation "
               "(Transformer Engine's, as NeMo AutoModel's TE backend does, or Liger's) without compiling "
               "the model: the same memory traffic as torch.compile's fused kernels, the loss left as it "
               "is. Only the FSDP style runs eager; Megatron's kernels are fused already."),
            [](const Scenario& s) { return s.training.fusedKernels; },
            [](Scenario& s, bool v) { s.training.fusedKernels = v; })
        ->setObjectName(QStringLiteral("fusedKernels"));
    m_more
        ->addBool(
            more, tr("FP8 weight gathers"),
            tr("In fp8 training, gather the weights as their fp8 casts: the ZeRO-3/FSDP layer all-gathers "
               "and the distributed optimizer's all-gather of the updated weights move 1 byte per weight "
               "instead of 2 (torchtitan --float8.enable_fsdp_float8_all_gather, torchao's float8 "
               "all-gather; Megatron-LM --fp8-param-gather, NeMo fp8_params). No effect without fp8."),
            [](const Scenario& s) { return s.training.fp8ParamGather; },
            [](Scenario& s, bool v) { s.training.fp8ParamGather = v; })
        ->setObjectName(QStringLiteral("fp8ParamGather"));
    // Communication overlap: each switch hides one kind of collective behind compute, as the framework
    // flag named in the tooltip does (docs/estimation.md, section 6).
    m_overlapTp = m_more->addBool(
        more, tr("Overlap TP communication"),
        tr("Run the tensor-parallel collectives in chunks while the neighbouring GEMMs compute: Megatron-LM "
           "--tp-comm-overlap (Transformer Engine userbuffers, needs sequence parallel), torchtitan "
           "parallelism.enable_async_tensor_parallel (AsyncTP, needs torch.compile). What exceeds the "
           "layer's "
           "GEMM time stays exposed, and a fifth of the hidden part is still paid (the communication kernels "
           "take SMs and memory bandwidth from the GEMMs)."),
        [](const Scenario& s) { return s.training.overlapTpComm; },
        [](Scenario& s, bool v) { s.training.overlapTpComm = v; });
    m_overlapTp->setObjectName(QStringLiteral("overlapTpComm"));
    m_overlapPp = m_more->addBool(
        more, tr("Overlap PP communication"),
        tr("Post the pipeline sends and receives ahead and complete them behind the next chunk's compute: "
           "Megatron-LM --overlap-p2p-communication, the default with virtual pipeline stages. Only what "
           "exceeds the stage's compute per micro batch stays exposed."),
        [](const Scenario& s) { return s.training.overlapPpComm; },
        [](Scenario& s, bool v) { s.training.overlapPpComm = v; });
    m_overlapPp->setObjectName(QStringLiteral("overlapPpComm"));
    m_overlapDp = m_more->addBool(
        more, tr("Overlap DP communication"),
        tr("Reduce the gradients bucket by bucket while the backward pass still runs: Megatron-LM "
           "--overlap-grad-reduce (and --overlap-param-gather with the distributed optimizer), DeepSpeed "
           "zero_optimization.overlap_comm. Only what exceeds the backward pass stays exposed. The FSDP "
           "style "
           "always overlaps, so there it changes nothing."),
        [](const Scenario& s) { return s.training.overlapDpComm; },
        [](Scenario& s, bool v) { s.training.overlapDpComm = v; });
    m_overlapDp->setObjectName(QStringLiteral("overlapDpComm"));
    m_overlapEp = m_more->addBool(
        more, tr("Overlap EP communication"),
        tr("Mixture of experts: run one micro batch's token all-to-alls (dispatch and combine) while another "
           "micro batch computes, as Megatron-Core's --overlap-moe-expert-parallel-comm (combined 1F1B) and "
           "DeepSeek's DualPipe do. What exceeds the layer's compute stays exposed, and a fifth of the "
           "hidden "
           "part is still paid."),
        [](const Scenario& s) { return s.training.overlapEpComm; },
        [](Scenario& s, bool v) { s.training.overlapEpComm = v; });
    m_overlapEp->setObjectName(QStringLiteral("overlapEpComm"));
    m_more->addBool(
        more, tr("Loader prefetch"), tr("The data loader prepares the next batch while the GPUs compute."),
        [](const Scenario& s) { return s.training.loaderPrefetch; },
        [](Scenario& s, bool v) { s.training.loaderPrefetch = v; });
    m_more->addDouble(
        more, tr("Loader throughput"), tr("Tokens per second one data-parallel rank's loader delivers."),
        0.001, 1e6, 2, 1e6, [](const Scenario& s) { return s.training.loaderTokensPerSecond; },
        [](Scenario& s, double v) { s.training.loaderTokensPerSecond = v; }, tr(" M tokens/s"));
    m_more->addDouble(
        more, tr("Straggler slowdown"), tr("How much slower the slowest rank is; it sets everyone's pace."),
        0, 500, 1, 0.01, [](const Scenario& s) { return s.training.stragglerSlowdown; },
        [](Scenario& s, double v) { s.training.stragglerSlowdown = v; }, QStringLiteral(" %"));
    m_more->addDouble(
        more, tr("Allocator reserve"),
        tr("GPU memory lost to the caching allocator's fragmentation, as a share of the GPU."), 0, 50, 1,
        0.01, [](const Scenario& s) { return s.training.allocatorReserveFraction; },
        [](Scenario& s, double v) { s.training.allocatorReserveFraction = v; }, QStringLiteral(" %"));
    m_more->addDouble(
        more, tr("MoE load imbalance"),
        tr("Tokens of the busiest expert over the mean (MoE models only); it sets the expert layers' pace."),
        1.0, 16.0, 2, 1.0, [](const Scenario& s) { return s.training.moeLoadImbalance; },
        [](Scenario& s, double v) { s.training.moeLoadImbalance = v; }, QStringLiteral(" ×"));
    m_more->addChoice(
        more, tr("Execution style"),
        tr("Megatron-LM (bucketed gradient reduction / distributed optimizer) or FSDP-style per-layer "
           "gathers; Auto picks FSDP for ZeRO stage 3."),
        {{tr("Auto"), static_cast<int>(core::ExecutionStyle::Auto)},
         {QStringLiteral("Megatron-LM"), static_cast<int>(core::ExecutionStyle::Megatron)},
         {QStringLiteral("FSDP"), static_cast<int>(core::ExecutionStyle::Fsdp)}},
        [](const Scenario& s) { return static_cast<int>(s.training.executionStyle); },
        [](Scenario& s, int v) { s.training.executionStyle = static_cast<core::ExecutionStyle>(v); });
    QComboBox* grads = m_more->addChoice(
        more, tr("Gradients"),
        tr("Format of the gradient buffer and of the data-parallel reduction. Auto follows the "
           "framework: Megatron-LM keeps fp32 main grads in bf16/fp8 (16-bit in fp16), FSDP keeps bf16 "
           "and reduces in fp32. 16-bit is Megatron's --grad-reduce-in-bf16 and NeMo's performance "
           "recipes (grad_reduce_in_fp32 = False)."),
        {{tr("Auto (framework default)"), static_cast<int>(core::GradPrecision::Auto)},
         {QStringLiteral("fp32"), static_cast<int>(core::GradPrecision::Fp32)},
         {tr("16-bit"), static_cast<int>(core::GradPrecision::Half)}},
        [](const Scenario& s) { return static_cast<int>(s.training.gradPrecision); },
        [](Scenario& s, int v) { s.training.gradPrecision = static_cast<core::GradPrecision>(v); });
    grads->setObjectName(QStringLiteral("gradPrecision"));
    QComboBox* loss = m_more->addChoice(
        more, tr("Cross-entropy"),
        tr("The loss kernel, which sets the logits' memory on the last stage (tokens x vocabulary values). "
           "Unfused: an eager fp32 loss, 12 bytes per logit at the peak (16 with TP in the FSDP style, where "
           "it runs under torch's loss_parallel). Fused: Megatron-LM's vocab-parallel kernel "
           "(--cross-entropy-loss-fusion), 6 bytes. Fused linear: the output layer fused with the loss, "
           "which never holds the whole logits (Liger kernel, Cut Cross-Entropy, Megatron "
           "--cross-entropy-fusion-impl linear). Compiled: the eager loss under torch.compile (torchtitan "
           "compile.components = [\"loss\"]), which keeps the 16-bit logits and writes a 16-bit gradient, 4 "
           "bytes. Fused 16-bit: flash-attn's cross-entropy kernel (llm-foundry's MPT loss_fn "
           "fused_crossentropy), which also keeps the 16-bit logits and writes a 16-bit gradient, 4 bytes. "
           "Auto follows the framework: fused for Megatron-LM; for FSDP unfused, or compiled when the model "
           "is compiled (torchtitan compiles the loss with it)."),
        {{tr("Auto (framework default)"), static_cast<int>(core::CrossEntropy::Auto)},
         {tr("Unfused (fp32)"), static_cast<int>(core::CrossEntropy::Unfused)},
         {tr("Fused"), static_cast<int>(core::CrossEntropy::Fused)},
         {tr("Fused linear"), static_cast<int>(core::CrossEntropy::FusedLinear)},
         {tr("Compiled (torch.compile)"), static_cast<int>(core::CrossEntropy::Compiled)},
         {tr("Fused 16-bit (flash-attn)"), static_cast<int>(core::CrossEntropy::Fused16)}},
        [](const Scenario& s) { return static_cast<int>(s.training.crossEntropy); },
        [](Scenario& s, int v) { s.training.crossEntropy = static_cast<core::CrossEntropy>(v); });
    loss->setObjectName(QStringLiteral("crossEntropy"));
    QSpinBox* metricPasses = m_more->addInt(
        more, tr("Metrics on logits"),
        tr("Training metrics the trainer computes from each micro batch's logits after its backward, each an "
           "eager fp32 log-softmax over tokens x vocabulary values without gradient: passes over the logits "
           "that cost memory traffic on the last stage, and 10 bytes per logit of memory once the layers' "
           "tensors are freed. Composer (llm-foundry) computes two by default, LanguageCrossEntropy and "
           "LanguagePerplexity (use_train_metrics); Megatron-LM, torchtitan and NeMo none."),
        0, static_cast<int>(core::limits::kMaxLogitsMetricPasses),
        [](const Scenario& s) { return s.training.logitsMetricPasses; },
        [](Scenario& s, int v) { s.training.logitsMetricPasses = v; }, tr(" passes"));
    metricPasses->setSpecialValueText(tr("none"));
    metricPasses->setObjectName(QStringLiteral("logitsMetricPasses"));
    QComboBox* cpExchange = m_more->addChoice(
        more, tr("CP exchange"),
        tr("How context-parallel GPUs pass their key/value chunks (with CP > 1). Ring: one chunk per step, "
           "behind "
           "that step's attention (Megatron-LM --cp-comm-type p2p, torchtitan context_parallel_rotate_method "
           "\"alltoall\"). All-gather: every chunk at once, which only the first step's attention hides: "
           "fine on "
           "NVLink, exposed across nodes (torchtitan \"allgather\", Megatron --cp-comm-type all_gather); it "
           "also holds "
           "all the chunks in memory. Auto follows the framework: the ring for Megatron-LM, the all-gather "
           "for FSDP "
           "(torch's default)."),
        {{tr("Auto (framework default)"), static_cast<int>(core::CpExchange::Auto)},
         {tr("Ring"), static_cast<int>(core::CpExchange::Ring)},
         {tr("All-gather"), static_cast<int>(core::CpExchange::AllGather)}},
        [](const Scenario& s) { return static_cast<int>(s.training.cpExchange); },
        [](Scenario& s, int v) { s.training.cpExchange = static_cast<core::CpExchange>(v); });
    cpExchange->setObjectName(QStringLiteral("cpExchange"));
    QComboBox* dispatcher = m_more->addChoice(
        more, tr("MoE dispatcher"),
        tr("How MoE tokens reach experts on other nodes (when the EP group spans several NVLink domains). "
           "All-to-all: every top-k copy crosses the network (Megatron-Core's alltoall dispatcher). DeepEP: "
           "each "
           "token is sent once to every other node that holds one of its experts and forwarded there over "
           "NVLink, "
           "in fp8 when training in fp8 (DeepSeek's DeepEP, Megatron-Core's flex dispatcher with DeepEP or "
           "HybridEP); with group-limited routing (DeepSeek-V3: 4 of 8 groups) a token reaches at most that "
           "many "
           "nodes."),
        {{tr("All-to-all"), static_cast<int>(core::MoeDispatcher::AllToAll)},
         {QStringLiteral("DeepEP"), static_cast<int>(core::MoeDispatcher::Deduplicated)}},
        [](const Scenario& s) { return static_cast<int>(s.training.moeDispatcher); },
        [](Scenario& s, int v) { s.training.moeDispatcher = static_cast<core::MoeDispatcher>(v); });
    dispatcher->setObjectName(QStringLiteral("moeDispatcher"));
    QComboBox* split = m_more->addChoice(
        more, tr("Pipeline split"),
        tr("What the pipeline split divides among the PP x virtual-stage chunks. Layers: the decoder layers "
           "only, "
           "as evenly as they go (the first ranks take any extra layer). Embedding and loss: the embedding "
           "and the "
           "loss count as one layer each, so the first and last ranks, which also run the embedding and the "
           "output "
           "layer, hold one layer fewer, and up to layers + 2 chunks fit (Megatron-LM "
           "--account-for-embedding-in-pipeline-split --account-for-loss-in-pipeline-split; Llama 3.1 405B's "
           "126 "
           "layers on PP 16 x 8 virtual stages). Auto counts them where the layers alone cannot fill the "
           "chunks, "
           "and for Megatron-LM where that makes an uneven split even."),
        {{tr("Auto"), static_cast<int>(core::PipelineSplit::Auto)},
         {tr("Layers"), static_cast<int>(core::PipelineSplit::Layers)},
         {tr("Embedding and loss"), static_cast<int>(core::PipelineSplit::EmbeddingAndLoss)}},
        [](const Scenario& s) { return static_cast<int>(s.training.pipelineSplit); },
        [](Scenario& s, int v) { s.training.pipelineSplit = static_cast<core::PipelineSplit>(v); });
    split->setObjectName(QStringLiteral("pipelineSplit"));
    m_more->addChoice(
        more, tr("Attention FLOPs"),
        tr("Count the attention scores in full (PaLM / Megatron convention) or halved for causal "
           "kernels; changes MFU, not the step time."),
        {{tr("Full"), static_cast<int>(core::AttentionFlops::Full)},
         {tr("Causal (half)"), static_cast<int>(core::AttentionFlops::Causal)}},
        [](const Scenario& s) { return static_cast<int>(s.training.attentionFlops); },
        [](Scenario& s, int v) { s.training.attentionFlops = static_cast<core::AttentionFlops>(v); });
    m_section->setContent(body);
    layout->addWidget(m_section);
}

} // namespace lp::ui
