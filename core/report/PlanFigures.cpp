#include "core/report/PlanFigures.h"

#include "core/estimate/KeyFigures.h"
#include "core/estimate/Precision.h"
#include "core/io/Presets.h"
#include "core/model/Enums.h"
#include "core/model/Units.h"
#include "core/report/SvgCharts.h"
#include "core/util/NumberFormat.h"

#include <algorithm>
#include <cmath>

namespace lp::core::report {
namespace {

// A whole number with thousands separators: "1,024".
std::string whole(long long v) {
    return fmt::fixed(static_cast<double>(v), 0);
}

} // namespace

bool isInvalid(const Plan& p) {
    if (!p.valid)
        return true;
    return std::any_of(p.diagnostics.begin(), p.diagnostics.end(),
                       [](const Diagnostic& d) { return d.severity == Severity::Error; });
}

std::string statusLine(const Plan& p) {
    if (isInvalid(p)) {
        std::string ids;
        for (const auto& d : p.diagnostics)
            if (d.severity == Severity::Error)
                ids += (ids.empty() ? "" : ", ") + std::string(diagnosticIdString(d.id));
        return "Invalid layout: this layout cannot run (" +
               (ids.empty() ? std::string("see the diagnostics") : ids) + ").";
    }
    const auto& m = p.memory;
    const std::string needs = "the worst stage needs " + fmt::bytesBoth(m.worstTotalBytes()) + " of " +
                              fmt::bytesBoth(m.capacityBytes);
    if (m.fits)
        return "Fits: " + needs + " per GPU (headroom " + fmt::bytesBoth(m.headroomBytes) + ").";
    return "Does not fit: " + needs + " per GPU (over by " + fmt::bytesBoth(-m.headroomBytes) + ").";
}

std::string parametersText(const Scenario& s, const Plan& p) {
    return fmt::count(p.params.total) + " parameters" +
           (s.model.isMoe() ? ", " + fmt::count(p.params.active) + " active" : std::string());
}

std::string clusterLine(const ClusterSpec& c) {
    return clusterName(c) + ": " + std::to_string(c.nodes) + (c.nodes == 1 ? " node x " : " nodes x ") +
           std::to_string(c.gpusPerNode) + " " + c.gpu.name + " = " + gpuCountText(c.gpus());
}

std::string layoutLine(const Scenario& s) {
    const Layout& l = s.layout;
    std::string layout = "TP " + std::to_string(l.tp) + " x PP " + std::to_string(l.pp);
    if (l.cp > 1)
        layout += " x CP " + std::to_string(l.cp);
    layout += " x DP " + std::to_string(l.dp) + " = " + gpuCountText(l.gpus());
    std::vector<std::string> extras;
    if (l.vpp > 1)
        extras.push_back("virtual stages " + std::to_string(l.vpp));
    if (l.ep > 1)
        extras.push_back("EP " + std::to_string(l.ep));
    if (s.model.isMoe() && l.tp > 1)
        extras.push_back("expert TP " + std::to_string(expertTensorParallel(s)));
    if (pipelineSplitCountsEmbeddingAndLoss(s))
        extras.push_back("embedding and loss counted in the pipeline split");
    for (std::size_t i = 0; i < extras.size(); ++i)
        layout += (i == 0 ? " (" : ", ") + extras[i] + (i + 1 == extras.size() ? ")" : "");
    return layout;
}

std::string effectiveBatchLine(const Layout& l) {
    return "micro batch " + std::to_string(l.microBatch) + " x accumulation " +
           std::to_string(l.accumulation) + " x DP " + std::to_string(l.dp) + " = " +
           whole(l.effectiveBatch()) + " sequences";
}

std::string hybridShardingText(const Scenario& s) {
    const int degree = effectiveShardDegree(s);
    if (degree >= s.layout.dp)
        return {};
    return "hybrid sharding over " + fmt::counted(degree, "DP rank") + " x " +
           fmt::counted(s.layout.dp / degree, "replica");
}

std::string trainingStateText(const Plan& p) {
    return fmt::bytesBoth(p.trainingStateBytes) + ", whole model, before sharding";
}

Table memoryTable(const Plan& p) {
    Table t;
    // Short headers (the units are in the caption): the table must fit a printed page.
    t.headers = {"Stage",       "Layers",    "Weights",   "Gradients", "Optimizer",
                 "Activations", "Overheads", "Total GiB", "Total GB"};
    t.numeric.assign(t.headers.size(), true);
    for (std::size_t i = 0; i < p.memory.stages.size(); ++i) {
        const auto& st = p.memory.stages[i];
        std::vector<std::string> row{std::to_string(st.stage), std::to_string(st.layers)};
        for (const auto c : kMemoryComponentOrder)
            row.push_back(fmt::fixed(memoryComponentBytes(st, c) / kGiB, 2));
        row.push_back(fmt::fixed(st.totalBytes / kGiB, 2));
        row.push_back(fmt::fixed(st.totalBytes / kGB, 2));
        if (st.stage == p.memory.worstStage) {
            t.emphasizedRow = static_cast<int>(i);
            row[0] += " (worst)";
        }
        t.rows.push_back(std::move(row));
    }
    return t;
}

KeyValues memoryFitFacts(const Plan& p) {
    const auto& m = p.memory;
    KeyValues kv;
    kv.emplace_back("Capacity", fmt::bytesBoth(m.capacityBytes) + " per GPU");
    const std::string where = " on the worst stage (" + std::to_string(m.worstStage) + ")";
    if (m.headroomBytes >= 0)
        kv.emplace_back("Headroom", fmt::bytesBoth(m.headroomBytes) + where);
    else
        kv.emplace_back("Over by", fmt::bytesBoth(-m.headroomBytes) + where);
    kv.emplace_back("Fits", m.fits ? "yes" : "no");
    return kv;
}

Table numberFormatTable(const Scenario& s) {
    Table t;
    t.headers = {"Tensor", "Format", "Bytes per value", "Note"};
    t.numeric = {false, false, true, false};
    for (const auto& r : precisionTable(s))
        t.rows.push_back({r.tensor, r.format, r.bytes > 0 ? fmt::sig(r.bytes, 3) : "-", r.note});
    return t;
}

std::string fp8ExtrasLine(const Plan& p) {
    const auto& x = p.intermediates;
    if (!(x.fp8WeightCopyBytes > 0 || x.fp8ScalingStateBytes > 0))
        return {};
    const auto& m = p.memory;
    std::string where = "per GPU";
    if (const StageMemory* worst = m.worst())
        where = "per GPU on the worst stage (" + std::to_string(worst->stage) +
                "); both are included in its weights of " + fmt::bytesBoth(worst->weightsBytes);
    return "FP8 weight copies " + fmt::bytesBoth(x.fp8WeightCopyBytes) + " and scaling state " +
           fmt::fixed(x.fp8ScalingStateBytes / (1024.0 * 1024.0), 2) + " MiB " + where + ".";
}

Table timeTable(const Plan& p) {
    Table t;
    t.headers = {"Component", "ms", "% of step"};
    t.numeric = {false, true, true};
    const double step = p.time.stepSeconds;
    for (const auto& r : timeRows(p.time))
        t.rows.push_back({std::string(r.label), fmt::fixed(r.seconds * 1e3, 1),
                          fmt::percent(step > 0 ? r.seconds / step : 0.0)});
    t.rows.push_back({"Step", fmt::fixed(step * 1e3, 1), fmt::percent(step > 0 ? 1.0 : 0.0)});
    t.emphasizedRow = static_cast<int>(t.rows.size()) - 1;
    return t;
}

std::string bubbleLine(const Plan& p) {
    return "Pipeline bubble: " + bubbleText(p.time) + ".";
}

std::string mfuText(const Plan& p) {
    return fmt::percent(p.mfu) + " (HFU " + fmt::percent(p.hfu) + ", 6ND yardstick " +
           fmt::percent(p.mfu6nd) + ")";
}

std::string tflopsPerGpuText(const Plan& p) {
    return fmt::fixed(p.modelTflopsPerGpu, 1) + " model, " + fmt::fixed(p.hardwareTflopsPerGpu, 1) +
           " hardware (peak " + fmt::fixed(p.intermediates.peakFlops / 1e12, 0) + ")";
}

std::string tokensPerSecondText(const Plan& p) {
    return fmt::fixed(p.tokensPerSecond, 0) + " (" + fmt::fixed(p.tokensPerSecondPerGpu, 1) + " per GPU)";
}

std::string tokenBudgetText(const Scenario& s, const Plan& p) {
    const double tokens = p.valid ? p.run.tokens : s.training.tokenBudget; // the run's rule applied
    return fmt::count(tokens) + " tokens: " + fmt::fixed(p.trainingSeconds / 86400.0, 1) + " days, " +
           fmt::fixed(p.gpuHours, 0) + " GPU-hours (ideal: computing only, without checkpoints or failures)";
}

std::vector<DiagnosticView> diagnosticViews(const Plan& p) {
    std::vector<DiagnosticView> out;
    for (const Diagnostic* d : orderedDiagnostics(p.diagnostics)) {
        DiagnosticView v;
        v.severity = std::string(toString(shownSeverity(*d)));
        v.id = std::string(diagnosticIdString(d->id));
        v.message = diagnosticMessage(*d);
        v.suggestion = diagnosticSuggestion(*d);
        if (std::isfinite(d->costSeconds) && d->costSeconds > 0)
            v.cost = fmt::fixed(d->costSeconds * 1e3, 1) + " ms per step";
        out.push_back(std::move(v));
    }
    return out;
}

std::string timelineLine(const Timeline& tl) {
    return "One data-parallel replica's step: " + timelineSummary(tl) + ".";
}

} // namespace lp::core::report
