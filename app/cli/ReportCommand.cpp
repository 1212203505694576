// `layout-planner-cli report [SCENARIO.json] [flags] [--format html|md|json|pdf] [-o FILE]`
#include "app/cli/Commands.h"
#include "app/cli/InteropCommon.h"
#include "app/cli/ScenarioFlags.h"
#include "core/measured/TrustBand.h"
#include "core/measured/ValidationFolder.h"
#include "core/report/Report.h"

#include <iostream>

namespace lp::cli {

std::string reportHelp() {
    return "Usage: layout-planner-cli report [SCENARIO.json] [FLAGS] [--format html|md|json|pdf] [-o FILE]\n "
           "                                [--title TEXT] [--profile PROFILE.json]\n\nWrites a layout "
           "report of the scenario: title, date, tool version, the scenario in full, the\nlayout, memory per "
           "pipeline stage (table and chart), the step-time breakdown (table and chart),\nMFU/HFU/6ND, "
           "diagnostics with suggestions, how the key figures are computed, the hardware\nprofile and its "
           "origin, and the assumptions (docs/reports.md).\n\n  html  one self-contained page: inline CSS "
           "and SVG charts, no external resources, printable\n  md    Markdown for a code forge (tables; "
           "charts as text bars)\n  json  machine-readable, versioned: {\"schema\": "
           "\"layout-planner/report\", \"version\": 1, ...}\n  pdf   needs the desktop application (Qt's PDF "
           "writer):\n        layout-planner --export-pdf FILE [SCENARIO.json]\n\nWithout --format the "
           "format follows the extension of -o (.html, .md, .json), else html.\nWithout -o, or with -o -, "
           "the report goes to standard output. An invalid layout writes no\nreport and exits 2. "
           "SOURCE_DATE_EPOCH (seconds) fixes the report's date.\n\nOptions:\n  --format FORMAT             "
           "html, md (markdown), json or pdf\n  -o, --output FILE           where to write the report "
           "(atomically)\n  --title TEXT                the report's title (default: \"Layout report: "
           "<scenario name>\")\n  --profile FILE              use a hardware profile file instead of the "
           "GPU's built-in one\n  --json                      report errors as JSON\n  -h, --help            "
           "      this help\n\nScenario flags:\n" +
           scenarioFlagsHelp() + "\n" + exitCodesHelp();
}

int runReport(const Args& argv) {
    const bool jsonErrors = hasSwitch(argv, "--json");
    std::optional<std::string> output, title;
    std::optional<core::ReportFormat> format;
    auto parsed =
        parseScenarioArgs("report", argv, true, [&](ArgCursor& args) -> std::expected<bool, CliError> {
            if (auto took = takeOutputFlag(args, output); !took || *took)
                return took;
            const std::string name(args.peekName());
            if (name == "--format") {
                auto v = args.takeValue();
                if (!v)
                    return std::unexpected(v.error());
                format = core::parseReportFormat(*v);
                if (!format)
                    return std::unexpected(
                        badValue("--format", "expected one of html, md, json, pdf, got '" + *v + "'"));
                return true;
            }
            if (name == "--title") {
                auto v = args.takeNonEmptyValue("a non-empty title");
                if (!v)
                    return std::unexpected(v.error());
                title = *v;
                return true;
            }
            return false;
        });
    if (!parsed)
        return reportError(parsed.error(), jsonErrors);
    if (!format)
        format = (output && *output != "-")
                     ? core::reportFormatForPath(*output).value_or(core::ReportFormat::Html)
                     : core::ReportFormat::Html;
    if (*format == core::ReportFormat::Pdf)
        return reportError(
            badValue("--format", "PDF export needs the desktop application (Qt's PDF writer); the command "
                                 "line is Qt-free. Run `layout-planner --export-pdf FILE [SCENARIO.json]`, "
                                 "or write HTML (--format html) and print it to PDF from a browser"),
            jsonErrors);

    const auto evaluated =
        evaluateValidScenario(parsed->file, parsed->overrides, parsed->profileFile,
                              "no report written. `layout-planner-cli evaluate` lists the problems");
    if (!evaluated)
        return reportError(evaluated.error(), jsonErrors);

    core::ReportInput report = core::makeReport(evaluated->scenario, evaluated->profile, evaluated->plan);
    if (title)
        report.title = *title;
    // The band of comparable measured runs (every bundled validation set, about 0.2 s).
    report.trust = core::reportTrust(
        core::trustBand(evaluated->scenario, evaluated->plan, core::validateBundledSets().figures));
    if (auto w = writeOutput(output, core::renderReport(report, *format)); !w)
        return reportError(w.error(), jsonErrors);
    return kExitOk;
}

} // namespace lp::cli
