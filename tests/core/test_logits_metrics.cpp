// The logits beyond the loss kernel: flash-attn's fused 16-bit cross-entropy (cross_entropy "fused_16bit")
// and training metrics computed from the logits after each backward (logits_metric_passes, Composer's habit),
// checked by hand on a small model with a large vocabulary, where the logits outweigh the layers, and on
// llm-foundry's published MPT runs, which ran on the GPUs the planner had said were too small before these
// were modelled.
#include "ScenarioFixtures.h"
#include "TestHarness.h"
#include "core/estimate/Evaluate.h"
#include "core/estimate/ExecutionStyle.h"
#include "core/estimate/Explain.h"
#include "core/io/Presets.h"
#include "core/measured/ValidationRun.h"

#include <string>

using namespace lp::core;

namespace {

// Qwen3-0.6B (hidden 1024, vocabulary 151,936) with FSDP over the 8 GPUs of one node, micro batch 8.
Scenario smallModelLargeVocabulary(CrossEntropy loss, int metricPasses) {
    Scenario s = fixtures::llama8bFsdpOnOneNode();
    s.model = findModelPreset("qwen3-0.6b")->model;
    s.model.seqLen = 2048;
    s.layout.microBatch = 8;
    s.training.recompute = Recompute::Full;
    s.training.crossEntropy = loss;
    s.training.logitsMetricPasses = metricPasses;
    return s;
}

double logitsOfOneMicroBatch(const Scenario& s) {
    return static_cast<double>(s.layout.microBatch) * s.model.seqLen * s.model.vocab / s.layout.tp;
}

double lastStageActivations(const Plan& p) {
    return p.memory.stages.back().activationsBytes;
}

} // namespace

LP_TEST(fused_16bit_loss_holds_the_logits_and_their_gradient) {
    const Scenario s = smallModelLargeVocabulary(CrossEntropy::Fused16, 0);
    const Plan p = evaluate(s);
    LP_CHECK(p.valid);
    // 2 bytes of saved 16-bit logits + 2 of 16-bit gradient; Megatron's fused kernel holds 6.
    LP_CHECK_NEAR(p.intermediates.logitsBytes, 4.0 * logitsOfOneMicroBatch(s), 1e-9);
    const Plan megatronKernel = evaluate(smallModelLargeVocabulary(CrossEntropy::Fused, 0));
    LP_CHECK_NEAR(lastStageActivations(megatronKernel) - lastStageActivations(p),
                  2.0 * logitsOfOneMicroBatch(s), 1e-9);
    // The same passes as a compiled loss (max and sum, then the gradient): the same time.
    LP_CHECK_NEAR(p.time.stepSeconds,
                  evaluate(smallModelLargeVocabulary(CrossEntropy::Compiled, 0)).time.stepSeconds, 1e-12);
    LP_CHECK_EQ(std::string(toString(CrossEntropy::Fused16)), std::string("fused_16bit"));
    LP_CHECK(parseCrossEntropy("fused_16bit") == CrossEntropy::Fused16);
}

LP_TEST(each_metric_pass_costs_an_eager_forward_over_the_logits) {
    const double none = evaluate(smallModelLargeVocabulary(CrossEntropy::Fused16, 0)).time.stepSeconds;
    const double one = evaluate(smallModelLargeVocabulary(CrossEntropy::Fused16, 1)).time.stepSeconds;
    const double two = evaluate(smallModelLargeVocabulary(CrossEntropy::Fused16, 2)).time.stepSeconds;
    LP_CHECK(one > none);
    // (Within 0.1%: the FSDP gathers hide behind a slightly longer last layer.)
    LP_CHECK_NEAR(two - none, 2.0 * (one - none), 1e-3);
    // Against the loss kernels' own traffic on the same GPU: an eager loss (44 bytes per logit) over the
    // fused 16-bit one (8) costs 36 bytes per logit more, a metric pass 22.
    const double eager = evaluate(smallModelLargeVocabulary(CrossEntropy::Unfused, 0)).time.stepSeconds;
    LP_CHECK_NEAR((one - none) / (eager - none), 22.0 / 36.0, 1e-3);
    LP_CHECK_NEAR(logitsTrafficBytesPerLogit(smallModelLargeVocabulary(CrossEntropy::Fused16, 2).training,
                                             ExecutionStyle::Fsdp, 1),
                  8.0 + 2.0 * 22.0, 1e-12);
}

