#pragma once
// The figures of a plan as words and tables: worded once here, shown by the reports (HTML, Markdown) and by
// the command line's text, so that both always say the same. Plain (unescaped) text; each renderer lays it
// out and escapes it.
#include "core/estimate/Plan.h"
#include "core/estimate/Timeline.h"
#include "core/model/Scenario.h"

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lp::core::report {

using KeyValues = std::vector<std::pair<std::string, std::string>>;

struct Table {
    std::vector<std::string> headers;
    std::vector<bool> numeric; // right-aligned columns
    std::vector<std::vector<std::string>> rows;
    int emphasizedRow = -1; // the worst stage, the step's total: drawn bold
};

struct DiagnosticView {
    std::string severity; // "error", "warning", "info"
    std::string id;
    std::string message;
    std::string suggestion;
    std::string cost; // "736.5 ms per step", or empty
};

// Section titles.
inline constexpr std::string_view kMemorySection = "Memory per GPU, by pipeline stage";
inline constexpr std::string_view kNumberFormatsSection = "Number formats";
inline constexpr std::string_view kTimeSection = "Time per step";
inline constexpr std::string_view kUtilisationSection = "Utilisation and throughput";
inline constexpr std::string_view kDiagnosticsSection = "Diagnostics";

bool isInvalid(const Plan& p); // not valid, or any error diagnostic
std::string
statusLine(const Plan& p); // "Fits: the worst stage needs 52.34 GB (48.74 GiB) of ..." /
                           // "Does not fit: ..." / "Invalid layout: this layout cannot run (ids)."

// The scenario in a few lines.
std::string parametersText(const Scenario& s, const Plan& p); // "671.03 B parameters, 37.55 B active"
std::string clusterLine(const ClusterSpec& c); // "8 x DGX H100: 8 nodes x 8 NVIDIA H100 SXM 80 GB = 64 GPUs"
// "TP 8 x PP 4 x DP 2 = 64 GPUs", with CP when used and, in parentheses, virtual stages, EP, expert TP and
// a pipeline split that counts the embedding and the loss.
std::string layoutLine(const Scenario& s);
std::string effectiveBatchLine(const Layout& l); // "micro batch 2 x accumulation 16 x DP 2 = 64 sequences"
// "hybrid sharding over 8 DP ranks x 4 replicas" when the ZeRO state is sharded within groups, else empty.
std::string hybridShardingText(const Scenario& s);
std::string trainingStateText(const Plan& p); // "1.10 TB (1.00 TiB), whole model, unsharded"

// Memory.
Table memoryTable(const Plan& p); // per stage, in GiB with the totals also in GB; the worst stage marked
KeyValues memoryFitFacts(const Plan& p); // capacity, headroom (or the overflow) and whether it fits
// Which tensors the run keeps in which number format (core/estimate/Precision.h): Tensor, Format, Bytes per
// value, Note.
Table numberFormatTable(const Scenario& s);
// "FP8 weight copies ... and scaling state ... on the worst stage ..."; empty unless fp8 adds memory.
std::string fp8ExtrasLine(const Plan& p);

// Time.
Table timeTable(const Plan& p);        // per component, then the step
std::string bubbleLine(const Plan& p); // "Pipeline bubble: 18.5 % of the ideal pipeline time."
// The timeline's one sentence: timelineSummary, as the window heads its lanes.
std::string timelineLine(const Timeline& tl);
inline constexpr std::string_view kTimelineSection = "Pipeline timeline";

// Utilisation and throughput.
std::string mfuText(const Plan& p);             // "37.8 % (HFU 37.8 %, 6ND yardstick 35.2 %)"
std::string tflopsPerGpuText(const Plan& p);    // "373.9 model, 373.9 hardware (peak 989)"
std::string tokensPerSecondText(const Plan& p); // "53,841 (841.3 per GPU)"
std::string tokenBudgetText(const Scenario& s,
                            const Plan& p); // "2.00 T tokens: 429.9 days, 660,381 GPU-hours"

std::vector<DiagnosticView> diagnosticViews(const Plan& p); // errors first, then warnings, then info

} // namespace lp::core::report
