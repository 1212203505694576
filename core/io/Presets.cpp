// The presets are read by the same codecs as scenario files (ModelJson.h, detail/HardwareJson.h), with the
// same limits; a preset states every field its type requires.
#include "core/io/Presets.h"

#include "core/io/JsonReader.h"
#include "core/io/ModelJson.h"
#include "core/io/detail/HardwareJson.h"
#include "core/io/detail/JsonWriter.h"
#include "core/model/Limits.h"
#include "core/util/NumberFormat.h"
#include "core/util/Text.h"

#include <algorithm>
#include <cctype>
#include <initializer_list>
#include <optional>
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

using json::Json;
using json::ObjectReader;
using limits::kMaxCount;
using limits::kMaxRate;

// The embedded files are part of the program: anything wrong in them is a programming error, reported by an
// exception that names the file and each problem's JSON path (the preset test reads them all).
[[noreturn]] void fail(std::string_view file, const InputErrors& errors) {
    std::string what = "embedded preset file " + std::string(file) + ":";
    for (const InputError& e : json::capped(errors))
        what += "\n  " + e.message();
    throw std::logic_error(what);
}

// A required text, read by a codec: ids, names and sources must be there and not empty.
void checkText(ObjectReader& r, std::string_view key, const std::string& value) {
    if (r.require(key) && !r.bad(key) && value.empty())
        r.error(key, "out of range: must not be empty");
}

void readText(ObjectReader& r, std::string_view key, std::string& out) {
    r.readString(key, out);
    checkText(r, key, out);
}

void requireAll(ObjectReader& r, std::initializer_list<const char*> keys) {
    for (const char* key : keys)
        r.require(key);
}

// The required keys of a nested object ("mla", "moe").
void requireIn(ObjectReader& r, std::string_view key, std::initializer_list<const char*> keys) {
    if (const Json* v = r.find(key); v && v->is_object()) {
        ObjectReader nested = r.nested(*v, key);
        requireAll(nested, keys);
    }
}

// ------------------------------------------------------------------------------------------------
// Models

// What a preset's numbers must satisfy beyond a scenario's: the attention heads split evenly, and the
// published sizes the parameter count is checked against are consistent.
void checkModelPreset(ObjectReader& r, const ModelPreset& p) {
    const ModelSpec& m = p.model;
    if (m.headSize == 0 && m.heads > 0 && m.hidden % m.heads != 0)
        r.error("heads", "out of range: hidden is not a multiple of heads (give head_size)");
    if (m.kvHeads > 0 && m.heads % m.kvHeads != 0)
        r.error("kv_heads", "out of range: heads is not a multiple of kv_heads");
    if (p.publishedActiveParameters > p.publishedParameters)
        r.error("published_active_parameters", "out of range: exceeds published_parameters");
    if (p.parameterTolerance > 0.03 && p.approximation.empty())
        r.error("parameter_tolerance", "out of range: a tolerance above 0.03 needs an approximation note");
}

ModelPreset readModelPreset(ObjectReader& r) {
    ModelPreset p;
    r.allow({"id", "published_parameters", "published_active_parameters", "approximation",
             "parameter_tolerance", "source"});
    requireAll(r, {"layers", "hidden", "heads", "kv_heads", "ffn_hidden", "vocab", "seq_len", "mlp", "norm",
                   "tied_embeddings", "biases", "learned_positions", "published_parameters"});
    requireIn(r, "mla", {"kv_lora_rank", "qk_nope_head_dim", "qk_rope_head_dim", "v_head_dim"});
    requireIn(r, "moe",
              {"experts", "top_k", "expert_ffn_hidden", "shared_experts", "moe_layers", "capacity_factor"});
    readText(r, "id", p.id);
    ModelFill fill;
    fill.model = [](ObjectReader& model, ModelSpec& m) {
        if (model.has("mla")) { // a preset states latent attention by its ranks alone
            m.attention = AttentionKind::Mla;
            m.mla.qLoraRank = 0; // unless stated: queries projected directly
        }
    };
    readModelKeys(r, p.model, fill);
    checkText(r, "name", p.model.name);
    r.readDouble("published_parameters", p.publishedParameters, json::positive(kMaxRate));
    r.readDouble("published_active_parameters", p.publishedActiveParameters, json::positive(kMaxRate));
    r.readString("approximation", p.approximation);
    r.readDouble("parameter_tolerance", p.parameterTolerance, json::positive(1.0));
    readText(r, "source", p.source);
    checkModelPreset(r, p);
    return p;
}

