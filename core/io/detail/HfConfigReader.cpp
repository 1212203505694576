#include "core/io/detail/HfConfigReader.h"

#include "core/model/Limits.h"

#include <algorithm>
#include <limits>
#include <map>

namespace lp::core::json {
namespace {

// The largest value a config key may hold: the limit of the model field it becomes; widths, vocabularies
// and positions (and anything else) as kMaxWidth.
long long limitOf(std::string_view key) {
    static const std::map<std::string_view, long long, std::less<>> kLimits = {
        {"hidden_size", limits::kMaxHidden},
        {"n_embd", limits::kMaxHidden},
        {"n_embed", limits::kMaxHidden},
        {"head_dim", limits::kMaxHidden},
        {"q_lora_rank", limits::kMaxHidden},
        {"kv_lora_rank", limits::kMaxHidden},
        {"qk_nope_head_dim", limits::kMaxHidden},
        {"qk_rope_head_dim", limits::kMaxHidden},
        {"v_head_dim", limits::kMaxHidden},
        {"num_hidden_layers", limits::kMaxLayers},
        {"n_layer", limits::kMaxLayers},
        {"decoder_sparse_step", limits::kMaxLayers},
        {"first_k_dense_replace", limits::kMaxLayers},
        {"moe_layer_freq", limits::kMaxLayers},
        {"num_nextn_predict_layers", limits::kMaxLayers},
        {"num_attention_heads", limits::kMaxHeads},
        {"n_head", limits::kMaxHeads},
        {"num_key_value_heads", limits::kMaxHeads},
        {"num_kv_heads", limits::kMaxHeads},
        {"n_head_kv", limits::kMaxHeads},
        {"num_local_experts", limits::kMaxHeads},
        {"num_experts", limits::kMaxHeads},
        {"n_routed_experts", limits::kMaxHeads},
        {"num_experts_per_tok", limits::kMaxHeads},
        {"n_shared_experts", limits::kMaxHeads},
        {"n_group", limits::kMaxHeads},
        {"topk_group", limits::kMaxHeads},
    };
    const auto it = kLimits.find(key);
    return it == kLimits.end() ? limits::kMaxWidth : it->second;
}

constexpr DoubleRange kAnyNumber{std::numeric_limits<double>::lowest(), true,
                                 std::numeric_limits<double>::max(), true};

} // namespace

std::string_view HfConfigReader::spelling(std::string_view key,
                                          std::initializer_list<std::string_view> aliases) const {
    if (has(key))
        return key;
    for (std::string_view alias : aliases)
        if (has(alias))
            return alias;
    return key;
}

int HfConfigReader::integer(std::string_view key, long long lo) {
    int value = 0;
    m_r.readInt(key, value, lo, limitOf(key));
    return value;
}

int HfConfigReader::positive(std::string_view key, std::initializer_list<std::string_view> aliases) {
    const std::string_view found = spelling(key, aliases);
    if (!has(found)) {
        fail(key, "missing required key " + quoteJson(key) + " (needed for a " + m_family + " model)");
        return 0;
    }
    return integer(found, 1);
}

int HfConfigReader::positiveOr(std::string_view key, int fallback,
                               std::initializer_list<std::string_view> aliases) {
    const std::string_view found = spelling(key, aliases);
    return has(found) ? integer(found, 1) : fallback;
}

int HfConfigReader::nonNegativeOr(std::string_view key, int fallback) {
    return has(key) ? integer(key, 0) : fallback;
}

bool HfConfigReader::flag(std::string_view key, bool fallback) {
    m_r.readBool(key, fallback);
    return fallback;
}

double HfConfigReader::number(std::string_view key, double fallback) {
    m_r.readDouble(key, fallback, kAnyNumber);
    return fallback;
}

std::string HfConfigReader::text(std::string_view key, const std::string& fallback) {
    std::string value = fallback;
    m_r.readString(key, value);
    return value;
}

std::vector<int> HfConfigReader::layerList(std::string_view key) {
    std::vector<int> out;
    const Json* v = m_r.find(key);
    if (!v)
        return out;
    if (!v->is_array()) {
        fail(key, "wrong type: expected a list of layer numbers, got " + describe(*v));
        return out;
    }
    for (const auto& e : *v) {
        if (!e.is_number_integer() || e.get<long long>() < 0) {
            fail(key, "wrong type: expected a list of layer numbers, got an element " + describe(e));
            return {};
        }
        out.push_back(static_cast<int>(std::min<long long>(e.get<long long>(), limits::kMaxLayers)));
    }
    return out;
}

} // namespace lp::core::json
