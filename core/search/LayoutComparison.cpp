#include "core/search/LayoutComparison.h"

#include "core/estimate/KeyFigures.h"
#include "core/util/NumberFormat.h"

#include <algorithm>
#include <cctype>
#include <cmath>

namespace lp::core {
namespace {

std::string gridText(const Layout& l) { // "TP 8 × PP 4 × CP 1 × DP 2"
    return "TP " + std::to_string(l.tp) + " × PP " + std::to_string(l.pp) + " × CP " + std::to_string(l.cp) +
           " × DP " + std::to_string(l.dp);
}

} // namespace

std::string_view comparedFigureName(ComparedFigure f) {
    switch (f) {
    case ComparedFigure::Model:
        return "Model and GPUs";
    case ComparedFigure::Parallelism:
        return "Parallelism";
    case ComparedFigure::VirtualStages:
        return "Virtual stages";
    case ComparedFigure::Batch:
        return "Batch: mb × acc × DP";
    case ComparedFigure::Training:
        return "ZeRO, recompute";
    case ComparedFigure::Gpus:
        return "GPUs";
    case ComparedFigure::WorstMemory:
        return "Worst-stage memory";
    case ComparedFigure::Headroom:
        return "Free memory";
    case ComparedFigure::StepTime:
        return "Step time";
    case ComparedFigure::Mfu:
        return "MFU";
    case ComparedFigure::Hfu:
        return "HFU";
    case ComparedFigure::TokensPerSecond:
        return "Tokens/s";
    case ComparedFigure::TokensPerSecondPerGpu:
        return "Tokens/s per GPU";
    case ComparedFigure::Bubble:
        return "Pipeline bubble";
    case ComparedFigure::ExposedDp:
        return "DP communication (exposed)"; // as the step-time breakdown names it (report::timeRows)
    case ComparedFigure::TrainingTime:
        return "Training time";
    case ComparedFigure::GpuHours:
        return "GPU-hours";
    case ComparedFigure::Diagnostics:
        return "Diagnostics";
    }
    return {};
}

int betterDirection(ComparedFigure f) {
    switch (f) {
    case ComparedFigure::WorstMemory:
    case ComparedFigure::StepTime:
    case ComparedFigure::Bubble:
    case ComparedFigure::ExposedDp:
    case ComparedFigure::TrainingTime:
    case ComparedFigure::GpuHours:
    case ComparedFigure::Diagnostics:
        return -1;
    case ComparedFigure::Headroom:
    case ComparedFigure::Mfu:
    case ComparedFigure::TokensPerSecond:
    case ComparedFigure::TokensPerSecondPerGpu:
        return +1;
    default:
        return 0;
    }
}

bool isNumeric(ComparedFigure f) {
    return betterDirection(f) != 0 || f == ComparedFigure::Hfu || f == ComparedFigure::Gpus;
}

double comparedValue(const Plan& p, ComparedFigure f) {
    switch (f) {
    case ComparedFigure::Gpus:
        return static_cast<double>(p.layout.gpus());
    case ComparedFigure::WorstMemory:
        return p.memory.worstTotalBytes();
    case ComparedFigure::Headroom:
        return p.memory.headroomBytes;
    case ComparedFigure::StepTime:
        return p.time.stepSeconds;
    case ComparedFigure::Mfu:
        return p.mfu;
    case ComparedFigure::Hfu:
        return p.hfu;
    case ComparedFigure::TokensPerSecond:
        return p.tokensPerSecond;
    case ComparedFigure::TokensPerSecondPerGpu:
        return p.tokensPerSecondPerGpu;
    case ComparedFigure::Bubble:
        return p.time.bubbleSeconds;
    case ComparedFigure::ExposedDp:
        return p.time.dpCommExposedSeconds;
    case ComparedFigure::TrainingTime:
        return p.trainingSeconds;
    case ComparedFigure::GpuHours:
        return p.gpuHours;
    case ComparedFigure::Diagnostics:
        return static_cast<double>(countedDiagnostics(p).size());
    default:
        return 0;
    }
}

std::string comparedText(const Scenario& s, const Plan& p, ComparedFigure f, MemoryUnit unit) {
    using enum ComparedFigure;
    const Layout& l = s.layout;
    if (!p.valid && static_cast<int>(f) > static_cast<int>(Gpus) && f != Diagnostics)
        return "invalid";
    switch (f) {
    case Model:
        return pinnedModelText(s);
    case Parallelism:
        return parallelismText(l);
    case VirtualStages:
        return std::to_string(l.vpp);
    case Batch:
        return batchText(l);
    case Training:
        return trainingText(s);
    case Gpus:
        return fmt::fixed(static_cast<double>(l.gpus()), 0);
    case WorstMemory:
        return bytesIn(p.memory.worstTotalBytes(), unit, 1);
    case Headroom:
        return p.memory.fits ? bytesIn(p.memory.headroomBytes, unit, 1)
                             : bytesIn(-p.memory.headroomBytes, unit, 1) + " over";
    case StepTime:
        return fmt::duration(p.time.stepSeconds);
    case Mfu:
        return fmt::percent(p.mfu);
    case Hfu:
        return fmt::percent(p.hfu);
    case TokensPerSecond:
        return fmt::count(p.tokensPerSecond);
    case TokensPerSecondPerGpu:
        return fmt::fixed(p.tokensPerSecondPerGpu, 1);
    case Bubble:
        return fmt::duration(p.time.bubbleSeconds) + " (" + fmt::percent(bubbleShareOfStep(p.time)) +
               " of step)";
    case ExposedDp:
        return fmt::duration(p.time.dpCommExposedSeconds);
    case TrainingTime:
        return fmt::wallClock(p.trainingSeconds);
    case GpuHours:
        return fmt::fixed(p.gpuHours, 0);
    case Diagnostics: {
        std::string names;
        for (const Diagnostic* d : countedDiagnostics(p))
            names += (names.empty() ? "" : "\n") + diagnosticName(d->id);
        return names.empty() ? "none" : names;
    }
    }
    return {};
}

Standing standing(const std::vector<const Plan*>& plans, ComparedFigure f, std::size_t index) {
    const int direction = betterDirection(f);
    if (plans.size() < 2 || direction == 0 || index >= plans.size())
        return Standing::None;
    if (std::any_of(plans.begin(), plans.end(), [](const Plan* p) { return !p->valid; }))
        return Standing::None;
    // A layout that does not fit cannot run: its speed and cost are ranked against nothing, and the layouts
    // that fit are ranked among themselves. Its memory and diagnostics are ranked with the others'.
    const bool needsFit =
        f != ComparedFigure::WorstMemory && f != ComparedFigure::Headroom && f != ComparedFigure::Diagnostics;
    const auto ranked = [needsFit](const Plan* p) { return !needsFit || p->memory.fits; };
    if (!ranked(plans[index]) || std::count_if(plans.begin(), plans.end(), ranked) < 2)
        return Standing::None;
    double lo = comparedValue(*plans[index], f);
    double hi = lo;
    for (const Plan* p : plans) {
        if (!ranked(p))
            continue;
        lo = std::min(lo, comparedValue(*p, f));
        hi = std::max(hi, comparedValue(*p, f));
    }
    const double scale = std::max(std::fabs(lo), std::fabs(hi));
    if (hi - lo <= 0.005 * scale || hi == lo)
        return Standing::None;
    const double v = comparedValue(*plans[index], f);
    if (v == (direction > 0 ? hi : lo))
        return Standing::Best;
    if (v == (direction > 0 ? lo : hi))
        return Standing::Worst;
    return Standing::None;
}

std::vector<const Diagnostic*> countedDiagnostics(const Plan& p) {
    std::vector<const Diagnostic*> counted = orderedDiagnostics(p.diagnostics);
    std::erase_if(counted, [](const Diagnostic* d) { return shownSeverity(*d) == Severity::Info; });
    return counted;
}

std::string diagnosticName(DiagnosticId id) {
    std::string name(diagnosticIdString(id));
    std::replace(name.begin(), name.end(), '_', ' ');
    if (!name.empty())
        name[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(name[0])));
    return name;
}

