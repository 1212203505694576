// Predictions against the published measured runs of the reference set (docs/validation/reference.md).
// The bounds are the documented ones: median absolute error of the throughput metrics at most 5%
// (15% was the first target), no throughput figure beyond 20%, and every peak-memory figure within 10%.
#include "TestHarness.h"
#include "ValidationCaseFixtures.h"
#include "core/estimate/Evaluate.h"
#include "core/measured/ValidationRun.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

using namespace lp::core;
using namespace lp::core::fixtures;

namespace {
// The reference set as the repository keeps it, converted to @2 (tools/validation-convert).
const std::string kCases = std::string(LP_TEST_DATA_DIR) + "/validation/reference-runs.json";
constexpr double kThroughputMedianBound = 0.05;
constexpr double kMemoryMaxBound = 0.10;
constexpr int kThroughputBeyond20Bound = 0;
} // namespace

LP_TEST(published_runs_load) {
    if (!std::filesystem::exists(kCases)) {
        std::printf("SKIP: %s not found\n", kCases.c_str());
        return;
    }
    const auto cases = loadValidationCases(kCases);
    LP_CHECK(cases.has_value());
    if (!cases)
        return;
    LP_CHECK(cases->size() >= 79);
    for (const ValidationCase& c : *cases) {
        LP_CHECK(!c.measured.empty());
        const Scenario s = resolveCase(c, nullptr);
        LP_CHECK_EQ(s.layout.effectiveBatch(), c.globalBatch);
        LP_CHECK_EQ(s.layout.gpus(), s.cluster.gpus());
    }
}

namespace {
TrainingOptions optionsOf(const std::string& json) {
    const auto r = validationCasesFromJson(json);
    LP_CHECK(r.has_value() && r->size() == 1);
    return r && !r->empty() ? r->front().scenario.training : TrainingOptions{};
}

} // namespace

LP_TEST(published_runs_are_predicted_within_the_documented_bounds) {
    if (!std::filesystem::exists(kCases))
        return;
    const auto cases = loadValidationCases(kCases);
    if (!cases)
        return;
    const ValidationReport r = runValidation(*cases, nullptr);
    bool sawThroughput = false, sawMemory = false;
    for (const MetricSummary& m : r.summary) {
        std::printf("%-24s n=%3d median %5.1f%% max %5.1f%%\n", m.metric.c_str(), m.count,
                    100 * m.medianAbsError, 100 * m.maxAbsError);
        if (m.metric == "throughput") {
            sawThroughput = true;
            LP_CHECK(m.medianAbsError <= 0.15);                   // the first target
            LP_CHECK(m.medianAbsError <= kThroughputMedianBound); // docs/validation/reference.md
        }
        if (m.metric == "peak_memory_gib") {
            sawMemory = true;
            LP_CHECK(m.maxAbsError <= kMemoryMaxBound);
        }
    }
    LP_CHECK(sawThroughput && sawMemory);
    int beyond20 = 0;
    for (const ValidationRow& row : r.rows) {
        LP_CHECK(row.predicted > 0); // every case is a valid layout that the planner evaluates
        if (isThroughputMetric(row.metric) && std::abs(row.relativeError) > 0.20)
            ++beyond20;
    }
    std::printf("throughput figures beyond 20%%: %d\n", beyond20);
    LP_CHECK(beyond20 <= kThroughputBeyond20Bound);
}

LP_TEST(bad_case_files_name_the_field) {
    auto r = validationCasesFromJson(R"({"schema": "layout-planner/validation-cases@1", "cases": [{"id": "x",
        "model": {"name": "m", "layers": 0, "hidden": 64, "heads": 4, "kv_heads": 4, "ffn_hidden": 256, "vocab": 100,
                  "seq_len": 128, "mlp": "gelu", "tied_embeddings": true},
        "hardware": {"gpu": "no-such-gpu", "gpus": 8, "gpus_per_node": 8},
        "layout": {"tp": 1, "pp": 1, "dp": 8, "micro_batch": 1, "global_batch": 8, "recompute": "full",
                   "zero_stage": 0, "precision": "fp16"},
        "measured": {"iteration_time_s": 1.0}}]})");
    LP_CHECK(!r.has_value());
    if (r.has_value())
        return;
    bool layers = false, gpu = false;
    for (const InputError& e : r.error()) {
        layers |= e.path == "$.cases[0].model.layers";
        gpu |= e.path == "$.cases[0].hardware.gpu";
    }
    LP_CHECK(layers && gpu);
    LP_CHECK(!validationCasesFromJson("{").has_value());
    LP_CHECK(!validationCasesFromJson(R"({"schema": "other"})").has_value());
}

