// The words of the validation figures that the Validate tab shows (core/measured/ValidationText.h) and the
// sentence a throughput figure's explanation quotes (core/measured/ValidationTrust.h).
#include "TestHarness.h"
#include "core/measured/ValidationText.h"
#include "core/measured/ValidationTrust.h"

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

using namespace lp::core;

namespace {

const std::string kMinus = "\xe2\x88\x92";

GroupSummary group(const std::string& gpu, const std::string& style, int count, double medianAbs,
                   double speed) {
    GroupSummary g;
    g.gpu = gpu;
    g.style = style;
    g.precision = "bf16";
    g.count = count;
    g.medianAbsError = medianAbs;
    g.medianSpeedError = speed;
    return g;
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

} // namespace

LP_TEST(metrics_have_names_units_and_values_with_units) {
    LP_CHECK_EQ(knownMetrics().front(), std::string("iteration_time_s"));
    LP_CHECK_EQ(knownMetrics().back(), std::string("peak_memory_gib"));
    LP_CHECK_EQ(metricRank("mfu"), 3);
    LP_CHECK_EQ(metricRank("joules_per_token"), -1);
    LP_CHECK_EQ(metricName("iteration_time_s"), std::string("Iteration time"));
    LP_CHECK_EQ(metricName("throughput"), std::string("All throughput metrics"));
    LP_CHECK_EQ(metricName("joules_per_token"), std::string("joules_per_token"));
    LP_CHECK_EQ(metricShortName("hardware_tflops_per_gpu"), std::string("HW TFLOP/s"));
    LP_CHECK_EQ(metricShortName("mfu"), std::string("MFU"));
    LP_CHECK_EQ(metricUnit("model_tflops_per_gpu"), std::string("TFLOP/s"));
    LP_CHECK_EQ(metricUnit("joules_per_token"), std::string());
    LP_CHECK_EQ(metricValueText("iteration_time_s", 5.5), std::string("5.50 s"));
    LP_CHECK_EQ(metricValueText("iteration_time_s", 0.25), std::string("0.250 s"));
    LP_CHECK_EQ(metricValueText("iteration_time_s", 123.45), std::string("123.5 s"));
    LP_CHECK_EQ(metricValueText("mfu", 0.412), std::string("41.2 %"));
    LP_CHECK_EQ(metricValueText("tokens_per_s_per_gpu", 3012.4), std::string("3,012 tokens/s"));
    LP_CHECK_EQ(metricValueText("peak_memory_gib", 61.26), std::string("61.3 GiB"));
    LP_CHECK_EQ(metricValueText("mfu", 0), std::string("\xe2\x80\x93"));
}

LP_TEST(cases_read_as_their_gpus_and_layout) {
    Scenario s;
    s.cluster.gpu.name = "NVIDIA A100 SXM 80 GB";
    s.layout.tp = 8;
    s.layout.pp = 16;
    s.layout.dp = 8;
    s.layout.vpp = 3;
    LP_CHECK_EQ(gpusText(s), std::string("1,024 \xc3\x97 A100 SXM 80 GB"));
    LP_CHECK_EQ(layoutText(s, 12, false),
                std::string("TP8 \xc2\xb7 PP16 \xc2\xb7 DP8 \xc2\xb7 VPP3 \xc2\xb7 mb12*"));
    s.layout.cp = 2;
    s.layout.vpp = 1;
    LP_CHECK_EQ(layoutText(s, 1, true),
                std::string("TP8 \xc2\xb7 PP16 \xc2\xb7 DP8 \xc2\xb7 CP2 \xc2\xb7 mb1"));
}

LP_TEST(errors_read_with_their_sign_and_band) {
    LP_CHECK_EQ(errorText(0.055), std::string("5.5 %"));
    LP_CHECK_EQ(signedErrorText(0.042), std::string("+4.2 %"));
    LP_CHECK_EQ(signedErrorText(-0.105), kMinus + "10.5 %");
    LP_CHECK(errorBand(0.04) == ErrorBand::Good);
    LP_CHECK(errorBand(-0.10) == ErrorBand::Good);
    LP_CHECK(errorBand(0.15) == ErrorBand::Fair);
    LP_CHECK(errorBand(-0.25) == ErrorBand::Bad);
    LP_CHECK(errorBand(std::numeric_limits<double>::infinity()) == ErrorBand::Bad);
    ValidationRow row;
    row.predicted = 1.2;
    LP_CHECK(hasPrediction(row));
    row.predicted = 0; // the layout is invalid in the planner
    LP_CHECK(!hasPrediction(row));
}

LP_TEST(targets_differ_for_throughput_and_memory) {
    LP_CHECK_NEAR(errorTarget("throughput").median, 0.05, 1e-12);
    LP_CHECK_NEAR(errorTarget("iteration_time_s").max, 0.20, 1e-12);
    LP_CHECK_NEAR(errorTarget("peak_memory_gib").median, 0.10, 1e-12);
    LP_CHECK_NEAR(errorTarget("peak_memory_gib").max, 0.10, 1e-12);
    const std::string sentence = targetsSentence();
    LP_CHECK(contains(sentence, "median at most 5 % on throughput metrics, none worse than 20 %"));
    LP_CHECK(contains(sentence, "peak memory within 10 %"));
}

LP_TEST(summary_lists_throughput_first_then_the_metrics_in_order) {
    ValidationReport report;
    for (const char* m : {"peak_memory_gib", "joules_per_token", "mfu", "throughput", "iteration_time_s"})
        report.summary.push_back({m, 10, 0.055, 0.335});
    const auto ordered = orderedSummary(report);
    LP_CHECK_EQ(ordered.size(), report.summary.size());
    std::vector<std::string> metrics;
    for (const MetricSummary* s : ordered)
        metrics.push_back(s->metric);
    const std::vector<std::string> expected = {"throughput", "iteration_time_s", "mfu", "peak_memory_gib",
                                               "joules_per_token"};
    LP_CHECK(metrics == expected);
    LP_CHECK_EQ(summaryLine(report.summary[2]), std::string("mfu: median 5.5 %, max 33.5 %, 10 values"));
}

LP_TEST(the_group_furthest_off_has_enough_figures) {
    const std::vector<GroupSummary> groups = {group("h100-sxm-80gb", "megatron", 40, 0.04, 0.03),
                                              group("a100-sxm-80gb", "fsdp", 2, 0.50, -0.50), // too few
                                              group("a100-sxm-80gb", "megatron", 12, 0.09, -0.123)};
    LP_CHECK(furthestOffGroup(groups) == &groups[2]);
    LP_CHECK_EQ(groupsSummary(groups),
                std::string("3 groups; furthest off: a100-sxm-80gb megatron bf16, planned 12.3 % slow"));
    LP_CHECK_EQ(groupsSummary({groups[1]}), std::string("1 group"));
}

LP_TEST(planned_with_names_what_the_case_leaves_to_the_planner) {
    ValidationCase c;
    c.scenario.training.flashAttention = true;
    c.scenario.training.torchCompile = true;
    c.scenario.training.logitsMetricPasses = 2;
    c.architectureFrom = "llama3-8b";
    const std::vector<std::string> words = plannedWith(c);
    LP_CHECK(words.size() >= 4);
    LP_CHECK(contains(words[0], " style"));
    LP_CHECK_EQ(words[1],
                std::string("cuDNN fused attention (framework default)")); // the kernel Megatron runs
    LP_CHECK(std::find(words.begin(), words.end(), "torch.compile") != words.end());
    LP_CHECK(std::find(words.begin(), words.end(), "2 metric passes over the logits") != words.end());
    LP_CHECK_EQ(words.back(), std::string("the attention and norms of the built-in llama3-8b"));
}

LP_TEST(trust_sentence_quotes_the_group_of_the_scenario) {
    Scenario s; // an H100 in bf16
    const std::string style(toString(resolvedStyle(s.training)));
    const std::vector<GroupSummary> groups = {group("a100-sxm-80gb", style, 30, 0.2, 0.2),
                                              group(s.cluster.gpu.id, style, 1234, 0.042, -0.031)};
    LP_CHECK(validationGroupFor(s, groups) == &groups[1]);
    const std::string sentence = trustSentence(s, groups);
    LP_CHECK(
        contains(sentence, "On the 1,234 published throughput figures of runs on " + s.cluster.gpu.name));
    LP_CHECK(contains(sentence, "off by 4.2 % at the median and planned them 3.1 % slower than they ran"));

    std::vector<GroupSummary> few = groups;
    few[1].count = kMinGroupFigures - 1;
    LP_CHECK(contains(trustSentence(s, few), "No published run on " + s.cluster.gpu.name));
    s.training.precision = Precision::Fp8;
    LP_CHECK(validationGroupFor(s, groups) == nullptr);
}

LP_TEST(only_throughput_figures_carry_the_trust_sentence) {
    for (const char* key : {"mfu", "hfu", "mfu_6nd", "time.step", "tokens_per_s", "gpu_hours"})
        LP_CHECK(isThroughputFigure(key));
    for (const char* key : {"memory.total", "time.bubble", ""})
        LP_CHECK(!isThroughputFigure(key));
}

LP_TEST_MAIN()
