#include "core/export/detail/DeepSpeedConfig.h"

#include "core/export/detail/LaunchText.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <string>

namespace lp::core::detail {
namespace {

using Json = nlohmann::ordered_json;

bool hybridSharding(const Scenario& s) {
    return s.training.zeroStage >= 1 && effectiveShardDegree(s) < s.layout.dp;
}

Json zeroOptimization(const Scenario& s) {
    const TrainingOptions& t = s.training;
    Json zero{{"stage", std::clamp(t.zeroStage, 0, 3)}};
    // Reduce gradient buckets during the backward pass only when the plan assumes it.
    zero["overlap_comm"] = overlapsDpComm(s) || t.zeroStage >= 3;
    if (t.zeroStage >= 1)
        zero["contiguous_gradients"] = true;
    if (t.zeroStage == 2)
        zero["reduce_scatter"] = true;
    if (t.optimizerOffload) // ZeRO-Offload: optimizer state and step on the CPU (stage 1 or more)
        zero["offload_optimizer"] = Json{{"device", "cpu"}, {"pin_memory", true}};
    if (t.zeroStage >= 3) { // the defaults the plan's per-module fetches and reduce buckets assume
        zero["stage3_prefetch_bucket_size"] = 50'000'000;
        zero["stage3_param_persistence_threshold"] = 100'000;
        zero["reduce_bucket_size"] = 500'000'000;
    }
    if (hybridSharding(s) && t.zeroStage >= 3) { // MiCS: ZeRO-3 sharded within groups, replicated across them
        zero["mics_shard_size"] = effectiveShardDegree(s);
        zero["mics_hierarchical_params_gather"] = false;
    }
    return zero;
}

std::string configText(const Scenario& s) {
    const TrainingOptions& t = s.training;
    const Layout& l = s.layout;
    Json j;
    j["train_batch_size"] = l.effectiveBatch();
    j["train_micro_batch_size_per_gpu"] = l.microBatch;
    j["gradient_accumulation_steps"] = l.accumulation;
    if (t.precision == Precision::Fp16)
        j["fp16"] = Json{{"enabled", true},           {"loss_scale", 0}, {"initial_scale_power", 16},
                         {"loss_scale_window", 1000}, {"hysteresis", 2}, {"min_loss_scale", 1}};
    else
        j["bf16"] = Json{{"enabled", true}};
    if (t.gradPrecision != GradPrecision::Auto) // gradient reduction format the plan assumes
        j["communication_data_type"] = t.gradPrecision == GradPrecision::Fp32 ? "fp32"
                                       : t.precision == Precision::Fp16       ? "fp16"
                                                                              : "bf16";
    j["zero_optimization"] = zeroOptimization(s);
    if (t.recompute == Recompute::Full)
        j["activation_checkpointing"] = Json{{"partition_activations", false},
                                             {"cpu_checkpointing", false},
                                             {"contiguous_memory_optimization", false},
                                             {"synchronize_checkpoint_boundary", false}};
    j["gradient_clipping"] = 1.0;
    j["steps_per_print"] = 10;
    j["wall_clock_breakdown"] = false;
    return j.dump(2) + "\n";
}

// How the config's batch, ZeRO stage and overlap relate to the plan's layout.
void layoutNotes(LaunchSettings& out, const Scenario& s) {
    const TrainingOptions& t = s.training;
    const Layout& l = s.layout;
    out.notes.push_back("DeepSpeed counts train_batch_size over the data-parallel ranks: micro batch " +
                        std::to_string(l.microBatch) + " x accumulation " + std::to_string(l.accumulation) +
                        " x DP " + std::to_string(l.dp) + " = " + std::to_string(l.effectiveBatch()) + ".");
    if (l.tp > 1 || l.pp > 1)
        out.notes.push_back("The config has no tensor- or pipeline-parallel size: run TP " +
                            std::to_string(l.tp) + " x PP " + std::to_string(l.pp) +
                            " through Megatron-DeepSpeed (--tensor-model-parallel-size, "
                            "--pipeline-model-parallel-size) or deepspeed.pipe.PipelineModule(num_stages=" +
                            std::to_string(l.pp) + ").");
    if (hybridSharding(s) && t.zeroStage < 3)
        out.notes.push_back("DeepSpeed shards ZeRO-1/2 state over all data-parallel ranks: it has no key for "
                            "the plan's hybrid sharding over " +
                            std::to_string(effectiveShardDegree(s)) +
                            " ranks (MiCS, mics_shard_size, needs stage 3), so memory per GPU will be lower "
                            "and the gradient reduction wider than planned.");
    if (l.pp > 1 && t.pipelineSchedule != PipelineSchedule::OneFOneB)
        out.notes.push_back("DeepSpeed's pipeline engine runs 1F1B (TrainSchedule) only: it has no " +
                            std::string(toString(t.pipelineSchedule)) +
                            " schedule, so the bubble and activation memory will be 1F1B's.");
    if (t.zeroStage >= 3 && t.zero3Gather == Zero3Gather::Layer && l.dp * l.cp > 1)
        out.notes.push_back(
            "DeepSpeed ZeRO-3 gathers the weights module by module, one all-gather per linear "
            "module, where the plan gathers whole layers as FSDP does: plan with --zero3-gather "
            "module (zero3_gather \"module\") to see DeepSpeed's collectives.");
    if (l.pp > 1 && t.zeroStage >= 2)
        out.notes.push_back("DeepSpeed's pipeline engine supports ZeRO stages 0 and 1 only; with PP " +
                            std::to_string(l.pp) + " use stage 1.");
    if (overlapsDpComm(s) && t.zeroStage == 0)
        out.notes.push_back(
            "DeepSpeed overlaps the gradient reduction (overlap_comm) only in its ZeRO optimizer: at stage 0 "
            "it reduces after the backward pass; use stage 1 for the overlap the plan assumes.");
    else if (!overlapsDpComm(s) && t.zeroStage >= 1 && t.zeroStage < 3)
        out.notes.push_back("overlap_comm is false because the plan reduces gradients after the backward "
                            "pass; most ZeRO runs turn it on: plan with --dp-comm-overlap on (or the DP "
                            "overlap box) and it is written true.");
    if ((overlapsTpComm(s) && l.tp > 1) || (t.overlapPpComm && l.pp > 1))
        out.notes.push_back(
            "The plan overlaps the tensor-parallel or pipeline communication with compute; DeepSpeed's "
            "config has no key for that: it depends on the model code that runs TP and PP.");
    if (t.optimizerOffload && t.zeroStage == 0)
        out.notes.push_back("DeepSpeed offloads the optimizer (offload_optimizer) only in its ZeRO "
                            "optimizer: use stage 1 or more.");
    if (t.activationOffloadLayers > 0)
        out.notes.push_back(
            "DeepSpeed has no key for offloading the activations of " +
            std::to_string(t.activationOffloadLayers) +
            " layers per stage as the plan does (Megatron-LM's --cpu-offloading-num-layers); "
            "activation_checkpointing.cpu_checkpointing offloads recompute checkpoints instead.");
}

// What the plan assumes that only the model code or the training script can set.
void modelCodeNotes(LaunchSettings& out, const Scenario& s) {
    const TrainingOptions& t = s.training;
    const Layout& l = s.layout;
    noteWhatTheTargetLacks(out, "DeepSpeed", t,
                           "fp32 master weights and optimizer state with bf16 or fp16 training");
    if (t.crossEntropy != CrossEntropy::Auto)
        out.notes.push_back("The loss kernel (" + std::string(toString(t.crossEntropy)) +
                            " cross-entropy in the plan) has no DeepSpeed config key: the model code chooses "
                            "it (for example Liger kernel's fused linear cross-entropy).");
    if (l.cp > 1)
        out.notes.push_back("Context parallelism has no DeepSpeed config key (DeepSpeed-Ulysses sequence "
                            "parallelism is set up in the model code).");
    if (l.ep > 1)
        out.notes.push_back("Expert parallelism is set in the model code: deepspeed.moe.layer.MoE(ep_size=" +
                            std::to_string(l.ep) + ")" +
                            (t.moeDispatcher == MoeDispatcher::Deduplicated
                                 ? "; DeepSpeed-MoE dispatches by all-to-all, where the plan assumes "
                                   "DeepEP-style dispatch (once per node)."
                                 : "."));
    if (t.precision == Precision::Fp8)
        out.notes.push_back("DeepSpeed's config has no fp8 switch: fp8 matmuls need Transformer Engine in "
                            "the model; the config enables bf16.");
    if (t.recompute == Recompute::Full)
        out.notes.push_back("activation_checkpointing only configures deepspeed.checkpointing.checkpoint(); "
                            "the model must call it for " +
                            (t.recomputeLayers > 0 ? "the first " + std::to_string(t.recomputeLayers) +
                                                         " layers of each pipeline stage (block recompute)."
                                                   : std::string("every layer (full recompute).")));
    else if (t.recompute == Recompute::Selective)
        out.notes.push_back(
            "Selective recompute is not a DeepSpeed config key: use Megatron-DeepSpeed's "
            "--recompute-granularity selective, or checkpoint the attention core in the model.");
    out.notes.push_back(
        "The optimizer and learning-rate schedule are left to your training script (add an \"optimizer\" "
        "section to use DeepSpeed's own" +
        std::string(t.optimizer == Optimizer::SgdMomentum ? "; the plan assumes SGD with momentum" : "") +
        ").");
}

} // namespace

LaunchSettings deepSpeedConfig(const Scenario& s) {
    LaunchSettings out;
    out.target = LaunchTarget::DeepSpeed;
    out.fileName = "ds_config.json";
    out.text = configText(s);
    layoutNotes(out, s);
    modelCodeNotes(out, s);
    return out;
}

} // namespace lp::core::detail
