#pragma once
// Measured training runs (layout-planner/validation-cases@1) and how well the planner predicts them.
#include "core/estimate/Plan.h"
#include "core/io/InputError.h"
#include "core/model/Hardware.h"
#include "core/model/Scenario.h"

#include <expected>
#include <optional>
#include <string>
#include <vector>

namespace lp::core {

struct MeasuredValue {
    std::string metric; // iteration_time_s, model_tflops_per_gpu, hardware_tflops_per_gpu, mfu, hfu,
                        // tokens_per_s_per_gpu, peak_memory_gib
    double value = 0;
};

struct ValidationCase {
    std::string id;
    std::string source;
    std::string confidence;
    std::string notes;
    Scenario scenario;
    bool microBatchGiven = true; // false: pick the fastest micro batch that fits
    bool recomputeGiven = true;  // false: pick the fastest recomputation that fits
    bool vppGiven = true;        // false (a pipeline): pick the fastest interleaving that fits
    long long globalBatch = 0;
    std::vector<MeasuredValue> measured;
    // What the reader changed so that the case can be planned, in words ("global_batch 7 is not a multiple
    // of micro_batch x dp (8): planned with 8 sequences per step"); empty for a case planned as written.
    std::vector<std::string> adjustments;
    // The built-in model preset whose attention and layer details the case's shape matched and took (head
    // size, MLA, norm, biases: what the format has no field for); empty when none changed the model.
    std::string architectureFrom;
};

// Without `skipped`, any problem refuses the file. With it, a case that cannot be read is left out and its
// problems (each naming its case, "$.cases[3].layout.tp: ...") go to *skipped; the file is refused only when
// no case can be read (or it is no validation-cases file).
std::expected<std::vector<ValidationCase>, InputErrors>
validationCasesFromJson(std::string_view text, InputErrors* skipped = nullptr);
std::expected<std::vector<ValidationCase>, InputErrors> loadValidationCases(const std::string& path,
                                                                            InputErrors* skipped = nullptr);

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