// ------------------------------------------------------------------------------------------------
// GPUs and clusters

// An optional array of non-empty strings.
void readNames(ObjectReader& r, std::string_view key, std::vector<std::string>& out) {
    const Json* v = r.find(key);
    if (!v)
        return;
    const bool names = v->is_array() && std::all_of(v->begin(), v->end(), [](const Json& item) {
                           return item.is_string() && !item.get_ref<const std::string&>().empty();
                       });
    if (!names) {
        r.error(key, "wrong type: expected an array of non-empty strings, got " + json::describe(*v));
        return;
    }
    for (const Json& item : *v)
        out.push_back(item.get<std::string>());
}

// An optional on-demand price, which needs its source.
void readPrice(ObjectReader& r, double& price, std::string& source) {
    if (!r.has("price_per_gpu_hour_usd"))
        return;
    r.readDouble("price_per_gpu_hour_usd", price, json::positive(1e6));
    readText(r, "price_source", source);
}

GpuPreset readGpuPreset(ObjectReader& r) {
    GpuPreset p;
    GpuSpec& g = p.gpu;
    r.allow({"profile", "profile_source", "aliases", "board_power_w", "power_source",
             "price_per_gpu_hour_usd", "price_source"});
    requireAll(r,
               {"board_power_w", "peak_flops16", "peak_flops8", "hbm_bytes", "hbm_bandwidth_bytes_per_s",
                "nvlink_bandwidth_bytes_per_s", "network_bandwidth_bytes_per_s",
                "host_link_bandwidth_bytes_per_s", "host_memory_bandwidth_bytes_per_s", "host_memory_bytes"});
    readGpuKeys(r, g);
    checkText(r, "id", g.id);
    checkText(r, "name", g.name);
    checkText(r, "source", g.source);
    if (const Json* profile = r.find("profile"); r.require("profile") && profile->is_object()) {
        ObjectReader params = r.nested(*profile, "profile");
        readProfileParams(params, p.profileParams);
    } else if (profile) {
        r.error("profile", "wrong type: expected an object, got " + json::describe(*profile));
    }
    std::string profileSource;
    readText(r, "profile_source", profileSource);
    readNames(r, "aliases", p.aliases);
    r.readDouble("board_power_w", p.boardPowerWatts, json::positive(1e5));
    readText(r, "power_source", p.powerSource);
    readPrice(r, p.pricePerGpuHourUsd, p.priceSource);
    r.reportUnknownKeys();
    if (g.peakFlops8 > 0 && p.profileParams.fp8GemmMaxEfficiency <= 0)
        r.error("profile", "out of range: an fp8 peak needs a positive fp8_gemm_max_efficiency");
    p.profile = makeProfile(g, p.profileParams);
    return p;
}

