// Pinned layouts side by side: which way each figure is better, the best and the worst of two or more
// plans (not for differences under 0.5% nor where a plan is invalid), what counts against a layout, and
// the words of the rows that are not numbers.
#include "TestHarness.h"
#include "core/estimate/Evaluate.h"
#include "core/estimate/KeyFigures.h"
#include "core/io/Presets.h"
#include "core/report/SvgCharts.h"
#include "core/search/LayoutComparison.h"

#include <string>
#include <vector>

using namespace lp::core;

namespace {

Scenario withMicroBatch(int microBatch) {
    Scenario s = defaultScenario();
    s.layout.microBatch = microBatch;
    return s;
}

} // namespace

LP_TEST(directionsAndValues) {
    LP_CHECK_EQ(betterDirection(ComparedFigure::Mfu), 1);
    LP_CHECK_EQ(betterDirection(ComparedFigure::Headroom), 1);
    LP_CHECK_EQ(betterDirection(ComparedFigure::StepTime), -1);
    LP_CHECK_EQ(betterDirection(ComparedFigure::Diagnostics), -1);
    LP_CHECK_EQ(betterDirection(ComparedFigure::Parallelism), 0);
    LP_CHECK_EQ(betterDirection(ComparedFigure::Hfu), 0);
    LP_CHECK(isNumeric(ComparedFigure::Hfu) && isNumeric(ComparedFigure::Gpus) &&
             isNumeric(ComparedFigure::Mfu));
    LP_CHECK(!isNumeric(ComparedFigure::Batch) && !isNumeric(ComparedFigure::Training));
    const Plan p = evaluate(defaultScenario());
    LP_CHECK_EQ(comparedValue(p, ComparedFigure::WorstMemory), p.memory.worstTotalBytes());
    LP_CHECK_EQ(comparedValue(p, ComparedFigure::Mfu), p.mfu);
    LP_CHECK_EQ(comparedValue(p, ComparedFigure::Gpus), 64.0);
    LP_CHECK_EQ(comparedValue(p, ComparedFigure::Diagnostics),
                static_cast<double>(countedDiagnostics(p).size()));
    LP_CHECK_EQ(comparedFigureName(ComparedFigure::WorstMemory), std::string_view("Worst-stage memory"));
    // The time rows are named as the step-time breakdown names its bars.
    for (const TimeRow& row : timeRows(p.time)) {
        if (row.key == "bubble")
            LP_CHECK_EQ(comparedFigureName(ComparedFigure::Bubble), row.label);
        if (row.key == "dp_comm_exposed")
            LP_CHECK_EQ(comparedFigureName(ComparedFigure::ExposedDp), row.label);
    }
}

LP_TEST(bestAndWorstOfThePinnedPlans) {
    const Plan a = evaluate(withMicroBatch(2));
    const Plan b = evaluate(withMicroBatch(1));
    const std::vector<const Plan*> plans{&a, &b};
    const std::size_t roomier = a.memory.headroomBytes > b.memory.headroomBytes ? 0 : 1;
    LP_CHECK(standing(plans, ComparedFigure::Headroom, roomier) == Standing::Best);
    LP_CHECK(standing(plans, ComparedFigure::Headroom, 1 - roomier) == Standing::Worst);
    LP_CHECK(standing(plans, ComparedFigure::WorstMemory, roomier) == Standing::Best); // lower is better
    const std::size_t faster = a.time.stepSeconds < b.time.stepSeconds ? 0 : 1;
    LP_CHECK(standing(plans, ComparedFigure::StepTime, faster) == Standing::Best);
    LP_CHECK(standing(plans, ComparedFigure::Parallelism, 0) == Standing::None); // not ranked
    LP_CHECK(standing(plans, ComparedFigure::Gpus, 0) == Standing::None);
    LP_CHECK(standing(plans, ComparedFigure::Mfu, 2) == Standing::None); // no such plan
    LP_CHECK(standing({&a}, ComparedFigure::Mfu, 0) == Standing::None);  // nothing to compare with
    // Differences of 0.5% or less are not marked.
    Plan close = a;
    close.mfu = a.mfu * 1.004;
    LP_CHECK(standing({&a, &close}, ComparedFigure::Mfu, 1) == Standing::None);
    close.mfu = a.mfu * 1.01;
    LP_CHECK(standing({&a, &close}, ComparedFigure::Mfu, 1) == Standing::Best);
    // A layout that does not fit is never the fastest or the cheapest: speed and cost are ranked among the
    // layouts that fit, its memory and diagnostics with everyone's.
    Scenario tight = defaultScenario();
    tight.layout.tp = 4;
    tight.layout.dp = 4;
    const Plan over = evaluate(tight);
    LP_CHECK(!over.memory.fits && over.mfu > a.mfu && over.tokensPerSecond > a.tokensPerSecond);
    const std::vector<const Plan*> withOver{&a, &b, &over};
    for (ComparedFigure f :
         {ComparedFigure::Mfu, ComparedFigure::TokensPerSecond, ComparedFigure::TrainingTime,
          ComparedFigure::GpuHours, ComparedFigure::StepTime})
        LP_CHECK(standing(withOver, f, 2) == Standing::None);
    LP_CHECK(standing(withOver, ComparedFigure::Mfu, a.mfu > b.mfu ? 0 : 1) == Standing::Best);
    LP_CHECK(standing(withOver, ComparedFigure::WorstMemory, 2) == Standing::Worst);
    LP_CHECK(standing(withOver, ComparedFigure::Headroom, 2) == Standing::Worst);
    LP_CHECK(standing(withOver, ComparedFigure::Diagnostics, 2) == Standing::Worst);
    LP_CHECK(standing({&a, &over}, ComparedFigure::Mfu, 0) == Standing::None); // one layout that fits
    // Nor where a plan is invalid.
    Plan invalid = b;
    invalid.valid = false;
    LP_CHECK(standing({&a, &invalid}, ComparedFigure::Headroom, roomier) == Standing::None);
}

