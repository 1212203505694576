// The band a plan's step time, MFU and tokens/s carry (core/measured/TrustBand.h): the generation of a GPU,
// which validated runs count as comparable, the percentile band and its wording, and the validation folder
// the command line finds (core/measured/ValidationFolder.h).
#include "TestHarness.h"
#include "core/estimate/Evaluate.h"
#include "core/io/Presets.h"
#include "core/measured/TrustBand.h"
#include "core/measured/ValidationFolder.h"
#include "core/report/Report.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

using namespace lp::core;

namespace {

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

// `n` figures like the default scenario (an H100 in bf16, 64 GPUs) with speed errors 0.00, 0.01, ...
std::vector<ComparableFigure> figuresLike(const Scenario& s, int n, long long gpus) {
    std::vector<ComparableFigure> out;
    for (int i = 0; i < n; ++i)
        out.push_back({"run" + std::to_string(i / 2), "Hopper",
                       std::string(toString(resolvedStyle(s.training))),
                       std::string(toString(s.training.precision)), gpus, 0.01 * i});
    return out;
}

ValidationRow row(const char* caseId, const char* metric, double measured, double predicted) {
    ValidationRow r;
    r.caseId = caseId;
    r.metric = metric;
    r.measured = measured;
    r.predicted = predicted;
    r.relativeError = (predicted - measured) / measured;
    return r;
}

bool near(double a, double b) {
    return std::fabs(a - b) <= 1e-9 * std::max(1.0, std::fabs(b));
}

} // namespace

LP_TEST(gpu_generation_comes_from_the_family_of_the_preset) {
    const auto generationOf = [](const char* id) { return gpuGeneration(findGpuPreset(id)->gpu); };
    LP_CHECK_EQ(generationOf("a100-sxm-40gb"), std::string("Ampere"));
    LP_CHECK_EQ(generationOf("a100-sxm-80gb"), std::string("Ampere"));
    LP_CHECK_EQ(generationOf("h100-sxm-80gb"), std::string("Hopper"));
    LP_CHECK_EQ(generationOf("h800-sxm-80gb"), std::string("Hopper"));
    LP_CHECK_EQ(generationOf("h200-sxm-141gb"), std::string("Hopper"));
    LP_CHECK_EQ(generationOf("b200"), std::string("Blackwell"));
    LP_CHECK_EQ(generationOf("gb200"), std::string("Blackwell"));
    LP_CHECK_EQ(generationOf("gb300"), std::string("Blackwell"));
    LP_CHECK_EQ(generationOf("mi300x"), std::string("CDNA 3"));
    LP_CHECK_EQ(generationOf("l40s"), std::string("Ada"));
    GpuSpec custom;
    custom.id = "my-gpu";
    custom.name = "Tesla V100 SXM2";
    LP_CHECK_EQ(gpuGeneration(custom), std::string("my-gpu")); // "Tesla" is no family: the id itself
    custom.name = "NVIDIA V100 SXM2 32 GB";
    LP_CHECK_EQ(gpuGeneration(custom), std::string("Volta")); // the short name's family
    for (const GpuPreset& preset : gpuPresets())              // every preset has a known generation
        LP_CHECK(gpuGeneration(preset.gpu) != preset.gpu.id);
}

