#pragma once
// Whole files in and out: a size-limited read that refuses directories, and an atomic write.
#include <expected>
#include <string>
#include <string_view>

namespace lp::core {

// The file's text, or why it cannot be read (missing, a directory, over the 64 MiB input limit).
std::expected<std::string, std::string> readTextFile(const std::string& path);
// Writes a temporary file beside the target and renames it over; the old file survives a failure.
std::expected<void, std::string> writeFileAtomically(const std::string& path, std::string_view content);

} // namespace lp::core
