#include "core/report/SvgCharts.h"

#include "core/estimate/KeyFigures.h"
#include "core/model/Enums.h"
#include "core/model/Units.h"
#include "core/report/RunFigures.h"
#include "core/util/Markup.h"
#include "core/util/NumberFormat.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace lp::core {
namespace {

// Coordinates with one decimal: short, deterministic output.
std::string num(double v) {
    if (!std::isfinite(v))
        v = 0;
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", v);
    std::string s = buf;
    if (s.ends_with(".0"))
        s.resize(s.size() - 2);
    if (s == "-0")
        s = "0";
    return s;
}

double niceStep(double range, int targetTicks) {
    if (!(range > 0))
        return 1.0;
    const double raw = range / targetTicks;
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    const double norm = raw / mag;
    double step = 10.0;
    if (norm <= 1.0)
        step = 1.0;
    else if (norm <= 2.0)
        step = 2.0;
    else if (norm <= 2.5)
        step = 2.5;
    else if (norm <= 5.0)
        step = 5.0;
    return step * mag;
}

std::string tickLabel(double v, double step) {
    const int decimals = step >= 1.0 ? 0 : (step >= 0.1 ? 1 : 2);
    return fmt::fixed(v, decimals);
}

std::string svgOpen(int width, int height, const std::string& label) {
    return "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.2\" baseProfile=\"tiny\" width=\"" +
           std::to_string(width) + "\" height=\"" + std::to_string(height) + "\" viewBox=\"0 0 " +
           std::to_string(width) + " " + std::to_string(height) + "\" role=\"img\" aria-label=\"" +
           escapeHtml(label) + "\" font-family=\"Helvetica, Arial, sans-serif\" font-size=\"12\">\n<title>" +
           escapeHtml(label) + "</title>\n<rect x=\"0\" y=\"0\" width=\"" + std::to_string(width) +
           "\" height=\"" + std::to_string(height) + "\" fill=\"#ffffff\"/>\n";
}

std::string text(double x, double y, const std::string& content, const std::string& extra = {}) {
    return "<text x=\"" + num(x) + "\" y=\"" + num(y) + "\"" + (extra.empty() ? "" : " " + extra) + ">" +
           escapeHtml(content) + "</text>\n";
}

std::string rect(double x, double y, double w, double h, std::string_view fill,
                 const std::string& extra = {}) {
    return "<rect x=\"" + num(x) + "\" y=\"" + num(y) + "\" width=\"" + num(w) + "\" height=\"" + num(h) +
           "\" fill=\"" + std::string(fill) + "\"" + (extra.empty() ? "" : " " + extra) + "/>\n";
}

std::string line(double x1, double y1, double x2, double y2, std::string_view stroke,
                 const std::string& extra = {}) {
    return "<line x1=\"" + num(x1) + "\" y1=\"" + num(y1) + "\" x2=\"" + num(x2) + "\" y2=\"" + num(y2) +
           "\" stroke=\"" + std::string(stroke) + "\"" + (extra.empty() ? "" : " " + extra) + "/>\n";
}

// Approximate width of a label in the 12 px sans-serif font (for legend spacing only).
double textWidth(std::string_view s) {
    return 6.6 * static_cast<double>(s.size());
}

// `sentence` in lines no wider than `maxWidth` (textWidth), broken after its "; " where it can, else
// between words: a footnote that runs past the chart's right edge is cut off there.
std::vector<std::string> wrapLines(const std::string& sentence, double maxWidth) {
    std::vector<std::string> words;
    std::size_t start = 0;
    while (start < sentence.size()) {
        const std::size_t space = sentence.find(' ', start);
        const std::size_t end = space == std::string::npos ? sentence.size() : space;
        words.push_back(sentence.substr(start, end - start));
        start = end + 1;
    }
    std::vector<std::string> lines;
    std::string current;
    for (std::size_t i = 0; i < words.size(); ++i) {
        // The clause that starts here (up to and with the next word ending in ';'), kept whole when it fits.
        std::string clause = words[i];
        std::size_t last = i;
        while (!clause.ends_with(';') && last + 1 < words.size())
            clause += " " + words[++last];
        const std::string joined = current.empty() ? clause : current + " " + clause;
        if (textWidth(joined) <= maxWidth) {
            current = joined;
            i = last;
            continue;
        }
        if (!current.empty() && textWidth(clause) <= maxWidth) {
            lines.push_back(current);
            current = clause;
            i = last;
            continue;
        }
        // The clause is wider than a line: word by word.
        const std::string withWord = current.empty() ? words[i] : current + " " + words[i];
        if (!current.empty() && textWidth(withWord) > maxWidth) {
            lines.push_back(current);
            current = words[i];
        } else {
            current = withWord;
        }
    }
    if (!current.empty())
        lines.push_back(current);
    return lines;
}

SvgChart noData(int width, const std::string& title, const std::string& message) {
    SvgChart c;
    c.width = width;
    c.height = 60;
    c.svg = svgOpen(width, c.height, title) +
            text(width / 2.0, 34, message, "text-anchor=\"middle\" fill=\"#555555\"") + "</svg>\n";
    return c;
}

} // namespace

