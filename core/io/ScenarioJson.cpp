// Loading collects every problem (JSON path and reason) and never half-loads; saving is atomic. The format
// is documented in docs/formats.md: keep the two in step. The model and hardware parts are read and
// written by their own codecs (ModelJson.h, detail/HardwareJson.h); the training options and the layout,
// which only scenario files hold, here.
#include "core/io/ScenarioJson.h"

#include "core/io/Files.h"
#include "core/io/JsonReader.h"
#include "core/io/ModelJson.h"
#include "core/io/detail/HardwareJson.h"
#include "core/io/detail/JsonWriter.h"
#include "core/model/Limits.h"

#include <string>
#include <utility>

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
                                         "token_budget_tokens"};

// Precision, optimizer, sharding and what is recomputed or offloaded.
void readTrainingMemory(ObjectReader& r, TrainingOptions& t) {
    r.readEnum("precision", t.precision, &parsePrecision, {Precision::Bf16, Precision::Fp16, Precision::Fp8});
    r.readEnum("optimizer", t.optimizer, &parseOptimizer, {Optimizer::Adam, Optimizer::SgdMomentum});
    r.readEnum("optimizer_precision", t.optimizerPrecision, &parseOptimizerPrecision,
               {OptimizerPrecision::Fp32, OptimizerPrecision::Bf16Moments, OptimizerPrecision::Bf16});
    r.readInt("zero_stage", t.zeroStage, 0, 3);
    r.readInt("zero_shard_degree", t.zeroShardDegree, 0, kMaxCount);
    r.readInt("recompute_layers", t.recomputeLayers, 0, kMaxCount);
    r.readEnum("recompute", t.recompute, &parseRecompute,
               {Recompute::None, Recompute::Selective, Recompute::Full});
    r.readRecomputeModules("recompute_modules", t.recomputeModules);
    r.readEnum("remat_policy", t.rematPolicy, &parseRematPolicy,
               {RematPolicy::Auto, RematPolicy::MinimalWithContext, RematPolicy::Minimal,
                RematPolicy::SaveDotWithContextExceptMlp, RematPolicy::SaveDotExceptMlpwi,
                RematPolicy::SaveDotExceptMlp, RematPolicy::SaveQkvProj, RematPolicy::SaveOutProj});
    r.readBool("sequence_parallel", t.sequenceParallel);
    r.readBool("flash_attention", t.flashAttention);
    r.readBool("torch_compile", t.torchCompile);
    r.readBool("fused_kernels", t.fusedKernels);
    r.readBool("fp8_param_gather", t.fp8ParamGather);
    r.readBool("loader_prefetch", t.loaderPrefetch);
    r.readBool("optimizer_offload", t.optimizerOffload);
    r.readInt("activation_offload_layers", t.activationOffloadLayers, 0, kMaxCount);
}

