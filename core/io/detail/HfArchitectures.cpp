#include "core/io/detail/HfArchitectures.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace lp::core::json {
namespace {

void setSeqLen(HfImport& out, int maxPositions, const HfImportOptions& o) {
    const int preferred = o.preferredSeqLen > 0 ? o.preferredSeqLen : std::min(maxPositions, 4096);
    out.model.seqLen = std::min(preferred, maxPositions);
    if (o.preferredSeqLen > maxPositions)
        out.notes.push_back("Sequence length " + std::to_string(o.preferredSeqLen) +
                            " is longer than the model's " + std::to_string(maxPositions) +
                            " positions: using " + std::to_string(maxPositions) + ".");
}

// The family's block (its norm and MLP, rotary positions) and the sizes most configs name alike.
void readBlockAndSizes(HfConfigReader& r, ModelSpec& m, NormKind norm, MlpKind mlp) {
    m.norm = norm;
    m.mlp = mlp;
    m.learnedPositions = false;
    m.hidden = r.positive("hidden_size");
    m.layers = r.positive("num_hidden_layers");
    m.heads = r.positive("num_attention_heads");
}

void checkHeads(HfConfigReader& r, ModelSpec& m, std::string_view headsKey, std::string_view kvKey,
                bool explicitHeadDim) {
    if (m.heads > 0 && m.kvHeads > 0) {
        if (m.kvHeads > m.heads)
            r.fail(kvKey, "out of range: " + std::to_string(m.kvHeads) +
                              " key/value heads is more than the " + std::to_string(m.heads) +
                              " attention heads");
        else if (m.heads % m.kvHeads != 0)
            r.fail(kvKey, "out of range: " + std::to_string(m.kvHeads) +
                              " key/value heads do not divide the " + std::to_string(m.heads) +
                              " attention heads");
    }
    if (!explicitHeadDim && m.heads > 0 && m.hidden > 0 && m.hidden % m.heads != 0)
        r.fail(headsKey, "out of range: hidden size " + std::to_string(m.hidden) + " is not divisible by " +
                             std::to_string(m.heads) + " heads, and head_dim is not given");
}

// The routed experts and the experts per token, under the keys the family names them; top-k above the
// expert count is named by the config's own keys.
void readExperts(HfConfigReader& r, MoeSpec& moe, std::string_view expertsKey) {
    moe.experts = r.positive(expertsKey);
    moe.topK = r.positive("num_experts_per_tok");
    if (moe.experts > 0 && moe.topK > moe.experts)
        r.fail("num_experts_per_tok", "out of range: must be an integer from 1 to " +
                                          std::string(expertsKey) + " (" + std::to_string(moe.experts) +
                                          "), got " + std::to_string(moe.topK));
}

// Llama, Mistral, Qwen2/3, Mixtral and the Qwen MoE models: RMSNorm, gated MLP, rotary positions.
void readLlamaFamily(HfConfigReader& r, const std::string& type, HfImport& out, const HfImportOptions& o) {
    ModelSpec& m = out.model;
    readBlockAndSizes(r, m, NormKind::RmsNorm, MlpKind::SwiGlu);
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
        readExperts(r, m.moe, "num_local_experts");
        m.moe.expertFfnHidden = m.ffnHidden;
        m.moe.sharedExperts = 0;
        m.moe.moeLayers = 0;
    } else if (type == "qwen2_moe" || type == "qwen3_moe") {
        readExperts(r, m.moe, "num_experts");
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
        const std::vector<int> dense = r.layerList("mlp_only_layers");
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

void readGpt2(HfConfigReader& r, HfImport& out, const HfImportOptions& o) {
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

void readGptNeox(HfConfigReader& r, HfImport& out, const HfImportOptions& o) {
    ModelSpec& m = out.model;
    readBlockAndSizes(r, m, NormKind::LayerNorm, MlpKind::Gelu);
    m.kvHeads = m.heads;
    m.ffnHidden = r.positive("intermediate_size");
    m.vocab = r.positive("vocab_size");
    m.tiedEmbeddings = r.flag("tie_word_embeddings", false);
    m.biases = r.flag("attention_bias", true);
    m.dropout = r.number("hidden_dropout", 0.0) > 0 || r.number("attention_dropout", 0.0) > 0;
    setSeqLen(out, r.positiveOr("max_position_embeddings", 2048), o);
    checkHeads(r, m, "num_attention_heads", "num_attention_heads", false);
}

void readFalcon(HfConfigReader& r, HfImport& out, const HfImportOptions& o) {
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
        out.notes.push_back("Falcon's parallel attention/MLP block has one LayerNorm per layer; the count "
                            "assumes two (a fraction of a percent).");
    setSeqLen(out, r.positiveOr("max_position_embeddings", 2048), o);
    checkHeads(r, m, "num_attention_heads", "num_kv_heads", false);
}

// Nemotron-4 and Minitron: LayerNorm (1p), a two-matrix squared-ReLU MLP, grouped-query attention with
// an explicit head_dim, untied embeddings, no biases (transformers' NemotronConfig; its defaults are
// Nemotron-4 15B's).
void readNemotron(HfConfigReader& r, HfImport& out, const HfImportOptions& o) {
    ModelSpec& m = out.model;
    // Two MLP matrices as GELU's; the activation (squared ReLU) costs the same.
    readBlockAndSizes(r, m, NormKind::LayerNorm, MlpKind::Gelu);
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

void readDeepseek(HfConfigReader& r, HfImport& out, const HfImportOptions& o) {
    ModelSpec& m = out.model;
    readBlockAndSizes(r, m, NormKind::RmsNorm, MlpKind::SwiGlu);
    m.attention = AttentionKind::Mla;
    m.kvHeads = m.heads;
    m.ffnHidden = r.positive("intermediate_size");
    m.vocab = r.positive("vocab_size");
    m.tiedEmbeddings = r.flag("tie_word_embeddings", false);
    m.mla.qLoraRank = r.nonNegativeOr("q_lora_rank", 0);
    m.mla.kvLoraRank = r.positive("kv_lora_rank");
    m.mla.qkNopeHeadDim = r.positive("qk_nope_head_dim");
    m.mla.qkRopeHeadDim = r.positive("qk_rope_head_dim");
    m.mla.vHeadDim = r.positive("v_head_dim");
    readExperts(r, m.moe, "n_routed_experts");
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

void readHfArchitecture(HfConfigReader& r, const std::string& type, HfImport& out,
                        const HfImportOptions& options) {
    if (type == "gpt2")
        readGpt2(r, out, options);
    else if (type == "gpt_neox")
        readGptNeox(r, out, options);
    else if (type == "falcon")
        readFalcon(r, out, options);
    else if (type == "nemotron")
        readNemotron(r, out, options);
    else if (type == "deepseek_v3")
        readDeepseek(r, out, options);
    else
        readLlamaFamily(r, type, out, options);
}

} // namespace lp::core::json
