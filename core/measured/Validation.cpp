// Reads layout-planner/validation-cases@1 files (core/measured/ValidationRun.cpp plans and compares them).
// The file is parsed, and its errors are worded, by the JSON reader of the scenario files
// (core/io/JsonReader.h); what the case format requires is checked here.
#include "core/measured/Validation.h"

#include "core/io/JsonReader.h"
#include "core/io/Presets.h"
#include "core/measured/detail/CaseNotes.h"
#include "core/util/NumberFormat.h"
#include "core/util/Text.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <numeric>
#include <string_view>

namespace lp::core {

long long detail::perReplicaUnits(long long total, long long per) {
    per = std::max(1LL, per);
    return std::max(1LL, (total + per / 2) / per);
}

bool detail::megatronCoreRecipeApplies(const Scenario& s) {
    const TrainingOptions& t = s.training;
    return s.cluster.gpu.peakFlops8 > 0 && t.zeroStage < 3 && t.executionStyle != ExecutionStyle::Fsdp;
}

namespace {

using detail::Json;
using detail::megatronCoreRecipeApplies;
using detail::perReplicaUnits;

constexpr const char* kSchema = "layout-planner/validation-cases@1";

const char* kMetrics[] = {
    "iteration_time_s",     "model_tflops_per_gpu", "hardware_tflops_per_gpu", "mfu", "hfu",
    "tokens_per_s_per_gpu", "peak_memory_gib"};

struct Reader {
    InputErrors& errors;