LP_TEST(a_case_that_does_not_split_evenly_is_planned_and_says_what_changed) {
    // 8 replicas of micro batch 1 cannot share 12 sequences: 2 micro batches each (the nearest), with a note.
    std::string json = overlapCase("h100-sxm-80gb", 1, 1, 1, 8, 1, false);
    const std::string batch = R"("global_batch": 64)";
    LP_CHECK(json.find(batch) != std::string::npos);
    json.replace(json.find(batch), batch.size(), R"("global_batch": 12)");
    auto r = validationCasesFromJson(json);
    LP_CHECK(r.has_value() && r->size() == 1);
    if (!r || r->empty())
        return;
    LP_CHECK_EQ(r->front().scenario.layout.accumulation, 2);
    LP_CHECK_EQ(r->front().adjustments.size(), 1u);
    LP_CHECK(r->front().adjustments.front().find("global_batch 12") != std::string::npos);
    const ValidationReport report = runValidation(*r, nullptr);
    LP_CHECK(!report.rows.empty() && report.rows.front().predicted > 0);
    LP_CHECK(!report.rows.empty() && report.rows.front().adjustments == r->front().adjustments);

    // 12 GPUs of 8-GPU nodes (TP 4 x DP 3): nodes of 4, so each TP group stays on one node's NVLink.
    json = overlapCase("h100-sxm-80gb", 4, 1, 1, 3, 1, false);
    r = validationCasesFromJson(json);
    LP_CHECK(r.has_value() && r->size() == 1);
    if (!r || r->empty())
        return;
    const ClusterSpec& c = r->front().scenario.cluster;
    LP_CHECK_EQ(c.gpus(), 12);
    LP_CHECK_EQ(c.gpusPerNode, 4);
    LP_CHECK_EQ(r->front().adjustments.size(), 1u);
    LP_CHECK(runValidation(*r, nullptr).rows.front().predicted > 0);

    // DP written as the FSDP degree over DP x CP (8 on 8 GPUs with CP 2): DP 4, the degree the GPUs leave.
    json = overlapCase("h100-sxm-80gb", 1, 1, 1, 8, 3, false);
    const std::string layout = R"("dp": 8,)";
    LP_CHECK(json.find(layout) != std::string::npos);
    json.replace(json.find(layout), layout.size(), R"("dp": 8, "cp": 2,)");
    r = validationCasesFromJson(json);
    LP_CHECK(r.has_value() && r->size() == 1);
    if (!r || r->empty())
        return;
    LP_CHECK_EQ(r->front().scenario.layout.dp, 4);
    LP_CHECK_EQ(r->front().scenario.layout.cp, 2);
    LP_CHECK(!r->front().adjustments.empty() &&
             r->front().adjustments.front().find("planned with dp 4 instead of 8") != std::string::npos);
    LP_CHECK(runValidation(*r, nullptr).rows.front().invalidReason.empty());
    // 3 x 8 GPUs cannot hold TP 16: left as written, and the planner rejects the layout.
    json = overlapCase("h100-sxm-80gb", 16, 1, 1, 1, 1, false);
    const std::string gpus = R"("gpus": 16)";
    LP_CHECK(json.find(gpus) != std::string::npos);
    json.replace(json.find(gpus), gpus.size(), R"("gpus": 24)");
    r = validationCasesFromJson(json);
    LP_CHECK(r.has_value() && r->size() == 1);
    if (r && !r->empty()) {
        LP_CHECK(r->front().adjustments.empty() && r->front().scenario.layout.dp == 1);
        LP_CHECK(!runValidation(*r, nullptr).rows.front().invalidReason.empty());
    }

    // 4 GPUs of one 8-GPU node is a normal case: nothing adjusted.
    r = validationCasesFromJson(overlapCase("h100-sxm-80gb", 4, 1, 1, 1, 1, false));
    LP_CHECK(r.has_value() && r->size() == 1 && r->front().adjustments.empty());
}

