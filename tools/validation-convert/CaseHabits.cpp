#include "tools/validation-convert/CaseHabits.h"

#include "core/util/Text.h"
#include "tools/validation-convert/CaseNotes.h"

#include <initializer_list>

namespace lp::tools::prose {

using namespace lp::core;
namespace {

// As the case search has it (core/measured): a Megatron-Core recipe's overlaps apply to Megatron-style runs
// on Hopper or newer without ZeRO 3.
bool megatronCoreRecipeApplies(const Scenario& s) {
    const TrainingOptions& t = s.training;
    return s.cluster.gpu.peakFlops8 > 0 && t.zeroStage < 3 && t.executionStyle != ExecutionStyle::Fsdp;
}

// Nor does it record the communication-overlap switches. Megatron-style runs on Hopper or newer GPUs
// come from the Megatron-Core stack, which overlaps pipeline send/receive with the interleaved schedule by
// default (Megatron-LM's --overlap-p2p-communication is on unless --no-overlap-p2p-communication, for
// VPP > 1). NVIDIA's performance recipes (NeMo, Megatron-Bridge, the dgxc-benchmarking and MLPerf
// submissions built on them, the figures NVIDIA's Megatron-LM repository publishes) also overlap the
// gradient reduce-scatter with the distributed optimizer and DP > 1 (NeMo's MegatronCommOverlapCallback
// default) and the TP collectives with the GEMMs where sequence parallelism is on (Transformer Engine
// userbuffers, set by every NeMo performance recipe with TP > 1), and reduce gradients in 16 bits
// (grad_reduce_in_fp32 = False). Plain Megatron-LM keeps all three off (--tp-comm-overlap,
// --overlap-grad-reduce, fp32 main grads for bf16) unless the notes name them. A100 runs of 2021-2022
// Megatron had none of these; FSDP-style runs keep their own habits. Source and notes are lower-cased.
void inferMegatronCoreRecipe(Scenario& s, const std::string& source, const std::string& notes) {
    TrainingOptions& t = s.training;
    const Layout& l = s.layout;
    if (!megatronCoreRecipeApplies(s))
        return;
    t.overlapPpComm = l.pp > 1 && l.vpp > 1;
    bool recipe = false;
    for (const char* name : {"nemo", "megatron-bridge", "dgxc", "mlperf", "mlcommons", "nvidia/megatron-lm"})
        recipe = recipe || source.find(name) != std::string::npos;
    const auto stated = [&](std::initializer_list<const char*> terms) {
        bool on = recipe;
        for (const char* term : terms)
            if (notes.find(term) != std::string::npos)
                on = notesState(notes, term);
        return on;
    };
    // Stated explicitly either way: the planner's own default on these GPUs (Toggle::Auto,
    // GradPrecision::Auto) is the recipes' habit, which plain Megatron-LM runs do not have. Off is written
    // only where auto would turn the switch on.
    t.overlapDpComm = Toggle::Auto;
    t.overlapTpComm = Toggle::Auto;
    const auto toggle = [](bool on, bool autoOn) {
        return on ? Toggle::On : autoOn ? Toggle::Off : Toggle::Auto;
    };
    t.overlapDpComm =
        toggle(t.zeroStage >= 1 && l.dp * l.cp > 1 && stated({"overlap-grad-reduce", "overlap_grad_reduce"}),
               overlapsDpComm(s));
    t.overlapTpComm = toggle(l.tp > 1 && t.sequenceParallel && stated({"tp-comm-overlap", "tp_comm_overlap"}),
                             overlapsTpComm(s));
    if (recipe || stated({"grad-reduce-in-bf16", "grad_reduce_in_bf16"}))
        t.gradPrecision = GradPrecision::Half;
    else if (t.gradPrecision == GradPrecision::Auto && t.precision != Precision::Fp16)
        t.gradPrecision = GradPrecision::Fp32; // Megatron-LM's fp32 main grads for bf16
}

// Nor how MoE tokens travel. Megatron-Core's all-to-all overlap (the combined 1F1B schedule) is switched on
// per model and system in NVIDIA's recipes (Megatron-Bridge's moe_a2a_overlap,
// --overlap-moe-expert-parallel-comm), and DeepSeek's DualPipe (DeepSeek-V3's schedule) overlaps the
// all-to-alls by construction: planned with the overlap when the notes state either, or the case is
// DeepSeek-V3's own report. A case whose source or notes name a deduplicating dispatcher (DeepEP, HybridEP,
// Megatron-Core's flex dispatcher, DualPipe's), or that is one of DeepSeek's technical reports, sends each
// token once per other node (MoeDispatcher::Deduplicated). Source and notes are lower-cased.
void inferMoeCommunication(TrainingOptions& t, const Layout& l, const std::string& source,
                           const std::string& notes) {
    if (l.ep <= 1)
        return;
    const bool deepSeekReport =
        source.find("deepseek") != std::string::npos && source.find("technical report") != std::string::npos;
    if (deepSeekReport && source.find("deepseek-v3") != std::string::npos)
        t.overlapEpComm = true;
    for (const char* term : {"moe_a2a_overlap", "overlap_moe_expert_parallel_comm",
                             "overlap-moe-expert-parallel-comm", "ep overlap", "a2a overlap", "dualpipe"})
        t.overlapEpComm = t.overlapEpComm || notesState(notes, term);
    bool dedup = deepSeekReport;
    const std::string sourceAndNotes = source + " " + notes;
    for (const char* term : {"deepep", "hybridep", "flex dispatcher", "dualpipe"})
        dedup = dedup || notesState(sourceAndNotes, term);
    if (dedup)
        t.moeDispatcher = MoeDispatcher::Deduplicated;
}

} // namespace

CaseSource::CaseSource(std::string_view caseSource, std::string_view caseNotes)
    : source(asciiLower(caseSource)), notes(asciiLower(caseNotes)),
      megatron(source.find("megatron") != std::string::npos),
      torchTrainer(!megatron && namesTorchTrainer(source)) {}

// The format does not record the attention kernel. Runs on Hopper or newer GPUs, models of the SwiGLU/RoPE
// family and FSDP runs (ZeRO 3, or any run of a PyTorch-native trainer, which reach flash kernels through
// torch's scaled_dot_product_attention or the flash-attn package) use flash attention; GELU GPT models on
// A100 under Megatron used its fused (unflashed) softmax, as the 2021-2022 papers describe. Nor whether fp8
// training gathers its weights in fp8, but the notes name the switch: torchao's float8 all-gather in FSDP2
// ("float8 with fp8 FSDP all-gather"), Megatron's --fp8-param-gather or NeMo's fp8_params.
void inferKernels(Scenario& s, const std::string& caseId, const CaseSource& origin) {
    TrainingOptions& t = s.training;
    if (origin.torchTrainer)
        t.executionStyle = ExecutionStyle::Fsdp;
    else if (t.zeroStage >= 3 && origin.megatron)
        t.executionStyle = ExecutionStyle::Megatron;
    t.flashAttention = s.model.mlp == MlpKind::SwiGlu || s.cluster.gpu.peakFlops8 > 0 || t.zeroStage >= 3 ||
                       origin.torchTrainer;
    t.torchCompile = statesTorchCompile(origin.notes, caseId);
    t.fusedKernels = origin.torchTrainer && statesFusedKernels(origin.notes);
    if (t.precision == Precision::Fp8)
        for (const char* term :
             {"fp8 all-gather", "float8 all-gather", "fp8 fsdp all-gather", "fp8_param_gather",
              "fp8-param-gather", "fp8_params", "enable_fsdp_float8_all_gather"})
            t.fp8ParamGather = t.fp8ParamGather || notesState(origin.notes, term);
}

// Nor how the source counts model FLOPs, computes its loss or keeps its optimizer state.
void inferLossAndOptimizer(Scenario& s, const CaseSource& origin) {
    TrainingOptions& t = s.training;
    // Megatron-Bridge's and NeMo AutoModel's published model TFLOP/s count the causal half of the attention
    // scores (Megatron-Bridge's flop_utils: "core_seq / 2"; AutoModel's flops formulas: causal_self_attn =
    // True): their DeepSeek-V3 rows give 250 GFLOP per token where the full count is 280, their Qwen3-30B-A3B
    // rows 23.0 for 27.9.
    if (origin.names("megatron-bridge") || origin.names("automodel"))
        t.attentionFlops = AttentionFlops::Causal;
    // A compiled model compiles the FSDP style's loss with it (the planner's torchtitan), but torchtitan only
    // does so since April 2025 (PR #1033); before, its train.py left the loss eager ("compiling loss function
    // causes CUDA errors, turning off for now"). A torchtitan run dated earlier keeps that loss.
    if (t.torchCompile && origin.names("torchtitan")) {
        const int month = latestStatedMonth(origin.source + " " + origin.notes);
        if (month > 0 && month < 202504)
            t.crossEntropy = CrossEntropy::Unfused;
    }
    // MosaicML's llm-foundry trains MPT with flash-attn's fused cross-entropy (ComposerMPTCausalLM's loss_fn
    // defaults to "fused_crossentropy"), and Composer computes the model's train metrics,
    // LanguageCrossEntropy and LanguagePerplexity, from every micro batch's logits after its backward
    // (use_train_metrics). MPT trains without dropout: MPTConfig's resid_pdrop, emb_pdrop and attn_pdrop
    // default to 0.
    if (origin.names("llm-foundry") || origin.names("llmfoundry")) {
        t.crossEntropy = CrossEntropy::Fused16;
        t.logitsMetricPasses = 2;
        s.model.dropout = false;
    }
    // NeMo AutoModel builds the models it implements itself (its MoE families) in the config's torch_dtype,
    // bf16, and trains them with torch.optim.Adam under FSDP2: bf16 parameters and moments, no fp32 master
    // copy. Notes that state 16-bit moments (DeepSeek-V3's "BF16 ... to track the first and second moments",
    // Megatron's --exp-avg-dtype bf16) keep the fp32 master.
    if (origin.names("automodel") && s.model.isMoe())
        t.optimizerPrecision = OptimizerPrecision::Bf16;
    else
        for (const char* term :
             {"bf16 moments", "moments in bf16", "exp-avg-dtype bf16", "exp_avg_dtype bf16"})
            if (notesState(origin.notes, term))
                t.optimizerPrecision = OptimizerPrecision::Bf16Moments;
}

// The overlaps and the MoE dispatcher: the Megatron-Core recipe's, torchtitan's AsyncTP (its TP overlap by
// collective matmuls, which needs TP > 1), and the MoE communication the source and notes name.
void inferCommunication(Scenario& s, const CaseSource& origin) {
    inferMegatronCoreRecipe(s, origin.source, origin.notes);
    TrainingOptions& t = s.training;
    if (s.layout.tp > 1)
        for (const char* term : {"asynctp", "async tp", "async-tp", "async_tp", "async tensor parallel",
                                 "enable_async_tensor_parallel"})
            if (notesState(origin.notes, term))
                t.overlapTpComm = Toggle::On;
    inferMoeCommunication(t, s.layout, origin.source, origin.notes);
}

} // namespace lp::tools::prose
