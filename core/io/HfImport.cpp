#include "core/io/HfImport.h"

#include "core/io/Files.h"
#include "core/io/Presets.h"
#include "core/io/ScenarioJson.h"
#include "core/model/Scenario.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <set>

namespace lp::core {
namespace {

using nlohmann::json;

constexpr long long kMaxSize = 10'000'000; // widths, vocabularies, layer counts: far beyond any model

std::string describe(const json& v) {
    switch (v.type()) {
    case json::value_t::null:
        return "null";
    case json::value_t::boolean:
        return std::string("a boolean (") + (v.get<bool>() ? "true" : "false") + ")";
    case json::value_t::string:
        return "a string (" + v.dump() + ")";
    case json::value_t::array:
        return "an array";
    case json::value_t::object:
        return "an object";
    default:
        return "the number " + v.dump();
    }
}

// Reads the fields of one config object, collecting every problem.
class Reader {
public:
    Reader(const json& obj, std::string prefix, std::string family)
        : m_obj(obj), m_prefix(std::move(prefix)), m_family(std::move(family)) {}

    bool has(const std::string& key) const { return m_obj.contains(key) && !m_obj.at(key).is_null(); }

    // A positive integer; `aliases` are older spellings tried after `key`.
    int positive(const std::string& key, std::initializer_list<const char*> aliases = {}) {
        std::string found = key;
        if (!has(key)) {
            for (const char* a : aliases)
                if (has(a)) {
                    found = a;
                    break;
                }
        }
        if (!has(found)) {
            fail(key, "missing required key \"" + key + "\" (needed for a " + m_family + " model)");
            return 0;
        }
        return checkedInt(found, 1);
    }
    int positiveOr(const std::string& key, int fallback, std::initializer_list<const char*> aliases = {}) {
        if (has(key))
            return checkedInt(key, 1);
        for (const char* a : aliases)
            if (has(a))
                return checkedInt(a, 1);
        return fallback;
    }
    int nonNegativeOr(const std::string& key, int fallback) {
        return has(key) ? checkedInt(key, 0) : fallback;
    }
    bool flag(const std::string& key, bool fallback) {
        if (!has(key))
            return fallback;
        const json& v = m_obj.at(key);
        if (!v.is_boolean()) {
            fail(key, "wrong type: expected true or false, got " + describe(v));
            return fallback;
        }
        return v.get<bool>();
    }
    double number(const std::string& key, double fallback) {
        if (!has(key))
            return fallback;
        const json& v = m_obj.at(key);
        if (!v.is_number()) {
            fail(key, "wrong type: expected a number, got " + describe(v));
            return fallback;
        }
        return v.get<double>();
    }
    std::string text(const std::string& key, const std::string& fallback) {
        if (!has(key))
            return fallback;
        const json& v = m_obj.at(key);
        if (!v.is_string()) {
            fail(key, "wrong type: expected a string, got " + describe(v));
            return fallback;
        }
        return v.get<std::string>();
    }
    std::vector<int> intList(const std::string& key) {
        std::vector<int> out;
        if (!has(key))
            return out;
        const json& v = m_obj.at(key);
        if (!v.is_array()) {
            fail(key, "wrong type: expected a list of layer numbers, got " + describe(v));
            return out;
        }
        for (const auto& e : v) {
            if (!e.is_number_integer() || e.get<long long>() < 0) {
                fail(key, "wrong type: expected a list of layer numbers, got an element " + describe(e));
                return {};
            }
            out.push_back(static_cast<int>(std::min<long long>(e.get<long long>(), kMaxSize)));
        }
        return out;
    }
    void fail(const std::string& key, std::string reason) {
        m_errors.push_back(InputError{m_prefix + key, std::move(reason), 0, 0});
    }
    void failRelation(const std::string& key, std::string reason) { fail(key, std::move(reason)); }
    InputErrors& errors() { return m_errors; }
    const std::string& prefix() const { return m_prefix; }

private:
    int checkedInt(const std::string& key, long long min) {
        const json& v = m_obj.at(key);
        long long n = 0;
        if (v.is_number_integer()) {
            n = v.get<long long>();
        } else if (v.is_number_float() && std::isfinite(v.get<double>()) &&
                   v.get<double>() == std::floor(v.get<double>()) && std::fabs(v.get<double>()) < 1e15) {
            n = static_cast<long long>(v.get<double>());
        } else {
            fail(key, "wrong type: expected a whole number, got " + describe(v));
            return 0;
        }
        if (n < min || n > kMaxSize) {
            fail(key, "out of range: must be a whole number from " + std::to_string(min) + " to " +
                          std::to_string(kMaxSize) + ", got " + std::to_string(n));
            return 0;
        }
        return static_cast<int>(n);
    }

