#include "core/io/SettingsJson.h"

#include "core/io/detail/FieldTable.h"
#include "core/io/detail/HardwareJson.h"
#include "core/io/detail/PresetNames.h"
#include "core/model/Limits.h"

#include <string>

namespace lp::core {
namespace {

using json::describe;
using json::Json;
using json::nonNegative;
using json::ObjectReader;
using json::positive;
using limits::kMaxCount;
using limits::kMaxLogitsMetricPasses;
using limits::kMaxRate;

// ------------------------------------------------------------------------------------------------
// Training options

constexpr const char* kTrainingKeys[] = {"precision",
                                         "optimizer",
                                         "optimizer_precision",
                                         "zero_stage",
                                         "zero_shard_degree",
                                         "recompute",
                                         "recompute_layers",
                                         "recompute_modules",
                                         "remat_policy",
                                         "sequence_parallel",
                                         "flash_attention",
                                         "torch_compile",
                                         "fused_kernels",
                                         "fp8_param_gather",
                                         "loader_prefetch",
                                         "optimizer_offload",
                                         "activation_offload_layers",
                                         "loader_tokens_per_s",
                                         "straggler_slowdown",
                                         "overlap_tp_comm",
                                         "overlap_pp_comm",
                                         "overlap_dp_comm",
                                         "overlap_ep_comm",
                                         "allocator_reserve_fraction",
                                         "moe_load_imbalance",
                                         "moe_dispatcher",
                                         "execution_style",
                                         "grad_precision",
                                         "cross_entropy",
                                         "logits_metric_passes",
                                         "cp_exchange",
                                         "pipeline_split",
                                         "attention_flops",
                                         "attention_kernel",
                                         "pipeline_schedule",
                                         "zero3_gather",
                                         "token_budget_tokens"};

using T = TrainingOptions;
using json::CustomKey;
using json::DoubleKey;
using json::enumKey;
using json::Field;
using json::IntKey;

// Megatron-Core's module names, as a list.
constexpr CustomKey<T> kRecomputeModules{
    [](ObjectReader& r, std::string_view key, T& t) { r.readRecomputeModules(key, t.recomputeModules); },
    [](const T& t) { return json::recomputeModulesJson(t.recomputeModules); }};

// Written only when not 1F1B, so that the files and reports of plans that never chose a schedule stay as
// they were.
constexpr CustomKey<T> kPipelineSchedule{
    [](ObjectReader& r, std::string_view key, T& t) {
        r.readEnum(key, t.pipelineSchedule, &parsePipelineSchedule,
                   {PipelineSchedule::OneFOneB, PipelineSchedule::GPipe, PipelineSchedule::ZeroBubbleH1});
    },
    [](const T& t) {
        return t.pipelineSchedule == PipelineSchedule::OneFOneB ? Json() : Json(toString(t.pipelineSchedule));
    }};

// Written only when not one layer per gather, for the same reason.
constexpr CustomKey<T> kZero3Gather{
    [](ObjectReader& r, std::string_view key, T& t) {
        r.readEnum(key, t.zero3Gather, &parseZero3Gather, {Zero3Gather::Layer, Zero3Gather::Module});
    },
    [](const T& t) { return t.zero3Gather == Zero3Gather::Layer ? Json() : Json(toString(t.zero3Gather)); }};

// A switch with an automatic default (Toggle): true or false as stated, "auto" (or the key left out) for the
// style's habit; written only when stated, so that files of plans that never set it keep following it.
template <Toggle T::*Member> constexpr CustomKey<T> toggleKey() {
    return {[](ObjectReader& r, std::string_view key, T& t) {
                const Json* v = r.find(key);
                if (!v)
                    return;
                if (v->is_boolean()) {
                    t.*Member = v->get<bool>() ? Toggle::On : Toggle::Off;
                    return;
                }
                if (v->is_string() && v->get_ref<const std::string&>() == "auto") {
                    t.*Member = Toggle::Auto;
                    return;
                }
                r.error(key, "wrong type: expected true, false or \"auto\", got " + describe(*v));
            },
            [](const T& t) { return t.*Member == Toggle::Auto ? Json() : Json(t.*Member == Toggle::On); }};
}

// Precision, optimizer, sharding and what is recomputed or offloaded; then communication overlap, the input
// pipeline, stragglers and the framework's habits.
constexpr Field<T> kTrainingFields[] = {
    {"precision",
     enumKey<&T::precision, &parsePrecision, Precision::Bf16, Precision::Fp16, Precision::Fp8>()},
    {"optimizer", enumKey<&T::optimizer, &parseOptimizer, Optimizer::Adam, Optimizer::SgdMomentum>()},
    {"optimizer_precision",
     enumKey<&T::optimizerPrecision, &parseOptimizerPrecision, OptimizerPrecision::Fp32,
             OptimizerPrecision::Bf16Moments, OptimizerPrecision::Bf16>()},
    {"zero_stage", IntKey<T>{&T::zeroStage, 0, 3}},
    {"zero_shard_degree", IntKey<T>{&T::zeroShardDegree, 0, kMaxCount}},
    {"recompute_layers", IntKey<T>{&T::recomputeLayers, 0, kMaxCount}},
    {"recompute",
     enumKey<&T::recompute, &parseRecompute, Recompute::None, Recompute::Selective, Recompute::Full>()},
    {"recompute_modules", kRecomputeModules},
    {"remat_policy",
     enumKey<&T::rematPolicy, &parseRematPolicy, RematPolicy::Auto, RematPolicy::MinimalWithContext,
             RematPolicy::Minimal, RematPolicy::SaveDotWithContextExceptMlp, RematPolicy::SaveDotExceptMlpwi,
             RematPolicy::SaveDotExceptMlp, RematPolicy::SaveQkvProj, RematPolicy::SaveOutProj>()},
    {"sequence_parallel", &T::sequenceParallel},
    {"flash_attention", &T::flashAttention},
    {"torch_compile", &T::torchCompile},
    {"fused_kernels", &T::fusedKernels},
    {"fp8_param_gather", &T::fp8ParamGather},
    {"loader_prefetch", &T::loaderPrefetch},
    {"optimizer_offload", &T::optimizerOffload},
    {"activation_offload_layers", IntKey<T>{&T::activationOffloadLayers, 0, kMaxCount}},
    {"overlap_tp_comm", toggleKey<&T::overlapTpComm>()},
    {"overlap_pp_comm", &T::overlapPpComm},
    {"overlap_dp_comm", toggleKey<&T::overlapDpComm>()},
    {"overlap_ep_comm", &T::overlapEpComm},
    {"moe_dispatcher",
     enumKey<&T::moeDispatcher, &parseMoeDispatcher, MoeDispatcher::AllToAll, MoeDispatcher::Deduplicated>()},
    {"loader_tokens_per_s",
     DoubleKey<T>{&T::loaderTokensPerSecond, {limits::kMinTokensPerSecond, true, kMaxRate, true}}},
    {"straggler_slowdown", DoubleKey<T>{&T::stragglerSlowdown, nonNegative(limits::kMaxStragglerSlowdown)}},
    {"allocator_reserve_fraction", DoubleKey<T>{&T::allocatorReserveFraction, {0.0, true, 1.0, false}}},
    {"moe_load_imbalance", DoubleKey<T>{&T::moeLoadImbalance, {1.0, true, 1000.0, true}}},
    {"execution_style", enumKey<&T::executionStyle, &parseExecutionStyle, ExecutionStyle::Auto,
                                ExecutionStyle::Megatron, ExecutionStyle::Fsdp>()},
    {"grad_precision", enumKey<&T::gradPrecision, &parseGradPrecision, GradPrecision::Auto,
                               GradPrecision::Fp32, GradPrecision::Half>()},
    {"cross_entropy", enumKey<&T::crossEntropy, &parseCrossEntropy, CrossEntropy::Auto, CrossEntropy::Unfused,
                              CrossEntropy::Fused, CrossEntropy::FusedLinear, CrossEntropy::Compiled,
                              CrossEntropy::Fused16>()},
    {"logits_metric_passes", IntKey<T>{&T::logitsMetricPasses, 0, kMaxLogitsMetricPasses}},
    {"cp_exchange",
     enumKey<&T::cpExchange, &parseCpExchange, CpExchange::Auto, CpExchange::Ring, CpExchange::AllGather>()},
    {"pipeline_split", enumKey<&T::pipelineSplit, &parsePipelineSplit, PipelineSplit::Auto,
                               PipelineSplit::Layers, PipelineSplit::EmbeddingAndLoss>()},
    {"attention_flops",
     enumKey<&T::attentionFlops, &parseAttentionFlops, AttentionFlops::Full, AttentionFlops::Causal>()},
    {"attention_kernel", enumKey<&T::attentionKernel, &parseAttentionKernel, AttentionKernel::Auto,
                                 AttentionKernel::FlashAttention2, AttentionKernel::FlashAttention3,
                                 AttentionKernel::Cudnn, AttentionKernel::Unfused>()},
    {"pipeline_schedule", kPipelineSchedule},
    {"zero3_gather", kZero3Gather},
    {"token_budget_tokens", DoubleKey<T>{&T::tokenBudget, {limits::kMinTokenBudget, true, kMaxRate, true}}},
};

} // namespace

std::span<const char* const> scenarioTrainingKeys() {
    return kTrainingKeys;
}

void readTrainingKeys(ObjectReader& r, TrainingOptions& t) {
    r.allow(kTrainingKeys);
    json::readFields(r, t, kTrainingFields);
}

void readTrainingKey(ObjectReader& r, std::string_view key, TrainingOptions& t) {
    for (const Field<T>& field : kTrainingFields)
        if (key == field.key)
            json::readField(r, field, t);
}

const json::DoubleRange* trainingKeyRange(std::string_view key) {
    return json::doubleRangeOf<T>(kTrainingFields, key);
}

Json trainingToJson(const TrainingOptions& t) {
    Json j;
    json::writeFields(j, t, kTrainingFields);
    return j;
}

const ClusterPreset* readClusterStatement(ObjectReader& r, ClusterSpec& c) {
    r.allow({"preset", "gpu", "nvlink_domain", "nvlink_latency_s", "network_latency_s", "network"});
    const ClusterPreset* preset = nullptr;
    if (const Json* p = r.find("preset"))
        preset = json::namedClusterPreset(*p, r.path("preset"), r.errors());
    const auto family = [](const std::string& id) { return id.substr(0, id.find('-')); };
    if (preset && (family(preset->gpuId) != family(c.gpu.id) || preset->gpusPerNode != c.gpusPerNode)) {
        r.error("preset", "does not match the case's hardware: " + preset->id + " has " +
                              std::to_string(preset->gpusPerNode) + " x " + preset->gpuId +
                              " per node, the case " + std::to_string(c.gpusPerNode) + " x " + c.gpu.id);
        preset = nullptr;
    }
    if (preset && preset->network)
        setNetwork(c, *preset->network);
    else if (preset)
        c.gpu.networkBandwidth = presetNetworkBandwidth(*preset);
    if (const Json* g = r.find("gpu")) {
        if (g->is_object()) {
            ObjectReader gpu = r.nested(*g, "gpu");
            readGpuKeys(gpu, c.gpu);
            gpu.reportUnknownKeys();
        } else {
            r.error("gpu", "wrong type: expected an object of GPU keys, got " + describe(*g));
        }
    }
    r.readInt("nvlink_domain", c.nvlinkDomain, 1, kMaxCount);
    r.readDouble("nvlink_latency_s", c.nvlinkLatencySeconds, nonNegative(1.0));
    readClusterNetwork(r, c);
    return preset;
}

} // namespace lp::core
