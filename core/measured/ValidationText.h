#pragma once
// The words and formats of the validation figures (ValidationReport) as the window shows them: metric names
// and units, errors, the targets the reference set is held to, the summary lines, the group furthest off, and
// what the planner assumed for a case. The figures themselves come from runValidation.
#include "core/measured/ValidationRun.h"

#include <string>
#include <vector>

namespace lp::core {

// The metrics the validation-cases format knows, in the order tables and charts list them.
const std::vector<std::string>& knownMetrics();
// The position of a metric in knownMetrics(), -1 for one this version does not know.
int metricRank(const std::string& metric);
// "Iteration time", "Model TFLOP/s per GPU", ...; "All throughput metrics" for "throughput".
std::string metricName(const std::string& metric);
// The short name a table column has room for: "HW TFLOP/s", "Tokens/s"; else metricName().
std::string metricShortName(const std::string& metric);
// "s", "TFLOP/s", "%", "tokens/s", "GiB"; empty for an unknown metric.
std::string metricUnit(const std::string& metric);
// A value with its unit ("1.23 s", "41.2%", "3,012 tokens/s"); "–" for no value.
std::string metricValueText(const std::string& metric, double value);

// "32 × A100 SXM 80 GB": the GPU count and the GPU's name without its maker.
std::string gpusText(const Scenario& s);
// "TP8 · PP35 · DP1 · VPP3 · mb12*": TP, PP and DP, the other sizes above 1, and the micro batch (* when the
// case does not state it and the fastest that fits was planned).
std::string layoutText(const Scenario& s, int microBatch, bool microBatchGiven);

// An absolute error as a percentage: 0.042 -> "4.2%".
std::string errorText(double fraction);
// A signed error: 0.042 -> "+4.2%", -0.105 -> "−10.5%" (a minus sign); "–" when not finite.
std::string signedErrorText(double relativeError);
// Whether the planner predicted the row (a valid layout with a positive, finite figure).
bool hasPrediction(const ValidationRow& row);

// How good an error is: within 10% good, up to 20% fair, beyond (or unknown) bad.
enum class ErrorBand { Good, Fair, Bad };
inline constexpr double kGoodError = 0.10;
inline constexpr double kFairError = 0.20;
ErrorBand errorBand(double relativeError);

// The bounds the reference set is held to (test_validation): throughput metrics a median of at most 5% and
// no figure beyond 20%; peak memory every figure within 10%.
struct ErrorTarget {
    double median = 0;
    double max = 0;
};
ErrorTarget errorTarget(const std::string& metric);
// The one line that says so, under the window's summary.
std::string targetsSentence();

// The summary in reading order: "throughput" first, then knownMetrics(), then any other metric.
std::vector<const MetricSummary*> orderedSummary(const ValidationReport& report);
// "iteration_time_s: median 5.5%, max 33.5%, 59 values".
std::string summaryLine(const MetricSummary& summary);

// The group (of kMinGroupFigures figures or more) whose planned speed is furthest from the measured one.
const GroupSummary* furthestOffGroup(const std::vector<GroupSummary>& groups);
// "4 groups; furthest off: h100-sxm-80gb fsdp bf16, planned 12.3% fast", or "4 groups".
std::string groupsSummary(const std::vector<GroupSummary>& groups);

// What the case does not record and the planner assumed or inferred for it ("megatron style", "flash
// attention", "no dropout", ...) (docs/estimation.md, "Reading the validation cases").
std::vector<std::string> plannedWith(const ValidationCase& c);

} // namespace lp::core