ClusterPreset readClusterPreset(ObjectReader& r) {
    ClusterPreset p;
    r.allow({"id", "name", "gpu", "gpus_per_node", "nvlink_domain", "network_bandwidth_bytes_per_s",
             "network", "machine_names", "source", "price_per_gpu_hour_usd", "price_source"});
    requireAll(r, {"gpus_per_node", "nvlink_domain"});
    if (!r.has("network"))
        r.require("network_bandwidth_bytes_per_s");
    readText(r, "id", p.id);
    readText(r, "name", p.name);
    readText(r, "gpu", p.gpuId);
    r.readInt("gpus_per_node", p.gpusPerNode, 1, kMaxCount);
    r.readInt("nvlink_domain", p.nvlinkDomain, 1, kMaxCount);
    r.readDouble("network_bandwidth_bytes_per_s", p.networkBandwidth, json::nonNegative(kMaxRate));
    if (const Json* n = r.find("network"); n && n->is_object()) {
        ObjectReader nr = r.nested(*n, "network");
        std::optional<double> latency;
        p.network = readNetworkObject(nr, std::nullopt, latency);
        if (latency)
            nr.error("latency_s", "not a preset's figure: its fabric's latency applies");
        if (p.network) {
            const double share = networkShareBytesPerSecond(*p.network, p.gpusPerNode);
            if (r.has("network_bandwidth_bytes_per_s") && p.networkBandwidth != share)
                r.error("network_bandwidth_bytes_per_s",
                        "differs from the network's cards (" + json::fmtNumber(share) + " per GPU)");
            p.networkBandwidth = share;
        }
    } else if (n) {
        r.error("network", "wrong type: expected an object, got " + json::describe(*n));
    }
    readNames(r, "machine_names", p.machineNames);
    readText(r, "source", p.source);
    readPrice(r, p.pricePerGpuHourUsd, p.priceSource);
    r.reportUnknownKeys();
    if (p.nvlinkDomain < p.gpusPerNode)
        r.error("nvlink_domain", "out of range: smaller than a node (gpus_per_node)");
    return p;
}

// ------------------------------------------------------------------------------------------------
// Files

// The top level of a preset file: {"schema", "version", "description", "<listKey>": [...]}; nullptr (and
// errors) when it holds no list of presets.
const Json* presetList(ObjectReader& top, const char* listKey) {
    top.allow({"schema", "version", "description", listKey});
    std::string text;
    readText(top, "schema", text);
    int version = 0;
    if (top.require("version"))
        top.readInt("version", version, 1, 1);
    readText(top, "description", text);
    top.reportUnknownKeys();
    const Json* list = top.find(listKey);
    if (!top.require(listKey))
        return nullptr;
    if (!list->is_array() || list->empty()) {
        top.error(listKey, "wrong type: expected a non-empty array, got " + json::describe(*list));
        return nullptr;
    }
    return list;
}

template <typename T, typename ReadFn>
std::vector<T> readAll(std::string_view text, std::string_view file, const char* listKey, ReadFn read) {
    InputErrors errors;
    const std::optional<Json> root = json::parseObject(text, errors);
    if (!root)
        fail(file, errors);
    ObjectReader top(*root, "$", errors);
    const Json* list = presetList(top, listKey);
    std::vector<T> out;
    for (std::size_t i = 0; list && i < list->size(); ++i) {
        const Json& entry = (*list)[i];
        const std::string path = json::indexPath(top.path(listKey), i);
        if (!entry.is_object()) {
            errors.push_back({path, "wrong type: expected an object, got " + json::describe(entry)});
            continue;
        }
        ObjectReader r(entry, path, errors);
        out.push_back(read(r));
    }
    if (!errors.empty())
        fail(file, errors);
    return out;
}

// The words of a GPU id or of what a user typed, lower case: "H100 SXM-80gb" -> {"h100", "sxm", "80gb"}.
std::vector<std::string> gpuWords(std::string_view text) {
    std::vector<std::string> words(1);
    for (const char c : text) {
        if (c == '-' || c == '_' || c == ' ') {
            if (!words.back().empty())
                words.emplace_back();
        } else {
            words.back() += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        }
    }
    if (words.back().empty())
        words.pop_back();
    return words;
}

// Whether each typed word begins a word of the id, in the id's order.
bool typedWordsBeginId(const std::vector<std::string>& typed, const std::vector<std::string>& id) {
    std::size_t next = 0;
    for (const std::string& word : typed) {
        while (next < id.size() && !id[next].starts_with(word))
            ++next;
        if (next == id.size())
            return false;
        ++next;
    }
    return !typed.empty();
}

std::string joinedGpuIds(const std::vector<const GpuPreset*>& presets) {
    std::string out;
    for (const GpuPreset* p : presets)
        out += (out.empty() ? "" : ", ") + p->gpu.id;
    return out;
}

// Ids first (exact, then case-insensitive), then display names case-insensitively.
template <typename T, typename IdFn, typename NameFn>
const T* findIn(const std::vector<T>& list, std::string_view key, IdFn id, NameFn name) {
    if (key.empty())
        return nullptr;
    for (const T& p : list) // the id as written (what plans carry): no case folding needed
        if (id(p) == key)
            return &p;
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
        readAll<ModelPreset>(embedded::modelsJson(), "models.json", "models", readModelPreset);
    return presets;
}

