#pragma once
// The scenarios the benchmarks run: (a) the default scenario (70B-class, 64 H100, global batch 64) and
// (b) Llama-3.1-405B on 16,384 H100 (2,048 DGX H100 nodes), global batch 2,048 sequences.
#include "core/io/Presets.h"
#include "core/model/Scenario.h"

#include <stdexcept>

namespace lp::bench {

inline core::Scenario scenarioA() {
    return core::defaultScenario();
}

inline core::Scenario scenarioB() {
    using namespace lp::core;
    const ModelPreset* model = findModelPreset("llama3.1-405b");
    const ClusterPreset* cluster = findClusterPreset("dgx-h100");
    if (!model || !cluster)
        throw std::runtime_error("presets llama3.1-405b or dgx-h100 missing");
    Scenario s = defaultScenario();
    s.name = "Llama-3.1-405B on 16,384 H100";
    s.model = model->model;
    s.cluster = makeCluster(*cluster, 2048);
    s.layout = Layout{};
    s.layout.tp = 8;
    s.layout.pp = 2;
    s.layout.dp = 1024;
    s.layout.microBatch = 1;
    s.layout.accumulation = 2; // 1 x 2 x 1024 = 2048 sequences
    return s;
}

} // namespace lp::bench
