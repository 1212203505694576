// FSDP under a pipeline (torchtitan with torch.distributed.pipelining): the stage stays gathered across the
// micro batches, its gradients accumulate unsharded in the reduction dtype, one gather per step and one
// reduction after the stage's last backward, exposed; the Megatron style's pipeline is untouched.
#include "ScenarioFixtures.h"
#include "TestHarness.h"
#include "core/estimate/Evaluate.h"
#include "core/io/Presets.h"

#include <algorithm>

using namespace lp::core;

namespace {

// Llama 3.1 8B as TP 8 x PP pp x DP 4 on 4 x pp nodes, ZeRO-3, micro batch 1 x m.
Scenario fsdpPipeline(int pp, int m, ExecutionStyle style = ExecutionStyle::Fsdp) {
    Scenario s = defaultScenario();
    s.model = findModelPreset("llama3.1-8b")->model;
    s.cluster.nodes = 4 * pp;
    s.layout = Layout{};
    s.layout.tp = 8;
    s.layout.pp = pp;
    s.layout.dp = 4;
    s.layout.microBatch = 1;
    s.layout.accumulation = m;
    s.training.zeroStage = 3;
    s.training.sequenceParallel = true;
    s.training.executionStyle = style;
    return s;
}

// A middle stage's layer parameters on one GPU.
double middleStageParams(const Plan& p, const Scenario& s) {
    return p.params.layersTotal / s.layout.pp / s.layout.tp;
}

} // namespace

LP_TEST(fsdp_with_a_pipeline_holds_the_stage_gathered_and_fp32_gradients) {
    const Scenario piped = fsdpPipeline(4, 8);
    const Plan p = evaluate(piped);
    LP_CHECK(p.valid);
    const double params = middleStageParams(p, piped);
    const StageMemory& mid = p.memory.stages[1];
    LP_CHECK_NEAR(mid.weightsBytes, params * 2.0, 1e-6 * params);   // bf16, gathered
    LP_CHECK_NEAR(mid.gradientsBytes, params * 4.0, 1e-6 * params); // fp32 reduce dtype, unsharded
    LP_CHECK_NEAR(mid.optimizerBytes, params * 12.0 / 4.0, 1e-6 * params);
    // FSDP alone (no pipeline) reshards after each layer: weights and gradients sharded over DP 4, and the
    // gathered layers counted among the overheads instead.
    const Scenario alone = fsdpPipeline(1, 8);
    const Plan a = evaluate(alone);
    const double all = a.params.layersTotal / alone.layout.tp;
    LP_CHECK_NEAR(a.memory.stages[0].weightsBytes, all * 2.0 / 4.0, 0.05 * all);
    LP_CHECK(a.memory.stages[0].gradientsBytes < 0.3 * all * 4.0);
    LP_CHECK_EQ(a.intermediates.fsdpBulkReduceSeconds, 0.0);
    // With the fp8 all-gather the gathered linear weights are the fp8 values: about a byte per parameter.
    Scenario fp8 = piped;
    fp8.training.precision = Precision::Fp8;
    fp8.training.fp8ParamGather = true;
    const Plan f = evaluate(fp8);
    LP_CHECK(f.memory.stages[1].weightsBytes < 0.6 * mid.weightsBytes);
    LP_CHECK(f.memory.stages[1].weightsBytes > 0.45 * mid.weightsBytes);
}

LP_TEST(micro_batches_in_flight_follow_the_schedule_on_the_first_and_last_stage) {
    // 1F1B: stage 0 holds min(p, m) micro batches of its layers; the last stage one (its activations do
    // not grow with m once m >= p). Interleaved with v = 2, p = 4, m = 8: 2(p - 1) + (v - 1)p + 1 = 11 chunk
    // forwards on rank 0, each half its layers.
    for (const int m : {2, 4, 8}) {
        const Scenario s = fsdpPipeline(4, m, ExecutionStyle::Megatron);
        const Plan p = evaluate(s);
        LP_CHECK(p.valid);
        const double layers0 = p.memory.stages[0].layers;
        LP_CHECK_NEAR(p.intermediates.activationLayersInFlight, layers0 * std::min(4, m), 1e-9);
    }
    const Plan last4 = evaluate(fsdpPipeline(4, 4, ExecutionStyle::Megatron));
    const Plan last8 = evaluate(fsdpPipeline(4, 8, ExecutionStyle::Megatron));
    LP_CHECK_NEAR(last4.memory.stages[3].activationsBytes, last8.memory.stages[3].activationsBytes,
                  1e-9 * last8.memory.stages[3].activationsBytes);
    Scenario interleaved = fsdpPipeline(4, 8, ExecutionStyle::Megatron);
    interleaved.layout.vpp = 2;
    const Plan iv = evaluate(interleaved);
    LP_CHECK(iv.valid);
    LP_CHECK_NEAR(iv.intermediates.activationLayersInFlight, iv.memory.stages[0].layers * 11.0 / 2.0, 1e-9);
}

