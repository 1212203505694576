#include "core/io/ModelJson.h"

#include "core/io/detail/PresetNames.h"
#include "core/model/Limits.h"

#include <utility>

namespace lp::core {
namespace {

using json::describe;
using json::Json;
using json::ObjectReader;
using limits::kMaxHeads;
using limits::kMaxHidden;
using limits::kMaxLayers;
using limits::kMaxWidth;

void readMla(ObjectReader& model, const Json& j, MlaSpec& mla) {
    if (!j.is_object()) {
        model.errors().push_back({model.path("mla"), "wrong type: expected an object, got " + describe(j)});
        return;
    }
    ObjectReader r = model.nested(j, "mla");
    r.allow(kMlaKeys);
    r.readInt("q_lora_rank", mla.qLoraRank, 0, kMaxHidden);
    r.readInt("kv_lora_rank", mla.kvLoraRank, 1, kMaxHidden);
    r.readInt("qk_nope_head_dim", mla.qkNopeHeadDim, 1, kMaxHidden);
    r.readInt("qk_rope_head_dim", mla.qkRopeHeadDim, 0, kMaxHidden);
    r.readInt("v_head_dim", mla.vHeadDim, 1, kMaxHidden);
    r.reportUnknownKeys();
}

// Group-limited routing: the groups split the experts evenly, and the allowed ones hold the top-k.
void checkRoutingGroups(ObjectReader& r, const MoeSpec& moe) {
    const bool expertsOk = !r.bad("experts"), groupsOk = !r.bad("groups"), limitOk = !r.bad("group_limit");
    if (expertsOk && groupsOk && moe.groups > 0 && moe.experts > 0 && moe.experts % moe.groups != 0)
        r.error("groups", "out of range: must divide experts (" + std::to_string(moe.experts) + "), got " +
                              std::to_string(moe.groups));
    if (groupsOk && limitOk && moe.groups > 0 && (moe.groupLimit < 1 || moe.groupLimit > moe.groups))
        r.error("group_limit", "out of range: must be an integer from 1 to groups (" +
                                   std::to_string(moe.groups) + "), got " + std::to_string(moe.groupLimit));
    else if (expertsOk && !r.bad("top_k") && groupsOk && limitOk && moe.groups > 0 &&
             moe.experts % moe.groups == 0 &&
             static_cast<long long>(moe.groupLimit) * (moe.experts / moe.groups) < moe.topK)
        r.error("group_limit", "out of range: the " + std::to_string(moe.groupLimit) +
                                   " allowed groups hold " +
                                   std::to_string(moe.groupLimit * (moe.experts / moe.groups)) +
                                   " experts, fewer than top_k (" + std::to_string(moe.topK) + ")");
}

// `layers`: the model's, 0 when it was not read.
void checkMoe(ObjectReader& r, const MoeSpec& moe, int layers) {
    checkRoutingGroups(r, moe);
    const bool expertsOk = !r.bad("experts");
    if (expertsOk && !r.bad("top_k") && moe.experts > 0 && (moe.topK < 1 || moe.topK > moe.experts))
        r.error("top_k", "out of range: must be an integer from 1 to experts (" +
                             std::to_string(moe.experts) + "), got " + std::to_string(moe.topK));
    if (expertsOk && !r.bad("expert_ffn_hidden") && moe.experts > 0 && moe.expertFfnHidden < 1)
        r.error("expert_ffn_hidden", "out of range: must be at least 1 in a MoE model, got 0");
    if (!r.bad("moe_layers") && layers > 0 && moe.moeLayers > layers)
        r.error("moe_layers", "out of range: must be an integer from 0 to layers (" + std::to_string(layers) +
                                  "), got " + std::to_string(moe.moeLayers));
}

void readMoe(ObjectReader& model, const Json& j, ModelSpec& m, const ModelFill& fill) {
    if (j.is_null()) {
        m.moe = MoeSpec{};
        return;
    }
    if (!j.is_object()) {
        model.errors().push_back(
            {model.path("moe"), "wrong type: expected an object or null, got " + describe(j)});
        return;
    }
    ObjectReader r = model.nested(j, "moe");
    r.allow(kMoeKeys);
    MoeSpec& moe = m.moe;
    r.readInt("experts", moe.experts, 0, kMaxHeads);
    r.readInt("top_k", moe.topK, 0, kMaxHeads);
    r.readInt("expert_ffn_hidden", moe.expertFfnHidden, 0, kMaxWidth);
    r.readInt("shared_experts", moe.sharedExperts, 0, kMaxHeads);
    r.readInt("moe_layers", moe.moeLayers, 0, kMaxLayers);
    r.readDouble("capacity_factor", moe.capacityFactor, json::positive(1000));
    r.readInt("groups", moe.groups, 0, kMaxHeads);
    r.readInt("group_limit", moe.groupLimit, 0, kMaxHeads);
    if (fill.moe)
        fill.moe(r, m);
    r.reportUnknownKeys();
    checkMoe(r, moe, model.bad("layers") ? 0 : m.layers);
}

void readModelFields(ObjectReader& r, ModelSpec& m) {
    r.readString("name", m.name);
    r.readInt("layers", m.layers, 1, kMaxLayers);
    r.readInt("hidden", m.hidden, 1, kMaxHidden);
    r.readInt("heads", m.heads, 1, kMaxHeads);
    r.readInt("kv_heads", m.kvHeads, 1, kMaxHeads);
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
}

} // namespace

void readModelKeys(ObjectReader& r, ModelSpec& m, const ModelFill& fill) {
    r.allow(kModelKeys);
    readModelFields(r, m);
    if (fill.model)
        fill.model(r, m);
    if (const Json* mla = r.find("mla"))
        readMla(r, *mla, m.mla);
    if (const Json* moe = r.find("moe"))
        readMoe(r, *moe, m, fill);
    r.reportUnknownKeys();
    const bool headsOk = !r.bad("heads");
    if (!r.bad("hidden") && headsOk && m.heads > m.hidden)
        r.error("heads", "out of range: must be at most hidden (" + std::to_string(m.hidden) + "), got " +
                             std::to_string(m.heads));
    if (headsOk && !r.bad("kv_heads") && m.kvHeads > m.heads)
        r.error("kv_heads", "out of range: must be at most heads (" + std::to_string(m.heads) + "), got " +
                                std::to_string(m.kvHeads));
}

ModelSpec readScenarioModel(const Json* j, const std::string& path, InputErrors& errors) {
    ModelSpec m;
    if (!j)
        return m;
    const auto value = json::modelPresetOrObject(*j, path, errors);
    if (value.preset)
        m = value.preset->model;
    if (!value.isObject)
        return m;
    ObjectReader r(*j, path, errors, {"preset"});
    bool fromPreset = false;
    if (const Json* p = r.find("preset")) {
        if (const ModelPreset* preset = json::namedModelPreset(*p, r.path("preset"), errors)) {
            m = preset->model;
            fromPreset = true;
        }
    }
    ModelFill fill;
    fill.model = [fromPreset](ObjectReader& model, ModelSpec& spec) {
        if (!fromPreset && !model.has("kv_heads"))
            spec.kvHeads = spec.heads; // no grouped-query attention unless asked for
    };
    readModelKeys(r, m, fill);
    return m;
}

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

} // namespace lp::core
