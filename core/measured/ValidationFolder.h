#pragma once
// The folder of published-run sets that come with the program and the validation of all of them, done once
// for the trust bands (TrustBand.h) and the groups a throughput figure's explanation quotes
// (ValidationTrust.h). The command line finds the folder here; the window lists the same files by name
// (ui/document/ValidationSets.h) and hands their paths to validateForTrust.
#include "core/measured/TrustBand.h"
#include "core/measured/ValidationRun.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace lp::core {

// The first folder that exists of: $LP_VALIDATION_DIR; <executable's folder>/../share/layout-planner/
// validation (an installed package); tests/data/validation in the executable's folder or up to four folders
// above it, then the same from the working folder (a build tree inside a checkout).
std::optional<std::filesystem::path> findValidationFolder(const std::filesystem::path& executableDir);
// The folder of the running executable (/proc/self/exe); empty when it cannot be told.
std::filesystem::path runningExecutableDir();
// The *.json files of a folder, in name order.
std::vector<std::string> validationSetFiles(const std::filesystem::path& folder);

// Every set validated once: the groups by GPU, style and precision, and every throughput figure with what
// makes runs comparable.
struct TrustData {
    std::vector<GroupSummary> groups;
    std::vector<ComparableFigure> figures;
};
// Reads and validates every file; a case that cannot be read (or a file that is no validation set) is left
// out, as in the Validate tab.
TrustData validateForTrust(const std::vector<std::string>& paths);
// validateForTrust of the files of findValidationFolder(runningExecutableDir()); empty when none is found.
TrustData validateBundledSets();

} // namespace lp::core
