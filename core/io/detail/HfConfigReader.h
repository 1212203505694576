#pragma once
// Reads the fields of a Hugging Face config.json over the one JSON reader: a null is "not given", keys of
// other tools pass, older spellings stand in for a key, and every number is held to the limit of the model
// field it becomes (core/model/Limits.h).
#include "core/io/JsonReader.h"

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace lp::core::json {

class HfConfigReader {
public:
    // `family` names the architecture in "missing" messages ("needed for a llama model"); r is lenient.
    HfConfigReader(ObjectReader& r, std::string family) : m_r(r), m_family(std::move(family)) {}

    bool has(std::string_view key) const { return m_r.has(key); }
    // A required positive integer; `aliases` are older spellings tried after `key`. 0 when missing or bad.
    int positive(std::string_view key, std::initializer_list<std::string_view> aliases = {});
    // An optional positive integer, `fallback` when neither the key nor an alias is given.
    int positiveOr(std::string_view key, int fallback, std::initializer_list<std::string_view> aliases = {});
    int nonNegativeOr(std::string_view key, int fallback);
    bool flag(std::string_view key, bool fallback);
    double number(std::string_view key, double fallback);
    std::string text(std::string_view key, const std::string& fallback);
    // A list of layer numbers (Qwen's mlp_only_layers); empty when absent or bad.
    std::vector<int> layerList(std::string_view key);
    void fail(std::string_view key, std::string reason) { m_r.error(key, std::move(reason)); }

private:
    // The first of key and its aliases that the config gives, or key.
    std::string_view spelling(std::string_view key, std::initializer_list<std::string_view> aliases) const;
    int integer(std::string_view key, long long lo);

    ObjectReader& m_r;
    std::string m_family;
};

} // namespace lp::core::json