LP_TEST(countedDiagnosticsAreWarningsErrorsAndNotFitting) {
    Scenario s = defaultScenario();
    s.training.recompute = Recompute::None;
    s.layout.microBatch = 8;
    s.layout.accumulation = 4;
    const Plan p = evaluate(s);
    LP_CHECK(!p.memory.fits);
    const std::vector<const Diagnostic*> counted = countedDiagnostics(p);
    bool doesNotFit = false;
    for (const Diagnostic* d : counted) {
        LP_CHECK(shownSeverity(*d) != Severity::Info);
        doesNotFit = doesNotFit || d->id == DiagnosticId::DoesNotFit;
    }
    LP_CHECK(doesNotFit);
    std::size_t serious = 0;
    for (const Diagnostic& d : p.diagnostics)
        serious += shownSeverity(d) != Severity::Info;
    LP_CHECK_EQ(counted.size(), serious);
    LP_CHECK(counted.front() == orderedDiagnostics(p.diagnostics).front()); // errors first
    LP_CHECK_EQ(diagnosticName(DiagnosticId::DoesNotFit), std::string("Does not fit"));
    LP_CHECK_EQ(diagnosticName(DiagnosticId::TpOverSlowLinks), std::string("Tp over slow links"));
}

LP_TEST(wordsOfTheLayout) {
    Scenario s = defaultScenario(); // TP 8 x PP 4 x DP 2, micro batch 2 x 16, ZeRO-1, selective, SP
    LP_CHECK_EQ(parallelismText(s.layout), std::string("TP 8 × PP 4 × CP 1 × DP 2"));
    LP_CHECK_EQ(batchText(s.layout), std::string("2 × 16 × DP 2 = 64"));
    LP_CHECK_EQ(trainingText(s), std::string("ZeRO-1, selective recompute, SP"));
    LP_CHECK_EQ(pinSummary(s),
                std::string("TP 8 × PP 4 × CP 1 × DP 2\nmb 2 × acc 16 · ZeRO-1 · selective recompute"));
    LP_CHECK_EQ(recomputeName(Recompute::None), std::string("no recompute"));
    LP_CHECK_EQ(recomputeName(Recompute::Full), std::string("full recompute"));
    s.layout.ep = 2;
    s.layout.vpp = 5;
    s.layout.accumulation = 512;
    s.training.recompute = Recompute::Full;
    s.training.recomputeLayers = 3;
    s.training.zeroShardDegree = 1;
    s.training.sequenceParallel = false;
    s.training.logitsMetricPasses = 2;
    LP_CHECK_EQ(parallelismText(s.layout), std::string("TP 8 × PP 4 × CP 1 × DP 2, EP 2"));
    LP_CHECK_EQ(batchText(s.layout), std::string("2 × 512 × DP 2 = 2,048"));
    LP_CHECK_EQ(trainingText(s), "ZeRO-1, full recompute" + recomputeDetailText(s.training) +
                                     " (HSDP over 1), 2 metric passes on the logits, no SP");
    LP_CHECK_EQ(pinSummary(s),
                std::string("TP 8 × PP 4 × CP 1 × DP 2, v 5\nmb 2 × acc 512 · ZeRO-1 · full recompute"));
}

