#pragma once
// Scenarios that several core tests start from, so that each test states only what it changes.
#include "core/estimate/Evaluate.h"
#include "core/estimate/ExecutionStyle.h"
#include "core/io/Presets.h"
#include "core/model/Scenario.h"

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

// Llama-2-7B in pure data parallelism over `nodes` nodes of 8 A100s (DP = 8 x nodes), one sequence per GPU
// and step (Layout's defaults), at ZeRO stage `zero` (the style Auto makes of it: FSDP at stage 3).
inline Scenario llama2_7bDataParallelOnA100(int nodes, int zero) {
    Scenario s = defaultScenario();
    s.model = findModelPreset("llama-2-7b")->model;
    s.cluster.gpu = findGpuPreset("a100-sxm-80gb")->gpu;
    s.cluster.nodes = nodes;
    s.training.zeroStage = zero;
    s.layout = Layout{};
    s.layout.dp = 8 * nodes;
    return s;
}

// Mixtral 8x7B (sequence 4096) as TP x DP with EP, micro batch 1 x accumulation 8, ZeRO-0, sequence
// parallel with TP, on TP x DP / 8 nodes of 8 GPUs.
inline Scenario mixtral(int tp, int ep, int dp) {
    Scenario s = defaultScenario();
    s.model = findModelPreset("mixtral-8x7b")->model;
    s.model.seqLen = 4096;
    s.training.zeroStage = 0;
    s.training.sequenceParallel = tp > 1;
    s.layout = Layout{};
    s.layout.tp = tp;
    s.layout.ep = ep;
    s.layout.dp = dp;
    s.layout.microBatch = 1;
    s.layout.accumulation = 8;
    s.cluster.nodes = tp * dp / 8;
    return s;
}

// Evaluates s with one of the FSDP style's boolean habits switched off, restoring it afterwards: what the
// style would plan without that habit.
inline Plan evaluateWithoutFsdpHabit(const Scenario& s, bool StyleTraits::*habit) {
    StyleTraits& traits = mutableStyleTraits(ExecutionStyle::Fsdp);
    const bool saved = traits.*habit;
    traits.*habit = false;
    Plan p = evaluate(s);
    traits.*habit = saved;
    return p;
}

// The plan's diagnostic of kind `id`, or nullptr.
inline const Diagnostic* findDiagnostic(const Plan& p, DiagnosticId id) {
    for (const Diagnostic& d : p.diagnostics)
        if (d.id == id)
            return &d;
    return nullptr;
}

} // namespace lp::core::fixtures
