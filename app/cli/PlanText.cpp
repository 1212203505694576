#include "app/cli/PlanText.h"

#include "app/cli/TextFormat.h"
#include "core/estimate/ExecutionStyle.h"
#include "core/estimate/KeyFigures.h"
#include "core/estimate/Precision.h"
#include "core/model/Enums.h"
#include "core/model/Units.h"
#include "core/report/PlanFigures.h"
#include "core/report/RunFigures.h"
#include "core/report/SvgCharts.h"
#include "core/util/NumberFormat.h"

#include <algorithm>
#include <cmath>

namespace lp::cli {
namespace {

using core::Plan;
using core::Scenario;
namespace report = core::report;

std::string onOff(bool b) {
    return b ? "on" : "off";
}

// ", overlapped TP/DP communication" for the switches that are on, and a gradient format set by hand.
std::string overlapText(const core::Scenario& s) {
    const core::TrainingOptions& t = s.training;
    std::string which;
    for (const std::string_view name : core::overlapsOn(s))
        which += (which.empty() ? "" : "/") + std::string(name);
    std::string text = which.empty() ? std::string() : ", overlapped " + which + " communication";
    if (t.crossEntropy != core::CrossEntropy::Auto)
        text += ", " + std::string(core::toString(t.crossEntropy)) + " cross-entropy";
    else if (core::lossKernel(t, core::resolvedStyle(t)) == core::CrossEntropy::Compiled)
        text += ", loss compiled with the model";
    if (t.optimizerPrecision != core::OptimizerPrecision::Fp32)
        text += t.optimizerPrecision == core::OptimizerPrecision::Bf16
                    ? ", bf16 parameters without a master copy"
                    : ", bf16 optimizer moments";
    if (t.logitsMetricPasses > 0)
        text += ", " + core::logitsMetricPassesText(t.logitsMetricPasses) + " over the logits";
    if (t.gradPrecision != core::GradPrecision::Auto)
        text += t.gradPrecision == core::GradPrecision::Fp32 ? ", fp32 gradients" : ", 16-bit gradients";
    if (t.cpExchange != core::CpExchange::Auto)
        text += ", CP exchange " + std::string(core::toString(t.cpExchange));
    if (t.moeDispatcher != core::MoeDispatcher::AllToAll)
        text += ", " + std::string(core::toString(t.moeDispatcher)) + " MoE dispatch";
    if (t.attentionKernel != core::AttentionKernel::Auto)
        text += ", " + std::string(core::toString(t.attentionKernel)) + " attention";
    if (t.pipelineSchedule != core::PipelineSchedule::OneFOneB)
        text += ", " + std::string(core::toString(t.pipelineSchedule)) + " pipeline schedule";
    if (t.zeroStage >= 3 && t.zero3Gather != core::Zero3Gather::Layer)
        text += ", ZeRO-3 gathers " + core::zero3GatherText(t.zero3Gather);
    return text;
}

std::string heading(std::string_view title) {
    return "\n" + std::string(title) + "\n";
}

// The first `columns` columns of a core table (all by default), numbers right-aligned.
std::string renderTable(const report::Table& t, std::size_t columns = SIZE_MAX) {
    columns = std::min(columns, t.headers.size());
    std::vector<Align> align;
    for (std::size_t c = 0; c < columns; ++c)
        align.push_back(c < t.numeric.size() && t.numeric[c] ? Align::Right : Align::Left);
    TextTable table(
        std::vector<std::string>(t.headers.begin(), t.headers.begin() + static_cast<std::ptrdiff_t>(columns)),
        align);
    for (const auto& row : t.rows)
        table.addRow(std::vector<std::string>(
            row.begin(), row.begin() + static_cast<std::ptrdiff_t>(std::min(columns, row.size()))));
    return table.render();
}

std::string renderKeyValues(const report::KeyValues& pairs) {
    KeyValues kv;
    for (const auto& [key, value] : pairs)
        kv.add(key, value);
    return kv.render();
}

std::string bothUnits(double bytes) {
    if (!std::isfinite(bytes))
        return "n/a";
    return gib(bytes) + " (" + gb(bytes) + ")";
}

} // namespace

std::string renderScenarioSummary(const Scenario& s, const Plan& p) {
    const auto& m = s.model;
    const auto& t = s.training;
    const std::string hybrid = report::hybridShardingText(s);
    KeyValues kv;
    kv.add("Scenario", core::scenarioName(s));
    std::string model = m.name + ": " + report::parametersText(s, p) + ", " + std::to_string(m.layers) +
                        " layers, hidden " + std::to_string(m.hidden) + ", " + std::to_string(m.heads) +
                        " heads / " + std::to_string(m.kvHeads) + " KV, MLP " + std::to_string(m.ffnHidden) +
                        " " + std::string(core::toString(m.mlp)) + ", vocab " + std::to_string(m.vocab) +
                        ", sequence " + std::to_string(m.seqLen);
    if (m.isMoe())
        model += ", MoE " + std::to_string(m.moe.experts) + " experts top-" + std::to_string(m.moe.topK);
    kv.add("Model", model);
    kv.add("Cluster",
           report::clusterLine(s.cluster) + ", NVLink domain " + std::to_string(s.cluster.nvlinkDomain));
    kv.add("Training",
           std::string(core::toString(t.precision)) + ", " + std::string(core::toString(t.optimizer)) + ", " +
               core::zeroStageName(t.zeroStage) + ", " +
               (t.recompute == core::Recompute::None ? std::string("no")
                                                     : std::string(core::toString(t.recompute))) +
               " recompute" + core::recomputeDetailText(t) + ", sequence parallel " +
               onOff(t.sequenceParallel) + ", flash attention " + onOff(t.flashAttention) + ", " +
               std::string(core::toString(p.style)) + " style" + (t.torchCompile ? ", torch.compile" : "") +
               (t.fusedKernels ? ", fused kernels" : "") + (t.fp8ParamGather ? ", fp8 weight gathers" : "") +
               overlapText(s) + (hybrid.empty() ? "" : ", " + hybrid));
    kv.add("Layout", report::layoutLine(s));
    kv.add("Effective batch",
           report::effectiveBatchLine(s.layout) + " (" + fixed(p.tokensPerStep, 0) + " tokens per step)");
    kv.add("Training state", report::trainingStateText(p));
    kv.add("Profile", p.profileName.empty() ? std::string("built-in") : p.profileName);
    return kv.render(0);
}

// "Host memory: 12.00 GiB (12.88 GB) per GPU of its ... share, offloaded (...)"; empty when nothing is
// offloaded.
std::string hostMemoryText(const Plan& p) {
    const auto& mem = p.memory;
    const auto& x = p.intermediates;
    if (!(mem.hostBytesPerGpu > 0))
        return {};
    std::string what;
    if (x.offloadedStateBytes > 0)
        what = "optimizer state " + bothUnits(x.offloadedStateBytes);
    if (x.offloadedGradientBytes > 0)
        what += ", gradient shard " + bothUnits(x.offloadedGradientBytes);
    if (x.offloadedActivationBytes > 0)
        what += (what.empty() ? "" : ", ") + std::string("activations of ") +
                std::to_string(x.offloadedLayers) + " layers " + bothUnits(x.offloadedActivationBytes);
    return bothUnits(mem.hostBytesPerGpu) + " per GPU of its " + bothUnits(mem.hostCapacityBytes) + " share" +
           (mem.hostBytesPerGpu > mem.hostCapacityBytes ? " (OVER)" : "") + ", offloaded (" + what + ")";
}

std::string renderMemory(const Plan& p) {
    std::string out = heading(std::string(report::kMemorySection) + " (GiB)");
    out += renderTable(report::memoryTable(p));
    report::KeyValues facts = report::memoryFitFacts(p);
    if (const std::string host = hostMemoryText(p); !host.empty())
        facts.emplace_back("Host memory", host);
    return out + renderKeyValues(facts);
}

std::string renderPrecision(const Scenario& s, const Plan& p) {
    std::string out = heading(std::string(report::kNumberFormatsSection) + ", per tensor");
    out += renderTable(report::numberFormatTable(s), 3); // the notes are too long for a terminal
    if (const std::string extras = report::fp8ExtrasLine(p); !extras.empty())
        out += "  " + extras + "\n";
    return out;
}

std::string renderTime(const Plan& p, const core::TrustBand* trust) {
    std::string out =
        heading(std::string(report::kTimeSection) + ": " + fixed(p.time.stepSeconds * 1e3, 1) + " ms");
    out += renderTable(report::timeTable(p));
    out += "  " + report::bubbleLine(p) + "\n";
    return trust ? out + "  " + trust->sentence + "\n" : out;
}

std::string renderThroughput(const Scenario& s, const Plan& p, const core::TrustBand* trust) {
    KeyValues kv;
    kv.add("MFU", report::mfuText(p));
    if (trust && trust->available)
        kv.add("Runs like it", core::mfuBandText(*trust) + " MFU");
    kv.add("TFLOP/s per GPU", report::tflopsPerGpuText(p));
    kv.add("Tokens/s", report::tokensPerSecondText(p));
    kv.add("Token budget", report::tokenBudgetText(s, p));
    return heading(report::kUtilisationSection) + kv.render();
}

std::string renderRun(const Plan& p) {
    KeyValues kv;
    for (const auto& [label, text] : report::runRows(p))
        kv.add(label, text);
    return heading(report::kRunSection) + kv.render();
}

std::string renderDiagnostics(const Plan& p) {
    std::string out = heading(report::kDiagnosticsSection);
    const auto diagnostics = report::diagnosticViews(p);
    if (diagnostics.empty())
        return out + "  none\n";
    for (const auto& d : diagnostics) {
        std::string sev = d.severity;
        sev.resize(std::max<std::size_t>(sev.size(), 7), ' ');
        out += "  " + sev + "  " + d.id + ": " + d.message + "\n";
        if (!d.suggestion.empty())
            out += "           suggestion: " + d.suggestion + "\n";
        if (!d.cost.empty())
            out += "           cost: " + d.cost + "\n";
    }
    return out;
}

std::string renderPlanText(const Scenario& s, const Plan& p, const core::TrustBand* trust) {
    std::string out = renderScenarioSummary(s, p);
    if (!p.valid) {
        out += "\n" + report::statusLine(p) + "\n";
        out += renderDiagnostics(p);
        return out;
    }
    out += renderMemory(p);
    out += renderPrecision(s, p);
    out += renderTime(p, trust);
    out += renderThroughput(s, p, trust);
    out += renderRun(p);
    out += renderDiagnostics(p);
    return out;
}

std::string renderExplanations(const Scenario& s, const Plan& p) {
    const std::vector<core::Explanation> explanations = core::explainPlan(s, p);
    const std::vector<core::KeyFigure> cards = core::report::figureCards(s, p, core::MemoryUnit::GB);
    std::string out = heading("Explanations");
    if (explanations.empty())
        return out + "  none\n";
    for (const auto& e : explanations) {
        const std::string value = core::explanationValueText(e, cards, core::MemoryUnit::GB);
        out += "\n  " + e.label + " = " + value + "   [" + e.key + "]\n";
        if (!e.formula.empty())
            out += "    formula:     " + e.formula + "\n";
        if (!e.substituted.empty())
            out += "    substituted: " + e.substituted + "\n";
        if (!e.source.empty())
            out += "    source:      " + e.source + "\n";
        if (!e.words.empty())
            out += "    " + e.words + "\n";
    }
    return out;
}

} // namespace lp::cli