    const json& m_obj;
    std::string m_prefix;
    std::string m_family;
    InputErrors m_errors;
};

const std::vector<std::pair<std::string, std::string>>& architectureTypes() {
    static const std::vector<std::pair<std::string, std::string>> table = {
        {"LlamaForCausalLM", "llama"},        {"MistralForCausalLM", "mistral"},
        {"Qwen2ForCausalLM", "qwen2"},        {"Qwen3ForCausalLM", "qwen3"},
        {"Qwen2MoeForCausalLM", "qwen2_moe"}, {"Qwen3MoeForCausalLM", "qwen3_moe"},
        {"MixtralForCausalLM", "mixtral"},    {"GPT2LMHeadModel", "gpt2"},
        {"GPTNeoXForCausalLM", "gpt_neox"},   {"FalconForCausalLM", "falcon"},
        {"RWForCausalLM", "falcon"},          {"DeepseekV3ForCausalLM", "deepseek_v3"},
        {"NemotronForCausalLM", "nemotron"},
    };
    return table;
}

std::string familyOf(const std::string& type) {
    if (type == "llama" || type == "mistral" || type == "qwen2" || type == "qwen3" || type == "mixtral" ||
        type == "qwen2_moe" || type == "qwen3_moe")
        return "llama";
    if (type == "RefinedWebModel" || type == "RefinedWeb")
        return "falcon";
    return type;
}

std::pair<int, int> lineColumn(std::string_view text, std::size_t index) {
    int line = 1, column = 1;
    for (std::size_t i = 0; i < index && i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c == '\n') {
            ++line;
            column = 1;
        } else if ((c & 0xC0) != 0x80) {
            ++column;
        }
    }
    return {line, column};
}

void setSeqLen(HfImport& out, int maxPositions, const HfImportOptions& o) {
    const int preferred = o.preferredSeqLen > 0 ? o.preferredSeqLen : std::min(maxPositions, 4096);
    out.model.seqLen = std::min(preferred, maxPositions);
    if (o.preferredSeqLen > maxPositions)
        out.notes.push_back("Sequence length " + std::to_string(o.preferredSeqLen) +
                            " is longer than the model's " + std::to_string(maxPositions) +
                            " positions: using " + std::to_string(maxPositions) + ".");
}

void checkHeads(Reader& r, ModelSpec& m, const std::string& headsKey, const std::string& kvKey,
                bool explicitHeadDim) {
    if (m.heads > 0 && m.kvHeads > 0) {
        if (m.kvHeads > m.heads)
            r.failRelation(kvKey, "out of range: " + std::to_string(m.kvHeads) +
                                      " key/value heads is more than the " + std::to_string(m.heads) +
                                      " attention heads");
        else if (m.heads % m.kvHeads != 0)
            r.failRelation(kvKey, "out of range: " + std::to_string(m.kvHeads) +
                                      " key/value heads do not divide the " + std::to_string(m.heads) +
                                      " attention heads");
    }
    if (!explicitHeadDim && m.heads > 0 && m.hidden > 0 && m.hidden % m.heads != 0)
        r.failRelation(headsKey, "out of range: hidden size " + std::to_string(m.hidden) +
                                     " is not divisible by " + std::to_string(m.heads) +
                                     " heads, and head_dim is not given");
}

// Llama, Mistral, Qwen2/3, Mixtral and the Qwen MoE models: RMSNorm, gated MLP, rotary positions.
void readLlamaFamily(Reader& r, const std::string& type, HfImport& out, const HfImportOptions& o) {
    ModelSpec& m = out.model;
    m.norm = NormKind::RmsNorm;
    m.mlp = MlpKind::SwiGlu;
    m.learnedPositions = false;
    m.hidden = r.positive("hidden_size");
    m.layers = r.positive("num_hidden_layers");
    m.heads = r.positive("num_attention_heads");
    m.kvHeads = r.positiveOr("num_key_value_heads", m.heads);
    const bool moeOnlyFfn = type == "qwen3_moe";
    m.ffnHidden = moeOnlyFfn ? r.positiveOr("intermediate_size", 0) : r.positive("intermediate_size");
    m.vocab = r.positive("vocab_size");
    m.tiedEmbeddings = r.flag("tie_word_embeddings", false);
    const bool attentionBias = r.flag("attention_bias", false);
    const bool mlpBias = r.flag("mlp_bias", false);
    m.biases = attentionBias && mlpBias;
    if (attentionBias != mlpBias)
        out.notes.push_back(
            std::string("Only the ") + (attentionBias ? "attention" : "MLP") +
            " projections have biases; they are left out of the count (a fraction of a percent).");
    const int headDim = r.nonNegativeOr("head_dim", 0);
    if (headDim > 0 && m.heads > 0 && headDim * m.heads != m.hidden)
        m.headSize = headDim;
    m.dropout = r.number("attention_dropout", 0.0) > 0;
    const std::string act = r.text("hidden_act", "silu");
    if (act != "silu" && act != "swish")
        out.notes.push_back("hidden_act \"" + act + "\": the MLP is gated (three matrices) as in Llama.");
    if (type == "qwen2" || type == "qwen2_moe")
        out.notes.push_back(
            "Qwen2's query/key/value biases (a fraction of a percent of the parameters) are not counted.");
    if (type == "qwen3" || type == "qwen3_moe")
        out.notes.push_back(
            "Qwen3's per-head query/key norms (a few thousand parameters per layer) are not counted.");

    const int maxPositions = r.positiveOr("max_position_embeddings", 4096);
    setSeqLen(out, std::max(maxPositions, 1), o);
    if ((type == "mistral" || type == "mixtral" || type == "qwen2") && r.has("sliding_window")) {
        const int window = r.nonNegativeOr("sliding_window", 0);
        const bool used = r.flag("use_sliding_window", type != "qwen2");
        if (used && window > 0 && window < m.seqLen)
            out.notes.push_back("Sliding-window attention (" + std::to_string(window) +
                                " tokens) is not modelled: attention is counted over the whole sequence.");
    }

    if (type == "mixtral") {
        m.moe.experts = r.positive("num_local_experts");
        m.moe.topK = r.positive("num_experts_per_tok");
        m.moe.expertFfnHidden = m.ffnHidden;
        m.moe.sharedExperts = 0;
        m.moe.moeLayers = 0;
    } else if (type == "qwen2_moe" || type == "qwen3_moe") {
        m.moe.experts = r.positive("num_experts");
        m.moe.topK = r.positive("num_experts_per_tok");
        m.moe.expertFfnHidden = r.positive("moe_intermediate_size");
        if (m.ffnHidden == 0)
            m.ffnHidden = m.moe.expertFfnHidden;
        const int shared = r.nonNegativeOr("shared_expert_intermediate_size", 0);
        if (shared > 0 && m.moe.expertFfnHidden > 0) {
            m.moe.sharedExperts = std::max(
                1, static_cast<int>(std::lround(static_cast<double>(shared) / m.moe.expertFfnHidden)));
            if (shared % m.moe.expertFfnHidden != 0)
                out.notes.push_back("The shared expert (" + std::to_string(shared) + " wide) is counted as " +
                                    std::to_string(m.moe.sharedExperts) + " experts of " +
                                    std::to_string(m.moe.expertFfnHidden) + ".");
        }
        const int step = r.positiveOr("decoder_sparse_step", 1);
        const std::vector<int> dense = r.intList("mlp_only_layers");
        const std::set<int> denseSet(dense.begin(), dense.end());
        int moeLayers = 0;
        for (int i = 0; i < m.layers; ++i)
            if (!denseSet.contains(i) && (i + 1) % std::max(step, 1) == 0)
                ++moeLayers;
        m.moe.moeLayers = moeLayers == m.layers ? 0 : moeLayers;
        if (moeLayers == 0)
            r.fail("decoder_sparse_step", "out of range: no layer would be a mixture-of-experts layer");
    }
    checkHeads(r, m, "num_attention_heads", "num_key_value_heads", m.headSize > 0);
}

void readGpt2(Reader& r, HfImport& out, const HfImportOptions& o) {
    ModelSpec& m = out.model;
    m.norm = NormKind::LayerNorm;
    m.mlp = MlpKind::Gelu;
    m.biases = true;
    m.learnedPositions = true;
    m.hidden = r.positive("n_embd", {"hidden_size"});
    m.layers = r.positive("n_layer", {"num_hidden_layers"});
    m.heads = r.positive("n_head", {"num_attention_heads"});
    m.kvHeads = m.heads;
    m.ffnHidden = r.positiveOr("n_inner", 4 * std::max(m.hidden, 0));
    m.vocab = r.positive("vocab_size");
    m.tiedEmbeddings = r.flag("tie_word_embeddings", true);
    m.dropout = r.number("resid_pdrop", 0.1) > 0 || r.number("attn_pdrop", 0.1) > 0 ||
                r.number("embd_pdrop", 0.1) > 0;
    setSeqLen(out, r.positiveOr("n_positions", 1024, {"n_ctx"}), o);
    checkHeads(r, m, "n_head", "n_head", false);
}

void readGptNeox(Reader& r, HfImport& out, const HfImportOptions& o) {
    ModelSpec& m = out.model;
    m.norm = NormKind::LayerNorm;
    m.mlp = MlpKind::Gelu;
    m.learnedPositions = false;
    m.hidden = r.positive("hidden_size");
    m.layers = r.positive("num_hidden_layers");
    m.heads = r.positive("num_attention_heads");
    m.kvHeads = m.heads;
    m.ffnHidden = r.positive("intermediate_size");
    m.vocab = r.positive("vocab_size");
    m.tiedEmbeddings = r.flag("tie_word_embeddings", false);
    m.biases = r.flag("attention_bias", true);
    m.dropout = r.number("hidden_dropout", 0.0) > 0 || r.number("attention_dropout", 0.0) > 0;
    setSeqLen(out, r.positiveOr("max_position_embeddings", 2048), o);
    checkHeads(r, m, "num_attention_heads", "num_attention_heads", false);
}

void readFalcon(Reader& r, HfImport& out, const HfImportOptions& o) {
    ModelSpec& m = out.model;
    m.norm = NormKind::LayerNorm;
    m.mlp = MlpKind::Gelu;
    m.learnedPositions = false;
    m.hidden = r.positive("hidden_size", {"n_embed"});
    m.layers = r.positive("num_hidden_layers", {"n_layer"});
    m.heads = r.positive("num_attention_heads", {"n_head"});
    const bool newArchitecture = r.flag("new_decoder_architecture", false);
    const bool multiQuery = r.flag("multi_query", true);
    if (newArchitecture)
        m.kvHeads = r.positiveOr("num_kv_heads", m.heads, {"n_head_kv"});
    else
        m.kvHeads = multiQuery ? 1 : m.heads;
    m.ffnHidden = r.positiveOr("ffn_hidden_size", 4 * std::max(m.hidden, 0));
    m.vocab = r.positive("vocab_size");
    m.tiedEmbeddings = r.flag("tie_word_embeddings", true);
    m.biases = r.flag("bias", false);
    m.dropout = r.number("hidden_dropout", 0.0) > 0 || r.number("attention_dropout", 0.0) > 0;
    if (r.flag("alibi", false))
        out.notes.push_back("ALiBi position biases are not modelled (they add no parameters).");
    if (r.flag("parallel_attn", true) && !newArchitecture)
        out.notes.push_back(
            "Falcon's parallel attention/MLP block has one LayerNorm per layer; the count assumes two "
            "(a fraction of a percent).");
    setSeqLen(out, r.positiveOr("max_position_embeddings", 2048), o);
    checkHeads(r, m, "num_attention_heads", "num_kv_heads", false);
}

// Nemotron-4 and Minitron: LayerNorm (1p), a two-matrix squared-ReLU MLP, grouped-query attention with
// an explicit head_dim, untied embeddings, no biases (transformers' NemotronConfig; its defaults are
// Nemotron-4 15B's).
void readNemotron(Reader& r, HfImport& out, const HfImportOptions& o) {
    ModelSpec& m = out.model;
    m.norm = NormKind::LayerNorm;
    m.mlp = MlpKind::Gelu; // two matrices; the activation (squared ReLU) costs the same
    m.learnedPositions = false;
    m.hidden = r.positive("hidden_size");
    m.layers = r.positive("num_hidden_layers");
    m.heads = r.positive("num_attention_heads");
    m.kvHeads = r.positiveOr("num_key_value_heads", m.heads);
    m.ffnHidden = r.positive("intermediate_size");
    m.vocab = r.positive("vocab_size");
    m.tiedEmbeddings = r.flag("tie_word_embeddings", false);
    m.biases = r.flag("attention_bias", false) && r.flag("mlp_bias", false);
    const int headDim = r.nonNegativeOr("head_dim", 0);
    if (headDim > 0 && m.heads > 0 && headDim * m.heads != m.hidden)
        m.headSize = headDim;
    m.dropout = r.number("attention_dropout", 0.0) > 0;
    const std::string act = r.text("hidden_act", "relu2");
    if (act != "relu2")
        out.notes.push_back("hidden_act \"" + act +
                            "\": the MLP is counted with two matrices, as Nemotron's.");
    setSeqLen(out, r.positiveOr("max_position_embeddings", 4096), o);
    checkHeads(r, m, "num_attention_heads", "num_key_value_heads", m.headSize > 0);
}

void readDeepseek(Reader& r, HfImport& out, const HfImportOptions& o) {
    ModelSpec& m = out.model;
    m.norm = NormKind::RmsNorm;
    m.mlp = MlpKind::SwiGlu;
    m.attention = AttentionKind::Mla;
    m.hidden = r.positive("hidden_size");
    m.layers = r.positive("num_hidden_layers");
    m.heads = r.positive("num_attention_heads");
    m.kvHeads = m.heads;
    m.ffnHidden = r.positive("intermediate_size");
    m.vocab = r.positive("vocab_size");
    m.tiedEmbeddings = r.flag("tie_word_embeddings", false);
    m.mla.qLoraRank = r.nonNegativeOr("q_lora_rank", 0);
    m.mla.kvLoraRank = r.positive("kv_lora_rank");
    m.mla.qkNopeHeadDim = r.positive("qk_nope_head_dim");
    m.mla.qkRopeHeadDim = r.positive("qk_rope_head_dim");
    m.mla.vHeadDim = r.positive("v_head_dim");
    m.moe.experts = r.positive("n_routed_experts");
    m.moe.topK = r.positive("num_experts_per_tok");
    m.moe.expertFfnHidden = r.positive("moe_intermediate_size");
    m.moe.sharedExperts = r.nonNegativeOr("n_shared_experts", 0);
    // Group-limited routing: each token's experts lie in at most topk_group of the n_group groups.
    // A limit of all the groups (or configs whose groups do not fit) restricts nothing: no groups.
    MoeSpec grouped = m.moe;
    grouped.groups = r.nonNegativeOr("n_group", 0);
    grouped.groupLimit = r.nonNegativeOr("topk_group", 0);
    if (grouped.groups > 1 && grouped.groupLimit < grouped.groups && grouped.routingGroupsFit())
        m.moe = grouped;
    const int firstDense = r.nonNegativeOr("first_k_dense_replace", 0);
    const int freq = r.positiveOr("moe_layer_freq", 1);
    int moeLayers = 0;
    for (int i = 0; i < m.layers; ++i)
        if (i >= firstDense && i % std::max(freq, 1) == 0)
            ++moeLayers;
    m.moe.moeLayers = moeLayers == m.layers ? 0 : moeLayers;
    if (moeLayers == 0)
        r.fail("first_k_dense_replace", "out of range: no layer would be a mixture-of-experts layer");
    if (r.nonNegativeOr("num_nextn_predict_layers", 0) > 0)
        out.notes.push_back("The multi-token-prediction module (num_nextn_predict_layers) is not counted.");
    setSeqLen(out, r.positiveOr("max_position_embeddings", 4096), o);
}

} // namespace

