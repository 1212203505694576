#pragma once
// How far to trust a throughput figure: how far the planner was off on the published runs that share the
// plan's GPU, framework style and precision, the parameters its estimates depend on (GroupSummary). The
// window's explanation of a throughput figure quotes it, so the number comes with its measured error band.
#include "core/measured/ValidationRun.h"
#include "core/model/Scenario.h"

#include <string>
#include <string_view>
#include <vector>

namespace lp::core {

// The fewest figures a group needs before its median is quoted as a verdict on the planner.
inline constexpr int kMinGroupFigures = 3;

// The group of a scenario as planned, or nullptr when none of the runs is like it.
const GroupSummary* validationGroupFor(const Scenario& s, const std::vector<GroupSummary>& groups);
// One sentence: the group's median error and which way the planner was off, or that no run is like it.
std::string trustSentence(const Scenario& s, const std::vector<GroupSummary>& groups);
// The explanation keys of the figures that follow from the predicted step time ("mfu", "time.step", ...).
bool isThroughputFigure(std::string_view explainKey);

} // namespace lp::core
