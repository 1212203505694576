#pragma once
// How well the planner predicts the measured runs: each case planned (the settings it leaves open searched),
// every measured figure set against its prediction, and the errors summarised per metric and per group.
#include "core/estimate/Plan.h"
#include "core/measured/Validation.h"
#include "core/model/Hardware.h"

#include <optional>
#include <string>
#include <vector>

namespace lp::core {

struct ValidationRow {
    std::string caseId;
    std::string metric;
    double measured = 0;
    double predicted = 0;
    double relativeError = 0; // (predicted - measured) / measured
    int microBatch = 0;       // micro batch used
    // The first error of a layout the planner cannot build ("layers_not_divisible_by_pp"), empty when the
    // plan is valid. Such a row has no prediction (0) and counts as a 100% error in the summary.
    std::string invalidReason;
    std::vector<std::string> adjustments; // the case's (ValidationCase::adjustments)
};

struct MetricSummary {
    std::string metric;
    int count = 0;
    double medianAbsError = 0;
    double maxAbsError = 0;
};

// A measured run whose plan needs more memory than its GPUs have: it ran, so the memory model (or what the
// case leaves unstated) is off by at least the overflow.
struct OverCapacity {
    std::string caseId;
    double usedFraction = 0; // worst stage / capacity, > 1
};

// The throughput figures of the runs that share what the planner's parameters depend on: GPU type, framework
// style (as planned: "megatron" or "fsdp") and precision. A reader of one's own setup sees how far the
// planner was off on the published runs most like it, and in which direction.
struct GroupSummary {
    std::string gpu;
    std::string style;
    std::string precision;
    int count = 0;
    double medianAbsError = 0;
    // Median of the planned speed over the measured one, minus 1: +0.1 = planned 10% faster than the runs
    // went (iteration times counted inversely, so every metric points the same way).
    double medianSpeedError = 0;
    int beyond20 = 0; // figures off by more than 20%
};

struct ValidationReport {
    std::vector<ValidationRow> rows;
    std::vector<MetricSummary> summary; // per metric, plus "throughput" (all throughput metrics)
    std::vector<GroupSummary> groups;   // throughput figures by GPU, style and precision, largest group first
    int plannedCases = 0;               // cases with a valid plan
    std::vector<OverCapacity> overCapacity; // of those, the ones planned over capacity, in case order
};

// The share beyond capacity up to which a plan still counts as fitting a run that ran: the memory model's
// accuracy on the measured peaks (docs/estimation.md, section 12).
inline constexpr double kFitTolerance = 0.05;

bool isThroughputMetric(const std::string& metric);
// A throughput figure's error as speed: planned speed / measured speed - 1 (a time metric inverted).
double speedError(const ValidationRow& row);
// One sentence on how many planned runs fit their GPUs: "All 79 planned runs fit their GPUs' memory." or "3
// of 79 runs, which ran, plan over their GPUs' memory; 1 by more than the memory model's 5%."
std::string memoryFitSentence(const ValidationReport& report);
// The runs planned over capacity by more than kFitTolerance.
int beyondFitTolerance(const ValidationReport& report);
// Predicts one case's metric from a plan (nullopt for an unknown metric).
std::optional<double> predictedMetric(const std::string& metric, const Plan& plan);
// Scenario actually evaluated for a case (micro batch and recomputation resolved when not given).
Scenario resolveCase(const ValidationCase& c, const HardwareProfile* profile);
ValidationReport runValidation(const std::vector<ValidationCase>& cases, const HardwareProfile* profile);

} // namespace lp::core
