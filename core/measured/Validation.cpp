// Reads layout-planner/validation-cases@2 and @1 files (core/measured/ValidationRun.cpp plans and compares
// them). What a case states is read, never its words: source, notes and id are shown only.
// A case's model is read by the model codec of the scenario files (core/io/ModelJson.h), everything through
// the one JSON reader (core/io/JsonReader.h), within core/model/Limits.h; what the case format requires,
// and what the reader fills in where a case is silent, is here.
#include "core/measured/Validation.h"

#include "core/io/Files.h"
#include "core/io/JsonReader.h"
#include "core/io/ModelJson.h"
#include "core/io/Presets.h"
#include "core/io/SettingsJson.h"
#include "core/measured/detail/CasePlanning.h"
#include "core/model/Limits.h"
#include "core/util/NumberFormat.h"
#include "core/util/Text.h"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <map>
#include <numeric>
#include <optional>
#include <string_view>

namespace lp::core {

namespace {

using detail::megatronCoreRecipeApplies;
using detail::perReplicaUnits;
using json::Json;
using json::ObjectReader;
using limits::kMaxCount;

constexpr const char* kSchema1 = "layout-planner/validation-cases@1";
constexpr const char* kSchema2 = "layout-planner/validation-cases@2";

// The training keys a case's layout may state (@1's); @2 may state them in its training object instead.
constexpr std::string_view kLayoutTrainingKeys[] = {"sequence_parallel",
                                                    "recompute",
                                                    "zero_stage",
                                                    "recompute_layers",
                                                    "recompute_modules",
                                                    "zero_shard_degree",
                                                    "activation_offload_layers",
                                                    "optimizer_offload",
                                                    "precision",
                                                    "remat_policy"};

// Where a case states a training setting: its training object (@2) when that holds the key, else its layout.
class CaseSettings {
public:
    CaseSettings(ObjectReader& layout, ObjectReader* training) : m_layout(layout), m_training(training) {}
    ObjectReader& of(std::string_view key) {
        return m_training && m_training->has(key) ? *m_training : m_layout;
    }
    bool has(std::string_view key) { return of(key).has(key); }

private:
    ObjectReader& m_layout;
    ObjectReader* m_training;
};

// A measured figure the format names and the values a real run can report: a microsecond to a day per
// step, a GFLOP/s to an EFLOP/s per GPU, utilisations above zero and at most 1.5 (a measurement's
// noise above the nominal peak), a token an hour to a billion per second, a MiB to a PiB of memory.
struct MeasuredRange {
    const char* key;
    double lo;
    double hi;
};
constexpr MeasuredRange kMetrics[] = {{"iteration_time_s", 1e-6, 86400.0},
                                      {"model_tflops_per_gpu", 1e-3, 1e6},
                                      {"hardware_tflops_per_gpu", 1e-3, 1e6},
                                      {"mfu", 1e-6, 1.5},
                                      {"hfu", 1e-6, 1.5},
                                      {"tokens_per_s_per_gpu", 1.0 / 3600.0, 1e9},
                                      {"peak_memory_gib", 1.0 / 1024.0, 1048576.0}};

// A case's object: null stands for "not stated", and keys of its own pass.
ObjectReader caseReader(const Json& j, std::string path, InputErrors& errors) {
    return ObjectReader(j, std::move(path), errors, {}, json::Strictness::Lenient);
}

// Free text (source, confidence, notes): empty when absent, null or no string.
std::string optionalText(const Json& obj, const char* key) {
    if (!obj.is_object() || !obj.contains(key) || !obj.at(key).is_string())
        return {};
    return obj.at(key).get<std::string>();
}

// ------------------------------------------------------------------------------------------------
// The model

// Without `moe_layers`, the Hugging Face way of saying which layers are MoE: the first k dense
// (`first_dense_layers`, DeepSeek's `first_k_dense_replace`), then every n-th (`moe_layer_freq` n, or a
// fraction 1/n; Llama 4's `interleave_moe_layer_step`): layer i is MoE when i >= k and i % n == 0.
void readMoeLayerPattern(ObjectReader& moe, ModelSpec& m, std::vector<std::string>& adjustments) {
    const char* denseKey = moe.has("first_k_dense_replace") ? "first_k_dense_replace" : "first_dense_layers";
    int dense = 0;
    moe.readInt(denseKey, dense, 0, limits::kMaxLayers);
    int step = 1;
    const char* stepKey =
        moe.has("interleave_moe_layer_step") ? "interleave_moe_layer_step" : "moe_layer_freq";
    if (const Json* v = moe.find(stepKey)) {
        const double f = v->is_number() ? v->get<double>() : 0.0;
        if (!(std::isfinite(f) && f > 0.0 && f <= static_cast<double>(limits::kMaxLayers))) {
            moe.error(stepKey,
                      "out of range: must be a layer step (2: every second layer) or a fraction (0.5), got " +
                          json::describe(*v));
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
        moe.error(denseKey, "out of range: no layer would be a mixture-of-experts layer");
        return;
    }
    m.moe.moeLayers = count == m.layers ? 0 : count;
    adjustments.push_back(
        "moe_layers not stated: " + std::to_string(count) + " of " + std::to_string(m.layers) +
        " layers from " + (dense > 0 ? std::string(denseKey) : std::string()) +
        (dense > 0 && step > 1 ? " and " : "") + (step > 1 ? std::string(stepKey) : std::string()));
}

// The case format records the architecture's main numbers; the rest follows the family it names: GELU
// models are GPT-style (LayerNorm, biases, learned positions, dropout), SwiGLU models are Llama-style
// (RMSNorm, no biases, RoPE, no dropout). A number the case leaves open (null or absent) where a family's
// rule supplies it is filled and said in `adjustments`: the MLP kind (SwiGLU, what published models since
// 2023 use), its width (GPT's 4h, or Llama's 8h/3 rounded up to a multiple of 256), the K/V heads (as many
// as the query heads).
void fillModelFamily(ObjectReader& r, ModelSpec& m, std::vector<std::string>& adjustments) {
    if (!r.has("kv_heads"))
        m.kvHeads = m.heads; // multi-head attention
    if (!r.has("mlp")) {
        m.mlp = MlpKind::SwiGlu;
        adjustments.push_back("mlp not stated: planned as swiglu");
    }
    const bool gpt = m.mlp == MlpKind::Gelu;
    if (!r.has("ffn_hidden") && m.hidden > 0) {
        const long long width = gpt ? 4LL * m.hidden : (8LL * m.hidden / 3 + 255) / 256 * 256;
        m.ffnHidden = static_cast<int>(std::min<long long>(width, limits::kMaxWidth));
        adjustments.push_back(
            "ffn_hidden not stated: planned with " + std::to_string(m.ffnHidden) +
            (gpt ? " (4 x hidden)" : " (8/3 x hidden rounded up to a multiple of 256, Llama's rule)"));
    }
    if (!r.has("norm"))
        m.norm = gpt ? NormKind::LayerNorm : NormKind::RmsNorm;
    if (!r.has("biases"))
        m.biases = gpt;
    if (!r.has("learned_positions"))
        m.learnedPositions = gpt;
    if (!r.has("dropout"))
        m.dropout = gpt;
}

// A case's "moe" names its experts and top-k; each expert is as wide as the dense MLP unless stated
// (Mixtral), with no shared expert, every layer MoE unless a layer pattern says otherwise.
void fillMoe(ObjectReader& moe, ModelSpec& m, std::vector<std::string>& adjustments) {
    if (moe.require("experts") && !moe.bad("experts") && m.moe.experts < 1)
        moe.error("experts",
                  "out of range: a moe object needs at least 1 expert, got " + std::to_string(m.moe.experts));
    moe.require("top_k");
    if (!moe.has("expert_ffn_hidden"))
        m.moe.expertFfnHidden = m.ffnHidden;
    if (!moe.has("moe_layers"))
        readMoeLayerPattern(moe, m, adjustments);
}

ModelSpec readCaseModel(const Json& j, const std::string& path, InputErrors& errors,
                        std::vector<std::string>& adjustments) {
    ObjectReader r = caseReader(j, path, errors);
    for (const char* key : {"layers", "hidden", "heads", "vocab", "seq_len"})
        r.require(key);
    ModelSpec m;
    m.name.clear(); // cosmetic: the case's id stands in when it is missing
    ModelFill fill;
    fill.model = [&adjustments](ObjectReader& model, ModelSpec& spec) {
        fillModelFamily(model, spec, adjustments);
    };
    fill.moe = [&adjustments](ObjectReader& moe, ModelSpec& spec) { fillMoe(moe, spec, adjustments); };
    readModelKeys(r, m, fill);
    return m;
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

// The format's GPU id for what a case wrote: the id, a display name or a short name as core resolves them
// (resolveGpuPreset: "H100_SXM_80GB", "h100-80gb", "A100"). Unknown names come back lower-cased, for the
// reader to refuse with the list of known ids.
std::string formatGpuId(const std::string& written) {
    if (const auto preset = resolveGpuPreset(written))
        return (*preset)->gpu.id;
    std::string id = asciiLower(written);
    std::replace(id.begin(), id.end(), ' ', '-');
    std::replace(id.begin(), id.end(), '_', '-');
    return id;
}

// ------------------------------------------------------------------------------------------------
// The hardware

// `adjustments` collects what the reader changed so that the case can be planned (shown with its rows).
ClusterSpec readCaseCluster(const Json& j, const std::string& path, InputErrors& errors, ValidationCase& vc) {
    ObjectReader r = caseReader(j, path, errors);
    ClusterSpec c;
    std::string written;
    if (r.require("gpu"))
        r.readString("gpu", written);
    const std::string gpuId = formatGpuId(written);
    if (gpuId != written && findGpuPreset(gpuId))
        vc.adjustments.push_back("gpu " + json::quoteJson(written) + " read as " + gpuId);
    int gpus = 1;
    if (r.require("gpus"))
        r.readInt("gpus", gpus, 1, kMaxCount);
    // Not stated: the GPU type's usual node (four GPUs to a GB200/GB300 tray, eight to an HGX board), or
    // all of the run's GPUs when it has fewer.
    const bool tray = gpuId == "gb200" || gpuId == "gb300";
    int perNode = std::min(gpus, tray ? 4 : 8);
    int statedPerNode = 0;
    if (r.has("gpus_per_node") && r.readInt("gpus_per_node", statedPerNode, 1, kMaxCount))
        perNode = statedPerNode;
    else if (!r.has("gpus_per_node"))
        vc.adjustments.push_back("gpus_per_node not stated: planned with " + std::to_string(perNode));
    if (const GpuPreset* g = findGpuPreset(gpuId)) {
        c.gpu = g->gpu;
    } else if (!written.empty()) {
        std::vector<std::string> ids;
        for (const GpuPreset& p : gpuPresets())
            ids.push_back(p.gpu.id);
        r.error("gpu", "unknown GPU " + json::quoteJson(written) + json::didYouMean(written, ids) +
                           "; known: " + json::joinList(ids));
    }
    // A run on part of one node uses that many GPUs of it, joined by the node's NVLink switch.
    c.gpusPerNode = gpus < perNode ? gpus : perNode;
    c.nodes = std::max(1, gpus / std::max(1, c.gpusPerNode));
    // A run that fills some nodes and part of another (12 GPUs of 8-GPU nodes): nodes as large as the
    // largest count that divides both, so that every group that fits in such a node stays on NVLink.
    if (gpus > perNode && gpus % perNode != 0) {
        c.gpusPerNode = std::gcd(gpus, perNode);
        c.nodes = gpus / c.gpusPerNode;
        vc.adjustments.push_back("gpus " + std::to_string(gpus) + " is not a multiple of gpus_per_node " +
                                 std::to_string(perNode) + ": planned as " + std::to_string(c.nodes) +
                                 " nodes of " + std::to_string(c.gpusPerNode) + " GPUs");
    }
    c.nvlinkDomain = c.gpusPerNode;
    if (tray)
        c.nvlinkDomain = std::min(gpus, 72);
    c.name = std::to_string(c.nodes) + " x " + std::to_string(c.gpusPerNode) + " " + c.gpu.name;
    return c;
}

// ------------------------------------------------------------------------------------------------
// The layout and the training options it states

// A layout number as the case states it, or `fallback` where it leaves it open (null or absent); said in
// the case's adjustments when `why` is given (empty: no reason to add).
int stated(ObjectReader& r, const char* key, long long lo, long long hi, int fallback, const char* why,
           std::vector<std::string>& adjustments) {
    if (r.has(key)) {
        int value = fallback;
        r.readInt(key, value, lo, hi);
        return value;
    }
    if (why)
        adjustments.push_back(std::string(key) + " not stated: planned with " + std::to_string(fallback) +
                              (*why ? std::string(" (") + why + ")" : std::string()));
    return fallback;
}

// The parallel degrees. A layout number the case leaves open is filled as the run most likely had it, and
// the case's rows say so: no TP or PP (1), the DP the GPUs leave, no CP, EP or interleaving.
void readCaseDegrees(ObjectReader& r, ValidationCase& vc, Scenario& s) {
    Layout& l = s.layout;
    std::vector<std::string>& adjustments = vc.adjustments;
    l.tp = stated(r, "tp", 1, kMaxCount, 1, "", adjustments);
    l.pp = stated(r, "pp", 1, kMaxCount, 1, "", adjustments);
    l.cp = stated(r, "cp", 1, kMaxCount, 1, nullptr, adjustments);
    l.ep = stated(r, "ep", 1, kMaxCount, 1, nullptr, adjustments);
    // Optional (not in the published format): the experts' tensor parallelism; absent = auto.
    l.etp = stated(r, "etp", 1, kMaxCount, 0, nullptr, adjustments);
    l.vpp = stated(r, "vpp", 1, kMaxCount, 1, nullptr, adjustments);
    // Interleaving not stated with a pipeline: the fastest that fits, searched when the case is planned
    // (a published pipelined run at a good MFU interleaved; one that did not is as fast without it).
    vc.vppGiven = r.has("vpp") || l.pp == 1;
    if (!vc.vppGiven)
        adjustments.push_back("vpp not stated: the fastest interleaving that fits");
    const long long model = static_cast<long long>(l.tp) * l.pp * l.cp;
    const long long gpus = s.cluster.gpus();
    const int leftDp = static_cast<int>(std::clamp<long long>(gpus / std::max(1LL, model), 1, kMaxCount));
    l.dp = stated(r, "dp", 1, kMaxCount, leftDp, "the GPUs over tp x pp x cp", adjustments);
    // A DP degree that does not make up the GPU count with TP, PP and CP (a source that counts FSDP over
    // DP x CP as its DP, say): the degree the GPUs leave, when they divide evenly. Otherwise the layout
    // stays as written and the planner names the mismatch on the case's rows.
    if (l.gpus() != gpus && model > 0 && gpus % model == 0 && gpus / model <= kMaxCount) {
        const int dp = static_cast<int>(gpus / model);
        adjustments.push_back("tp x pp x cp x dp = " + std::to_string(l.gpus()) + ", not the " +
                              std::to_string(gpus) + " GPUs: planned with dp " + std::to_string(dp) +
                              " instead of " + std::to_string(l.dp));
        l.dp = dp;
    }
}

// The micro batch (the fastest that fits when not stated) and the global batch.
void readCaseBatch(ObjectReader& r, ValidationCase& vc, Layout& l) {
    vc.microBatchGiven = r.has("micro_batch");
    if (!vc.microBatchGiven)
        vc.adjustments.push_back("micro_batch not stated: the fastest that fits");
    l.microBatch = 1;
    if (vc.microBatchGiven)
        r.readInt("micro_batch", l.microBatch, 1, kMaxCount);
    if (r.has("global_batch")) {
        int globalBatch = 1;
        r.readInt("global_batch", globalBatch, 1, limits::kMaxGlobalBatch);
        vc.globalBatch = globalBatch;
        return;
    }
    // Not stated: one micro batch per replica without a pipeline; with one, four per stage (a bubble of
    // under a fifth, what published pipelined runs keep to).
    const long long perStep = static_cast<long long>(l.microBatch) * l.dp * (l.pp > 1 ? 4LL * l.pp : 1LL);
    vc.globalBatch = std::clamp<long long>(perStep, 1, limits::kMaxGlobalBatch);
    vc.adjustments.push_back(
        "global_batch not stated: planned with " + std::to_string(vc.globalBatch) +
        (l.pp > 1 ? " (4 x pp micro batches per replica)" : " (one micro batch per replica)"));
}

// Sequence parallelism not stated: on with TP on Hopper or newer (every Megatron-Core recipe), off before.
void readSequenceParallel(CaseSettings& r, ValidationCase& vc, Scenario& s) {
    const int tp = s.layout.tp;
    const bool spDefault = tp > 1 && s.cluster.gpu.peakFlops8 > 0;
    if (!r.has("sequence_parallel") && tp > 1)
        vc.adjustments.push_back(std::string("sequence_parallel not stated: ") + (spDefault ? "on" : "off"));
    s.training.sequenceParallel = spDefault;
    r.of("sequence_parallel").readBool("sequence_parallel", s.training.sequenceParallel);
}

// Recomputation: as stated, else the fastest that fits (searched when the case is planned); optionally full
// recompute of only the first N layers of each model chunk (Megatron's block method) and selective
// recompute by module (Megatron-Core --recompute-modules, as the recipe sets it).
void readRecompute(CaseSettings& r, ValidationCase& vc, TrainingOptions& t) {
    vc.recomputeGiven = r.has("recompute");
    r.of("recompute")
        .readEnum("recompute", t.recompute, &parseRecompute,
                  {Recompute::None, Recompute::Selective, Recompute::Full});
    if (!vc.recomputeGiven)
        vc.adjustments.push_back("recompute not stated: the fastest that fits");
    t.recomputeLayers = 0;
    r.of("recompute_layers").readInt("recompute_layers", t.recomputeLayers, 0, kMaxCount);
    if (r.has("recompute_modules"))
        r.of("recompute_modules").readRecomputeModules("recompute_modules", t.recomputeModules);
}

// ZeRO not stated: with data parallelism the distributed optimizer (1), the default of every NeMo and
// Megatron-Bridge recipe; else none. Optional: hybrid sharding (HSDP), the DP ranks one copy of the sharded
// state spans.
void readSharding(CaseSettings& r, ValidationCase& vc, Scenario& s) {
    const Layout& l = s.layout;
    const int zeroDefault = static_cast<long long>(l.dp) * l.cp > 1 ? 1 : 0;
    s.training.zeroStage = stated(r.of("zero_stage"), "zero_stage", 0, 3, zeroDefault, "", vc.adjustments);
    r.of("zero_shard_degree").readInt("zero_shard_degree", s.training.zeroShardDegree, 1, kMaxCount);
}

// Optional (CPU offloading, as the run's recipe sets it): the layers per stage whose activations go to host
// memory (Megatron --cpu-offloading-num-layers), and the optimizer on the CPU.
void readOffload(CaseSettings& r, Scenario& s) {
    TrainingOptions& t = s.training;
    t.activationOffloadLayers = 0;
    r.of("activation_offload_layers")
        .readInt("activation_offload_layers", t.activationOffloadLayers, 0, std::max(0, s.model.layers));
    r.of("optimizer_offload").readBool("optimizer_offload", t.optimizerOffload);
}

// Precision (bf16 when not stated), and a JAX/MaxText run's remat policy, which replaces selective recompute.
void readPrecisionAndRemat(CaseSettings& r, ValidationCase& vc, TrainingOptions& t) {
    if (r.has("precision")) {
        r.of("precision")
            .readEnum("precision", t.precision, &parsePrecision,
                      {Precision::Bf16, Precision::Fp16, Precision::Fp8});
    } else {
        t.precision = Precision::Bf16;
        vc.adjustments.push_back("precision not stated: planned in bf16");
    }
    r.of("remat_policy")
        .readEnum("remat_policy", t.rematPolicy, &parseRematPolicy,
                  {RematPolicy::Auto, RematPolicy::MinimalWithContext, RematPolicy::Minimal,
                   RematPolicy::SaveDotWithContextExceptMlp, RematPolicy::SaveDotExceptMlpwi,
                   RematPolicy::SaveDotExceptMlp, RematPolicy::SaveQkvProj, RematPolicy::SaveOutProj});
}

// The training settings @1 keeps in the layout (and @2 may state in its training object), in the order
// their adjustments are listed.
void readCaseTraining(CaseSettings& r, ValidationCase& vc, Scenario& s) {
    readSequenceParallel(r, vc, s);
    readRecompute(r, vc, s.training);
    readSharding(r, vc, s);
    readOffload(r, s);
    readPrecisionAndRemat(r, vc, s.training);
}

// The training object's other keys, with the scenario file's names, values and limits.
void readStatedTraining(ObjectReader& training, TrainingOptions& t) {
    training.allow(scenarioTrainingKeys());
    for (const char* key : scenarioTrainingKeys())
        if (std::ranges::find(kLayoutTrainingKeys, std::string_view(key)) == std::end(kLayoutTrainingKeys))
            readTrainingKey(training, key, t);
    training.reportUnknownKeys();
}

// What a case leaves unstated and the planner's documented defaults for it depend on the run's other
// settings (docs/estimation.md, section 12): flash attention for SwiGLU models, on Hopper or newer and at
// ZeRO 3 (GELU GPT runs of 2021-2022 Megatron on A100 used its fused unflashed softmax); and in the Megatron
// style on Hopper or newer, the interleaved schedule's p2p overlap (Megatron-LM's default with VPP > 1).
void fillTrainingDefaults(const ObjectReader* training, Scenario& s) {
    TrainingOptions& t = s.training;
    const auto statedKey = [&](const char* key) { return training && training->has(key); };
    if (!statedKey("flash_attention"))
        t.flashAttention = s.model.mlp == MlpKind::SwiGlu || s.cluster.gpu.peakFlops8 > 0 || t.zeroStage >= 3;
    if (!statedKey("overlap_pp_comm") && megatronCoreRecipeApplies(s))
        t.overlapPpComm = s.layout.pp > 1 && s.layout.vpp > 1;
}

// ------------------------------------------------------------------------------------------------
// Cases

// A global batch that the replicas cannot split evenly (a source's rounding): the nearest whole number of
// micro batches per replica, at least one.
void planAccumulation(ValidationCase& vc, Layout& l) {
    const long long perStep = vc.microBatchGiven ? static_cast<long long>(l.microBatch) * l.dp : l.dp;
    const long long steps = perReplicaUnits(vc.globalBatch, perStep);
    if (vc.globalBatch % perStep != 0)
        vc.adjustments.push_back("global_batch " + std::to_string(vc.globalBatch) + " is not a multiple of " +
                                 (vc.microBatchGiven ? "micro_batch x dp (" : "dp (") +
                                 std::to_string(perStep) + "): planned with " +
                                 std::to_string(steps * perStep) + " sequences per step");
    l.accumulation = static_cast<int>(steps);
}

// The measured figures the format names; null or missing ones are not stated. A figure outside its
// physical range (zero, negative, a denormal that a typo made) is left out, and the case's adjustments
// say which and why (docs/formats.md, "Validation cases").
void readMeasured(const Json& j, ValidationCase& vc) {
    for (const MeasuredRange& metric : kMetrics) {
        if (!j.is_object() || !j.contains(metric.key) || j.at(metric.key).is_null())
            continue;
        const Json& value = j.at(metric.key);
        if (!value.is_number()) {
            vc.adjustments.push_back(std::string("measured ") + metric.key +
                                     " left out: expected a number, got " + json::describe(value));
            continue;
        }
        const double v = value.get<double>();
        if (std::isfinite(v) && v >= metric.lo && v <= metric.hi)
            vc.measured.push_back({metric.key, v});
        else
            vc.adjustments.push_back(std::string("measured ") + metric.key + " " + json::describe(value) +
                                     " left out: must be from " + json::describe(Json(metric.lo)) + " to " +
                                     json::describe(Json(metric.hi)));
    }
}

// A case's optional "training" or "cluster" object (@2), read as strictly as a scenario file's: an unknown
// key is an error, not another tool's.
std::optional<ObjectReader> statedObject(ObjectReader& r, const char* key, InputErrors& errors) {
    const Json* j = r.find(key);
    if (!j)
        return std::nullopt;
    if (!j->is_object()) {
        r.error(key, "wrong type: expected an object, got " + json::describe(*j));
        return std::nullopt;
    }
    return ObjectReader(*j, r.path(key), errors, {}, json::Strictness::Strict);
}

// A setting stated in both the layout (@1's place) and the training object is refused: which would win?
void refuseTwiceStated(ObjectReader& training, ObjectReader& layout) {
    for (const std::string_view key : kLayoutTrainingKeys)
        if (training.has(key) && layout.has(key))
            training.error(key, "stated twice: also in the case's layout; state it once");
}

// One case, or nullopt when it has a problem (its problems, each naming it, go to errors).
std::optional<ValidationCase> readCase(const Json& jc, const std::string& where, InputErrors& errors) {
    const std::size_t problemsBefore = errors.size();
    ObjectReader r = caseReader(jc, where, errors);
    ValidationCase vc;
    if (r.require("id"))
        r.readString("id", vc.id);
    vc.source = optionalText(jc, "source");
    vc.confidence = optionalText(jc, "confidence");
    vc.notes = optionalText(jc, "notes");
    if (const Json* derived = r.find("derived"); derived && derived->is_array())
        for (const Json& line : *derived)
            if (line.is_string())
                vc.derived.push_back(line.get<std::string>());
    bool complete = true;
    for (const char* part : {"model", "hardware", "layout", "measured"})
        complete = r.require(part) && complete;
    if (!complete)
        return std::nullopt;
    Scenario s;
    s.name = vc.id;
    s.notes = vc.source;
    s.model = readCaseModel(*r.find("model"), r.path("model"), errors, vc.adjustments);
    if (s.model.name.empty())
        s.model.name = vc.id;
    vc.architectureFrom = adoptPresetArchitecture(s.model);
    s.cluster = readCaseCluster(*r.find("hardware"), r.path("hardware"), errors, vc);
    ObjectReader layout = caseReader(*r.find("layout"), r.path("layout"), errors);
    readCaseDegrees(layout, vc, s);
    readCaseBatch(layout, vc, s.layout);
    std::optional<ObjectReader> training = statedObject(r, "training", errors);
    if (training)
        refuseTwiceStated(*training, layout);
    CaseSettings settings(layout, training ? &*training : nullptr);
    readCaseTraining(settings, vc, s);
    if (training)
        readStatedTraining(*training, s.training);
    fillTrainingDefaults(training ? &*training : nullptr, s);
    if (std::optional<ObjectReader> cluster = statedObject(r, "cluster", errors)) {
        readClusterStatement(*cluster, s.cluster);
        cluster->reportUnknownKeys();
    }
    planAccumulation(vc, s.layout);
    readMeasured(*r.find("measured"), vc);
    if (errors.size() > problemsBefore)
        return std::nullopt; // a case with a problem is not planned (its problems name it)
    vc.scenario = std::move(s);
    return vc;
}

// The cases of a file that is one: its schema names the format and it holds an array of cases.
const Json* caseList(const Json& doc, InputErrors& errors) {
    const auto schema = doc.find("schema");
    if (schema == doc.end() || !schema->is_string() ||
        (schema->get_ref<const std::string&>() != kSchema1 &&
         schema->get_ref<const std::string&>() != kSchema2)) {
        const std::string expected = std::string("\"") + kSchema2 + "\" or \"" + kSchema1 + "\"";
        errors.push_back({"$.schema", schema == doc.end()
                                          ? "missing required key \"schema\" (expected " + expected + ")"
                                          : "wrong schema: expected " + expected + ", got " +
                                                json::describe(*schema) + " (not a validation-cases file)"});
        return nullptr;
    }
    const auto cases = doc.find("cases");
    if (cases == doc.end() || !cases->is_array()) {
        errors.push_back(
            {"$.cases", cases == doc.end()
                            ? std::string("missing required key \"cases\" (an array of cases)")
                            : "wrong type: expected an array of cases, got " + json::describe(*cases)});
        return nullptr;
    }
    return &*cases;
}

std::expected<std::vector<ValidationCase>, InputErrors> readCases(std::string_view text,
                                                                  InputErrors* skipped) {
    InputErrors errors;
    const std::optional<Json> doc = json::parseObject(text, errors);
    const Json* cases = doc ? caseList(*doc, errors) : nullptr;
    if (!cases)
        return std::unexpected(json::capped(std::move(errors)));
    std::vector<ValidationCase> out;
    for (std::size_t i = 0; i < cases->size(); ++i)
        if (auto vc = readCase((*cases)[i], json::indexPath("$.cases", i), errors))
            out.push_back(std::move(*vc));
    if (!errors.empty()) {
        // Strict (no `skipped`): any problem refuses the file. Otherwise the readable cases go on, and the
        // others' problems are handed back; a file with no readable case is refused.
        if (!skipped || out.empty())
            return std::unexpected(json::capped(std::move(errors)));
        *skipped = json::capped(std::move(errors));
    }
    return out;
}

} // namespace

std::expected<std::vector<ValidationCase>, InputErrors> validationCasesFromJson(std::string_view text,
                                                                                InputErrors* skipped) {
    if (skipped)
        skipped->clear();
    return json::guarded<std::vector<ValidationCase>>([&] { return readCases(text, skipped); });
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
