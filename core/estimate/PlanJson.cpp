#include "core/estimate/PlanJson.h"

#include "core/estimate/Precision.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace lp::core {

using nlohmann::json;

json finiteOrNull(double v) {
    if (std::isfinite(v))
        return json(v);
    return json(nullptr);
}

int sanitizeNonFinite(json& j) {
    int replaced = 0;
    if (j.is_number_float()) {
        if (!std::isfinite(j.get<double>())) {
            j = nullptr;
            ++replaced;
        }
    } else if (j.is_object() || j.is_array()) {
        for (auto& child : j)
            replaced += sanitizeNonFinite(child);
    }
    return replaced;
}

json layoutToJson(const Layout& l) {
    return json{{"tp", l.tp},
                {"pp", l.pp},
                {"dp", l.dp},
                {"cp", l.cp},
                {"ep", l.ep},
                {"vpp", l.vpp},
                {"micro_batch", l.microBatch},
                {"accumulation", l.accumulation},
                {"gpus", l.gpus()}};
}

json stageMemoryToJson(const StageMemory& m) {
    return json{{"stage", m.stage},
                {"layers", m.layers},
                {"weights_bytes", finiteOrNull(m.weightsBytes)},
                {"gradients_bytes", finiteOrNull(m.gradientsBytes)},
                {"optimizer_bytes", finiteOrNull(m.optimizerBytes)},
                {"activations_bytes", finiteOrNull(m.activationsBytes)},
                {"overhead_bytes", finiteOrNull(m.overheadBytes)},
                {"total_bytes", finiteOrNull(m.totalBytes)},
                {"host_bytes", finiteOrNull(m.hostBytes)}};
}

json memoryToJson(const MemoryPlan& m) {
    json stages = json::array();
    for (const auto& st : m.stages)
        stages.push_back(stageMemoryToJson(st));
    return json{{"capacity_bytes", finiteOrNull(m.capacityBytes)},
                {"worst_stage", m.worstStage},
                {"fits", m.fits},
                {"headroom_bytes", finiteOrNull(m.headroomBytes)},
                {"host_bytes_per_gpu", finiteOrNull(m.hostBytesPerGpu)},
                {"host_capacity_bytes", finiteOrNull(m.hostCapacityBytes)},
                {"stages", std::move(stages)}};
}

json timeToJson(const TimeBreakdown& t) {
    return json{{"step_s", finiteOrNull(t.stepSeconds)},
                {"compute_s", finiteOrNull(t.computeSeconds)},
                {"recompute_s", finiteOrNull(t.recomputeSeconds)},
                {"tp_comm_s", finiteOrNull(t.tpCommSeconds)},
                {"pp_comm_s", finiteOrNull(t.ppCommSeconds)},
                {"cp_comm_s", finiteOrNull(t.cpCommSeconds)},
                {"ep_comm_s", finiteOrNull(t.epCommSeconds)},
                {"offload_s", finiteOrNull(t.offloadSeconds)},
                {"dp_comm_exposed_s", finiteOrNull(t.dpCommExposedSeconds)},
                {"bubble_s", finiteOrNull(t.bubbleSeconds)},
                {"bubble_fraction", finiteOrNull(t.bubbleFraction)},
                {"optimizer_s", finiteOrNull(t.optimizerSeconds)},
                {"loader_s", finiteOrNull(t.loaderSeconds)},
                {"straggler_s", finiteOrNull(t.stragglerSeconds)},
                {"overhead_s", finiteOrNull(t.overheadSeconds)}};
}

json diagnosticToJson(const Diagnostic& d) {
    return json{{"id", std::string(diagnosticIdString(d.id))},
                {"severity", std::string(toString(d.severity))},
                {"message", diagnosticMessage(d)},
                {"suggestion", diagnosticSuggestion(d)},
                {"cost_s", finiteOrNull(d.costSeconds)}};
}

json explanationToJson(const Explanation& e) {
    return json{{"key", e.key},       {"label", e.label},     {"value", finiteOrNull(e.value)},
                {"unit", e.unit},     {"formula", e.formula}, {"substituted", e.substituted},
                {"source", e.source}, {"words", e.words}};
}

json precisionToJson(const std::vector<TensorPrecision>& rows) {
    json out = json::array();
    for (const auto& r : rows)
        out.push_back(json{
            {"tensor", r.tensor}, {"format", r.format}, {"bytes", finiteOrNull(r.bytes)}, {"note", r.note}});
    return out;
}

