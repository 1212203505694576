#include "core/measured/ValidationFolder.h"

#include "core/measured/Validation.h"

#include <algorithm>
#include <cstdlib>
#include <iterator>
#include <system_error>

namespace lp::core {
namespace fs = std::filesystem;
namespace {

bool isFolder(const fs::path& p) {
    std::error_code ec;
    return fs::is_directory(p, ec);
}

std::optional<fs::path> upwards(fs::path start, const fs::path& relative) {
    for (int up = 0; up < 5 && !start.empty(); ++up) {
        if (isFolder(start / relative))
            return (start / relative).lexically_normal();
        if (!start.has_parent_path() || start.parent_path() == start)
            break;
        start = start.parent_path();
    }
    return std::nullopt;
}

} // namespace

std::optional<fs::path> findValidationFolder(const fs::path& executableDir) {
    if (const char* env = std::getenv("LP_VALIDATION_DIR"); env && *env && isFolder(env))
        return fs::path(env);
    if (!executableDir.empty()) {
        const fs::path installed = executableDir / ".." / "share" / "layout-planner" / "validation";
        if (isFolder(installed))
            return installed.lexically_normal();
        if (auto found = upwards(executableDir, "tests/data/validation"))
            return found;
    }
    std::error_code ec;
    const fs::path cwd = fs::current_path(ec);
    return ec ? std::nullopt : upwards(cwd, "tests/data/validation");
}

fs::path runningExecutableDir() {
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    return ec ? fs::path() : exe.parent_path();
}

std::vector<std::string> validationSetFiles(const fs::path& folder) {
    std::vector<std::string> out;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(folder, ec))
        if (entry.is_regular_file(ec) && entry.path().extension() == ".json")
            out.push_back(entry.path().string());
    std::ranges::sort(out);
    return out;
}

TrustData validateForTrust(const std::vector<std::string>& paths) {
    std::vector<ValidationCase> all;
    for (const std::string& path : paths) {
        InputErrors skipped;
        auto cases = loadValidationCases(path, &skipped);
        if (cases)
            all.insert(all.end(), std::make_move_iterator(cases->begin()),
                       std::make_move_iterator(cases->end()));
    }
    if (all.empty())
        return {};
    const ValidationReport report = runValidation(all, nullptr);
    return {report.groups, comparableFigures(all, report)};
}

TrustData validateBundledSets() {
    const auto folder = findValidationFolder(runningExecutableDir());
    return folder ? validateForTrust(validationSetFiles(*folder)) : TrustData{};
}

} // namespace lp::core
