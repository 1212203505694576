// The HTML report: one self-contained, printable page (inline CSS, charts as inline SVG, no scripts,
// no external resources). Every user-supplied string goes through escapeHtml().
#include "core/report/ReportHtml.h"

#include "core/estimate/KeyFigures.h"
#include "core/io/ScenarioJson.h"
#include "core/report/RunFigures.h"
#include "core/report/SvgCharts.h"
#include "core/report/detail/ReportContent.h"
#include "core/util/Markup.h"
#include "core/util/NumberFormat.h"

#include <string>

namespace lp::core {
namespace {

using report::KeyValues;
using report::Table;

constexpr const char* kCss = R"CSS(
:root { color-scheme: light; }
body { font-family: "Helvetica Neue", Helvetica, Arial, "DejaVu Sans", sans-serif; color: #1d1d1f;
       max-width: 980px; margin: 2em auto; padding: 0 1.2em; line-height: 1.45; background: #ffffff; }
h1 { font-size: 1.7em; margin: 0 0 .2em; }
h2 { font-size: 1.3em; border-bottom: 2px solid #4E79A7; padding-bottom: .15em; margin-top: 1.8em; }
h3 { font-size: 1.05em; margin: 1.2em 0 .3em; }
p.meta { color: #555555; margin-top: 0; }
table { border-collapse: collapse; margin: .5em 0 1em; font-size: .92em; }
th, td { border: 1px solid #d0d0d0; padding: 3px 8px; text-align: left; vertical-align: top; }
th { background: #f2f4f7; }
table.wide th { font-size: .82em; padding: 3px 4px; }
table.kv th { width: 16em; font-weight: normal; color: #333333; }
.num { text-align: right; font-variant-numeric: tabular-nums; }
tr.emph td { font-weight: bold; }
.status { display: inline-block; padding: 3px 12px; border-radius: 12px; font-weight: bold; }
.fits { background: #e3f4e8; color: #1e6b34; }
.nofit, .invalid { background: #fbe3e3; color: #D62728; }
.sev { display: inline-block; min-width: 5em; font-weight: bold; text-transform: uppercase; font-size: .8em; }
.sev-error { color: #D62728; } .sev-warning { color: #9a5d00; } .sev-info { color: #1f5fb0; }
div.diag { border-left: 4px solid #cccccc; padding: .3em .8em; margin: .6em 0; }
div.diag-error { border-color: #D62728; } div.diag-warning { border-color: #E08E0B; } div.diag-info { border-color: #3B7DD8; }
div.diag p { margin: .2em 0; }
figure, div.figure { margin: 1em 0; } figcaption, p.caption { color: #555555; font-size: .9em; }
svg { max-width: 100%; height: auto; }
code, pre { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; }
code { font-size: .9em; background: #f3f3f3; padding: 0 .2em; }
pre { background: #f6f8fa; padding: .8em; font-size: .8em; white-space: pre-wrap; word-break: break-word; }
dl.explain dt { font-weight: bold; margin-top: .9em; }
dl.explain dd { margin: .15em 0 0 1.2em; }
dl.explain code { white-space: pre-wrap; overflow-wrap: anywhere; }
table.kv { min-width: 60%; }
nav ol { columns: 2; font-size: .92em; }
footer { margin-top: 2.5em; color: #777777; font-size: .85em; border-top: 1px solid #dddddd; padding-top: .5em; }
@page { size: A4; margin: 16mm 14mm; }
@media print {
  body { max-width: none; margin: 0; padding: 0; font-size: 10pt; }
  nav { display: none; }
  h2, h3 { break-after: avoid; page-break-after: avoid; }
  figure, table, div.diag, dl.explain div { break-inside: avoid; page-break-inside: avoid; }
}
)CSS";

std::string tableOpen(const HtmlOptions& o, const char* cls = nullptr) {
    return std::string("<table") + (cls ? std::string(" class=\"") + cls + "\"" : std::string()) +
           " border=\"1\" cellspacing=\"0\" cellpadding=\"4\"" +
           (o.fullWidthTables ? " width=\"100%\"" : "") + ">\n";
}

std::string kvTable(const KeyValues& kv, const HtmlOptions& o) {
    std::string out = tableOpen(o, "kv");
    for (const auto& [k, v] : kv)
        out += "<tr><th scope=\"row\">" + escapeHtml(k) + "</th><td>" + escapeHtml(v) + "</td></tr>\n";
    return out + "</table>\n";
}

std::string dataTable(const Table& t, const std::string& caption, const HtmlOptions& o) {
    // Many columns (the memory table's nine) leave an A4 column too narrow for "Activations" at the body
    // size, and a renderer would break the word mid-way: smaller headers keep every word whole.
    std::string out = tableOpen(o, t.headers.size() >= 8 ? "wide" : nullptr);
    if (!caption.empty())
        out += "<caption>" + escapeHtml(caption) + "</caption>\n";
    out += "<thead><tr>";
    for (std::size_t c = 0; c < t.headers.size(); ++c) {
        const bool num = c < t.numeric.size() && t.numeric[c];
        out += std::string("<th scope=\"col\"") + (num ? " class=\"num\" align=\"right\"" : "") + ">" +
               escapeHtml(t.headers[c]) + "</th>";
    }
    out += "</tr></thead>\n<tbody>\n";
    for (std::size_t r = 0; r < t.rows.size(); ++r) {
        const bool emph = static_cast<int>(r) == t.emphasizedRow;
        out += emph ? "<tr class=\"emph\">" : "<tr>";
        for (std::size_t c = 0; c < t.rows[r].size(); ++c) {
            const bool num = c < t.numeric.size() && t.numeric[c];
            std::string cell = escapeHtml(t.rows[r][c]);
            if (emph)
                cell = "<b>" + cell + "</b>";
            out += std::string("<td") + (num ? " class=\"num\" align=\"right\"" : "") + ">" + cell + "</td>";
        }
        out += "</tr>\n";
    }
    return out + "</tbody>\n</table>\n";
}

std::string figure(const SvgChart& chart, const std::string& id, const std::string& caption,
                   const HtmlOptions& o) {
    // Renderers without HTML5 elements (QTextDocument) get the same figure as paragraphs.
    std::string out = o.inlineSvg
                          ? "<figure id=\"" + id + "\">\n"
                          : "<div class=\"figure\" id=\"" + id + "\">\n<p style=\"line-height: 100%\">";
    if (o.inlineSvg) {
        // Inline SVG in HTML needs no namespace declaration; dropping it keeps the page free of URLs.
        std::string svg = chart.svg;
        const std::string ns = " xmlns=\"http://www.w3.org/2000/svg\"";
        if (const auto pos = svg.find(ns); pos != std::string::npos)
            svg.erase(pos, ns.size());
        out += svg;
    } else {
        const int w = o.imageWidth > 0 ? o.imageWidth : chart.width;
        const int h = chart.width > 0 ? chart.height * w / chart.width : chart.height;
        out += "<img src=\"lp-chart:" + id.substr(std::string("chart-").size()) + "\" width=\"" +
               std::to_string(w) + "\" height=\"" + std::to_string(h) + "\" alt=\"" + escapeHtml(caption) +
               "\">\n";
    }
    if (o.inlineSvg)
        out += "<figcaption>" + escapeHtml(caption) + "</figcaption>\n</figure>\n";
    else
        out += "</p>\n<p class=\"caption\">" + escapeHtml(caption) + "</p>\n</div>\n";
    return out;
}

std::string section(std::string_view id, std::string_view title) {
    return "\n<section id=\"" + std::string(id) + "\">\n<h2>" + escapeHtml(title) + "</h2>\n";
}

constexpr const char* kNotAvailable = "<p>Not available: the layout is invalid (see the diagnostics).</p>\n";

std::string head(const ReportInput& r) {
    return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" "
           "content=\"width=device-width, initial-scale=1\">\n<meta name=\"generator\" content=\"Layout "
           "Planner " +
           escapeHtml(r.toolVersion) + "\">\n<title>" + escapeHtml(r.title) + "</title>\n<style>" +
           std::string(kCss) + "</style>\n</head>\n<body>\n";
}

// The title, when and by what the report was made, and the status badge.
std::string pageHeader(const ReportInput& r, bool invalid) {
    const Plan& p = r.plan;
    const std::string cls = invalid ? "invalid" : (p.memory.fits ? "fits" : "nofit");
    return "<header>\n<h1>" + escapeHtml(r.title) + "</h1>\n<p class=\"meta\">Generated " +
           escapeHtml(displayTimestamp(r.generatedAt)) + " by Layout Planner " + escapeHtml(r.toolVersion) +
           ". Scenario: <b>" + escapeHtml(scenarioName(r.scenario)) + "</b>.</p>\n<p><span class=\"status " +
           cls + "\">" + escapeHtml(report::statusLine(p)) + "</span></p>\n</header>\n";
}

constexpr const char* kNavigation =
    "<nav>\n<h2>Contents</h2>\n<ol>\n<li><a href=\"#summary\">Summary</a></li>\n<li><a "
    "href=\"#scenario\">Scenario</a></li>\n<li><a href=\"#layout\">Layout</a></li>\n<li><a "
    "href=\"#memory\">Memory per GPU</a></li>\n<li><a href=\"#precision\">Number formats</a></li>\n<li><a "
    "href=\"#time\">Time per step</a></li>\n<li><a href=\"#timeline\">Pipeline timeline</a></li>\n<li><a "
    "href=\"#utilisation\">Utilisation and "
    "throughput</a></li>\n<li><a href=\"#run\">Run: length, cost and goodput</a></li>\n<li><a "
    "href=\"#diagnostics\">Diagnostics</a></li>\n<li><a "
    "href=\"#explanations\">How the key figures are computed</a></li>\n<li><a href=\"#profile\">Hardware "
    "profile</a></li>\n<li><a href=\"#assumptions\">Assumptions</a></li>\n<li><a "
    "href=\"#scenario-file\">Appendix: scenario file</a></li>\n</ol>\n</nav>\n";

std::string scenarioSection(const Scenario& s, const Plan& p, const HtmlOptions& o) {
    std::string h = section("scenario", "Scenario");
    h += "<p><b>" + escapeHtml(scenarioName(s)) + "</b></p>\n";
    if (!s.notes.empty())
        h += "<p class=\"notes\">" + escapeHtmlMultiline(s.notes) + "</p>\n";
    h += "<h3>Model</h3>\n" + kvTable(report::modelFacts(s, p), o);
    h += "<h3>Cluster</h3>\n" + kvTable(report::clusterFacts(s), o);
    h += "<h3>Training options</h3>\n" + kvTable(report::trainingFacts(s, p), o);
    return h + "</section>\n";
}

std::string memorySection(const Plan& p, bool invalid, const HtmlOptions& o) {
    std::string h = section("memory", report::kMemorySection);
    if (invalid || p.memory.stages.empty())
        return h + kNotAvailable + "</section>\n";
    h += figure(memoryChartSvg(p), "chart-memory",
                "Memory per GPU by pipeline stage (GiB), stacked by component; the dashed line is the GPU's "
                "capacity.",
                o);
    h += dataTable(report::memoryTable(p),
                   "Memory per GPU by pipeline stage, in GiB (2^30 bytes) unless marked GB", o);
    return h + kvTable(report::memoryFacts(p), o) + "</section>\n";
}

std::string precisionSection(const Scenario& s, const Plan& p, bool invalid, const HtmlOptions& o) {
    std::string h = section("precision", report::kNumberFormatsSection);
    h += "<p>Which tensors the run keeps in which number format, and why.</p>\n";
    h += dataTable(report::numberFormatTable(s), "Number format per tensor, bytes per stored value", o);
    if (const std::string extras = report::fp8ExtrasLine(p); !invalid && !extras.empty())
        h += "<p>" + escapeHtml(extras) + "</p>\n";
    return h + "</section>\n";
}

std::string timeSection(const Plan& p, bool invalid, const HtmlOptions& o) {
    std::string h = section("time", report::kTimeSection);
    if (invalid)
        return h + kNotAvailable + "</section>\n";
    h += figure(timeChartSvg(p), "chart-time",
                "Step time by component (ms); components of zero time are left out.", o);
    h += dataTable(report::timeTable(p), "Time per step by component", o);
    h += "<p>" + escapeHtml(report::bubbleLine(p)) + "</p>\n";
    return h + "</section>\n";
}

// The step laid out in time per pipeline rank, with its one sentence.
std::string timelineSection(const Scenario& s, const Plan& p, bool invalid, const HtmlOptions& o) {
    std::string h = section("timeline", report::kTimelineSection);
    if (invalid)
        return h + kNotAvailable + "</section>\n";
    const Timeline tl = buildTimeline(s, p);
    h += figure(timelineChartSvg(tl), "chart-timeline",
                "The step per pipeline rank (ms): compute above, communication below each rank's label.", o);
    return h + "<p>" + escapeHtml(report::timelineLine(tl)) + "</p>\n</section>\n";
}

// The run: its figures, the goodput bar and the loss against tokens.
std::string runSection(const Plan& p, bool invalid, const HtmlOptions& o) {
    std::string h = section("run", report::kRunSection);
    if (invalid)
        return h + kNotAvailable + "</section>\n";
    h += kvTable(report::runRows(p), o);
    h += figure(goodputChartSvg(p), "chart-goodput",
                "Wall clock: the ideal days, then the days checkpoint writes and failures (redone work and "
                "restarts) add.",
                o);
    h += figure(
        lossChartSvg(p), "chart-loss",
        "Predicted loss against tokens for this model; the chosen token budget and the compute-optimal "
        "tokens (20 per parameter) are marked.",
        o);
    return h + "</section>\n";
}

std::string diagnosticsSection(const Plan& p) {
    std::string h = section("diagnostics", report::kDiagnosticsSection);
    const auto diags = report::diagnosticViews(p);
    if (diags.empty())
        h += "<p>No diagnostics: nothing in this layout needs attention.</p>\n";
    for (const auto& d : diags) {
        h += "<div class=\"diag diag-" + d.severity + "\">\n<p><span class=\"sev sev-" + d.severity + "\">" +
             escapeHtml(d.severity) + "</span> <code>" + escapeHtml(d.id) + "</code> " +
             escapeHtml(d.message) + "</p>\n";
        if (!d.suggestion.empty())
            h += "<p><b>Suggestion:</b> " + escapeHtml(d.suggestion) + "</p>\n";
        if (!d.cost.empty())
            h += "<p><b>Cost:</b> " + escapeHtml(d.cost) + "</p>\n";
        h += "</div>\n";
    }
    return h + "</section>\n";
}

std::string explanationsSection(const ReportInput& r) {
    const std::vector<Explanation>& explanations = r.explanations;
    const std::vector<KeyFigure> cards = report::figureCards(r.scenario, r.plan, MemoryUnit::GB);
    std::string h = section("explanations", "How the key figures are computed");
    if (explanations.empty())
        return h + "<p>No explanations: the layout is invalid.</p>\n</section>\n";
    h += "<dl class=\"explain\">\n";
    for (const auto& e : explanations) {
        h += "<div>\n<dt>" + escapeHtml(e.label) + " = " +
             escapeHtml(explanationValueText(e, cards, MemoryUnit::GB)) + " <code>" + escapeHtml(e.key) +
             "</code></dt>\n";
        if (!e.words.empty())
            h += "<dd>" + escapeHtml(e.words) + "</dd>\n";
        if (!e.formula.empty())
            h += "<dd>Formula: <code>" + escapeHtml(e.formula) + "</code></dd>\n";
        if (!e.substituted.empty())
            h += "<dd>With the values: <code>" + escapeHtml(e.substituted) + "</code></dd>\n";
        if (!e.source.empty())
            h += "<dd>Source: " + escapeHtml(e.source) + "</dd>\n";
        h += "</div>\n";
    }
    return h + "</dl>\n</section>\n";
}

// The hardware profile, the assumptions and the scenario file: what a reader needs to reproduce the figures.
std::string provenanceSections(const ReportInput& r, const HtmlOptions& o) {
    const Scenario& s = r.scenario;
    std::string h = section("profile", "Hardware profile");
    h += "<p>" + escapeHtml(profileDescription(r.profile, s)) + ".</p>\n" +
         kvTable(report::profileFacts(r), o);
    h += "</section>\n";
    h += section("assumptions", "Assumptions") + "<ul>\n";
    for (const auto& a : reportAssumptions(s, r.profile, r.plan))
        h += "<li>" + escapeHtml(a) + "</li>\n";
    h += "</ul>\n</section>\n";
    h += section("scenario-file", "Appendix: scenario file");
    h += "<p>The scenario in full, as a Layout Planner scenario file (open it in the window or pass it to "
         "<code>layout-planner-cli evaluate</code> to reproduce this report's figures).</p>\n";
    return h + "<pre>" + escapeHtml(scenarioToJson(s)) + "</pre>\n</section>\n";
}

std::string footer(const ReportInput& r) {
    return "\n<footer>Layout Planner " + escapeHtml(r.toolVersion) + " \xC2\xB7 report format " +
           kReportSchema + " version " + std::to_string(kReportVersion) + " \xC2\xB7 " +
           escapeHtml(displayTimestamp(r.generatedAt)) + "</footer>\n</body>\n</html>\n";
}

} // namespace

std::string reportToHtml(const ReportInput& r, const HtmlOptions& options) {
    const Scenario& s = r.scenario;
    const Plan& p = r.plan;
    const bool invalid = report::isInvalid(p);
    std::string h;
    h.reserve(96 * 1024);
    h += head(r);
    h += pageHeader(r, invalid);
    if (options.navigation)
        h += kNavigation;
    h += section("summary", "Summary") + kvTable(report::summaryFigures(r), options) + "</section>\n";
    h += scenarioSection(s, p, options);
    h += section("layout", "Layout") + kvTable(report::layoutFacts(s, p), options) + "</section>\n";
    h += memorySection(p, invalid, options);
    h += precisionSection(s, p, invalid, options);
    h += timeSection(p, invalid, options);
    h += timelineSection(s, p, invalid, options);
    h += section("utilisation", report::kUtilisationSection);
    h += invalid ? std::string(kNotAvailable) : kvTable(report::utilisationFacts(s, p), options);
    h += "</section>\n";
    h += runSection(p, invalid, options);
    h += diagnosticsSection(p);
    h += explanationsSection(r);
    h += provenanceSections(r, options);
    h += footer(r);
    return h;
}

} // namespace lp::core
