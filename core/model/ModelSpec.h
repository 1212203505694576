#pragma once
// The transformer architecture and its parameter count (docs/estimation.md, section 1).
#include "core/model/Enums.h"

#include <cstdint>
#include <string>

namespace lp::core {

// Mixture-of-experts part of a model; experts == 0 means a dense model.
struct MoeSpec {
    int experts = 0;         // routed experts per MoE layer
    int topK = 0;            // experts each token is routed to
    int expertFfnHidden = 0; // MLP hidden size of one expert
    int sharedExperts = 0;   // always-active experts per MoE layer
    int moeLayers = 0;       // how many of the layers are MoE (0 with experts > 0 means all)
    double capacityFactor = 1.0;
    // Group-limited routing (DeepSeek-V2/V3 n_group, topk_group): the experts form `groups` equal groups and
    // each token's top-k lie in at most `groupLimit` of them. 0: no groups, a token may reach any expert.
    int groups = 0;
    int groupLimit = 0;
    bool operator==(const MoeSpec&) const = default;
    // No groups, or groups that split the experts evenly with 1 to `groups` allowed ones holding the top-k.
    bool routingGroupsFit() const {
        return groups == 0 ||
               (groups > 0 && experts % groups == 0 && groupLimit >= 1 && groupLimit <= groups &&
                static_cast<long long>(groupLimit) * (experts / groups) >= topK);
    }
};

// Multi-head latent attention (DeepSeek-V2/V3): low-rank compressed queries and keys/values.
struct MlaSpec {
    int qLoraRank = 1536;    // 0: queries are projected directly from the hidden state
    int kvLoraRank = 512;    // compressed key/value width (the latent)
    int qkNopeHeadDim = 128; // per-head query/key width without rotary
    int qkRopeHeadDim = 64;  // per-head rotary part (the rotary key is shared by all heads)
    int vHeadDim = 128;      // per-head value width
    bool operator==(const MlaSpec&) const = default;
};

struct ModelSpec {
    std::string name = "model";
    int layers = 32;
    int hidden = 4096;
    int heads = 32;
    int kvHeads = 32;      // == heads without grouped-query attention
    int ffnHidden = 11008; // MLP hidden size
    int vocab = 32000;
    int seqLen = 4096;
    MlpKind mlp = MlpKind::SwiGlu;
    NormKind norm = NormKind::RmsNorm;
    bool tiedEmbeddings = false;
    bool biases = false;           // linear-layer biases (GPT-2/3: yes, Llama: no)
    bool learnedPositions = false; // learned absolute position embeddings (GPT-2/3)
    bool dropout = false;          // hidden and attention dropout during training (GPT-2/3: yes)
    int headSize = 0;              // per-head width; 0 means hidden / heads
    AttentionKind attention = AttentionKind::Standard;
    MlaSpec mla; // used when attention == Mla
    MoeSpec moe;
    bool operator==(const ModelSpec&) const = default;

    int headDim() const { return headSize > 0 ? headSize : (heads > 0 ? hidden / heads : 0); }
    // Widths of the attention scores (query . key) and of the values, per head.
    int qkHeadDim() const {
        return attention == AttentionKind::Mla ? mla.qkNopeHeadDim + mla.qkRopeHeadDim : headDim();
    }
    int vHeadDim() const { return attention == AttentionKind::Mla ? mla.vHeadDim : headDim(); }
    bool isMoe() const { return moe.experts > 0; }
    int moeLayerCount() const { return isMoe() ? (moe.moeLayers > 0 ? moe.moeLayers : layers) : 0; }
};

// Parameter counts, split the way memory and FLOPs need them. All counts are whole-model, unsharded.
struct ParameterCount {
    double attentionPerLayer = 0; // Q, K, V, O (+ biases)
    double mlpPerLayer = 0;       // dense MLP of a dense layer (+ biases)
    double moePerLayer = 0;       // all experts + router + shared experts of a MoE layer
    double moeActivePerLayer = 0; // top-k experts + router + shared experts
    double normsPerLayer = 0;
    double embedding = 0; // token (+ learned position) embedding
    double head = 0;      // output projection (0 when tied)
    double finalNorm = 0;
    double total = 0;
    double active = 0;                  // parameters a token passes through (== total for dense)
    double layersTotal = 0;             // all decoder layers together
    double routedExpertsTotal = 0;      // routed-expert weights of all MoE layers (sharded by EP)
    double attentionMatmulPerLayer = 0; // attention weight matrices of one layer (no biases, norms)
    double matmulActive = 0;            // parameters that take part in matmuls per token (layers + head)
};

ParameterCount countParameters(const ModelSpec& m);
double mlpParamsPerUnit(const ModelSpec& m, int ffn); // MLP weights of width ffn (+ biases)

} // namespace lp::core