LP_TEST(fsdp_reductions_scale_with_micro_batches_alone_and_happen_once_under_a_pipeline) {
    // FSDP alone reduce-scatters every layer's gradients in each micro batch's backward (torchtitan does not
    // defer gradient sync when accumulating): the exposed traffic grows with m, one set per micro batch.
    const Plan alone2 = evaluate(fsdpPipeline(1, 2));
    const Plan alone4 = evaluate(fsdpPipeline(1, 4));
    LP_CHECK(alone2.time.dpCommExposedSeconds > 0);
    LP_CHECK_NEAR(alone4.time.dpCommExposedSeconds, 2.0 * alone2.time.dpCommExposedSeconds,
                  1e-9 * alone4.time.dpCommExposedSeconds);
    // Under torch's pipelining the reduction waits for the stage's last backward and runs once per step,
    // whatever m: the same seconds at 4 and 8 micro batches, all of them exposed.
    const Plan piped4 = evaluate(fsdpPipeline(4, 4));
    const Plan piped8 = evaluate(fsdpPipeline(4, 8));
    LP_CHECK(piped4.intermediates.fsdpBulkReduceSeconds > 0);
    LP_CHECK_NEAR(piped4.intermediates.fsdpBulkReduceSeconds, piped8.intermediates.fsdpBulkReduceSeconds,
                  0.0);
    LP_CHECK_NEAR(piped4.time.dpCommExposedSeconds, piped8.time.dpCommExposedSeconds, 0.0);
    LP_CHECK(piped4.time.dpCommExposedSeconds >= piped4.intermediates.fsdpBulkReduceSeconds);
    // fp32 gradients: a bf16 reduction halves the bytes and about halves the time.
    Scenario half = fsdpPipeline(4, 4);
    half.training.gradPrecision = GradPrecision::Half;
    const Plan h = evaluate(half);
    LP_CHECK(h.intermediates.fsdpBulkReduceSeconds < 0.6 * piped4.intermediates.fsdpBulkReduceSeconds);
}

LP_TEST(fsdp_gradient_reduction_keeps_its_dtype_with_the_fp8_all_gather) {
    // The fp8 all-gather halves the weights' bytes, not the gradients': FSDP alone, the exposed traffic with
    // the fp8 gather stays above half of the 16-bit gather's, the reduce-scatter being unchanged.
    Scenario s = fsdpPipeline(1, 4);
    s.training.precision = Precision::Fp8;
    s.cluster.gpu = findGpuPreset("h100-sxm-80gb")->gpu;
    const Plan bf16Gather = evaluate(s);
    s.training.fp8ParamGather = true;
    const Plan fp8Gather = evaluate(s);
    LP_CHECK(fp8Gather.intermediates.gatherBytesPerParam == 1.0);
    LP_CHECK(fp8Gather.intermediates.dpMessageBytes < 0.6 * bf16Gather.intermediates.dpMessageBytes);
    // Under a pipeline the bulk reduction is the same with or without the fp8 gather.
    Scenario piped = fsdpPipeline(4, 4);
    piped.training.precision = Precision::Fp8;
    piped.cluster.gpu = s.cluster.gpu;
    const Plan bf = evaluate(piped);
    piped.training.fp8ParamGather = true;
    const Plan f8 = evaluate(piped);
    LP_CHECK_NEAR(f8.intermediates.fsdpBulkReduceSeconds, bf.intermediates.fsdpBulkReduceSeconds,
                  1e-12 + 1e-9 * bf.intermediates.fsdpBulkReduceSeconds);
}

LP_TEST(the_gathered_stage_is_diagnosed_and_the_megatron_pipeline_is_not) {
    const Plan p = evaluate(fsdpPipeline(4, 8));
    const Diagnostic* d = fixtures::findDiagnostic(p, DiagnosticId::FsdpStageKeptGathered);
    LP_CHECK(d != nullptr);
    if (d != nullptr) {
        const auto& f = std::get<diagnostic::FsdpStageKeptGathered>(d->figures);
        const StageMemory& w = p.memory.stages[static_cast<std::size_t>(p.memory.worstStage)];
        LP_CHECK_EQ(f.stage, p.memory.worstStage);
        LP_CHECK_NEAR(f.weightsBytes + f.gradientsBytes, w.weightsBytes + w.gradientsBytes, 0.0);
        LP_CHECK_EQ(f.gradientBytesPerParam, 4.0);
        LP_CHECK_NEAR(d->costSeconds, p.intermediates.fsdpBulkReduceSeconds, 0.0);
        LP_CHECK(diagnosticMessage(*d).find("gathered") != std::string::npos);
        LP_CHECK(diagnosticSuggestion(*d).find("bf16") != std::string::npos);
    }
    // The Megatron style with its distributed optimizer under the same pipeline: no gathered stage.
    Scenario megatron = fsdpPipeline(4, 8, ExecutionStyle::Megatron);
    megatron.training.zeroStage = 1;
    const Plan m = evaluate(megatron);
    LP_CHECK(!m.has(DiagnosticId::FsdpStageKeptGathered));
    LP_CHECK_EQ(m.intermediates.fsdpBulkReduceSeconds, 0.0);
}

LP_TEST_MAIN()
