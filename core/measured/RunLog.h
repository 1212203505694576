#pragma once
// Measured runs: step times read from a training run's log (their analysis: core/measured/RunAnalysis.h).
//
// Inputs: CSV (a header naming the columns, or bare rows of numbers), Megatron-LM log lines
// ("iteration N/ M | ... elapsed time per iteration (ms): X | ..."), torchtitan log lines
// ("step: N  loss: ...  memory: ...  tps: ...  tflops: ...  mfu: ...%"), or pasted numbers.
// Parsing never gives up on one bad line: lines that look like step records but cannot be read
// become warnings with their line number. Formats: docs/reports.md.
#include "core/io/ScenarioJson.h"

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

// The job's layout as the log states it (Megatron-LM prints its arguments at start); 0 when not logged.
struct LoggedLayout {
    long long worldSize = 0; // "world_size" / "using world size: N"
    int tp = 0;              // "tensor_model_parallel_size"
    int pp = 0;              // "pipeline_model_parallel_size"
    long long globalBatch = 0;
};

// The peak of the log's memory lines, in bytes (NaN when not logged): Megatron-LM's "[Rank R] (after N
// iterations) memory (MB) | allocated: ... | max allocated: ... | reserved: ... | max reserved: ...",
// torchtitan's "memory: X GiB(Y%)" (its max reserved on rank 0).
struct LoggedMemory {
    double maxAllocatedBytes = kNoValue;
    double maxReservedBytes = kNoValue;
    int rank = -1; // the rank of the line with the highest max reserved; -1 when not said
    int line = 0;  // that line (1-based); 0 when no memory line
};

struct RunLog {
    RunLogFormat format = RunLogFormat::Auto; // the format read (never Auto after parsing)
    std::vector<StepSample> samples;          // in input order
    LoggedLayout layout;
    LoggedMemory memory;
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

} // namespace lp::core