std::string_view memoryComponentKey(MemoryComponent c) {
    switch (c) {
    case MemoryComponent::Weights:
        return "weights";
    case MemoryComponent::Gradients:
        return "gradients";
    case MemoryComponent::Optimizer:
        return "optimizer";
    case MemoryComponent::Activations:
        return "activations";
    case MemoryComponent::Overhead:
        return "overhead";
    }
    return "unknown";
}

std::string_view memoryComponentLabel(MemoryComponent c) {
    switch (c) {
    case MemoryComponent::Weights:
        return "Weights";
    case MemoryComponent::Gradients:
        return "Gradients";
    case MemoryComponent::Optimizer:
        return "Optimizer state";
    case MemoryComponent::Activations:
        return "Activations";
    case MemoryComponent::Overhead:
        return "Overheads";
    }
    return "Unknown";
}

std::string_view memoryComponentColor(MemoryComponent c) {
    switch (c) {
    case MemoryComponent::Weights:
        return "#4E79A7";
    case MemoryComponent::Gradients:
        return "#76B7B2";
    case MemoryComponent::Optimizer:
        return "#B07AA1";
    case MemoryComponent::Activations:
        return "#F28E2B";
    case MemoryComponent::Overhead:
        return "#9D948F";
    }
    return "#999999";
}

double memoryComponentBytes(const StageMemory& m, MemoryComponent c) {
    switch (c) {
    case MemoryComponent::Weights:
        return m.weightsBytes;
    case MemoryComponent::Gradients:
        return m.gradientsBytes;
    case MemoryComponent::Optimizer:
        return m.optimizerBytes;
    case MemoryComponent::Activations:
        return m.activationsBytes;
    case MemoryComponent::Overhead:
        return m.overheadBytes;
    }
    return 0;
}

std::vector<TimeRow> timeRows(const TimeBreakdown& t) {
    return {
        {"compute", "Compute (forward + backward)", "#4E79A7", t.computeSeconds},
        {"recompute", "Recompute", "#A0CBE8", t.recomputeSeconds},
        {"tp_comm", "TP communication", "#59A14F", t.tpCommSeconds},
        {"pp_comm", "PP communication", "#8CD17D", t.ppCommSeconds},
        {"cp_comm", "CP communication", "#499894", t.cpCommSeconds},
        {"ep_comm", "EP communication", "#86BCB6", t.epCommSeconds},
        {"offload", "Activation offload (exposed)", "#79706E", t.offloadSeconds},
        {"bubble", "Pipeline bubble", "#EDC948", t.bubbleSeconds},
        {"dp_comm_exposed", "DP communication (exposed)", "#B07AA1", t.dpCommExposedSeconds},
        {"optimizer", "Optimizer step", "#D4A6C8", t.optimizerSeconds},
        {"loader", "Data loader (exposed)", "#9C755F", t.loaderSeconds},
        {"straggler", "Stragglers", "#F28E2B", t.stragglerSeconds},
        {"overhead", "Host overhead", "#BAB0AC", t.overheadSeconds},
    };
}

