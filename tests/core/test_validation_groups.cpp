// The validation summary by GPU, framework style and precision (docs/validation*.md, "By GPU, framework style
// and precision"; `validate` prints it): every throughput figure lands in the group of the run as planned,
// the groups' errors are those of their rows, and "planned speed" points the same way for times and rates.
#include "TestHarness.h"
#include "core/measured/ValidationDoc.h"
#include "core/measured/ValidationRun.h"
#include "core/util/NumberFormat.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <tuple>
#include <vector>

using namespace lp::core;

namespace {

double medianOf(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// One small dense run written out in the validation-cases format.
std::string caseJson(const std::string& id, const std::string& gpu, int zero, const std::string& precision,
                     const std::string& measured) {
    return R"({"id": ")" + id + R"(", "source": "test", "confidence": "high", "notes": "",
        "model": {"name": "m", "layers": 8, "hidden": 2048, "heads": 16, "kv_heads": 16, "ffn_hidden": 8192,
                  "vocab": 32000, "seq_len": 2048, "mlp": "gelu", "tied_embeddings": true, "moe": null},
        "hardware": {"gpu": ")" +
           gpu + R"(", "gpus": 8, "gpus_per_node": 8},
        "layout": {"tp": 1, "pp": 1, "dp": 8, "cp": 1, "ep": 1, "vpp": 1, "micro_batch": 2, "global_batch": 64,
                   "sequence_parallel": false, "recompute": "none", "zero_stage": )" +
           std::to_string(zero) + R"(, "precision": ")" + precision + R"("},
        "measured": {)" +
           measured + "}}";
}

} // namespace

LP_TEST(speed_error_points_the_same_way_for_times_and_rates) {
    ValidationRow time;
    time.metric = "iteration_time_s";
    time.measured = 2.0;
    time.predicted = 1.0; // planned twice as fast as it went
    time.relativeError = (time.predicted - time.measured) / time.measured;
    LP_CHECK_NEAR(speedError(time), 1.0, 1e-12);
    ValidationRow rate;
    rate.metric = "tokens_per_s_per_gpu";
    rate.measured = 100.0;
    rate.predicted = 110.0;
    rate.relativeError = 0.1;
    LP_CHECK_NEAR(speedError(rate), 0.1, 1e-12);
    ValidationRow none = time; // an invalid layout has no prediction: as far off as can be
    none.predicted = 0;
    LP_CHECK(speedError(none) < 0);
}

LP_TEST(groups_follow_the_gpu_the_planned_style_and_the_precision) {
    const std::string text =
        R"({"schema": "layout-planner/validation-cases@1", "cases": [)" +
        caseJson("a100_megatron_a", "a100-sxm-80gb", 1, "bf16",
                 R"("iteration_time_s": 0.5, "peak_memory_gib": 30)") +
        "," + caseJson("a100_megatron_b", "a100-sxm-80gb", 1, "bf16", R"("tokens_per_s_per_gpu": 9000)") +
        "," + caseJson("h100_fsdp", "h100-sxm-80gb", 3, "bf16", R"("mfu": 0.4)") + "," +
        caseJson("h100_fsdp_fp8", "h100-sxm-80gb", 3, "fp8", R"("mfu": 0.3)") + "]}";
    const auto cases = validationCasesFromJson(text);
    LP_CHECK(cases.has_value());
    if (!cases)
        return;
    const ValidationReport r = runValidation(*cases, nullptr);
    LP_CHECK_EQ(r.groups.size(), std::size_t{3});
    std::map<std::tuple<std::string, std::string, std::string>, const GroupSummary*> byKey;
    for (const GroupSummary& g : r.groups)
        byKey[{g.gpu, g.style, g.precision}] = &g;
    const GroupSummary* a100 = byKey[{"a100-sxm-80gb", "megatron", "bf16"}];
    const GroupSummary* h100 = byKey[{"h100-sxm-80gb", "fsdp", "bf16"}];
    const GroupSummary* fp8 = byKey[{"h100-sxm-80gb", "fsdp", "fp8"}];
    LP_CHECK(a100 && h100 && fp8);
    if (!a100 || !h100 || !fp8)
        return;
    LP_CHECK_EQ(a100->count, 2);            // the peak-memory figure is not a throughput figure
    LP_CHECK_EQ(r.groups.front().count, 2); // largest group first
    // The A100 group's numbers are its two rows'.
    std::vector<double> abs, speed;
    for (const ValidationRow& row : r.rows)
        if (row.caseId.rfind("a100", 0) == 0 && isThroughputMetric(row.metric)) {
            abs.push_back(std::fabs(row.relativeError));
            speed.push_back(speedError(row));
        }
    LP_CHECK_NEAR(a100->medianAbsError, medianOf(abs), 1e-12);
    LP_CHECK_NEAR(a100->medianSpeedError, medianOf(speed), 1e-12);
    LP_CHECK_EQ(a100->beyond20,
                static_cast<int>(std::count_if(abs.begin(), abs.end(), [](double e) { return e > 0.2; })));
}

LP_TEST(a_set_of_published_runs_is_split_without_losing_a_figure) {
    const auto cases =
        loadValidationCases(std::string(LP_TEST_DATA_DIR) + "/validation/pytorch-fsdp-runs.json");
    LP_CHECK(cases.has_value());
    if (!cases)
        return;
    const ValidationReport r = runValidation(*cases, nullptr);
    int inGroups = 0, beyond = 0;
    for (const GroupSummary& g : r.groups) {
        inGroups += g.count;
        beyond += g.beyond20;
        LP_CHECK(g.medianAbsError >= 0 && g.medianAbsError < 1.0);
    }
    int throughput = 0, rowsBeyond = 0;
    for (const ValidationRow& row : r.rows)
        if (isThroughputMetric(row.metric)) {
            ++throughput;
            rowsBeyond += std::fabs(row.relativeError) > 0.2 ? 1 : 0;
        }
    LP_CHECK_EQ(inGroups, throughput);
    LP_CHECK_EQ(beyond, rowsBeyond);
    // The Markdown page lists every group.
    const std::string md = validationMarkdown(*cases, r, "cases.json", "docs/validation/more.md",
                                              "docs/validation/images/more.svg", {});
    LP_CHECK(md.find("## By GPU, framework style and precision") != std::string::npos);
    // The page says how it was made, and links its plot relative to its own folder.
    LP_CHECK(md.find("`layout-planner-cli validate cases.json --markdown docs/validation/more.md --plot "
                     "docs/validation/images/more.svg`") != std::string::npos);
    LP_CHECK(md.find("![Predicted against measured](images/more.svg)") != std::string::npos);
    for (const GroupSummary& g : r.groups)
        LP_CHECK(md.find("| " + g.gpu + " | " + g.style + " | " + g.precision + " | " +
                         std::to_string(g.count) + " |") != std::string::npos);
    // Tokens per second read as whole numbers with separators, never in scientific notation.
    LP_CHECK(md.find("e+0") == std::string::npos);
    for (const ValidationRow& row : r.rows)
        if (row.metric == "tokens_per_s_per_gpu" && row.measured >= 1000)
            LP_CHECK(md.find(" | " + fmt::fixed(row.measured, 0) + " | ") != std::string::npos);
}

LP_TEST(table_figures_keep_four_digits_and_group_the_thousands) {
    LP_CHECK_EQ(fmt::figure(0.41234), std::string("0.4123"));
    LP_CHECK_EQ(fmt::figure(137.52), std::string("137.5"));
    LP_CHECK_EQ(fmt::figure(7352.4), std::string("7,352"));
    LP_CHECK_EQ(fmt::figure(18347.0), std::string("18,347"));
    LP_CHECK_EQ(fmt::figure(-18347.0), std::string("-18,347"));
    LP_CHECK_EQ(fmt::figure(2.5e18), std::string("2.5e+18")); // beyond what separators make readable
    LP_CHECK_EQ(fmt::figure(std::nan("")), std::string("n/a"));
}

LP_TEST_MAIN()