const std::vector<GpuPreset>& gpuPresets() {
    static const std::vector<GpuPreset> presets =
        readAll<GpuPreset>(embedded::gpusJson(), "gpus.json", "gpus", readGpuPreset);
    return presets;
}

const std::vector<ClusterPreset>& clusterPresets() {
    static const std::vector<ClusterPreset> presets =
        readAll<ClusterPreset>(embedded::clustersJson(), "clusters.json", "clusters", readClusterPreset);
    return presets;
}

std::vector<ModelPresetGroup> modelPresetGroups() {
    std::vector<ModelPresetGroup> groups = {{"Dense models", {}}, {"Mixtures of experts", {}}};
    for (const ModelPreset& p : modelPresets())
        groups[p.model.isMoe() ? 1 : 0].presets.push_back(&p);
    for (ModelPresetGroup& g : groups)
        std::stable_sort(g.presets.begin(), g.presets.end(), [](const ModelPreset* a, const ModelPreset* b) {
            return countParameters(a->model).total < countParameters(b->model).total;
        });
    return groups;
}

namespace {
// "124 M", "8.0 B", "671 B": three figures at most.
std::string parameterSize(double parameters) {
    if (parameters < 1e9)
        return fmt::fixed(parameters / 1e6, 0) + " M";
    return fmt::fixed(parameters / 1e9, parameters < 100e9 ? 1 : 0) + " B";
}
} // namespace

std::string modelPresetLabel(const ModelPreset& preset) {
    const ParameterCount count = countParameters(preset.model);
    std::string label = preset.model.name + " \u00b7 " + parameterSize(count.total);
    if (preset.model.isMoe())
        label += ", " + parameterSize(count.active) + " active";
    return label;
}

const ModelPreset* findModelPreset(std::string_view idOrName) {
    return findIn(
        modelPresets(), idOrName, [](const ModelPreset& p) -> std::string_view { return p.id; },
        [](const ModelPreset& p) -> std::string_view { return p.model.name; });
}

const GpuPreset* findGpuPreset(std::string_view idOrName) {
    // Every plan asks for its GPU's preset (the run's price and board power), nearly always the same one:
    // each thread keeps its last answer. The presets are built once and never move.
    thread_local std::string lastQuery;
    thread_local const GpuPreset* lastAnswer = nullptr;
    thread_local bool answered = false;
    if (answered && idOrName == lastQuery)
        return lastAnswer;
    lastAnswer = findIn(
        gpuPresets(), idOrName, [](const GpuPreset& p) -> std::string_view { return p.gpu.id; },
        [](const GpuPreset& p) -> std::string_view { return p.gpu.name; });
    lastQuery.assign(idOrName);
    answered = true;
    return lastAnswer;
}

std::expected<const GpuPreset*, std::string> resolveGpuPreset(std::string_view typed) {
    if (const GpuPreset* exact = findGpuPreset(typed))
        return exact;
    // An id with underscores or spaces for hyphens ("H100_SXM_80GB") is the id; then the aliases.
    const std::vector<std::string> words = gpuWords(typed);
    for (const GpuPreset& p : gpuPresets())
        if (gpuWords(p.gpu.id) == words)
            return &p;
    for (const GpuPreset& p : gpuPresets())
        for (const std::string& alias : p.aliases)
            if (gpuWords(alias) == words)
                return &p;
    std::vector<const GpuPreset*> matches;
    std::vector<const GpuPreset*> all;
    for (const GpuPreset& p : gpuPresets()) {
        all.push_back(&p);
        if (typedWordsBeginId(words, gpuWords(p.gpu.id)))
            matches.push_back(&p);
    }
    if (matches.size() == 1)
        return matches.front();
    const std::string quoted = "'" + std::string(typed) + "'";
    if (matches.empty())
        return std::unexpected("unknown GPU " + quoted + " (known: " + joinedGpuIds(all) + ")");
    return std::unexpected("ambiguous GPU " + quoted + ": it could be " + joinedGpuIds(matches) +
                           "; type more of the id");
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
    c.nodes = nodes;
    c.gpusPerNode = preset.gpusPerNode;
    if (preset.network)
        setNetwork(c, *preset.network);
    // A partial NVL72 rack (fewer trays than the domain holds) is NVLinked throughout, no further.
    const long long gpus = c.gpus();
    c.nvlinkDomain = static_cast<int>(
        std::max<long long>(preset.gpusPerNode, std::min<long long>(preset.nvlinkDomain, gpus)));
    return c;
}