LP_TEST(the_reader_takes_what_scripts_write_and_fills_what_the_format_leaves_open) {
    const std::string base = overlapCase("h100-sxm-80gb", 2, 1, 1, 4, 1, false);
    // 64.0 sequences (a division in a script) is 64; 64.5 is not a count.
    auto r = validationCasesFromJson(replaced(base, R"("global_batch": 32)", R"("global_batch": 64.0)"));
    LP_CHECK(r.has_value() && r->size() == 1 && r->front().globalBatch == 64);
    r = validationCasesFromJson(replaced(base, R"("global_batch": 32)", R"("global_batch": 64.5)"));
    LP_CHECK(!r.has_value());
    if (!r.has_value())
        LP_CHECK(r.error().front().path == "$.cases[0].layout.global_batch");
    // A model without a name takes the case's id.
    r = validationCasesFromJson(replaced(base, R"("name": "m", )", ""));
    LP_CHECK(r.has_value() && r->size() == 1 && r->front().scenario.model.name == "x");
    // kv_heads null: multi-head attention.
    r = validationCasesFromJson(replaced(base, R"("kv_heads": 8)", R"("kv_heads": null)"));
    LP_CHECK(r.has_value() && r->size() == 1 && r->front().scenario.model.kvHeads == 32);
    // An MoE block that names only the experts and top-k: experts as wide as the dense MLP, in every layer.
    r = validationCasesFromJson(replaced(base, R"("tied_embeddings": false)",
                                         R"("tied_embeddings": false, "moe": {"experts": 8, "top_k": 2})"));
    LP_CHECK(r.has_value() && r->size() == 1);
    if (r && !r->empty()) {
        const ModelSpec& m = r->front().scenario.model;
        LP_CHECK_EQ(m.moe.expertFfnHidden, m.ffnHidden);
        LP_CHECK_EQ(m.moeLayerCount(), m.layers);
        LP_CHECK_EQ(m.moe.sharedExperts, 0);
    }
}

