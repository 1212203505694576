// The held-out sets of published runs in tests/data/validation (docs/validation-*.md): nothing in the planner
// was set on them except where a comment says so; each test fails when a case is not a valid layout or the
// set's median throughput error rises above the bound its docs page states.
#include "TestHarness.h"
#include "core/estimate/Evaluate.h"
#include "core/measured/ValidationRun.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace lp::core;

namespace {
// A file of published runs: every case is a valid layout, the median throughput error stays within the
// documented bound and, where bounds are given, so do the share of figures beyond 20% and the median error of
// the peak-memory figures.
void checkHeldOutSet(const char* file, std::size_t minCases, double medianBound,
                     double beyond20ShareBound = 1.0, double memoryMedianBound = 1.0) {
    const auto cases = loadValidationCases(std::string(LP_TEST_DATA_DIR) + "/validation/" + file);
    LP_CHECK(cases.has_value());
    if (!cases)
        return;
    LP_CHECK(cases->size() >= minCases);
    for (const ValidationCase& c : *cases)
        LP_CHECK(evaluate(resolveCase(c, nullptr)).valid);
    const ValidationReport r = runValidation(*cases, nullptr);
    bool saw = false;
    for (const MetricSummary& m : r.summary) {
        if (m.metric == "peak_memory_gib") {
            std::printf("%s: peak memory n=%d median %.1f%% max %.1f%%\n", file, m.count,
                        100 * m.medianAbsError, 100 * m.maxAbsError);
            LP_CHECK(m.medianAbsError <= memoryMedianBound);
        }
        if (m.metric == "throughput") {
            saw = true;
            std::printf("%s: throughput n=%d median %.1f%% max %.1f%%\n", file, m.count,
                        100 * m.medianAbsError, 100 * m.maxAbsError);
            LP_CHECK(m.medianAbsError <= medianBound);
        }
    }
    LP_CHECK(saw);
    int beyond20 = 0, throughput = 0;
    for (const ValidationRow& row : r.rows)
        if (isThroughputMetric(row.metric)) {
            ++throughput;
            beyond20 += std::abs(row.relativeError) > 0.20 ? 1 : 0;
        }
    std::printf("%s: %d of %d throughput figures beyond 20%%\n", file, beyond20, throughput);
    LP_CHECK(beyond20 <= beyond20ShareBound * throughput);
}

// The cases of a held-out file on the given GPUs: at least `minCases` of them, their throughput median within
// `medianBound`.
void checkSubsetMedian(const char* file, const char* what, const std::vector<std::string>& gpus,
                       std::size_t minCases, double medianBound) {
    const auto cases = loadValidationCases(std::string(LP_TEST_DATA_DIR) + "/validation/" + file);
    LP_CHECK(cases.has_value());
    if (!cases)
        return;
    std::vector<ValidationCase> subset;
    for (const ValidationCase& c : *cases)
        if (std::find(gpus.begin(), gpus.end(), c.scenario.cluster.gpu.id) != gpus.end())
            subset.push_back(c);
    LP_CHECK(subset.size() >= minCases);
    for (const MetricSummary& m : runValidation(subset, nullptr).summary)
        if (m.metric == "throughput") {
            std::printf("%s, %s: throughput median %.1f%%\n", file, what, 100 * m.medianAbsError);
            LP_CHECK(m.medianAbsError <= medianBound);
        }
}
} // namespace

LP_TEST(runs_outside_the_reference_set_are_valid_layouts_and_predicted_within_8_percent) {
    // torchtitan's 70B/405B tables (uneven pipeline stages, FSDP under a pipeline, CP up to 256K),
    // Llama 3.1 8B on H200, NeMo's Llama 2 7B with CP up to 1M tokens on 1,024 H100, NVIDIA's Megatron-Core
    // tables on H100/GB200/GB300 (405B on PP 16 x VPP 8 among them: 128 chunks for 126 layers), Mixtral
    // 8x7B/8x22B with expert parallelism: nothing in the planner was set on them (docs/validation/more.md).
    // NeMo AutoModel's FSDP2 MoE rows (DeepEP, a benchmark gate) are the weak part (9 of their 18 figures
    // beyond 20%). Throughput median 7.4%, bound 8%. Their peak-memory figures (torchtitan's, with TP, PP, CP
    // and interleaving, the 2025 H200 runs' compiled loss) stay within a median of 7%.
    checkHeldOutSet("more-published-runs.json", 60, 0.08, 1.0, 0.07);
}

