// `layout-planner-cli validate CASES.json [--json] [--profile PROFILE.json] [--case ID [--explain]]`
#include "app/cli/Commands.h"
#include "app/cli/InteropCommon.h"
#include "app/cli/PlanText.h"
#include "app/cli/ScenarioFlags.h"
#include "app/cli/TextFormat.h"
#include "core/estimate/Evaluate.h"
#include "core/estimate/PlanJson.h"
#include "core/io/Files.h"
#include "core/io/ScenarioJson.h"
#include "core/measured/ValidationDoc.h"
#include "core/measured/ValidationRun.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <iostream>

namespace lp::cli {
namespace {

using nlohmann::json;

std::string signedPercent(double fraction) {
    if (!std::isfinite(fraction))
        return "n/a";
    const std::string s = fixed(fraction * 100.0, 1);
    return (fraction > 0 && s != "0.0" ? "+" : "") + s + " %";
}

json reportJson(const core::ValidationReport& r, const core::InputErrors& skipped) {
    json cases = json::array();
    for (const auto& row : r.rows) {
        json c{{"id", row.caseId},
               {"metric", row.metric},
               {"measured", core::finiteOrNull(row.measured)},
               {"predicted", core::finiteOrNull(row.predicted)},
               {"relative_error", core::finiteOrNull(row.relativeError)}};
        if (!row.invalidReason.empty()) {
            c["predicted"] = nullptr; // no plan: the layout is invalid for the planner
            c["invalid"] = row.invalidReason;
        }
        if (!row.adjustments.empty())
            c["adjustments"] = row.adjustments;
        cases.push_back(std::move(c));
    }
    json summary = json::object();
    for (const auto& m : r.summary)
        summary[m.metric] = json{{"count", m.count},
                                 {"median_abs_error", core::finiteOrNull(m.medianAbsError)},
                                 {"max_abs_error", core::finiteOrNull(m.maxAbsError)}};
    json groups = json::array();
    for (const auto& g : r.groups)
        groups.push_back(json{{"gpu", g.gpu},
                              {"style", g.style},
                              {"precision", g.precision},
                              {"count", g.count},
                              {"median_abs_error", core::finiteOrNull(g.medianAbsError)},
                              {"median_speed_error", core::finiteOrNull(g.medianSpeedError)},
                              {"beyond_20_percent", g.beyond20}});
    json over = json::array();
    for (const auto& o : r.overCapacity)
        over.push_back(json{{"id", o.caseId}, {"used_fraction", core::finiteOrNull(o.usedFraction)}});
    json j{{"cases", std::move(cases)},
           {"summary", std::move(summary)},
           {"by_group", std::move(groups)},
           {"memory_fit", json{{"planned_cases", r.plannedCases}, {"over_capacity", std::move(over)}}}};
    if (!skipped.empty()) {
        json problems = json::array();
        for (const auto& e : skipped)
            problems.push_back(json{{"path", e.path}, {"reason", e.reason}});
        j["skipped"] = std::move(problems); // cases left out: what could not be read in them
    }
    core::sanitizeNonFinite(j);
    return j;
}

std::string reportText(const std::string& file, std::size_t caseCount, const core::ValidationReport& r) {
    std::string out = "Validation of " + std::to_string(caseCount) + " cases in " + file + " (" +
                      std::to_string(r.rows.size()) + " measured figures)\n\n";
    TextTable rows({"Case", "Metric", "Measured", "Predicted", "Error", "mb"},
                   {Align::Left, Align::Left, Align::Right, Align::Right, Align::Right, Align::Right});
    std::size_t invalid = 0;
    for (const auto& row : r.rows) {
        const bool ok = row.invalidReason.empty();
        invalid += ok ? 0 : 1;
        rows.addRow({row.caseId, row.metric, core::fmt::figure(row.measured, 4),
                     ok ? core::fmt::figure(row.predicted, 4) : "invalid: " + row.invalidReason,
                     ok ? signedPercent(row.relativeError) : "-",
                     row.microBatch > 0 ? std::to_string(row.microBatch) : ""});
    }
    out += rows.render(0);
    if (invalid > 0)
        out += "\n" + std::to_string(invalid) +
               " figure(s) have no prediction: the planner rejects their layout (see validate --case ID); "
               "the summary counts each as a 100 % error.\n";
    // Each adjusted case once, in the order of the table.
    std::string adjusted;
    std::string lastCase;
    for (const auto& row : r.rows) {
        if (row.adjustments.empty() || row.caseId == lastCase)
            continue;
        lastCase = row.caseId;
        for (const std::string& a : row.adjustments)
            adjusted += "  " + row.caseId + ": " + a + "\n";
    }
    if (!adjusted.empty())
        out += "\nAdjusted so that the planner can plan them:\n" + adjusted;
    out += "\nSummary (absolute relative error; \"throughput\" pools every throughput metric)\n";
    TextTable summary({"Metric", "Count", "Median", "Max"}, {Align::Left});
    for (const auto& m : r.summary)
        summary.addRow(
            {m.metric, std::to_string(m.count), percent(m.medianAbsError), percent(m.maxAbsError)});
    out += summary.render(0);
    if (r.groups.size() > 1) {
        out +=
            "\nBy GPU, style and precision (throughput; planned speed: + = planned faster than measured)\n";
        TextTable groups({"GPU", "Style", "Precision", "Count", "Median", "Planned speed", ">20%"},
                         {Align::Left, Align::Left, Align::Left});
        for (const auto& g : r.groups)
            groups.addRow({g.gpu, g.style, g.precision, std::to_string(g.count), percent(g.medianAbsError),
                           signedPercent(g.medianSpeedError), std::to_string(g.beyond20)});
        out += groups.render(0);
    }
    out += "\nMemory fit: " + core::memoryFitSentence(r) + "\n";
    for (const auto& o : r.overCapacity)
        out += "  " + o.caseId + ": " + percent(o.usedFraction) + " of capacity\n";
    return out;
}

} // namespace

std::string validateHelp() {
    return "Usage: layout-planner-cli validate CASES.json [--json] [--profile PROFILE.json] [--case "
           "ID]\n\nPredicts every measured training run in a layout-planner/validation-cases@2 (or @1) file "
           "and "
           "prints,\nper case and metric, the measured and predicted values and the relative "
           "error\n(predicted - measured) / measured, then per metric the count, median and maximum "
           "absolute\nerror, and a \"throughput\" line pooling the throughput metrics; then, where the "
           "file\nholds more than one, the throughput figures by GPU, framework style and precision "
           "with\ntheir median planned speed against the measured one (+ = planned faster); last, how "
           "many\nruns (which all ran) plan over their GPUs' memory, and by how much. A case without a "
           "micro\nbatch uses the fastest micro batch that fits (column mb).\n\nOptions:\n  --json           "
           "           print {\"cases\": [{\"id\", \"metric\", \"measured\", \"predicted\",\n                "
           "              \"relative_error\"}], \"summary\": {METRIC: {\"count\",\n                          "
           "    \"median_abs_error\", \"max_abs_error\"}}, \"by_group\":\n                              "
           "[{\"gpu\", \"style\", \"precision\", \"count\",\n                              "
           "\"median_abs_error\", \"median_speed_error\",\n                              "
           "\"beyond_20_percent\"}], \"memory_fit\":\n                              {\"planned_cases\", "
           "\"over_capacity\": [{\"id\",\n                              \"used_fraction\"}]}} (errors and "
           "fractions as fractions)\n  --profile FILE              use a hardware profile file for the cases "
           "on its GPU\n  --markdown FILE             also write the per-case table and summary as "
           "Markdown\n                              (the pages in docs/validation/ are generated this way)\n "
           " --plot FILE.svg             also write the predicted-against-measured plot as SVG\n  --case ID  "
           "                 only this case: its rows, then the whole plan the planner made\n                "
           "              for it (memory, time, diagnostics; with --json the evaluate\n                      "
           "        --json object under \"plan\")\n  --explain                   with --case: every figure's "
           "formula and values\n  --write-scenario FILE       with --case: save the case as a scenario file, "
           "to open in the\n                              window or to edit and evaluate\n  -h, --help       "
           "           this help\n\nExits 0 when the validation ran, however large the errors.\n\n" +
           exitCodesHelp();
}

namespace {

struct ValidateArgs {
    std::optional<std::string> file, profileFile, markdownFile, plotFile, caseId, scenarioOut;
    bool explain = false;
};

// Reads one of validate's options at the cursor into `out`; an error for an option validate does not take.
std::expected<void, CliError> takeValidateOption(ArgCursor& args, ValidateArgs& out) {
    const std::string name(args.peekName());
    if (name == "--json" || name == "--explain") {
        if (auto r = args.takeSwitch(); !r)
            return r;
        out.explain = out.explain || name == "--explain";
        return {};
    }
    std::optional<std::string>* field = name == "--profile"          ? &out.profileFile
                                        : name == "--case"           ? &out.caseId
                                        : name == "--write-scenario" ? &out.scenarioOut
                                        : name == "--markdown"       ? &out.markdownFile
                                        : name == "--plot"           ? &out.plotFile
                                                                     : nullptr;
    if (!field)
        return std::unexpected(unknownOption("validate", name));
    auto v = args.takeNonEmptyValue(name == "--case" ? "a case id" : "a file name");
    if (!v)
        return std::unexpected(v.error());
    *field = std::move(*v);
    return {};
}

std::expected<ValidateArgs, CliError> parseValidateArgs(const Args& argv) {
    ValidateArgs out;
    ArgCursor args(argv);
    while (!args.atEnd()) {
        if (args.isOption()) {
            if (auto r = takeValidateOption(args, out); !r)
                return std::unexpected(r.error());
            continue;
        }
        std::string positional = args.take();
        if (out.file)
            return std::unexpected(badValue(
                positional,
                "unexpected argument: `validate` takes one cases file (already given: " + *out.file + ")"));
        out.file = std::move(positional);
    }
    if (!out.file)
        return std::unexpected(
            badValue("CASES.json", "missing: `validate` needs a file of validation cases"));
    return out;
}

// The readable cases of the file (only --case's when given); the others are named, with what could not be
// read in them.
std::expected<std::vector<core::ValidationCase>, CliError> loadCases(const ValidateArgs& a,
                                                                     core::InputErrors& skipped) {
    auto cases = core::loadValidationCases(*a.file, &skipped);
    if (!cases)
        return std::unexpected(fileError(*a.file, "cannot load the validation cases", cases.error()));
    if (!skipped.empty()) {
        std::cerr << "warning: " << *a.file << ": cases left out, as they cannot be read:\n";
        for (const auto& e : skipped)
            std::cerr << "  " << e.message() << '\n';
    }
    if (a.caseId) {
        std::erase_if(*cases, [&](const core::ValidationCase& c) { return c.id != *a.caseId; });
        if (cases->empty())
            return std::unexpected(
                badValue("--case", "no case with the id `" + *a.caseId + "` in " + *a.file));
    }
    return std::move(*cases);
}

void noteProfileGpu(const ValidateArgs& a, const core::HardwareProfile& profile,
                    const std::vector<core::ValidationCase>& cases) {
    if (profile.gpuId.empty())
        return;
    const auto others = std::count_if(cases.begin(), cases.end(), [&](const core::ValidationCase& c) {
        return c.scenario.cluster.gpu.id != profile.gpuId;
    });
    if (others > 0)
        std::cerr << "note: profile " << *a.profileFile << " describes " << profile.gpuId << "; the "
                  << others << " of the " << cases.size()
                  << " cases on other GPUs keep their built-in profiles\n";
}

// --plot and --markdown: the page and its picture.
std::expected<void, CliError> writePages(const ValidateArgs& a,
                                         const std::vector<core::ValidationCase>& cases,
                                         const core::ValidationReport& report,
                                         const core::InputErrors& skipped) {
    if (a.plotFile)
        if (auto w = core::writeFileAtomically(*a.plotFile, core::validationPlotSvg(report)); !w)
            return std::unexpected(failure("--plot", w.error()));
    if (a.markdownFile) {
        const std::string plotRef = a.plotFile ? *a.plotFile : std::string("validation.svg");
        const std::string page =
            core::validationMarkdown(cases, report, *a.file, *a.markdownFile, plotRef, skipped);
        if (auto w = core::writeFileAtomically(*a.markdownFile, page); !w)
            return std::unexpected(failure("--markdown", w.error()));
    }
    return {};
}

// One case: its rows, then the plan behind its predictions.
int printCase(const ValidateArgs& a, const core::ValidationCase& c, const core::ValidationReport& report,
              const core::InputErrors& skipped, const core::HardwareProfile* profile, bool jsonOut) {
    const core::Scenario s = core::resolveCase(c, profile);
    const bool ownProfile = profile && (profile->gpuId.empty() || profile->gpuId == s.cluster.gpu.id);
    const core::Plan plan = ownProfile ? core::evaluate(s, *profile) : core::evaluate(s);
    if (a.scenarioOut)
        if (auto w = core::saveScenarioFile(*a.scenarioOut, s); !w)
            return reportError(failure("--write-scenario", w.error()), jsonOut);
    if (jsonOut) {
        json j = reportJson(report, skipped);
        j["source"] = c.source;
        j["notes"] = c.notes;
        if (!c.derived.empty())
            j["derived"] = c.derived;
        j["plan"] = core::planToJson(s, plan);
        if (a.explain)
            j["explanations"] = explanationsJson(s, plan);
        core::sanitizeNonFinite(j);
        std::cout << j.dump(2) << '\n';
        return kExitOk;
    }
    std::string derived;
    for (const std::string& d : c.derived)
        derived += "Stated from its words: " + d + "\n";
    std::cout << reportText(*a.file, 1, report) << "\nSource: " << c.source << "\nNotes: " << c.notes << "\n"
              << derived
              << (c.architectureFrom.empty()
                      ? std::string()
                      : "Architecture: the case has the shape of the built-in " + c.architectureFrom +
                            " and is planned with its attention (head size, MLA), routing groups, norms and "
                            "biases, which the case format has no fields for\n")
              << "\n"
              << renderPlanText(s, plan);
    if (a.explain)
        std::cout << renderExplanations(s, plan);
    return kExitOk;
}

} // namespace

int runValidate(const Args& argv) {
    const bool jsonOut = hasSwitch(argv, "--json");
    const auto args = parseValidateArgs(argv);
    if (!args)
        return reportError(args.error(), jsonOut);
    std::optional<core::HardwareProfile> profile;
    if (args->profileFile) {
        auto loaded = loadProfileArg(*args->profileFile);
        if (!loaded)
            return reportError(loaded.error(), jsonOut);
        profile = std::move(*loaded);
    }
    if ((args->explain || args->scenarioOut) && !args->caseId)
        return reportError(badValue(args->explain ? "--explain" : "--write-scenario", "needs --case ID"),
                           jsonOut);
    core::InputErrors skipped;
    const auto cases = loadCases(*args, skipped);
    if (!cases)
        return reportError(cases.error(), jsonOut);
    if (profile)
        noteProfileGpu(*args, *profile, *cases);
    const auto report = core::runValidation(*cases, profile ? &*profile : nullptr);
    if (auto w = writePages(*args, *cases, report, skipped); !w)
        return reportError(w.error(), jsonOut);
    if (args->caseId)
        return printCase(*args, cases->front(), report, skipped, profile ? &*profile : nullptr, jsonOut);
    if (jsonOut)
        std::cout << reportJson(report, skipped).dump(2) << '\n';
    else
        std::cout << reportText(*args->file, cases->size(), report);
    return kExitOk;
}

} // namespace lp::cli
