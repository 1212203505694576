#include "app/cli/PlanText.h"

#include "app/cli/TextFormat.h"
#include "core/estimate/ExecutionStyle.h"
#include "core/estimate/Precision.h"
#include "core/model/Enums.h"
#include "core/model/Units.h"
#include "core/report/SvgCharts.h"
#include "core/util/NumberFormat.h"

#include <algorithm>
#include <cmath>

namespace lp::cli {
namespace {

using core::Plan;
using core::Scenario;

std::string onOff(bool b) {
    return b ? "on" : "off";
}

// ", overlapped TP/DP communication" for the switches that are on, and a gradient format set by hand.
std::string overlapText(const core::TrainingOptions& t) {
    std::string which;
    for (const std::string_view name : core::overlapsOn(t))
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
    return text;
}

// ", hybrid sharding over 8 DP ranks x 4 replicas" when the ZeRO state is sharded within groups.
std::string hybridText(const core::Scenario& s) {
    const int degree = core::effectiveShardDegree(s);
    if (degree >= s.layout.dp)
        return {};
    return ", hybrid sharding over " + core::fmt::counted(degree, "DP rank") + " x " +
           core::fmt::counted(s.layout.dp / degree, "replica");
}

std::string heading(const std::string& title) {
    return "\n" + title + "\n";
}

std::string bothUnits(double bytes) {
    if (!std::isfinite(bytes))
        return "n/a";
    return gib(bytes) + " (" + gb(bytes) + ")";
}

// "137.95 GB (128.48 GiB)", "0.3945 (39.45 %)", "712.9 ms", "68.98 B parameters", "8 GPUs".
std::string explanationValue(double v, const std::string& unit) {
    if (!std::isfinite(v))
        return "n/a";
    if (unit == "bytes")
        return bytesBoth(v);
    if (unit == "fraction")
        return sig(v, 4) + " (" + percent(v, 2) + ")";
    if (unit == "s" && std::fabs(v) < 1.0)
        return fixed(v * 1e3, 2) + " ms";
    std::string out = std::fabs(v) >= 1e6 ? count(v) : sig(v, 6);
    if (!unit.empty())
        out += " " + unit;
    return out;
}

} // namespace

std::string renderScenarioSummary(const Scenario& s, const Plan& p) {
    const auto& m = s.model;
    const auto& c = s.cluster;
    const auto& t = s.training;
    const auto& l = s.layout;

    KeyValues kv;
    kv.add("Scenario", s.name);
    std::string model = m.name + ": " + count(p.params.total) + " parameters";
    if (m.isMoe())
        model += " (" + count(p.params.active) + " active)";
    model += ", " + std::to_string(m.layers) + " layers, hidden " + std::to_string(m.hidden) + ", " +
             std::to_string(m.heads) + " heads / " + std::to_string(m.kvHeads) + " KV, MLP " +
             std::to_string(m.ffnHidden) + " " + std::string(core::toString(m.mlp)) + ", vocab " +
             std::to_string(m.vocab) + ", sequence " + std::to_string(m.seqLen);
    if (m.isMoe())
        model += ", MoE " + std::to_string(m.moe.experts) + " experts top-" + std::to_string(m.moe.topK);
    kv.add("Model", model);
    kv.add("Cluster", c.name + ": " + std::to_string(c.nodes) + (c.nodes == 1 ? " node x " : " nodes x ") +
                          std::to_string(c.gpusPerNode) + " " + c.gpu.name + " = " +
                          std::to_string(c.gpus()) + " GPUs, NVLink domain " +
                          std::to_string(c.nvlinkDomain));
    kv.add("Training",
           std::string(core::toString(t.precision)) + ", " + std::string(core::toString(t.optimizer)) + ", " +
               core::zeroStageName(t.zeroStage) + ", " +
               (t.recompute == core::Recompute::None ? std::string("no")
                                                     : std::string(core::toString(t.recompute))) +
               " recompute" + core::recomputeDetailText(t) + ", sequence parallel " +
               onOff(t.sequenceParallel) + ", flash attention " + onOff(t.flashAttention) + ", " +
               std::string(core::toString(p.style)) + " style" + (t.torchCompile ? ", torch.compile" : "") +
               (t.fusedKernels ? ", fused kernels" : "") + (t.fp8ParamGather ? ", fp8 weight gathers" : "") +
               overlapText(t) + hybridText(s));
    std::string layout = "TP " + std::to_string(l.tp) + " x PP " + std::to_string(l.pp);
    if (l.cp > 1)
        layout += " x CP " + std::to_string(l.cp);
    layout += " x DP " + std::to_string(l.dp) + " = " + std::to_string(l.gpus()) + " GPUs";
    std::string extras;
    if (l.vpp > 1)
        extras += "virtual stages " + std::to_string(l.vpp);
    if (l.ep > 1)
        extras += (extras.empty() ? "" : ", ") + std::string("EP ") + std::to_string(l.ep);
    if (s.model.isMoe() && l.tp > 1)
        extras += (extras.empty() ? "" : ", ") + std::string("expert TP ") +
                  std::to_string(core::expertTensorParallel(s));
    if (core::pipelineSplitCountsEmbeddingAndLoss(s))
        extras +=
            (extras.empty() ? "" : ", ") + std::string("embedding and loss counted in the pipeline split");
    if (!extras.empty())
        layout += " (" + extras + ")";
    kv.add("Layout", layout);
    kv.add("Effective batch", "micro batch " + std::to_string(l.microBatch) + " x accumulation " +
                                  std::to_string(l.accumulation) + " x dp " + std::to_string(l.dp) + " = " +
                                  std::to_string(l.effectiveBatch()) + " sequences (" +
                                  fixed(p.tokensPerStep, 0) + " tokens per step)");
    kv.add("Training state", bytesBoth(p.trainingStateBytes) + ", whole model, unsharded");
    kv.add("Profile", p.profileName.empty() ? std::string("built-in") : p.profileName);
    return kv.render(0);
}

std::string renderMemory(const Plan& p) {
    const auto& mem = p.memory;
    std::string out = heading("Memory per GPU, by pipeline stage (GiB)");
    TextTable table({"Stage", "Layers", "Weights", "Gradients", "Optimizer", "Activations", "Overhead",
                     "Total GiB", "Total GB", ""});
    for (const auto& st : mem.stages) {
        table.addRow({std::to_string(st.stage), std::to_string(st.layers),
                      fixed(st.weightsBytes / core::kGiB, 2), fixed(st.gradientsBytes / core::kGiB, 2),
                      fixed(st.optimizerBytes / core::kGiB, 2), fixed(st.activationsBytes / core::kGiB, 2),
                      fixed(st.overheadBytes / core::kGiB, 2), fixed(st.totalBytes / core::kGiB, 2),
                      fixed(st.totalBytes / core::kGB, 2), st.stage == mem.worstStage ? "<- worst" : ""});
    }
    out += table.render();
    KeyValues kv;
    kv.add("Capacity", bothUnits(mem.capacityBytes) + " per GPU");
    if (mem.headroomBytes >= 0)
        kv.add("Headroom",
               bothUnits(mem.headroomBytes) + " on the worst stage (" + std::to_string(mem.worstStage) + ")");
    else
        kv.add("Over by", bothUnits(-mem.headroomBytes) + " on the worst stage (" +
                              std::to_string(mem.worstStage) + ")");
    kv.add("Fits", mem.fits ? "yes" : "NO");
    if (mem.hostBytesPerGpu > 0) {
        std::string what;
        if (p.intermediates.offloadedStateBytes > 0)
            what = "optimizer state " + bothUnits(p.intermediates.offloadedStateBytes);
        if (p.intermediates.offloadedGradientBytes > 0)
            what += ", gradient shard " + bothUnits(p.intermediates.offloadedGradientBytes);
        if (p.intermediates.offloadedActivationBytes > 0)
            what += (what.empty() ? "" : ", ") + std::string("activations of ") +
                    std::to_string(p.intermediates.offloadedLayers) + " layers " +
                    bothUnits(p.intermediates.offloadedActivationBytes);
        kv.add("Host memory", bothUnits(mem.hostBytesPerGpu) + " per GPU of its " +
                                  bothUnits(mem.hostCapacityBytes) + " share" +
                                  (mem.hostBytesPerGpu > mem.hostCapacityBytes ? " (OVER)" : "") +
                                  ", offloaded (" + what + ")");
    }
    out += kv.render();
    return out;
}

std::string renderPrecision(const Scenario& s, const Plan& p) {
    std::string out = heading("Number formats, per tensor");
    TextTable table({"Tensor", "Format", "Bytes"}, {Align::Left, Align::Left, Align::Right});
    for (const auto& r : core::precisionTable(s))
        table.addRow({r.tensor, r.format, r.bytes > 0 ? sig(r.bytes, 3) : "-"});
    out += table.render();
    if (p.intermediates.fp8WeightCopyBytes > 0 || p.intermediates.fp8ScalingStateBytes > 0)
        out += "  FP8 extras in the weights: cached fp8 copies " +
               bytesBoth(p.intermediates.fp8WeightCopyBytes) + ", scaling state " +
               fixed(p.intermediates.fp8ScalingStateBytes / (1024.0 * 1024.0), 2) + " MiB per GPU\n";
    return out;
}

std::string renderTime(const Plan& p) {
    const auto& t = p.time;
    std::string out = heading("Time per step: " + fixed(t.stepSeconds * 1e3, 1) + " ms");
    TextTable table({"Component", "ms", "% of step"}, {Align::Left, Align::Right, Align::Right});
    auto row = [&](const std::string& name, double seconds) {
        const double share = t.stepSeconds > 0 ? seconds / t.stepSeconds : 0.0;
        table.addRow({name, fixed(seconds * 1e3, 1), percent(share)});
    };
    for (const core::TimeRow& r : core::timeRows(t))
        row(std::string(r.label), r.seconds);
    out += table.render();
    out += "  Bubble fraction " + percent(t.bubbleFraction) + " of the ideal pipeline time\n";
    return out;
}

std::string renderThroughput(const Scenario& s, const Plan& p) {
    std::string out = heading("Utilisation and throughput");
    KeyValues kv;
    kv.add("MFU",
           percent(p.mfu) + "   (HFU " + percent(p.hfu) + ", 6ND yardstick " + percent(p.mfu6nd) + ")");
    kv.add("TFLOP/s per GPU", fixed(p.modelTflopsPerGpu, 1) + " model, " + fixed(p.hardwareTflopsPerGpu, 1) +
                                  " hardware (peak " + fixed(p.intermediates.peakFlops / 1e12, 0) + ")");
    kv.add("Tokens/s", fixed(p.tokensPerSecond, 0) + " (" + fixed(p.tokensPerSecondPerGpu, 1) + " per GPU)");
    kv.add("Token budget", count(s.training.tokenBudget) +
                               " tokens: " + fixed(p.trainingSeconds / 86400.0, 1) + " days, " +
                               fixed(p.gpuHours, 0) + " GPU-hours");
    out += kv.render();
    return out;
}

std::string renderDiagnostics(const Plan& p) {
    std::string out = heading("Diagnostics");
    if (p.diagnostics.empty())
        return out + "  none\n";
    for (const core::Diagnostic* d : core::orderedDiagnostics(p.diagnostics)) {
        std::string sev(core::toString(core::shownSeverity(*d)));
        sev.resize(std::max<std::size_t>(sev.size(), 7), ' ');
        out += "  " + sev + "  " + std::string(core::diagnosticIdString(d->id)) + ": " +
               core::diagnosticMessage(*d) + "\n";
        const std::string suggestion = core::diagnosticSuggestion(*d);
        if (!suggestion.empty())
            out += "           suggestion: " + suggestion + "\n";
        if (std::isfinite(d->costSeconds) && d->costSeconds > 0)
            out += "           cost: " + fixed(d->costSeconds * 1e3, 1) + " ms per step\n";
    }
    return out;
}

std::string renderPlanText(const Scenario& s, const Plan& p) {
    std::string out = renderScenarioSummary(s, p);
    if (!p.valid) {
        out += "\nINVALID LAYOUT: this layout cannot run; see the errors below.\n";
        out += renderDiagnostics(p);
        return out;
    }
    out += renderMemory(p);
    out += renderPrecision(s, p);
    out += renderTime(p);
    out += renderThroughput(s, p);
    out += renderDiagnostics(p);
    return out;
}

std::string renderExplanations(const std::vector<core::Explanation>& explanations) {
    std::string out = heading("Explanations");
    if (explanations.empty())
        return out + "  none\n";
    for (const auto& e : explanations) {
        const std::string value = explanationValue(e.value, e.unit);
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