// Communication overlap, the input pipeline, stragglers and the framework's habits.
void readTrainingRuntime(ObjectReader& r, TrainingOptions& t) {
    r.readBool("overlap_tp_comm", t.overlapTpComm);
    r.readBool("overlap_pp_comm", t.overlapPpComm);
    r.readBool("overlap_dp_comm", t.overlapDpComm);
    r.readBool("overlap_ep_comm", t.overlapEpComm);
    r.readEnum("moe_dispatcher", t.moeDispatcher, &parseMoeDispatcher,
               {MoeDispatcher::AllToAll, MoeDispatcher::Deduplicated});
    r.readDouble("loader_tokens_per_s", t.loaderTokensPerSecond, positive(kMaxRate));
    r.readDouble("straggler_slowdown", t.stragglerSlowdown, nonNegative(10.0));
    r.readDouble("allocator_reserve_fraction", t.allocatorReserveFraction, {0.0, true, 1.0, false});
    r.readDouble("moe_load_imbalance", t.moeLoadImbalance, {1.0, true, 1000.0, true});
    r.readEnum("execution_style", t.executionStyle, &parseExecutionStyle,
               {ExecutionStyle::Auto, ExecutionStyle::Megatron, ExecutionStyle::Fsdp});
    r.readEnum("grad_precision", t.gradPrecision, &parseGradPrecision,
               {GradPrecision::Auto, GradPrecision::Fp32, GradPrecision::Half});
    r.readEnum("cross_entropy", t.crossEntropy, &parseCrossEntropy,
               {CrossEntropy::Auto, CrossEntropy::Unfused, CrossEntropy::Fused, CrossEntropy::FusedLinear,
                CrossEntropy::Compiled, CrossEntropy::Fused16});
    r.readInt("logits_metric_passes", t.logitsMetricPasses, 0, kMaxLogitsMetricPasses);
    r.readEnum("cp_exchange", t.cpExchange, &parseCpExchange,
               {CpExchange::Auto, CpExchange::Ring, CpExchange::AllGather});
    r.readEnum("pipeline_split", t.pipelineSplit, &parsePipelineSplit,
               {PipelineSplit::Auto, PipelineSplit::Layers, PipelineSplit::EmbeddingAndLoss});
    r.readEnum("attention_flops", t.attentionFlops, &parseAttentionFlops,
               {AttentionFlops::Full, AttentionFlops::Causal});
    r.readDouble("token_budget_tokens", t.tokenBudget, positive(kMaxRate));
}

TrainingOptions readTraining(const Json* j, const std::string& path, InputErrors& errors) {
    TrainingOptions t;
    if (!j)
        return t;
    if (!j->is_object()) {
        errors.push_back({path, "wrong type: expected an object, got " + describe(*j)});
        return t;
    }
    ObjectReader r(*j, path, errors);
    r.allow(kTrainingKeys);
    readTrainingMemory(r, t);
    readTrainingRuntime(r, t);
    r.reportUnknownKeys();
    return t;
}

Layout readLayout(const Json* j, const std::string& path, InputErrors& errors) {
    Layout l;
    if (!j)
        return l;
    if (!j->is_object()) {
        errors.push_back({path, "wrong type: expected an object, got " + describe(*j)});
        return l;
    }
    ObjectReader r(*j, path, errors,
                   {"tp", "pp", "dp", "cp", "ep", "etp", "vpp", "micro_batch", "accumulation"});
    r.readInt("tp", l.tp, 1, kMaxCount);
    r.readInt("pp", l.pp, 1, kMaxCount);
    r.readInt("dp", l.dp, 1, kMaxCount);
    r.readInt("cp", l.cp, 1, kMaxCount);
    r.readInt("ep", l.ep, 1, kMaxCount);
    r.readInt("etp", l.etp, 0, kMaxCount); // optional: 0 (the default) = auto
    r.readInt("vpp", l.vpp, 1, kMaxCount);
    r.readInt("micro_batch", l.microBatch, 1, kMaxCount);
    r.readInt("accumulation", l.accumulation, 1, kMaxCount);
    r.reportUnknownKeys();
    return l;
}

// ------------------------------------------------------------------------------------------------
// Writing

