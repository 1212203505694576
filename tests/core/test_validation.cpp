// Predictions against the published measured runs in ../shared/reference (docs/validation/reference.md).
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
const std::string kCases = std::string(LP_SHARED_DIR) + "/reference/published-runs.json";
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

LP_TEST(megatron_core_runs_on_hopper_get_the_recipes_overlaps_and_older_runs_none) {
    const std::string h100 = overlapCase("h100-sxm-80gb", 4, 4, 5, 4, 1, true);
    const auto fromSource = [](const std::string& json, const std::string& source, std::string notes = "") {
        return replaced(json, R"("id": "x",)",
                        R"("id": "x", "source": ")" + source + R"(", "notes": ")" + notes + "\",");
    };
    // NVIDIA's recipes on H100: p2p overlap (VPP > 1), grad reduce-scatter (ZeRO 1, DP > 1), TP (with SP).
    const std::string nemo = "NVIDIA NeMo performance summary";
    TrainingOptions t = optionsOf(fromSource(h100, nemo));
    LP_CHECK(t.overlapPpComm && t.overlapDpComm && t.overlapTpComm);
    LP_CHECK(t.gradPrecision == GradPrecision::Half); // the recipes' grad_reduce_in_fp32 = False
    // Without VPP no p2p overlap; without the distributed optimizer no DP overlap; without SP no TP overlap.
    t = optionsOf(fromSource(overlapCase("h100-sxm-80gb", 4, 4, 1, 4, 0, false), nemo));
    LP_CHECK(!t.overlapPpComm && !t.overlapDpComm && !t.overlapTpComm);
    // Others' Megatron-LM scripts keep its defaults (p2p overlap, fp32 grads) unless the notes name a switch.
    const std::string flagPerf = "FlagOpen/FlagPerf training/nvidia/llama3_8B-megatron";
    t = optionsOf(fromSource(h100, flagPerf));
    LP_CHECK(t.overlapPpComm && !t.overlapDpComm && !t.overlapTpComm);
    LP_CHECK(t.gradPrecision == GradPrecision::Auto);
    t = optionsOf(
        fromSource(h100, flagPerf, "flags: --tp-comm-overlap --overlap-grad-reduce, no grad_reduce_in_bf16"));
    LP_CHECK(t.overlapTpComm && t.overlapDpComm && t.gradPrecision == GradPrecision::Auto);
    t = optionsOf(fromSource(h100, nemo, "tp_comm_overlap: false"));
    LP_CHECK(!t.overlapTpComm && t.overlapDpComm);
    // A100 (2021-2022 Megatron) and FSDP-style runs keep every switch off.
    t = optionsOf(overlapCase("a100-sxm-80gb", 4, 4, 5, 4, 1, true));
    LP_CHECK(!t.overlapPpComm && !t.overlapDpComm && !t.overlapTpComm);
    LP_CHECK(t.gradPrecision == GradPrecision::Auto);
    t = optionsOf(overlapCase("h100-sxm-80gb", 4, 4, 5, 4, 3, true));
    LP_CHECK(!t.overlapPpComm && !t.overlapDpComm && !t.overlapTpComm);
}

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

    // ZeRO: the distributed optimizer (1) for a Megatron-style run with DP; full sharding for a PyTorch FSDP
    // trainer the source names.
    const std::string noZero = replaced(base, R"("zero_stage": 1)", R"("zero_stage": null)");
    LP_CHECK_EQ(only(noZero).scenario.training.zeroStage, 1);
    c = only(replaced(noZero, R"("id": "x",)", R"("id": "x", "source": "pytorch/torchtitan benchmarks",)"));
    LP_CHECK_EQ(c.scenario.training.zeroStage, 3);
    LP_CHECK(c.scenario.training.executionStyle == ExecutionStyle::Fsdp && says(c, "zero_stage not stated"));

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

