#include "core/io/RunJson.h"

#include "core/io/detail/FieldTable.h"
#include "core/model/Limits.h"

namespace lp::core {
namespace {

using json::DoubleKey;
using json::enumKey;
using json::Field;
using json::nonNegative;
using json::positive;
using limits::kMaxRate;
using R = RunOptions;

constexpr double kMaxDays = 1e6;

constexpr Field<R> kRunFields[] = {
    {"token_rule",
     enumKey<&R::tokenRule, &parseTokenRule, TokenRule::Tokens, TokenRule::ComputeOptimal,
             TokenRule::TokensPerParameter, TokenRule::Compute, TokenRule::Days, TokenRule::Money>()},
    {"tokens_per_parameter", DoubleKey<R>{&R::tokensPerParameter, positive(1e9)}},
    {"compute_budget_flops", DoubleKey<R>{&R::computeBudgetFlops, nonNegative(1e35)}},
    {"days_budget", DoubleKey<R>{&R::daysBudget, nonNegative(kMaxDays)}},
    {"usd_budget", DoubleKey<R>{&R::moneyBudgetUsd, nonNegative(1e15)}},
    {"loss_fit", enumKey<&R::lossFit, &parseLossFit, LossFit::Hoffmann2022, LossFit::Besiroglu2024>()},
    {"price_per_gpu_hour_usd", DoubleKey<R>{&R::pricePerGpuHourUsd, nonNegative(1e6)}},
    {"board_power_w", DoubleKey<R>{&R::boardPowerWatts, nonNegative(1e5)}},
    {"node_overhead_fraction", DoubleKey<R>{&R::nodeOverheadFraction, nonNegative(100.0)}},
    {"pue", DoubleKey<R>{&R::pue, {1.0, true, 10.0, true}}},
    {"gpu_failures_per_hour", DoubleKey<R>{&R::gpuFailuresPerHour, nonNegative(1.0)}},
    {"checkpoint_bandwidth_bytes_per_s", DoubleKey<R>{&R::checkpointBandwidth, positive(kMaxRate)}},
    {"restart_s", DoubleKey<R>{&R::restartSeconds, nonNegative(kMaxDays * 86400.0)}},
    {"async_checkpoint", &R::asyncCheckpoint},
    {"deadline_days", DoubleKey<R>{&R::deadlineDays, nonNegative(kMaxDays)}},
};

// A budget rule needs its budget: the key that states it, when it is missing or 0.
const char* missingBudgetKey(const RunOptions& r) {
    if (r.tokenRule == TokenRule::Compute && !(r.computeBudgetFlops > 0))
        return "compute_budget_flops";
    if (r.tokenRule == TokenRule::Days && !(r.daysBudget > 0))
        return "days_budget";
    if (r.tokenRule == TokenRule::Money && !(r.moneyBudgetUsd > 0))
        return "usd_budget";
    return nullptr;
}

} // namespace

RunOptions readRunOptions(const json::Json* j, const std::string& path, InputErrors& errors) {
    RunOptions r;
    if (!j)
        return r;
    if (!j->is_object()) {
        errors.push_back({path, "wrong type: expected an object, got " + json::describe(*j)});
        return r;
    }
    json::ObjectReader reader(*j, path, errors);
    for (const Field<R>& field : kRunFields)
        reader.allow({field.key});
    json::readFields(reader, r, kRunFields);
    reader.reportUnknownKeys();
    if (const char* key = missingBudgetKey(r); key && !reader.bad(key))
        reader.error(key, "out of range: must be greater than 0 with token_rule " +
                              std::string(toString(r.tokenRule)));
    return r;
}

json::Json runOptionsToJson(const RunOptions& r) {
    json::Json j;
    json::writeFields(j, r, kRunFields);
    return j;
}

const json::DoubleRange* runKeyRange(std::string_view key) {
    return json::doubleRangeOf<R>(kRunFields, key);
}

} // namespace lp::core
