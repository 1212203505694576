#pragma once
// The @1 reader as the converter keeps it, for the tests of its readings of a case's words: a file's cases
// as it planned them, what it derived from the words listed among each case's adjustments.
#include "TestHarness.h"
#include "core/ValidationCaseFixtures.h"
#include "core/measured/Validation.h"
#include "tools/validation-convert/CaseConversion.h"

#include <expected>
#include <string>
#include <vector>

namespace lp::tools::testing {

// The file's problems as core names them; else its cases as the @1 reader planned them.
inline std::expected<std::vector<core::ValidationCase>, core::InputErrors>
proseCasesFromJson(const std::string& text) {
    if (auto plain = core::validationCasesFromJson(text); !plain)
        return std::unexpected(plain.error());
    return readAsVersion1(text);
}

// A data-parallel case on `gpu` (dp GPUs, 8 per node, ZeRO 3) whose notes are `notes`, as the @1 reader
// planned it.
inline core::ValidationCase caseWithNotes(const std::string& gpu, const std::string& notes, int dp = 16) {
    const std::string j =
        core::fixtures::replaced(core::fixtures::overlapCase(gpu, 1, 1, 1, dp, 3, false), R"("id": "x",)",
                                 R"("id": "x", "notes": ")" + notes + R"(",)");
    const auto r = proseCasesFromJson(j);
    LP_CHECK(r.has_value() && r->size() == 1);
    return r && !r->empty() ? r->front() : core::ValidationCase{};
}

// The network per GPU such a case is planned on.
inline double networkPerGpu(const std::string& gpu, const std::string& notes, int dp = 16) {
    return caseWithNotes(gpu, notes, dp).scenario.cluster.gpu.networkBandwidth;
}

} // namespace lp::tools::testing
