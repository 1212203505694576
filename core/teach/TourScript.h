#pragma once
// The guided tour as data (resources/teaching/tour.json, format in docs/teaching.md): each step names
// the scenario it shows as a JSON merge patch (RFC 7386) over the worked example's scenario file, the
// view it talks about, and the claims its text makes ("TP is 8", "the memory fits"), which the core
// checks against the evaluated Plan. Texts may quote live figures: {{plan:/mfu|percent}}.
// Qt-free: the window (ui/teach/Tour.h) and the tests use the same functions.
#include "core/estimate/Plan.h"
#include "core/io/Presets.h"
#include "core/io/ScenarioJson.h"
#include "core/model/Scenario.h"
#include "core/util/NumberFormat.h"

#include <expected>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lp::core {

inline constexpr const char* kTourSchema = "layout-planner/tour";
inline constexpr int kTourVersion = 1;

// One claim of a step, checked against the step's scenario file form (scenarioToJson), the Plan as
// JSON (planToJson, as `evaluate --json` prints it, plus "/derived": weights_bytes, bytes_per_parameter,
// worst_stage_bytes, recompute_share_of_compute) or the Plan's diagnostics.
struct TourCheck {
    enum class Source { Scenario, Plan, Diagnostic };
    std::string claim; // what the text claims, in words: "the memory fits"
    Source source = Source::Plan;
    std::string pointer;    // JSON pointer ("/memory/fits") or, for diagnostics, the id ("pipeline_bubble")
    std::string equalsJson; // the expected value as JSON text ("8", "true", "\"full\""); empty: none
    std::optional<double> min; // inclusive bounds for numbers
    std::optional<double> max;
    bool present = true; // diagnostics: whether the diagnostic must be present or absent
};

struct TourStep {
    std::string id; // stable, e.g. "tp8"
    std::string title;
    std::string text;      // rich text (HTML subset), may hold {{...}} figures
    std::string target;    // objectName of the widget to highlight ("memoryChart", "mfuGauge", ...)
    std::string explain;   // core explanation key to show beside it ("mfu"); may be empty
    std::string patchJson; // merge patch over the worked example's scenario ("{}" = unchanged)
    std::vector<TourCheck> checks;
};

struct TourScript {
    std::string title;
    std::vector<TourStep> steps;
};

// Reads a tour file; every problem is reported (JSON path and reason), including patches that do not
// produce a valid scenario file and checks with neither a value nor bounds.
std::expected<TourScript, InputErrors> tourFromJson(std::string_view text);

// `base` as a scenario file, with the merge patch applied, read back (so the patch is validated
// exactly like a scenario file).
std::expected<Scenario, InputErrors> applyScenarioPatch(const Scenario& base, std::string_view patchJson);
// The scenario a step shows: its patch over `base` (the worked example unless given).
std::expected<Scenario, InputErrors> scenarioForStep(const TourStep& step,
                                                     const Scenario& base = defaultScenario());

struct CheckResult {
    std::string claim;
    bool ok = false;
    std::string actual; // the value found, as JSON text ("8", "true", "0.382", "missing")
};
std::vector<CheckResult> checkStep(const TourStep& step, const Scenario& s, const Plan& p);
bool allChecksPass(const std::vector<CheckResult>& results);

// Replaces {{plan:/json/pointer|format}} and {{scenario:/json/pointer|format}} in `text` with the value
// found there, formatted: percent (0.382 -> "38.2 %"), memory (as the memory chart reads it, in `unit`:
// "48.7 GiB"), bytes (both units, `unit` first: "48.74 GiB (52.34 GB)"), gb and tb (decimal, for the
// arithmetic of bytes per parameter: "140 GB", "1.10 TB"), count ("68.98 B"), seconds ("4.817 s"), int
// ("64"), number (default, "%g"). Unknown pointers read "?".
std::string expandFigures(std::string_view text, const Scenario& s, const Plan& p,
                          MemoryUnit unit = MemoryUnit::GiB);

} // namespace lp::core