Json trainingToJson(const TrainingOptions& t) {
    Json j;
    j["precision"] = toString(t.precision);
    j["optimizer"] = toString(t.optimizer);
    j["optimizer_precision"] = toString(t.optimizerPrecision);
    j["zero_stage"] = t.zeroStage;
    j["zero_shard_degree"] = t.zeroShardDegree;
    j["recompute_layers"] = t.recomputeLayers;
    j["recompute"] = toString(t.recompute);
    j["recompute_modules"] = json::recomputeModulesJson(t.recomputeModules);
    j["remat_policy"] = toString(t.rematPolicy);
    j["sequence_parallel"] = t.sequenceParallel;
    j["flash_attention"] = t.flashAttention;
    j["torch_compile"] = t.torchCompile;
    j["fused_kernels"] = t.fusedKernels;
    j["fp8_param_gather"] = t.fp8ParamGather;
    j["loader_prefetch"] = t.loaderPrefetch;
    j["optimizer_offload"] = t.optimizerOffload;
    j["activation_offload_layers"] = t.activationOffloadLayers;
    j["overlap_tp_comm"] = t.overlapTpComm;
    j["overlap_pp_comm"] = t.overlapPpComm;
    j["overlap_dp_comm"] = t.overlapDpComm;
    j["overlap_ep_comm"] = t.overlapEpComm;
    j["moe_dispatcher"] = toString(t.moeDispatcher);
    j["loader_tokens_per_s"] = t.loaderTokensPerSecond;
    j["straggler_slowdown"] = t.stragglerSlowdown;
    j["allocator_reserve_fraction"] = t.allocatorReserveFraction;
    j["moe_load_imbalance"] = t.moeLoadImbalance;
    j["execution_style"] = toString(t.executionStyle);
    j["grad_precision"] = toString(t.gradPrecision);
    j["cross_entropy"] = toString(t.crossEntropy);
    j["logits_metric_passes"] = t.logitsMetricPasses;
    j["cp_exchange"] = toString(t.cpExchange);
    j["pipeline_split"] = toString(t.pipelineSplit);
    j["attention_flops"] = toString(t.attentionFlops);
    j["token_budget_tokens"] = t.tokenBudget;
    return j;
}

Json layoutToJson(const Layout& l) {
    Json j;
    j["tp"] = l.tp;
    j["pp"] = l.pp;
    j["dp"] = l.dp;
    j["cp"] = l.cp;
    j["ep"] = l.ep;
    if (l.etp > 0)
        j["etp"] = l.etp; // auto is the default and stays unwritten
    j["vpp"] = l.vpp;
    j["micro_batch"] = l.microBatch;
    j["accumulation"] = l.accumulation;
    return j;
}

} // namespace

std::expected<Scenario, InputErrors> scenarioFromJson(std::string_view text) {
    return json::guarded<Scenario>([&]() -> std::expected<Scenario, InputErrors> {
        InputErrors errors;
        const std::optional<Json> root = json::parseObject(text, errors);
        if (!root || !json::checkHeader(*root, errors, kScenarioSchema, kScenarioVersion, "scenario"))
            return std::unexpected(json::capped(std::move(errors)));
        Scenario s;
        ObjectReader r(*root, "$", errors,
                       {"schema", "version", "name", "notes", "model", "cluster", "training", "layout"});
        r.readString("name", s.name);
        r.readString("notes", s.notes);
        s.model = readScenarioModel(r.find("model"), r.path("model"), errors);
        s.cluster = readScenarioCluster(r.find("cluster"), r.path("cluster"), errors);
        s.training = readTraining(r.find("training"), r.path("training"), errors);
        s.layout = readLayout(r.find("layout"), r.path("layout"), errors);
        if (s.training.activationOffloadLayers > s.model.layers && s.model.layers > 0)
            errors.push_back({"$.training.activation_offload_layers",
                              "out of range: must be an integer from 0 to the model's layers (" +
                                  std::to_string(s.model.layers) + "), got " +
                                  std::to_string(s.training.activationOffloadLayers)});
        r.reportUnknownKeys();
        if (!errors.empty())
            return std::unexpected(json::capped(std::move(errors)));
        return s;
    });
}

std::string scenarioToJson(const Scenario& s) {
    Json j;
    j["schema"] = kScenarioSchema;
    j["version"] = kScenarioVersion;
    j["name"] = s.name;
    j["notes"] = s.notes;
    j["model"] = modelToJson(s.model);
    j["cluster"] = clusterToJson(s.cluster);
    j["training"] = trainingToJson(s.training);
    j["layout"] = layoutToJson(s.layout);
    return json::dumpPretty(j);
}

std::expected<Scenario, InputErrors> loadScenarioFile(const std::string& path) {
    auto text = readTextFile(path);
    if (!text)
        return std::unexpected(InputErrors{{"", text.error()}});
    return scenarioFromJson(*text);
}

std::expected<void, std::string> saveScenarioFile(const std::string& path, const Scenario& s) {
    return writeFileAtomically(path, scenarioToJson(s));
}

} // namespace lp::core