const std::vector<std::string>& supportedHfModelTypes() {
    static const std::vector<std::string> types = {"llama",     "mistral",   "qwen2",       "qwen3",
                                                   "qwen2_moe", "qwen3_moe", "mixtral",     "gpt2",
                                                   "gpt_neox",  "falcon",    "deepseek_v3", "nemotron"};
    return types;
}

std::expected<HfImport, InputErrors> importHfConfig(std::string_view text, const HfImportOptions& options) {
    json root;
    try {
        root = json::parse(text.begin(), text.end());
    } catch (const json::parse_error& e) {
        InputError err;
        err.reason = "parse error: not valid JSON";
        const std::string what = e.what();
        if (const auto pos = what.find(": syntax error"); pos != std::string::npos)
            err.reason = "parse error:" + what.substr(pos + 1);
        std::tie(err.line, err.column) = lineColumn(text, e.byte > 0 ? e.byte - 1 : 0);
        return std::unexpected(InputErrors{err});
    } catch (const json::exception& e) {
        // out_of_range 406: a number too large for a double ("1e999").
        const std::string what = e.what();
        const auto pos = what.find("] ");
        return std::unexpected(
            InputErrors{{"",
                         "out of range: " + (pos == std::string::npos ? what : what.substr(pos + 2)) +
                             " (not a finite number)",
                         0, 0}});
    }
    if (!root.is_object())
        return std::unexpected(InputErrors{
            {"$", "wrong type: a Hugging Face config.json holds one JSON object, got " + describe(root), 0,
             0}});

    const json* obj = &root;
    std::string prefix = "$.";
    std::vector<std::string> notes;
    if (!root.contains("hidden_size") && !root.contains("n_embd") && root.contains("text_config") &&
        root.at("text_config").is_object()) {
        obj = &root.at("text_config");
        prefix = "$.text_config.";
        notes.push_back(
            "Read the language model from text_config (the vision or audio parts are not modelled).");
    }

    std::string type;
    if (obj->contains("model_type") && obj->at("model_type").is_string())
        type = obj->at("model_type").get<std::string>();
    else if (obj != &root && root.contains("model_type") && root.at("model_type").is_string())
        type = root.at("model_type").get<std::string>();
    const auto& types = supportedHfModelTypes();
    auto supported = [&](const std::string& t) {
        return std::find(types.begin(), types.end(), familyOf(t) == "falcon" ? std::string("falcon") : t) !=
               types.end();
    };
    if (!supported(type) && root.contains("architectures") && root.at("architectures").is_array()) {
        // Fall back on the architecture class name ("LlamaForCausalLM").
        for (const auto& a : root.at("architectures")) {
            if (!a.is_string())
                continue;
            for (const auto& [cls, t] : architectureTypes())
                if (a.get<std::string>() == cls)
                    type = t;
            if (supported(type))
                break;
        }
    }
    if (type.empty())
        return std::unexpected(
            InputErrors{{prefix + "model_type",
                         "missing required key \"model_type\" (and no known \"architectures\" entry): "
                         "cannot tell which architecture this is",
                         0, 0}});
    if (familyOf(type) == "falcon")
        type = "falcon";
    if (!supported(type)) {
        std::string list;
        for (const auto& t : types)
            list += (list.empty() ? "" : ", ") + t;
        return std::unexpected(
            InputErrors{{prefix + "model_type",
                         "unsupported model type \"" + type +
                             "\": Layout Planner imports the decoder-only language models " + list,
                         0, 0}});
    }

    HfImport out;
    out.modelType = type;
    out.notes = std::move(notes);
    Reader r(*obj, prefix, type);
    if (familyOf(type) == "llama")
        readLlamaFamily(r, type, out, options);
    else if (type == "gpt2")
        readGpt2(r, out, options);
    else if (type == "gpt_neox")
        readGptNeox(r, out, options);
    else if (type == "falcon")
        readFalcon(r, out, options);
    else if (type == "nemotron")
        readNemotron(r, out, options);
    else
        readDeepseek(r, out, options);
    if (!r.errors().empty())
        return std::unexpected(std::move(r.errors()));

    std::string name = options.name;
    if (name.empty() && root.contains("_name_or_path") && root.at("_name_or_path").is_string())
        name = root.at("_name_or_path").get<std::string>();
    if (name.empty())
        name = "Hugging Face " + type + " model";
    out.model.name = name;
    // The model must also be one a scenario file can hold (core/model/Limits.h): a config within the import's
    // own bounds but beyond the file's (hidden 2M, 200,000 layers) is refused here, naming the field,
    // rather than saved into a scenario that would not open again.
    Scenario check = defaultScenario();
    check.model = out.model;
    if (auto readBack = scenarioFromJson(scenarioToJson(check)); !readBack) {
        InputErrors errors;
        for (InputError e : readBack.error()) {
            e.reason += " (the largest a scenario holds)";
            e.line = e.column = 0;
            errors.push_back(std::move(e));
        }
        return std::unexpected(std::move(errors));
    }
    return out;
}

