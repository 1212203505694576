#include "core/model/RunOptions.h"

#include <array>
#include <utility>

namespace lp::core {
namespace {

constexpr std::array<std::pair<TokenRule, std::string_view>, 6> kTokenRules{{
    {TokenRule::Tokens, "tokens"},
    {TokenRule::ComputeOptimal, "compute_optimal"},
    {TokenRule::TokensPerParameter, "tokens_per_parameter"},
    {TokenRule::Compute, "compute"},
    {TokenRule::Days, "days"},
    {TokenRule::Money, "usd"},
}};
constexpr std::array<std::pair<LossFit, std::string_view>, 2> kLossFits{{
    {LossFit::Hoffmann2022, "hoffmann2022"},
    {LossFit::Besiroglu2024, "besiroglu2024"},
}};

template <typename Table, typename Enum> std::string_view nameIn(const Table& table, Enum v) {
    for (const auto& [value, name] : table)
        if (value == v)
            return name;
    return {};
}

template <typename Table> auto parseIn(const Table& table, std::string_view s) {
    using Enum = typename Table::value_type::first_type;
    for (const auto& [value, name] : table)
        if (name == s)
            return std::optional<Enum>(value);
    return std::optional<Enum>();
}

} // namespace

std::string_view toString(TokenRule v) {
    return nameIn(kTokenRules, v);
}
std::string_view toString(LossFit v) {
    return nameIn(kLossFits, v);
}
std::optional<TokenRule> parseTokenRule(std::string_view s) {
    if (s == "compute-optimal")
        return TokenRule::ComputeOptimal;
    return parseIn(kTokenRules, s);
}
std::optional<LossFit> parseLossFit(std::string_view s) {
    if (s == "hoffmann" || s == "chinchilla")
        return LossFit::Hoffmann2022;
    if (s == "besiroglu")
        return LossFit::Besiroglu2024;
    return parseIn(kLossFits, s);
}

} // namespace lp::core
