#include "core/io/Presets.h"

#include "core/util/Text.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <initializer_list>
#include <set>
#include <stdexcept>
#include <string>

// Generated at build time from resources/presets/*.json by core/io/embed.cmake.
namespace lp::core::embedded {
std::string_view modelsJson();
std::string_view gpusJson();
std::string_view clustersJson();
} // namespace lp::core::embedded

namespace lp::core {
namespace {

using nlohmann::json;

// The embedded files are part of the program: anything wrong in them is a programming error,
// reported by an exception naming the file, the preset and the key (the preset test parses them all).
[[noreturn]] void fail(const std::string& where, const std::string& what) {
    throw std::logic_error("embedded preset " + where + ": " + what);
}

// Reads the fields of one JSON object and rejects keys it was never asked for (typos).
class Reader {
public:
    Reader(const json& object, std::string where) : m_object(object), m_where(std::move(where)) {
        if (!m_object.is_object())
            fail(m_where, "must be an object");
    }

    bool has(const std::string& key) const { return m_object.contains(key); }

    const json& at(const std::string& key) {
        m_used.insert(key);
        if (!m_object.contains(key))
            fail(m_where, "missing key \"" + key + "\"");
        return m_object.at(key);
    }

    std::string string(const std::string& key, bool allowEmpty = false) {
        const json& v = at(key);
        if (!v.is_string())
            fail(m_where + "." + key, "must be a string");
        std::string s = v.get<std::string>();
        if (s.empty() && !allowEmpty)
            fail(m_where + "." + key, "must not be empty");
        return s;
    }
    std::string optionalString(const std::string& key) { return has(key) ? string(key) : std::string{}; }

    double number(const std::string& key, double min, bool minExclusive) {
        const json& v = at(key);
        if (!v.is_number())
            fail(m_where + "." + key, "must be a number");
        const double x = v.get<double>();
        if (!(minExclusive ? x > min : x >= min))
            fail(m_where + "." + key,
                 std::string("must be ") + (minExclusive ? "> " : ">= ") + std::to_string(min));
        return x;
    }
    double positive(const std::string& key) { return number(key, 0.0, true); }
    double nonNegative(const std::string& key) { return number(key, 0.0, false); }
    // Optional numbers: the key's value where given, else `absent`.
    double optionalPositive(const std::string& key, double absent) {
        return has(key) ? positive(key) : absent;
    }
    double optionalNonNegative(const std::string& key, double absent) {
        return has(key) ? nonNegative(key) : absent;
    }