json runToJson(const RunPlan& r) {
    return json{{"tokens", finiteOrNull(r.tokens)},
                {"token_rule", toString(r.tokenRule)},
                {"tokens_per_parameter", finiteOrNull(r.tokensPerParameter)},
                {"compute_flops", finiteOrNull(r.computeFlops)},
                {"compute_optimal_parameters", finiteOrNull(r.computeOptimal.parameters)},
                {"compute_optimal_tokens", finiteOrNull(r.computeOptimal.tokens)},
                {"predicted_loss", finiteOrNull(r.predictedLoss)},
                {"loss_fit", toString(r.lossFit)},
                {"ideal_days", finiteOrNull(r.idealSeconds / 86400.0)},
                {"wall_clock_days", finiteOrNull(r.wallClockSeconds / 86400.0)},
                {"gpu_hours", finiteOrNull(r.gpuHours)},
                {"price_per_gpu_hour_usd", finiteOrNull(r.pricePerGpuHourUsd)},
                {"cost_usd", finiteOrNull(r.costUsd)},
                {"cost_per_million_tokens_usd", finiteOrNull(r.costPerMillionTokensUsd)},
                {"board_power_w", finiteOrNull(r.boardPowerWatts)},
                {"energy_mwh", finiteOrNull(r.energyMwh)},
                {"goodput", finiteOrNull(r.goodput)},
                {"interruptions_per_day", finiteOrNull(r.interruptionsPerDay)},
                {"interruptions", finiteOrNull(r.interruptions)},
                {"checkpoint_interval_s", finiteOrNull(r.checkpointIntervalSeconds)},
                {"checkpoint_write_s", finiteOrNull(r.checkpointWriteSeconds)},
                {"checkpoint_stall_s", finiteOrNull(r.checkpointStallSeconds)},
                {"checkpoint_bytes", finiteOrNull(r.checkpointBytes)},
                {"lost_per_failure_s", finiteOrNull(r.lostPerFailureSeconds)}};
}

json planToJson(const Scenario& s, const Plan& p) {
    json diagnostics = json::array();
    for (const auto& d : p.diagnostics)
        diagnostics.push_back(diagnosticToJson(d));

    json j{{"scenario", scenarioName(s)},
           {"profile", p.profileName},
           {"valid", p.valid},
           {"layout", layoutToJson(p.layout)},
           {"expert_tensor_parallel", s.model.isMoe() ? json(expertTensorParallel(s)) : json(nullptr)},
           {"effective_batch_sequences", p.effectiveBatchSequences},
           {"tokens_per_step", finiteOrNull(p.tokensPerStep)},
           {"parameters", finiteOrNull(p.params.total)},
           {"active_parameters", finiteOrNull(p.params.active)},
           {"training_state_bytes", finiteOrNull(p.trainingStateBytes)},
           {"memory", memoryToJson(p.memory)},
           {"fp8_weight_copy_bytes", finiteOrNull(p.intermediates.fp8WeightCopyBytes)},
           {"fp8_scaling_state_bytes", finiteOrNull(p.intermediates.fp8ScalingStateBytes)},
           {"precision", precisionToJson(precisionTable(s))},
           {"time", timeToJson(p.time)},
           {"mfu", finiteOrNull(p.mfu)},
           {"hfu", finiteOrNull(p.hfu)},
           {"mfu_6nd", finiteOrNull(p.mfu6nd)},
           {"model_tflops_per_gpu", finiteOrNull(p.modelTflopsPerGpu)},
           {"hardware_tflops_per_gpu", finiteOrNull(p.hardwareTflopsPerGpu)},
           {"tokens_per_s", finiteOrNull(p.tokensPerSecond)},
           {"tokens_per_s_per_gpu", finiteOrNull(p.tokensPerSecondPerGpu)},
           {"training_days", finiteOrNull(p.trainingSeconds / 86400.0)},
           {"gpu_hours", finiteOrNull(p.gpuHours)},
           {"run", p.valid ? runToJson(p.run) : json(nullptr)},
           {"diagnostics", std::move(diagnostics)}};
    sanitizeNonFinite(j); // belt and braces: nothing non-finite slips through
    return j;
}

} // namespace lp::core
