// `layout-planner-cli evaluate [SCENARIO.json] [flags] [--json] [--explain] [--profile PROFILE.json]`
#include "app/cli/Commands.h"
#include "app/cli/InteropCommon.h"
#include "app/cli/PlanText.h"
#include "app/cli/ScenarioFlags.h"
#include "core/estimate/Evaluate.h"
#include "core/estimate/Explain.h"
#include "core/estimate/PlanJson.h"
#include "core/measured/TrustBand.h"
#include "core/measured/ValidationFolder.h"
#include "core/report/Report.h"

#include <nlohmann/json.hpp>

#include <iostream>

namespace lp::cli {
namespace {

// The plan's trust band from every bundled validation set (about 0.2 s: only evaluate pays it).
core::TrustBand trustBandOf(const core::Scenario& s, const core::Plan& plan) {
    return core::trustBand(s, plan, core::validateBundledSets().figures);
}

} // namespace

std::string evaluateHelp() {
    return "Usage: layout-planner-cli evaluate [SCENARIO.json] [FLAGS] [--json] [--explain] [--profile "
           "PROFILE.json]\n\nEvaluates a scenario: memory per GPU and pipeline stage, the step-time "
           "breakdown, MFU/HFU,\nthroughput, time and GPU-hours for the token budget, and diagnostics. "
           "Without a file it starts\nfrom the default scenario (Llama-2-70B on 8 x 8 H100, TP 8 x PP 4 x DP "
           "2). Flags override it.\nWhen --nodes, --gpus-per-node or --cluster change the GPU count and --dp "
           "is not given, dp\nbecomes gpus / (tp x pp x cp) where that divides.\n\nOptions:\n  --json        "
           "              print the plan as JSON (docs/cli.md lists its keys)\n  --explain                   "
           "add every figure's formula, the values substituted and the source\n  --profile FILE              "
           "use a hardware profile file instead of the GPU's built-in one\n  -h, --help                  "
           "this help\n\nScenario flags:\n" +
           scenarioFlagsHelp() +
           "\nAn invalid layout (any error diagnostic) prints its diagnostics and exits 2; with --json "
           "it\nprints the plan with \"valid\": false. A valid layout that does not fit exits 0 (fits: "
           "false).\n\n" +
           exitCodesHelp();
}

int runEvaluate(const Args& argv) {
    const bool jsonOut = hasSwitch(argv, "--json");
    bool explain = false;
    const auto input =
        readScenario("evaluate", argv, true, [&](ArgCursor& args) -> std::expected<bool, CliError> {
            if (args.peekName() != "--explain")
                return false;
            if (auto r = args.takeSwitch(); !r)
                return std::unexpected(r.error());
            explain = true;
            return true;
        });
    if (!input)
        return reportError(input.error(), jsonOut);
    const core::Scenario& s = input->scenario;
    auto evaluated = evaluateScenario(s, input->args.profileFile);
    if (!evaluated)
        return reportError(evaluated.error(), jsonOut);
    const core::Plan& plan = evaluated->plan;
    const std::string invalidIds = invalidLayoutIds(plan);
    const bool invalid = !invalidIds.empty();

    if (jsonOut) {
        nlohmann::json j = core::planToJson(s, plan);
        j["valid"] = !invalid;
        if (explain && !invalid)
            j["explanations"] = explanationsJson(s, plan);
        if (!invalid)
            core::addTrustJson(j, core::reportTrust(trustBandOf(s, plan)));
        core::sanitizeNonFinite(j);
        std::cout << j.dump(2) << '\n';
    } else {
        const core::TrustBand band = invalid ? core::TrustBand{} : trustBandOf(s, plan);
        std::cout << renderPlanText(s, plan, invalid ? nullptr : &band);
        if (explain && !invalid)
            std::cout << renderExplanations(s, plan);
        std::cout.flush();
        if (invalid)
            std::cerr << "error: invalid layout: " << invalidIds << '\n';
    }
    return invalid ? kExitBadInput : kExitOk;
}

} // namespace lp::cli