// A pin says which model, GPU and GPU count it is of, whatever the scenario's name.
LP_TEST(pinsNameTheirModelAndCluster) {
    Scenario s = defaultScenario();
    s.name = "My run";
    LP_CHECK_EQ(pinnedModelText(s), automaticScenarioName(s));
    LP_CHECK(pinnedModelText(s).find(" on 64 H100") != std::string::npos);
    LP_CHECK_EQ(pinLabel(s), automaticScenarioName(s) + ", TP 8 × PP 4 × CP 1 × DP 2");
    LP_CHECK_EQ(comparedFigureName(ComparedFigure::Model), std::string_view("Model and GPUs"));
    LP_CHECK_EQ(betterDirection(ComparedFigure::Model), 0);
    LP_CHECK(!isNumeric(ComparedFigure::Model));
    Scenario other = s;
    other.layout.microBatch = 1;
    other.name.reset();
    LP_CHECK(sameModelAndCluster(s, other));
    other.cluster.nodes *= 2;
    LP_CHECK(!sameModelAndCluster(s, other));
    other = s;
    other.model.layers += 1;
    LP_CHECK(!sameModelAndCluster(s, other));
}

// The cells read as the Plan tab's cards and `evaluate` read the same figures; the bubble's percentage is its
// share of the step, as in every step-time breakdown (not of the bubble-free pipeline time).
LP_TEST(cellsAreWordedAsTheOtherViewsWordTheirFigures) {
    const Scenario s = defaultScenario();
    const Plan p = evaluate(s);
    const auto text = [&](ComparedFigure f) { return comparedText(s, p, f, MemoryUnit::GiB); };
    LP_CHECK_EQ(text(ComparedFigure::Bubble), fmt::duration(p.time.bubbleSeconds) + " (" +
                                                  fmt::percent(p.time.bubbleSeconds / p.time.stepSeconds) +
                                                  " of step)");
    LP_CHECK(text(ComparedFigure::Bubble).ends_with("(15.1 % of step)"));
    LP_CHECK_EQ(text(ComparedFigure::TokensPerSecond), std::string("53,845"));
    LP_CHECK_EQ(text(ComparedFigure::TokensPerSecondPerGpu), fmt::fixed(p.tokensPerSecondPerGpu, 1));
    for (const KeyFigure& card : keyFigures(s, p, MemoryUnit::GiB)) {
        if (card.id == "tokens_per_s")
            LP_CHECK_EQ(card.valueText, text(ComparedFigure::TokensPerSecond) + " tokens/s");
        if (card.id == "time.step")
            LP_CHECK_EQ(card.valueText, text(ComparedFigure::StepTime));
    }
    LP_CHECK_EQ(text(ComparedFigure::GpuHours), fmt::fixed(p.gpuHours, 0)); // as `evaluate`: "660,334"
    LP_CHECK_EQ(text(ComparedFigure::WorstMemory), bytesIn(p.memory.worstTotalBytes(), MemoryUnit::GiB, 1));
    LP_CHECK_EQ(comparedText(s, p, ComparedFigure::WorstMemory, MemoryUnit::GB),
                bytesIn(p.memory.worstTotalBytes(), MemoryUnit::GB, 1));
    LP_CHECK_EQ(text(ComparedFigure::Diagnostics), std::string("none"));
    LP_CHECK_EQ(text(ComparedFigure::Parallelism), parallelismText(s.layout));

    Scenario tight = s; // does not fit: the free memory reads as what is missing
    tight.layout.microBatch = 8;
    const Plan over = evaluate(tight);
    LP_CHECK(over.valid && !over.memory.fits);
    LP_CHECK(comparedText(tight, over, ComparedFigure::Headroom, MemoryUnit::GiB).ends_with(" GiB over"));
    LP_CHECK(comparedText(tight, over, ComparedFigure::Diagnostics, MemoryUnit::GiB).find("Does not fit") !=
             std::string::npos);

    Scenario bad = s; // TP 3 with 64 heads: invalid, its figures say so; its layout still reads
    bad.layout.tp = 3;
    const Plan invalid = evaluate(bad);
    LP_CHECK(!invalid.valid);
    LP_CHECK_EQ(comparedText(bad, invalid, ComparedFigure::Mfu, MemoryUnit::GiB), std::string("invalid"));
    LP_CHECK_EQ(comparedText(bad, invalid, ComparedFigure::Parallelism, MemoryUnit::GiB),
                parallelismText(bad.layout));
}

LP_TEST_MAIN()