LP_TEST(what_a_case_leaves_open_is_filled_as_the_run_most_likely_had_it_and_said) {
    // The format writes null (or leaves the key out) for "not stated": each such field gets the documented
    // default (docs/formats.md), and the case's rows say which.
    auto only = [](const std::string& json) {
        const auto r = validationCasesFromJson(json);
        LP_CHECK(r.has_value() && r->size() == 1);
        return r && !r->empty() ? r->front() : ValidationCase{};
    };
    auto says = [](const ValidationCase& c, const std::string& what) {
        for (const std::string& a : c.adjustments)
            if (a.find(what) != std::string::npos)
                return true;
        return false;
    };
    const std::string base = overlapCase("h100-sxm-80gb", 2, 1, 1, 4, 1, true);
    LP_CHECK(only(base).adjustments.empty() && only(base).recomputeGiven);

    // Layout: TP/PP 1 and the DP the GPUs leave; global batch one micro batch per replica (4 x PP with PP).
    ValidationCase c =
        only(replaced(replaced(replaced(base, R"("tp": 2)", R"("tp": null)"), R"("dp": 4, )", ""),
                      R"("global_batch": 32)", R"("global_batch": null)"));
    LP_CHECK_EQ(c.scenario.layout.tp, 1);
    LP_CHECK_EQ(c.scenario.layout.dp, 8);
    LP_CHECK_EQ(c.globalBatch, 8LL);
    LP_CHECK(says(c, "tp not stated") && says(c, "dp not stated") && says(c, "global_batch not stated"));
    c = only(replaced(overlapCase("h100-sxm-80gb", 1, 4, 1, 2, 1, false), R"("global_batch": 16)",
                      R"("global_batch": null)"));
    LP_CHECK_EQ(c.scenario.layout.accumulation, 16);

    // Sequence parallel with TP on Hopper (and not on A100 under Megatron); precision bf16.
    c = only(replaced(replaced(base, R"("sequence_parallel": true)", R"("sequence_parallel": null)"),
                      R"("precision": "bf16")", R"("precision": null)"));
    LP_CHECK(c.scenario.training.sequenceParallel && c.scenario.training.precision == Precision::Bf16);
    LP_CHECK(says(c, "sequence_parallel not stated: on") && says(c, "precision not stated"));
    c = only(replaced(overlapCase("a100-sxm-80gb", 2, 1, 1, 4, 1, true), R"("sequence_parallel": true)",
                      R"("sequence_parallel": null)"));
    LP_CHECK(!c.scenario.training.sequenceParallel);

    // ZeRO: the distributed optimizer (1) with DP, whatever trainer the source names (a case states what it
    // ran: "zero_stage" and "execution_style").
    const std::string noZero = replaced(base, R"("zero_stage": 1)", R"("zero_stage": null)");
    LP_CHECK_EQ(only(noZero).scenario.training.zeroStage, 1);
    c = only(replaced(noZero, R"("id": "x",)", R"("id": "x", "source": "pytorch/torchtitan benchmarks",)"));
    LP_CHECK_EQ(c.scenario.training.zeroStage, 1);
    LP_CHECK(c.scenario.training.executionStyle == ExecutionStyle::Auto && says(c, "zero_stage not stated"));

    // Recompute: the fastest that fits, chosen when the case is planned. At 4K tokens nothing is needed; at
    // 32K the activations of the 8B-class model do not fit TP 2 without it.
    c = only(replaced(base, R"("recompute": "none")", R"("recompute": null)"));
    LP_CHECK(!c.recomputeGiven && says(c, "recompute not stated"));
    LP_CHECK(resolveCase(c, nullptr).training.recompute == Recompute::None);
    const std::string longOpen = replaced(replaced(base, R"("recompute": "none")", R"("recompute": null)"),
                                          R"("seq_len": 4096)", R"("seq_len": 32768)");
    const Scenario resolved = resolveCase(only(longOpen), nullptr);
    LP_CHECK(resolved.training.recompute != Recompute::None);
    const Plan resolvedPlan = evaluate(resolved);
    LP_CHECK(resolvedPlan.memory.headroomBytes >= -0.05 * resolvedPlan.memory.capacityBytes);
    Scenario none = resolved;
    none.training.recompute = Recompute::None;
    LP_CHECK(!evaluate(none).memory.fits);
    // Full recompute of only some of each chunk's layers (Megatron's block method) is among the choices: here
    // it fits and beats recomputing every layer.
    LP_CHECK(resolved.training.recompute == Recompute::Full && resolved.training.recomputeLayers > 0);
    Scenario everyLayer = resolved;
    everyLayer.training.recomputeLayers = 0;
    LP_CHECK(resolvedPlan.time.stepSeconds < evaluate(everyLayer).time.stepSeconds);
    // A case may state block recompute itself (the optional layout key recompute_layers).
    c = only(replaced(base, R"("recompute": "none")", R"("recompute": "full", "recompute_layers": 3)"));
    LP_CHECK(c.recomputeGiven && c.scenario.training.recomputeLayers == 3);
    LP_CHECK(resolveCase(c, nullptr).training.recomputeLayers == 3);
    // The run ran, so it fitted: a plan up to 5% over capacity (the memory model's accuracy) still counts as
    // fitting, and no recompute is guessed for it.
    ValidationCase edge = only(longOpen);
    bool foundEdge = false;
    for (int seq = 4096; seq <= 32768 && !foundEdge; seq += 128) {
        edge.scenario.model.seqLen = seq;
        Scenario t = edge.scenario;
        t.training.recompute = Recompute::None;
        const Plan p = evaluate(t);
        const double over = -p.memory.headroomBytes / p.memory.capacityBytes;
        if (over > 0.005 && over < 0.045) {
            foundEdge = true;
            LP_CHECK(!p.memory.fits);
            LP_CHECK(resolveCase(edge, nullptr).training.recompute == Recompute::None);
        }
    }
    LP_CHECK(foundEdge);

    // Interleaving not stated with a pipeline: the fastest that fits, searched with the rest. PP 4 with 8
    // micro batches per replica has a bubble of 3/8 without it; the search interleaves, with the
    // Megatron-Core recipes' p2p overlap that goes with it on Hopper, and is faster than no interleaving.
    const std::string piped = overlapCase("h100-sxm-80gb", 2, 4, 1, 2, 1, true);
    c = only(replaced(piped, R"("vpp": 1)", R"("vpp": null)"));
    LP_CHECK(!c.vppGiven && says(c, "vpp not stated: the fastest interleaving that fits"));
    const Scenario interleaved = resolveCase(c, nullptr);
    LP_CHECK(interleaved.layout.vpp > 1 && interleaved.training.overlapPpComm);
    LP_CHECK(evaluate(interleaved).time.stepSeconds < evaluate(only(piped).scenario).time.stepSeconds);
    LP_CHECK(only(piped).vppGiven && resolveCase(only(piped), nullptr).layout.vpp == 1);
    // Without a pipeline there is nothing to interleave, and nothing is said.
    c = only(replaced(base, R"("vpp": 1)", R"("vpp": null)"));
    LP_CHECK(c.vppGiven && !says(c, "vpp not stated"));

    // Model: SwiGLU, Llama's MLP width (8/3 h rounded up to 256: 11008 for 4096), MHA; GPT's 4h for GELU.
    c = only(replaced(replaced(base, R"("mlp": "swiglu")", R"("mlp": null)"), R"("ffn_hidden": 14336)",
                      R"("ffn_hidden": null)"));
    LP_CHECK(c.scenario.model.mlp == MlpKind::SwiGlu);
    LP_CHECK_EQ(c.scenario.model.ffnHidden, 11008);
    LP_CHECK(says(c, "mlp not stated") && says(c, "ffn_hidden not stated: planned with 11008"));
    c = only(replaced(overlapCase("h100-sxm-80gb", 2, 1, 1, 4, 1, true, "gelu"), R"("ffn_hidden": 14336)",
                      R"("ffn_hidden": null)"));
    LP_CHECK_EQ(c.scenario.model.ffnHidden, 4 * 4096);

    // Hardware: eight GPUs to a node (four to a GB200 tray); short and differently written GPU names.
    c = only(replaced(base, R"(, "gpus_per_node": 8)", ""));
    LP_CHECK_EQ(c.scenario.cluster.gpusPerNode, 8);
    LP_CHECK(says(c, "gpus_per_node not stated"));
    c = only(replaced(base, R"("gpu": "h100-sxm-80gb")", R"("gpu": "H100")"));
    LP_CHECK(c.scenario.cluster.gpu.id == "h100-sxm-80gb" && says(c, "read as h100-sxm-80gb"));
    c = only(replaced(base, R"("gpu": "h100-sxm-80gb")", R"("gpu": "H200_SXM_141GB")"));
    LP_CHECK(c.scenario.cluster.gpu.id == "h200-sxm-141gb");
    c = only(replaced(replaced(base, R"("gpu": "h100-sxm-80gb")", R"("gpu": "gb200")"),
                      R"(, "gpus_per_node": 8)", ""));
    LP_CHECK_EQ(c.scenario.cluster.gpusPerNode, 4);
    LP_CHECK_EQ(c.scenario.cluster.nvlinkDomain, 8);
    // Every case so filled plans.
    for (const std::string& json : {noZero, longOpen, base})
        LP_CHECK(runValidation({only(json)}, nullptr).rows.front().predicted > 0);
}

