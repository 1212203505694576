#pragma once
// Scenarios that several core tests start from, so that each test states only what it changes.
#include "core/Presets.h"
#include "core/Scenario.h"

namespace lp::core::fixtures {

// Llama 3.1 8B (vocab 128256) trained with FSDP (ZeRO-3) over the 8 GPUs of one NVLink node, micro
// batch 2: torchtitan's single-node benchmark shape.
inline Scenario llama8bFsdpOnOneNode() {
    Scenario s = defaultScenario();
    s.model = findModelPreset("llama3.1-8b")->model;
    s.cluster.nodes = 1;
    s.layout = Layout{};
    s.layout.dp = 8;
    s.layout.microBatch = 2;
    s.training.zeroStage = 3;
    return s;
}

} // namespace lp::core::fixtures
