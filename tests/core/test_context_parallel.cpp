// Context parallelism as the two execution styles run it (docs/estimation.md, section 6): Megatron's ring
// sends each rank's GQA-width K/V chunk step by step behind the attention; torch's context_parallel (the
// FSDP style, torchtitan) receives K/V repeated to every query head, all-gathers them once behind the first
// step only, passes dK/dV around the ring in fp32, merges the partial results in fp32 and holds the
// gathered chunks and the fp32 accumulators while a layer runs.
#include "TestHarness.h"

#include "ScenarioFixtures.h"
#include "core/Evaluate.h"
#include "core/ExecutionStyle.h"

using namespace lp::core;

namespace {

// Llama 3.1 8B on one node: CP c x DP 8/c, 32K tokens per rank, full recompute (torchtitan's Table 2).
Scenario llama8bWithCp(int cp, ExecutionStyle style) {
    Scenario s = fixtures::llama8bFsdpOnOneNode();
    s.model.seqLen = 32768LL * cp;
    s.layout.cp = cp;
    s.layout.dp = 8 / cp;
    s.layout.microBatch = 1;
    s.training.recompute = Recompute::Full;
    s.training.executionStyle = style;
    return s;
}

// Llama 3.1 70B as TP 8 inside each node and CP c across c nodes: every K/V chunk crosses the network.
Scenario llama70bCpAcrossNodes(int cp, ExecutionStyle style) {
    Scenario s = defaultScenario();
    s.model = findModelPreset("llama3.1-70b")->model;
    s.model.seqLen = 16384LL * cp;
    s.cluster.nodes = cp;
    s.layout = Layout{};
    s.layout.tp = 8;
    s.layout.cp = cp;
    s.layout.microBatch = 1;
    s.layout.accumulation = 4;
    s.training.sequenceParallel = true;
    s.training.recompute = Recompute::Full;
    s.training.zeroStage = 3;
    s.training.executionStyle = style;
    return s;
}

// Evaluates with the FSDP style's torch context-parallel habit switched off (a Megatron-like ring in
// otherwise the same style), restoring it afterwards.
Plan evaluateWithRingCp(const Scenario& s) {
    StyleTraits& traits = mutableStyleTraits(ExecutionStyle::Fsdp);
    traits.cpTorchAllGather = false;
    Plan p = evaluate(s);
    traits.cpTorchAllGather = true;
    return p;
}

} // namespace

LP_TEST(torch_context_parallel_sends_k_and_v_repeated_to_every_query_head) {
    // Llama 3.1 8B: 32 query heads, 8 K/V heads. torchtitan repeats K/V before SDPA, so its chunks are 4x
    // Megatron's, which sends the GQA heads.
    const Plan torchCp = evaluate(llama8bWithCp(4, ExecutionStyle::Fsdp));
    const Plan ring = evaluate(llama8bWithCp(4, ExecutionStyle::Megatron));
    LP_CHECK_NEAR(torchCp.x.cpExchangeBytes / ring.x.cpExchangeBytes, 4.0, 1e-9);
    // 32768 tokens x (4096 + 4096) widths x 2 bytes.
    LP_CHECK_NEAR(torchCp.x.cpExchangeBytes, 32768.0 * 8192.0 * 2.0, 1e-12);
}

LP_TEST(torch_context_parallel_hides_its_all_gather_behind_the_first_step_only) {
    // Across nodes the all-gather of c chunks takes longer than one step of attention: exposed, and more so
    // with more ranks at the same tokens per rank (the gather grows with c, the first step does not).
    // Megatron's ring sends one chunk per step behind that step and stays hidden.
    const Plan gather4 = evaluate(llama70bCpAcrossNodes(4, ExecutionStyle::Fsdp));
    const Plan gather8 = evaluate(llama70bCpAcrossNodes(8, ExecutionStyle::Fsdp));
    const Plan ring8 = evaluateWithRingCp(llama70bCpAcrossNodes(8, ExecutionStyle::Fsdp));
    LP_CHECK(gather8.time.cpCommSeconds > 2.0 * ring8.time.cpCommSeconds);
    LP_CHECK(gather8.time.cpCommSeconds > 2.0 * gather4.time.cpCommSeconds);
    // On one node's NVLink the same gather hides behind the first step; what shows is the last dK/dV send
    // of each layer, which nothing follows: about 1% of the step.
    const Plan node = evaluate(llama8bWithCp(8, ExecutionStyle::Fsdp));
    LP_CHECK(node.time.cpCommSeconds < 0.02 * node.time.stepSeconds);
}

LP_TEST(torch_context_parallel_merges_partial_results_in_fp32) {
    // The merges are memory traffic per ring step on this rank's tokens: at the same tokens per rank they
    // cost more with more ranks, and nothing without them.
    double extra[2] = {0, 0};
    const int degrees[2] = {2, 8};
    for (int i = 0; i < 2; ++i) {
        const Scenario s = llama8bWithCp(degrees[i], ExecutionStyle::Fsdp);
        const Plan merged = evaluate(s), ring = evaluateWithRingCp(s);
        extra[i] = merged.time.computeSeconds - ring.time.computeSeconds;
        LP_CHECK(extra[i] > 0);
        LP_CHECK(merged.time.recomputeSeconds > ring.time.recomputeSeconds);  // full recompute merges again
    }
    LP_CHECK(extra[1] > 3.0 * extra[0]);
    // ... and they are a modest share of the step, not the attention itself: under 10% at CP 8.
    const Plan p = evaluate(llama8bWithCp(8, ExecutionStyle::Fsdp));
    LP_CHECK(extra[1] < 0.1 * p.time.stepSeconds);
}

LP_TEST(torch_context_parallel_holds_the_gathered_chunks_and_fp32_gradients) {
    for (int cp : {2, 4, 8}) {
        const Scenario s = llama8bWithCp(cp, ExecutionStyle::Fsdp);
        const Plan p = evaluate(s), ring = evaluateWithRingCp(s);
        // c gathered 16-bit chunks of K and V plus fp32 dQ, dK, dV and the dK/dV pair in flight.
        const double nQ = 32768.0 * 4096, nKv = 2.0 * nQ;
        LP_CHECK_NEAR(p.x.cpBufferBytes, 2.0 * cp * nKv + 4.0 * (nQ + 3.0 * nKv), 1e-12);
        const StageMemory& a = p.memory.stages[0];
        const StageMemory& b = ring.memory.stages[0];
        LP_CHECK_NEAR(a.activationsBytes - b.activationsBytes, p.x.cpBufferBytes, 1e-9);
        LP_CHECK_NEAR(ring.x.cpBufferBytes, 0.0, 0.0);
    }
    // Megatron's ring holds none of these.
    LP_CHECK_NEAR(evaluate(llama8bWithCp(4, ExecutionStyle::Megatron)).x.cpBufferBytes, 0.0, 0.0);
}

LP_TEST_MAIN()
