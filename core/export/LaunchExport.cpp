#include "core/export/LaunchExport.h"

#include "core/estimate/ExecutionStyle.h"
#include "core/util/NumberFormat.h"
#include "core/util/Text.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>

namespace lp::core {
namespace {

// What an exported framework lacks: 16-bit optimizer state where `fp32State` says how it keeps its state
// instead (null where the export sets it), training metrics computed from the logits (Composer's: the plan's
// passes over them are time the exported run will not spend), and JAX/MaxText remat policies (its selective
// recompute keeps other tensors than the plan's).
void noteWhatTheTargetLacks(LaunchSettings& out, const char* framework, const TrainingOptions& t,
                            const char* fp32State = nullptr) {
    if (fp32State && t.optimizerPrecision != OptimizerPrecision::Fp32)
        out.notes.push_back(std::string(framework) + " keeps " + fp32State + ": the plan's " +
                            std::string(toString(t.optimizerPrecision)) +
                            " optimizer state is smaller than this run's.");
    if (t.logitsMetricPasses > 0)
        out.notes.push_back(std::string(framework) +
                            " computes no training metrics from the logits: the plan's " +
                            logitsMetricPassesText(t.logitsMetricPasses) +
                            " over them cost time that this run will not spend.");
    if (t.recompute == Recompute::Selective && t.rematPolicy != RematPolicy::Auto)
        out.notes.push_back("The plan's remat policy " + std::string(toString(t.rematPolicy)) +
                            " is MaxText's (JAX); " + framework +
                            "'s selective recompute keeps other tensors, so this run's activation memory "
                            "and recompute time differ from the plan's (plan with remat policy auto to "
                            "see them).");
}

// The scenario name inside a comment or a quoted string: one line, no quotes or backslashes.
std::string plainName(std::string_view s) {
    std::string out;
    for (char c : s) {
        if (c == '\n' || c == '\r' || c == '\t')
            out += ' ';
        else if (c == '"' || c == '\\' || c == '`' || c == '$')
            out += '\'';
        else if (static_cast<unsigned char>(c) >= 0x20 && c != 0x7F)
            out += c;
    }
    return out;
}

std::string layoutLine(const Scenario& s) {
    const Layout& l = s.layout;
    return "TP " + std::to_string(l.tp) + " x PP " + std::to_string(l.pp) + " x CP " + std::to_string(l.cp) +
           " x DP " + std::to_string(l.dp) + " = " + std::to_string(l.gpus()) + " GPUs";
}

long long tokensPerStep(const Scenario& s) {
    return s.layout.effectiveBatch() * static_cast<long long>(s.model.seqLen);
}

long long stepsForBudget(const Scenario& s) {
    const double tokens = static_cast<double>(tokensPerStep(s));
    if (!(tokens > 0) || !(s.training.tokenBudget > 0))
        return 0;
    return static_cast<long long>(std::ceil(s.training.tokenBudget / tokens));
}

// Launch hint: nodes x GPUs per node when the layout uses the whole cluster.
std::string launchHint(const Scenario& s) {
    const long long gpus = s.layout.gpus();
    if (gpus == s.cluster.gpus())
        return "torchrun --nnodes " + std::to_string(s.cluster.nodes) + " --nproc-per-node " +
               std::to_string(s.cluster.gpusPerNode);
    return "torchrun with " + std::to_string(gpus) + " processes in all";
}

LaunchSettings megatron(const Scenario& s) {
    const ModelSpec& m = s.model;
    const TrainingOptions& t = s.training;
    const Layout& l = s.layout;
    LaunchSettings out;
    out.target = LaunchTarget::Megatron;
    out.fileName = "megatron-args.sh";
    std::string a;
    auto arg = [&](const std::string& flag, const std::string& value = {}, const std::string& comment = {}) {
        std::string line = "  " + flag + (value.empty() ? "" : " " + value);
        if (!comment.empty()) {
            if (line.size() < 48)
                line.append(48 - line.size(), ' ');
            line += "  # " + comment;
        }
        a += line + "\n";
    };
    auto group = [&](const std::string& title) { a += "  # " + title + "\n"; };
    auto n = [](long long v) { return std::to_string(v); };

    a += "# Megatron-LM arguments for \"" + plainName(s.name) + "\", written by Layout Planner.\n";
    a += "# Layout: " + layoutLine(s) + ". Megatron-LM derives DP from the world size: launch\n";
    a += "# " + std::to_string(l.gpus()) + " processes, e.g. " + launchHint(s) +
         " pretrain_gpt.py \"${MEGATRON_ARGS[@]}\" \\\n";
    a += "#   plus your data, tokenizer, learning-rate and checkpoint arguments.\n";
    a += "MEGATRON_ARGS=(\n";

    group("Parallelism");
    arg("--tensor-model-parallel-size", n(l.tp));
    arg("--pipeline-model-parallel-size", n(l.pp));
    const bool splitCounts = pipelineSplitCountsEmbeddingAndLoss(s);
    if (l.vpp > 1) {
        const long long chunks = static_cast<long long>(l.pp) * l.vpp;
        if (chunks > 0 && m.layers % chunks == 0 && !splitCounts)
            arg("--num-layers-per-virtual-pipeline-stage", n(m.layers / chunks),
                std::to_string(l.vpp) + " virtual stages per rank");
        else
            arg("--num-virtual-stages-per-pipeline-rank", n(l.vpp));
    }
    if (splitCounts) {
        arg("--account-for-embedding-in-pipeline-split", {},
            "the embedding counts as one layer of the split");
        arg("--account-for-loss-in-pipeline-split", {}, "the loss counts as one layer of the split");
    }
    arg("--context-parallel-size", n(l.cp));
    if (l.cp > 1 && cpExchangeOf(t, ExecutionStyle::Megatron) == CpExchange::AllGather)
        arg("--cp-comm-type", "all_gather", "K/V all-gathered at once instead of the p2p ring");
    if (m.isMoe() || l.ep > 1)
        arg("--expert-model-parallel-size", n(l.ep));
    if (m.isMoe() && l.tp > 1)
        arg("--expert-tensor-parallel-size", n(expertTensorParallel(s)),
            expertTensorParallel(s) == l.tp ? "experts split like the dense layers"
                                            : "experts split less than TP (EP spans TP ranks)");
    if (t.sequenceParallel && l.tp > 1)
        arg("--sequence-parallel");
    const int shardDegree = effectiveShardDegree(s);
    if (t.zeroStage == 1 || t.zeroStage == 2) {
        arg("--use-distributed-optimizer", {}, "ZeRO-" + std::to_string(t.zeroStage));
    } else if (t.zeroStage >= 3) {
        arg("--use-torch-fsdp2", {}, "ZeRO-3 (full shard)");
    }
    if (t.zeroStage >= 1 && shardDegree < l.dp)
        arg("--num-distributed-optimizer-instances", n(l.dp / shardDegree),
            "hybrid: state sharded over " + n(shardDegree) + " DP ranks");

    // Communication overlap (docs/estimation.md, section 6): only the switches the plan has on.
    const bool tpOverlap = t.overlapTpComm && l.tp > 1;
    const bool ppOverlap = t.overlapPpComm && l.pp > 1;
    const bool dpOverlap = t.overlapDpComm && t.zeroStage < 3; // FSDP2 overlaps by itself
    const bool epOverlap = t.overlapEpComm && m.isMoe() && l.ep > 1;
    if (tpOverlap || ppOverlap || dpOverlap || epOverlap) {
        group("Communication overlap");
        if (tpOverlap && t.sequenceParallel)
            arg("--tp-comm-overlap", {}, "TE userbuffers: TP comm under the GEMMs");
        else if (tpOverlap)
            a += "  # --tp-comm-overlap left out: it needs --sequence-parallel (off here)\n";
        if (ppOverlap && l.vpp > 1)
            a += "  # pipeline send/receive overlap: the default with virtual stages\n";
        else if (ppOverlap)
            a += "  # pipeline send/receive overlap needs virtual stages (see the notes)\n";
        if (dpOverlap) {
            arg("--overlap-grad-reduce", {}, "gradient reduction under the backward");
            if (t.zeroStage >= 1)
                arg("--overlap-param-gather", {}, "with the distributed optimizer");
        }
        if (epOverlap)
            arg("--overlap-moe-expert-parallel-comm", {},
                "EP all-to-alls under another micro batch's compute");
    }

    group("Batch and sequence");
    arg("--micro-batch-size", n(l.microBatch));
    arg("--global-batch-size", n(l.effectiveBatch()),
        std::to_string(l.microBatch) + " x " + std::to_string(l.accumulation) + " micro batches x DP " +
            std::to_string(l.dp));
    arg("--seq-length", n(m.seqLen));
    if (const long long steps = stepsForBudget(s); steps > 0)
        arg("--train-iters", n(steps), fmt::count(t.tokenBudget) + " tokens");

    group("Model");
    arg("--num-layers", n(m.layers));
    arg("--hidden-size", n(m.hidden));
    arg("--ffn-hidden-size", n(m.ffnHidden));
    arg("--num-attention-heads", n(m.heads));
    if (m.attention == AttentionKind::Mla) {
        arg("--multi-latent-attention");
        if (m.mla.qLoraRank > 0)
            arg("--q-lora-rank", n(m.mla.qLoraRank));
        arg("--kv-lora-rank", n(m.mla.kvLoraRank));
        arg("--qk-head-dim", n(m.mla.qkNopeHeadDim));
        arg("--qk-pos-emb-head-dim", n(m.mla.qkRopeHeadDim));
        arg("--v-head-dim", n(m.mla.vHeadDim));
    } else {
        if (m.kvHeads < m.heads) {
            arg("--group-query-attention");
            arg("--num-query-groups", n(m.kvHeads));
        }
        if (m.headSize > 0 && m.heads > 0 && m.headSize != m.hidden / m.heads)
            arg("--kv-channels", n(m.headSize));
    }
    arg("--max-position-embeddings", n(m.seqLen));
    arg("--position-embedding-type", m.learnedPositions ? "learned_absolute" : "rope");
    arg("--normalization", m.norm == NormKind::RmsNorm ? "RMSNorm" : "LayerNorm");
    if (m.mlp == MlpKind::SwiGlu)
        arg("--swiglu");
    if (!m.biases)
        arg("--disable-bias-linear");
    if (!m.tiedEmbeddings)
        arg("--untie-embeddings-and-output-weights");
    if (!m.dropout) {
        arg("--attention-dropout", "0.0");
        arg("--hidden-dropout", "0.0");
    }
    if (m.isMoe()) {
        arg("--num-experts", n(m.moe.experts));
        arg("--moe-router-topk", n(m.moe.topK));
        arg("--moe-ffn-hidden-size", n(m.moe.expertFfnHidden));
        if (m.moe.sharedExperts > 0)
            arg("--moe-shared-expert-intermediate-size",
                n(static_cast<long long>(m.moe.sharedExperts) * m.moe.expertFfnHidden));
        const int moeLayers = m.moeLayerCount();
        if (moeLayers < m.layers)
            arg("--moe-layer-freq",
                "\"([0]*" + std::to_string(m.layers - moeLayers) + "+[1]*" + std::to_string(moeLayers) +
                    ")\"",
                "dense layers first");
        if (m.moe.groups > 0) {
            arg("--moe-router-num-groups", n(m.moe.groups));
            arg("--moe-router-group-topk", n(m.moe.groupLimit), "group-limited routing");
        }
        arg("--moe-grouped-gemm");
        if (t.moeDispatcher == MoeDispatcher::Deduplicated) {
            arg("--moe-token-dispatcher-type", "flex");
            arg("--moe-flex-dispatcher-backend", "deepep", "each token once per node, forwarded over NVLink");
        } else {
            arg("--moe-token-dispatcher-type", "alltoall");
        }
    }
    a += "  # vocabulary " + std::to_string(m.vocab) +
         ": set by the tokenizer (--tokenizer-type, --tokenizer-model)\n";

    group("Precision, memory and kernels");
    switch (t.precision) {
    case Precision::Bf16:
        arg("--bf16");
        break;
    case Precision::Fp16:
        arg("--fp16");
        break;
    case Precision::Fp8:
        arg("--bf16");
        arg("--fp8-format", "hybrid", "fp8 matmuls (Transformer Engine)");
        if (t.fp8ParamGather)
            arg("--fp8-param-gather", {}, "weights kept and all-gathered in fp8");
        break;
    }
    if (t.crossEntropy == CrossEntropy::Fused)
        arg("--cross-entropy-loss-fusion", {}, "fused cross-entropy kernel");
    else if (t.crossEntropy == CrossEntropy::Compiled || t.crossEntropy == CrossEntropy::Fused16)
        arg("--cross-entropy-loss-fusion", {}, "fused kernel: the closest to the plan's 16-bit loss");
    else if (t.crossEntropy == CrossEntropy::FusedLinear) {
        arg("--cross-entropy-loss-fusion");
        arg("--cross-entropy-fusion-impl", "linear", "output layer fused with the loss: no whole logits");
    }
    // Gradient format: Megatron keeps fp32 main grads for bf16 by itself, 16-bit ones for fp16.
    if (t.gradPrecision == GradPrecision::Half && t.precision != Precision::Fp16)
        arg("--grad-reduce-in-bf16", {}, "16-bit gradient buffers and reduction");
    else if (t.gradPrecision == GradPrecision::Fp32 && t.precision == Precision::Fp16)
        arg("--accumulate-allreduce-grads-in-fp32", {}, "fp32 gradient buffers and reduction");
    switch (t.recompute) {
    case Recompute::None:
        a += "  # no activation recompute\n";
        break;
    case Recompute::Selective:
        arg("--recompute-granularity", "selective");
        if (t.recomputeModules != kRecomputeModulesDefault) {
            if (t.recomputeModules == 0)
                a +=
                    "  # no recompute module: the plan recomputes nothing (--recompute-granularity selective "
                    "re-runs core_attn by default)\n";
            else
                arg("--recompute-modules", recomputeModulesText(t.recomputeModules, " "));
        }
        break;
    case Recompute::Full:
        arg("--recompute-granularity", "full");
        if (t.recomputeLayers > 0) { // the first N layers of each chunk; the rest keep their activations
            arg("--recompute-method", "block");
            arg("--recompute-num-layers", std::to_string(t.recomputeLayers));
        } else {
            arg("--recompute-method", "uniform");
            arg("--recompute-num-layers", "1");
        }
        break;
    }
    arg("--attention-backend", t.flashAttention ? "flash" : "unfused");
    arg("--optimizer", t.optimizer == Optimizer::Adam ? "adam" : "sgd");
    if (t.optimizerPrecision == OptimizerPrecision::Bf16Moments) {
        arg("--use-precision-aware-optimizer", {}, "optimizer moments in bf16, fp32 master weights");
        arg("--exp-avg-dtype", "bf16");
        arg("--exp-avg-sq-dtype", "bf16");
    }
    if (t.optimizerOffload) {
        arg("--optimizer-cpu-offload", {}, "optimizer state and step on the CPU");
        arg("--optimizer-offload-fraction", "1.0");
        arg("--use-precision-aware-optimizer");
    }
    if (t.activationOffloadLayers > 0) {
        arg("--cpu-offloading", {}, "saved activations to host memory");
        arg("--cpu-offloading-num-layers", std::to_string(t.activationOffloadLayers));
    }
    a += ")\n";
    out.text = std::move(a);

    if (!t.overlapDpComm && resolvedStyle(t) == ExecutionStyle::Megatron)
        out.notes.push_back(
            "The plan assumes Megatron-LM's default of reducing gradients after the backward pass; "
            "--overlap-grad-reduce (and --overlap-param-gather with the distributed optimizer) "
            "usually hide most of that time, making the run faster than planned (turn on the DP "
            "overlap, --dp-comm-overlap on, to plan with them).");
    if (tpOverlap && t.sequenceParallel)
        out.notes.push_back(
            "--tp-comm-overlap needs Transformer Engine (--transformer-impl transformer_engine, the "
            "default) built with userbuffers support; keep the TP group inside one NVLink domain.");
    else if (tpOverlap)
        out.notes.push_back(
            "The plan overlaps the TP communication, but Megatron-LM accepts --tp-comm-overlap only with "
            "--sequence-parallel, which the plan has off: the flag is left out (turn sequence parallel on "
            "to use it).");
    if (ppOverlap && l.vpp == 1)
        out.notes.push_back(
            "The plan overlaps the pipeline send/receive, but Megatron-LM does that only in the interleaved "
            "schedule: with one stage per rank it turns --overlap-p2p-communication off. Add virtual stages "
            "(--num-layers-per-virtual-pipeline-stage) or plan with the PP overlap off.");
    else if (!t.overlapPpComm && l.pp > 1 && l.vpp > 1)
        out.notes.push_back(
            "With virtual stages Megatron-LM overlaps the pipeline send/receive by default, which the plan "
            "does not assume: add --no-overlap-p2p-communication to match it, or turn on the PP overlap "
            "(--pp-comm-overlap on) to plan with it.");
    if (t.zeroStage == 2)
        out.notes.push_back(
            "Megatron-LM has no exact ZeRO-2: the distributed optimizer shards the optimizer state "
            "and reduce-scatters gradients, but keeps a full gradient buffer.");
    if (t.zeroStage >= 3 && l.pp > 1)
        out.notes.push_back(
            "Megatron-LM's FSDP2 path (--use-torch-fsdp2) does not support pipeline parallelism; "
            "use ZeRO-1 (--use-distributed-optimizer) with PP, or PP 1 with FSDP.");
    if (resolvedStyle(t) == ExecutionStyle::Fsdp)
        out.notes.push_back(
            "This scenario is planned in the FSDP execution style; Megatron-LM's own scheduling "
            "matches --style megatron.");
    if (t.crossEntropy == CrossEntropy::Compiled || t.crossEntropy == CrossEntropy::Fused16)
        out.notes.push_back("Megatron-LM has no 16-bit loss kernel: its fused cross-entropy kernel holds "
                            "about 6 bytes per logit, "
                            "the plan's " +
                            std::string(toString(t.crossEntropy)) +
                            " loss 4, so the last stage needs a little more memory than planned.");
    if (t.optimizerPrecision == OptimizerPrecision::Bf16)
        out.notes.push_back(
            "Megatron-LM keeps fp32 main parameters: the plan's bf16 parameters without a master copy "
            "hold 4 bytes per parameter less than this run will (--use-precision-aware-optimizer "
            "with bf16 moments is the closest).");
    noteWhatTheTargetLacks(out, "Megatron-LM", t);
    if (t.crossEntropy == CrossEntropy::Unfused)
        out.notes.push_back("Megatron-LM's loss is always its vocab-parallel cross-entropy kernel (about 6 "
                            "bytes per logit): the "
                            "plan's unfused loss (12 bytes per logit) overstates the last stage's memory.");
    if (t.sequenceParallel && l.tp == 1)
        out.notes.push_back("Sequence parallelism needs TP > 1; the flag is left out.");
    if (t.precision == Precision::Fp8)
        out.notes.push_back(
            "fp8 needs Transformer Engine; also choose --fp8-recipe (delayed, tensorwise, mxfp8 or "
            "blockwise) for your GPU.");
    if (m.isMoe() && m.moeLayerCount() < m.layers)
        out.notes.push_back(
            "--moe-layer-freq puts the dense layers first (as DeepSeek-V3 does); change the pattern "
            "if your model interleaves them.");
    return out;
}

LaunchSettings deepspeed(const Scenario& s) {
    const TrainingOptions& t = s.training;
    const Layout& l = s.layout;
    LaunchSettings out;
    out.target = LaunchTarget::DeepSpeed;
    out.fileName = "ds_config.json";

    nlohmann::ordered_json j;
    j["train_batch_size"] = l.effectiveBatch();
    j["train_micro_batch_size_per_gpu"] = l.microBatch;
    j["gradient_accumulation_steps"] = l.accumulation;
    if (t.precision == Precision::Fp16) {
        j["fp16"] = nlohmann::ordered_json{{"enabled", true},           {"loss_scale", 0},
                                           {"initial_scale_power", 16}, {"loss_scale_window", 1000},
                                           {"hysteresis", 2},           {"min_loss_scale", 1}};
    } else {
        j["bf16"] = nlohmann::ordered_json{{"enabled", true}};
    }
    if (t.gradPrecision != GradPrecision::Auto) // gradient reduction format the plan assumes
        j["communication_data_type"] = t.gradPrecision == GradPrecision::Fp32 ? "fp32"
                                       : t.precision == Precision::Fp16       ? "fp16"
                                                                              : "bf16";
    nlohmann::ordered_json zero{{"stage", std::clamp(t.zeroStage, 0, 3)}};
    // Reduce gradient buckets during the backward pass only when the plan assumes it.
    zero["overlap_comm"] = t.overlapDpComm || t.zeroStage >= 3;
    if (t.zeroStage >= 1)
        zero["contiguous_gradients"] = true;
    if (t.zeroStage == 2)
        zero["reduce_scatter"] = true;
    const int shardDegree = effectiveShardDegree(s);
    const bool hybrid = t.zeroStage >= 1 && shardDegree < l.dp;
    if (t.optimizerOffload) // ZeRO-Offload: optimizer state and step on the CPU (DeepSpeed needs stage 1 or
                            // more)
        zero["offload_optimizer"] = nlohmann::ordered_json{{"device", "cpu"}, {"pin_memory", true}};
    if (hybrid && t.zeroStage >= 3) { // MiCS: ZeRO-3 sharded within groups, replicated across them
        zero["mics_shard_size"] = shardDegree;
        zero["mics_hierarchical_params_gather"] = false;
    }
    j["zero_optimization"] = std::move(zero);
    if (t.recompute == Recompute::Full)
        j["activation_checkpointing"] = nlohmann::ordered_json{{"partition_activations", false},
                                                               {"cpu_checkpointing", false},
                                                               {"contiguous_memory_optimization", false},
                                                               {"synchronize_checkpoint_boundary", false}};
    j["gradient_clipping"] = 1.0;
    j["steps_per_print"] = 10;
    j["wall_clock_breakdown"] = false;
    out.text = j.dump(2) + "\n";

    out.notes.push_back("DeepSpeed counts train_batch_size over the data-parallel ranks: micro batch " +
                        std::to_string(l.microBatch) + " x accumulation " + std::to_string(l.accumulation) +
                        " x DP " + std::to_string(l.dp) + " = " + std::to_string(l.effectiveBatch()) + ".");
    if (l.tp > 1 || l.pp > 1)
        out.notes.push_back(
            "The config has no tensor- or pipeline-parallel size: run TP " + std::to_string(l.tp) + " x PP " +
            std::to_string(l.pp) +
            " through Megatron-DeepSpeed (--tensor-model-parallel-size, --pipeline-model-parallel-size)"
            " or deepspeed.pipe.PipelineModule(num_stages=" +
            std::to_string(l.pp) + ").");
    if (hybrid && t.zeroStage < 3)
        out.notes.push_back(
            "DeepSpeed shards ZeRO-1/2 state over all data-parallel ranks: it has no key for the "
            "plan's hybrid sharding over " +
            std::to_string(shardDegree) +
            " ranks (MiCS, mics_shard_size, needs stage 3), so memory per GPU will be lower and "
            "the gradient reduction wider than planned.");
    if (l.pp > 1 && t.zeroStage >= 2)
        out.notes.push_back("DeepSpeed's pipeline engine supports ZeRO stages 0 and 1 only; with PP " +
                            std::to_string(l.pp) + " use stage 1.");
    if (t.overlapDpComm && t.zeroStage == 0)
        out.notes.push_back(
            "DeepSpeed overlaps the gradient reduction (overlap_comm) only in its ZeRO optimizer: at stage 0 "
            "it reduces after the backward pass; use stage 1 for the overlap the plan assumes.");
    else if (!t.overlapDpComm && t.zeroStage >= 1 && t.zeroStage < 3)
        out.notes.push_back(
            "overlap_comm is false because the plan reduces gradients after the backward pass; most ZeRO "
            "runs "
            "turn it on: plan with --dp-comm-overlap on (or the DP overlap box) and it is written true.");
    if ((t.overlapTpComm && l.tp > 1) || (t.overlapPpComm && l.pp > 1))
        out.notes.push_back(
            "The plan overlaps the tensor-parallel or pipeline communication with compute; DeepSpeed's "
            "config has no key for that: it depends on the model code that runs TP and PP.");
    if (t.optimizerOffload && t.zeroStage == 0)
        out.notes.push_back(
            "DeepSpeed offloads the optimizer (offload_optimizer) only in its ZeRO optimizer: use "
            "stage 1 or more.");
    if (t.activationOffloadLayers > 0)
        out.notes.push_back(
            "DeepSpeed has no key for offloading the activations of " +
            std::to_string(t.activationOffloadLayers) +
            " layers per stage as the plan does (Megatron-LM's --cpu-offloading-num-layers); "
            "activation_checkpointing.cpu_checkpointing offloads recompute checkpoints instead.");
    noteWhatTheTargetLacks(out, "DeepSpeed", t,
                           "fp32 master weights and optimizer state with bf16 or fp16 training");
    if (t.crossEntropy != CrossEntropy::Auto)
        out.notes.push_back(
            "The loss kernel (" + std::string(toString(t.crossEntropy)) +
            " cross-entropy in the plan) has no DeepSpeed config key: the model code chooses it "
            "(for example Liger kernel's fused linear cross-entropy).");
    if (l.cp > 1)
        out.notes.push_back(
            "Context parallelism has no DeepSpeed config key (DeepSpeed-Ulysses sequence parallelism "
            "is set up in the model code).");
    if (l.ep > 1)
        out.notes.push_back(
            "Expert parallelism is set in the model code: deepspeed.moe.layer.MoE(ep_size=" +
            std::to_string(l.ep) + ")" +
            (t.moeDispatcher == MoeDispatcher::Deduplicated
                 ? "; DeepSpeed-MoE dispatches by all-to-all, where the plan assumes DeepEP-style "
                   "dispatch (once per node)."
                 : "."));
    if (t.precision == Precision::Fp8)
        out.notes.push_back(
            "DeepSpeed's config has no fp8 switch: fp8 matmuls need Transformer Engine in the model; "
            "the config enables bf16.");
    if (t.recompute == Recompute::Full)
        out.notes.push_back(
            "activation_checkpointing only configures deepspeed.checkpointing.checkpoint(); the model "
            "must call it for " +
            (t.recomputeLayers > 0 ? "the first " + std::to_string(t.recomputeLayers) +
                                         " layers of each pipeline stage (block recompute)."
                                   : std::string("every layer (full recompute).")));
    else if (t.recompute == Recompute::Selective)
        out.notes.push_back(
            "Selective recompute is not a DeepSpeed config key: use Megatron-DeepSpeed's "
            "--recompute-granularity selective, or checkpoint the attention core in the model.");
    out.notes.push_back(
        "The optimizer and learning-rate schedule are left to your training script (add an "
        "\"optimizer\" section to use DeepSpeed's own" +
        std::string(t.optimizer == Optimizer::SgdMomentum ? "; the plan assumes SGD with momentum" : "") +
        ").");
    return out;
}

LaunchSettings torchtitan(const Scenario& s) {
    const ModelSpec& m = s.model;
    const TrainingOptions& t = s.training;
    const Layout& l = s.layout;
    LaunchSettings out;
    out.target = LaunchTarget::Torchtitan;
    out.fileName = "torchtitan.toml";
    std::string a;
    auto kv = [&](const std::string& key, const std::string& value, const std::string& comment = {}) {
        std::string line = key + " = " + value;
        if (!comment.empty()) {
            if (line.size() < 44)
                line.append(44 - line.size(), ' ');
            line += "  # " + comment;
        }
        a += line + "\n";
    };
    auto n = [](long long v) { return std::to_string(v); };
    auto quoted = [](const std::string& v) { return "\"" + v + "\""; };

    a += "# torchtitan settings for \"" + plainName(s.name) + "\", written by Layout Planner.\n";
    a += "# Layout: " + layoutLine(s) + "; launch " + std::to_string(l.gpus()) + " ranks (" + launchHint(s) +
         ").\n";
    a += "# Merge these tables into your train config; its [model] table names the model and flavor\n";
    a += "# (here: " + plainName(m.name) + ").\n";

    const bool pipelined = l.pp > 1;
    a += "\n[training]\n";
    if (pipelined) {
        kv("local_batch_size", n(static_cast<long long>(l.microBatch) * l.accumulation),
           std::to_string(l.accumulation) + " micro batches of " + std::to_string(l.microBatch) +
               " per DP rank");
    } else {
        kv("local_batch_size", n(l.microBatch), "sequences per DP rank per micro batch");
    }
    kv("global_batch_size", n(l.effectiveBatch()),
       pipelined ? std::string("local x DP")
                 : "local x DP x " + std::to_string(l.accumulation) + " accumulation steps");
    kv("seq_len", n(m.seqLen));
    if (const long long steps = stepsForBudget(s); steps > 0)
        kv("steps", n(steps), fmt::count(t.tokenBudget) + " tokens");
    kv("mixed_precision_param", quoted("bfloat16"));
    if (t.gradPrecision == GradPrecision::Half)
        kv("mixed_precision_reduce", quoted("bfloat16"), "16-bit gradient reduction");
    else
        kv("mixed_precision_reduce", quoted("float32"));

    a += "\n[parallelism]\n";
    if (t.zeroStage == 0) {
        kv("data_parallel_replicate_degree", n(l.dp), "DDP (ZeRO-0)");
        kv("data_parallel_shard_degree", "1");
    } else if (const int shardDegree = effectiveShardDegree(s); shardDegree < l.dp) {
        kv("data_parallel_replicate_degree", n(l.dp / shardDegree), "HSDP: replicas of the shard group");
        kv("data_parallel_shard_degree", n(shardDegree), "FSDP2 within each replica");
        if (t.zeroStage <= 2)
            kv("fsdp_reshard_after_forward", quoted("never"),
               "keep weights gathered: closest to ZeRO-" + std::to_string(t.zeroStage));
    } else {
        kv("data_parallel_replicate_degree", "1");
        kv("data_parallel_shard_degree", n(l.dp), "FSDP2");
        if (t.zeroStage <= 2)
            kv("fsdp_reshard_after_forward", quoted("never"),
               "keep weights gathered: closest to ZeRO-" + std::to_string(t.zeroStage));
    }
    kv("tensor_parallel_degree", n(l.tp));
    kv("pipeline_parallel_degree", n(l.pp));
    if (pipelined) {
        kv("pipeline_parallel_microbatch_size", n(l.microBatch));
        if (l.vpp > 1) {
            kv("pipeline_parallel_schedule", quoted("Interleaved1F1B"),
               std::to_string(l.vpp) + " stages per rank");
            const long long chunks = static_cast<long long>(l.pp) * l.vpp;
            if (chunks > 0 && m.layers % chunks == 0 && !pipelineSplitCountsEmbeddingAndLoss(s))
                kv("pipeline_parallel_layers_per_stage", n(m.layers / chunks));
        } else {
            kv("pipeline_parallel_schedule", quoted("1F1B"));
        }
    }
    kv("context_parallel_degree", n(l.cp));
    if (l.cp > 1) {
        const bool gather = cpExchangeOf(t, ExecutionStyle::Fsdp) == CpExchange::AllGather;
        kv("context_parallel_rotate_method", quoted(gather ? "allgather" : "alltoall"),
           gather ? "torch's default: one all-gather of K/V" : "a ring: one K/V chunk per step");
    }
    if (m.isMoe() || l.ep > 1)
        kv("expert_parallel_degree", n(l.ep));
    if (m.isMoe() && l.tp > 1)
        kv("expert_tensor_parallel_degree", n(expertTensorParallel(s)));
    const bool asyncTp = t.overlapTpComm && l.tp > 1;
    if (asyncTp)
        kv("enable_async_tensor_parallel", "true", "AsyncTP: needs torch.compile");

    // The compiled loss is the plan's (Auto with the model compiled, as torchtitan does, or Compiled), and
    // the closest torchtitan has to a fused kernel (Fused, which the plan charges a little more); the eager
    // loss is the unfused one the FSDP style charges otherwise. The model is compiled where the plan says so
    // (torch.compile: fused elementwise kernels) and for AsyncTP, which needs the compiled graph; the loss
    // only where the plan's loss is a compiled or fused one, so that its memory stays what the plan assumes.
    const CrossEntropy ce = t.crossEntropy;
    const CrossEntropy planned = lossKernel(t, ExecutionStyle::Fsdp);
    const bool compileLoss = planned == CrossEntropy::Fused || planned == CrossEntropy::Compiled ||
                             planned == CrossEntropy::Fused16;
    const bool compileModel = asyncTp || t.torchCompile;
    if (compileModel || compileLoss) {
        a += "\n[compile]\n";
        kv("enable", "true",
           t.torchCompile ? "torch.compile: the fused elementwise kernels the plan assumes"
           : asyncTp      ? "AsyncTP works on the compiled graph"
                          : "the compiled loss: the fp32 softmax fused, 16-bit logits and gradient");
        kv("components", compileModel && compileLoss ? "[\"model\", \"loss\"]"
                         : compileModel              ? "[\"model\"]"
                                                     : "[\"loss\"]");
    }

    a += "\n[activation_checkpoint]\n";
    switch (t.recompute) {
    case Recompute::None:
        kv("mode", quoted("none"));
        break;
    case Recompute::Selective:
        kv("mode", quoted("selective"));
        kv("selective_ac_option", quoted("op"), "op-level selective recompute");
        break;
    case Recompute::Full:
        if (t.recomputeLayers > 0) {
            // torchtitan has no block method; its layer-level selective AC recomputes every k-th layer, the
            // same share of the layers for k = layers per chunk / N.
            const double perChunk = static_cast<double>(m.layers) / std::max(1, l.pp * l.vpp);
            const int every = std::max(1, static_cast<int>(std::lround(perChunk / t.recomputeLayers)));
            kv("mode", quoted(every == 1 ? "full" : "selective"));
            if (every > 1)
                kv("selective_ac_option", quoted(std::to_string(every)),
                   "every " + std::to_string(every) + "th layer recomputed: the plan's " +
                       std::to_string(t.recomputeLayers) + " of each chunk's layers");
        } else {
            kv("mode", quoted("full"));
        }
        break;
    }
    if (t.precision == Precision::Fp8)
        a += std::string(
                 "\n# fp8: enable torchtitan's Float8 converter for the linear layers (see torchtitan's "
                 "docs/float8.md)") +
             (t.fp8ParamGather ? ", with its float8 FSDP all-gather (enable_fsdp_float8_all_gather)" : "") +
             ".\n";
    out.text = std::move(a);

    if (t.zeroStage == 1 || t.zeroStage == 2)
        out.notes.push_back(
            "torchtitan shards data parallelism with FSDP2 and has no ZeRO-" + std::to_string(t.zeroStage) +
            ": fsdp_reshard_after_forward = \"never\" keeps the weights gathered between forward and "
            "backward, which is closest" +
            (t.zeroStage == 1 ? std::string("; FSDP2 also shards the gradients, so memory is a little "
                                            "lower than planned.")
                              : std::string(".")));
    if (resolvedStyle(t) != ExecutionStyle::Fsdp)
        out.notes.push_back(
            "torchtitan schedules work FSDP-style: evaluate the scenario with --style fsdp (and "
            "--zero 3) to see the plan for torchtitan.");
    if (l.tp > 1 && !t.sequenceParallel)
        out.notes.push_back(
            "torchtitan's tensor parallelism always shards the sequence between the TP regions "
            "(sequence parallelism), which the plan has off.");
    if (t.precision == Precision::Fp16)
        out.notes.push_back(
            "torchtitan trains with bf16 or fp32 parameters only: the settings use bfloat16, not fp16.");
    if (t.precision == Precision::Fp8)
        out.notes.push_back(
            "fp8 matmuls need torchtitan's Float8 converter (torchao); its settings' names differ "
            "between torchtitan versions, so the file only says where to enable it.");
    if (pipelineSplitCountsEmbeddingAndLoss(s))
        out.notes.push_back(
            "The plan counts the embedding and the loss as one layer each in the pipeline split "
            "(the first and last stages hold one layer fewer): check that the torchtitan version "
            "weights its input and output modules that way, or set the split points by hand.");
    else if (l.vpp > 1 && m.layers % (static_cast<long long>(l.pp) * l.vpp) != 0)
        out.notes.push_back("The layers do not split evenly into PP x virtual stages: set "
                            "pipeline_parallel_layers_per_stage or the split points by hand.");
    if (asyncTp)
        out.notes.push_back(
            "Async tensor parallelism (enable_async_tensor_parallel) only works with torch.compile: the "
            "[compile] table enables it (older torchtitan versions: training.compile = true, and "
            "experimental.enable_async_tensor_parallel); it uses symmetric memory, so keep the TP group "
            "inside one NVLink domain.");
    noteWhatTheTargetLacks(out, "torchtitan", t,
                           "fp32 parameters and Adam moments (FSDP2 mixed precision computes in bf16)");
    if (ce == CrossEntropy::FusedLinear)
        out.notes.push_back(
            "torchtitan has no fused linear cross-entropy setting: the plan assumes one that never holds the "
            "whole logits (Liger kernel's LigerFusedLinearCrossEntropyLoss in a custom loss, for example).");
    if (t.overlapPpComm && l.pp > 1)
        out.notes.push_back(
            "torchtitan has no setting for overlapping the pipeline send/receive with compute: how much of "
            "it hides depends on the pipeline schedule of torch.distributed.pipelining.");
    if (!t.flashAttention)
        out.notes.push_back(
            "torchtitan uses PyTorch's scaled_dot_product_attention (flash kernels); the plan has "
            "flash attention off.");
    if (m.isMoe() && l.ep > 1 && t.moeDispatcher == MoeDispatcher::Deduplicated)
        out.notes.push_back(
            "The plan dispatches MoE tokens DeepEP-style (once per node, forwarded over NVLink); the "
            "settings "
            "do not set torchtitan's expert-parallel communication backend, whose name differs between "
            "versions: choose DeepEP there, or plan with --moe-dispatcher alltoall.");
    return out;
}

} // namespace

std::string_view toString(LaunchTarget t) {
    switch (t) {
    case LaunchTarget::Megatron:
        return "megatron";
    case LaunchTarget::DeepSpeed:
        return "deepspeed";
    case LaunchTarget::Torchtitan:
        return "torchtitan";
    }
    return "megatron";
}

std::string_view displayName(LaunchTarget t) {
    switch (t) {
    case LaunchTarget::Megatron:
        return "Megatron-LM";
    case LaunchTarget::DeepSpeed:
        return "DeepSpeed";
    case LaunchTarget::Torchtitan:
        return "torchtitan";
    }
    return "Megatron-LM";
}

std::optional<LaunchTarget> parseLaunchTarget(std::string_view s) {
    const std::string l = asciiLower(s);
    if (l == "megatron" || l == "megatron-lm" || l == "megatron_lm")
        return LaunchTarget::Megatron;
    if (l == "deepspeed" || l == "ds")
        return LaunchTarget::DeepSpeed;
    if (l == "torchtitan" || l == "titan")
        return LaunchTarget::Torchtitan;
    return std::nullopt;
}

LaunchSettings exportLaunchSettings(const Scenario& s, LaunchTarget target) {
    switch (target) {
    case LaunchTarget::Megatron:
        return megatron(s);
    case LaunchTarget::DeepSpeed:
        return deepspeed(s);
    case LaunchTarget::Torchtitan:
        return torchtitan(s);
    }
    return megatron(s);
}

} // namespace lp::core
