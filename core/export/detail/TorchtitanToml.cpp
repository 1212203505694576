#include "core/export/detail/TorchtitanToml.h"

#include "core/estimate/ExecutionStyle.h"
#include "core/export/detail/LaunchText.h"
#include "core/util/NumberFormat.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace lp::core::detail {
namespace {

// The TOML being written: "key = value  # comment" lines under "[table]" headers.
class TomlText : public LaunchFile {
public:
    explicit TomlText(const Scenario& s)
        : LaunchFile(s, LaunchTarget::Torchtitan, "torchtitan.toml", "settings") {}
    void table(const std::string& name) { raw("\n[" + name + "]\n"); }
    void kv(const std::string& key, const std::string& value, const std::string& comment = {}) {
        raw(withComment(key + " = " + value, 44, comment));
    }
};

std::string n(long long v) {
    return std::to_string(v);
}

std::string quoted(const std::string& v) {
    return "\"" + v + "\"";
}

// How to launch, and where the tables go.
void launchComment(TomlText& a, const Scenario& s) {
    a.raw("# Layout: " + layoutLine(s) + "; launch " + std::to_string(s.layout.gpus()) + " ranks (" +
          launchHint(s) + ").\n");
    a.raw("# Merge these tables into your train config; its [model] table names the model and flavor\n");
    a.raw("# (here: " + plainName(s.model.name) + ").\n");
}

void trainingTable(TomlText& a, const Scenario& s) {
    const Layout& l = s.layout;
    const bool pipelined = l.pp > 1;
    a.table("training");
    if (pipelined)
        a.kv("local_batch_size", n(static_cast<long long>(l.microBatch) * l.accumulation),
             std::to_string(l.accumulation) + " micro batches of " + std::to_string(l.microBatch) +
                 " per DP rank");
    else
        a.kv("local_batch_size", n(l.microBatch), "sequences per DP rank per micro batch");
    a.kv("global_batch_size", n(l.effectiveBatch()),
         pipelined ? std::string("local x DP")
                   : "local x DP x " + std::to_string(l.accumulation) + " accumulation steps");
    a.kv("seq_len", n(s.model.seqLen));
    if (const long long steps = stepsForBudget(s); steps > 0)
        a.kv("steps", n(steps), fmt::count(s.training.tokenBudget) + " tokens");
    a.kv("mixed_precision_param", quoted("bfloat16"));
    if (s.training.gradPrecision == GradPrecision::Half)
        a.kv("mixed_precision_reduce", quoted("bfloat16"), "16-bit gradient reduction");
    else
        a.kv("mixed_precision_reduce", quoted("float32"));
}

// Data parallelism as FSDP2 shards and replicates it: DDP, HSDP or FSDP.
void dataParallelKeys(TomlText& a, const Scenario& s) {
    const TrainingOptions& t = s.training;
    const Layout& l = s.layout;
    if (t.zeroStage == 0) {
        a.kv("data_parallel_replicate_degree", n(l.dp), "DDP (ZeRO-0)");
        a.kv("data_parallel_shard_degree", "1");
        return;
    }
    if (const int shardDegree = effectiveShardDegree(s); shardDegree < l.dp) {
        a.kv("data_parallel_replicate_degree", n(l.dp / shardDegree), "HSDP: replicas of the shard group");
        a.kv("data_parallel_shard_degree", n(shardDegree), "FSDP2 within each replica");
    } else {
        a.kv("data_parallel_replicate_degree", "1");
        a.kv("data_parallel_shard_degree", n(l.dp), "FSDP2");
    }
    if (t.zeroStage <= 2)
        a.kv("fsdp_reshard_after_forward", quoted("never"),
             "keep weights gathered: closest to ZeRO-" + std::to_string(t.zeroStage));
}

void pipelineKeys(TomlText& a, const Scenario& s) {
    const Layout& l = s.layout;
    a.kv("pipeline_parallel_microbatch_size", n(l.microBatch));
    const PipelineSchedule schedule = s.training.pipelineSchedule;
    if (schedule == PipelineSchedule::GPipe) {
        a.kv("pipeline_parallel_schedule", quoted("GPipe"), "all forwards, then all backwards");
        return;
    }
    const bool zeroBubble = schedule == PipelineSchedule::ZeroBubbleH1;
    if (l.vpp <= 1 && !zeroBubble) {
        a.kv("pipeline_parallel_schedule", quoted("1F1B"));
        return;
    }
    // torch's zero-bubble schedules are multi-stage classes: InterleavedZeroBubble is ZB-H1 looped over the
    // rank's stages (one stage per rank when the layers per stage say so); ZBVZeroBubble its V-shaped
    // variant.
    if (zeroBubble)
        a.kv("pipeline_parallel_schedule", quoted("InterleavedZeroBubble"),
             std::to_string(l.vpp) + (l.vpp == 1 ? " stage" : " stages") +
                 " per rank; ZBVZeroBubble is the V-shaped schedule for 2");
    else
        a.kv("pipeline_parallel_schedule", quoted("Interleaved1F1B"),
             std::to_string(l.vpp) + " stages per rank");
    const long long chunks = static_cast<long long>(l.pp) * l.vpp;
    if (chunks > 0 && s.model.layers % chunks == 0 && !pipelineSplitCountsEmbeddingAndLoss(s))
        a.kv("pipeline_parallel_layers_per_stage", n(s.model.layers / chunks));
}

void parallelismTable(TomlText& a, const Scenario& s) {
    const ModelSpec& m = s.model;
    const TrainingOptions& t = s.training;
    const Layout& l = s.layout;
    a.table("parallelism");
    dataParallelKeys(a, s);
    a.kv("tensor_parallel_degree", n(l.tp));
    a.kv("pipeline_parallel_degree", n(l.pp));
    if (l.pp > 1)
        pipelineKeys(a, s);
    a.kv("context_parallel_degree", n(l.cp));
    if (l.cp > 1) {
        const bool gather = cpExchangeOf(t, ExecutionStyle::Fsdp) == CpExchange::AllGather;
        a.kv("context_parallel_rotate_method", quoted(gather ? "allgather" : "alltoall"),
             gather ? "torch's default: one all-gather of K/V" : "a ring: one K/V chunk per step");
    }
    if (m.isMoe() || l.ep > 1)
        a.kv("expert_parallel_degree", n(l.ep));
    if (m.isMoe() && l.tp > 1)
        a.kv("expert_tensor_parallel_degree", n(expertTensorParallel(s)));
    if (overlapsTpComm(s) && l.tp > 1)
        a.kv("enable_async_tensor_parallel", "true", "AsyncTP: needs torch.compile");
}

// The compiled loss is the plan's (Auto with the model compiled, as torchtitan does, or Compiled), and the
// closest torchtitan has to a fused kernel (Fused, which the plan charges a little more); the eager loss is
// the unfused one the FSDP style charges otherwise. The model is compiled where the plan says so
// (torch.compile: fused elementwise kernels) and for AsyncTP, which needs the compiled graph; the loss only
// where the plan's loss is a compiled or fused one, so that its memory stays what the plan assumes.
void compileTable(TomlText& a, const Scenario& s) {
    const TrainingOptions& t = s.training;
    const bool asyncTp = overlapsTpComm(s) && s.layout.tp > 1;
    const CrossEntropy planned = lossKernel(t, ExecutionStyle::Fsdp);
    const bool compileLoss = planned == CrossEntropy::Fused || planned == CrossEntropy::Compiled ||
                             planned == CrossEntropy::Fused16;
    const bool compileModel = asyncTp || t.torchCompile;
    if (!(compileModel || compileLoss))
        return;
    a.table("compile");
    a.kv("enable", "true",
         t.torchCompile ? "torch.compile: the fused elementwise kernels the plan assumes"
         : asyncTp      ? "AsyncTP works on the compiled graph"
                        : "the compiled loss: the fp32 softmax fused, 16-bit logits and gradient");
    a.kv("components", compileModel && compileLoss ? "[\"model\", \"loss\"]"
                       : compileModel              ? "[\"model\"]"
                                                   : "[\"loss\"]");
}

void activationCheckpointTable(TomlText& a, const Scenario& s) {
    const TrainingOptions& t = s.training;
    a.table("activation_checkpoint");
    switch (t.recompute) {
    case Recompute::None:
        a.kv("mode", quoted("none"));
        break;
    case Recompute::Selective:
        a.kv("mode", quoted("selective"));
        a.kv("selective_ac_option", quoted("op"), "op-level selective recompute");
        break;
    case Recompute::Full: {
        if (t.recomputeLayers <= 0) {
            a.kv("mode", quoted("full"));
            break;
        }
        // torchtitan has no block method; its layer-level selective AC recomputes every k-th layer, the same
        // share of the layers for k = layers per chunk / N.
        const double perChunk = static_cast<double>(s.model.layers) / std::max(1, s.layout.pp * s.layout.vpp);
        const int every = std::max(1, static_cast<int>(std::lround(perChunk / t.recomputeLayers)));
        a.kv("mode", quoted(every == 1 ? "full" : "selective"));
        if (every > 1)
            a.kv("selective_ac_option", quoted(std::to_string(every)),
                 "every " + std::to_string(every) + "th layer recomputed: the plan's " +
                     std::to_string(t.recomputeLayers) + " of each chunk's layers");
        break;
    }
    }
}

// Where torchtitan's data parallelism, number formats and pipeline split differ from the plan's.
void layoutNotes(LaunchSettings& out, const Scenario& s) {
    const TrainingOptions& t = s.training;
    const Layout& l = s.layout;
    if (t.zeroStage == 1 || t.zeroStage == 2)
        out.notes.push_back(
            "torchtitan shards data parallelism with FSDP2 and has no ZeRO-" + std::to_string(t.zeroStage) +
            ": fsdp_reshard_after_forward = \"never\" keeps the weights gathered between forward and "
            "backward, which is closest" +
            (t.zeroStage == 1
                 ? std::string("; FSDP2 also shards the gradients, so memory is a little lower than planned.")
                 : std::string(".")));
    if (t.zeroStage >= 3 && t.zero3Gather == Zero3Gather::Module)
        out.notes.push_back(fsdp2GathersLayersNote("torchtitan"));
    if (resolvedStyle(t) != ExecutionStyle::Fsdp)
        out.notes.push_back("torchtitan schedules work FSDP-style: evaluate the scenario with --style fsdp "
                            "(and --zero 3) to see the plan for torchtitan.");
    if (l.tp > 1 && !t.sequenceParallel)
        out.notes.push_back("torchtitan's tensor parallelism always shards the sequence between the TP "
                            "regions (sequence parallelism), which the plan has off.");
    if (t.precision == Precision::Fp16)
        out.notes.push_back(
            "torchtitan trains with bf16 or fp32 parameters only: the settings use bfloat16, not fp16.");
    if (t.precision == Precision::Fp8)
        out.notes.push_back("fp8 matmuls need torchtitan's Float8 converter (torchao); its settings' names "
                            "differ between torchtitan versions, so the file only says where to enable it.");
    if (pipelineSplitCountsEmbeddingAndLoss(s))
        out.notes.push_back(
            "The plan counts the embedding and the loss as one layer each in the pipeline split (the first "
            "and last stages hold one layer fewer): check that the torchtitan version weights its input and "
            "output modules that way, or set the split points by hand.");
    else if (l.vpp > 1 && s.model.layers % (static_cast<long long>(l.pp) * l.vpp) != 0)
        out.notes.push_back("The layers do not split evenly into PP x virtual stages: set "
                            "pipeline_parallel_layers_per_stage or the split points by hand.");
}

// What torchtitan has no setting for.
void missingSettingNotes(LaunchSettings& out, const Scenario& s) {
    const TrainingOptions& t = s.training;
    const Layout& l = s.layout;
    if (overlapsTpComm(s) && l.tp > 1)
        out.notes.push_back("Async tensor parallelism (enable_async_tensor_parallel) only works with "
                            "torch.compile: the [compile] table enables it (older torchtitan versions: "
                            "training.compile = true, and experimental.enable_async_tensor_parallel); it "
                            "uses symmetric memory, so keep the TP group inside one NVLink domain.");
    noteWhatTheTargetLacks(out, "torchtitan", t,
                           "fp32 parameters and Adam moments (FSDP2 mixed precision computes in bf16)");
    if (t.crossEntropy == CrossEntropy::FusedLinear)
        out.notes.push_back(
            "torchtitan has no fused linear cross-entropy setting: the plan assumes one that never holds the "
            "whole logits (Liger kernel's LigerFusedLinearCrossEntropyLoss in a custom loss, for example).");
    if (t.overlapPpComm && l.pp > 1)
        out.notes.push_back(
            "torchtitan has no setting for overlapping the pipeline send/receive with compute: how much of "
            "it hides depends on the pipeline schedule of torch.distributed.pipelining.");
    if (!fusedAttention(t))
        out.notes.push_back("torchtitan uses PyTorch's scaled_dot_product_attention (flash kernels); the "
                            "plan has no fused attention kernel.");
    if (s.model.isMoe() && l.ep > 1 && t.moeDispatcher == MoeDispatcher::Deduplicated)
        out.notes.push_back(
            "The plan dispatches MoE tokens DeepEP-style (once per node, forwarded over NVLink); the "
            "settings do not set torchtitan's expert-parallel communication backend, whose name differs "
            "between versions: choose DeepEP there, or plan with --moe-dispatcher alltoall.");
}

} // namespace

LaunchSettings torchtitanToml(const Scenario& s) {
    TomlText a(s);
    launchComment(a, s);
    trainingTable(a, s);
    parallelismTable(a, s);
    compileTable(a, s);
    activationCheckpointTable(a, s);
    if (s.training.precision == Precision::Fp8)
        a.raw(std::string("\n# fp8: enable torchtitan's Float8 converter for the linear layers (see "
                          "torchtitan's docs/float8.md)") +
              (s.training.fp8ParamGather ? ", with its float8 FSDP all-gather (enable_fsdp_float8_all_gather)"
                                         : "") +
              ".\n");
    LaunchSettings out = a.take();
    layoutNotes(out, s);
    missingSettingNotes(out, s);
    return out;
}

} // namespace lp::core::detail