SvgChart memoryChartSvg(const Plan& p, int width) {
    const std::string title = "Memory per GPU by pipeline stage";
    const auto& mem = p.memory;
    if (mem.stages.empty())
        return noData(width, title, "No memory figures: the layout is invalid.");

    const double left = 64, right = 20, top = 52, bottom = 50;
    const int height = 380;
    const double plotW = width - left - right;
    const double plotH = height - top - bottom;
    const bool fits = mem.fits;
    const std::string_view capColor = fits ? kColorCapacity : kColorDoesNotFit;

    double maxTotal = 0;
    for (const auto& st : mem.stages)
        maxTotal = std::max(maxTotal, st.totalBytes);
    const double capGiB = mem.capacityBytes / kGiB;
    const double maxGiB = std::max({capGiB, maxTotal / kGiB, 1e-3}) * 1.12;
    const double step = niceStep(maxGiB, 5);
    const double yTop = std::ceil(maxGiB / step) * step;
    auto y = [&](double gibValue) { return top + plotH - gibValue / yTop * plotH; };

    SvgChart c;
    c.width = width;
    c.height = height;
    std::string s = svgOpen(width, height, title + " (GiB)");

    // Legend.
    double lx = left;
    for (const auto comp : kMemoryComponentOrder) {
        s += rect(lx, 14, 12, 12, memoryComponentColor(comp));
        s += text(lx + 16, 24.5, std::string(memoryComponentLabel(comp)), "fill=\"#222222\"");
        lx += 16 + textWidth(memoryComponentLabel(comp)) + 18;
    }

    // Grid and y axis.
    for (double v = 0; v <= yTop + step * 0.01; v += step) {
        s += line(left, y(v), left + plotW, y(v), v == 0 ? "#888888" : "#E3E3E3");
        s += text(left - 6, y(v) + 4, tickLabel(v, step), "text-anchor=\"end\" fill=\"#444444\"");
    }
    s += text(16, top + plotH / 2, "GiB per GPU",
              "text-anchor=\"middle\" fill=\"#444444\" transform=\"rotate(-90 16 " + num(top + plotH / 2) +
                  ")\"");

    // Bars.
    const auto n = static_cast<double>(mem.stages.size());
    const double slot = plotW / n;
    const double bw = std::min(56.0, slot * 0.7);
    const int labelEvery = n > 24 ? static_cast<int>(std::ceil(n / 24.0)) : 1;
    for (std::size_t i = 0; i < mem.stages.size(); ++i) {
        const StageMemory& st = mem.stages[i];
        const double x0 = left + static_cast<double>(i) * slot + (slot - bw) / 2;
        double acc = 0;
        s += "<g>\n";
        for (const auto comp : kMemoryComponentOrder) {
            const double v = std::max(0.0, memoryComponentBytes(st, comp)) / kGiB;
            const double h = y(acc) - y(acc + v);
            if (h > 0.05) {
                s += "<rect x=\"" + num(x0) + "\" y=\"" + num(y(acc + v)) + "\" width=\"" + num(bw) +
                     "\" height=\"" + num(h) + "\" fill=\"" + std::string(memoryComponentColor(comp)) +
                     "\"><title>" +
                     escapeHtml("Stage " + std::to_string(st.stage) + " " +
                                std::string(memoryComponentLabel(comp)) + ": " + fmt::gib(v * kGiB)) +
                     "</title></rect>\n";
            }
            acc += v;
        }
        const bool worst = st.stage == mem.worstStage;
        if (worst)
            s += rect(x0, y(acc), bw, y(0) - y(acc), "none", "stroke=\"#222222\" stroke-width=\"1.5\"");
        if (n <= 24)
            s += text(x0 + bw / 2, y(acc) - 4, fmt::fixed(acc, 1), "text-anchor=\"middle\" fill=\"#222222\"");
        if (worst)
            s += text(x0 + bw / 2, y(acc) - (n <= 24 ? 18 : 4), "worst",
                      "text-anchor=\"middle\" font-weight=\"bold\" fill=\"" +
                          std::string(fits ? "#222222" : kColorDoesNotFit) + "\"");
        if (static_cast<int>(i) % labelEvery == 0)
            s += text(x0 + bw / 2, top + plotH + 16, std::to_string(st.stage),
                      "text-anchor=\"middle\" fill=\"#444444\"");
        s += "</g>\n";
    }
    s += text(left + plotW / 2, height - 12, "Pipeline stage", "text-anchor=\"middle\" fill=\"#444444\"");

    // Capacity line.
    const double yc = y(capGiB);
    s += line(left, yc, left + plotW, yc, capColor, "stroke-width=\"2\" stroke-dasharray=\"6 4\"");
    const std::string capText = "capacity " + fmt::gib(mem.capacityBytes, 1) + " (" +
                                fmt::gb(mem.capacityBytes, 1) + ")" +
                                (fits ? "" : " \xE2\x80\x94 does not fit");
    s += text(left + plotW - 4, yc - 6, capText,
              "text-anchor=\"end\" fill=\"" + std::string(capColor) + "\"" +
                  (fits ? "" : " font-weight=\"bold\""));
    s += "</svg>\n";
    c.svg = std::move(s);
    return c;
}