LP_TEST(a_case_that_cannot_be_read_is_left_out_and_named_the_others_go_on) {
    const std::string good = overlapCase("h100-sxm-80gb", 2, 1, 1, 4, 1, true);
    const std::string caseOf = good.substr(good.find("{\"id\""), good.rfind("]}") - good.find("{\"id\""));
    std::string bad = caseOf;
    bad.replace(bad.find(R"("tp": 2)"), 7, R"("tp": "2")");
    bad.replace(bad.find(R"("id": "x")"), 9, R"("id": "y")");
    const std::string file =
        R"({"schema": "layout-planner/validation-cases@1", "cases": [)" + caseOf + ", " + bad + "]}";
    // Strict (no list for the skipped): the file is refused, and the message names the field.
    const auto strict = validationCasesFromJson(file);
    LP_CHECK(!strict.has_value());
    // Lenient: the readable case goes on; the other's problem names its path and reason.
    InputErrors skipped;
    const auto lenient = validationCasesFromJson(file, &skipped);
    LP_CHECK(lenient.has_value() && lenient->size() == 1 && lenient->front().id == "x");
    LP_CHECK_EQ(skipped.size(), 1u);
    LP_CHECK(!skipped.empty() && skipped.front().path == "$.cases[1].layout.tp" &&
             skipped.front().reason.find("expected an integer") != std::string::npos);
    // No readable case at all: refused, lenient or not.
    const std::string none = R"({"schema": "layout-planner/validation-cases@1", "cases": [)" + bad + "]}";
    LP_CHECK(!validationCasesFromJson(none, &skipped).has_value());
}

