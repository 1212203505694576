// `layout-planner-cli scenario [SCENARIO.json] [flags] -o FILE`
#include "app/cli/Commands.h"
#include "app/cli/InteropCommon.h"
#include "app/cli/ScenarioFlags.h"
#include "core/estimate/Evaluate.h"
#include "core/io/Files.h"
#include "core/io/ScenarioJson.h"

#include <iostream>

namespace lp::cli {

std::string scenarioHelp() {
    return "Usage: layout-planner-cli scenario [SCENARIO.json] [FLAGS] -o FILE\n\nWrites the scenario the "
           "flags describe (starting from SCENARIO.json, or the default scenario)\nas a scenario file "
           "(docs/formats.md). `evaluate FILE` then gives the same plan as\n`evaluate` with the same flags. "
           "Without -o, or with -o -, the file goes to standard output.\nThe file is written atomically: an "
           "existing file survives a failed write.\n\nOptions:\n  -o, --output FILE           where to write "
           "the scenario\n  --json                      report errors as JSON\n  -h, --help                  "
           "this help\n\nScenario flags:\n" +
           scenarioFlagsHelp() + "\n" + exitCodesHelp();
}

int runScenario(const Args& argv) {
    const bool jsonOut = hasSwitch(argv, "--json");
    std::optional<std::string> output;
    const auto input =
        readScenario("scenario", argv, false, [&](ArgCursor& args) { return takeOutputFlag(args, output); });
    if (!input)
        return reportError(input.error(), jsonOut);

    const auto problems = core::checkLayout(input->scenario);
    if (!problems.empty()) {
        std::string ids;
        for (const auto& d : problems)
            ids += (ids.empty() ? "" : ", ") + std::string(core::diagnosticIdString(d.id));
        std::cerr << "note: this layout is invalid (" << ids << "); `evaluate` will reject it\n";
    }

    std::string text = core::scenarioToJson(input->scenario);
    if (!text.ends_with('\n'))
        text += '\n';
    const std::string target = output.value_or("-");
    std::cout.flush();
    if (auto saved = core::writeFileAtomically(target, text); !saved)
        return reportError(failure(target, "cannot write the scenario file: " + saved.error()), jsonOut);
    if (!core::isStreamPath(target))
        std::cerr << "wrote " << target << '\n';
    return kExitOk;
}

} // namespace lp::cli
