// `layout-planner-cli analyze-log LOG [SCENARIO.json] [flags] [--warmup N] [--json]`
#include "app/cli/Args.h"
#include "app/cli/Commands.h"
#include "app/cli/InteropCommon.h"
#include "app/cli/ScenarioFlags.h"
#include "core/io/Files.h"
#include "core/io/ScenarioJson.h"
#include "core/measured/RunAnalysis.h"

#include <nlohmann/json.hpp>

#include <iostream>
#include <iterator>

namespace lp::cli {

std::string analyzeLogHelp() {
    return "Usage: layout-planner-cli analyze-log LOG [SCENARIO.json] [FLAGS] [--warmup N] [--json]\n        "
           "                              [--format auto|csv|megatron|torchtitan|numbers] [--unit "
           "s|ms]\n\nReads the step times of a training run, drops the warmup steps, and reports the steady "
           "state:\nmean step time with its spread (std, p10, p90), tokens/s and MFU. With a scenario (a "
           "file or\nscenario flags) it compares the run with the plan's prediction and says plainly what a "
           "gap\nmeans. LOG is a Megatron-LM or torchtitan log, a CSV with a step-time column, or plain "
           "numbers;\n- reads standard input. The formats and the warmup rule are in "
           "docs/reports.md.\n\nOptions:\n  --warmup N                  drop exactly the first N samples "
           "(default: detected automatically)\n  --format FORMAT             auto (default), csv, megatron, "
           "torchtitan or numbers\n  --unit s|ms                 unit of numbers without one (default: ms "
           "when their median is above 100)\n  --profile FILE              evaluate the scenario with a "
           "hardware profile file\n  --json                      print the analysis as JSON (schema "
           "layout-planner/run-analysis)\n  -h, --help                  this help\n\nScenario flags:\n" +
           scenarioFlagsHelp() + "\n" + exitCodesHelp();
}

namespace {

struct LogArgs {
    std::optional<std::string> logFile;
    core::RunLogOptions log;
    core::RunAnalysisOptions analysis;
};

// Reads analyze-log's own flags, and the log file (the first positional), at the cursor.
std::expected<bool, CliError> takeLogFlag(ArgCursor& args, LogArgs& out) {
    if (!args.isOption()) {
        if (out.logFile)
            return false; // the second positional: the scenario file
        out.logFile = args.take();
        return true;
    }
    const std::string name(args.peekName());
    if (name != "--warmup" && name != "--format" && name != "--unit")
        return false;
    auto v = args.takeValue();
    if (!v)
        return std::unexpected(v.error());
    if (name == "--warmup") {
        auto n = parseInt("--warmup", *v, 0, 1 << 30);
        if (!n)
            return std::unexpected(n.error());
        out.analysis.warmupSamples = *n;
    } else if (name == "--format") {
        auto f = core::parseRunLogFormat(*v);
        if (!f)
            return std::unexpected(badValue(
                "--format", "expected one of auto, csv, megatron, torchtitan, numbers, got '" + *v + "'"));
        out.log.format = *f;
    } else if (*v == "s" || *v == "ms") {
        out.log.unit = *v == "s" ? core::NumberUnit::Seconds : core::NumberUnit::Milliseconds;
    } else {
        return std::unexpected(badValue("--unit", "expected s or ms, got '" + *v + "'"));
    }
    return true;
}

std::expected<core::RunLog, CliError> readLog(const std::string& file, const core::RunLogOptions& options) {
    std::expected<core::RunLog, core::InputError> log;
    if (file == "-") {
        const auto text = core::readStandardInput();
        if (!text)
            return std::unexpected(
                fileError(file, "cannot read step times", {core::InputError{"", text.error()}}));
        log = core::parseRunLog(*text, options);
    } else {
        log = core::loadRunLog(file, options);
    }
    if (!log)
        return std::unexpected(fileError(file, "cannot read step times", {log.error()}));
    return std::move(*log);
}

void printAnalysis(const std::string& file, const core::RunLog& log, const core::RunAnalysis& analysis) {
    std::cout << "Log         " << file << ": " << log.lines << " lines, " << log.samples.size()
              << " step records (" << core::displayName(log.format) << ")\n";
    if (!log.unitNote.empty())
        std::cout << "Units       " << log.unitNote << '\n';
    std::cout << core::runAnalysisText(analysis);
    if (!log.warnings.empty()) {
        std::cout << "\nSkipped lines (" << log.warnings.size() << ")\n";
        const std::size_t shown = std::min<std::size_t>(log.warnings.size(), 10);
        for (std::size_t i = 0; i < shown; ++i)
            std::cout << "  line " << log.warnings[i].line << ": " << log.warnings[i].message << '\n';
        if (shown < log.warnings.size())
            std::cout << "  ... and " << log.warnings.size() - shown << " more (--json lists them all)\n";
    }
    std::cout.flush();
}

} // namespace

int runAnalyzeLog(const Args& argv) {
    const bool jsonOut = hasSwitch(argv, "--json");
    LogArgs a;
    auto parsed =
        parseScenarioArgs("analyze-log", argv, true, [&](ArgCursor& args) { return takeLogFlag(args, a); });
    if (!parsed)
        return reportError(parsed.error(), jsonOut);
    if (!a.logFile)
        return reportError(
            badValue("LOG", "missing: give the run's log, CSV or numbers file (- for standard input)"),
            jsonOut);
    const auto log = readLog(*a.logFile, a.log);
    if (!log)
        return reportError(log.error(), jsonOut);

    core::RunAnalysis analysis;
    const bool withScenario = parsed->file.has_value() || !parsed->overrides.given.empty();
    if (withScenario) {
        auto scenario = buildScenario(parsed->file, parsed->overrides);
        if (!scenario)
            return reportError(scenario.error(), jsonOut);
        auto evaluated = evaluateScenario(*scenario, parsed->profileFile);
        if (!evaluated)
            return reportError(evaluated.error(), jsonOut);
        analysis = core::analyzeRun(*log, *scenario, evaluated->plan, a.analysis);
    } else {
        if (parsed->profileFile)
            std::cerr << "warning: --profile is ignored without a scenario\n";
        analysis = core::analyzeRun(*log, a.analysis);
    }
    if (jsonOut) {
        nlohmann::json j = core::runAnalysisToJson(analysis, *log);
        j["log"] = *a.logFile;
        std::cout << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
        return kExitOk;
    }
    printAnalysis(*a.logFile, *log, analysis);
    return kExitOk;
}

} // namespace lp::cli