LP_TEST(a_pytorch_trainer_case_whose_notes_name_fused_kernels_is_planned_with_them) {
    const std::string base = overlapCase("h100-sxm-80gb", 1, 1, 1, 8, 3, false);
    auto with = [&](const std::string& source, const std::string& notes) {
        std::string json = base;
        json.replace(json.find(R"("id": "x",)"), 10,
                     R"("id": "x", "source": ")" + source + R"(", "notes": ")" + notes + R"(",)");
        return optionsOf(json);
    };
    const std::string automodel = "NVIDIA-NeMo/Automodel docs/performance-summary.md";
    LP_CHECK(with(automodel, "Kernel Optimizations: TE + DeepEP").fusedKernels);
    LP_CHECK(with("pytorch/torchtitan", "Liger kernels for RMSNorm and SwiGLU").fusedKernels);
    LP_CHECK(with(automodel, "Transformer Engine linear and RMSNorm").fusedKernels);
    // Not a kernel: "te" inside a word; and not for a Megatron source, whose kernels are fused anyway.
    LP_CHECK(!with(automodel, "compute + communication, note the batch").fusedKernels);
    LP_CHECK(!with(automodel, "Kernel Optimizations: -").fusedKernels);
    LP_CHECK(!with("NVIDIA Megatron-Bridge performance summary", "TE + DeepEP").fusedKernels);
    LP_CHECK(!with(automodel, "no TE").fusedKernels);
}

LP_TEST(model_flops_are_counted_as_the_source_counts_them) {
    // Megatron-Bridge's and NeMo AutoModel's model TFLOP/s count the causal half of the attention scores; the
    // other sources (Megatron-LM papers, torchtitan, NeMo 1.0) the whole.
    const std::string base = overlapCase("h100-sxm-80gb", 1, 1, 1, 8, 3, false);
    auto from = [&](const std::string& source) {
        std::string json = base;
        json.replace(json.find(R"("id": "x",)"), 10, R"("id": "x", "source": ")" + source + R"(",)");
        json.replace(json.find(R"("tokens_per_s_per_gpu": 1000)"), 28, R"("model_tflops_per_gpu": 400)");
        const auto r = validationCasesFromJson(json);
        LP_CHECK(r.has_value() && r->size() == 1);
        return r && !r->empty() ? r->front() : ValidationCase{};
    };
    const ValidationCase bridge = from("NVIDIA-NeMo/Megatron-Bridge docs/performance-summary.md");
    const ValidationCase automodel = from("NVIDIA-NeMo/Automodel docs/performance-summary.md");
    const ValidationCase titan = from("pytorch/torchtitan benchmarks");
    LP_CHECK(bridge.scenario.training.attentionFlops == AttentionFlops::Causal);
    LP_CHECK(automodel.scenario.training.attentionFlops == AttentionFlops::Causal);
    LP_CHECK(titan.scenario.training.attentionFlops == AttentionFlops::Full);
    // Only the count changes, not the time: the causal count is lower by half the attention's FLOPs.
    const Plan full = evaluate(resolveCase(bridge, nullptr));
    Scenario s = resolveCase(bridge, nullptr);
    s.training.attentionFlops = AttentionFlops::Full;
    const Plan whole = evaluate(s);
    LP_CHECK_NEAR(full.time.stepSeconds, whole.time.stepSeconds, 0.0);
    LP_CHECK(full.modelTflopsPerGpu < whole.modelTflopsPerGpu);
    const double predicted = runValidation({bridge}, nullptr).rows.front().predicted;
    LP_CHECK_NEAR(predicted, full.modelTflopsPerGpu, 1e-9 * predicted);
}

