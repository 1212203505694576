#include "core/export/detail/LaunchText.h"

#include <cmath>

namespace lp::core::detail {

std::string plainName(std::string_view s) {
    std::string out;
    for (char c : s) {
        if (c == '\n' || c == '\r' || c == '\t')
            out += ' ';
        else if (c == '"' || c == '\\' || c == '`' || c == '$')
            out += '\'';
        else if (static_cast<unsigned char>(c) >= 0x20 && c != 0x7F)
            out += c;
    }
    return out;
}

std::string layoutLine(const Scenario& s) {
    const Layout& l = s.layout;
    return "TP " + std::to_string(l.tp) + " x PP " + std::to_string(l.pp) + " x CP " + std::to_string(l.cp) +
           " x DP " + std::to_string(l.dp) + " = " + std::to_string(l.gpus()) + " GPUs";
}

long long stepsForBudget(const Scenario& s) {
    const double tokens =
        static_cast<double>(s.layout.effectiveBatch() * static_cast<long long>(s.model.seqLen));
    if (!(tokens > 0) || !(s.training.tokenBudget > 0))
        return 0;
    return static_cast<long long>(std::ceil(s.training.tokenBudget / tokens));
}

std::string fsdp2GathersLayersNote(std::string_view framework) {
    return std::string(framework) +
           " shards with FSDP2, which gathers one layer per all-gather; the plan's per-module gathers are "
           "DeepSpeed ZeRO-3's: plan with --zero3-gather layer (zero3_gather \"layer\") for this trainer.";
}

std::string launchHint(const Scenario& s) {
    const long long gpus = s.layout.gpus();
    if (gpus == s.cluster.gpus())
        return "torchrun --nnodes " + std::to_string(s.cluster.nodes) + " --nproc-per-node " +
               std::to_string(s.cluster.gpusPerNode);
    return "torchrun with " + std::to_string(gpus) + " processes in all";
}

std::string withComment(std::string line, std::size_t column, const std::string& comment) {
    if (!comment.empty()) {
        if (line.size() < column)
            line.append(column - line.size(), ' ');
        line += "  # " + comment;
    }
    return line + "\n";
}

LaunchFile::LaunchFile(const Scenario& s, LaunchTarget target, std::string fileName,
                       std::string_view contents) {
    m_settings.target = target;
    m_settings.fileName = std::move(fileName);
    m_settings.text = "# " + std::string(displayName(target)) + " " + std::string(contents) + " for \"" +
                      plainName(scenarioName(s)) + "\", written by Layout Planner.\n";
}

void noteWhatTheTargetLacks(LaunchSettings& out, const char* framework, const TrainingOptions& t,
                            const char* fp32State) {
    if (fp32State && t.optimizerPrecision != OptimizerPrecision::Fp32)
        out.notes.push_back(std::string(framework) + " keeps " + fp32State + ": the plan's " +
                            std::string(toString(t.optimizerPrecision)) +
                            " optimizer state is smaller than this run's.");
    if (t.logitsMetricPasses > 0)
        out.notes.push_back(std::string(framework) +
                            " computes no training metrics from the logits: the plan's " +
                            logitsMetricPassesText(t.logitsMetricPasses) +
                            " over them cost time that this run will not spend.");
    if (t.recompute == Recompute::Selective && t.rematPolicy != RematPolicy::Auto)
        out.notes.push_back(
            "The plan's remat policy " + std::string(toString(t.rematPolicy)) + " is MaxText's (JAX); " +
            framework +
            "'s selective recompute keeps other tensors, so this run's activation memory and recompute time "
            "differ from the plan's (plan with remat policy auto to see them).");
}

} // namespace lp::core::detail