SvgChart timeChartSvg(const Plan& p, int width) {
    const std::string title = "Step time by component";
    const auto& t = p.time;
    std::vector<TimeRow> rows;
    for (const auto& r : timeRows(t))
        if (std::isfinite(r.seconds) && (r.seconds > 0 || r.key == "compute"))
            rows.push_back(r);
    if (!p.valid || !(t.stepSeconds > 0))
        return noData(width, title, "No step time: the layout is invalid.");

    const double labelW = 210, valueW = 160, top = 12, rowH = 26, bottom = 36, footLineH = 16;
    const std::vector<std::string> footnote = wrapLines(
        "Step " + fmt::fixed(t.stepSeconds * 1e3, 1) + " ms; bubble " + bubbleText(t), width - labelW - 8);
    const int height = static_cast<int>(top + rowH * static_cast<double>(rows.size()) + bottom +
                                        footLineH * static_cast<double>(footnote.size() - 1));
    double maxS = 0;
    for (const auto& r : rows)
        maxS = std::max(maxS, r.seconds);
    const double barArea = width - labelW - valueW - 10;
    const double scale = maxS > 0 ? barArea / maxS : 0;

    SvgChart c;
    c.width = width;
    c.height = height;
    std::string s = svgOpen(width, height, title + " (ms)");
    double yy = top;
    for (const auto& r : rows) {
        const double w = std::max(r.seconds * scale, r.seconds > 0 ? 1.0 : 0.0);
        const double share = r.seconds / t.stepSeconds;
        s +=
            text(labelW - 8, yy + rowH / 2 + 4, std::string(r.label), "text-anchor=\"end\" fill=\"#222222\"");
        s += "<rect x=\"" + num(labelW) + "\" y=\"" + num(yy + 4) + "\" width=\"" + num(w) + "\" height=\"" +
             num(rowH - 8) + "\" fill=\"" + std::string(r.color) + "\"><title>" +
             escapeHtml(std::string(r.label) + ": " + fmt::fixed(r.seconds * 1e3, 1) + " ms") +
             "</title></rect>\n";
        s += text(labelW + w + 6, yy + rowH / 2 + 4,
                  fmt::fixed(r.seconds * 1e3, 1) + " ms (" + fmt::percent(share) + ")", "fill=\"#444444\"");
        yy += rowH;
    }
    s += line(labelW, top, labelW, yy, "#888888");
    for (std::size_t i = 0; i < footnote.size(); ++i)
        s += text(labelW, yy + 22 + footLineH * static_cast<double>(i), footnote[i], "fill=\"#444444\"");
    s += "</svg>\n";
    c.svg = std::move(s);
    return c;
}

namespace {

constexpr std::string_view kColorIdeal = "#4E79A7";
constexpr std::string_view kColorCheckpoint = "#EDC948";
constexpr std::string_view kColorFailure = "#E15759";
constexpr std::string_view kColorOptimal = "#59A14F";

bool hasRun(const Plan& p) {
    return p.valid && p.run.tokens > 0 && std::isfinite(p.run.wallClockSeconds);
}

} // namespace

