#pragma once
// ASCII text helpers for matching what users type (ids, flags, log headers, free-text notes).
#include <string>
#include <string_view>

namespace lp::core {

// Case-insensitive equality over ASCII letters; other bytes compare as they are.
bool equalsIgnoreCase(std::string_view a, std::string_view b);
// The text with ASCII letters lower-cased.
std::string asciiLower(std::string_view s);

} // namespace lp::core
