#pragma once
// Shared by the commands that evaluate a scenario: the hardware profile it is evaluated with, the output file
// (-o FILE, or standard output), the layout check and the explanations as JSON.
#include "app/cli/CliError.h"
#include "app/cli/ScenarioFlags.h"
#include "core/estimate/Plan.h"
#include "core/model/Hardware.h"
#include "core/model/Scenario.h"

#include <nlohmann/json.hpp>

#include <expected>
#include <optional>
#include <string>

namespace lp::cli {

struct Evaluated {
    core::HardwareProfile profile;
    core::Plan plan;
};
// With --profile FILE (a warning when it describes another GPU) or the GPU's built-in profile.
std::expected<Evaluated, CliError> evaluateScenario(const core::Scenario& s,
                                                    const std::optional<std::string>& profileFile);

// A command's scenario (the file and flags), evaluated, for a command that writes something of a valid layout
// only: an invalid one is refused as "invalid layout (IDS); <refusal>" (refusal: "nothing exported").
struct EvaluatedScenario {
    core::Scenario scenario;
    core::HardwareProfile profile;
    core::Plan plan;
};
std::expected<EvaluatedScenario, CliError>
evaluateValidScenario(const std::optional<std::string>& file, const ScenarioOverrides& overrides,
                      const std::optional<std::string>& profileFile, const std::string& refusal);

// Writes to FILE as core::writeFileAtomically does, or to standard output when `output` is empty or "-". A
// failed write is exit code 1. Says "wrote FILE" on standard error after a file write.
std::expected<void, CliError> writeOutput(const std::optional<std::string>& output, const std::string& text);

// "heads_not_divisible_by_tp, gpu_count_mismatch" for an invalid plan; empty when it is valid.
std::string invalidLayoutIds(const core::Plan& p);

// explainPlan(s, plan) as a JSON array (evaluate --explain --json, validate --case ID --explain --json).
nlohmann::json explanationsJson(const core::Scenario& s, const core::Plan& plan);

// Reads "-o FILE" / "--output FILE" into `output`; true when it took the flag.
std::expected<bool, CliError> takeOutputFlag(ArgCursor& args, std::optional<std::string>& output);

} // namespace lp::cli
