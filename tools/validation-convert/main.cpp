// validation-convert: converts a validation-case file from @1 to @2 once, or checks a conversion
// (docs/formats.md, "Validation-case files").
//   validation-convert IN.json OUT.json        writes OUT as @2
//   validation-convert --check IN.json OUT.json  plans IN as the @1 reader did and OUT as core reads it, and
//                                                fails unless every prediction is the same to the last digit
#include "core/io/Files.h"
#include "core/measured/ValidationRun.h"
#include "tools/validation-convert/CaseConversion.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace {

using namespace lp::core;

std::string readOrExit(const std::string& path) {
    auto text = readTextFile(path);
    if (!text) {
        std::fprintf(stderr, "%s: %s\n", path.c_str(), text.error().c_str());
        std::exit(2);
    }
    return *text;
}

// Every prediction of a report, in its order: case, metric, value.
std::vector<std::tuple<std::string, std::string, double>> predictions(const ValidationReport& report) {
    std::vector<std::tuple<std::string, std::string, double>> out;
    for (const ValidationRow& row : report.rows)
        out.emplace_back(row.caseId, row.metric, row.predicted);
    return out;
}

int check(const std::string& version1, const std::string& version2) {
    const auto before = predictions(runValidation(lp::tools::readAsVersion1(readOrExit(version1)), nullptr));
    InputErrors skipped;
    const auto cases = validationCasesFromJson(readOrExit(version2), &skipped);
    if (!cases) {
        std::fprintf(stderr, "%s: not readable\n", version2.c_str());
        return 1;
    }
    const auto after = predictions(runValidation(*cases, nullptr));
    int differ = 0;
    for (std::size_t i = 0; i < std::max(before.size(), after.size()); ++i) {
        if (i < before.size() && i < after.size() && before[i] == after[i])
            continue;
        ++differ;
        const auto& row = i < before.size() ? before[i] : after[i];
        std::fprintf(stderr, "%s %s: %.17g before, %.17g after\n", std::get<0>(row).c_str(),
                     std::get<1>(row).c_str(), i < before.size() ? std::get<2>(before[i]) : 0.0,
                     i < after.size() ? std::get<2>(after[i]) : 0.0);
    }
    std::printf("%s: %zu predictions, %d differ from %s\n", version2.c_str(), after.size(), differ,
                version1.c_str());
    return differ == 0 ? 0 : 1;
}

} // namespace

int main(int argc, char** argv) {
    const std::vector<std::string> args(argv + 1, argv + argc);
    if (args.size() == 3 && args[0] == "--check")
        return check(args[1], args[2]);
    if (args.size() != 2) {
        std::fprintf(stderr,
                     "usage: validation-convert IN@1.json OUT@2.json | --check IN@1.json IN@2.json\n");
        return 2;
    }
    std::vector<std::string> problems;
    const std::string out = lp::tools::convertFile(readOrExit(args[0]), problems);
    for (const std::string& p : problems)
        std::fprintf(stderr, "%s\n", p.c_str());
    if (auto written = writeFileAtomically(args[1], out); !written) {
        std::fprintf(stderr, "%s: %s\n", args[1].c_str(), written.error().c_str());
        return 2;
    }
    return problems.empty() ? 0 : 1;
}
