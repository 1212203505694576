#include "core/model/Scenario.h"

#include <string>
#include <utility>

namespace lp::core {

// "Llama-3-8B on 64 H100"; a model name's closing remark stays at the end: "Llama-2-70B-class on 64 H100
// (seed example)".
std::string automaticScenarioName(const Scenario& s) {
    std::string model = s.model.name;
    std::string remark;
    if (const std::size_t open = model.rfind(" ("); open != std::string::npos && model.ends_with(')')) {
        remark = model.substr(open);
        model.resize(open);
    }
    return model + " on " + std::to_string(s.cluster.gpus()) + " " + gpuShortName(s.cluster.gpu) + remark;
}

std::string scenarioName(const Scenario& s) {
    return s.name ? *s.name : automaticScenarioName(s);
}

void setScenarioName(Scenario& s, std::string_view typed) {
    constexpr std::string_view kSpace = " \t\r\n";
    const std::string automatic = automaticScenarioName(s);
    const std::size_t first = typed.find_first_not_of(kSpace);
    const std::string_view text = first == std::string_view::npos
                                      ? std::string_view()
                                      : typed.substr(first, typed.find_last_not_of(kSpace) - first + 1);
    if (text.empty() || typed == automatic || text == automatic)
        s.name.reset();
    else
        s.name = std::string(text);
}

int effectiveShardDegree(const Scenario& s) {
    const int dp = s.layout.dp;
    const int d = s.training.zeroShardDegree;
    if (s.training.zeroStage <= 0 || d <= 0 || d >= dp)
        return dp;
    return d;
}

std::vector<std::string_view> overlapsOn(const Scenario& s) {
    const TrainingOptions& t = s.training;
    std::vector<std::string_view> on;
    for (auto [set, name] : {std::pair{overlapsTpComm(s), "TP"}, std::pair{t.overlapPpComm, "PP"},
                             std::pair{overlapsDpComm(s), "DP"}, std::pair{t.overlapEpComm, "EP"}})
        if (set)
            on.emplace_back(name);
    return on;
}

bool megatronRecipeHabits(const Scenario& s) {
    return resolvedStyle(s.training) == ExecutionStyle::Megatron && s.cluster.gpu.peakFlops8 > 0;
}

bool overlapsTpComm(const Scenario& s) {
    const TrainingOptions& t = s.training;
    if (t.overlapTpComm != Toggle::Auto)
        return t.overlapTpComm == Toggle::On;
    return s.layout.tp > 1 && t.sequenceParallel && megatronRecipeHabits(s);
}

bool overlapsDpComm(const Scenario& s) {
    const TrainingOptions& t = s.training;
    if (t.overlapDpComm != Toggle::Auto)
        return t.overlapDpComm == Toggle::On;
    return t.zeroStage >= 1 && static_cast<long long>(s.layout.dp) * s.layout.cp > 1 &&
           megatronRecipeHabits(s);
}

std::string toggleText(Toggle stated, bool resolved) {
    const std::string state = resolved ? "on" : "off";
    return stated == Toggle::Auto ? "auto (" + state + ")" : state;
}

ExecutionStyle resolvedStyle(const TrainingOptions& t) {
    if (t.executionStyle != ExecutionStyle::Auto)
        return t.executionStyle;
    return t.zeroStage >= 3 ? ExecutionStyle::Fsdp : ExecutionStyle::Megatron;
}

bool pipelineSplitCountsEmbeddingAndLoss(const Scenario& s) {
    const Layout& l = s.layout;
    if (l.pp <= 1 || l.vpp <= 0 || s.model.layers <= 0)
        return false;
    switch (s.training.pipelineSplit) {
    case PipelineSplit::Layers:
        return false;
    case PipelineSplit::EmbeddingAndLoss:
        return true;
    case PipelineSplit::Auto:
        break;
    }
    const long long chunks = static_cast<long long>(l.pp) * l.vpp;
    const long long layers = s.model.layers;
    if (chunks > layers)
        return chunks <= layers + 2;
    return resolvedStyle(s.training) == ExecutionStyle::Megatron && layers % chunks != 0 &&
           (layers + 2) % chunks == 0;
}

bool expertTensorParallelFits(const Scenario& s, int etp) {
    const Layout& l = s.layout;
    if (etp <= 0 || l.tp <= 0 || l.ep <= 0)
        return false;
    const long long ranks = static_cast<long long>(l.tp) * l.cp * l.dp;
    return l.tp % etp == 0 && ranks % (static_cast<long long>(l.ep) * etp) == 0;
}

int expertTensorParallel(const Scenario& s) {
    const Layout& l = s.layout;
    if (!s.model.isMoe())
        return l.tp;
    if (l.etp < 0)
        return 0;
    if (l.etp > 0)
        return expertTensorParallelFits(s, l.etp) ? l.etp : 0;
    for (int e = l.tp; e >= 1; --e)
        if (expertTensorParallelFits(s, e))
            return e;
    return 0;
}

long long pipelineSplitUnits(const Scenario& s) {
    return static_cast<long long>(s.model.layers) + (pipelineSplitCountsEmbeddingAndLoss(s) ? 2 : 0);
}

std::string logitsMetricPassesText(int passes) {
    return std::to_string(passes) + (passes == 1 ? " metric pass" : " metric passes");
}

std::string recomputeDetailText(const TrainingOptions& t) {
    if (t.recompute == Recompute::Selective && t.rematPolicy != RematPolicy::Auto)
        return " (remat policy " + std::string(toString(t.rematPolicy)) + ")";
    if (t.recompute == Recompute::Selective && t.recomputeModules != kRecomputeModulesDefault)
        return t.recomputeModules == 0 ? " (no modules)"
                                       : " (modules: " + recomputeModulesText(t.recomputeModules, ", ") + ")";
    if (t.recompute != Recompute::Full || t.recomputeLayers <= 0)
        return {};
    return " (block: " + std::to_string(t.recomputeLayers) + (t.recomputeLayers == 1 ? " layer" : " layers") +
           " of each chunk)";
}

std::string zero3GatherText(Zero3Gather gather) {
    return gather == Zero3Gather::Module ? "per linear module (DeepSpeed ZeRO-3)" : "per layer (FSDP/FSDP2)";
}

std::string zeroStageName(int stage) {
    switch (stage) {
    case 0:
        return "ZeRO-0 (replicated)";
    case 1:
        return "ZeRO-1 (sharded optimizer)";
    case 2:
        return "ZeRO-2 (sharded optimizer and gradients)";
    case 3:
        return "ZeRO-3 (FSDP full shard)";
    default:
        return "ZeRO-" + std::to_string(stage);
    }
}

std::string zeroStageDescription(int stage) {
    switch (stage) {
    case 0:
        return "ZeRO-0: weights, gradients and optimizer state replicated on every data-parallel rank";
    case 1:
        return "ZeRO-1 (the distributed optimizer): optimizer state sharded over the data-parallel ranks";
    case 2:
        return "ZeRO-2: optimizer state and gradients sharded over the data-parallel ranks";
    case 3:
        return "ZeRO-3 (FSDP full shard): weights, gradients and optimizer state sharded over the "
               "data-parallel ranks";
    default:
        return "ZeRO-" + std::to_string(stage);
    }
}

} // namespace lp::core