LP_TEST(llm_foundry_fsdp_runs_are_valid_layouts_and_predicted_within_10_percent) {
    // Every sequence-2048 row of llm-foundry's MPT tables (Composer + PyTorch FSDP, A100 40/80 GB and H100,
    // 125M-70B on 8-128 GPUs): nothing in the planner was set on them (docs/validation/llm-foundry.md).
    checkHeldOutSet("llm-foundry-runs.json", 70, 0.10);
}

LP_TEST(megatron_bridge_moe_runs_are_valid_layouts_and_the_nvl72_rows_predicted_within_12_percent) {
    // Every MoE row of Megatron-Bridge's 25.11 and 26.02.01 tables (DeepSeek-V3, GPT-OSS 120B, Qwen3 30B-A3B
    // and 235B-A22B): held out, and a known weak spot (docs/estimation.md, section 13): most DGX-B200 and
    // DGX-H100 rows run 1.2-3x slower than planned. Bounds that keep what holds: the whole set's median
    // within 25%, and the GB200/GB300 rows' within 12%, which needs the published models' attention (Qwen3's
    // 128-wide heads, DeepSeek-V3's MLA) that the case format cannot state and the reader takes from the
    // presets.
    checkHeldOutSet("megatron-bridge-moe-runs.json", 30, 0.25);
    checkSubsetMedian("megatron-bridge-moe-runs.json", "GB200/GB300 rows", {"gb200", "gb300"}, 18, 0.12);
}

LP_TEST(dgxc_benchmarking_nemo_runs_are_valid_layouts_and_the_h100_rows_predicted_within_6_percent) {
    // The NeMo step times in NVIDIA's dgxc-benchmarking recipes (2024-25: Llama 3.1 8B/70B/405B and its
    // reduced-layer proxies, Nemotron-4 15B/340B, GPT-3 175B, Grok-1, DeepSeek-V3, Llama 4 Maverick; bf16 and
    // fp8; 8-2,304 H100 and 128-512 GB200). Their H100 bf16 rows, with llm-foundry's and torchtitan's, set
    // the Hopper bf16 GEMM efficiency (docs/estimation.md, section 7); nothing else. H100 median 4.0%; the
    // GB200 rows, early Blackwell software (NeMo 25.04), run about a quarter slower than planned (section
    // 13).
    checkHeldOutSet("dgxc-benchmarking-runs.json", 250, 0.07);
    checkSubsetMedian("dgxc-benchmarking-runs.json", "H100 rows", {"h100-sxm-80gb"}, 200, 0.06);
}

LP_TEST(landmark_and_community_runs_are_valid_layouts_and_predicted_within_11_percent) {
    // Landmark runs and other frameworks' tables, held out (docs/validation/landmark.md): BLOOM-176B's
    // production run and layout benchmarks, MT-NLG 530B, Megatron-LM's GPT-3 example, Llama 3 405B on 8K/16K
    // H100, MLPerf v3.1 GPT-3 fp8, torchtitan on A100, MaxText (JAX) and FlagPerf on H100, and H200 runs
    // (MLPerf v5.0/v5.1 Llama 3.1 405B/8B, Google Cloud's A3 Ultra recipes). A known weak spot
    // (docs/estimation.md, section 13): the 2021-22 Megatron-DeepSpeed runs on A100 are 8-34% slower than
    // planned. Bounds that keep what holds: median 11% (9.7% now), the H100 rows' 15% (11.5% now: Llama 3
    // 405B and FlagPerf's Megatron-LM runs, which are not NVIDIA's recipes, planned without the recipes' TP
    // overlap, +8% to +16%; MaxText's Llama 2 7B rows, planned with the remat policy their scripts set,
    // minimal_flash, which re-runs no matmul, +2% on one node but +13% to +23% on 2-16, whose gradient
    // all-reduce across nodes runs slower than planned), the H200 rows' 7% (5.1% now).
    checkHeldOutSet("landmark-runs.json", 35, 0.11);
    checkSubsetMedian("landmark-runs.json", "H100 rows", {"h100-sxm-80gb"}, 10, 0.15);
    checkSubsetMedian("landmark-runs.json", "H200 rows", {"h200-sxm-141gb"}, 6, 0.07);
}