    void error(const std::string& where, std::string_view key, std::string reason) {
        errors.push_back({detail::childPath(where, key), std::move(reason)});
    }
    const Json* field(const Json& obj, const char* key, const std::string& where) {
        if (!obj.is_object() || !obj.contains(key)) {
            error(where, key,
                  "missing required key " + detail::quoteJson(key) +
                      (obj.is_object() ? ""
                                       : " (" + where + " is " + detail::describe(obj) + ", not an object)"));
            return nullptr;
        }
        return &obj.at(key);
    }
    int integer(const Json& obj, const char* key, const std::string& where, int lo, int hi) {
        const Json* v = field(obj, key, where);
        if (!v)
            return lo;
        // A whole number written as a float (1024.0, what a script's division writes) counts, as in scenario
        // files; 8.5 does not.
        const bool whole =
            v->is_number_integer() || (v->is_number_float() && std::isfinite(v->get<double>()) &&
                                       v->get<double>() == std::floor(v->get<double>()));
        if (!whole) {
            error(where, key, "wrong type: expected an integer, got " + detail::describe(*v));
            return lo;
        }
        const bool tooBig = v->is_number_unsigned() ? v->get<std::uint64_t>() > static_cast<std::uint64_t>(hi)
                                                    : v->get<double>() > static_cast<double>(hi);
        if (tooBig || v->get<double>() < static_cast<double>(lo)) {
            error(where, key,
                  "out of range: must be an integer from " + std::to_string(lo) + " to " +
                      std::to_string(hi) + ", got " + detail::describe(*v));
            return lo;
        }
        return static_cast<int>(v->get<double>());
    }
    // Present and not null: the format writes null (or leaves the key out) for "not stated".
    static bool given(const Json& obj, const char* key) {
        return obj.is_object() && obj.contains(key) && !obj.at(key).is_null();
    }
    // An optional integer: `fallback` when it is not given.
    int optionalInteger(const Json& obj, const char* key, const std::string& where, int lo, int hi,
                        int fallback) {
        return given(obj, key) ? integer(obj, key, where, lo, hi) : fallback;
    }
    bool boolean(const Json& obj, const char* key, const std::string& where, bool fallback) {
        if (!obj.contains(key) || obj.at(key).is_null())
            return fallback;
        if (!obj.at(key).is_boolean()) {
            error(where, key, "wrong type: expected true or false, got " + detail::describe(obj.at(key)));
            return fallback;
        }
        return obj.at(key).get<bool>();
    }
    std::string text(const Json& obj, const char* key, const std::string& where) {
        const Json* v = field(obj, key, where);
        if (!v)
            return {};
        if (!v->is_string()) {
            error(where, key, "wrong type: expected a string, got " + detail::describe(*v));
            return {};
        }
        return v->get<std::string>();
    }
    // An optional string: empty when absent, null or not a string.
    static std::string optionalText(const Json& obj, const char* key) {
        if (!obj.is_object() || !obj.contains(key) || !obj.at(key).is_string())
            return {};
        return obj.at(key).get<std::string>();
    }
    // A required name from a fixed list; `fallback` when it is missing, of the wrong type or unknown.
    template <typename E>
    E choice(const Json& obj, const char* key, const std::string& where,
             std::optional<E> (*parse)(std::string_view), std::initializer_list<E> allowed, E fallback) {
        const Json* v = field(obj, key, where);
        if (!v)
            return fallback;
        std::vector<std::string> names;
        for (E e : allowed)
            names.emplace_back(toString(e));
        if (!v->is_string()) {
            error(where, key,
                  "wrong type: expected one of " + detail::joinList(names) + ", got " + detail::describe(*v));
            return fallback;
        }
        const std::string& s = v->get_ref<const std::string&>();
        if (auto e = parse(s))
            return *e;
        error(where, key,
              "unknown value " + detail::quoteJson(s) + detail::didYouMean(s, names) + ": expected one of " +
                  detail::joinList(names));
        return fallback;
    }
};

// The case format records the architecture's main numbers; the rest follows the family it names:
// GELU models are GPT-style (LayerNorm, biases, learned positions, dropout), SwiGLU models are
// Llama-style (RMSNorm, no biases, RoPE, no dropout). A number the case leaves open (null or absent) where
// a family's rule supplies it is filled and said in `adjustments`: the MLP kind (SwiGLU, what published
// models since 2023 use), its width (GPT's 4h, or Llama's 8h/3 rounded up to a multiple of 256), the K/V
// heads (as many as the query heads).
// Without `moe_layers`, the Hugging Face way of saying which layers are MoE: the first k dense
// (`first_dense_layers`, DeepSeek's `first_k_dense_replace`), then every n-th (`moe_layer_freq` n, or a
// fraction 1/n; Llama 4's `interleave_moe_layer_step`): layer i is MoE when i >= k and i % n == 0.
void readMoeLayerPattern(Reader& r, const Json& e, const std::string& w, ModelSpec& m,
                         std::vector<std::string>& adjustments) {
    const char* denseKey =
        Reader::given(e, "first_k_dense_replace") ? "first_k_dense_replace" : "first_dense_layers";
    const int dense = r.optionalInteger(e, denseKey, w, 0, 100000, 0);
    int step = 1;
    const char* stepKey =
        Reader::given(e, "interleave_moe_layer_step") ? "interleave_moe_layer_step" : "moe_layer_freq";
    if (Reader::given(e, stepKey)) {
        const Json& v = e.at(stepKey);
        const double f = v.is_number() ? v.get<double>() : 0.0;
        if (!(std::isfinite(f) && f > 0.0 && f <= 100000.0)) {
            r.error(w, stepKey,
                    "out of range: must be a layer step (2: every second layer) or a fraction (0.5), got " +
                        detail::describe(v));
            return;
        }
        step = static_cast<int>(std::lround(f >= 1.0 ? f : 1.0 / f));
    }
    if (dense == 0 && step == 1)
        return;
    int count = 0;
    for (int i = dense; i < m.layers; ++i)
        if (i % step == 0)
            ++count;
    if (count == 0) {
        r.error(w, denseKey, "out of range: no layer would be a mixture-of-experts layer");
        return;
    }
    m.moe.moeLayers = count == m.layers ? 0 : count;
    adjustments.push_back(
        "moe_layers not stated: " + std::to_string(count) + " of " + std::to_string(m.layers) +
        " layers from " + (dense > 0 ? std::string(denseKey) : std::string()) +
        (dense > 0 && step > 1 ? " and " : "") + (step > 1 ? std::string(stepKey) : std::string()));
}

ModelSpec readModel(Reader& r, const Json& j, const std::string& where,
                    std::vector<std::string>& adjustments) {
    ModelSpec m;
    m.name = Reader::optionalText(j, "name"); // cosmetic: the case's id stands in when it is missing
    m.layers = r.integer(j, "layers", where, 1, 100000);
    m.hidden = r.integer(j, "hidden", where, 1, 1000000);
    m.heads = r.integer(j, "heads", where, 1, 100000);
    // kv_heads null: multi-head attention (as many K/V heads as query heads).
    m.kvHeads = Reader::given(j, "kv_heads") ? r.integer(j, "kv_heads", where, 1, 100000) : m.heads;
    if (!Reader::given(j, "mlp")) {
        m.mlp = MlpKind::SwiGlu;
        adjustments.push_back("mlp not stated: planned as swiglu");
    } else {
        m.mlp = r.choice(j, "mlp", where, &parseMlpKind, {MlpKind::Gelu, MlpKind::SwiGlu}, m.mlp);
    }
    const bool gpt = m.mlp == MlpKind::Gelu;
    if (Reader::given(j, "ffn_hidden")) {
        m.ffnHidden = r.integer(j, "ffn_hidden", where, 1, 10000000);
    } else if (m.hidden > 0) {
        const long long width = gpt ? 4LL * m.hidden : (8LL * m.hidden / 3 + 255) / 256 * 256;
        m.ffnHidden = static_cast<int>(std::min<long long>(width, 10000000));
        adjustments.push_back(
            "ffn_hidden not stated: planned with " + std::to_string(m.ffnHidden) +
            (gpt ? " (4 x hidden)" : " (8/3 x hidden rounded up to a multiple of 256, Llama's rule)"));
    }
    m.vocab = r.integer(j, "vocab", where, 1, 100000000);
    m.seqLen = r.integer(j, "seq_len", where, 1, 100000000);
    m.tiedEmbeddings = r.boolean(j, "tied_embeddings", where, false);
    m.norm = gpt ? NormKind::LayerNorm : NormKind::RmsNorm;
    m.biases = gpt;
    m.learnedPositions = gpt;
    m.dropout = gpt;
    if (j.contains("moe") && j.at("moe").is_object()) {
        const Json& e = j.at("moe");
        const std::string w = where + ".moe";
        m.moe.experts = r.integer(e, "experts", w, 1, 100000);
        m.moe.topK = r.integer(e, "top_k", w, 1, 100000);
        // Absent or null: each expert as wide as the dense MLP (Mixtral), no shared expert, every layer MoE.
        m.moe.expertFfnHidden = r.optionalInteger(e, "expert_ffn_hidden", w, 1, 10000000, m.ffnHidden);
        m.moe.sharedExperts = r.optionalInteger(e, "shared_experts", w, 0, 100000, m.moe.sharedExperts);
        m.moe.moeLayers = r.optionalInteger(e, "moe_layers", w, 0, 100000, m.moe.moeLayers);
        if (!Reader::given(e, "moe_layers"))
            readMoeLayerPattern(r, e, w, m, adjustments);
    }
    return m;
}

// The format has no network field, but a case's notes often say what the cluster's was (a paper's "RoCE, 400
// Gbps per GPU", a blog's "800Gbps inter-node interconnect"): a case is planned on the network it ran on, and
// its rows say so. A node's figure is shared by the node's GPUs (gpus_per_node as stated, else the
// cluster's).
void applyStatedNetwork(ClusterSpec& c, ValidationCase& vc, const Json& statedPerNode) {
    if (c.gpus() <= c.gpusPerNode || !(c.gpu.networkBandwidth > 0))
        return; // one node: no network traffic to plan (or no GPU read)
    const int perNode =
        statedPerNode.is_number_integer()
            ? static_cast<int>(std::clamp<long long>(statedPerNode.get<long long>(), 1, 100000))
            : c.gpusPerNode;
    const std::string family = c.gpu.id.substr(0, c.gpu.id.find('-'));
    std::string stated;
    double perGpu = 0;
    if (const auto net = detail::statedNetwork(vc.notes, perNode, family)) {
        stated = "the notes state " + detail::quoteJson(net->statement) +
                 (net->perNode ? " per node" : " per GPU");
        perGpu = net->bytesPerSecondPerGpu;
    } else if (const auto machine = detail::namedMachine(vc.notes + " " + vc.source, family, perNode)) {
        // No figure, but a machine whose vendor documents one (the cluster preset's).
        stated = "the notes name the " + machine->preset->name + " (" +
                 detail::quoteJson(machine->asWritten) + ")";
        perGpu = presetNetworkBandwidth(*machine->preset);
    }
    if (!(perGpu > 0) || std::abs(perGpu / c.gpu.networkBandwidth - 1) < 0.01)
        return;
    vc.adjustments.push_back("network: " + stated + ", planned with " + fmt::fixed(perGpu / 1e9, 1) +
                             " GB/s per GPU (the " + c.gpu.id +
                             " preset's card: " + fmt::fixed(c.gpu.networkBandwidth / 1e9, 1) + ")");
    c.gpu.networkBandwidth = perGpu;
}

// Nor does it record the attention's geometry where it departs from hidden / heads: a head size of its
// own (Qwen3's 128, gpt-oss's 64) or DeepSeek's multi-head latent attention. A case whose stated shape is
// a published model's (layers, hidden, heads, K/V heads, vocabulary, MLP kind, and the dense MLP width or
// the experts' count, top-k, width, shared experts and MoE layers) is that model: it takes the built-in
// preset's attention (head size, MLA and its ranks), its routing groups, and its norm, biases, positions and
// dropout, which the reader otherwise guesses from the MLP kind. Returns the preset's name when that changed
// anything.
std::string adoptPresetArchitecture(ModelSpec& m) {
    for (const ModelPreset& p : modelPresets()) {
        const ModelSpec& q = p.model;
        const bool shape = q.layers == m.layers && q.hidden == m.hidden && q.heads == m.heads &&
                           q.kvHeads == m.kvHeads && q.vocab == m.vocab && q.mlp == m.mlp &&
                           q.isMoe() == m.isMoe();
        const bool mlp = m.isMoe() ? q.moe.experts == m.moe.experts && q.moe.topK == m.moe.topK &&
                                         q.moe.expertFfnHidden == m.moe.expertFfnHidden &&
                                         q.moe.sharedExperts == m.moe.sharedExperts &&
                                         q.moeLayerCount() == m.moeLayerCount() &&
                                         (q.moeLayerCount() == q.layers || q.ffnHidden == m.ffnHidden)
                                   : q.ffnHidden == m.ffnHidden;
        if (!shape || !mlp)
            continue;
        ModelSpec adopted = m;
        // A head size equal to hidden / heads is no head size of its own.
        adopted.headSize =
            q.headDim() == m.hidden / m.heads && m.hidden % m.heads == 0 ? m.headSize : q.headSize;
        adopted.attention = q.attention;
        adopted.mla = q.attention == AttentionKind::Mla ? q.mla : m.mla;
        adopted.norm = q.norm;
        adopted.biases = q.biases;
        adopted.learnedPositions = q.learnedPositions;
        adopted.dropout = q.dropout;
        adopted.moe.groups = q.moe.groups; // group-limited routing (DeepSeek-V3's node-limited routing)
        adopted.moe.groupLimit = q.moe.groupLimit;
        if (adopted == m)
            return {};
        m = adopted;
        return q.name;
    }
    return {};
}

// Nor does it record the communication-overlap switches. Megatron-style runs on Hopper or newer GPUs
// come from the Megatron-Core stack, which overlaps pipeline send/receive with the interleaved schedule by
// default (Megatron-LM's --overlap-p2p-communication is on unless --no-overlap-p2p-communication, for
// VPP > 1). NVIDIA's performance recipes (NeMo, Megatron-Bridge, the dgxc-benchmarking and MLPerf
// submissions built on them, the figures NVIDIA's Megatron-LM repository publishes) also overlap the
// gradient reduce-scatter with the distributed optimizer and DP > 1 (NeMo's MegatronCommOverlapCallback
// default) and the TP collectives with the GEMMs where sequence parallelism is on (Transformer Engine
// userbuffers, set by every NeMo performance recipe with TP > 1), and reduce gradients in 16 bits
// (grad_reduce_in_fp32 = False). Plain Megatron-LM keeps all three off (--tp-comm-overlap,
// --overlap-grad-reduce, fp32 main grads for bf16) unless the notes name them. A100 runs of 2021-2022
// Megatron had none of these; FSDP-style runs keep their own habits. Source and notes are lower-cased.
void inferMegatronCoreRecipe(Scenario& s, const std::string& source, const std::string& notes) {
    TrainingOptions& t = s.training;
    const Layout& l = s.layout;
    if (!megatronCoreRecipeApplies(s))
        return;
    t.overlapPpComm = l.pp > 1 && l.vpp > 1;
    bool recipe = false;
    for (const char* name : {"nemo", "megatron-bridge", "dgxc", "mlperf", "mlcommons", "nvidia/megatron-lm"})
        recipe = recipe || source.find(name) != std::string::npos;
    const auto stated = [&](std::initializer_list<const char*> terms) {
        bool on = recipe;
        for (const char* term : terms)
            if (notes.find(term) != std::string::npos)
                on = detail::notesState(notes, term);
        return on;
    };
    t.overlapDpComm =
        t.zeroStage >= 1 && l.dp * l.cp > 1 && stated({"overlap-grad-reduce", "overlap_grad_reduce"});
    t.overlapTpComm = l.tp > 1 && t.sequenceParallel && stated({"tp-comm-overlap", "tp_comm_overlap"});
    if (recipe || stated({"grad-reduce-in-bf16", "grad_reduce_in_bf16"}))
        t.gradPrecision = GradPrecision::Half;
}

// Nor how MoE tokens travel. Megatron-Core's all-to-all overlap (the combined 1F1B schedule) is switched on
// per model and system in NVIDIA's recipes (Megatron-Bridge's moe_a2a_overlap,
// --overlap-moe-expert-parallel-comm), and DeepSeek's DualPipe (DeepSeek-V3's schedule) overlaps the
// all-to-alls by construction: planned with the overlap when the notes state either, or the case is
// DeepSeek-V3's own report. A case whose source or notes name a deduplicating dispatcher (DeepEP, HybridEP,
// Megatron-Core's flex dispatcher, DualPipe's), or that is one of DeepSeek's technical reports, sends each
// token once per other node (MoeDispatcher::Deduplicated). Source and notes are lower-cased.
void inferMoeCommunication(TrainingOptions& t, const Layout& l, const std::string& source,
                           const std::string& notes) {
    if (l.ep <= 1)
        return;
    const bool deepSeekReport =
        source.find("deepseek") != std::string::npos && source.find("technical report") != std::string::npos;
    if (deepSeekReport && source.find("deepseek-v3") != std::string::npos)
        t.overlapEpComm = true;
    for (const char* term : {"moe_a2a_overlap", "overlap_moe_expert_parallel_comm",
                             "overlap-moe-expert-parallel-comm", "ep overlap", "a2a overlap", "dualpipe"})
        t.overlapEpComm = t.overlapEpComm || detail::notesState(notes, term);
    bool dedup = deepSeekReport;
    const std::string sourceAndNotes = source + " " + notes;
    for (const char* term : {"deepep", "hybridep", "flex dispatcher", "dualpipe"})
        dedup = dedup || detail::notesState(sourceAndNotes, term);
    if (dedup)
        t.moeDispatcher = MoeDispatcher::Deduplicated;
}

// The format's GPU id for what a case wrote: the id itself, any case and with spaces or underscores for
// hyphens ("H100_SXM_80GB"), or a GPU's short name where one part is the usual one ("H100", "h100-80gb":
// the SXM board; "A100" alone: the 80 GB part of most published runs since 2022). Unknown names come back
// lower-cased, for the reader to refuse with the list of known ids.
std::string formatGpuId(const std::string& written) {
    std::string id = asciiLower(written);
    std::replace(id.begin(), id.end(), ' ', '-');
    std::replace(id.begin(), id.end(), '_', '-');
    if (findGpuPreset(id))
        return id;
    static const std::map<std::string, std::string, std::less<>> kShort = {
        {"a100", "a100-sxm-80gb"},     {"a100-80gb", "a100-sxm-80gb"},   {"a100-40gb", "a100-sxm-40gb"},
        {"h100", "h100-sxm-80gb"},     {"h100-80gb", "h100-sxm-80gb"},   {"h100-96gb", "h100-sxm-96gb"},
        {"h100-sxm", "h100-sxm-80gb"}, {"h800", "h800-sxm-80gb"},        {"h800-80gb", "h800-sxm-80gb"},
        {"h200", "h200-sxm-141gb"},    {"h200-141gb", "h200-sxm-141gb"}, {"h200-sxm", "h200-sxm-141gb"},
        {"a100-sxm", "a100-sxm-80gb"}, {"gb200-nvl72", "gb200"},         {"gb300-nvl72", "gb300"}};
    if (const auto it = kShort.find(id); it != kShort.end())
        return it->second;
    return id;
}

// `adjustments` collects what the reader changed so that the case can be planned (shown with its rows).
ClusterSpec readCluster(Reader& r, const Json& j, const std::string& where,
                        std::vector<std::string>& adjustments) {
    ClusterSpec c;
    const std::string written = r.text(j, "gpu", where);
    const std::string gpuId = formatGpuId(written);
    if (gpuId != written && findGpuPreset(gpuId))
        adjustments.push_back("gpu " + detail::quoteJson(written) + " read as " + gpuId);
    const int gpus = r.integer(j, "gpus", where, 1, 10000000);
    // Not stated: the GPU type's usual node (four GPUs to a GB200/GB300 tray, eight to an HGX board), or
    // all of the run's GPUs when it has fewer.
    const bool tray = gpuId == "gb200" || gpuId == "gb300";
    const int perNode = Reader::given(j, "gpus_per_node") ? r.integer(j, "gpus_per_node", where, 1, 100000)
                                                          : std::min(gpus, tray ? 4 : 8);
    if (!Reader::given(j, "gpus_per_node"))
        adjustments.push_back("gpus_per_node not stated: planned with " + std::to_string(perNode));
    if (const GpuPreset* g = findGpuPreset(gpuId)) {
        c.gpu = g->gpu;
    } else if (!written.empty()) {
        std::vector<std::string> ids;
        for (const GpuPreset& p : gpuPresets())
            ids.push_back(p.gpu.id);
        r.error(where, "gpu",
                "unknown GPU " + detail::quoteJson(written) + detail::didYouMean(written, ids) +
                    "; known: " + detail::joinList(ids));
    }
    // A run on part of one node uses that many GPUs of it, joined by the node's NVLink switch.
    c.gpusPerNode = gpus < perNode ? gpus : perNode;
    c.nodes = std::max(1, gpus / std::max(1, c.gpusPerNode));
    // A run that fills some nodes and part of another (12 GPUs of 8-GPU nodes): nodes as large as the
    // largest count that divides both, so that every group that fits in such a node stays on NVLink.
    if (gpus > perNode && gpus % perNode != 0) {
        c.gpusPerNode = std::gcd(gpus, perNode);
        c.nodes = gpus / c.gpusPerNode;
        adjustments.push_back("gpus " + std::to_string(gpus) + " is not a multiple of gpus_per_node " +
                              std::to_string(perNode) + ": planned as " + std::to_string(c.nodes) +
                              " nodes of " + std::to_string(c.gpusPerNode) + " GPUs");
    }
    c.nvlinkDomain = c.gpusPerNode;
    if (tray)
        c.nvlinkDomain = std::min(gpus, 72);
    c.name = std::to_string(c.nodes) + " x " + std::to_string(c.gpusPerNode) + " " + c.gpu.name;
    return c;
}

std::expected<std::vector<ValidationCase>, InputErrors> readCases(std::string_view text,
                                                                  InputErrors* skipped) {
    InputErrors errors;
    const std::optional<Json> parsed = detail::parseObject(text, errors);
    if (!parsed)
        return std::unexpected(detail::capped(std::move(errors)));
    const Json& doc = *parsed;
    // A file of another kind (or with no cases) is not read any further.
    const auto schema = doc.find("schema");
    if (schema == doc.end() || !schema->is_string() || schema->get_ref<const std::string&>() != kSchema) {
        const std::string expected = std::string("\"") + kSchema + "\"";
        errors.push_back({"$.schema", schema == doc.end()
                                          ? "missing required key \"schema\" (expected " + expected + ")"
                                          : "wrong schema: expected " + expected + ", got " +
                                                detail::describe(*schema) +
                                                " (not a validation-cases file)"});
        return std::unexpected(detail::capped(std::move(errors)));
    }
    const auto cases = doc.find("cases");
    if (cases == doc.end() || !cases->is_array()) {
        errors.push_back(
            {"$.cases", cases == doc.end()
                            ? std::string("missing required key \"cases\" (an array of cases)")
                            : "wrong type: expected an array of cases, got " + detail::describe(*cases)});
        return std::unexpected(detail::capped(std::move(errors)));
    }
    std::vector<ValidationCase> out;
    Reader r{errors};
    std::size_t i = 0;
    for (const Json& jc : *cases) {
        const std::string where = "$.cases[" + std::to_string(i++) + "]";
        const std::size_t problemsBefore = errors.size();
        ValidationCase vc;
        vc.id = r.text(jc, "id", where);
        vc.source = Reader::optionalText(jc, "source");
        vc.confidence = Reader::optionalText(jc, "confidence");
        vc.notes = Reader::optionalText(jc, "notes");
        const Json* jm = r.field(jc, "model", where);
        const Json* jh = r.field(jc, "hardware", where);
        const Json* jl = r.field(jc, "layout", where);
        const Json* jmeas = r.field(jc, "measured", where);
        if (!jm || !jh || !jl || !jmeas)
            continue;
        Scenario s;
        s.name = vc.id;
        s.notes = vc.source;
        s.model = readModel(r, *jm, where + ".model", vc.adjustments);
        if (s.model.name.empty())
            s.model.name = vc.id;
        vc.architectureFrom = adoptPresetArchitecture(s.model);
        s.cluster = readCluster(r, *jh, where + ".hardware", vc.adjustments);
        applyStatedNetwork(s.cluster, vc,
                           Reader::given(*jh, "gpus_per_node") ? jh->at("gpus_per_node") : Json());
        const std::string lw = where + ".layout";
        // Nor does it name the framework; the source does. ZeRO 3 from a Megatron-family source (Megatron-LM,
        // Megatron-Bridge, Megatron-DeepSpeed) is Megatron-FSDP or DeepSpeed's ZeRO 3 under Megatron's fused
        // kernels and Transformer Engine, not a PyTorch FSDP trainer's eager habits, which "auto" assumes.
        // A PyTorch-native trainer keeps its eager habits at every ZeRO stage (DDP, FSDP's SHARD_GRAD_OP).
        const std::string source = asciiLower(vc.source);
        const std::string notes = asciiLower(vc.notes);
        const bool megatronSource = source.find("megatron") != std::string::npos;
        const bool torchTrainer = !megatronSource && detail::namesTorchTrainer(source);
        const bool hopperOrNewer = s.cluster.gpu.peakFlops8 > 0;
        // A layout number the case leaves open (null or absent) is filled as the run most likely had it, and
        // the case's rows say so: no TP or PP (1), the DP the GPUs leave, no CP, EP or interleaving.
        auto stated = [&](const char* key, int lo, int hi, int fallback, const char* why) {
            if (Reader::given(*jl, key))
                return r.integer(*jl, key, lw, lo, hi);
            if (why)
                vc.adjustments.push_back(std::string(key) + " not stated: planned with " +
                                         std::to_string(fallback) +
                                         (*why ? std::string(" (") + why + ")" : std::string()));
            return fallback;
        };
        Layout& l = s.layout;
        l.tp = stated("tp", 1, 100000, 1, "");
        l.pp = stated("pp", 1, 100000, 1, "");
        l.cp = stated("cp", 1, 100000, 1, nullptr);
        l.ep = stated("ep", 1, 100000, 1, nullptr);
        // Optional (not in the published format): the experts' tensor parallelism; absent = auto.
        l.etp = stated("etp", 1, 100000, 0, nullptr);
        l.vpp = stated("vpp", 1, 1000, 1, nullptr);
        // Interleaving not stated with a pipeline: the fastest that fits, searched when the case is planned
        // (a published pipelined run at a good MFU interleaved; one that did not is as fast without it).
        vc.vppGiven = Reader::given(*jl, "vpp") || l.pp == 1;
        if (!vc.vppGiven)
            if (const auto vpp = detail::notedVirtualStages(notes, s.model.layers, l.pp)) {
                l.vpp = vpp->first;
                vc.vppGiven = true;
                vc.adjustments.push_back("vpp: " + vpp->second + ", planned with " + std::to_string(l.vpp));
            }
        if (!vc.vppGiven)
            vc.adjustments.push_back("vpp not stated: the fastest interleaving that fits");
        const long long model = static_cast<long long>(l.tp) * l.pp * l.cp;
        const int leftDp =
            static_cast<int>(std::clamp<long long>(s.cluster.gpus() / std::max(1LL, model), 1, 10000000));
        l.dp = stated("dp", 1, 10000000, leftDp, "the GPUs over tp x pp x cp");
        // A DP degree that does not make up the GPU count with TP, PP and CP (a source that counts FSDP over
        // DP x CP as its DP, say): the degree the GPUs leave, when they divide evenly. Otherwise the layout
        // stays as written and the planner names the mismatch on the case's rows.
        if (l.gpus() != s.cluster.gpus() && model > 0 && s.cluster.gpus() % model == 0 &&
            s.cluster.gpus() / model <= 10000000) {
            const int dp = static_cast<int>(s.cluster.gpus() / model);
            vc.adjustments.push_back("tp x pp x cp x dp = " + std::to_string(l.gpus()) + ", not the " +
                                     std::to_string(s.cluster.gpus()) + " GPUs: planned with dp " +
                                     std::to_string(dp) + " instead of " + std::to_string(l.dp));
            l.dp = dp;
        }
        vc.microBatchGiven = Reader::given(*jl, "micro_batch");
        if (!vc.microBatchGiven)
            vc.adjustments.push_back("micro_batch not stated: the fastest that fits");
        l.microBatch = vc.microBatchGiven ? r.integer(*jl, "micro_batch", lw, 1, 100000) : 1;
        if (Reader::given(*jl, "global_batch")) {
            vc.globalBatch = r.integer(*jl, "global_batch", lw, 1, 100000000);
        } else {
            // Not stated: one micro batch per replica without a pipeline; with one, four per stage (a bubble
            // of under a fifth, what published pipelined runs keep to).
            const long long perStep =
                static_cast<long long>(l.microBatch) * l.dp * (l.pp > 1 ? 4LL * l.pp : 1LL);
            vc.globalBatch = std::clamp<long long>(perStep, 1, 100000000);
            vc.adjustments.push_back(
                "global_batch not stated: planned with " + std::to_string(vc.globalBatch) +
                (l.pp > 1 ? " (4 x pp micro batches per replica)" : " (one micro batch per replica)"));
        }
        TrainingOptions& t = s.training;
        // Sequence parallelism not stated: on with TP on Hopper or newer (every Megatron-Core recipe) and
        // in PyTorch trainers (torchtitan's TP plan shards the norms' sequence), off before.
        const bool spDefault = l.tp > 1 && (hopperOrNewer || torchTrainer);
        if (!Reader::given(*jl, "sequence_parallel") && l.tp > 1)
            vc.adjustments.push_back(std::string("sequence_parallel not stated: ") +
                                     (spDefault ? "on" : "off"));
        t.sequenceParallel = r.boolean(*jl, "sequence_parallel", lw, spDefault);
        vc.recomputeGiven = Reader::given(*jl, "recompute");
        if (vc.recomputeGiven)
            t.recompute = r.choice(*jl, "recompute", lw, &parseRecompute,
                                   {Recompute::None, Recompute::Selective, Recompute::Full}, t.recompute);
        // No recompute that the notes call an assumption ("recomputation not stated (none assumed)") is left
        // open like a missing one: the run ran, so it recomputed what it needed to fit. (A recompute the
        // notes infer from the source, "not stated per row: full (Eq. 3 FLOPs assume it)", stays.)
        if (vc.recomputeGiven && t.recompute == Recompute::None &&
            detail::notesLeaveOpen(notes, "recomput")) {
            vc.recomputeGiven = false;
            vc.adjustments.push_back(
                "recompute none assumed, the notes say it is not stated: the fastest that fits");
        } else if (!vc.recomputeGiven) {
            vc.adjustments.push_back("recompute not stated: the fastest that fits");
        }
        // ZeRO not stated: a PyTorch FSDP trainer shards fully (3); Megatron-style runs with data parallelism
        // use the distributed optimizer (1), the default of every NeMo and Megatron-Bridge recipe.
        const int zeroDefault = torchTrainer ? 3 : (static_cast<long long>(l.dp) * l.cp > 1 ? 1 : 0);
        t.zeroStage = stated("zero_stage", 0, 3, zeroDefault, torchTrainer ? "a PyTorch FSDP trainer" : "");
        // Optional (block recompute): full recompute of only the first N layers of each model chunk; else
        // Megatron's block method as the notes give it (--recompute-method block --recompute-num-layers N).
        t.recomputeLayers = r.optionalInteger(*jl, "recompute_layers", lw, 0, 1000000, 0);
        if (!Reader::given(*jl, "recompute_layers") && t.recompute == Recompute::Full)
            if (const auto n = detail::notedBlockRecomputeLayers(notes); n && *n > 0 && *n < s.model.layers) {
                t.recomputeLayers = static_cast<int>(*n);
                vc.adjustments.push_back("recompute_layers: the notes state the block method over " +
                                         std::to_string(*n) + " layers per chunk");
            }
        // Optional (selective recompute by module, Megatron-Core --recompute-modules, as the recipe sets it).
        if (const auto it = jl->find("recompute_modules"); it != jl->end()) {
            std::string element, reason;
            if (const auto bits = detail::recomputeModulesFromJson(*it, element, reason))
                t.recomputeModules = *bits;
            else
                r.errors.push_back({detail::childPath(lw, "recompute_modules") + element, std::move(reason)});
        } else if (const auto modules = detail::statedRecomputeModules(notes);
                   modules && (!vc.recomputeGiven || t.recompute == Recompute::Selective)) {
            // Else the modules the notes name (the recipe's recompute_modules), which mean selective
            // recompute.
            if (!vc.recomputeGiven)
                std::erase_if(vc.adjustments,
                              [](const std::string& a) { return a.starts_with("recompute "); });
            vc.recomputeGiven = true;
            t.recompute = Recompute::Selective;
            t.recomputeModules = *modules;
            vc.adjustments.push_back("recompute_modules: the notes state " +
                                     recomputeModulesText(*modules, ", ") + " (selective)");
        }
        // Optional (hybrid sharding, HSDP): the DP ranks one copy of the sharded state spans; else what the
        // notes state (section 12 of docs/estimation.md).
        t.zeroShardDegree = r.optionalInteger(*jl, "zero_shard_degree", lw, 1, 10000000, t.zeroShardDegree);
        if (!Reader::given(*jl, "zero_shard_degree"))
            if (const auto degree = detail::notedShardDegree(s, notes); degree.first > 0) {
                t.zeroShardDegree = degree.first;
                vc.adjustments.push_back("zero_shard_degree: " + degree.second + ", planned sharded over " +
                                         std::to_string(degree.first) + " of the " + std::to_string(l.dp) +
                                         " DP ranks");
            }
        // Optional (CPU offloading, as the run's recipe sets it): the layers per stage whose activations go
        // to host memory (Megatron --cpu-offloading-num-layers), else the count the notes give, and the
        // optimizer on the CPU.
        t.activationOffloadLayers =
            r.optionalInteger(*jl, "activation_offload_layers", lw, 0, std::max(0, s.model.layers), 0);
        if (!Reader::given(*jl, "activation_offload_layers"))
            if (const auto n =
                    detail::statedNumber(notes, {"activation_offload_layers", "cpu_offloading_num_layers",
                                                 "cpu-offloading-num-layers"});
                n && *n > 0 && *n <= s.model.layers) {
                t.activationOffloadLayers = static_cast<int>(*n);
                vc.adjustments.push_back("activation_offload_layers: the notes state " + std::to_string(*n) +
                                         " (cpu_offloading_num_layers)");
            }
        t.optimizerOffload = Reader::given(*jl, "optimizer_offload")
                                 ? r.boolean(*jl, "optimizer_offload", lw, false)
                                 : detail::statesOptimizerOffload(notes);
        if (t.optimizerOffload && !Reader::given(*jl, "optimizer_offload"))
            vc.adjustments.push_back("optimizer_offload: the notes state the optimizer ran on the CPU");
        if (Reader::given(*jl, "precision")) {
            t.precision = r.choice(*jl, "precision", lw, &parsePrecision,
                                   {Precision::Bf16, Precision::Fp16, Precision::Fp8}, t.precision);
        } else {
            t.precision = Precision::Bf16;
            vc.adjustments.push_back("precision not stated: planned in bf16");
        }
        if (torchTrainer)
            t.executionStyle = ExecutionStyle::Fsdp;
        else if (t.zeroStage >= 3 && megatronSource)
            t.executionStyle = ExecutionStyle::Megatron;
        // The format does not record the attention kernel. Runs on Hopper or newer GPUs, models of the
        // SwiGLU/RoPE family and FSDP runs (ZeRO 3, or any run of a PyTorch-native trainer, which reach flash
        // kernels through torch's scaled_dot_product_attention or the flash-attn package) use flash
        // attention; GELU GPT models on A100 under Megatron used its fused (unflashed) softmax, as the
        // 2021-2022 papers describe.
        t.flashAttention = s.model.mlp == MlpKind::SwiGlu || s.cluster.gpu.peakFlops8 > 0 ||
                           t.zeroStage >= 3 || torchTrainer;
        t.torchCompile = detail::statesTorchCompile(notes, vc.id);
        t.fusedKernels = torchTrainer && detail::statesFusedKernels(notes);
        // Nor whether fp8 training gathers its weights in fp8, but the notes name the switch: torchao's
        // float8 all-gather in FSDP2 ("float8 with fp8 FSDP all-gather"), Megatron's --fp8-param-gather or
        // NeMo's fp8_params.
        if (t.precision == Precision::Fp8)
            for (const char* term :
                 {"fp8 all-gather", "float8 all-gather", "fp8 fsdp all-gather", "fp8_param_gather",
                  "fp8-param-gather", "fp8_params", "enable_fsdp_float8_all_gather"})
                t.fp8ParamGather = t.fp8ParamGather || detail::notesState(notes, term);
        // Nor how the source counts model FLOPs. Megatron-Bridge's and NeMo AutoModel's published model
        // TFLOP/s count the causal half of the attention scores (Megatron-Bridge's flop_utils: "core_seq /
        // 2"; AutoModel's flops formulas: causal_self_attn = True): their DeepSeek-V3 rows give 250 GFLOP per
        // token where the full count is 280, their Qwen3-30B-A3B rows 23.0 for 27.9.
        if (source.find("megatron-bridge") != std::string::npos ||
            source.find("automodel") != std::string::npos)
            t.attentionFlops = AttentionFlops::Causal;
        // A compiled model compiles the FSDP style's loss with it (the planner's torchtitan), but torchtitan
        // only does so since April 2025 (PR #1033); before, its train.py left the loss eager ("compiling loss
        // function causes CUDA errors, turning off for now"). A torchtitan run dated earlier keeps that loss.
        if (t.torchCompile && source.find("torchtitan") != std::string::npos) {
            const int month = detail::latestStatedMonth(source + " " + notes);
            if (month > 0 && month < 202504)
                t.crossEntropy = CrossEntropy::Unfused;
        }
        // MosaicML's llm-foundry trains MPT with flash-attn's fused cross-entropy (ComposerMPTCausalLM's
        // loss_fn defaults to "fused_crossentropy"), and Composer computes the model's train metrics,
        // LanguageCrossEntropy and LanguagePerplexity, from every micro batch's logits after its backward
        // (use_train_metrics). MPT trains without dropout: MPTConfig's resid_pdrop, emb_pdrop and attn_pdrop
        // default to 0.
        if (source.find("llm-foundry") != std::string::npos ||
            source.find("llmfoundry") != std::string::npos) {
            t.crossEntropy = CrossEntropy::Fused16;
            t.logitsMetricPasses = 2;
            s.model.dropout = false;
        }
        // Nor the optimizer's precision. NeMo AutoModel builds the models it implements itself (its MoE
        // families) in the config's torch_dtype, bf16, and trains them with torch.optim.Adam under FSDP2:
        // bf16 parameters and moments, no fp32 master copy. Notes that state 16-bit moments (DeepSeek-V3's
        // "BF16
        // ... to track the first and second moments", Megatron's --exp-avg-dtype bf16) keep the fp32 master.
        if (source.find("automodel") != std::string::npos && s.model.isMoe())
            t.optimizerPrecision = OptimizerPrecision::Bf16;
        else
            for (const char* term :
                 {"bf16 moments", "moments in bf16", "exp-avg-dtype bf16", "exp_avg_dtype bf16"})
                if (detail::notesState(notes, term))
                    t.optimizerPrecision = OptimizerPrecision::Bf16Moments;
        // Nor a JAX/MaxText run's remat policy, which replaces selective recompute: the optional layout key
        // remat_policy, else the one that a MaxText run's notes state (its config's remat_policy).
        if (Reader::given(*jl, "remat_policy"))
            t.rematPolicy =
                r.choice(*jl, "remat_policy", lw, &parseRematPolicy,
                         {RematPolicy::Auto, RematPolicy::MinimalWithContext, RematPolicy::Minimal,
                          RematPolicy::SaveDotWithContextExceptMlp, RematPolicy::SaveDotExceptMlpwi,
                          RematPolicy::SaveDotExceptMlp, RematPolicy::SaveQkvProj, RematPolicy::SaveOutProj},
                         t.rematPolicy);
        else if (source.find("maxtext") != std::string::npos)
            t.rematPolicy = detail::statedRematPolicy(notes).value_or(RematPolicy::Auto);
        inferMegatronCoreRecipe(s, source, notes);
        // AsyncTP is torchtitan's TP overlap (collective matmuls), which needs TP > 1.
        if (l.tp > 1)
            for (const char* term : {"asynctp", "async tp", "async-tp", "async_tp", "async tensor parallel",
                                     "enable_async_tensor_parallel"})
                t.overlapTpComm = t.overlapTpComm || detail::notesState(notes, term);
        inferMoeCommunication(t, l, source, notes);
        // A global batch that the replicas cannot split evenly (a source's rounding): the nearest whole
        // number of micro batches per replica, at least one.
        const long long perStep = vc.microBatchGiven ? static_cast<long long>(l.microBatch) * l.dp : l.dp;
        const long long steps = perReplicaUnits(vc.globalBatch, perStep);
        if (vc.globalBatch % perStep != 0)
            vc.adjustments.push_back(
                "global_batch " + std::to_string(vc.globalBatch) + " is not a multiple of " +
                (vc.microBatchGiven ? "micro_batch x dp (" : "dp (") + std::to_string(perStep) +
                "): planned with " + std::to_string(steps * perStep) + " sequences per step");
        l.accumulation = static_cast<int>(steps);
        for (const char* metric : kMetrics) {
            if (jmeas->contains(metric) && jmeas->at(metric).is_number()) {
                const double v = jmeas->at(metric).get<double>();
                if (std::isfinite(v) && v > 0)
                    vc.measured.push_back({metric, v});
            }
        }
        if (errors.size() > problemsBefore)
            continue; // a case with a problem is not planned (its problems name it)
        vc.scenario = std::move(s);
        out.push_back(std::move(vc));
    }
    if (!errors.empty()) {
        // Strict (no `skipped`): any problem refuses the file. Otherwise the readable cases go on, and
        // the others' problems are handed back; a file with no readable case is refused.
        if (!skipped || out.empty())
            return std::unexpected(detail::capped(std::move(errors)));
        *skipped = detail::capped(std::move(errors));
    }
    return out;
}

} // namespace

std::expected<std::vector<ValidationCase>, InputErrors> validationCasesFromJson(std::string_view text,
                                                                                InputErrors* skipped) {
    if (skipped)
        skipped->clear();
    return detail::guarded<std::vector<ValidationCase>>([&] { return readCases(text, skipped); });
}

std::expected<std::vector<ValidationCase>, InputErrors> loadValidationCases(const std::string& path,
                                                                            InputErrors* skipped) {
    if (skipped)
        skipped->clear();
    auto text = readTextFile(path);
    if (!text)
        return std::unexpected(InputErrors{{path, text.error()}});
    return validationCasesFromJson(*text, skipped);
}

} // namespace lp::core
