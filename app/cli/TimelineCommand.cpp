// `layout-planner-cli timeline [SCENARIO.json] [flags] --format chrome-trace|svg|csv [-o FILE]`
#include "app/cli/Commands.h"
#include "app/cli/InteropCommon.h"
#include "app/cli/ScenarioFlags.h"
#include "core/estimate/Timeline.h"
#include "core/export/TimelineExport.h"
#include "core/report/SvgCharts.h"

namespace lp::cli {

std::string timelineHelp() {
    return "Usage: layout-planner-cli timeline [SCENARIO.json] [FLAGS] --format chrome-trace|svg|csv [-o "
           "FILE]\n\n"
           "Writes the step of one data-parallel replica laid out in time: per pipeline rank the forward\n"
           "and backward of every micro batch (and chunk), recompute, exposed communication, the bubble,\n"
           "the data-parallel reduction, the optimizer step, loader and straggler waits. Its length is the\n"
           "plan's step time and its idle the plan's bubble (docs/estimation.md, \"Pipeline timeline\").\n\n"
           "  chrome-trace  Chrome trace-event JSON: open it in https://ui.perfetto.dev or chrome://tracing\n"
           "                (one process per rank, threads compute and communication, microseconds)\n"
           "  svg           the picture the reports show\n"
           "  csv           rank,lane,kind,micro_batch,chunk,start_s,seconds\n\n"
           "Without --format the format follows the extension of -o (.json, .svg, .csv), else chrome-trace.\n"
           "Without -o, or with -o -, the file goes to standard output. An invalid layout writes nothing\n"
           "and exits 2.\n\nOptions:\n"
           "  --format FORMAT             chrome-trace, svg or csv\n"
           "  -o, --output FILE           where to write it (atomically)\n"
           "  --profile FILE              use a hardware profile file instead of the GPU's built-in one\n"
           "  --json                      report errors as JSON\n"
           "  -h, --help                  this help\n\nScenario flags:\n" +
           scenarioFlagsHelp() + "\n" + exitCodesHelp();
}

namespace {

std::optional<core::TimelineFormat> formatForPath(const std::string& path) {
    if (path.ends_with(".svg"))
        return core::TimelineFormat::Svg;
    if (path.ends_with(".csv"))
        return core::TimelineFormat::Csv;
    if (path.ends_with(".json"))
        return core::TimelineFormat::ChromeTrace;
    return std::nullopt;
}

} // namespace

int runTimeline(const Args& argv) {
    const bool jsonErrors = hasSwitch(argv, "--json");
    std::optional<std::string> output;
    std::optional<core::TimelineFormat> format;
    auto parsed =
        parseScenarioArgs("timeline", argv, true, [&](ArgCursor& args) -> std::expected<bool, CliError> {
            if (auto took = takeOutputFlag(args, output); !took || *took)
                return took;
            if (args.peekName() != "--format")
                return false;
            auto v = args.takeValue();
            if (!v)
                return std::unexpected(v.error());
            format = core::parseTimelineFormat(*v);
            if (!format)
                return std::unexpected(
                    badValue("--format", "expected one of chrome-trace, svg, csv, got '" + *v + "'"));
            return true;
        });
    if (!parsed)
        return reportError(parsed.error(), jsonErrors);
    if (!format)
        format = output && *output != "-" ? formatForPath(*output).value_or(core::TimelineFormat::ChromeTrace)
                                          : core::TimelineFormat::ChromeTrace;

    const auto evaluated =
        evaluateValidScenario(parsed->file, parsed->overrides, parsed->profileFile,
                              "no timeline written. `layout-planner-cli evaluate` lists the problems");
    if (!evaluated)
        return reportError(evaluated.error(), jsonErrors);

    const core::Timeline timeline = core::buildTimeline(evaluated->scenario, evaluated->plan);
    std::string text;
    switch (*format) {
    case core::TimelineFormat::ChromeTrace:
        text = core::timelineChromeTrace(timeline);
        break;
    case core::TimelineFormat::Svg:
        text = core::timelineChartSvg(timeline, 1000).svg;
        break;
    case core::TimelineFormat::Csv:
        text = core::timelineCsv(timeline);
        break;
    }
    if (auto w = writeOutput(output, text); !w)
        return reportError(w.error(), jsonErrors);
    return kExitOk;
}

} // namespace lp::cli
