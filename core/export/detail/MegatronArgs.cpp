#include "core/export/detail/MegatronArgs.h"

#include "core/estimate/ExecutionStyle.h"
#include "core/estimate/Precision.h"
#include "core/export/detail/LaunchText.h"
#include "core/util/NumberFormat.h"

#include <string>

namespace lp::core::detail {
namespace {

// The bash array being written: one "  --flag value  # comment" line per argument.
class ArgList : public LaunchFile {
public:
    explicit ArgList(const Scenario& s)
        : LaunchFile(s, LaunchTarget::Megatron, "megatron-args.sh", "arguments") {}
    void arg(const std::string& flag, const std::string& value = {}, const std::string& comment = {}) {
        raw(withComment("  " + flag + (value.empty() ? "" : " " + value), 48, comment));
    }
    // A comment line of its own: a group's title, or what is left out and why.
    void comment(const std::string& text) { raw("  # " + text + "\n"); }
};

// Megatron-Core's --attention-backend: auto (Transformer Engine picks, the default the plan times as the
// GPU's fused attention), flash (FlashAttention), fused (cuDNN), unfused; unfused too with flash attention
// off.
std::string attentionBackend(const TrainingOptions& t) {
    switch (t.attentionKernel) {
    case AttentionKernel::Auto:
        return fusedAttention(t) ? "auto" : "unfused";
    case AttentionKernel::FlashAttention2:
    case AttentionKernel::FlashAttention3:
        return "flash";
    case AttentionKernel::Cudnn:
        return "fused";
    case AttentionKernel::Unfused:
        return "unfused";
    }
    return "flash";
}

std::string n(long long v) {
    return std::to_string(v);
}

// The overlap switches the plan has on that apply to this layout (docs/estimation.md, section 6).
struct Overlaps {
    bool tp = false;
    bool pp = false;
    bool dp = false;
    bool ep = false;
};

Overlaps overlapsOf(const Scenario& s) {
    const TrainingOptions& t = s.training;
    const Layout& l = s.layout;
    return {.tp = overlapsTpComm(s) && l.tp > 1,
            .pp = t.overlapPpComm && l.pp > 1,
            .dp = overlapsDpComm(s) && t.zeroStage < 3, // FSDP2 overlaps by itself
            .ep = t.overlapEpComm && s.model.isMoe() && l.ep > 1};
}

// How to launch: Megatron-LM takes DP from the number of processes.
void launchComment(ArgList& a, const Scenario& s) {
    a.raw("# Layout: " + layoutLine(s) + ". Megatron-LM derives DP from the world size: launch\n");
    a.raw("# " + std::to_string(s.layout.gpus()) + " processes, e.g. " + launchHint(s) +
          " pretrain_gpt.py \"${MEGATRON_ARGS[@]}\" \\\n");
    a.raw("#   plus your data, tokenizer, learning-rate and checkpoint arguments.\n");
}

void parallelismArgs(ArgList& a, const Scenario& s) {
    const ModelSpec& m = s.model;
    const TrainingOptions& t = s.training;
    const Layout& l = s.layout;
    a.comment("Parallelism");
    a.arg("--tensor-model-parallel-size", n(l.tp));
    a.arg("--pipeline-model-parallel-size", n(l.pp));
    const bool splitCounts = pipelineSplitCountsEmbeddingAndLoss(s);
    if (l.vpp > 1) {
        const long long chunks = static_cast<long long>(l.pp) * l.vpp;
        if (chunks > 0 && m.layers % chunks == 0 && !splitCounts)
            a.arg("--num-layers-per-virtual-pipeline-stage", n(m.layers / chunks),
                  std::to_string(l.vpp) + " virtual stages per rank");
        else
            a.arg("--num-virtual-stages-per-pipeline-rank", n(l.vpp));
    }
    if (l.pp > 1 && t.pipelineSchedule != PipelineSchedule::OneFOneB)
        a.comment("Megatron-LM has no " + std::string(toString(t.pipelineSchedule)) +
                  " pipeline schedule: it runs 1F1B (interleaved with virtual stages); torchtitan has it");
    if (splitCounts) {
        a.arg("--account-for-embedding-in-pipeline-split", {},
              "the embedding counts as one layer of the split");
        a.arg("--account-for-loss-in-pipeline-split", {}, "the loss counts as one layer of the split");
    }
    a.arg("--context-parallel-size", n(l.cp));
    if (l.cp > 1 && cpExchangeOf(t, ExecutionStyle::Megatron) == CpExchange::AllGather)
        a.arg("--cp-comm-type", "all_gather", "K/V all-gathered at once instead of the p2p ring");
    if (m.isMoe() || l.ep > 1)
        a.arg("--expert-model-parallel-size", n(l.ep));
    if (m.isMoe() && l.tp > 1)
        a.arg("--expert-tensor-parallel-size", n(expertTensorParallel(s)),
              expertTensorParallel(s) == l.tp ? "experts split like the dense layers"
                                              : "experts split less than TP (EP spans TP ranks)");
    if (t.sequenceParallel && l.tp > 1)
        a.arg("--sequence-parallel");
    const int shardDegree = effectiveShardDegree(s);
    if (t.zeroStage == 1 || t.zeroStage == 2)
        a.arg("--use-distributed-optimizer", {}, "ZeRO-" + std::to_string(t.zeroStage));
    else if (t.zeroStage >= 3)
        a.arg("--use-torch-fsdp2", {}, "ZeRO-3 (full shard)");
    if (t.zeroStage >= 1 && shardDegree < l.dp)
        a.arg("--num-distributed-optimizer-instances", n(l.dp / shardDegree),
              "hybrid: state sharded over " + n(shardDegree) + " DP ranks");
}

// Only the switches the plan has on.
void overlapArgs(ArgList& a, const Scenario& s) {
    const TrainingOptions& t = s.training;
    const Overlaps on = overlapsOf(s);
    if (!(on.tp || on.pp || on.dp || on.ep))
        return;
    a.comment("Communication overlap");
    if (on.tp && t.sequenceParallel)
        a.arg("--tp-comm-overlap", {}, "TE userbuffers: TP comm under the GEMMs");
    else if (on.tp)
        a.comment("--tp-comm-overlap left out: it needs --sequence-parallel (off here)");
    if (on.pp && s.layout.vpp > 1)
        a.comment("pipeline send/receive overlap: the default with virtual stages");
    else if (on.pp)
        a.comment("pipeline send/receive overlap needs virtual stages (see the notes)");
    if (on.dp) {
        a.arg("--overlap-grad-reduce", {}, "gradient reduction under the backward");
        if (t.zeroStage >= 1)
            a.arg("--overlap-param-gather", {}, "with the distributed optimizer");
    }
    if (on.ep)
        a.arg("--overlap-moe-expert-parallel-comm", {}, "EP all-to-alls under another micro batch's compute");
}

void batchArgs(ArgList& a, const Scenario& s) {
    const Layout& l = s.layout;
    a.comment("Batch and sequence");
    a.arg("--micro-batch-size", n(l.microBatch));
    a.arg("--global-batch-size", n(l.effectiveBatch()),
          std::to_string(l.microBatch) + " x " + std::to_string(l.accumulation) + " micro batches x DP " +
              std::to_string(l.dp));
    a.arg("--seq-length", n(s.model.seqLen));
    if (const long long steps = stepsForBudget(s); steps > 0)
        a.arg("--train-iters", n(steps), fmt::count(s.training.tokenBudget) + " tokens");
}

void attentionArgs(ArgList& a, const ModelSpec& m) {
    a.arg("--num-attention-heads", n(m.heads));
    if (m.attention == AttentionKind::Mla) {
        a.arg("--multi-latent-attention");
        if (m.mla.qLoraRank > 0)
            a.arg("--q-lora-rank", n(m.mla.qLoraRank));
        a.arg("--kv-lora-rank", n(m.mla.kvLoraRank));
        a.arg("--qk-head-dim", n(m.mla.qkNopeHeadDim));
        a.arg("--qk-pos-emb-head-dim", n(m.mla.qkRopeHeadDim));
        a.arg("--v-head-dim", n(m.mla.vHeadDim));
        return;
    }
    if (m.kvHeads < m.heads) {
        a.arg("--group-query-attention");
        a.arg("--num-query-groups", n(m.kvHeads));
    }
    if (m.headSize > 0 && m.heads > 0 && m.headSize != m.hidden / m.heads)
        a.arg("--kv-channels", n(m.headSize));
}

void expertArgs(ArgList& a, const ModelSpec& m, MoeDispatcher dispatcher) {
    a.arg("--num-experts", n(m.moe.experts));
    a.arg("--moe-router-topk", n(m.moe.topK));
    a.arg("--moe-ffn-hidden-size", n(m.moe.expertFfnHidden));
    if (m.moe.sharedExperts > 0)
        a.arg("--moe-shared-expert-intermediate-size",
              n(static_cast<long long>(m.moe.sharedExperts) * m.moe.expertFfnHidden));
    const int moeLayers = m.moeLayerCount();
    if (moeLayers < m.layers)
        a.arg("--moe-layer-freq",
              "\"([0]*" + std::to_string(m.layers - moeLayers) + "+[1]*" + std::to_string(moeLayers) + ")\"",
              "dense layers first");
    if (m.moe.groups > 0) {
        a.arg("--moe-router-num-groups", n(m.moe.groups));
        a.arg("--moe-router-group-topk", n(m.moe.groupLimit), "group-limited routing");
    }
    a.arg("--moe-grouped-gemm");
    if (dispatcher == MoeDispatcher::Deduplicated) {
        a.arg("--moe-token-dispatcher-type", "flex");
        a.arg("--moe-flex-dispatcher-backend", "deepep", "each token once per node, forwarded over NVLink");
    } else {
        a.arg("--moe-token-dispatcher-type", "alltoall");
    }
}

void modelArgs(ArgList& a, const Scenario& s) {
    const ModelSpec& m = s.model;
    a.comment("Model");
    a.arg("--num-layers", n(m.layers));
    a.arg("--hidden-size", n(m.hidden));
    a.arg("--ffn-hidden-size", n(m.ffnHidden));
    attentionArgs(a, m);
    a.arg("--max-position-embeddings", n(m.seqLen));
    a.arg("--position-embedding-type", m.learnedPositions ? "learned_absolute" : "rope");
    a.arg("--normalization", m.norm == NormKind::RmsNorm ? "RMSNorm" : "LayerNorm");
    if (m.mlp == MlpKind::SwiGlu)
        a.arg("--swiglu");
    if (!m.biases)
        a.arg("--disable-bias-linear");
    if (!m.tiedEmbeddings)
        a.arg("--untie-embeddings-and-output-weights");
    if (!m.dropout) {
        a.arg("--attention-dropout", "0.0");
        a.arg("--hidden-dropout", "0.0");
    }
    if (m.isMoe())
        expertArgs(a, m, s.training.moeDispatcher);
    a.comment("vocabulary " + std::to_string(m.vocab) +
              ": set by the tokenizer (--tokenizer-type, --tokenizer-model)");
}

// Number formats: the matmuls, the loss kernel and the gradients.
void precisionArgs(ArgList& a, const Scenario& s) {
    const TrainingOptions& t = s.training;
    switch (t.precision) {
    case Precision::Bf16:
        a.arg("--bf16");
        break;
    case Precision::Fp16:
        a.arg("--fp16");
        break;
    case Precision::Fp8:
        a.arg("--bf16");
        a.arg("--fp8-format", "hybrid", "fp8 matmuls (Transformer Engine)");
        if (t.fp8ParamGather)
            a.arg("--fp8-param-gather", {}, "weights kept and all-gathered in fp8");
        break;
    }
    if (t.crossEntropy == CrossEntropy::Fused)
        a.arg("--cross-entropy-loss-fusion", {}, "fused cross-entropy kernel");
    else if (t.crossEntropy == CrossEntropy::Compiled || t.crossEntropy == CrossEntropy::Fused16)
        a.arg("--cross-entropy-loss-fusion", {}, "fused kernel: the closest to the plan's 16-bit loss");
    else if (t.crossEntropy == CrossEntropy::FusedLinear) {
        a.arg("--cross-entropy-loss-fusion");
        a.arg("--cross-entropy-fusion-impl", "linear", "output layer fused with the loss: no whole logits");
    }
    // Gradient format: Megatron keeps fp32 main grads for bf16 by itself, 16-bit ones for fp16; the plan's
    // 16-bit reduction (stated, or NVIDIA's recipes' habit under grad_precision auto) needs the flag.
    if (gradientFormat(s, ExecutionStyle::Megatron).reduceBytes < 4 && t.precision != Precision::Fp16)
        a.arg("--grad-reduce-in-bf16", {}, "16-bit gradient buffers and reduction");
    else if (t.gradPrecision == GradPrecision::Fp32 && t.precision == Precision::Fp16)
        a.arg("--accumulate-allreduce-grads-in-fp32", {}, "fp32 gradient buffers and reduction");
}

void recomputeArgs(ArgList& a, const TrainingOptions& t) {
    switch (t.recompute) {
    case Recompute::None:
        a.comment("no activation recompute");
        break;
    case Recompute::Selective:
        a.arg("--recompute-granularity", "selective");
        if (t.recomputeModules == kRecomputeModulesDefault)
            break;
        if (t.recomputeModules == 0)
            a.comment("no recompute module: the plan recomputes nothing (--recompute-granularity selective "
                      "re-runs core_attn by default)");
        else
            a.arg("--recompute-modules", recomputeModulesText(t.recomputeModules, " "));
        break;
    case Recompute::Full:
        a.arg("--recompute-granularity", "full");
        if (t.recomputeLayers > 0) { // the first N layers of each chunk; the rest keep their activations
            a.arg("--recompute-method", "block");
            a.arg("--recompute-num-layers", std::to_string(t.recomputeLayers));
        } else {
            a.arg("--recompute-method", "uniform");
            a.arg("--recompute-num-layers", "1");
        }
        break;
    }
}

// The optimizer, its state's format and what goes to host memory.
void optimizerArgs(ArgList& a, const TrainingOptions& t) {
    a.arg("--optimizer", t.optimizer == Optimizer::Adam ? "adam" : "sgd");
    if (t.optimizerPrecision == OptimizerPrecision::Bf16Moments) {
        a.arg("--use-precision-aware-optimizer", {}, "optimizer moments in bf16, fp32 master weights");
        a.arg("--exp-avg-dtype", "bf16");
        a.arg("--exp-avg-sq-dtype", "bf16");
    }
    if (t.optimizerOffload) {
        a.arg("--optimizer-cpu-offload", {}, "optimizer state and step on the CPU");
        a.arg("--optimizer-offload-fraction", "1.0");
        a.arg("--use-precision-aware-optimizer");
    }
    if (t.activationOffloadLayers > 0) {
        a.arg("--cpu-offloading", {}, "saved activations to host memory");
        a.arg("--cpu-offloading-num-layers", std::to_string(t.activationOffloadLayers));
    }
}

// What the overlap switches and ZeRO stage mean in Megatron-LM, where the plan and the flags part ways.
void scheduleNotes(LaunchSettings& out, const Scenario& s) {
    const TrainingOptions& t = s.training;
    const Layout& l = s.layout;
    const Overlaps on = overlapsOf(s);
    if (!overlapsDpComm(s) && resolvedStyle(t) == ExecutionStyle::Megatron)
        out.notes.push_back("The plan assumes Megatron-LM's default of reducing gradients after the backward "
                            "pass; --overlap-grad-reduce (and --overlap-param-gather with the distributed "
                            "optimizer) usually hide most of that time, making the run faster than planned "
                            "(turn on the DP overlap, --dp-comm-overlap on, to plan with them).");
    if (on.tp && t.sequenceParallel)
        out.notes.push_back(
            "--tp-comm-overlap needs Transformer Engine (--transformer-impl transformer_engine, the default) "
            "built with userbuffers support; keep the TP group inside one NVLink domain.");
    else if (on.tp)
        out.notes.push_back("The plan overlaps the TP communication, but Megatron-LM accepts "
                            "--tp-comm-overlap only with --sequence-parallel, which the plan has off: the "
                            "flag is left out (turn sequence parallel on to use it).");
    if (on.pp && l.vpp == 1)
        out.notes.push_back(
            "The plan overlaps the pipeline send/receive, but Megatron-LM does that only in the interleaved "
            "schedule: with one stage per rank it turns --overlap-p2p-communication off. Add virtual stages "
            "(--num-layers-per-virtual-pipeline-stage) or plan with the PP overlap off.");
    else if (!t.overlapPpComm && l.pp > 1 && l.vpp > 1)
        out.notes.push_back("With virtual stages Megatron-LM overlaps the pipeline send/receive by default, "
                            "which the plan does not assume: add --no-overlap-p2p-communication to match it, "
                            "or turn on the PP overlap (--pp-comm-overlap on) to plan with it.");
    if (t.zeroStage == 2)
        out.notes.push_back("Megatron-LM has no exact ZeRO-2: the distributed optimizer shards the optimizer "
                            "state and reduce-scatters gradients, but keeps a full gradient buffer.");
    if (t.zeroStage >= 3 && t.zero3Gather == Zero3Gather::Module)
        out.notes.push_back(fsdp2GathersLayersNote("Megatron-LM (--use-torch-fsdp2)"));
    if (t.zeroStage >= 3 && l.pp > 1)
        out.notes.push_back(
            "Megatron-LM's FSDP2 path (--use-torch-fsdp2) does not support pipeline parallelism; use ZeRO-1 "
            "(--use-distributed-optimizer) with PP, or PP 1 with FSDP.");
    if (resolvedStyle(t) == ExecutionStyle::Fsdp)
        out.notes.push_back("This scenario is planned in the FSDP execution style; Megatron-LM's own "
                            "scheduling matches --style megatron.");
}

// Where Megatron-LM's kernels, number formats and model options differ from the plan's.
void kernelNotes(LaunchSettings& out, const Scenario& s) {
    const ModelSpec& m = s.model;
    const TrainingOptions& t = s.training;
    if (t.crossEntropy == CrossEntropy::Compiled || t.crossEntropy == CrossEntropy::Fused16)
        out.notes.push_back("Megatron-LM has no 16-bit loss kernel: its fused cross-entropy kernel holds "
                            "about 6 bytes per logit, the plan's " +
                            std::string(toString(t.crossEntropy)) +
                            " loss 4, so the last stage needs a little more memory than planned.");
    if (t.optimizerPrecision == OptimizerPrecision::Bf16)
        out.notes.push_back("Megatron-LM keeps fp32 main parameters: the plan's bf16 parameters without a "
                            "master copy hold 4 bytes per parameter less than this run will "
                            "(--use-precision-aware-optimizer with bf16 moments is the closest).");
    noteWhatTheTargetLacks(out, "Megatron-LM", t);
    if (t.crossEntropy == CrossEntropy::Unfused)
        out.notes.push_back(
            "Megatron-LM's loss is always its vocab-parallel cross-entropy kernel (about 6 bytes per logit): "
            "the plan's unfused loss (12 bytes per logit) overstates the last stage's memory.");
    if (t.sequenceParallel && s.layout.tp == 1)
        out.notes.push_back("Sequence parallelism needs TP > 1; the flag is left out.");
    if (t.precision == Precision::Fp8)
        out.notes.push_back("fp8 needs Transformer Engine; also choose --fp8-recipe (delayed, tensorwise, "
                            "mxfp8 or blockwise) for your GPU.");
    if (m.isMoe() && m.moeLayerCount() < m.layers)
        out.notes.push_back("--moe-layer-freq puts the dense layers first (as DeepSeek-V3 does); change the "
                            "pattern if your model interleaves them.");
}

} // namespace

LaunchSettings megatronArgs(const Scenario& s) {
    ArgList a(s);
    launchComment(a, s);
    a.raw("MEGATRON_ARGS=(\n");
    parallelismArgs(a, s);
    overlapArgs(a, s);
    batchArgs(a, s);
    modelArgs(a, s);
    a.comment("Precision, memory and kernels");
    precisionArgs(a, s);
    recomputeArgs(a, s.training);
    a.arg("--attention-backend", attentionBackend(s.training));
    optimizerArgs(a, s.training);
    a.raw(")\n");
    LaunchSettings out = a.take();
    scheduleNotes(out, s);
    kernelNotes(out, s);
    return out;
}

} // namespace lp::core::detail