LP_TEST(percentile_interpolates_between_order_statistics) {
    LP_CHECK_EQ(percentileOf({}, 0.5), 0.0);
    LP_CHECK(near(percentileOf({3, 1, 2}, 0.5), 2));
    LP_CHECK(near(percentileOf({0, 10}, 0.1), 1));
    LP_CHECK(near(percentileOf({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, 0.9), 9));
    LP_CHECK(near(percentileOf({5}, 0.9), 5));
}

LP_TEST(band_is_the_10th_to_90th_percentile_of_comparable_errors) {
    const Scenario s = defaultScenario(); // 64 H100 in bf16
    const Plan plan = evaluate(s);
    const std::vector<ComparableFigure> figures = figuresLike(s, 11, s.cluster.gpus()); // errors 0..0.10
    const TrustBand band = trustBand(s, plan, figures);
    LP_CHECK(band.available);
    LP_CHECK_EQ(band.figures, 11);
    LP_CHECK_EQ(band.caseIds.size(), std::size_t{6}); // two figures per run
    LP_CHECK(!band.scaleRelaxed);
    LP_CHECK(near(band.stepLow, plan.time.stepSeconds * 1.01));
    LP_CHECK(near(band.stepHigh, plan.time.stepSeconds * 1.09));
    LP_CHECK(near(band.mfuLow, plan.mfu / 1.09));
    LP_CHECK(near(band.mfuHigh, plan.mfu / 1.01));
    LP_CHECK(near(band.tokensLow, plan.tokensPerSecond / 1.09));
    LP_CHECK(near(band.tokensHigh, plan.tokensPerSecond / 1.01));
    LP_CHECK(contains(band.sentence, "Measured runs like this one ran between "));
    LP_CHECK(contains(band.sentence, "(11 figures of 6 runs: Hopper, " +
                                         std::string(toString(resolvedStyle(s.training))) +
                                         " style, bf16, dense, 64 GPUs"));
    LP_CHECK(contains(band.sentence, "10th to 90th percentile"));
    LP_CHECK(!stepBandText(band).empty());
    LP_CHECK(contains(mfuBandText(band), " %"));
    LP_CHECK(tokensBandText(band).ends_with(" k")); // about 50,000 tokens/s
}

LP_TEST(comparable_runs_share_generation_style_precision_model_kind_and_scale) {
    const Scenario s = defaultScenario(); // 64 GPUs
    const Plan plan = evaluate(s);
    std::vector<ComparableFigure> figures = figuresLike(s, 5, 64);
    figures[0].generation = "Ampere";
    figures[1].precision = "fp8";
    figures[2].style = "some-other-style";
    figures[3].moe = true; // a mixture of experts is not a dense model's kind of run
    LP_CHECK(!trustBand(s, plan, figures).available);
    figures = figuresLike(s, 6, 64);
    figures[5].moe = true;
    LP_CHECK_EQ(trustBand(s, plan, figures).figures, 5);
    LP_CHECK(contains(trustBand(s, plan, figures).sentence, "bf16, dense"));
    // 8x either way is the same scale; beyond it, taken only when too few are within it, and said so.
    std::vector<ComparableFigure> scaled = figuresLike(s, 5, 8);
    scaled[4].gpus = 512;
    const TrustBand within = trustBand(s, plan, scaled);
    LP_CHECK(within.available && !within.scaleRelaxed);
    LP_CHECK(contains(within.sentence, "8-512 GPUs"));
    scaled[0].gpus = 4;
    const TrustBand relaxed = trustBand(s, plan, scaled);
    LP_CHECK(relaxed.available && relaxed.scaleRelaxed);
    LP_CHECK(contains(relaxed.sentence,
                      "every GPU count taken: fewer than 5 figures within 8x of this plan's 64"));
    std::vector<ComparableFigure> more = figuresLike(s, 6, 64);
    more[0].gpus = 4; // five within 8x: the far one is left out
    const TrustBand left = trustBand(s, plan, more);
    LP_CHECK(!left.scaleRelaxed);
    LP_CHECK_EQ(left.figures, 5);
}

// The report's JSON carries the band under the keys evaluate --json uses, and nothing when no band was set.
LP_TEST(report_json_carries_the_band_as_evaluate_json_does) {
    const Scenario s = defaultScenario();
    const Plan plan = evaluate(s);
    ReportInput report = makeReport(s, builtinProfile(s.cluster.gpu), plan);
    LP_CHECK(!nlohmann::json::parse(reportToJson(report))["plan"].contains("trust"));
    const TrustBand band = trustBand(s, plan, figuresLike(s, 11, 64));
    report.trust = reportTrust(band);
    const nlohmann::json j = nlohmann::json::parse(reportToJson(report))["plan"];
    LP_CHECK(near(j["time"]["step_s_band"]["low"].get<double>(), band.stepLow));
    LP_CHECK(near(j["time"]["step_s_band"]["high"].get<double>(), band.stepHigh));
    LP_CHECK(near(j["mfu_band"]["low"].get<double>(), band.mfuLow));
    LP_CHECK(near(j["tokens_per_s_band"]["high"].get<double>(), band.tokensHigh));
    LP_CHECK_EQ(j["trust"]["figures"].get<int>(), 11);
    LP_CHECK_EQ(j["trust"]["runs"].size(), std::size_t{6});
    LP_CHECK(j["trust"]["sentence"].get<std::string>() == band.sentence);
    report.trust = reportTrust(trustBand(s, plan, {}));
    const nlohmann::json none = nlohmann::json::parse(reportToJson(report))["plan"];
    LP_CHECK(none["mfu_band"].is_null() && !none["trust"]["available"].get<bool>());
}

LP_TEST(no_comparable_runs_says_so_instead_of_a_band) {
    Scenario s = defaultScenario();
    s.cluster.gpu = findGpuPreset("mi300x")->gpu;
    s.training.precision = Precision::Fp8;
    const TrustBand band = trustBand(s, evaluate(s), figuresLike(defaultScenario(), 20, 64));
    LP_CHECK(!band.available);
    LP_CHECK_EQ(band.figures, 0);
    LP_CHECK(band.caseIds.empty());
    LP_CHECK(contains(band.sentence,
                      "No comparable published runs: 0 throughput figures of runs like this one "
                      "(CDNA 3, "));
    LP_CHECK(contains(band.sentence, "fewer than the 5 a band needs"));
    LP_CHECK(stepBandText(band).empty() && mfuBandText(band).empty());
}

LP_TEST(comparable_figures_follow_the_rows_of_each_case) {
    std::vector<ValidationCase> cases(2);
    cases[0].id = "a";
    cases[0].measured = {{"mfu", 0.4}, {"peak_memory_gib", 60}};
    cases[1].id = "b";
    cases[1].scenario.cluster.gpu = findGpuPreset("a100-sxm-80gb")->gpu;
    cases[1].measured = {{"iteration_time_s", 2.0}, {"mfu", 0.5}};
    ValidationReport report;
    report.rows = {row("a", "mfu", 0.4, 0.44), row("a", "peak_memory_gib", 60, 66),
                   row("b", "iteration_time_s", 2.0, 1.6), row("b", "mfu", 0.5, 0)};
    report.rows[3].invalidReason = "layers_not_divisible_by_pp";
    const std::vector<ComparableFigure> figures = comparableFigures(cases, report);
    LP_CHECK_EQ(figures.size(), std::size_t{2}); // no memory figure, no figure without a plan
    LP_CHECK_EQ(figures[0].caseId, std::string("a"));
    LP_CHECK_EQ(figures[0].generation, std::string("Hopper"));
    LP_CHECK(near(figures[0].speedError, 0.1));
    LP_CHECK_EQ(figures[1].generation, std::string("Ampere"));
    LP_CHECK(near(figures[1].speedError, 0.25)); // a time: measured / planned - 1
    LP_CHECK_EQ(figures[1].gpus, cases[1].scenario.cluster.gpus());
}

LP_TEST(validation_folder_is_found_from_the_environment_and_lists_its_sets) {
    const std::string data = std::string(LP_TEST_DATA_DIR) + "/validation";
    setenv("LP_VALIDATION_DIR", data.c_str(), 1);
    const auto folder = findValidationFolder({});
    LP_CHECK(folder.has_value() && folder->string() == data);
    const std::vector<std::string> files = validationSetFiles(data);
    LP_CHECK(files.size() >= 8);
    for (const std::string& f : files)
        LP_CHECK(f.ends_with(".json"));
    unsetenv("LP_VALIDATION_DIR");
    LP_CHECK(!validationSetFiles(data + "/no-such-folder").size());
}

LP_TEST(the_bundled_sets_give_the_default_scenario_a_band) {
    const TrustData data =
        validateForTrust({std::string(LP_TEST_DATA_DIR) + "/validation/reference-runs.json",
                          std::string(LP_TEST_DATA_DIR) + "/validation/dgxc-benchmarking-runs.json"});
    LP_CHECK(!data.groups.empty());
    LP_CHECK(data.figures.size() > 100);
    const Scenario s = defaultScenario();
    const Plan plan = evaluate(s);
    const TrustBand band = trustBand(s, plan, data.figures);
    LP_CHECK(band.available);
    LP_CHECK(band.stepLow <= band.stepHigh && band.mfuLow <= band.mfuHigh);
}

LP_TEST(reports_show_the_band_beside_step_time_and_mfu) {
    const Scenario s = defaultScenario();
    ReportInput report = makeReport(s);
    const std::string before = renderReport(report, ReportFormat::Markdown);
    LP_CHECK(!contains(before, "of runs like it"));
    const TrustBand band = trustBand(s, report.plan, figuresLike(s, 11, 64));
    report.trust = reportTrust(band);
    for (const ReportFormat f : {ReportFormat::Markdown, ReportFormat::Html}) {
        const std::string text = renderReport(report, f);
        LP_CHECK(contains(text, "Step time of runs like it"));
        LP_CHECK(contains(text, stepBandText(band)));
        LP_CHECK(contains(text, "MFU of runs like it"));
        LP_CHECK(contains(text, mfuBandText(band)));
        LP_CHECK(contains(text, "How far to trust it"));
    }
}

LP_TEST_MAIN()
