#pragma once
// Scenario files (layout-planner/scenario, JSON, documented in docs/formats.md).
#include "core/io/InputError.h"
#include "core/model/Scenario.h"

#include <expected>
#include <string>
#include <string_view>

namespace lp::core {

inline constexpr const char* kScenarioSchema = "layout-planner/scenario";
inline constexpr int kScenarioVersion = 1;

std::expected<Scenario, InputErrors> scenarioFromJson(std::string_view text);
std::string scenarioToJson(const Scenario& s); // pretty-printed, every field spelled out
std::expected<Scenario, InputErrors> loadScenarioFile(const std::string& path);
// Atomic: writes a temporary file beside the target and renames it over; the old file survives failure.
std::expected<void, std::string> saveScenarioFile(const std::string& path, const Scenario& s);

} // namespace lp::core