SvgChart goodputChartSvg(const Plan& p, int width) {
    const std::string title = "Wall clock: ideal and lost time";
    const report::GoodputSplit g = report::goodputSplit(p.run);
    if (!hasRun(p) || !(g.wallClockDays() > 0))
        return noData(width, title, "No wall clock: the layout is invalid or the run never finishes.");
    const double left = 20, right = 20, barY = 40, barH = 28;
    const int height = 120;
    const double scale = (width - left - right) / g.wallClockDays();
    const struct {
        std::string_view label;
        std::string_view color;
        double days;
    } parts[] = {{report::kIdealTimeLabel, kColorIdeal, g.idealDays},
                 {report::kCheckpointTimeLabel, kColorCheckpoint, g.checkpointDays},
                 {report::kFailureTimeLabel, kColorFailure, g.failureDays}};
    SvgChart c;
    c.width = width;
    c.height = height;
    std::string s = svgOpen(width, height, title + " (days)");
    double x = left;
    double lx = left;
    for (const auto& part : parts) {
        const std::string label = std::string(part.label) + " " + fmt::fixed(part.days, 1) + " d";
        s += rect(x, barY, part.days * scale, barH, part.color, "stroke=\"#ffffff\" stroke-width=\"0.5\"");
        x += part.days * scale;
        s += rect(lx, 14, 12, 12, part.color);
        s += text(lx + 16, 24.5, label, "fill=\"#222222\"");
        lx += 16 + textWidth(label) + 18;
    }
    s += text(left, barY + barH + 24,
              "Wall clock " + fmt::fixed(g.wallClockDays(), 1) + " days; goodput " +
                  fmt::percent(p.run.goodput),
              "fill=\"#444444\"");
    c.svg = std::move(s) + "</svg>\n";
    return c;
}

SvgChart lossChartSvg(const Plan& p, int width) {
    const std::string title = "Predicted loss against tokens";
    const std::vector<report::LossPoint> curve = report::lossCurve(p.run);
    if (!hasRun(p) || curve.size() < 2)
        return noData(width, title, "No loss curve: the layout is invalid.");
    const double left = 64, right = 20, top = 40, bottom = 46;
    const int height = 300;
    const double plotW = width - left - right, plotH = height - top - bottom;
    const double lx0 = std::log10(curve.front().tokens), lx1 = std::log10(curve.back().tokens);
    double lo = curve.back().loss, hi = curve.front().loss;
    for (const auto& pt : curve)
        if (std::isfinite(pt.loss)) {
            lo = std::min(lo, pt.loss);
            hi = std::max(hi, pt.loss);
        }
    const double step = niceStep(std::max(hi - lo, 1e-3), 4);
    const double yLo = std::floor(lo / step) * step, yHi = std::ceil(hi / step) * step;
    auto x = [&](double tokens) { return left + (std::log10(tokens) - lx0) / (lx1 - lx0) * plotW; };
    auto y = [&](double loss) { return top + plotH - (loss - yLo) / (yHi - yLo) * plotH; };
    SvgChart c;
    c.width = width;
    c.height = height;
    std::string s = svgOpen(width, height, title + " (nats per token)");
    for (double v = yLo; v <= yHi + step * 0.01; v += step) {
        s += line(left, y(v), left + plotW, y(v), v == yLo ? "#888888" : "#E3E3E3");
        s += text(left - 6, y(v) + 4, fmt::fixed(v, 2), "text-anchor=\"end\" fill=\"#444444\"");
    }
    for (double d = std::ceil(lx0); d <= lx1; d += 1.0)
        s += text(x(std::pow(10.0, d)), top + plotH + 16, fmt::count(std::pow(10.0, d)),
                  "text-anchor=\"middle\" fill=\"#444444\"");
    s += text(left + plotW / 2, height - 10, "Tokens (logarithmic)",
              "text-anchor=\"middle\" fill=\"#444444\"");
    for (std::size_t i = 1; i < curve.size(); ++i)
        s += line(x(curve[i - 1].tokens), y(curve[i - 1].loss), x(curve[i].tokens), y(curve[i].loss),
                  kColorIdeal, "stroke-width=\"2\"");
    const double optimal = report::computeOptimalTokensForModel(p.run);
    const auto mark = [&](double tokens, std::string_view color, const std::string& label, double labelY) {
        s += line(x(tokens), top, x(tokens), top + plotH, color, "stroke-dasharray=\"5 4\"");
        s += text(x(tokens) + 4, labelY, label, "fill=\"" + std::string(color) + "\"");
    };
    mark(optimal, kColorOptimal, "compute-optimal " + fmt::count(optimal), top + 12);
    mark(p.run.tokens, "#222222",
         "chosen " + fmt::count(p.run.tokens) + ", loss " + fmt::fixed(p.run.predictedLoss, 3), top + 28);
    s += text(left, 24,
              std::string("Fit: ") + std::string(toString(p.run.lossFit)) + " (same model, " +
                  fmt::count(p.run.scalingParameters) + " parameters)",
              "fill=\"#222222\"");
    c.svg = std::move(s) + "</svg>\n";
    return c;
}

} // namespace lp::core

