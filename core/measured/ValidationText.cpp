#include "core/measured/ValidationText.h"

#include "core/estimate/ExecutionStyle.h"
#include "core/io/Presets.h"
#include "core/measured/ValidationTrust.h"
#include "core/model/Enums.h"
#include "core/util/NumberFormat.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace lp::core {
namespace {

constexpr const char* kNoValue = "\xe2\x80\x93";   // an en dash
constexpr const char* kMinusSign = "\xe2\x88\x92"; // U+2212, as wide as "+"

struct MetricWords {
    const char* id;
    const char* name;
    const char* shortName;
    const char* unit;
};

constexpr MetricWords kMetricWords[] = {
    {"iteration_time_s", "Iteration time", "Iteration time", "s"},
    {"model_tflops_per_gpu", "Model TFLOP/s per GPU", "Model TFLOP/s", "TFLOP/s"},
    {"hardware_tflops_per_gpu", "Hardware TFLOP/s per GPU", "HW TFLOP/s", "TFLOP/s"},
    {"mfu", "MFU", "MFU", "%"},
    {"hfu", "HFU", "HFU", "%"},
    {"tokens_per_s_per_gpu", "Tokens/s per GPU", "Tokens/s", "tokens/s"},
    {"peak_memory_gib", "Peak memory", "Peak memory", "GiB"},
};

const MetricWords* wordsOf(const std::string& metric) {
    for (const MetricWords& w : kMetricWords)
        if (metric == w.id)
            return &w;
    return nullptr;
}

} // namespace

const std::vector<std::string>& knownMetrics() {
    static const std::vector<std::string> metrics = [] {
        std::vector<std::string> out;
        for (const MetricWords& w : kMetricWords)
            out.emplace_back(w.id);
        return out;
    }();
    return metrics;
}

int metricRank(const std::string& metric) {
    const auto& metrics = knownMetrics();
    const auto it = std::find(metrics.begin(), metrics.end(), metric);
    return it == metrics.end() ? -1 : static_cast<int>(it - metrics.begin());
}

std::string metricName(const std::string& metric) {
    if (metric == "throughput")
        return "All throughput metrics";
    const MetricWords* w = wordsOf(metric);
    return w ? w->name : metric;
}

std::string metricShortName(const std::string& metric) {
    const MetricWords* w = wordsOf(metric);
    return w ? w->shortName : metricName(metric);
}

std::string metricUnit(const std::string& metric) {
    const MetricWords* w = wordsOf(metric);
    return w ? w->unit : "";
}

std::string metricValueText(const std::string& metric, double value) {
    if (!std::isfinite(value) || value <= 0)
        return kNoValue;
    const std::string unit = metricUnit(metric);
    if (unit == "s")
        return fmt::fixed(value, value >= 100 ? 1 : (value >= 1 ? 2 : 3)) + " s";
    if (unit == "%")
        return errorText(value);
    if (unit == "tokens/s")
        return fmt::fixed(value, 0) + " tokens/s";
    if (!unit.empty()) // TFLOP/s, GiB
        return fmt::fixed(value, 1) + " " + unit;
    return fmt::fixed(value, 3);
}

std::string gpusText(const Scenario& s) {
    std::string name = s.cluster.gpu.name;
    if (name.starts_with("NVIDIA "))
        name = name.substr(7);
    if (name.empty())
        name = s.cluster.gpu.id;
    return fmt::fixed(static_cast<double>(s.layout.gpus()), 0) + " \xc3\x97 " + name;
}

std::string layoutText(const Scenario& s, int microBatch, bool microBatchGiven) {
    const Layout& l = s.layout;
    std::string text = "TP" + std::to_string(l.tp) + " \xc2\xb7 PP" + std::to_string(l.pp) + " \xc2\xb7 DP" +
                       std::to_string(l.dp);
    for (const auto& [name, size] : {std::pair{"CP", l.cp}, std::pair{"EP", l.ep}, std::pair{"VPP", l.vpp}})
        if (size > 1)
            text += std::string(" \xc2\xb7 ") + name + std::to_string(size);
    return text + " \xc2\xb7 mb" + std::to_string(microBatch) + (microBatchGiven ? "" : "*");
}

std::string errorText(double fraction) {
    return fmt::percent(fraction, 1);
}

std::string signedErrorText(double relativeError) {
    if (!std::isfinite(relativeError))
        return kNoValue;
    return (relativeError >= 0 ? "+" : kMinusSign) + errorText(std::fabs(relativeError));
}