LP_TEST(a_case_may_state_hybrid_sharding) {
    // The optional layout key zero_shard_degree (docs/formats.md): fms-fsdp's HSDP rows shard within a node.
    std::string json = overlapCase("a100-sxm-80gb", 1, 1, 1, 16, 3, false);
    LP_CHECK_EQ(optionsOf(json).zeroShardDegree, 0);
    const std::string key = R"("zero_stage": 3,)";
    json.replace(json.find(key), key.size(), key + R"( "zero_shard_degree": 8,)");
    LP_CHECK_EQ(optionsOf(json).zeroShardDegree, 8);
    const auto cases =
        loadValidationCases(std::string(LP_TEST_DATA_DIR) + "/validation/more-published-runs.json");
    LP_CHECK(cases.has_value());
    int hybrid = 0;
    for (const ValidationCase& c : cases ? *cases : std::vector<ValidationCase>{})
        hybrid += effectiveShardDegree(c.scenario) < c.scenario.layout.dp;
    LP_CHECK_EQ(hybrid, 2);
    // Zero is not a degree: the message names the field.
    json.replace(json.find(R"("zero_shard_degree": 8)"), 22, R"("zero_shard_degree": 0)");
    const auto bad = validationCasesFromJson(json);
    LP_CHECK(!bad.has_value());
    if (!bad.has_value())
        LP_CHECK(bad.error().front().path.find("zero_shard_degree") != std::string::npos);
}

LP_TEST(a_case_may_state_the_experts_tensor_parallelism) {
    // The optional layout key etp (docs/formats.md); absent, auto. Zero is not a degree.
    std::string json = overlapCase("h100-sxm-80gb", 2, 1, 1, 4, 1, true);
    auto layoutOf = [](const std::string& j) {
        const auto r = validationCasesFromJson(j);
        return r && !r->empty() ? r->front().scenario.layout : Layout{};
    };
    LP_CHECK_EQ(layoutOf(json).etp, 0);
    const std::string key = R"("zero_stage": 1,)";
    json.replace(json.find(key), key.size(), key + R"( "etp": 1,)");
    LP_CHECK_EQ(layoutOf(json).etp, 1);
    json.replace(json.find(R"("etp": 1)"), 8, R"("etp": 0)");
    const auto bad = validationCasesFromJson(json);
    LP_CHECK(!bad.has_value());
    if (!bad.has_value())
        LP_CHECK(bad.error().front().path.find("etp") != std::string::npos);
}