namespace {

// What matchingClusterPreset compares, and its answer: every plan asks it once (the run's price), so each
// thread keeps its last answer for the next plan of the same cluster.
struct ClusterMatch {
    std::string gpuId;
    int gpusPerNode = 0, nodes = 0, nvlinkDomain = 0;
    double networkBandwidth = 0;
    std::optional<NetworkSpec> network;
    const ClusterPreset* preset = nullptr;
    bool sameCluster(const ClusterSpec& c) const {
        return gpuId == c.gpu.id && gpusPerNode == c.gpusPerNode && nodes == c.nodes &&
               nvlinkDomain == c.nvlinkDomain && networkBandwidth == c.gpu.networkBandwidth &&
               network == c.network;
    }
};

const ClusterPreset* findMatchingClusterPreset(const ClusterSpec& c) {
    for (const ClusterPreset& p : clusterPresets()) {
        if (p.gpuId != c.gpu.id || p.gpusPerNode != c.gpusPerNode)
            continue;
        const ClusterSpec shape = makeCluster(p, c.nodes);
        // A cluster written before networks were stated has none: its figures still name the system.
        if (shape.nvlinkDomain == c.nvlinkDomain && shape.gpu.networkBandwidth == c.gpu.networkBandwidth &&
            (!c.network || shape.network == c.network))
            return &p;
    }
    return nullptr;
}

} // namespace

const ClusterPreset* matchingClusterPreset(const ClusterSpec& c) {
    thread_local std::optional<ClusterMatch> last;
    if (last && last->sameCluster(c))
        return last->preset;
    last = ClusterMatch{c.gpu.id,
                        c.gpusPerNode,
                        c.nodes,
                        c.nvlinkDomain,
                        c.gpu.networkBandwidth,
                        c.network,
                        findMatchingClusterPreset(c)};
    return last->preset;
}

std::string automaticClusterName(const ClusterSpec& c) {
    if (const ClusterPreset* p = matchingClusterPreset(c))
        return std::to_string(c.nodes) + " x " + p->name;
    return std::to_string(c.nodes) + (c.nodes == 1 ? " node x " : " nodes x ") +
           std::to_string(c.gpusPerNode) + " " + gpuShortName(c.gpu);
}

std::string clusterName(const ClusterSpec& c) {
    return c.name ? *c.name : automaticClusterName(c);
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
    // The Llama-2-70B architecture (Touvron et al. 2023; HF config.json), as the preset seed-70b holds it, on
    // 8 x DGX H100: NVLink 4 (900 GB/s both ways), one 400 Gb/s NIC per GPU.
    const ModelPreset* seed = findModelPreset("seed-70b");
    const ClusterPreset* dgx = findClusterPreset("dgx-h100");
    if (!seed || !dgx)
        throw std::logic_error("embedded presets: seed-70b or dgx-h100 is missing");
    s.model = seed->model;
    s.model.name = "Llama-2-70B-class (seed example)";
    s.cluster = makeCluster(*dgx, 8);

    TrainingOptions& t = s.training;
    t.precision = Precision::Bf16;
    t.optimizer = Optimizer::Adam;
    t.zeroStage = 1;
    t.recompute = Recompute::Selective;
    t.sequenceParallel = true;
    t.flashAttention = true;
    // The worked example is plain Megatron-LM as the documentation works through it: no TP or DP overlap,
    // fp32 main grads, stated so that the GPU's automatic habits (megatronRecipeHabits) do not change it.
    t.overlapTpComm = Toggle::Off;
    t.overlapDpComm = Toggle::Off;
    t.gradPrecision = GradPrecision::Fp32;

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