std::string recomputeName(Recompute r) {
    return (r == Recompute::None ? std::string("no") : std::string(toString(r))) + " recompute";
}

std::string parallelismText(const Layout& l) {
    std::string text = gridText(l);
    if (l.ep > 1)
        text += ", EP " + std::to_string(l.ep);
    return text;
}

std::string batchText(const Layout& l) {
    return std::to_string(l.microBatch) + " × " + std::to_string(l.accumulation) + " × DP " +
           std::to_string(l.dp) + " = " + fmt::fixed(static_cast<double>(l.effectiveBatch()), 0);
}

std::string trainingText(const Scenario& s) {
    const Layout& l = s.layout;
    const TrainingOptions& t = s.training;
    std::string text =
        "ZeRO-" + std::to_string(t.zeroStage) + ", " + recomputeName(t.recompute) + recomputeDetailText(t);
    if (const int degree = effectiveShardDegree(s); degree < l.dp)
        text += " (HSDP over " + std::to_string(degree) + ")";
    if (t.crossEntropy != CrossEntropy::Auto)
        text += ", " + std::string(toString(t.crossEntropy)) + " cross-entropy";
    if (t.optimizerPrecision != OptimizerPrecision::Fp32)
        text += ", " + std::string(toString(t.optimizerPrecision)) + " optimizer state";
    if (t.logitsMetricPasses > 0)
        text += ", " + logitsMetricPassesText(t.logitsMetricPasses) + " on the logits";
    if (l.tp > 1)
        text += t.sequenceParallel ? ", SP" : ", no SP";
    if (l.cp > 1 && t.cpExchange != CpExchange::Auto)
        text += ", CP " + std::string(toString(t.cpExchange));
    return text;
}

std::string pinSummary(const Scenario& s) {
    const Layout& l = s.layout;
    std::string first = gridText(l);
    if (l.vpp > 1)
        first += ", v " + std::to_string(l.vpp);
    return first + "\nmb " + std::to_string(l.microBatch) + " × acc " + std::to_string(l.accumulation) +
           " · ZeRO-" + std::to_string(s.training.zeroStage) + " · " + recomputeName(s.training.recompute);
}

std::string pinnedModelText(const Scenario& s) {
    return automaticScenarioName(s);
}

std::string pinLabel(const Scenario& s) {
    return pinnedModelText(s) + ", " + parallelismText(s.layout);
}

bool sameModelAndCluster(const Scenario& a, const Scenario& b) {
    return a.model == b.model && a.cluster == b.cluster;
}

} // namespace lp::core
