#pragma once
// What the three launch-settings writers share: the scenario's name and layout as a comment says them, the
// steps the token budget takes, the launch command, the file's opening line and the notes on what a framework
// lacks.
#include "core/export/LaunchExport.h"
#include "core/model/Scenario.h"

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>

namespace lp::core::detail {

// The scenario name inside a comment or a quoted string: one line, no quotes or backslashes.
std::string plainName(std::string_view s);
// "TP 8 x PP 4 x CP 1 x DP 2 = 64 GPUs"
std::string layoutLine(const Scenario& s);
// Training steps for the token budget (0 when the budget or the step's tokens are unknown).
long long stepsForBudget(const Scenario& s);
// Launch hint: nodes x GPUs per node when the layout uses the whole cluster.
std::string launchHint(const Scenario& s);
// `line`, then (when `comment` is not empty) spaces up to `column` and "  # comment"; ends with a newline.
std::string withComment(std::string line, std::size_t column, const std::string& comment);

// A launch-settings file being written: it opens with the line that names the framework and the scenario,
// `# Megatron-LM arguments for "name", written by Layout Planner.`; the writers add their own lines.
class LaunchFile {
public:
    LaunchFile(const Scenario& s, LaunchTarget target, std::string fileName, std::string_view contents);
    void raw(const std::string& text) { m_settings.text += text; }
    // The written file, to which the caller adds its notes.
    LaunchSettings take() { return std::move(m_settings); }

private:
    LaunchSettings m_settings;
};

// What an exported framework lacks: 16-bit optimizer state where `fp32State` says how it keeps its state
// instead (null where the export sets it), training metrics computed from the logits (Composer's: the plan's
// passes over them are time the exported run will not spend), and JAX/MaxText remat policies (its selective
// recompute keeps other tensors than the plan's).
void noteWhatTheTargetLacks(LaunchSettings& out, const char* framework, const TrainingOptions& t,
                            const char* fp32State = nullptr);

// Why a plan with DeepSpeed's per-module ZeRO-3 gathers differs from what an FSDP2 trainer (`framework`)
// runs: one all-gather per layer.
std::string fsdp2GathersLayersNote(std::string_view framework);

} // namespace lp::core::detail
