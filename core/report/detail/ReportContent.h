#pragma once
// What a report says, as plain (unescaped) text in tables and key-value lists, shared by the HTML
// and the Markdown renderers so that both always show the same figures. Internal to the report code.
#include "core/report/Report.h"

#include <string>
#include <utility>
#include <vector>

namespace lp::core::report {

using KeyValues = std::vector<std::pair<std::string, std::string>>;

struct Table {
    std::vector<std::string> headers;
    std::vector<bool> numeric; // right-aligned columns
    std::vector<std::vector<std::string>> rows;
    int emphasizedRow = -1; // the worst stage, drawn bold
};

struct DiagnosticView {
    std::string severity; // "error", "warning", "info"
    std::string id;
    std::string message;
    std::string suggestion;
    std::string cost; // "736.5 ms per step", or empty
};

bool isInvalid(const Plan& p);         // not valid, or any error diagnostic
std::string statusLine(const Plan& p); // "Fits: 47.77 GB (44.49 GiB) of 80.00 GB ..." / "Does not fit ..." /
                                       // "Invalid layout ..."

KeyValues summaryFigures(const ReportInput& r);
KeyValues modelFacts(const Scenario& s, const Plan& p);
KeyValues clusterFacts(const Scenario& s);
KeyValues trainingFacts(const Scenario& s, const Plan& p);
KeyValues layoutFacts(const Scenario& s, const Plan& p);
Table memoryTable(const Plan& p);
KeyValues memoryFacts(const Plan& p);
// Which tensors the run keeps in which number format (core/estimate/Precision.h): Tensor, Format, Bytes,
// Note.
Table numberFormatTable(const Scenario& s);
// "FP8 weight copies ... and scaling state ... on the worst stage ..."; empty unless fp8 adds memory.
std::string fp8ExtrasLine(const Plan& p);
Table timeTable(const Plan& p);
KeyValues utilisationFacts(const Scenario& s, const Plan& p);
KeyValues profileFacts(const ReportInput& r);
std::vector<DiagnosticView> diagnosticViews(const Plan& p); // errors first, then warnings, then info

} // namespace lp::core::report