namespace lp::core {
namespace {

// The timeline's axis in milliseconds at a readable step.
std::string timelineAxis(double left, double y, double plotW, double makespan) {
    std::string s = line(left, y, left + plotW, y, "#888888");
    const double ms = makespan * 1e3, step = niceStep(ms, 8);
    for (double v = 0; v <= ms + 1e-9 && step > 0; v += step) {
        const double x = left + plotW * v / ms;
        s += line(x, y, x, y + 4, "#888888");
        s += text(x, y + 16, tickLabel(v, step), "text-anchor=\"middle\" fill=\"#444444\"");
    }
    return s + text(left + plotW, y + 30, "ms", "text-anchor=\"end\" fill=\"#444444\"");
}

} // namespace

std::string_view timelineKindColor(TimelineKind kind) {
    switch (kind) {
    case TimelineKind::Forward:
        return "#4E79A7";
    case TimelineKind::Backward:
        return "#76B7B2";
    case TimelineKind::BackwardWeight:
        return "#2F6F6A";
    case TimelineKind::Recompute:
        return "#A0CBE8";
    case TimelineKind::PipelineSend:
        return "#8CD17D";
    case TimelineKind::LayerComm:
        return "#59A14F";
    case TimelineKind::DataParallel:
        return "#D4A6C8";
    case TimelineKind::DataParallelExposed:
        return "#B07AA1";
    case TimelineKind::Optimizer:
        return "#E15759";
    case TimelineKind::Loader:
        return "#9C755F";
    case TimelineKind::Host:
        return "#BAB0AC";
    case TimelineKind::Straggler:
        return "#F28E2B";
    case TimelineKind::Idle:
        return "#EDC948";
    }
    return "#999999";
}

namespace {

// Events a pixel or two wide, drawn one by one, are slivers with tooltips nobody can point at, and a long
// accumulation has tens of thousands of them (a report of 3.5 MB). Neighbours on one rank's lane that
// together fill less than two pixels are drawn as one block, its height split between their kinds by their
// share of its time (forward and backward alternating in the steady state: the lane half blue, half teal),
// with a tooltip that sums the kinds; such blocks that follow each other with the same kinds (the steady
// state's forwards, backwards and their communication) are drawn as one.
// An event two pixels wide or more is drawn alone.
constexpr double kTimelineMergeBelowPixels = 2.0;
constexpr double kTimelineMergeGapPixels = 0.5;  // a wider gap starts a new block
constexpr double kTimelineNoticeableShare = 0.1; // blocks in which the same kinds take 10% or more join

struct TimelineBlock {
    int rank = 0;
    TimelineLane lane = TimelineLane::Compute;
    double x0 = 0, x1 = 0; // pixels
    double seconds[static_cast<int>(TimelineKind::Idle) + 1] = {};
    int events = 0;
    int firstMicroBatch = -1, lastMicroBatch = -1;
    const TimelineEvent* only = nullptr; // the event, while it is the block's only one

