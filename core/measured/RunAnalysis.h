#pragma once
// A measured run's steady state: warmup detected and dropped, the step times summarised and set against the
// plan's prediction, with plain-language verdicts. The warmup rule: docs/reports.md.
#include "core/estimate/Plan.h"
#include "core/measured/RunLog.h"
#include "core/model/Scenario.h"

#include <nlohmann/json_fwd.hpp>

#include <optional>
#include <string>
#include <vector>

namespace lp::core {

// The automatic warmup rule, on time-like values (seconds per step; larger is slower). Returns the
// number of leading samples to drop. With fewer than 6 samples it drops none. Otherwise:
//   ref = median of the second half of the samples, spread = 1.4826 x their median absolute
//   deviation, tolerance = max(3 x spread, 5% of ref); warmup ends at the first sample that starts a
//   run of 3 consecutive samples within ref +- tolerance, and is at most half of the samples.
int detectWarmup(const std::vector<double>& timeLike);

// What the analysis measures: step time, or (torchtitan without a scenario) throughput per GPU.
enum class SeriesKind { StepSeconds, TokensPerSecondPerGpu };

struct Verdict {
    Severity severity = Severity::Info;
    std::string id;   // stable: "mfu_below_20", "much_slower_than_predicted", ...
    std::string text; // plain language
};

struct RunAnalysisOptions {
    std::optional<int> warmupSamples; // manual override: drop exactly this many leading samples
};

struct RunAnalysis {
    RunLogFormat format = RunLogFormat::Auto;
    SeriesKind kind = SeriesKind::StepSeconds;
    std::vector<long long> steps; // per sample
    std::vector<double> series;   // per sample, in the kind's unit (seconds, or tokens/s per GPU)
    int samples = 0;
    int detectedWarmup = 0; // by detectWarmup()
    int warmup = 0;         // dropped (the override when given)
    bool warmupOverridden = false;
    double warmupPeakRatio = kNoValue; // slowest warmup sample / steady median (time-like)

    // Steady state (after the warmup), in the series' unit.
    int steadySamples = 0;
    double mean = kNoValue, median = kNoValue, stddev = kNoValue, p10 = kNoValue, p90 = kNoValue;
    double min = kNoValue, max = kNoValue;
    double meanAll = kNoValue; // every sample, warmup included

    // Derived (NaN when unknown).
    double stepSeconds = kNoValue;     // steady mean step time
    double tokensPerSecond = kNoValue; // whole job
    double tokensPerSecondPerGpu = kNoValue;
    double mfu = kNoValue; // with the plan's FLOP count
    double hfu = kNoValue;
    double loggedMfu = kNoValue;          // the framework's own, steady mean
    double loggedTflopsPerGpu = kNoValue; // the framework's own, steady mean

    // The plan compared with (when a scenario was given).
    bool hasPlan = false;
    double predictedStepSeconds = kNoValue;
    double predictedMfu = kNoValue;
    double predictedTokensPerSecond = kNoValue;
    double ratio = kNoValue; // measured / predicted step time

    // The log's layout and peak memory, set against the scenario's layout and the plan's memory.
    LoggedLayout loggedLayout;
    LoggedMemory loggedMemory;
    long long plannedGpus = 0; // the scenario's; 0 without one
    int plannedTp = 0, plannedPp = 0;
    int memoryStage = -1;                   // the plan's stage the log's memory line is compared with
    double predictedMemoryBytes = kNoValue; // that stage's total
    std::vector<Verdict> verdicts;
};

RunAnalysis analyzeRun(const RunLog& log, const RunAnalysisOptions& options = {});
// With the scenario the run used and its plan: tokens/s, MFU and the comparison.
RunAnalysis analyzeRun(const RunLog& log, const Scenario& s, const Plan& plan,
                       const RunAnalysisOptions& options = {});

inline constexpr const char* kRunAnalysisSchema = "layout-planner/run-analysis";
inline constexpr int kRunAnalysisVersion = 1;
nlohmann::json runAnalysisToJson(const RunAnalysis& a, const RunLog& log);
// The measured figures as plain text, one per line (the window's figures column).
std::string runFiguresText(const RunAnalysis& a);
// A short plain-text summary: the figures, then the verdicts (the command line's output).
std::string runAnalysisText(const RunAnalysis& a);

} // namespace lp::core
