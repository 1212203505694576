// The Markdown report, for a code forge (GitHub / GitLab flavoured tables). Every user-supplied
// string goes through escapeMarkdown(): it renders as text, and raw HTML cannot get through.
// Charts are drawn with block characters in fenced code blocks (a forge shows no inline SVG).
#include "core/report/ReportMarkdown.h"

#include "core/estimate/KeyFigures.h"
#include "core/io/ScenarioJson.h"
#include "core/report/RunFigures.h"
#include "core/report/SvgCharts.h"
#include "core/report/detail/ReportContent.h"
#include "core/util/Markup.h"
#include "core/util/NumberFormat.h"

#include <algorithm>
#include <cmath>

namespace lp::core {
namespace {

using report::KeyValues;
using report::Table;

std::string kvTable(const KeyValues& kv) {
    std::string out = "| | |\n|---|---|\n";
    for (const auto& [k, v] : kv)
        out += "| " + escapeMarkdownCell(k) + " | " + escapeMarkdownCell(v) + " |\n";
    return out + "\n";
}

std::string dataTable(const Table& t) {
    std::string out = "|";
    for (const auto& h : t.headers)
        out += " " + escapeMarkdownCell(h) + " |";
    out += "\n|";
    for (std::size_t c = 0; c < t.headers.size(); ++c)
        out += (c < t.numeric.size() && t.numeric[c]) ? "---:|" : "---|";
    out += "\n";
    for (std::size_t r = 0; r < t.rows.size(); ++r) {
        const bool emph = static_cast<int>(r) == t.emphasizedRow;
        out += "|";
        for (const auto& cell : t.rows[r])
            out += " " + (emph ? "**" + escapeMarkdownCell(cell) + "**" : escapeMarkdownCell(cell)) + " |";
        out += "\n";
    }
    return out + "\n";
}

// A bar of `cells` character cells in eighths ("█▉▊▋▌▍▎▏").
std::string bar(double fraction, int cells) {
    static const char* kEighths[] = {"",
                                     "\xE2\x96\x8F",
                                     "\xE2\x96\x8E",
                                     "\xE2\x96\x8D",
                                     "\xE2\x96\x8C",
                                     "\xE2\x96\x8B",
                                     "\xE2\x96\x8A",
                                     "\xE2\x96\x89"};
    if (!std::isfinite(fraction) || fraction < 0)
        fraction = 0;
    const int eighths = static_cast<int>(std::lround(fraction * cells * 8));
    std::string out;
    for (int i = 0; i < eighths / 8; ++i)
        out += "\xE2\x96\x88";
    out += kEighths[eighths % 8];
    return out;
}

char timelineLetter(TimelineKind kind) {
    switch (kind) {
    case TimelineKind::Forward:
        return 'F';
    case TimelineKind::Backward:
    case TimelineKind::BackwardWeight:
        return 'B';
    case TimelineKind::Recompute:
        return 'R';
    case TimelineKind::PipelineSend:
    case TimelineKind::LayerComm:
    case TimelineKind::DataParallel:
    case TimelineKind::DataParallelExposed:
        return 'c';
    case TimelineKind::Host:
        return 'h';
    case TimelineKind::Optimizer:
        return 'O';
    case TimelineKind::Loader:
        return 'L';
    case TimelineKind::Straggler:
        return 'S';
    case TimelineKind::Idle:
        return '.';
    }
    return ' ';
}

std::string padRight(std::string s, std::size_t width) {
    std::size_t chars = 0;
    for (unsigned char c : s)
        if ((c & 0xC0) != 0x80)
            ++chars;
    if (chars < width)
        s.append(width - chars, ' ');
    return s;
}

std::string fence(const std::string& content) {
    std::size_t longest = 0, run = 0;
    for (char c : content) {
        run = c == '`' ? run + 1 : 0;
        longest = std::max(longest, run);
    }
    return std::string(std::max<std::size_t>(3, longest + 1), '`');
}

std::string memoryBars(const Plan& p) {
    const auto& m = p.memory;
    double top = m.capacityBytes;
    for (const auto& st : m.stages)
        top = std::max(top, st.totalBytes);
    if (!(top > 0))
        return {};
    const int cells = 40;
    std::string out = "```text\n";
    for (const auto& st : m.stages) {
        out += padRight("stage " + std::to_string(st.stage), 10) +
               padRight(bar(st.totalBytes / top, cells), cells + 1) + fmt::gib(st.totalBytes) +
               (st.stage == m.worstStage ? "  <- worst" : "") + "\n";
    }
    out += padRight("capacity", 10) + padRight(bar(m.capacityBytes / top, cells), cells + 1) +
           fmt::gib(m.capacityBytes) + (m.fits ? "" : "  (does not fit)") + "\n```\n\n";
    return out;
}

std::string timeBars(const Plan& p) {
    double top = 0;
    for (const auto& r : timeRows(p.time))
        top = std::max(top, r.seconds);
    if (!(top > 0))
        return {};
    std::string out = "```text\n";
    for (const auto& r : timeRows(p.time)) {
        if (!(r.seconds > 0))
            continue;
        out += padRight(std::string(r.label), 30) + padRight(bar(r.seconds / top, 30), 31) +
               fmt::fixed(r.seconds * 1e3, 1) + " ms\n";
    }
    return out + "```\n\n";
}

constexpr const char* kNotAvailable = "Not available: the layout is invalid (see the diagnostics).\n\n";

// The run's wall clock as text bars: the ideal days and what checkpoints and failures add.
std::string goodputBars(const Plan& p) {
    const report::GoodputSplit g = report::goodputSplit(p.run);
    const double total = g.wallClockDays();
    if (!(total > 0))
        return {};
    std::string out = "```text\n";
    for (const auto& [label, days] : {std::pair{report::kIdealTimeLabel, g.idealDays},
                                      std::pair{report::kCheckpointTimeLabel, g.checkpointDays},
                                      std::pair{report::kFailureTimeLabel, g.failureDays}})
        out += padRight(std::string(label), 30) + padRight(bar(days / total, 30), 31) + fmt::fixed(days, 1) +
               " days\n";
    return out + "```\n\n";
}

std::string heading(std::string_view title) {
    return "## " + std::string(title) + "\n\n";
}

std::string scenarioSection(const Scenario& s, const Plan& p) {
    std::string md = heading("Scenario") + "**" + escapeMarkdown(scenarioName(s)) + "**\n\n";
    if (!s.notes.empty())
        md += escapeMarkdownBlock(s.notes) + "\n\n";
    md += "### Model\n\n" + kvTable(report::modelFacts(s, p));
    md += "### Cluster\n\n" + kvTable(report::clusterFacts(s));
    md += "### Training options\n\n" + kvTable(report::trainingFacts(s, p));
    return md;
}

std::string memorySection(const Plan& p, bool invalid) {
    std::string md = heading(report::kMemorySection);
    if (invalid || p.memory.stages.empty())
        return md + kNotAvailable;
    md += "In GiB (2^30 bytes) unless marked GB.\n\n" + dataTable(report::memoryTable(p));
    md += memoryBars(p);
    return md + kvTable(report::memoryFacts(p));
}

std::string precisionSection(const Scenario& s, const Plan& p, bool invalid) {
    std::string md = heading(report::kNumberFormatsSection) +
                     "Which tensors the run keeps in which number format, and why.\n\n" +
                     dataTable(report::numberFormatTable(s));
    if (const std::string extras = report::fp8ExtrasLine(p); !invalid && !extras.empty())
        md += escapeMarkdown(extras) + "\n\n";
    return md;
}

std::string timeSection(const Plan& p, bool invalid) {
    std::string md = heading(report::kTimeSection);
    if (invalid)
        return md + kNotAvailable;
    md += dataTable(report::timeTable(p));
    md += timeBars(p);
    return md + escapeMarkdown(report::bubbleLine(p)) + "\n\n";
}

// The timeline as text lanes: one row per rank, each cell the compute-lane event at its middle.
std::string timelineLanes(const Timeline& tl) {
    constexpr int cells = 72;
    std::string out = "```text\n";
    for (const TimelineRank& r : tl.ranks) {
        std::string row(cells, ' ');
        for (const TimelineEvent& e : tl.events) {
            if (e.rank != r.rank || e.lane != TimelineLane::Compute)
                continue;
            for (int i = 0; i < cells; ++i) {
                const double t = (i + 0.5) * tl.makespanSeconds / cells;
                if (t >= e.startSeconds && t < e.endSeconds())
                    row[static_cast<std::size_t>(i)] = timelineLetter(e.kind);
            }
        }
        out += padRight("rank " + std::to_string(r.rank), 9) + "|" + row + "|\n";
    }
    return out + "F forward, B backward, R recompute, c communication, h host, . bubble, O optimizer, " +
           "L loader, S stragglers\n```\n\n";
}

std::string timelineSection(const Scenario& s, const Plan& p, bool invalid) {
    std::string md = heading(report::kTimelineSection);
    if (invalid)
        return md + kNotAvailable;
    const Timeline tl = buildTimeline(s, p);
    return md + timelineLanes(tl) + escapeMarkdown(report::timelineLine(tl)) + "\n\n";
}

std::string diagnosticsSection(const Plan& p) {
    std::string md = heading(report::kDiagnosticsSection);
    const auto diags = report::diagnosticViews(p);
    if (diags.empty())
        return md + "No diagnostics: nothing in this layout needs attention.\n\n";
    for (const auto& d : diags) {
        md += "- **" + escapeMarkdown(d.severity) + "** `" + d.id + "`: " + escapeMarkdown(d.message) + "\n";
        if (!d.suggestion.empty())
            md += "  - Suggestion: " + escapeMarkdown(d.suggestion) + "\n";
        if (!d.cost.empty())
            md += "  - Cost: " + escapeMarkdown(d.cost) + "\n";
    }
    return md + "\n";
}

std::string explanationsSection(const ReportInput& r) {
    const std::vector<Explanation>& explanations = r.explanations;
    const std::vector<KeyFigure> cards = report::figureCards(r.scenario, r.plan, MemoryUnit::GB);
    std::string md = heading("How the key figures are computed");
    if (explanations.empty())
        md += "No explanations: the layout is invalid.\n\n";
    for (const auto& e : explanations) {
        md += "**" + escapeMarkdown(e.label) + " = " +
              escapeMarkdown(explanationValueText(e, cards, MemoryUnit::GB)) + "** (`" + e.key + "`)\n\n";
        if (!e.words.empty())
            md += escapeMarkdown(e.words) + "\n\n";
        if (!e.formula.empty())
            md += "- Formula: " + escapeMarkdown(e.formula) + "\n";
        if (!e.substituted.empty())
            md += "- With the values: " + escapeMarkdown(e.substituted) + "\n";
        if (!e.source.empty())
            md += "- Source: " + escapeMarkdown(e.source) + "\n";
        md += "\n";
    }
    return md;
}

// The hardware profile, the assumptions and the scenario file: what a reader needs to reproduce the figures.
std::string provenanceSections(const ReportInput& r) {
    const Scenario& s = r.scenario;
    std::string md = heading("Hardware profile") + escapeMarkdown(profileDescription(r.profile, s)) +
                     ".\n\n" + kvTable(report::profileFacts(r));
    md += heading("Assumptions");
    for (const auto& a : reportAssumptions(s, r.profile, r.plan))
        md += "- " + escapeMarkdown(a) + "\n";
    md += "\n";
    const std::string json = scenarioToJson(s);
    const std::string f = fence(json);
    return md + heading("Appendix: scenario file") +
           "The scenario in full, as a Layout Planner scenario file.\n\n" + f + "json\n" + json +
           (json.ends_with('\n') ? "" : "\n") + f + "\n\n";
}

} // namespace

std::string reportToMarkdown(const ReportInput& r) {
    const Scenario& s = r.scenario;
    const Plan& p = r.plan;
    const bool invalid = report::isInvalid(p);
    std::string md;
    md.reserve(48 * 1024);
    md += "# " + escapeMarkdown(r.title) + "\n\n";
    md += "Generated " + escapeMarkdown(displayTimestamp(r.generatedAt)) + " by Layout Planner " +
          escapeMarkdown(r.toolVersion) + ". Scenario: **" + escapeMarkdown(scenarioName(s)) + "**.\n\n";
    md += "**Status:** " + escapeMarkdown(report::statusLine(p)) + "\n\n";
    md += heading("Summary") + kvTable(report::summaryFigures(r));
    md += scenarioSection(s, p);
    md += heading("Layout") + kvTable(report::layoutFacts(s, p));
    md += memorySection(p, invalid);
    md += precisionSection(s, p, invalid);
    md += timeSection(p, invalid);
    md += timelineSection(s, p, invalid);
    md += heading(report::kUtilisationSection);
    md += invalid ? std::string("Not available: the layout is invalid.\n\n")
                  : kvTable(report::utilisationFacts(s, p));
    md += heading(report::kRunSection);
    md += invalid ? std::string("Not available: the layout is invalid.\n\n")
                  : kvTable(report::runRows(p)) + goodputBars(p);
    md += diagnosticsSection(p);
    md += explanationsSection(r);
    md += provenanceSections(r);
    md += "---\n\n*Layout Planner " + escapeMarkdown(r.toolVersion) + ", report format " +
          escapeMarkdown(kReportSchema) + " version " + std::to_string(kReportVersion) + "*\n";
    return md;
}

} // namespace lp::core
