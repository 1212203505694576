// The pipeline schedule (training option pipeline_schedule): 1F1B, GPipe (every micro batch's activations
// held at once, the same bubble) and ZB-H1 (the weight gradients fill the bubble), read and written, planned,
// searched and exported (docs/estimation.md, "Pipeline bubble").
#include "ScenarioFixtures.h"
#include "TestHarness.h"
#include "core/estimate/Evaluate.h"
#include "core/estimate/Explain.h"
#include "core/export/LaunchExport.h"
#include "core/io/InputError.h"
#include "core/io/Presets.h"
#include "core/io/ScenarioJson.h"
#include "core/search/Search.h"

#include <string>

using namespace lp::core;
using fixtures::findDiagnostic;

namespace {

// The default model on TP 2 x PP 4 x DP 8 with 16 micro batches (more than PP) and no recompute.
Scenario pipelined(PipelineSchedule schedule, int vpp = 1) {
    Scenario s = defaultScenario();
    s.layout.tp = 2;
    s.layout.pp = 4;
    s.layout.dp = static_cast<int>(s.cluster.gpus() / 8);
    s.layout.cp = 1;
    s.layout.vpp = vpp;
    s.layout.microBatch = 1;
    s.layout.accumulation = 16;
    s.training.recompute = Recompute::None;
    s.training.zeroStage = 1;
    s.training.pipelineSchedule = schedule;
    return s;
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

// The GPipe scenario's file with its schedule's value replaced by `value` (JSON text).
std::string withSchedule(const std::string& value) {
    std::string text = scenarioToJson(pipelined(PipelineSchedule::GPipe));
    const std::string key = "\"pipeline_schedule\": ";
    const std::size_t at = text.find(key) + key.size();
    return text.replace(at, std::string("\"gpipe\"").size(), value);
}

std::string errorsOf(const std::string& value) {
    const auto s = scenarioFromJson(withSchedule(value));
    std::string all;
    if (!s)
        for (const InputError& e : s.error())
            all += e.message() + "\n";
    return all;
}

} // namespace

LP_TEST(schedule_names_parse_with_torchtitans_spellings) {
    LP_CHECK(parsePipelineSchedule("1f1b") == PipelineSchedule::OneFOneB);
    LP_CHECK(parsePipelineSchedule("Interleaved1F1B") == PipelineSchedule::OneFOneB);
    LP_CHECK(parsePipelineSchedule("GPipe") == PipelineSchedule::GPipe);
    LP_CHECK(parsePipelineSchedule("zb_h1") == PipelineSchedule::ZeroBubbleH1);
    LP_CHECK(parsePipelineSchedule("zb-h1") == PipelineSchedule::ZeroBubbleH1);
    LP_CHECK(!parsePipelineSchedule("dualpipe").has_value());
    LP_CHECK(toString(PipelineSchedule::ZeroBubbleH1) == "zb_h1");
}

LP_TEST(schedule_round_trips_through_the_scenario_file) {
    for (PipelineSchedule p :
         {PipelineSchedule::OneFOneB, PipelineSchedule::GPipe, PipelineSchedule::ZeroBubbleH1}) {
        const Scenario s = pipelined(p);
        const std::string text = scenarioToJson(s);
        // Written only when not 1F1B: the files of plans that never chose a schedule stay as they were.
        LP_CHECK_EQ(contains(text, "\"pipeline_schedule\": \"" + std::string(toString(p)) + "\""),
                    p != PipelineSchedule::OneFOneB);
        LP_CHECK_EQ(contains(text, "pipeline_schedule"), p != PipelineSchedule::OneFOneB);
        const auto back = scenarioFromJson(text);
        LP_CHECK(back.has_value() && back->training.pipelineSchedule == p);
    }
    // torchtitan's spelling is read too.
    const auto alias = scenarioFromJson(withSchedule("\"ZB-H1\""));
    LP_CHECK(alias.has_value() && alias->training.pipelineSchedule == PipelineSchedule::ZeroBubbleH1);
}

LP_TEST(bad_schedules_name_the_field_and_the_accepted_values) {
    const std::string unknown = errorsOf("\"dualpipe\"");
    LP_CHECK(contains(unknown, "training.pipeline_schedule"));
    LP_CHECK(contains(unknown, "1f1b") && contains(unknown, "gpipe") && contains(unknown, "zb_h1"));
    const std::string wrongType = errorsOf("3");
    LP_CHECK(contains(wrongType, "training.pipeline_schedule"));
    LP_CHECK(contains(wrongType, "zb_h1"));
}

LP_TEST(gpipe_holds_every_micro_batch_on_every_stage) {
    const Plan oneFOneB = evaluate(pipelined(PipelineSchedule::OneFOneB));
    const Plan gpipe = evaluate(pipelined(PipelineSchedule::GPipe));
    LP_CHECK(oneFOneB.valid && gpipe.valid);
    // Stage 0 holds min(p, m) = 4 micro batches under 1F1B, all m = 16 under GPipe: four times the layers.
    const double layers0 = oneFOneB.memory.stages[0].layers;
    LP_CHECK_NEAR(oneFOneB.intermediates.activationLayersInFlight, layers0 * 4.0, 1e-9);
    LP_CHECK_NEAR(gpipe.intermediates.activationLayersInFlight, layers0 * 16.0, 1e-9);
    LP_CHECK_NEAR(gpipe.intermediates.activationLayersInFlight /
                      oneFOneB.intermediates.activationLayersInFlight,
                  4.0, 1e-12);
    // The last stage: 1 micro batch under 1F1B, 16 under GPipe.
    for (std::size_t i = 0; i < gpipe.memory.stages.size(); ++i)
        LP_CHECK(gpipe.memory.stages[i].totalBytes > oneFOneB.memory.stages[i].totalBytes);
    LP_CHECK_NEAR(gpipe.intermediates.worstStageLayersInFlight,
                  gpipe.memory.stages[static_cast<std::size_t>(gpipe.memory.worstStage)].layers * 16.0, 1e-9);
    LP_CHECK(findDiagnostic(gpipe, DiagnosticId::GpipeHoldsAllMicroBatches) != nullptr);
    LP_CHECK(findDiagnostic(oneFOneB, DiagnosticId::GpipeHoldsAllMicroBatches) == nullptr);
}

LP_TEST(gpipe_has_the_bubble_of_1f1b) {
    const Plan oneFOneB = evaluate(pipelined(PipelineSchedule::OneFOneB));
    const Plan gpipe = evaluate(pipelined(PipelineSchedule::GPipe));
    LP_CHECK(oneFOneB.time.bubbleSeconds > 0);
    LP_CHECK_EQ(gpipe.time.bubbleSeconds, oneFOneB.time.bubbleSeconds);
    LP_CHECK_EQ(gpipe.time.stepSeconds, oneFOneB.time.stepSeconds);
}

LP_TEST(zero_bubble_fills_the_bubble_with_weight_gradients) {
    for (int vpp : {1, 2}) {
        const Plan oneFOneB = evaluate(pipelined(PipelineSchedule::OneFOneB, vpp));
        const Plan zb = evaluate(pipelined(PipelineSchedule::ZeroBubbleH1, vpp));
        LP_CHECK(oneFOneB.valid && zb.valid);
        const Intermediates& im = zb.intermediates;
        LP_CHECK(im.backwardWeightSeconds > 0);
        LP_CHECK(im.backwardWeightSeconds < im.stageBackwardSeconds);
        LP_CHECK(im.stageForwardSeconds > 0 && im.stageBackwardSeconds > im.stageForwardSeconds);
        // (p-1)(T_F + T_B - T_W) in the paper's terms (T_B the input gradient): the 1F1B bubble less 2 T_W
        // per stage time, over v.
        const double expected =
            oneFOneB.time.bubbleSeconds * (1.0 - 2.0 * im.backwardWeightSeconds / im.microbatchStageSeconds);
        LP_CHECK_NEAR(zb.time.bubbleSeconds, expected, 1e-12);
        LP_CHECK(zb.time.bubbleSeconds < oneFOneB.time.bubbleSeconds);
        LP_CHECK(zb.time.stepSeconds < oneFOneB.time.stepSeconds);
        // Memory as 1F1B.
        LP_CHECK_EQ(zb.memory.worstTotalBytes(), oneFOneB.memory.worstTotalBytes());
    }
}

LP_TEST(gpipe_with_virtual_stages_is_an_input_error) {
    const Plan p = evaluate(pipelined(PipelineSchedule::GPipe, 2));
    LP_CHECK(!p.valid);
    const Diagnostic* e = findDiagnostic(p, DiagnosticId::GpipeWithVirtualStages);
    LP_CHECK(e != nullptr);
    if (e) {
        LP_CHECK(contains(diagnosticMessage(*e), "pipeline_schedule"));
        LP_CHECK(contains(diagnosticMessage(*e), "vpp"));
        LP_CHECK(diagnosticIdString(e->id) == "gpipe_with_virtual_stages");
    }
    LP_CHECK(evaluate(pipelined(PipelineSchedule::ZeroBubbleH1, 2)).valid);
}

LP_TEST(search_under_gpipe_tries_one_stage_per_rank) {
    Scenario s = pipelined(PipelineSchedule::GPipe);
    SearchSpace sp;
    sp.tp = {2};
    sp.pp = {2, 4};
    sp.vpp = {1, 2};
    sp.microBatch = {1};
    sp.globalBatchMin = sp.globalBatchMax = s.layout.effectiveBatch();
    // PP 2 and 4 at VPP 1 only: no layout is proposed, or rejected, with virtual stages.
    const SearchResult r = search(s, sp, {});
    LP_CHECK_EQ(r.candidates, 2);
    LP_CHECK_EQ(r.valid, 2);
    for (const SearchEntry& e : r.top)
        LP_CHECK_EQ(e.choice.layout.vpp, 1);
    s.training.pipelineSchedule = PipelineSchedule::OneFOneB;
    LP_CHECK_EQ(search(s, sp, {}).candidates, 4);
}

LP_TEST(zero_bubble_under_megatron_says_torchtitan_has_it) {
    Scenario s = pipelined(PipelineSchedule::ZeroBubbleH1);
    s.training.executionStyle = ExecutionStyle::Megatron;
    const Plan p = evaluate(s);
    const Diagnostic* d = findDiagnostic(p, DiagnosticId::ScheduleNotInFramework);
    LP_CHECK(d != nullptr);
    if (d)
        LP_CHECK(contains(diagnosticMessage(*d), "torchtitan"));
    s.training.executionStyle = ExecutionStyle::Fsdp;
    LP_CHECK(findDiagnostic(evaluate(s), DiagnosticId::ScheduleNotInFramework) == nullptr);
}

LP_TEST(explanations_name_the_schedule_and_its_formula) {
    const auto bubble = [](PipelineSchedule schedule) {
        const Scenario s = pipelined(schedule);
        const auto e = explainFigure(s, evaluate(s), "time.bubble");
        return e ? e->formula + " | " + e->source + " | " + e->words : std::string();
    };
    LP_CHECK(contains(bubble(PipelineSchedule::OneFOneB), "(p - 1)/v x t_mb with even stages"));
    LP_CHECK(contains(bubble(PipelineSchedule::GPipe), "GPipe: bubble = the other stages' t_mb, summed"));
    LP_CHECK(contains(bubble(PipelineSchedule::GPipe), "Huang et al. 2019"));
    const std::string zb = bubble(PipelineSchedule::ZeroBubbleH1);
    LP_CHECK(contains(zb, "(p - 1)/v x (t_mb - 2 x t_W) with even stages"));
    LP_CHECK(contains(zb, "Qi et al. 2024"));
}

LP_TEST(exports_name_the_schedule) {
    const auto text = [](PipelineSchedule p, int vpp, LaunchTarget t) {
        return exportLaunchSettings(pipelined(p, vpp), t).text;
    };
    LP_CHECK(contains(text(PipelineSchedule::OneFOneB, 1, LaunchTarget::Torchtitan),
                      "pipeline_parallel_schedule = \"1F1B\""));
    LP_CHECK(contains(text(PipelineSchedule::OneFOneB, 2, LaunchTarget::Torchtitan),
                      "pipeline_parallel_schedule = \"Interleaved1F1B\""));
    LP_CHECK(contains(text(PipelineSchedule::GPipe, 1, LaunchTarget::Torchtitan),
                      "pipeline_parallel_schedule = \"GPipe\""));
    const std::string zb = text(PipelineSchedule::ZeroBubbleH1, 1, LaunchTarget::Torchtitan);
    LP_CHECK(contains(zb, "pipeline_parallel_schedule = \"InterleavedZeroBubble\""));
    LP_CHECK(contains(zb, "pipeline_parallel_layers_per_stage = "));
    LP_CHECK(contains(text(PipelineSchedule::ZeroBubbleH1, 2, LaunchTarget::Torchtitan),
                      "pipeline_parallel_schedule = \"InterleavedZeroBubble\""));
    LP_CHECK(contains(text(PipelineSchedule::ZeroBubbleH1, 1, LaunchTarget::Megatron),
                      "# Megatron-LM has no zb_h1 pipeline schedule"));
    LP_CHECK(!contains(text(PipelineSchedule::OneFOneB, 1, LaunchTarget::Megatron), "has no"));
    bool noted = false;
    for (const std::string& n :
         exportLaunchSettings(pipelined(PipelineSchedule::GPipe), LaunchTarget::DeepSpeed).notes)
        noted |= contains(n, "runs 1F1B") && contains(n, "gpipe");
    LP_CHECK(noted);
}

LP_TEST_MAIN()