std::expected<HfImport, InputErrors> loadHfConfigFile(const std::string& path, HfImportOptions options) {
    auto text = readTextFile(path);
    if (!text)
        return std::unexpected(InputErrors{{"", text.error(), 0, 0}});
    if (options.name.empty()) {
        // The folder of a "config.json" names the model ("Llama-2-7b-hf/config.json"); else the file.
        std::string p = path;
        while (p.size() > 1 && (p.back() == '/' || p.back() == '\\'))
            p.pop_back();
        const auto slash = p.find_last_of("/\\");
        std::string file = slash == std::string::npos ? p : p.substr(slash + 1);
        std::string stem = file.ends_with(".json") ? file.substr(0, file.size() - 5) : file;
        std::string folder;
        if (slash != std::string::npos) {
            const std::string dir = p.substr(0, slash);
            const auto s2 = dir.find_last_of("/\\");
            folder = s2 == std::string::npos ? dir : dir.substr(s2 + 1);
        }
        const std::string fallback = (stem == "config" && !folder.empty() && folder != ".") ? folder : stem;
        auto imported = importHfConfig(*text, options);
        if (imported && imported->model.name.starts_with("Hugging Face ") && !fallback.empty())
            imported->model.name = fallback;
        return imported;
    }
    return importHfConfig(*text, options);
}

} // namespace lp::core