LP_TEST(an_fp8_case_whose_notes_state_fp8_weight_gathers_is_planned_with_them) {
    auto gathers = [](const std::string& precision, const std::string& notes) {
        std::string j = replaced(overlapCase("h100-sxm-80gb", 1, 1, 1, 16, 3, false),
                                 R"("precision": "bf16")", R"("precision": ")" + precision + R"(")");
        j = replaced(j, R"("id": "x",)", R"("id": "x", "notes": ")" + notes + R"(",)");
        return optionsOf(j).fp8ParamGather;
    };
    LP_CHECK(gathers("fp8", "torch.compile, Float8 with fp8 FSDP all-gather; memory at the 100th iteration"));
    LP_CHECK(gathers("fp8", "float8 linears with tensorwise scaling plus float8 all-gather in FSDP2"));
    LP_CHECK(gathers("fp8", "config_common.sh: use_dist_optimizer=true, fp8=true, fp8_params=true"));
    LP_CHECK(gathers("fp8", "Megatron-LM --fp8-param-gather"));
    // Not stated, denied, or not fp8 training: off.
    LP_CHECK(!gathers("fp8", "torchao float8 linears"));
    LP_CHECK(!gathers("fp8", "fp8_params=false"));
    LP_CHECK(!gathers("fp8", "no fp8 all-gather"));
    LP_CHECK(!gathers("bf16", "the bf16 baseline of a float8 all-gather study"));
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

LP_TEST(fsdp_runs_and_hopper_runs_use_flash_attention_megatron_gpt_on_a100_does_not) {
    // 2021-2022 Megatron GPT on A100: the fused unflashed softmax.
    LP_CHECK(!optionsOf(overlapCase("a100-sxm-80gb", 2, 1, 1, 4, 0, false, "gelu")).flashAttention);
    // A PyTorch FSDP trainer (llm-foundry's MPT on A100): flash kernels through SDPA / flash-attn.
    LP_CHECK(optionsOf(overlapCase("a100-sxm-80gb", 1, 1, 1, 8, 3, false, "gelu")).flashAttention);
    LP_CHECK(optionsOf(overlapCase("h100-sxm-80gb", 2, 1, 1, 4, 0, false, "gelu")).flashAttention);
    LP_CHECK(optionsOf(overlapCase("a100-sxm-80gb", 2, 1, 1, 4, 0, false, "swiglu")).flashAttention);
}

LP_TEST(zero_3_from_a_megatron_source_plans_megatron_fsdp_with_megatron_habits) {
    // The format names no framework; the source does. Megatron-Bridge's "FSDP = 1" is Megatron-FSDP:
    // Megatron's fused kernels and Transformer Engine, so the Megatron style, not the PyTorch FSDP habits.
    auto optionsWith = [](const std::string& source, int zero, const std::string& gpu = "h100-sxm-80gb") {
        std::string j = overlapCase(gpu, 1, 1, 1, 8, zero, false, "gelu");
        j.replace(j.find(R"("id": "x",)"), 10, R"("id": "x", "source": ")" + source + R"(",)");
        return optionsOf(j);
    };
    auto withSource = [&](const std::string& source) { return optionsWith(source, 3).executionStyle; };
    LP_CHECK(withSource("NVIDIA-NeMo/Megatron-Bridge docs/performance-summary.md") ==
             ExecutionStyle::Megatron);
    LP_CHECK(withSource("Megatron-DeepSpeed ZeRO-3 run") == ExecutionStyle::Megatron);
    // PyTorch-native trainers: the FSDP style; cases without a source keep "auto" (the FSDP style at ZeRO 3).
    LP_CHECK(withSource("pytorch/torchtitan benchmarks") == ExecutionStyle::Fsdp);
    LP_CHECK(withSource("NVIDIA NeMo AutoModel documentation") == ExecutionStyle::Fsdp);
    for (const char* trainer : {"allenai/OLMo-core README.md", "jzhang38/TinyLlama README.md",
                                "Lightning-AI/litgpt", "pytorch/torchtune recipes"})
        LP_CHECK(optionsWith(trainer, 1).executionStyle == ExecutionStyle::Fsdp);
    LP_CHECK(optionsOf(overlapCase("h100-sxm-80gb", 1, 1, 1, 8, 3, false)).executionStyle ==
             ExecutionStyle::Auto);
    // Below ZeRO 3 "auto" is the Megatron style already: a Megatron source changes nothing, ...
    LP_CHECK(optionsWith("NVIDIA/Megatron-LM README", 1).executionStyle == ExecutionStyle::Auto);
    LP_CHECK(optionsOf(overlapCase("h100-sxm-80gb", 1, 1, 1, 8, 1, false)).executionStyle ==
             ExecutionStyle::Auto);
    // ... but a PyTorch-native trainer's DDP or SHARD_GRAD_OP run keeps its habits: the FSDP style, flash
    // attention (a GELU model on A100 too) and none of the Megatron-Core recipes' overlap switches.
    for (int zero : {0, 2}) {
        TrainingOptions t =
            optionsWith("mosaicml/llm-foundry scripts/train/benchmarking/README.md", zero, "a100-sxm-80gb");
        LP_CHECK(t.executionStyle == ExecutionStyle::Fsdp && t.flashAttention);
        t = optionsWith("pytorch/torchtitan benchmarks", zero);
        LP_CHECK(t.executionStyle == ExecutionStyle::Fsdp && !t.overlapDpComm &&
                 t.gradPrecision == GradPrecision::Auto);
    }
    LP_CHECK(!optionsWith("NVIDIA/Megatron-LM README", 1, "a100-sxm-80gb").flashAttention);
}

LP_TEST(a_case_whose_notes_or_id_state_torch_compile_is_planned_compiled) {
    // The format has no compile field; torchtitan's cases say "variant: FSDP + torch.compile" in their notes.
    auto compiled = [](const std::string& id, const std::string& notes) {
        std::string j = overlapCase("h100-sxm-80gb", 1, 1, 1, 8, 3, false);
        j.replace(j.find(R"("id": "x",)"), 10, R"("id": ")" + id + R"(", "notes": ")" + notes + R"(",)");
        return optionsOf(j).torchCompile;
    };
    LP_CHECK(compiled("tt_8b", "variant: FSDP + CP + Torch.compile + Float8; Llama 3.1 shape"));
    LP_CHECK(compiled("torchtitan_8B_fsdp_compile", ""));
    // Eager unless stated, and a stated "no torch.compile" wins over everything else.
    LP_CHECK(!compiled("tt_8b", "variant: FSDP"));
    LP_CHECK(!compiled("fms_7b", "PyTorch FSDP, SDPA flash attention v2, no torch.compile"));
    LP_CHECK(!compiled("x_compile", "eager run, without torch.compile"));
    LP_CHECK(!compiled("x_compile", "torch.compile off"));
}

LP_TEST(a_torchtitan_run_from_before_april_2025_keeps_its_eager_loss_when_compiled) {
    // torchtitan compiles the loss with the model since PR #1033 (April 2025); its December 2024 benchmarks
    // ran the eager loss. The date comes from the source or the notes, in the forms published files use.
    auto lossOf = [](const std::string& source, const std::string& notes) {
        std::string j = overlapCase("h100-sxm-80gb", 1, 1, 1, 8, 3, false);
        j.replace(j.find(R"("id": "x",)"), 10,
                  R"("id": "x", "source": ")" + source + R"(", "notes": ")" + notes + R"(",)");
        return optionsOf(j).crossEntropy;
    };
    const std::string compiled = "FSDP + torch.compile";
    LP_CHECK(lossOf("pytorch/torchtitan benchmarks/llama3_h100_202412_torchtitan.md", compiled) ==
             CrossEntropy::Unfused);
    LP_CHECK(lossOf("pytorch/torchtitan benchmarks", "Dec. 2024; " + compiled) == CrossEntropy::Unfused);
    LP_CHECK(lossOf("pytorch/torchtitan blog 2025-03-30", compiled) == CrossEntropy::Unfused);
    // From April 2025, or undated (today's torchtitan), the plan's own habit: Auto, the compiled loss.
    LP_CHECK(lossOf("pytorch/torchtitan benchmarks/llama3_8b_h200_2025-06_torchtitan.md", compiled) ==
             CrossEntropy::Auto);
    LP_CHECK(lossOf("pytorch/torchtitan benchmarks", "Trainy, June 2025; " + compiled) == CrossEntropy::Auto);
    LP_CHECK(lossOf("pytorch/torchtitan benchmarks", compiled) == CrossEntropy::Auto);
    // A later date in the notes wins; a bare year counts as its end; numbers that are no dates are ignored.
    LP_CHECK(lossOf("torchtitan 202412 table", "rerun 2025-05; " + compiled) == CrossEntropy::Auto);
    LP_CHECK(lossOf("pytorch/torchtitan benchmarks", "2025; " + compiled) == CrossEntropy::Auto);
    LP_CHECK(lossOf("pytorch/torchtitan benchmarks", "2048 GPUs, vocab 202048, 20241 steps; " + compiled) ==
             CrossEntropy::Auto);
    // Eager runs, and other trainers, are not touched.
    LP_CHECK(lossOf("pytorch/torchtitan benchmarks/llama3_h100_202412_torchtitan.md", "FSDP") ==
             CrossEntropy::Auto);
    LP_CHECK(lossOf("foundation-model-stack/fms-fsdp 2024-06", compiled) == CrossEntropy::Auto);
}

LP_TEST(a_case_whose_notes_state_async_tp_is_planned_with_the_tp_overlap) {
    // torchtitan's AsyncTP (TP collectives overlapped with the matmuls) is TrainingOptions::overlapTpComm.
    auto asyncTp = [](int tp, const std::string& notes) {
        std::string j = overlapCase("h100-sxm-80gb", tp, 1, 1, 4, 3, tp > 1);
        j.replace(j.find(R"("id": "x",)"), 10, R"("id": "x", "notes": ")" + notes + R"(",)");
        return optionsOf(j).overlapTpComm;
    };
    LP_CHECK(asyncTp(8, "FSDP 8 x TP 8 x PP 8 with AsyncTP (TP communication overlapped with the matmuls)"));
    LP_CHECK(!asyncTp(8, "FSDP 32 x TP 8 with sequence parallel. Row '2D' (without AsyncTP)."));
    LP_CHECK(!asyncTp(8, "FSDP 32 x TP 8"));
    LP_CHECK(!asyncTp(1, "AsyncTP on, but no TP group to overlap"));
}

LP_TEST(a_moe_case_whose_notes_state_the_all_to_all_overlap_is_planned_with_it) {
    // Megatron-Core's MoE all-to-all overlap is TrainingOptions::overlapEpComm; NVIDIA's recipes set it per
    // model.
    auto epOverlap = [](int ep, const std::string& notes) {
        std::string j = overlapCase("h100-sxm-80gb", 1, 1, 1, 8, 1, false);
        j.replace(j.find(R"("id": "x",)"), 10, R"("id": "x", "notes": ")" + notes + R"(",)");
        j.replace(j.find(R"("tied_embeddings": false)"), 24,
                  R"("tied_embeddings": false, "moe": {"experts": 8, "top_k": 2})");
        j.replace(j.find(R"("layout": {)"), 11, R"("layout": {"ep": )" + std::to_string(ep) + ", ");
        return optionsOf(j).overlapEpComm;
    };
    LP_CHECK(epOverlap(8, "The recipe sets moe_a2a_overlap=True with the all-to-all dispatcher."));
    LP_CHECK(epOverlap(8, "Run with --overlap-moe-expert-parallel-comm and delayed wgrad."));
    LP_CHECK(!epOverlap(8, "The recipe sets moe_a2a_overlap=False."));
    LP_CHECK(!epOverlap(8, "Dropless, all-to-all dispatcher, no EP overlap."));
    LP_CHECK(!epOverlap(8, "Dropless, all-to-all dispatcher."));
    LP_CHECK(!epOverlap(1, "EP overlap on, but no expert-parallel group to overlap"));
}

LP_TEST(a_moe_case_from_deepseeks_report_or_naming_deepep_dispatches_once_per_node) {
    auto optionsWith = [](const std::string& source, const std::string& notes) {
        std::string j = overlapCase("h100-sxm-80gb", 1, 1, 1, 8, 1, false);
        j.replace(j.find(R"("id": "x",)"), 10,
                  R"("id": "x", "source": ")" + source + R"(", "notes": ")" + notes + R"(",)");
        j.replace(j.find(R"("tied_embeddings": false)"), 24,
                  R"("tied_embeddings": false, "moe": {"experts": 8, "top_k": 2})");
        j.replace(j.find(R"("layout": {)"), 11, R"("layout": {"ep": 8, )");
        return optionsOf(j);
    };
    // DeepSeek-V3's own report: its DeepEP-style dispatch, and DualPipe's overlap of the all-to-alls.
    TrainingOptions t = optionsWith("DeepSeek-AI, DeepSeek-V3 Technical Report (arXiv 2412.19437)", "");
    LP_CHECK(t.moeDispatcher == MoeDispatcher::Deduplicated);
    LP_CHECK(t.overlapEpComm);
    // DeepSeek-V2's report: the deduplicated dispatch, but not DualPipe, which V3 introduced.
    t = optionsWith("DeepSeek-AI, DeepSeek-V2 Technical Report", "");
    LP_CHECK(t.moeDispatcher == MoeDispatcher::Deduplicated);
    LP_CHECK(!t.overlapEpComm);
    // Notes that name the dispatcher or the schedule.
    LP_CHECK(optionsWith("Megatron-LM", "flex dispatcher with the HybridEP backend").moeDispatcher ==
             MoeDispatcher::Deduplicated);
    t = optionsWith("some trainer", "DualPipe schedule, DeepEP kernels");
    LP_CHECK(t.moeDispatcher == MoeDispatcher::Deduplicated && t.overlapEpComm);
    LP_CHECK(optionsWith("Megatron-LM", "alltoall dispatcher, without DeepEP").moeDispatcher ==
             MoeDispatcher::AllToAll);
    LP_CHECK(optionsWith("NVIDIA-NeMo/Megatron-Bridge", "").moeDispatcher == MoeDispatcher::AllToAll);
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
