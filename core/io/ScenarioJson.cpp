// Scenario files (layout-planner/scenario). The format is documented in docs/formats.md; keep the two
// in step. Loading collects every problem (JSON path and reason) and never half-loads; saving is atomic.
// The JSON reader is in JsonInput.cpp, the writer in JsonOutput.cpp, hardware profiles in ProfileIo.cpp
// and the file helpers in FileIo.cpp.
#include "core/io/ScenarioJson.h"

#include "core/io/JsonReader.h"
#include "core/io/JsonWriter.h"
#include "core/io/Presets.h"
#include "core/model/Enums.h"
#include "core/model/Limits.h"

#include <string>
#include <utility>
#include <vector>

namespace lp::core {
namespace {

using namespace detail;

// ------------------------------------------------------------------------------------------------
// Presets named in a scenario

template <typename Preset, typename IdOf>
std::string unknownPreset(std::string_view kind, const std::string& name, const std::vector<Preset>& all,
                          IdOf idOf) {
    std::vector<std::string> ids;
    for (const auto& p : all)
        ids.push_back(idOf(p));
    std::string reason =
        "unknown " + std::string(kind) + " preset " + quoteJson(name) + didYouMean(name, ids);
    if (!ids.empty())
        reason += "; known: " + joinList(ids);
    return reason;
}

const ModelPreset* lookUpModel(const Json& v, const std::string& path, InputErrors& errors) {
    if (!v.is_string()) {
        errors.push_back({path, "wrong type: expected a model preset name, got " + describe(v)});
        return nullptr;
    }
    const std::string& name = v.get_ref<const std::string&>();
    if (const ModelPreset* p = findModelPreset(name))
        return p;
    errors.push_back(
        {path, unknownPreset("model", name, modelPresets(), [](const ModelPreset& p) { return p.id; })});
    return nullptr;
}

const GpuPreset* lookUpGpu(const Json& v, const std::string& path, InputErrors& errors) {
    if (!v.is_string()) {
        errors.push_back({path, "wrong type: expected a GPU preset name, got " + describe(v)});
        return nullptr;
    }
    const std::string& name = v.get_ref<const std::string&>();
    if (const GpuPreset* p = findGpuPreset(name))
        return p;
    errors.push_back(
        {path, unknownPreset("GPU", name, gpuPresets(), [](const GpuPreset& p) { return p.gpu.id; })});
    return nullptr;
}

const ClusterPreset* lookUpCluster(const Json& v, const std::string& path, InputErrors& errors) {
    if (!v.is_string()) {
        errors.push_back({path, "wrong type: expected a cluster preset name, got " + describe(v)});
        return nullptr;
    }
    const std::string& name = v.get_ref<const std::string&>();
    if (const ClusterPreset* p = findClusterPreset(name))
        return p;
    errors.push_back({path, unknownPreset("cluster", name, clusterPresets(),
                                          [](const ClusterPreset& p) { return p.id; })});
    return nullptr;
}

// ------------------------------------------------------------------------------------------------
// Scenario: reading

// Limits on sizes (core/model/Limits.h): generous, but they keep arithmetic far from overflow and catch
// typos.
using limits::kMaxCount;
using limits::kMaxHeads;
using limits::kMaxHidden;
using limits::kMaxLayers;
using limits::kMaxLogitsMetricPasses;
using limits::kMaxRate;
using limits::kMaxWidth;

void readMoe(const Json& j, const std::string& path, MoeSpec& moe, int layers, InputErrors& errors) {
    if (j.is_null()) {
        moe = MoeSpec{};
        return;
    }
    if (!j.is_object()) {
        errors.push_back({path, "wrong type: expected an object or null, got " + describe(j)});
        return;
    }
    ObjectReader r(j, path, errors,
                   {"experts", "top_k", "expert_ffn_hidden", "shared_experts", "moe_layers",
                    "capacity_factor", "groups", "group_limit"});
    const bool expertsOk = r.readInt("experts", moe.experts, 0, kMaxHeads);
    const bool topKOk = r.readInt("top_k", moe.topK, 0, kMaxHeads);
    const bool ffnOk = r.readInt("expert_ffn_hidden", moe.expertFfnHidden, 0, kMaxWidth);
    r.readInt("shared_experts", moe.sharedExperts, 0, kMaxHeads);
    const bool layersOk = r.readInt("moe_layers", moe.moeLayers, 0, kMaxLayers);
    r.readDouble("capacity_factor", moe.capacityFactor, positive(1000));
    const bool groupsOk = r.readInt("groups", moe.groups, 0, kMaxHeads);
    const bool limitOk = r.readInt("group_limit", moe.groupLimit, 0, kMaxHeads);
    r.reportUnknownKeys();
    if (expertsOk && groupsOk && moe.groups > 0 && moe.experts > 0 && moe.experts % moe.groups != 0)
        r.error("groups", "out of range: must divide experts (" + std::to_string(moe.experts) + "), got " +
                              std::to_string(moe.groups));
    if (groupsOk && limitOk && moe.groups > 0 && (moe.groupLimit < 1 || moe.groupLimit > moe.groups))
        r.error("group_limit", "out of range: must be an integer from 1 to groups (" +
                                   std::to_string(moe.groups) + "), got " + std::to_string(moe.groupLimit));
    else if (expertsOk && topKOk && groupsOk && limitOk && moe.groups > 0 && moe.experts % moe.groups == 0 &&
             static_cast<long long>(moe.groupLimit) * (moe.experts / moe.groups) < moe.topK)
        r.error("group_limit", "out of range: the " + std::to_string(moe.groupLimit) +
                                   " allowed groups hold " +
                                   std::to_string(moe.groupLimit * (moe.experts / moe.groups)) +
                                   " experts, fewer than top_k (" + std::to_string(moe.topK) + ")");
    if (expertsOk && topKOk && moe.experts > 0 && (moe.topK < 1 || moe.topK > moe.experts))
        r.error("top_k", "out of range: must be an integer from 1 to experts (" +
                             std::to_string(moe.experts) + "), got " + std::to_string(moe.topK));
    if (expertsOk && ffnOk && moe.experts > 0 && moe.expertFfnHidden < 1)
        r.error("expert_ffn_hidden", "out of range: must be at least 1 in a MoE model, got 0");
    if (layersOk && layers > 0 && moe.moeLayers > layers)
        r.error("moe_layers", "out of range: must be an integer from 0 to layers (" + std::to_string(layers) +
                                  "), got " + std::to_string(moe.moeLayers));
}

void readMla(const Json& j, const std::string& path, MlaSpec& mla, InputErrors& errors) {
    if (!j.is_object()) {
        errors.push_back({path, "wrong type: expected an object, got " + describe(j)});
        return;
    }
    ObjectReader r(j, path, errors,
                   {"q_lora_rank", "kv_lora_rank", "qk_nope_head_dim", "qk_rope_head_dim", "v_head_dim"});
    r.readInt("q_lora_rank", mla.qLoraRank, 0, kMaxHidden);
    r.readInt("kv_lora_rank", mla.kvLoraRank, 1, kMaxHidden);
    r.readInt("qk_nope_head_dim", mla.qkNopeHeadDim, 1, kMaxHidden);
    r.readInt("qk_rope_head_dim", mla.qkRopeHeadDim, 0, kMaxHidden);
    r.readInt("v_head_dim", mla.vHeadDim, 1, kMaxHidden);
    r.reportUnknownKeys();
}

ModelSpec readModel(const Json* j, const std::string& path, InputErrors& errors) {
    ModelSpec m;
    if (!j)
        return m;
    if (j->is_string()) {
        if (const ModelPreset* p = lookUpModel(*j, path, errors))
            m = p->model;
        return m;
    }
    if (!j->is_object()) {
        errors.push_back(
            {path, "wrong type: expected a model preset name or an object, got " + describe(*j)});
        return m;
    }
    ObjectReader r(*j, path, errors,
                   {"preset", "name", "layers", "hidden", "heads", "kv_heads", "ffn_hidden", "vocab",
                    "seq_len", "mlp", "norm", "tied_embeddings", "biases", "learned_positions", "dropout",
                    "head_size", "attention", "mla", "moe"});
    bool fromPreset = false;
    if (const Json* p = r.find("preset")) {
        if (const ModelPreset* preset = lookUpModel(*p, r.path("preset"), errors)) {
            m = preset->model;
            fromPreset = true;
        }
    }
    r.readString("name", m.name);
    const bool layersOk = r.readInt("layers", m.layers, 1, kMaxLayers);
    const bool hiddenOk = r.readInt("hidden", m.hidden, 1, kMaxHidden);
    const bool headsOk = r.readInt("heads", m.heads, 1, kMaxHeads);
    bool kvOk = true;
    if (r.has("kv_heads"))
        kvOk = r.readInt("kv_heads", m.kvHeads, 1, kMaxHeads);
    else if (!fromPreset)
        m.kvHeads = m.heads; // no grouped-query attention unless asked for
    r.readInt("ffn_hidden", m.ffnHidden, 1, kMaxWidth);
    r.readInt("vocab", m.vocab, 1, kMaxWidth);
    r.readInt("seq_len", m.seqLen, 1, kMaxWidth);
    r.readEnum("mlp", m.mlp, &parseMlpKind, {MlpKind::Gelu, MlpKind::SwiGlu});
    r.readEnum("norm", m.norm, &parseNormKind, {NormKind::LayerNorm, NormKind::RmsNorm});
    r.readBool("tied_embeddings", m.tiedEmbeddings);
    r.readBool("biases", m.biases);
    r.readBool("learned_positions", m.learnedPositions);
    r.readBool("dropout", m.dropout);
    r.readInt("head_size", m.headSize, 0, kMaxHidden);
    r.readEnum("attention", m.attention, &parseAttentionKind, {AttentionKind::Standard, AttentionKind::Mla});
    if (const Json* mla = r.find("mla"))
        readMla(*mla, r.path("mla"), m.mla, errors);
    if (const Json* moe = r.find("moe"))
        readMoe(*moe, r.path("moe"), m.moe, layersOk ? m.layers : 0, errors);
    r.reportUnknownKeys();
    if (hiddenOk && headsOk && m.heads > m.hidden)
        r.error("heads", "out of range: must be at most hidden (" + std::to_string(m.hidden) + "), got " +
                             std::to_string(m.heads));
    if (headsOk && kvOk && m.kvHeads > m.heads)
        r.error("kv_heads", "out of range: must be at most heads (" + std::to_string(m.heads) + "), got " +
                                std::to_string(m.kvHeads));
    return m;
}

void readGpu(const Json& j, const std::string& path, GpuSpec& gpu, InputErrors& errors) {
    if (j.is_string()) {
        if (const GpuPreset* p = lookUpGpu(j, path, errors))
            gpu = p->gpu;
        return;
    }
    if (!j.is_object()) {
        errors.push_back({path, "wrong type: expected a GPU preset name or an object, got " + describe(j)});
        return;
    }
    ObjectReader r(j, path, errors,
                   {"preset", "id", "name", "peak_flops16", "peak_flops8", "hbm_bytes",
                    "hbm_bandwidth_bytes_per_s", "nvlink_bandwidth_bytes_per_s",
                    "network_bandwidth_bytes_per_s", "host_link_bandwidth_bytes_per_s",
                    "host_memory_bandwidth_bytes_per_s", "host_memory_bytes", "source"});
    if (const Json* p = r.find("preset"))
        if (const GpuPreset* preset = lookUpGpu(*p, r.path("preset"), errors))
            gpu = preset->gpu;
    r.readString("id", gpu.id);
    r.readString("name", gpu.name);
    r.readDouble("peak_flops16", gpu.peakFlops16, positive(kMaxRate));
    r.readDouble("peak_flops8", gpu.peakFlops8, nonNegative(kMaxRate));
    r.readDouble("hbm_bytes", gpu.hbmBytes, positive(kMaxRate));
    r.readDouble("hbm_bandwidth_bytes_per_s", gpu.hbmBandwidth, positive(kMaxRate));
    r.readDouble("nvlink_bandwidth_bytes_per_s", gpu.nvlinkBandwidth, positive(kMaxRate));
    r.readDouble("network_bandwidth_bytes_per_s", gpu.networkBandwidth, positive(kMaxRate));
    // The host figures came with CPU offloading: a GPU written out before them, with a preset's id, takes
    // that preset's host link and host memory rather than the defaults.
    if (!r.find("preset") && !r.find("host_link_bandwidth_bytes_per_s") &&
        !r.find("host_memory_bandwidth_bytes_per_s") && !r.find("host_memory_bytes"))
        if (const GpuPreset* known = findGpuPreset(gpu.id); known && known->gpu.id == gpu.id) {
            gpu.hostLinkBandwidth = known->gpu.hostLinkBandwidth;
            gpu.hostMemoryBandwidth = known->gpu.hostMemoryBandwidth;
            gpu.hostMemoryBytes = known->gpu.hostMemoryBytes;
        }
    r.readDouble("host_link_bandwidth_bytes_per_s", gpu.hostLinkBandwidth, positive(kMaxRate));
    r.readDouble("host_memory_bandwidth_bytes_per_s", gpu.hostMemoryBandwidth, positive(kMaxRate));
    r.readDouble("host_memory_bytes", gpu.hostMemoryBytes, positive(kMaxRate));
    r.readString("source", gpu.source);
    r.reportUnknownKeys();
}

ClusterSpec readCluster(const Json* j, const std::string& path, InputErrors& errors) {
    ClusterSpec c;
    if (!j)
        return c;
    if (j->is_string()) {
        if (const ClusterPreset* p = lookUpCluster(*j, path, errors))
            c = makeCluster(*p, c.nodes);
        return c;
    }
    if (!j->is_object()) {
        errors.push_back(
            {path, "wrong type: expected a cluster preset name or an object, got " + describe(*j)});
        return c;
    }
    ObjectReader r(*j, path, errors,
                   {"preset", "name", "gpu", "nodes", "gpus_per_node", "nvlink_domain", "nvlink_latency_s",
                    "network_latency_s"});
    int nodes = c.nodes;
    r.readInt("nodes", nodes, 1, kMaxCount);
    if (const Json* p = r.find("preset"))
        if (const ClusterPreset* preset = lookUpCluster(*p, r.path("preset"), errors))
            c = makeCluster(*preset, nodes);
    c.nodes = nodes;
    // The NVLink domain follows the node size unless the base spans more than a node (NVL72 racks).
    const bool domainIsNode = c.nvlinkDomain == c.gpusPerNode;
    r.readString("name", c.name);
    const bool perNodeOk = r.readInt("gpus_per_node", c.gpusPerNode, 1, kMaxCount);
    if (r.has("nvlink_domain"))
        r.readInt("nvlink_domain", c.nvlinkDomain, 1, kMaxCount);
    else if (domainIsNode && perNodeOk)
        c.nvlinkDomain = c.gpusPerNode;
    r.readDouble("nvlink_latency_s", c.nvlinkLatencySeconds, nonNegative(1.0));
    r.readDouble("network_latency_s", c.networkLatencySeconds, nonNegative(1.0));
    if (const Json* g = r.find("gpu"))
        readGpu(*g, r.path("gpu"), c.gpu, errors);
    r.reportUnknownKeys();
    return c;
}

TrainingOptions readTraining(const Json* j, const std::string& path, InputErrors& errors) {
    TrainingOptions t;
    if (!j)
        return t;
    if (!j->is_object()) {
        errors.push_back({path, "wrong type: expected an object, got " + describe(*j)});
        return t;
    }
    ObjectReader r(*j, path, errors,
                   {"precision",
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
                    "token_budget_tokens"});
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
// Scenario: writing

Json modelToJson(const ModelSpec& m) {
    Json j;
    j["name"] = m.name;
    j["layers"] = m.layers;
    j["hidden"] = m.hidden;
    j["heads"] = m.heads;
    j["kv_heads"] = m.kvHeads;
    j["ffn_hidden"] = m.ffnHidden;
    j["vocab"] = m.vocab;
    j["seq_len"] = m.seqLen;
    j["mlp"] = toString(m.mlp);
    j["norm"] = toString(m.norm);
    j["tied_embeddings"] = m.tiedEmbeddings;
    j["biases"] = m.biases;
    j["learned_positions"] = m.learnedPositions;
    j["dropout"] = m.dropout;
    j["head_size"] = m.headSize;
    j["attention"] = toString(m.attention);
    Json mla;
    mla["q_lora_rank"] = m.mla.qLoraRank;
    mla["kv_lora_rank"] = m.mla.kvLoraRank;
    mla["qk_nope_head_dim"] = m.mla.qkNopeHeadDim;
    mla["qk_rope_head_dim"] = m.mla.qkRopeHeadDim;
    mla["v_head_dim"] = m.mla.vHeadDim;
    j["mla"] = std::move(mla);
    Json moe;
    moe["experts"] = m.moe.experts;
    moe["top_k"] = m.moe.topK;
    moe["expert_ffn_hidden"] = m.moe.expertFfnHidden;
    moe["shared_experts"] = m.moe.sharedExperts;
    moe["moe_layers"] = m.moe.moeLayers;
    moe["capacity_factor"] = m.moe.capacityFactor;
    moe["groups"] = m.moe.groups;
    moe["group_limit"] = m.moe.groupLimit;
    j["moe"] = std::move(moe);
    return j;
}

Json gpuToJson(const GpuSpec& g) {
    Json j;
    j["id"] = g.id;
    j["name"] = g.name;
    j["peak_flops16"] = g.peakFlops16;
    j["peak_flops8"] = g.peakFlops8;
    j["hbm_bytes"] = g.hbmBytes;
    j["hbm_bandwidth_bytes_per_s"] = g.hbmBandwidth;
    j["nvlink_bandwidth_bytes_per_s"] = g.nvlinkBandwidth;
    j["network_bandwidth_bytes_per_s"] = g.networkBandwidth;
    j["host_link_bandwidth_bytes_per_s"] = g.hostLinkBandwidth;
    j["host_memory_bandwidth_bytes_per_s"] = g.hostMemoryBandwidth;
    j["host_memory_bytes"] = g.hostMemoryBytes;
    j["source"] = g.source;
    return j;
}

Json clusterToJson(const ClusterSpec& c) {
    Json j;
    j["name"] = c.name;
    j["nodes"] = c.nodes;
    j["gpus_per_node"] = c.gpusPerNode;
    j["nvlink_domain"] = c.nvlinkDomain;
    j["nvlink_latency_s"] = c.nvlinkLatencySeconds;
    j["network_latency_s"] = c.networkLatencySeconds;
    j["gpu"] = gpuToJson(c.gpu);
    return j;
}

Json trainingToJson(const TrainingOptions& t) {
    Json j;
    j["precision"] = toString(t.precision);
    j["optimizer"] = toString(t.optimizer);
    j["optimizer_precision"] = toString(t.optimizerPrecision);
    j["zero_stage"] = t.zeroStage;
    j["zero_shard_degree"] = t.zeroShardDegree;
    j["recompute_layers"] = t.recomputeLayers;
    j["recompute"] = toString(t.recompute);
    j["recompute_modules"] = recomputeModulesJson(t.recomputeModules);
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

// ------------------------------------------------------------------------------------------------

std::expected<Scenario, InputErrors> scenarioFromJson(std::string_view text) {
    return guarded<Scenario>([&]() -> std::expected<Scenario, InputErrors> {
        InputErrors errors;
        const std::optional<Json> root = parseObject(text, errors);
        if (!root || !checkHeader(*root, errors, kScenarioSchema, kScenarioVersion, "scenario"))
            return std::unexpected(capped(std::move(errors)));
        Scenario s;
        ObjectReader r(*root, "$", errors,
                       {"schema", "version", "name", "notes", "model", "cluster", "training", "layout"});
        r.readString("name", s.name);
        r.readString("notes", s.notes);
        s.model = readModel(r.find("model"), r.path("model"), errors);
        s.cluster = readCluster(r.find("cluster"), r.path("cluster"), errors);
        s.training = readTraining(r.find("training"), r.path("training"), errors);
        s.layout = readLayout(r.find("layout"), r.path("layout"), errors);
        if (s.training.activationOffloadLayers > s.model.layers && s.model.layers > 0)
            errors.push_back({"$.training.activation_offload_layers",
                              "out of range: must be an integer from 0 to the model's layers (" +
                                  std::to_string(s.model.layers) + "), got " +
                                  std::to_string(s.training.activationOffloadLayers)});
        r.reportUnknownKeys();
        if (!errors.empty())
            return std::unexpected(capped(std::move(errors)));
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
    return dumpPretty(j);
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
