#pragma once
// The run's figures in words, as every view prints them: tokens and their rule, predicted loss, wall clock,
// goodput, checkpoints, cost and energy (docs/estimation.md, "Run length, cost and goodput").
#include "core/estimate/Plan.h"

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lp::core::report {

inline constexpr std::string_view kRunSection = "Run";

// (label, text) rows of a valid plan's run, in the order they are shown.
std::vector<std::pair<std::string, std::string>> runRows(const Plan& p);

} // namespace lp::core::report
