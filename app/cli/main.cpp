// layout-planner-cli: the headless front end over planner_core (docs/cli.md).
#include "app/cli/Args.h"
#include "app/cli/CliError.h"
#include "app/cli/Commands.h"

#include <array>
#include <exception>
#include <iostream>
#include <new>

#ifndef LP_VERSION
#define LP_VERSION "unknown"
#endif

namespace lp::cli {

std::span<const Command> commandTable() {
    static const Command table[] = {
        {"evaluate", "evaluate a scenario: memory per stage, step time, MFU, diagnostics", &runEvaluate,
         &evaluateHelp},
        {"scenario", "write the scenario that flags describe to a file", &runScenario, &scenarioHelp},
        {"presets", "list the built-in models, GPUs and clusters", &runPresets, &presetsHelp},
        {"validate", "predict measured training runs and report the errors", &runValidate, &validateHelp},
        {"search", "try every valid layout and rank the ones that fit", &runSearch, &searchHelp},
        {"calibrate", "measure the local GPUs and write a hardware profile", &runCalibrate, &calibrateHelp},
        {"report", "write a layout report (HTML, Markdown or JSON)", &runReport, &reportHelp},
        {"export", "write launch settings for Megatron-LM, DeepSpeed or torchtitan", &runExport, &exportHelp},
        {"timeline", "write the step laid out in time (Chrome trace, SVG or CSV)", &runTimeline,
         &timelineHelp},
        {"analyze-log", "check a run's step times against the plan", &runAnalyzeLog, &analyzeLogHelp},
    };
    return std::span<const Command>(table);
}

const Command* findCommand(std::string_view name) {
    for (const auto& c : commandTable())
        if (c.name == name)
            return &c;
    return nullptr;
}

std::string exitCodesHelp() {
    return "Exit codes:\n  0  success (also: a valid layout that does not fit, a validation with large "
           "errors)\n  1  an output file could not be written, or an internal error\n  2  bad input: an "
           "unknown or malformed flag, a file that cannot be loaded, an invalid layout\n";
}

namespace {

std::string topHelp() {
    std::string out = "Usage: layout-planner-cli COMMAND [ARGS]\n       layout-planner-cli COMMAND --help\n  "
                      "     layout-planner-cli --version\n\nPlan distributed training layouts of large "
                      "language models.\n\nCommands:\n";
    for (const auto& c : commandTable()) {
        std::string name(c.name);
        name.resize(12, ' ');
        out += "  " + name + std::string(c.summary) + "\n";
    }
    out += "\nWithout a command, `evaluate` runs on the default scenario.\n\n" + exitCodesHelp();
    return out;
}

// Runs a command, or prints its help when the arguments ask for it (-h or --help anywhere among them).
int runCommand(const Command& c, const Args& args) {
    if (hasSwitch(args, "--help") || hasSwitch(args, "-h")) {
        std::cout << c.help();
        return kExitOk;
    }
    return c.run(args);
}

int dispatch(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty())
        return runEvaluate({});
    const std::string& first = args.front();
    if (first == "--version" || first == "-V" || first == "version") {
        std::cout << "layout-planner-cli " << LP_VERSION << '\n';
        return kExitOk;
    }
    if (first == "--help" || first == "-h" || first == "help") {
        if (args.size() > 1) {
            if (const auto* c = findCommand(args[1])) {
                std::cout << c->help();
                return kExitOk;
            }
            std::cerr << "error: unknown command '" << args[1] << "'\n\n" << topHelp();
            return kExitBadInput;
        }
        std::cout << topHelp();
        return kExitOk;
    }
    if (const auto* c = findCommand(first))
        return runCommand(*c, Args(args.begin() + 1, args.end()));
    if (first.starts_with("-") || first.ends_with(".json"))
        return runCommand(*findCommand("evaluate"), args); // "layout-planner-cli --tp 4", "... s.json"
    const bool json = hasSwitch(args, "--json");
    std::string names;
    for (const auto& c : commandTable())
        names += (names.empty() ? "" : ", ") + std::string(c.name);
    return reportError(
        badValue("command", "unknown command '" + first + "' (commands: " + names + "; see --help)"), json);
}

} // namespace
} // namespace lp::cli

int main(int argc, char** argv) {
    try {
        return lp::cli::dispatch(argc, argv);
    } catch (const std::bad_alloc&) {
        std::cerr << "error: out of memory\n";
    } catch (const std::exception& e) {
        std::cerr << "error: internal error: " << e.what() << '\n';
    } catch (...) {
        std::cerr << "error: internal error\n";
    }
    return lp::cli::kExitFailure;
}
