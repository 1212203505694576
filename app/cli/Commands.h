#pragma once
// The subcommands of layout-planner-cli. Each lives in its own file (EvaluateCommand.cpp, ...) and
// is listed once in commandTable() (main.cpp). To add one: write NameCommand.cpp with its run and
// help functions, declare them here, and add a row to the table.
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace lp::cli {

using Args = std::vector<std::string>; // the arguments after the subcommand's name

struct Command {
    std::string_view name;
    std::string_view summary; // one line for the top-level help
    int (*run)(
        const Args& args); // returns the exit code; -h and --help never reach it (main.cpp prints help)
    std::string (*help)(); // full help text (usage, flags, exit codes)
};

std::span<const Command> commandTable();
const Command* findCommand(std::string_view name);

int runEvaluate(const Args& args);
std::string evaluateHelp();

int runScenario(const Args& args);
std::string scenarioHelp();

int runPresets(const Args& args);
std::string presetsHelp();

int runValidate(const Args& args);
std::string validateHelp();

int runSearch(const Args& args);
std::string searchHelp();

int runCalibrate(const Args& args);
std::string calibrateHelp();

int runReport(const Args& args);
std::string reportHelp();

int runExport(const Args& args);
std::string exportHelp();

int runTimeline(const Args& args);
std::string timelineHelp();

int runAnalyzeLog(const Args& args);
std::string analyzeLogHelp();

// The exit-code paragraph every help text ends with.
std::string exitCodesHelp();

} // namespace lp::cli
