// `layout-planner-cli export [SCENARIO.json] [flags] --to megatron|deepspeed|torchtitan [-o FILE]`
#include "app/cli/Commands.h"
#include "app/cli/InteropCommon.h"
#include "app/cli/ScenarioFlags.h"
#include "core/export/LaunchExport.h"

#include <nlohmann/json.hpp>

#include <iostream>

namespace lp::cli {

std::string exportHelp() {
    return "Usage: layout-planner-cli export [SCENARIO.json] [FLAGS] --to megatron|deepspeed|torchtitan [-o "
           "FILE]\n\nWrites the scenario's layout as launch settings for a training framework, with the "
           "framework's\nown names (docs/reports.md):\n  megatron    Megatron-LM command-line arguments, as "
           "a bash array MEGATRON_ARGS=( ... )\n  deepspeed   a DeepSpeed config JSON (ds_config.json)\n  "
           "torchtitan  the [training], [parallelism] and [activation_checkpoint] tables of a torchtitan\n   "
           "           TOML config\nWhat a framework cannot express is printed as notes on standard error. "
           "An invalid layout\nexports nothing and exits 2; a layout that does not fit exports with a "
           "warning.\n\nOptions:\n  --to TARGET                 megatron, deepspeed or torchtitan "
           "(required)\n  -o, --output FILE           where to write the settings (default: standard "
           "output)\n  --json                      print {\"target\", \"file_name\", \"text\", \"notes\"} as "
           "JSON instead\n  -h, --help                  this help\n\nScenario flags:\n" +
           scenarioFlagsHelp() + "\n" + exitCodesHelp();
}

int runExport(const Args& argv) {
    const bool jsonOut = hasSwitch(argv, "--json");
    std::optional<std::string> output;
    std::optional<core::LaunchTarget> target;
    auto parsed =
        parseScenarioArgs("export", argv, false, [&](ArgCursor& args) -> std::expected<bool, CliError> {
            if (auto took = takeOutputFlag(args, output); !took || *took)
                return took;
            if (args.peekName() != "--to")
                return false;
            auto v = args.takeValue();
            if (!v)
                return std::unexpected(v.error());
            target = core::parseLaunchTarget(*v);
            if (!target)
                return std::unexpected(
                    badValue("--to", "expected one of megatron, deepspeed, torchtitan, got '" + *v + "'"));
            return true;
        });
    if (!parsed)
        return reportError(parsed.error(), jsonOut);
    if (!target)
        return reportError(
            badValue("--to",
                     "missing: say which framework (--to megatron, --to deepspeed or --to torchtitan)"),
            jsonOut);
    const auto evaluated =
        evaluateValidScenario(parsed->file, parsed->overrides, std::nullopt, "nothing exported");
    if (!evaluated)
        return reportError(evaluated.error(), jsonOut);
    if (!evaluated->plan.memory.fits)
        std::cerr << "warning: this layout does not fit in GPU memory (see `layout-planner-cli evaluate`)\n";

    const core::LaunchSettings settings = core::exportLaunchSettings(evaluated->scenario, *target);
    std::string text = settings.text;
    if (jsonOut) {
        nlohmann::json j{{"target", std::string(core::toString(*target))},
                         {"file_name", settings.fileName},
                         {"text", settings.text},
                         {"notes", settings.notes}};
        text = j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    } else {
        for (const auto& note : settings.notes)
            std::cerr << "note: " << note << '\n';
    }
    if (auto w = writeOutput(output, text); !w)
        return reportError(w.error(), jsonOut);
    return kExitOk;
}

} // namespace lp::cli