    int integer(const std::string& key, int min) {
        const json& v = at(key);
        if (!v.is_number_integer())
            fail(m_where + "." + key, "must be an integer");
        const long long x = v.get<long long>();
        if (x < min || x > 1'000'000'000)
            fail(m_where + "." + key, "must be an integer >= " + std::to_string(min));
        return static_cast<int>(x);
    }

    bool boolean(const std::string& key) {
        const json& v = at(key);
        if (!v.is_boolean())
            fail(m_where + "." + key, "must be true or false");
        return v.get<bool>();
    }
    bool optionalBoolean(const std::string& key, bool fallback) { return has(key) ? boolean(key) : fallback; }

    // An optional array of non-empty strings.
    std::vector<std::string> optionalStrings(const std::string& key) {
        std::vector<std::string> out;
        if (!has(key))
            return out;
        const json& v = at(key);
        if (!v.is_array())
            fail(m_where + "." + key, "must be an array of strings");
        for (const json& item : v) {
            if (!item.is_string() || item.get<std::string>().empty())
                fail(m_where + "." + key, "must be an array of non-empty strings");
            out.push_back(item.get<std::string>());
        }
        return out;
    }

    // Every key of the object must have been read.
    void finish() const {
        for (const auto& [key, value] : m_object.items())
            if (!m_used.contains(key))
                fail(m_where, "unknown key \"" + key + "\"");
    }

    const std::string& where() const { return m_where; }

private:
    const json& m_object;
    std::string m_where;
    std::set<std::string> m_used;
};

// The top level of a preset file: {"schema", "version", "description", "<listKey>": [...]}.
const json& presetList(const json& root, const std::string& file, const std::string& listKey) {
    Reader top(root, file);
    top.string("schema");
    top.integer("version", 1);
    top.string("description");
    const json& list = top.at(listKey);
    top.finish();
    if (!list.is_array() || list.empty())
        fail(file + "." + listKey, "must be a non-empty array");
    return list;
}

json parseEmbedded(std::string_view text, const std::string& file) {
    try {
        return json::parse(text.begin(), text.end());
    } catch (const json::parse_error& e) {
        fail(file, std::string("does not parse: ") + e.what());
    }
}

std::string presetWhere(const std::string& file, const json& entry, std::size_t index) {
    std::string where = file + "[" + std::to_string(index) + "]";
    if (entry.is_object() && entry.contains("id") && entry.at("id").is_string())
        where += " (" + entry.at("id").get<std::string>() + ")";
    return where;
}

MoeSpec readMoe(const json& object, const std::string& where) {
    Reader r(object, where);
    MoeSpec moe;
    moe.experts = r.integer("experts", 1);
    moe.topK = r.integer("top_k", 1);
    moe.expertFfnHidden = r.integer("expert_ffn_hidden", 1);
    moe.sharedExperts = r.integer("shared_experts", 0);
    moe.moeLayers = r.integer("moe_layers", 0);
    moe.capacityFactor = r.positive("capacity_factor");
    moe.groups = r.has("groups") ? r.integer("groups", 1) : 0;
    moe.groupLimit = r.has("group_limit") ? r.integer("group_limit", 1) : 0;
    r.finish();
    if (moe.topK > moe.experts)
        fail(where, "top_k exceeds experts");
    return moe;
}

ModelPreset readModel(const json& entry, const std::string& where) {
    Reader r(entry, where);
    ModelPreset p;
    p.id = r.string("id");
    ModelSpec& m = p.model;
    m.name = r.string("name");
    m.layers = r.integer("layers", 1);
    m.hidden = r.integer("hidden", 1);
    m.heads = r.integer("heads", 1);
    m.kvHeads = r.integer("kv_heads", 1);
    m.ffnHidden = r.integer("ffn_hidden", 1);
    m.vocab = r.integer("vocab", 1);
    m.seqLen = r.integer("seq_len", 1);
    const std::string mlp = r.string("mlp");
    const std::string norm = r.string("norm");
    const auto mlpKind = parseMlpKind(mlp);
    const auto normKind = parseNormKind(norm);
    if (!mlpKind)
        fail(where + ".mlp", "unknown MLP kind \"" + mlp + "\"");
    if (!normKind)
        fail(where + ".norm", "unknown norm kind \"" + norm + "\"");
    m.mlp = *mlpKind;
    m.norm = *normKind;
    m.tiedEmbeddings = r.boolean("tied_embeddings");
    m.biases = r.boolean("biases");
    m.learnedPositions = r.boolean("learned_positions");
    m.dropout = r.optionalBoolean("dropout", false);
    if (r.has("head_size"))
        m.headSize = r.integer("head_size", 1);
    if (r.has("mla")) {
        const json& j = r.at("mla");
        Reader q(j, where + ".mla");
        m.attention = AttentionKind::Mla;
        m.mla.qLoraRank = q.has("q_lora_rank") ? static_cast<int>(q.at("q_lora_rank").get<long long>()) : 0;
        m.mla.kvLoraRank = q.integer("kv_lora_rank", 1);
        m.mla.qkNopeHeadDim = q.integer("qk_nope_head_dim", 1);
        m.mla.qkRopeHeadDim = q.integer("qk_rope_head_dim", 1);
        m.mla.vHeadDim = q.integer("v_head_dim", 1);
        q.finish();
    }
    if (r.has("moe"))
        m.moe = readMoe(r.at("moe"), where + ".moe");
    p.publishedParameters = r.positive("published_parameters");
    if (r.has("published_active_parameters"))
        p.publishedActiveParameters = r.positive("published_active_parameters");
    p.approximation = r.optionalString("approximation");
    if (r.has("parameter_tolerance"))
        p.parameterTolerance = r.positive("parameter_tolerance");
    p.source = r.string("source");
    r.finish();

    if (m.headSize == 0 && m.hidden % m.heads != 0)
        fail(where, "hidden is not a multiple of heads (give head_size)");
    if (m.heads % m.kvHeads != 0)
        fail(where, "heads is not a multiple of kv_heads");
    if (m.moe.moeLayers > m.layers)
        fail(where, "moe_layers exceeds layers");
    if (p.publishedActiveParameters > p.publishedParameters)
        fail(where, "published_active_parameters exceeds published_parameters");
    if (p.parameterTolerance > 0.03 && p.approximation.empty())
        fail(where, "a parameter_tolerance above 0.03 needs an approximation note");
    return p;
}

ProfileParams readProfile(const json& object, const std::string& where) {
    Reader r(object, where);
    ProfileParams p;
    p.gemmMaxEfficiency = r.positive("gemm_max_efficiency");
    p.gemmFixedSeconds = r.nonNegative("gemm_fixed_seconds");
    p.fp8GemmMaxEfficiency = r.nonNegative("fp8_gemm_max_efficiency");
    p.kernels.hbmEfficiency = r.positive("hbm_efficiency");
    p.kernels.attentionFwdEfficiency = r.positive("attention_fwd_efficiency");
    p.kernels.attentionBwdEfficiency = r.positive("attention_bwd_efficiency");
    p.kernels.fa2AttentionFwdEfficiency = r.optionalPositive("fa2_attention_fwd_efficiency", 0);
    p.kernels.fa2AttentionBwdEfficiency = r.optionalPositive("fa2_attention_bwd_efficiency", 0);
    p.kernels.attentionFwdHalfTokens = r.optionalNonNegative("attention_fwd_half_tokens", 0);
    p.kernels.attentionBwdHalfTokens = r.optionalNonNegative("attention_bwd_half_tokens", 0);
    p.kernels.attentionScoreOverhead = r.optionalNonNegative("attention_score_overhead", 0);
    p.kernels.fa2AttentionScoreOverhead = r.optionalNonNegative("fa2_attention_score_overhead", 0);
    p.nvlinkMaxEfficiency = r.positive("nvlink_max_efficiency");
    p.nvlinkHalfBytes = r.positive("nvlink_half_bytes");
    p.networkMaxEfficiency = r.positive("network_max_efficiency");
    p.networkHalfBytes = r.positive("network_half_bytes");
    r.finish();
    for (const double e :
         {p.gemmMaxEfficiency, p.fp8GemmMaxEfficiency, p.kernels.hbmEfficiency, p.nvlinkMaxEfficiency,
          p.networkMaxEfficiency, p.kernels.attentionFwdEfficiency, p.kernels.attentionBwdEfficiency,
          p.kernels.fa2AttentionFwdEfficiency, p.kernels.fa2AttentionBwdEfficiency})
        if (e > 1.0)
            fail(where, "an efficiency above 1");
    return p;
}

GpuPreset readGpu(const json& entry, const std::string& where) {
    Reader r(entry, where);
    GpuPreset p;
    GpuSpec& g = p.gpu;
    g.id = r.string("id");
    g.name = r.string("name");
    g.peakFlops16 = r.positive("peak_flops16");
    g.peakFlops8 = r.nonNegative("peak_flops8");
    g.hbmBytes = r.positive("hbm_bytes");
    g.hbmBandwidth = r.positive("hbm_bandwidth_bytes_per_s");
    g.nvlinkBandwidth = r.positive("nvlink_bandwidth_bytes_per_s");
    g.networkBandwidth = r.positive("network_bandwidth_bytes_per_s");
    g.hostLinkBandwidth = r.positive("host_link_bandwidth_bytes_per_s");
    g.hostMemoryBandwidth = r.positive("host_memory_bandwidth_bytes_per_s");
    g.hostMemoryBytes = r.positive("host_memory_bytes");
    g.source = r.string("source");
    p.profileParams = readProfile(r.at("profile"), where + ".profile");
    r.string("profile_source");
    r.finish();
    if (g.peakFlops8 > 0 && p.profileParams.fp8GemmMaxEfficiency <= 0)
        fail(where, "an fp8 peak needs a positive fp8_gemm_max_efficiency");
    p.profile = makeProfile(g, p.profileParams);
    return p;
}

ClusterPreset readCluster(const json& entry, const std::string& where) {
    Reader r(entry, where);
    ClusterPreset p;
    p.id = r.string("id");
    p.name = r.string("name");
    p.gpuId = r.string("gpu");
    p.gpusPerNode = r.integer("gpus_per_node", 1);
    p.nvlinkDomain = r.integer("nvlink_domain", 1);
    p.networkBandwidth = r.nonNegative("network_bandwidth_bytes_per_s");
    p.machineNames = r.optionalStrings("machine_names");
    p.source = r.string("source");
    r.finish();
    if (p.nvlinkDomain < p.gpusPerNode)
        fail(where, "nvlink_domain is smaller than a node");
    return p;
}

template <typename T, typename ReadFn>
std::vector<T> readAll(std::string_view text, const std::string& file, const std::string& listKey,
                       ReadFn read) {
    const json root = parseEmbedded(text, file);
    const json& list = presetList(root, file, listKey);
    std::vector<T> out;
    out.reserve(list.size());
    for (std::size_t i = 0; i < list.size(); ++i)
        out.push_back(read(list[i], presetWhere(file, list[i], i)));
    return out;
}

// Ids first (exact, then case-insensitive), then display names case-insensitively.
template <typename T, typename IdFn, typename NameFn>
const T* findIn(const std::vector<T>& list, std::string_view key, IdFn id, NameFn name) {
    if (key.empty())
        return nullptr;
    for (const T& p : list)
        if (equalsIgnoreCase(id(p), key))
            return &p;
    for (const T& p : list)
        if (equalsIgnoreCase(name(p), key))
            return &p;
    return nullptr;
}

} // namespace

const std::vector<ModelPreset>& modelPresets() {
    static const std::vector<ModelPreset> presets =
        readAll<ModelPreset>(embedded::modelsJson(), "models.json", "models", readModel);
    return presets;
}

const std::vector<GpuPreset>& gpuPresets() {
    static const std::vector<GpuPreset> presets =
        readAll<GpuPreset>(embedded::gpusJson(), "gpus.json", "gpus", readGpu);
    return presets;
}

const std::vector<ClusterPreset>& clusterPresets() {
    static const std::vector<ClusterPreset> presets =
        readAll<ClusterPreset>(embedded::clustersJson(), "clusters.json", "clusters", readCluster);
    return presets;
}

const ModelPreset* findModelPreset(std::string_view idOrName) {
    return findIn(
        modelPresets(), idOrName, [](const ModelPreset& p) -> std::string_view { return p.id; },
        [](const ModelPreset& p) -> std::string_view { return p.model.name; });
}

const GpuPreset* findGpuPreset(std::string_view idOrName) {
    return findIn(
        gpuPresets(), idOrName, [](const GpuPreset& p) -> std::string_view { return p.gpu.id; },
        [](const GpuPreset& p) -> std::string_view { return p.gpu.name; });
}

const ClusterPreset* findClusterPreset(std::string_view idOrName) {
    return findIn(
        clusterPresets(), idOrName, [](const ClusterPreset& p) -> std::string_view { return p.id; },
        [](const ClusterPreset& p) -> std::string_view { return p.name; });
}

double presetNetworkBandwidth(const ClusterPreset& preset) {
    if (preset.networkBandwidth > 0)
        return preset.networkBandwidth;
    const GpuPreset* gpu = findGpuPreset(preset.gpuId);
    return gpu ? gpu->gpu.networkBandwidth : 0.0;
}

ClusterSpec makeCluster(const ClusterPreset& preset, int nodes) {
    ClusterSpec c;
    if (const GpuPreset* gpu = findGpuPreset(preset.gpuId))
        c.gpu = gpu->gpu;
    if (const double network = presetNetworkBandwidth(preset);
        network > 0 && network != c.gpu.networkBandwidth) {
        // The GPU's source speaks of its usual server's cards; this system's network has its own.
        c.gpu.networkBandwidth = network;
        c.gpu.source += (c.gpu.source.empty() ? "" : ". ") + std::string("Network: ") + preset.name + ", " +
                        preset.source;
    }
    c.name = std::to_string(nodes) + " x " + preset.name;
    c.nodes = nodes;
    c.gpusPerNode = preset.gpusPerNode;
    // A partial NVL72 rack (fewer trays than the domain holds) is NVLinked throughout, no further.
    const long long gpus = c.gpus();
    c.nvlinkDomain = static_cast<int>(
        std::max<long long>(preset.gpusPerNode, std::min<long long>(preset.nvlinkDomain, gpus)));
    return c;
}

HardwareProfile builtinProfile(const GpuSpec& gpu) {
    if (const GpuPreset* preset = findGpuPreset(gpu.id))
        return makeProfile(gpu, preset->profileParams);
    HardwareProfile p = makeProfile(gpu, ProfileParams{});
    p.name = "built-in generic (" + gpu.id + ")";
    return p;
}

Scenario defaultScenario() {
    Scenario s;
    s.name = "Llama-2-70B on 64 H100 (seed example)";
    s.notes = "The worked example: a 70B model on 8 nodes x 8 H100 SXM as TP 8 x PP 4 x DP 2.";

    ModelSpec& m = s.model; // Llama-2-70B architecture (Touvron et al. 2023; HF config.json)
    m.name = "Llama-2-70B-class (seed example)";
    m.layers = 80;
    m.hidden = 8192;
    m.heads = 64;
    m.kvHeads = 8;
    m.ffnHidden = 28672;
    m.vocab = 32000;
    m.seqLen = 4096;
    m.mlp = MlpKind::SwiGlu;
    m.norm = NormKind::RmsNorm;
    m.tiedEmbeddings = false;
    m.biases = false;
    m.learnedPositions = false;
    m.dropout = false;

    if (const ModelPreset* seed = findModelPreset("seed-70b")) {
        const std::string name = m.name;
        m = seed->model; // the preset is the reference; the fields above document it
        m.name = name;
    }

    // 8 x DGX H100: NVLink 4 (900 GB/s both ways), one 400 Gb/s NIC per GPU.
    if (const ClusterPreset* dgx = findClusterPreset("dgx-h100")) {
        s.cluster = makeCluster(*dgx, 8);
    } else {
        ClusterSpec& c = s.cluster;
        c.name = "8 x DGX H100";
        c.nodes = 8;
        c.gpusPerNode = 8;
        c.nvlinkDomain = 8;
    }

    TrainingOptions& t = s.training;
    t.precision = Precision::Bf16;
    t.optimizer = Optimizer::Adam;
    t.zeroStage = 1;
    t.recompute = Recompute::Selective;
    t.sequenceParallel = true;
    t.flashAttention = true;

    Layout& l = s.layout;
    l.tp = 8;
    l.pp = 4;
    l.dp = 2;
    l.cp = 1;
    l.ep = 1;
    l.vpp = 1;
    l.microBatch = 2;
    l.accumulation = 16;
    return s;
}

} // namespace lp::core
