// What one ZeRO-3 weight all-gather fetches (training option zero3_gather): a whole layer (FSDP/FSDP2) or
// one linear module at a time (DeepSpeed ZeRO-3), each collective paying the ring's (n-1) steps of latency
// (docs/estimation.md, "ZeRO-3 / FSDP").
#include "ScenarioFixtures.h"
#include "TestHarness.h"
#include "core/estimate/Collectives.h"
#include "core/estimate/Evaluate.h"
#include "core/export/LaunchExport.h"
#include "core/io/InputError.h"
#include "core/io/Presets.h"
#include "core/io/ScenarioJson.h"
#include "core/report/Report.h"
#include "core/report/ReportMarkdown.h"

#include <string>

using namespace lp::core;
using fixtures::findDiagnostic;

namespace {

// Llama-2-7B (multi-head attention, 4 linear modules per layer) on `dp` A100s, TP 1 x PP 1, one sequence
// per GPU: the regime where sharding at scale is latency-bound.
Scenario sharded(int dp, Zero3Gather gather, int zero = 3) {
    Scenario s = fixtures::llama2_7bDataParallelOnA100(dp / 8, zero);
    s.model.seqLen = 2048;
    s.training.recompute = Recompute::Full;
    s.training.zero3Gather = gather;
    return s;
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

std::string errorsOf(const std::string& value) {
    std::string text = scenarioToJson(sharded(64, Zero3Gather::Module));
    const std::string key = "\"zero3_gather\": ";
    const std::size_t at = text.find(key) + key.size();
    text.replace(at, std::string("\"module\"").size(), value);
    const auto s = scenarioFromJson(text);
    std::string all;
    if (!s)
        for (const InputError& e : s.error())
            all += e.message() + "\n";
    return all;
}

std::string notesOf(const Scenario& s, LaunchTarget target) {
    std::string all;
    for (const std::string& n : exportLaunchSettings(s, target).notes)
        all += n + "\n";
    return all;
}

} // namespace

LP_TEST(layer_is_the_default_and_module_splits_the_layer_gather) {
    LP_CHECK(TrainingOptions{}.zero3Gather == Zero3Gather::Layer);
    const Plan layer = evaluate(sharded(256, Zero3Gather::Layer));
    const Plan module = evaluate(sharded(256, Zero3Gather::Module));
    LP_CHECK(layer.valid && module.valid);
    LP_CHECK_EQ(layer.intermediates.zero3GathersPerLayer, 1.0);
    // QKV, output projection and the MLP's two GEMMs.
    LP_CHECK_EQ(module.intermediates.zero3GathersPerLayer, 4.0);
    // Each collective moves a quarter of the layer, with the same ring latency.
    LP_CHECK_NEAR(module.intermediates.dpMessageBytes * 4.0, layer.intermediates.dpMessageBytes, 1.0);
    LP_CHECK_EQ(module.intermediates.dpRingLatencySeconds, layer.intermediates.dpRingLatencySeconds);
    LP_CHECK(module.time.dpCommExposedSeconds > layer.time.dpCommExposedSeconds);
    // Memory does not depend on how the weights are fetched.
    LP_CHECK_EQ(module.memory.stages[0].totalBytes, layer.memory.stages[0].totalBytes);
}

LP_TEST(per_module_gathers_cost_latency_that_grows_with_the_ranks) {
    // The extra time of DeepSpeed's fetches is about 3 more ring latencies per gather: it grows with DP.
    const auto extra = [](int dp) {
        return evaluate(sharded(dp, Zero3Gather::Module)).time.stepSeconds -
               evaluate(sharded(dp, Zero3Gather::Layer)).time.stepSeconds;
    };
    const double at64 = extra(64);
    const double at1024 = extra(1024);
    LP_CHECK(at64 > 0);
    LP_CHECK(at1024 > 8.0 * at64);
    // At 1,024 ranks, the three extra gathers' latency per layer pass alone: 3 x 1,023 steps, three passes
    // (forward, backward, recompute), 32 layers, mostly exposed.
    const Plan big = evaluate(sharded(1024, Zero3Gather::Module));
    const double latencyPerGather = big.intermediates.dpRingLatencySeconds;
    LP_CHECK(latencyPerGather > 1e-3);
    LP_CHECK(at1024 > 0.5 * 3.0 * 3.0 * 32 * latencyPerGather);
}

LP_TEST(without_zero3_the_setting_changes_nothing) {
    for (int zero : {0, 1, 2}) {
        const Plan layer = evaluate(sharded(128, Zero3Gather::Layer, zero));
        const Plan module = evaluate(sharded(128, Zero3Gather::Module, zero));
        LP_CHECK_EQ(module.time.stepSeconds, layer.time.stepSeconds);
        LP_CHECK_EQ(module.intermediates.zero3GathersPerLayer, 0.0);
    }
}

LP_TEST(the_diagnostic_counts_the_gathers_and_suggests_whole_layers) {
    const Plan p = evaluate(sharded(1024, Zero3Gather::Module));
    const Diagnostic* d = findDiagnostic(p, DiagnosticId::ExposedDpComm);
    LP_CHECK(d != nullptr);
    if (!d)
        return;
    LP_CHECK(contains(diagnosticMessage(*d),
                      "4 of them per layer pass (DeepSpeed ZeRO-3 gathers module by module)"));
    LP_CHECK(contains(diagnosticMessage(*d), "latency dominates"));
    LP_CHECK(contains(diagnosticSuggestion(*d), "zero3_gather layer"));
    const Plan layer = evaluate(sharded(1024, Zero3Gather::Layer));
    const Diagnostic* l = findDiagnostic(layer, DiagnosticId::ExposedDpComm);
    LP_CHECK(l != nullptr && !contains(diagnosticMessage(*l), "module by module"));
}

LP_TEST(the_setting_round_trips_and_bad_values_name_the_field) {
    LP_CHECK(parseZero3Gather("module") == Zero3Gather::Module);
    LP_CHECK(parseZero3Gather("layer") == Zero3Gather::Layer);
    LP_CHECK(!parseZero3Gather("param").has_value());
    for (Zero3Gather g : {Zero3Gather::Layer, Zero3Gather::Module}) {
        const std::string text = scenarioToJson(sharded(64, g));
        // Written only when per module: the files of plans that never chose stay as they were.
        LP_CHECK_EQ(contains(text, "\"zero3_gather\": \"module\""), g == Zero3Gather::Module);
        LP_CHECK_EQ(contains(text, "zero3_gather"), g == Zero3Gather::Module);
        const auto back = scenarioFromJson(text);
        LP_CHECK(back.has_value() && back->training.zero3Gather == g);
    }
    const std::string unknown = errorsOf("\"param\"");
    LP_CHECK(contains(unknown, "training.zero3_gather"));
    LP_CHECK(contains(unknown, "layer") && contains(unknown, "module"));
    LP_CHECK(contains(errorsOf("4"), "training.zero3_gather"));
}

LP_TEST(exports_say_which_trainer_gathers_what) {
    const std::string ds =
        exportLaunchSettings(sharded(64, Zero3Gather::Module), LaunchTarget::DeepSpeed).text;
    LP_CHECK(contains(ds, "\"stage3_prefetch_bucket_size\": 50000000"));
    LP_CHECK(contains(ds, "\"stage3_param_persistence_threshold\": 100000"));
    LP_CHECK(contains(ds, "\"reduce_bucket_size\": 500000000"));
    // DeepSpeed fetches per module: a plan that gathers layers says so in the DeepSpeed export.
    LP_CHECK(
        contains(notesOf(sharded(64, Zero3Gather::Layer), LaunchTarget::DeepSpeed), "--zero3-gather module"));
    LP_CHECK(!contains(notesOf(sharded(64, Zero3Gather::Module), LaunchTarget::DeepSpeed), "--zero3-gather"));
    // FSDP2 trainers gather layers: a per-module plan says so in theirs.
    for (LaunchTarget t : {LaunchTarget::Torchtitan, LaunchTarget::Megatron}) {
        LP_CHECK(contains(notesOf(sharded(64, Zero3Gather::Module), t), "--zero3-gather layer"));
        LP_CHECK(!contains(notesOf(sharded(64, Zero3Gather::Layer), t), "--zero3-gather"));
    }
}

LP_TEST(reports_name_what_a_gather_fetches) {
    const std::string module = reportToMarkdown(makeReport(sharded(64, Zero3Gather::Module)));
    LP_CHECK(contains(module, "ZeRO-3 weight gathers"));
    LP_CHECK(contains(module, zero3GatherText(Zero3Gather::Module)));
    LP_CHECK(
        contains(reportToMarkdown(makeReport(sharded(64, Zero3Gather::Layer))), "per layer (FSDP/FSDP2)"));
    LP_CHECK(contains(module, "gathered module by module with DeepSpeed ZeRO-3"));
    // Without ZeRO-3 nothing is gathered layer by layer: no such row.
    LP_CHECK(!contains(reportToMarkdown(makeReport(sharded(64, Zero3Gather::Module, 1))),
                       "ZeRO-3 weight gathers"));
}

LP_TEST_MAIN()
