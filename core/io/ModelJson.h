#pragma once
// The JSON codec of ModelSpec, with its MoE and MLA parts, for every format that holds a model: scenario
// files, the built-in presets and validation cases. The keys, their types and their limits
// (core/model/Limits.h) are these; a format decides which keys it requires and what it fills in where
// an object is silent.
#include "core/io/InputError.h"
#include "core/io/JsonReader.h"
#include "core/model/ModelSpec.h"

#include <functional>
#include <string>

namespace lp::core {

// The keys of a model object and of its "mla" and "moe" objects, in the order files write them.
inline constexpr const char* kModelKeys[] = {"name",
                                             "layers",
                                             "hidden",
                                             "heads",
                                             "kv_heads",
                                             "ffn_hidden",
                                             "vocab",
                                             "seq_len",
                                             "mlp",
                                             "norm",
                                             "tied_embeddings",
                                             "biases",
                                             "learned_positions",
                                             "dropout",
                                             "head_size",
                                             "attention",
                                             "mla",
                                             "moe"};
inline constexpr const char* kMlaKeys[] = {"q_lora_rank", "kv_lora_rank", "qk_nope_head_dim",
                                           "qk_rope_head_dim", "v_head_dim"};
inline constexpr const char* kMoeKeys[] = {"experts",        "top_k",      "expert_ffn_hidden",
                                           "shared_experts", "moe_layers", "capacity_factor",
                                           "groups",         "group_limit"};

// What a format fills in where a model object is silent, before the relations between its values are
// checked: `model` after the model's own keys are read, `moe` after the "moe" object's.
struct ModelFill {
    std::function<void(json::ObjectReader& model, ModelSpec& m)> model;
    std::function<void(json::ObjectReader& moe, ModelSpec& m)> moe;
};

// Reads the model keys that r's object holds over m (a key it lacks leaves its field as it is): the fields,
// the "mla" object and the "moe" object (null: a dense model). Then reports the keys r does not allow
// (kModelKeys and what the caller allowed) and checks the relations: heads at most hidden, kv_heads at most
// heads, and the MoE's top_k, groups, group limit, expert width and layers.
void readModelKeys(json::ObjectReader& r, ModelSpec& m, const ModelFill& fill = {});

// A scenario file's model: a model preset's name, or an object of model keys, which may start from a
// "preset". Without a preset, kv_heads follows heads (no grouped-query attention unless asked for).
ModelSpec readScenarioModel(const json::Json* j, const std::string& path, InputErrors& errors);

// Every field spelled out, the "mla" and "moe" objects included.
json::Json modelToJson(const ModelSpec& m);

} // namespace lp::core
