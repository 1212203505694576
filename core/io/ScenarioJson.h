#pragma once
// Scenario and hardware-profile files (JSON, documented in docs/formats.md).
#include "core/model/Hardware.h"
#include "core/model/Scenario.h"

#include <expected>
#include <string>
#include <string_view>
#include <vector>

namespace lp::core {

inline constexpr const char* kScenarioSchema = "layout-planner/scenario";
inline constexpr int kScenarioVersion = 1;
inline constexpr const char* kProfileSchema = "layout-planner/hardware-profile";
inline constexpr int kProfileVersion = 1;

// One problem found in an input: where (a JSON path like "model.heads", or the file) and why.
struct InputError {
    std::string path;   // "$.model.heads"; empty for whole-file problems
    std::string reason; // "must be a positive integer, got -3"
    int line = 0;       // 1-based, for parse errors
    int column = 0;
    std::string message() const; // "$.model.heads: must be a positive integer, got -3"
};
using InputErrors = std::vector<InputError>;

std::expected<Scenario, InputErrors> scenarioFromJson(std::string_view text);
std::string scenarioToJson(const Scenario& s); // pretty-printed, every field spelled out
std::expected<Scenario, InputErrors> loadScenarioFile(const std::string& path);
// Atomic: writes a temporary file beside the target and renames it over; the old file survives failure.
std::expected<void, std::string> saveScenarioFile(const std::string& path, const Scenario& s);

std::expected<HardwareProfile, InputErrors> profileFromJson(std::string_view text);
std::string profileToJson(const HardwareProfile& p);
std::expected<HardwareProfile, InputErrors> loadProfileFile(const std::string& path);
std::expected<void, std::string> saveProfileFile(const std::string& path, const HardwareProfile& p);

// Shared helpers for files.
std::expected<std::string, std::string> readTextFile(const std::string& path);
std::expected<void, std::string> writeFileAtomically(const std::string& path, std::string_view content);

} // namespace lp::core
