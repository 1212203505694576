#pragma once
// Measured runs (issue 6): step times read from a training run, warmup detected and dropped, the
// steady state summarised and set against the plan's prediction, with plain-language verdicts.
//
// Inputs: CSV (a header naming the columns, or bare rows of numbers), Megatron-LM log lines
// ("iteration N/ M | ... elapsed time per iteration (ms): X | ..."), torchtitan log lines
// ("step: N  loss: ...  memory: ...  tps: ...  tflops: ...  mfu: ...%"), or pasted numbers.
// Parsing never gives up on one bad line: lines that look like step records but cannot be read
// become warnings with their line number. Formats and the warmup rule: docs/reports.md.
#include "core/estimate/Plan.h"
#include "core/io/ScenarioJson.h"
#include "core/model/Scenario.h"

#include <nlohmann/json_fwd.hpp>

#include <expected>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lp::core {

enum class RunLogFormat { Auto, Csv, Megatron, Torchtitan, Numbers };
std::string_view toString(RunLogFormat f);    // "auto", "csv", "megatron", "torchtitan", "numbers"
std::string_view displayName(RunLogFormat f); // "CSV", "Megatron-LM log", ...
std::optional<RunLogFormat> parseRunLogFormat(std::string_view s);

inline constexpr double kNoValue = std::numeric_limits<double>::quiet_NaN();

// One record of the log: a step, or the average over the steps since the previous record
// (Megatron-LM and torchtitan log every N steps).
struct StepSample {
    long long step = 0;                      // training step (iteration) the record ends at
    long long stepsCovered = 1;              // steps it averages over (step - previous step; 1 for the first)
    double stepSeconds = kNoValue;           // seconds per step; NaN when the log gives only throughput
    double tokensPerSecondPerGpu = kNoValue; // torchtitan "tps"
    double loggedMfu = kNoValue;             // the framework's own MFU, as a fraction
    double loggedTflopsPerGpu = kNoValue;    // the framework's own TFLOP/s per GPU
    long long globalBatch = 0;               // Megatron-LM "global batch size"; 0 when not logged
    int line = 0;                            // 1-based line in the input
};

struct LogWarning {
    int line = 0; // 1-based; 0 for the whole input
    std::string message;
};

struct RunLog {
    RunLogFormat format = RunLogFormat::Auto; // the format read (never Auto after parsing)
    std::vector<StepSample> samples;          // in input order
    std::vector<LogWarning> warnings;
    int lines = 0;        // lines in the input
    std::string unitNote; // how bare numbers were read ("milliseconds: ...")
};

enum class NumberUnit { Auto, Seconds, Milliseconds };
struct RunLogOptions {
    RunLogFormat format = RunLogFormat::Auto;
    // Bare numbers (pasted, or CSV columns without a unit): Auto reads them as milliseconds when
    // their median is above 100 (steps of more than 100 s are rare), seconds otherwise.
    NumberUnit unit = NumberUnit::Auto;
};

// An error (InputError) only when nothing usable is found: an empty input, or no step records.
std::expected<RunLog, InputError> parseRunLog(std::string_view text, const RunLogOptions& options = {});
std::expected<RunLog, InputError> loadRunLog(const std::string& path, const RunLogOptions& options = {});

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
    std::vector<Verdict> verdicts;
};

RunAnalysis analyzeRun(const RunLog& log, const RunAnalysisOptions& options = {});
// With the scenario the run used and its plan: tokens/s, MFU and the comparison.
RunAnalysis analyzeRun(const RunLog& log, const Scenario& s, const Plan& plan,
                       const RunAnalysisOptions& options = {});

inline constexpr const char* kRunAnalysisSchema = "layout-planner/run-analysis";
inline constexpr int kRunAnalysisVersion = 1;
nlohmann::json runAnalysisToJson(const RunAnalysis& a, const RunLog& log);
// A short plain-text summary (the command line's output, the window's verdict text).
std::string runAnalysisText(const RunAnalysis& a);

} // namespace lp::core