bool hasPrediction(const ValidationRow& row) {
    return row.predicted > 0 && std::isfinite(row.predicted);
}

ErrorBand errorBand(double relativeError) {
    const double size = std::fabs(relativeError);
    if (!std::isfinite(size) || size > kFairError)
        return ErrorBand::Bad;
    return size <= kGoodError ? ErrorBand::Good : ErrorBand::Fair;
}

ErrorTarget errorTarget(const std::string& metric) {
    if (metric == "peak_memory_gib")
        return {0.10, 0.10};
    return {0.05, 0.20};
}

std::string targetsSentence() {
    const ErrorTarget throughput = errorTarget("throughput");
    const ErrorTarget memory = errorTarget("peak_memory_gib");
    const auto whole = [](double fraction) { return fmt::percent(fraction, 0); };
    return std::string("Error = (predicted ") + kMinusSign +
           " measured) / measured. Targets: median at most " + whole(throughput.median) +
           " on throughput metrics, none worse than " + whole(throughput.max) + "; peak memory within " +
           whole(memory.max) + ".";
}

std::vector<const MetricSummary*> orderedSummary(const ValidationReport& report) {
    std::vector<const MetricSummary*> ordered;
    const auto take = [&](const std::string& metric) {
        for (const MetricSummary& s : report.summary)
            if (s.metric == metric) {
                ordered.push_back(&s);
                return;
            }
    };
    take("throughput");
    for (const std::string& metric : knownMetrics())
        take(metric);
    for (const MetricSummary& s : report.summary)
        if (std::find(ordered.begin(), ordered.end(), &s) == ordered.end())
            ordered.push_back(&s);
    return ordered;
}

std::string summaryLine(const MetricSummary& summary) {
    return summary.metric + ": median " + errorText(summary.medianAbsError) + ", max " +
           errorText(summary.maxAbsError) + ", " + std::to_string(summary.count) + " values";
}

const GroupSummary* furthestOffGroup(const std::vector<GroupSummary>& groups) {
    const GroupSummary* furthest = nullptr;
    for (const GroupSummary& g : groups)
        if (g.count >= kMinGroupFigures &&
            (!furthest || std::fabs(g.medianSpeedError) > std::fabs(furthest->medianSpeedError)))
            furthest = &g;
    return furthest;
}

std::string groupsSummary(const std::vector<GroupSummary>& groups) {
    std::string text = std::to_string(groups.size()) + (groups.size() == 1 ? " group" : " groups");
    if (const GroupSummary* g = furthestOffGroup(groups))
        text += "; furthest off: " + g->gpu + " " + g->style + " " + g->precision + ", planned " +
                errorText(std::fabs(g->medianSpeedError)) + (g->medianSpeedError >= 0 ? " fast" : " slow");
    return text;
}

std::vector<std::string> plannedWith(const ValidationCase& c) {
    const TrainingOptions& t = c.scenario.training;
    const ExecutionStyle style = resolvedStyle(t);
    std::vector<std::string> out = {
        std::string(toString(style)) + " style",
        attentionKernelText(t, attentionKernelOf(t, style, builtinProfile(c.scenario.cluster.gpu).kernels))};
    if (t.torchCompile)
        out.emplace_back("torch.compile");
    if (t.fusedKernels)
        out.emplace_back("fused kernels");
    if (t.fp8ParamGather)
        out.emplace_back("fp8 weight gathers");
    if (t.crossEntropy != CrossEntropy::Auto)
        out.push_back(std::string(toString(t.crossEntropy)) + " loss");
    if (t.optimizerPrecision != OptimizerPrecision::Fp32)
        out.push_back(std::string(toString(t.optimizerPrecision)) + " optimizer state");
    if (t.logitsMetricPasses > 0)
        out.push_back(logitsMetricPassesText(t.logitsMetricPasses) + " over the logits");
    if (!c.scenario.model.dropout && c.scenario.model.mlp == MlpKind::Gelu)
        out.emplace_back("no dropout");
    if (t.moeDispatcher == MoeDispatcher::Deduplicated)
        out.emplace_back("DeepEP MoE dispatch");
    for (const std::string_view name : overlapsOn(c.scenario))
        out.push_back(std::string(name) + " overlap");
    if (!c.architectureFrom.empty())
        out.push_back("the attention and norms of the built-in " + c.architectureFrom);
    return out;
}

} // namespace lp::core