LP_TEST(metrics_after_the_backward_set_the_peak_when_the_logits_outweigh_the_layers) {
    const Scenario s = smallModelLargeVocabulary(CrossEntropy::Fused16, 2);
    const Plan withMetrics = evaluate(s);
    const Plan without = evaluate(smallModelLargeVocabulary(CrossEntropy::Fused16, 0));
    // Full recompute keeps one 16-bit input per layer: far less than the logits, so the peak comes after the
    // backward, where 10 bytes per logit (the held 16-bit logits, their fp32 copy and the fp32 log-probs)
    // take the place of the layers' tensors and the loss's 4.
    LP_CHECK(withMetrics.intermediates.logitsMetricPeak);
    LP_CHECK_NEAR(withMetrics.intermediates.logitsMetricBytes, 10.0 * logitsOfOneMicroBatch(s), 1e-9);
    const double layersAndLoss = lastStageActivations(without);
    const double layers = s.model.layers * without.intermediates.activationBytesPerLayer;
    LP_CHECK_NEAR(
        lastStageActivations(withMetrics),
        layersAndLoss - without.intermediates.logitsBytes - layers + 10.0 * logitsOfOneMicroBatch(s), 1e-9);
    const auto act = explainFigure(s, withMetrics, "memory.activations");
    LP_CHECK(act.has_value() && act->substituted.find("after the backward") != std::string::npos);
    // Without recompute a micro batch's layers outweigh its logits: the peak stays at the loss.
    Scenario kept = s;
    kept.training.recompute = Recompute::None;
    const Plan keptPlan = evaluate(kept);
    LP_CHECK(!keptPlan.intermediates.logitsMetricPeak);
    kept.training.logitsMetricPasses = 0;
    LP_CHECK_NEAR(lastStageActivations(keptPlan), lastStageActivations(evaluate(kept)), 1e-12);
}

LP_TEST(llm_foundry_runs_plan_their_loss_metrics_and_dropout_and_fit) {
    const auto cases =
        loadValidationCases(std::string(LP_TEST_DATA_DIR) + "/validation/llm-foundry-runs.json");
    LP_CHECK(cases.has_value());
    if (!cases)
        return;
    for (const ValidationCase& c : *cases) {
        LP_CHECK(c.scenario.training.crossEntropy == CrossEntropy::Fused16);
        LP_CHECK_EQ(c.scenario.training.logitsMetricPasses, 2);
        LP_CHECK(!c.scenario.model.dropout);
    }
    // Every run ran: every plan fits its GPUs (40 of the 70 were planned over capacity, 34 by more than 5%,
    // with the FSDP style's eager loss and GPT-style dropout).
    const ValidationReport r = runValidation(*cases, nullptr);
    LP_CHECK_EQ(r.plannedCases, static_cast<int>(cases->size()));
    LP_CHECK(r.overCapacity.empty());
    std::printf("llm-foundry: %s\n", memoryFitSentence(r).c_str());
    // Other sources keep the style's loss and no metric passes.
    const auto fsdp =
        loadValidationCases(std::string(LP_TEST_DATA_DIR) + "/validation/pytorch-fsdp-runs.json");
    LP_CHECK(fsdp.has_value());
    for (const ValidationCase& c : fsdp ? *fsdp : std::vector<ValidationCase>{})
        LP_CHECK_EQ(c.scenario.training.logitsMetricPasses, 0);
}

LP_TEST_MAIN()
