#pragma once
// The run's figures in words, as every view prints them: tokens and their rule, predicted loss, wall clock,
// goodput, checkpoints, cost and energy (docs/estimation.md, "Run length, cost and goodput").
#include "core/estimate/KeyFigures.h"
#include "core/estimate/Plan.h"
#include "core/estimate/RunPlan.h"

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lp::core::report {

inline constexpr std::string_view kRunSection = "Run";

// (label, text) rows of a valid plan's run, in the order they are shown.
std::vector<std::pair<std::string, std::string>> runRows(const Plan& p);

// One figure of the run as a card shows it (the window's Run section): caption, value, a short detail
// line, and the explanation key that explains it.
struct RunCard {
    std::string key; // "run.tokens"
    std::string caption;
    std::string value;
    std::string detail;
};
std::vector<RunCard> runCards(const Plan& p);

// Every card the window shows for a plan, as the texts an explanation's value takes from
// (explanationValueText): the Plan tab's key figures (memory in `unit`), then the Run section's cards.
std::vector<KeyFigure> figureCards(const Scenario& s, const Plan& p, MemoryUnit unit);

// The run's wall clock split into the ideal time and what is lost (days): the goodput bar.
struct GoodputSplit {
    double idealDays = 0;
    double checkpointDays = 0; // writing checkpoints
    double failureDays = 0;    // work redone after failures and restarts
    double wallClockDays() const { return idealDays + checkpointDays + failureDays; }
};
GoodputSplit goodputSplit(const RunPlan& r);
inline constexpr std::string_view kIdealTimeLabel = "Ideal (no failures)";
inline constexpr std::string_view kCheckpointTimeLabel = "Writing checkpoints";
inline constexpr std::string_view kFailureTimeLabel = "Lost to failures";

// Predicted loss against tokens for the plan's model (same N), on a logarithmic token axis spanning the
// chosen budget and the compute-optimal tokens for this model with a decade of margin: the loss chart.
struct LossPoint {
    double tokens = 0;
    double loss = 0;
};
std::vector<LossPoint> lossCurve(const RunPlan& r, int points = 49);
// The compute-optimal tokens for this model: 20 x its (active) parameters (Hoffmann et al. 2022).
double computeOptimalTokensForModel(const RunPlan& r);

} // namespace lp::core::report
