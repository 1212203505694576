#include "core/Scenario.h"

#include "core/Presets.h"

#include <utility>

namespace lp::core {

Scenario defaultScenario() {
    Scenario s;
    s.name = "Llama-2-70B on 64 H100 (seed example)";
    s.notes = "The worked example: a 70B model on 8 nodes x 8 H100 SXM as TP 8 x PP 4 x DP 2.";

    ModelSpec& m = s.model;  // Llama-2-70B architecture (Touvron et al. 2023; HF config.json)
    m.name = "Llama-2-70B-class (seed example)";
    m.layers = 80;
    m.hidden = 8192;
    m.heads = 64;
    m.kvHeads = 8;
    m.ffnHidden = 28672;
    m.vocab = 32000;
    m.seqLen = 4096;
    m.mlp = MlpKind::SwiGlu;
    m.norm = NormKind::RmsNorm;
    m.tiedEmbeddings = false;
    m.biases = false;
    m.learnedPositions = false;
    m.dropout = false;

    if (const ModelPreset* seed = findModelPreset("seed-70b")) {
        const std::string name = m.name;
        m = seed->model;  // the preset is the reference; the fields above document it
        m.name = name;
    }

    // 8 x DGX H100: NVLink 4 (900 GB/s both ways), one 400 Gb/s NIC per GPU.
    if (const ClusterPreset* dgx = findClusterPreset("dgx-h100")) {
        s.cluster = makeCluster(*dgx, 8);
    } else {
        ClusterSpec& c = s.cluster;
        c.name = "8 x DGX H100";
        c.nodes = 8;
        c.gpusPerNode = 8;
        c.nvlinkDomain = 8;
    }

    TrainingOptions& t = s.training;
    t.precision = Precision::Bf16;
    t.optimizer = Optimizer::Adam;
    t.zeroStage = 1;
    t.recompute = Recompute::Selective;
    t.sequenceParallel = true;
    t.flashAttention = true;

    Layout& l = s.layout;
    l.tp = 8;
    l.pp = 4;
    l.dp = 2;
    l.cp = 1;
    l.ep = 1;
    l.vpp = 1;
    l.microBatch = 2;
    l.accumulation = 16;
    return s;
}

int effectiveShardDegree(const Scenario& s) {
    const int dp = s.layout.dp;
    const int d = s.training.zeroShardDegree;
    if (s.training.zeroStage <= 0 || d <= 0 || d >= dp)
        return dp;
    return d;
}

std::vector<std::string_view> overlapsOn(const TrainingOptions& t) {
    std::vector<std::string_view> on;
    for (auto [set, name] : {std::pair{t.overlapTpComm, "TP"}, std::pair{t.overlapPpComm, "PP"},
                             std::pair{t.overlapDpComm, "DP"}, std::pair{t.overlapEpComm, "EP"}})
        if (set)
            on.emplace_back(name);
    return on;
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
    case PipelineSplit::Layers: return false;
    case PipelineSplit::EmbeddingAndLoss: return true;
    case PipelineSplit::Auto: break;
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

} // namespace lp::core