LP_TEST(the_interleaved_schedule_overlaps_p2p_in_the_megatron_style_on_hopper_unless_stated) {
    // Megatron-LM's --overlap-p2p-communication is on with VPP > 1; the recipes' other overlaps are stated.
    TrainingOptions t = optionsOf(overlapCase("h100-sxm-80gb", 4, 4, 5, 4, 1, true));
    LP_CHECK(t.overlapPpComm && t.overlapDpComm == Toggle::Auto && t.overlapTpComm == Toggle::Auto &&
             t.gradPrecision == GradPrecision::Auto);
    LP_CHECK(!optionsOf(overlapCase("h100-sxm-80gb", 4, 4, 1, 4, 1, true)).overlapPpComm);
    // A100 (2021-2022 Megatron) and ZeRO 3 runs keep it off; a case may state it either way.
    LP_CHECK(!optionsOf(overlapCase("a100-sxm-80gb", 4, 4, 5, 4, 1, true)).overlapPpComm);
    LP_CHECK(!optionsOf(overlapCase("h100-sxm-80gb", 4, 4, 5, 4, 3, true)).overlapPpComm);
    std::string stated = replaced(overlapCase("h100-sxm-80gb", 4, 4, 5, 4, 1, true), "cases@1", "cases@2");
    stated = replaced(stated, R"("measured":)",
                      R"("training": {"overlap_pp_comm": false, "overlap_dp_comm": true}, "measured":)");
    t = optionsOf(stated);
    LP_CHECK(!t.overlapPpComm && t.overlapDpComm == Toggle::On);
}

LP_TEST(fsdp_runs_and_hopper_runs_use_flash_attention_megatron_gpt_on_a100_does_not) {
    // 2021-2022 Megatron GPT on A100: the fused unflashed softmax.
    LP_CHECK(!optionsOf(overlapCase("a100-sxm-80gb", 2, 1, 1, 4, 0, false, "gelu")).flashAttention);
    // A PyTorch FSDP trainer (llm-foundry's MPT on A100): flash kernels through SDPA / flash-attn.
    LP_CHECK(optionsOf(overlapCase("a100-sxm-80gb", 1, 1, 1, 8, 3, false, "gelu")).flashAttention);
    LP_CHECK(optionsOf(overlapCase("h100-sxm-80gb", 2, 1, 1, 4, 0, false, "gelu")).flashAttention);
    LP_CHECK(optionsOf(overlapCase("a100-sxm-80gb", 2, 1, 1, 4, 0, false, "swiglu")).flashAttention);
}

