// `layout-planner-cli scenario [SCENARIO.json] [flags] -o FILE`
#include "app/cli/Commands.h"
#include "app/cli/InteropCommon.h"
#include "app/cli/ScenarioFlags.h"
#include "core/estimate/Evaluate.h"
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

    if (!output || *output == "-") {
        const std::string text = core::scenarioToJson(input->scenario);
        std::cout << text;
        if (!text.ends_with('\n'))
            std::cout << '\n';
        return kExitOk;
    }
    if (auto saved = core::saveScenarioFile(*output, input->scenario); !saved)
        return reportError(failure(*output, "cannot write the scenario file: " + saved.error()), jsonOut);
    std::cerr << "wrote " << *output << '\n';
    return kExitOk;
}

} // namespace lp::cli
