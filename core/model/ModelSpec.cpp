#include "core/model/ModelSpec.h"

namespace lp::core {

double mlpParamsPerUnit(const ModelSpec& m, int ffn) {
    const double h = m.hidden;
    const double f = ffn;
    if (m.mlp == MlpKind::SwiGlu)
        return 3.0 * h * f + (m.biases ? 2.0 * f + h : 0.0);
    return 2.0 * h * f + (m.biases ? f + h : 0.0);
}

ParameterCount countParameters(const ModelSpec& m) {
    ParameterCount c;
    const double h = m.hidden;
    const double d = m.headDim();
    const double a = m.heads;
    double attnMatrices = 0;
    double attnExtras = 0; // biases and the latent norms
    if (m.attention == AttentionKind::Mla) {
        // DeepSeek-V2/V3: q = W_uq(norm(W_dq x)), kv latent c = W_dkv x (+ a shared rotary key),
        // k_nope, v = W_uk c, W_uv c; output a*v_head -> h.
        const MlaSpec& l = m.mla;
        const double qk = l.qkNopeHeadDim + l.qkRopeHeadDim;
        const double q = l.qLoraRank > 0 ? h * l.qLoraRank + l.qLoraRank * a * qk : h * a * qk;
        const double kv =
            h * (l.kvLoraRank + l.qkRopeHeadDim) + l.kvLoraRank * a * (l.qkNopeHeadDim + l.vHeadDim);
        attnMatrices = q + kv + a * l.vHeadDim * h;
        attnExtras = (l.qLoraRank > 0 ? l.qLoraRank : 0) + l.kvLoraRank;
    } else {
        const double qDim = a * d;
        const double kvDim = static_cast<double>(m.kvHeads) * d;
        attnMatrices = 2.0 * h * qDim + 2.0 * h * kvDim;
        attnExtras = m.biases ? qDim + 2.0 * kvDim + h : 0.0;
    }
    c.attentionPerLayer = attnMatrices + attnExtras;
    c.attentionMatmulPerLayer = attnMatrices;
    c.mlpPerLayer = mlpParamsPerUnit(m, m.ffnHidden);
    c.normsPerLayer = (m.norm == NormKind::LayerNorm ? 4.0 : 2.0) * h;
    const double denseMlpMatrices = (m.mlp == MlpKind::SwiGlu ? 3.0 : 2.0) * h * m.ffnHidden;

    const int moeLayers = m.moeLayerCount();
    const int denseLayers = m.layers - moeLayers;
    double moeMatricesActive = 0;
    if (m.isMoe()) {
        const double expert = mlpParamsPerUnit(m, m.moe.expertFfnHidden);
        const double router = h * m.moe.experts;
        c.moePerLayer = expert * (m.moe.experts + m.moe.sharedExperts) + router;
        c.moeActivePerLayer = expert * (m.moe.topK + m.moe.sharedExperts) + router;
        const double expertMatrices = (m.mlp == MlpKind::SwiGlu ? 3.0 : 2.0) * h * m.moe.expertFfnHidden;
        moeMatricesActive = expertMatrices * (m.moe.topK + m.moe.sharedExperts) + router;
        c.routedExpertsTotal = moeLayers * expert * m.moe.experts;
    }

    c.embedding =
        static_cast<double>(m.vocab) * h + (m.learnedPositions ? static_cast<double>(m.seqLen) * h : 0.0);
    c.head = m.tiedEmbeddings ? 0.0 : static_cast<double>(m.vocab) * h;
    c.finalNorm = (m.norm == NormKind::LayerNorm ? 2.0 : 1.0) * h;

    const double perDense = c.attentionPerLayer + c.mlpPerLayer + c.normsPerLayer;
    const double perMoe = c.attentionPerLayer + c.moePerLayer + c.normsPerLayer;
    const double perMoeActive = c.attentionPerLayer + c.moeActivePerLayer + c.normsPerLayer;
    c.layersTotal = denseLayers * perDense + moeLayers * perMoe;
    c.total = c.layersTotal + c.embedding + c.head + c.finalNorm;
    c.active = denseLayers * perDense + moeLayers * perMoeActive + c.embedding + c.head + c.finalNorm;
    // Weights multiplied per token: every layer matrix a token passes through, plus the output head
    // (which exists as a matmul even when its weights are tied to the embedding).
    c.matmulActive = denseLayers * (attnMatrices + denseMlpMatrices) +
                     moeLayers * (attnMatrices + moeMatricesActive) + static_cast<double>(m.vocab) * h;
    return c;
}

} // namespace lp::core
