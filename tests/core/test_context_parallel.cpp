// Context parallelism as the two execution styles run it (docs/estimation.md, section 10): Megatron's ring
// sends each rank's GQA-width K/V chunk step by step behind the attention; torch's context_parallel (the
// FSDP style, torchtitan) receives K/V repeated to every query head, by default all-gathers them once behind
// the first step only, passes dK/dV around the ring in fp32, merges the partial results in fp32 and holds
// the gathered chunks and the fp32 accumulators while a layer runs. The cp_exchange option picks the ring
// or the all-gather in either style.
#include "ScenarioFixtures.h"
#include "TestHarness.h"
#include "core/estimate/Evaluate.h"
#include "core/estimate/ExecutionStyle.h"
#include "core/io/Presets.h"

#include <cmath>

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
// 64K tokens per rank: enough for a ring to hide its sends behind each step.
Scenario llama70bCpAcrossNodes(int cp, ExecutionStyle style) {
    Scenario s = defaultScenario();
    s.model = findModelPreset("llama3.1-70b")->model;
    s.model.seqLen = 65536LL * cp;
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

// Evaluates with the FSDP style's torch ring-attention habits (repeated K/V heads, fp32 merges and
// gradients) switched off: what the style would plan with Megatron's kernels.
Plan evaluateWithoutTorchRingAttention(const Scenario& s) {
    return fixtures::evaluateWithoutFsdpHabit(s, &StyleTraits::cpTorchRingAttention);
}

Scenario withExchange(Scenario s, CpExchange e) {
    s.training.cpExchange = e;
    return s;
}

} // namespace

LP_TEST(torch_context_parallel_sends_k_and_v_repeated_to_every_query_head) {
    // Llama 3.1 8B: 32 query heads, 8 K/V heads. torchtitan repeats K/V before SDPA, so its chunks are 4x
    // Megatron's, which sends the GQA heads.
    const Plan torchCp = evaluate(llama8bWithCp(4, ExecutionStyle::Fsdp));
    const Plan ring = evaluate(llama8bWithCp(4, ExecutionStyle::Megatron));
    LP_CHECK_NEAR(torchCp.intermediates.cpExchangeBytes / ring.intermediates.cpExchangeBytes, 4.0, 1e-9);
    // 32768 tokens x (4096 + 4096) widths x 2 bytes.
    LP_CHECK_NEAR(torchCp.intermediates.cpExchangeBytes, 32768.0 * 8192.0 * 2.0, 1e-12);
}

LP_TEST(torch_context_parallel_hides_its_all_gather_behind_the_first_step_only) {
    // Across nodes the all-gather of c chunks has to fit behind one step's attention. At 64K tokens per rank
    // it does for 4 ranks (as the ring hides its sends behind every step) but not for 8: the gather grows
    // with c, the first step does not.
    const Plan gather4 = evaluate(llama70bCpAcrossNodes(4, ExecutionStyle::Fsdp));
    const Plan ring4 =
        evaluate(withExchange(llama70bCpAcrossNodes(4, ExecutionStyle::Fsdp), CpExchange::Ring));
    const Plan gather8 = evaluate(llama70bCpAcrossNodes(8, ExecutionStyle::Fsdp));
    const Plan ring8 =
        evaluate(withExchange(llama70bCpAcrossNodes(8, ExecutionStyle::Fsdp), CpExchange::Ring));
    LP_CHECK(std::abs(gather4.time.cpCommSeconds - ring4.time.cpCommSeconds) <
             0.05 * ring4.time.cpCommSeconds);
    LP_CHECK(gather8.time.cpCommSeconds > 1.3 * ring8.time.cpCommSeconds);
    LP_CHECK(gather8.time.stepSeconds > ring8.time.stepSeconds);
    // The crossover the diagnostic states: c - 1 chunks behind one step instead of one behind each.
    LP_CHECK_NEAR(gather8.intermediates.cpHidingTokens, 7.0 * ring8.intermediates.cpHidingTokens, 1e-9);
    LP_CHECK(gather8.has(DiagnosticId::CpExchangeExposed));
    // Auto is the style's default: torch's all-gather for the FSDP style, Transformer Engine's ring for
    // Megatron.
    const Plan explicitGather =
        evaluate(withExchange(llama70bCpAcrossNodes(8, ExecutionStyle::Fsdp), CpExchange::AllGather));
    LP_CHECK_NEAR(explicitGather.time.stepSeconds, gather8.time.stepSeconds, 1e-12);
    const Plan megatron = evaluate(llama70bCpAcrossNodes(8, ExecutionStyle::Megatron));
    const Plan megatronRing =
        evaluate(withExchange(llama70bCpAcrossNodes(8, ExecutionStyle::Megatron), CpExchange::Ring));
    LP_CHECK_NEAR(megatron.time.stepSeconds, megatronRing.time.stepSeconds, 1e-12);
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
        const Plan merged = evaluate(s), ring = evaluateWithoutTorchRingAttention(s);
        extra[i] = merged.time.computeSeconds - ring.time.computeSeconds;
        LP_CHECK(extra[i] > 0);
        LP_CHECK(merged.time.recomputeSeconds > ring.time.recomputeSeconds); // full recompute merges again
    }
    LP_CHECK(extra[1] > 3.0 * extra[0]);
    // ... and they are a modest share of the step, not the attention itself: under 10% at CP 8.
    const Plan p = evaluate(llama8bWithCp(8, ExecutionStyle::Fsdp));
    LP_CHECK(extra[1] < 0.1 * p.time.stepSeconds);
}