    void add(const TimelineEvent& e, double from, double to) {
        if (events == 0)
            x0 = from;
        x1 = std::max(x1, to);
        seconds[static_cast<int>(e.kind)] += e.seconds;
        only = events == 0 ? &e : nullptr;
        ++events;
        if (e.microBatch >= 0) {
            firstMicroBatch = firstMicroBatch < 0 ? e.microBatch : std::min(firstMicroBatch, e.microBatch);
            lastMicroBatch = std::max(lastMicroBatch, e.microBatch);
        }
    }
    // The next block of the same lane, with the same kinds, joins this one.
    void absorb(const TimelineBlock& next) {
        x1 = std::max(x1, next.x1);
        for (int k = 0; k <= static_cast<int>(TimelineKind::Idle); ++k)
            seconds[k] += next.seconds[k];
        events += next.events;
        only = nullptr;
        if (next.firstMicroBatch >= 0) {
            firstMicroBatch =
                firstMicroBatch < 0 ? next.firstMicroBatch : std::min(firstMicroBatch, next.firstMicroBatch);
            lastMicroBatch = std::max(lastMicroBatch, next.lastMicroBatch);
        }
    }
    double total() const {
        double t = 0;
        for (double v : seconds)
            t += v;
        return t;
    }
    // The kinds that take a noticeable share of the block's time, as bits.
    unsigned mix() const {
        const double t = total();
        unsigned bits = 0;
        for (int k = 0; k <= static_cast<int>(TimelineKind::Idle); ++k)
            if (t > 0 && seconds[k] >= kTimelineNoticeableShare * t)
                bits |= 1u << k;
        return bits;
    }
};

std::string timelineEventTip(const Timeline& tl, const TimelineEvent& e) {
    return std::string(timelineKindTitle(e.kind)) +
           (e.microBatch >= 0 ? ", micro batch " + std::to_string(e.microBatch) : "") +
           (e.chunk >= 0 && tl.virtualStages > 1 ? ", chunk " + std::to_string(e.chunk) : "") + ": " +
           fmt::fixed(e.seconds * 1e3, 3) + " ms";
}

// "14 events, micro batches 3-9: Forward 1.234 ms, Backward 2.468 ms".
std::string timelineBlockTip(const TimelineBlock& b) {
    std::string tip = std::to_string(b.events) + " events";
    if (b.firstMicroBatch >= 0)
        tip += b.firstMicroBatch == b.lastMicroBatch
                   ? ", micro batch " + std::to_string(b.firstMicroBatch)
                   : ", micro batches " + std::to_string(b.firstMicroBatch) + "\u2013" +
                         std::to_string(b.lastMicroBatch);
    tip += ":";
    const char* separator = " ";
    for (int k = 0; k <= static_cast<int>(TimelineKind::Idle); ++k) {
        if (!(b.seconds[k] > 0))
            continue;
        tip += separator + std::string(timelineKindTitle(static_cast<TimelineKind>(k))) + " " +
               fmt::fixed(b.seconds[k] * 1e3, 3) + " ms";
        separator = ", ";
    }
    return tip;
}

} // namespace

SvgChart timelineChartSvg(const Timeline& tl, int width) {
    const std::string title = "Pipeline timeline";
    if (tl.ranks.empty() || !(tl.makespanSeconds > 0))
        return noData(width, title, "No timeline: the layout is invalid.");
    const double left = 90, right = 16, top = 12, rankH = 30, computeH = 16, commH = 7;
    const double plotW = width - left - right, scale = plotW / tl.makespanSeconds;
    const double axisY = top + rankH * static_cast<double>(tl.ranks.size()) + 4;
    bool present[static_cast<int>(TimelineKind::Idle) + 1] = {};
    std::string bars;
    auto draw = [&](int rank, TimelineLane lane, double x, double w, TimelineKind kind,
                    const std::string& tip) {
        present[static_cast<int>(kind)] = true;
        const double y = top + rankH * rank + (lane == TimelineLane::Compute ? 0 : computeH + 1);
        bars += "<rect x=\"" + num(x) + "\" y=\"" + num(y) + "\" width=\"" + num(std::max(w, 0.3)) +
                "\" height=\"" + num(lane == TimelineLane::Compute ? computeH : commH) + "\" fill=\"" +
                std::string(timelineKindColor(kind)) + "\"><title>" + escapeHtml(tip) + "</title></rect>\n";
    };
    // Per lane (compute, communication): the block being gathered, and the merged block waiting to be drawn,
    // which the next one joins when it follows without a gap with the same mix of kinds.
    TimelineBlock open[2], merged[2];
    auto emit = [&](TimelineBlock& m) {
        const double total = m.total();
        if (m.events > 0 && total > 0) {
            const bool compute = m.lane == TimelineLane::Compute;
            const double laneH = compute ? computeH : commH;
            double y = top + rankH * m.rank + (compute ? 0 : computeH + 1);
            bars += "<g><title>" + escapeHtml(timelineBlockTip(m)) + "</title>";
            for (int k = 0; k <= static_cast<int>(TimelineKind::Idle); ++k) {
                const double h = laneH * m.seconds[k] / total;
                if (h < 0.1) { // a tenth of a pixel: nothing to see
                    y += h;
                    continue;
                }
                present[k] = true;
                bars += "<rect x=\"" + num(m.x0) + "\" y=\"" + num(y) + "\" width=\"" +
                        num(std::max(m.x1 - m.x0, 0.3)) + "\" height=\"" + num(h) + "\" fill=\"" +
                        std::string(timelineKindColor(static_cast<TimelineKind>(k))) + "\"/>";
                y += h;
            }
            bars += "</g>\n";
        }
        m = TimelineBlock{};
    };
    auto flush = [&](TimelineBlock& b) {
        TimelineBlock& m = merged[&b == &open[0] ? 0 : 1];
        if (b.events == 1 && b.only) {
            emit(m);
            if (b.only->seconds * scale >= 0.05) // narrower than a twentieth of a pixel: nothing to see
                draw(b.rank, b.lane, b.x0, b.x1 - b.x0, b.only->kind, timelineEventTip(tl, *b.only));
        } else if (b.events > 1) {
            if (m.events > 0 && m.mix() == b.mix() && b.x0 - m.x1 <= kTimelineMergeGapPixels)
                m.absorb(b);
            else {
                emit(m);
                m = b;
            }
        }
        b = TimelineBlock{};
    };
    int rank = tl.events.empty() ? 0 : tl.events.front().rank;
    for (const TimelineEvent& e : tl.events) {
        if (e.rank != rank) { // blocks never span ranks
            flush(open[0]);
            flush(open[1]);
            emit(merged[0]);
            emit(merged[1]);
            rank = e.rank;
        }
        TimelineBlock& b = open[e.lane == TimelineLane::Compute ? 0 : 1];
        const double x0 = left + e.startSeconds * scale, w = e.seconds * scale;
        if (b.events > 0 && (w >= kTimelineMergeBelowPixels || x0 - b.x1 > kTimelineMergeGapPixels ||
                             b.x1 - b.x0 >= kTimelineMergeBelowPixels))
            flush(b);
        b.rank = e.rank;
        b.lane = e.lane;
        b.add(e, x0, x0 + w);
        if (w >= kTimelineMergeBelowPixels)
            flush(b);
    }
    flush(open[0]);
    flush(open[1]);
    emit(merged[0]);
    emit(merged[1]);
    // The legend: the kinds drawn, in the enum's order, wrapped to the width.
    std::string legend;
    double lx = left, ly = axisY + 46;
    for (int k = 0; k <= static_cast<int>(TimelineKind::Idle); ++k) {
        if (!present[k])
            continue;
        const std::string label(timelineKindTitle(static_cast<TimelineKind>(k)));
        if (lx + 18 + textWidth(label) > width - right) {
            lx = left;
            ly += 18;
        }
        legend += rect(lx, ly - 10, 12, 12, timelineKindColor(static_cast<TimelineKind>(k)));
        legend += text(lx + 16, ly, label, "fill=\"#222222\"");
        lx += 28 + textWidth(label);
    }
    SvgChart c;
    c.width = width;
    c.height = static_cast<int>(ly + 12);
    std::string s = svgOpen(width, c.height, title + " (" + std::string(toString(tl.schedule)) + ")");
    for (const TimelineRank& r : tl.ranks)
        s += text(left - 8, top + rankH * r.rank + 13, "Rank " + std::to_string(r.rank),
                  "text-anchor=\"end\" fill=\"#222222\"");
    s += bars + timelineAxis(left, axisY, plotW, tl.makespanSeconds) + legend + "</svg>\n";
    c.svg = std::move(s);
    return c;
}

} // namespace lp::core
