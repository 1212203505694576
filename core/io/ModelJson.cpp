#include "core/io/ModelJson.h"

#include "core/io/detail/FieldTable.h"
#include "core/io/detail/PresetNames.h"
#include "core/model/Limits.h"

#include <utility>

namespace lp::core {
namespace {

using json::describe;
using json::DoubleKey;
using json::enumKey;
using json::Field;
using json::IntKey;
using json::Json;
using json::ObjectReader;
using limits::kMaxHeads;
using limits::kMaxHidden;
using limits::kMaxLayers;
using limits::kMaxWidth;

using M = ModelSpec;
constexpr Field<M> kModelFields[] = {
    {"name", &M::name},
    {"layers", IntKey<M>{&M::layers, 1, kMaxLayers}},
    {"hidden", IntKey<M>{&M::hidden, 1, kMaxHidden}},
    {"heads", IntKey<M>{&M::heads, 1, kMaxHeads}},
    {"kv_heads", IntKey<M>{&M::kvHeads, 1, kMaxHeads}},
    {"ffn_hidden", IntKey<M>{&M::ffnHidden, 1, kMaxWidth}},
    {"vocab", IntKey<M>{&M::vocab, 1, kMaxWidth}},
    {"seq_len", IntKey<M>{&M::seqLen, 1, kMaxWidth}},
    {"mlp", enumKey<&M::mlp, &parseMlpKind, MlpKind::Gelu, MlpKind::SwiGlu>()},
    {"norm", enumKey<&M::norm, &parseNormKind, NormKind::LayerNorm, NormKind::RmsNorm>()},
    {"tied_embeddings", &M::tiedEmbeddings},
    {"biases", &M::biases},
    {"learned_positions", &M::learnedPositions},
    {"dropout", &M::dropout},
    {"head_size", IntKey<M>{&M::headSize, 0, kMaxHidden}},
    {"attention", enumKey<&M::attention, &parseAttentionKind, AttentionKind::Standard, AttentionKind::Mla>()},
};

constexpr Field<MlaSpec> kMlaFields[] = {
    {"q_lora_rank", IntKey<MlaSpec>{&MlaSpec::qLoraRank, 0, kMaxHidden}},
    {"kv_lora_rank", IntKey<MlaSpec>{&MlaSpec::kvLoraRank, 1, kMaxHidden}},
    {"qk_nope_head_dim", IntKey<MlaSpec>{&MlaSpec::qkNopeHeadDim, 1, kMaxHidden}},
    {"qk_rope_head_dim", IntKey<MlaSpec>{&MlaSpec::qkRopeHeadDim, 0, kMaxHidden}},
    {"v_head_dim", IntKey<MlaSpec>{&MlaSpec::vHeadDim, 1, kMaxHidden}},
};

constexpr Field<MoeSpec> kMoeFields[] = {
    {"experts", IntKey<MoeSpec>{&MoeSpec::experts, 0, kMaxHeads}},
    {"top_k", IntKey<MoeSpec>{&MoeSpec::topK, 0, kMaxHeads}},
    {"expert_ffn_hidden", IntKey<MoeSpec>{&MoeSpec::expertFfnHidden, 0, kMaxWidth}},
    {"shared_experts", IntKey<MoeSpec>{&MoeSpec::sharedExperts, 0, kMaxHeads}},
    {"moe_layers", IntKey<MoeSpec>{&MoeSpec::moeLayers, 0, kMaxLayers}},
    {"capacity_factor", DoubleKey<MoeSpec>{&MoeSpec::capacityFactor, json::positive(1000)}},
    {"groups", IntKey<MoeSpec>{&MoeSpec::groups, 0, kMaxHeads}},
    {"group_limit", IntKey<MoeSpec>{&MoeSpec::groupLimit, 0, kMaxHeads}},
};

void readMla(ObjectReader& model, const Json& j, MlaSpec& mla) {
    if (!j.is_object()) {
        model.errors().push_back({model.path("mla"), "wrong type: expected an object, got " + describe(j)});
        return;
    }
    ObjectReader r = model.nested(j, "mla");
    r.allow(kMlaKeys);
    json::readFields(r, mla, kMlaFields);
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
    json::readFields(r, moe, kMoeFields);
    if (fill.moe)
        fill.moe(r, m);
    r.reportUnknownKeys();
    checkMoe(r, moe, model.bad("layers") ? 0 : m.layers);
}

} // namespace

void readModelKeys(ObjectReader& r, ModelSpec& m, const ModelFill& fill) {
    r.allow(kModelKeys);
    json::readFields(r, m, kModelFields);
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
    json::writeFields(j, m, kModelFields);
    Json mla;
    json::writeFields(mla, m.mla, kMlaFields);
    j["mla"] = std::move(mla);
    Json moe;
    json::writeFields(moe, m.moe, kMoeFields);
    j["moe"] = std::move(moe);
    return j;
}

} // namespace lp::core