LP_TEST(a_case_shaped_like_a_published_model_takes_the_attention_the_format_cannot_state) {
    auto modelOf = [](const std::string& model, std::string* from = nullptr) {
        const std::string json = R"({"schema": "layout-planner/validation-cases@1", "cases": [{"id": "x",
            "model": )" + model + R"(, "hardware": {"gpu": "gb200", "gpus": 8, "gpus_per_node": 4},
            "layout": {"tp": 1, "pp": 1, "dp": 8, "ep": 8, "micro_batch": 1, "global_batch": 64,
                       "sequence_parallel": false, "recompute": "none", "zero_stage": 1, "precision": "bf16"},
            "measured": {"tokens_per_s_per_gpu": 1000}}]})";
        const auto r = validationCasesFromJson(json);
        LP_CHECK(r.has_value() && r->size() == 1);
        if (from && r && !r->empty())
            *from = r->front().architectureFrom;
        return r && !r->empty() ? r->front().scenario.model : ModelSpec{};
    };
    const std::string qwen3 =
        R"({"name": "Qwen3 30B", "layers": 48, "hidden": 2048, "heads": 32, "kv_heads": 4,
        "ffn_hidden": 6144, "vocab": 151936, "seq_len": 4096, "mlp": "swiglu", "tied_embeddings": false,
        "moe": {"experts": 128, "top_k": 8, "expert_ffn_hidden": 768, "shared_experts": 0, "moe_layers": 48}})";
    // Qwen3's heads are 128 wide although hidden / heads is 64: the preset's published config says so.
    std::string from;
    ModelSpec m = modelOf(qwen3, &from);
    LP_CHECK_EQ(m.headDim(), 128);
    LP_CHECK_EQ(from, std::string("Qwen3-30B-A3B"));
    // Every layer MoE: the dense MLP width does not tell models apart, so another value still matches.
    std::string otherFfn = qwen3;
    otherFfn.replace(otherFfn.find("6144"), 4, "768");
    LP_CHECK_EQ(modelOf(otherFfn).headDim(), 128);
    // One layer more, or another expert width, is another model: hidden / heads as the format says.
    std::string otherShape = qwen3;
    otherShape.replace(otherShape.find(R"("layers": 48)"), 12, R"("layers": 47)");
    otherShape.replace(otherShape.find(R"("moe_layers": 48)"), 16, R"("moe_layers": 47)"); // at most layers
    LP_CHECK_EQ(modelOf(otherShape, &from).headDim(), 64);
    LP_CHECK(from.empty());
    std::string otherExperts = qwen3;
    otherExperts.replace(otherExperts.find("768"), 3, "512");
    LP_CHECK_EQ(modelOf(otherExperts).headDim(), 64);
    // DeepSeek-V3's shape is multi-head latent attention with its published ranks.
    m = modelOf(
        R"({"name": "DSv3", "layers": 61, "hidden": 7168, "heads": 128, "kv_heads": 128, "ffn_hidden": 18432,
        "vocab": 129280, "seq_len": 4096, "mlp": "swiglu", "tied_embeddings": false,
        "moe": {"experts": 256, "top_k": 8, "expert_ffn_hidden": 2048, "shared_experts": 1, "moe_layers": 58}})",
        &from);
    LP_CHECK(m.attention == AttentionKind::Mla);
    LP_CHECK_EQ(m.mla.kvLoraRank, 512);
    LP_CHECK_EQ(m.qkHeadDim(), 192);
    LP_CHECK_EQ(m.moe.groups, 8); // and its node-limited routing: 4 of 8 groups
    LP_CHECK_EQ(m.moe.groupLimit, 4);
    LP_CHECK_EQ(from, std::string("DeepSeek-V3"));
    // The same model with its MoE layers said the Hugging Face way (three dense first) is the same model.
    m = modelOf(
        R"({"name": "DSv3", "layers": 61, "hidden": 7168, "heads": 128, "kv_heads": 128, "ffn_hidden": 18432,
        "vocab": 129280, "seq_len": 4096, "mlp": "swiglu", "tied_embeddings": false,
        "moe": {"experts": 256, "top_k": 8, "expert_ffn_hidden": 2048, "shared_experts": 1, "first_k_dense_replace": 3}})",
        &from);
    LP_CHECK_EQ(m.moeLayerCount(), 58);
    LP_CHECK(m.attention == AttentionKind::Mla);
    // Every second layer (Llama 4 Maverick: 24 of 48), as a step or as a fraction.
    const std::string maverick = R"({"name": "M", "layers": 48, "hidden": 5120, "heads": 40, "kv_heads": 8,
        "ffn_hidden": 16384, "vocab": 202048, "seq_len": 8192, "mlp": "swiglu", "tied_embeddings": false,
        "moe": {"experts": 128, "top_k": 1, "expert_ffn_hidden": 8192, "shared_experts": 1, "moe_layer_freq": 0.5}})";
    LP_CHECK_EQ(modelOf(maverick).moeLayerCount(), 24);
    std::string stepped = maverick;
    const std::string fraction = R"("moe_layer_freq": 0.5)";
    stepped.replace(stepped.find(fraction), fraction.size(), R"("interleave_moe_layer_step": 2)");
    LP_CHECK_EQ(modelOf(stepped).moeLayerCount(), 24);
    std::string negative = maverick;
    negative.replace(negative.find(fraction), fraction.size(), R"("moe_layer_freq": -2)");
    const auto bad = validationCasesFromJson(
        R"({"schema": "layout-planner/validation-cases@1", "cases": [{"id": "x",
        "model": )" +
        negative + R"(, "hardware": {"gpu": "h100", "gpus": 8}, "layout": {"tp": 1, "pp": 1, "dp": 8},
        "measured": {"tokens_per_s_per_gpu": 1000}}]})");
    LP_CHECK(!bad.has_value() &&
             bad.error().front().message().find("moe.moe_layer_freq: out of range") != std::string::npos);
    // A published model whose heads are hidden / heads wide (Llama 3.1 8B) is planned exactly as written.
    m = modelOf(
        R"({"name": "L", "layers": 32, "hidden": 4096, "heads": 32, "kv_heads": 8, "ffn_hidden": 14336,
        "vocab": 128256, "seq_len": 8192, "mlp": "swiglu", "tied_embeddings": false})",
        &from);
    LP_CHECK_EQ(m.headDim(), 128);
    LP_CHECK(m.attention == AttentionKind::Standard);
    LP_CHECK(from.empty());
}

LP_TEST_MAIN()
