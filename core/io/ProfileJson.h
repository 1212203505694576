#pragma once
// Hardware-profile files (layout-planner/hardware-profile, JSON, documented in docs/formats.md).
#include "core/io/InputError.h"
#include "core/model/Hardware.h"

#include <expected>
#include <string>
#include <string_view>

namespace lp::core {

inline constexpr const char* kProfileSchema = "layout-planner/hardware-profile";
inline constexpr int kProfileVersion = 1;

std::expected<HardwareProfile, InputErrors> profileFromJson(std::string_view text);
std::string profileToJson(const HardwareProfile& p);
std::expected<HardwareProfile, InputErrors> loadProfileFile(const std::string& path);
// Atomic, as saveScenarioFile.
std::expected<void, std::string> saveProfileFile(const std::string& path, const HardwareProfile& p);

} // namespace lp::core
