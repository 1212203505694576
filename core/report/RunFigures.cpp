#include "core/report/RunFigures.h"

#include "core/util/NumberFormat.h"

#include <algorithm>
#include <cmath>

namespace lp::core::report {
namespace {

std::string ruleWords(const RunPlan& r) {
    switch (r.tokenRule) {
    case TokenRule::Tokens:
        return "as stated";
    case TokenRule::ComputeOptimal:
        return "compute-optimal, 20 per parameter";
    case TokenRule::TokensPerParameter:
        return "tokens per parameter";
    case TokenRule::Compute:
        return "from the compute budget";
    case TokenRule::Days:
        return "from the days budget";
    case TokenRule::Money:
        return "from the money budget";
    }
    return {};
}

std::string tokensText(const RunPlan& r) {
    return fmt::count(r.tokens) + " (" + ruleWords(r) + "; " + fmt::fixed(r.tokensPerParameter, 0) +
           " per parameter, compute-optimal for this compute: " + fmt::count(r.computeOptimal.parameters) +
           " parameters, " + fmt::count(r.computeOptimal.tokens) + " tokens)";
}

std::string goodputText(const RunPlan& r) {
    return fmt::percent(r.goodput) + " (" + fmt::fixed(r.interruptionsPerDay, 2) + " interruptions a day, " +
           fmt::fixed(r.interruptions, 0) + " over the run)";
}

std::string checkpointText(const RunPlan& r) {
    const std::string written = r.checkpointStallSeconds < r.checkpointWriteSeconds
                                    ? " written in the background in " +
                                          fmt::duration(r.checkpointWriteSeconds) + ", training paused " +
                                          fmt::duration(r.checkpointStallSeconds) + ","
                                    : " written in " + fmt::duration(r.checkpointWriteSeconds);
    return fmt::gb(r.checkpointBytes) + written + " every " + fmt::wallClock(r.checkpointIntervalSeconds) +
           " (" + fmt::percent(r.checkpointOverhead) + " of the time)";
}

std::string costText(const RunPlan& r) {
    if (!(r.pricePerGpuHourUsd > 0))
        return "no price per GPU-hour (set one: --price-per-gpu-hour)";
    return "$" + fmt::count(r.costUsd) + " at $" + fmt::fixed(r.pricePerGpuHourUsd, 2) + " per GPU-hour ($" +
           fmt::fixed(r.costPerMillionTokensUsd, 3) + " per million tokens)";
}

} // namespace

std::vector<std::pair<std::string, std::string>> runRows(const Plan& p) {
    const RunPlan& r = p.run;
    std::vector<std::pair<std::string, std::string>> rows;
    rows.emplace_back("Tokens", tokensText(r));
    rows.emplace_back("Predicted loss",
                      fmt::fixed(r.predictedLoss, 3) + " (" + std::string(toString(r.lossFit)) + " fit)");
    rows.emplace_back("Wall clock", fmt::fixed(r.wallClockSeconds / 86400.0, 1) + " days (ideal " +
                                        fmt::fixed(r.idealSeconds / 86400.0, 1) + ")");
    rows.emplace_back("Goodput", goodputText(r));
    rows.emplace_back("Checkpoints", checkpointText(r));
    rows.emplace_back("GPU-hours", fmt::fixed(r.gpuHours, 0) + " billed");
    rows.emplace_back("Cost", costText(r));
    rows.emplace_back("Energy",
                      r.boardPowerWatts > 0 ? fmt::fixed(r.energyMwh, 1) + " MWh" : "no board power");
    for (auto& row : rows)
        row.second = fmt::finiteText(std::move(row.second));
    return rows;
}

namespace {

std::string days(double seconds) {
    return fmt::fixed(seconds / 86400.0, 1) + " days";
}

std::string costDetail(const RunPlan& r) {
    return r.pricePerGpuHourUsd > 0 ? "at $" + fmt::fixed(r.pricePerGpuHourUsd, 2) + " per GPU-hour"
                                    : "no price per GPU-hour";
}

} // namespace

std::vector<RunCard> runCards(const Plan& p) {
    const RunPlan& r = p.run;
    const bool priced = r.pricePerGpuHourUsd > 0;
    std::vector<RunCard> cards = {
        {"run.tokens", "Tokens", fmt::count(r.tokens),
         fmt::fixed(r.tokensPerParameter, 0) + " per parameter (" + ruleWords(r) + ")"},
        {"run.tokens", "Compute-optimal for this compute",
         fmt::count(r.computeOptimal.parameters) + " parameters",
         fmt::count(r.computeOptimal.tokens) + " tokens (20 per parameter)"},
        {"run.wall_clock_days", "Wall clock", days(r.wallClockSeconds), "ideal " + days(r.idealSeconds)},
        {"run.gpu_hours", "GPU-hours", fmt::fixed(r.gpuHours, 0), "billed: GPUs x wall clock"},
        {"run.cost", "Cost", priced ? fmt::dollars(r.costUsd) : "no price", costDetail(r)},
        {"run.cost_per_million_tokens", "Cost per million tokens",
         priced ? fmt::dollars(r.costPerMillionTokensUsd) : "no price", ""},
        {"run.energy", "Energy",
         r.boardPowerWatts > 0 ? fmt::fixed(r.energyMwh, 1) + " MWh" : "no board power",
         fmt::fixed(r.boardPowerWatts, 0) + " W per GPU"},
        {"run.goodput", "Goodput", fmt::percent(r.goodput),
         fmt::fixed(r.interruptions, 0) + " interruptions over the run"},
        {"run.interruptions_per_day", "Interruptions per day", fmt::fixed(r.interruptionsPerDay, 2), ""},
        {"run.checkpoint_interval", "Checkpoint interval", fmt::wallClock(r.checkpointIntervalSeconds),
         fmt::percent(r.checkpointOverhead) + " of the time writing"},
        {"run.checkpoint_write", "Checkpoint write", fmt::duration(r.checkpointWriteSeconds),
         fmt::gb(r.checkpointBytes)},
        {"run.predicted_loss", "Predicted loss", fmt::fixed(r.predictedLoss, 3),
         std::string(toString(r.lossFit)) + " fit"},
    };
    for (RunCard& c : cards) {
        c.value = fmt::finiteText(std::move(c.value));
        c.detail = fmt::finiteText(std::move(c.detail));
    }
    return cards;
}

std::vector<KeyFigure> figureCards(const Scenario& s, const Plan& p, MemoryUnit unit) {
    std::vector<KeyFigure> cards = keyFigures(s, p, unit);
    for (const RunCard& c : runCards(p))
        cards.push_back({c.key, c.key, c.caption, {}, 0, c.value, c.detail});
    return cards;
}

GoodputSplit goodputSplit(const RunPlan& r) {
    GoodputSplit g;
    if (!std::isfinite(r.wallClockSeconds) || !(r.idealSeconds > 0))
        return g;
    g.idealDays = r.idealSeconds / 86400.0;
    g.checkpointDays = g.idealDays * r.checkpointOverhead;
    g.failureDays = std::max(0.0, r.wallClockSeconds / 86400.0 - g.idealDays - g.checkpointDays);
    return g;
}

double computeOptimalTokensForModel(const RunPlan& r) {
    return kComputeOptimalTokensPerParameter * r.scalingParameters;
}

std::vector<LossPoint> lossCurve(const RunPlan& r, int points) {
    const double optimal = computeOptimalTokensForModel(r);
    const double chosen = r.tokens > 0 ? r.tokens : optimal;
    if (!(optimal > 0) || !(r.scalingParameters > 0) || points < 2)
        return {};
    const double from = std::log10(std::min(chosen, optimal)) - 1.0;
    const double to = std::log10(std::max(chosen, optimal)) + 1.0;
    const ScalingFit& fit = scalingFit(r.lossFit);
    std::vector<LossPoint> curve;
    curve.reserve(static_cast<std::size_t>(points));
    for (int i = 0; i < points; ++i) {
        const double tokens = std::pow(10.0, from + (to - from) * i / (points - 1));
        curve.push_back({tokens, predictedLoss(fit, r.scalingParameters, tokens)});
    }
    return curve;
}

} // namespace lp::core::report