LP_TEST(pytorch_fsdp_trainer_runs_are_valid_layouts_and_predicted_within_9_percent) {
    // PyTorch FSDP trainers' published tables, held out (docs/validation/fsdp.md): OLMo-core on H100,
    // fms-fsdp on 96 H100 and 128 A100 (its blog states each cluster's network, which the reader takes from
    // the notes), torchtitan on A100 and with float8 on 512 H100, TinyLlama on A100 40 GB. A known weak spot
    // (section 13): OLMo-core's 13B and 32B rows, whose GPU count the README does not state, run 27-45%
    // slower than planned. Bounds: median 9% (6.0% now), the A100 rows' 7% (3.7% now).
    checkHeldOutSet("pytorch-fsdp-runs.json", 24, 0.09);
    checkSubsetMedian("pytorch-fsdp-runs.json", "A100 rows", {"a100-sxm-80gb", "a100-sxm-40gb"}, 6, 0.07);
}

LP_TEST(every_vtrain_megatron_deepspeed_run_is_a_valid_layout_and_predicted_within_6_percent) {
    // All 1,549 Megatron-DeepSpeed iterations published with vTrain (1,440 on one A100 node, 109 on 64-512
    // A100): the Megatron style's host-dispatch time and overlap exponent were estimated on the single-node
    // rows (docs/estimation.md, section 6), nothing else. Median 5.9%, 27 beyond 20%
    // (docs/validation/vtrain.md).
    checkHeldOutSet("vtrain-runs.json", 1549, 0.06, 0.06);
}

LP_TEST_MAIN()

LP_TEST(the_reference_runs_fit_their_gpus_and_an_overflowing_plan_is_reported) {
    // Every run ran, so every plan should fit its GPUs, within the memory model's 5%.
    const std::string reference = std::string(LP_TEST_DATA_DIR) + "/validation/reference-runs.json";
    if (std::filesystem::exists(reference)) {
        const auto cases = loadValidationCases(reference);
        LP_CHECK(cases.has_value());
        if (cases) {
            const ValidationReport r = runValidation(*cases, nullptr);
            LP_CHECK_EQ(r.plannedCases, static_cast<int>(cases->size()));
            LP_CHECK_EQ(beyondFitTolerance(r), 0);
            std::printf("reference set: %s\n", memoryFitSentence(r).c_str());
        }
    } else {
        std::printf("SKIP (reference set): %s not found\n", reference.c_str());
    }
    // A held-out run that fits, then on a GPU of a quarter the memory: reported, with its overflow.
    const auto held =
        loadValidationCases(std::string(LP_TEST_DATA_DIR) + "/validation/pytorch-fsdp-runs.json");
    LP_CHECK(held.has_value() && !held->empty());
    if (!held || held->empty())
        return;
    // One whose settings are all stated, so that no search picks others that fit the smaller GPU.
    const auto stated = std::find_if(held->begin(), held->end(), [](const ValidationCase& c) {
        return c.microBatchGiven && c.recomputeGiven && c.vppGiven;
    });
    LP_CHECK(stated != held->end());
    if (stated == held->end())
        return;
    std::vector<ValidationCase> small{*stated};
    LP_CHECK(runValidation(small, nullptr).overCapacity.empty());
    small.front().scenario.cluster.gpu.hbmBytes /= 4;
    const ValidationReport s = runValidation(small, nullptr);
    LP_CHECK_EQ(s.plannedCases, 1);
    LP_CHECK_EQ(s.overCapacity.size(), 1u);
    if (s.overCapacity.empty())
        return;
    LP_CHECK_EQ(s.overCapacity.front().caseId, small.front().id);
    const Plan p = evaluate(resolveCase(small.front(), nullptr));
    LP_CHECK_NEAR(s.overCapacity.front().usedFraction,
                  p.memory.stages[static_cast<std::size_t>(p.memory.worstStage)].totalBytes /
                      p.memory.capacityBytes,
                  1e-12);
    LP_CHECK(s.overCapacity.front().usedFraction > 1.05);
    LP_CHECK_EQ(beyondFitTolerance(s), 1);
    LP_CHECK(memoryFitSentence(s) ==
             "1 of 1 runs, which ran, plan over their GPUs' memory; 1 by more than the memory "
             "model's 5%.");
}