LP_TEST(context_parallel_holds_its_chunks_and_torchs_fp32_gradients) {
    const double nQ = 32768.0 * 4096, nKv = 2.0 * nQ; // 32K tokens per rank; K and V at all 32 heads
    for (int cp : {2, 4, 8}) {
        // torch's all-gather: c gathered 16-bit chunks plus fp32 dQ, dK, dV and the dK/dV pair in flight.
        const Scenario s = llama8bWithCp(cp, ExecutionStyle::Fsdp);
        const Plan p = evaluate(s);
        LP_CHECK_NEAR(p.intermediates.cpBufferBytes, 2.0 * cp * nKv + 4.0 * (nQ + 3.0 * nKv), 1e-12);
        // A ring holds two chunks whatever c is.
        const Plan ring = evaluate(withExchange(s, CpExchange::Ring));
        LP_CHECK_NEAR(ring.intermediates.cpBufferBytes, 2.0 * 2.0 * nKv + 4.0 * (nQ + 3.0 * nKv), 1e-12);
        LP_CHECK_NEAR(p.memory.stages[0].activationsBytes - ring.memory.stages[0].activationsBytes,
                      p.intermediates.cpBufferBytes - ring.intermediates.cpBufferBytes, 1e-9);
    }
    // Megatron's ring: two chunks at the GQA width (8 of 32 heads), no fp32 accumulators; c of them after
    // an all-gather (--cp-comm-type all_gather).
    LP_CHECK_NEAR(evaluate(llama8bWithCp(4, ExecutionStyle::Megatron)).intermediates.cpBufferBytes,
                  2.0 * 2.0 * nKv / 4.0, 1e-12);
    const Scenario gathered = withExchange(llama8bWithCp(4, ExecutionStyle::Megatron), CpExchange::AllGather);
    LP_CHECK_NEAR(evaluate(gathered).intermediates.cpBufferBytes, 2.0 * 4.0 * nKv / 4.0, 1e-12);
    LP_CHECK_NEAR(evaluate(llama8bWithCp(1, ExecutionStyle::Fsdp)).intermediates.cpBufferBytes, 0.0, 0.0);
}

LP_TEST(cp_exchange_names_parse_with_the_frameworks_own_spellings) {
    LP_CHECK(parseCpExchange("ring") == CpExchange::Ring);
    LP_CHECK(parseCpExchange("alltoall") == CpExchange::Ring); // torchtitan's rotate method
    LP_CHECK(parseCpExchange("p2p") == CpExchange::Ring);      // Megatron's --cp-comm-type
    LP_CHECK(parseCpExchange("allgather") == CpExchange::AllGather);
    LP_CHECK(parseCpExchange("all_gather") == CpExchange::AllGather);
    LP_CHECK(parseCpExchange("auto") == CpExchange::Auto);
    LP_CHECK(!parseCpExchange("a2a").has_value()); // Ulysses-style all-to-all is not modelled
    LP_CHECK(toString(CpExchange::AllGather) == "allgather");
}

LP_TEST_MAIN()
