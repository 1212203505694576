// What the @1 reader derived from a case's source, notes and id (the framework's habits, kernels, loss,
// overlaps, MoE dispatch), as the converter keeps it: each such reading is what the converted sets state as
// data (docs/estimation.md, section 12, says what the core reader reads).
#include "TestHarness.h"
#include "core/ValidationCaseFixtures.h"
#include "core/estimate/Evaluate.h"
#include "core/measured/ValidationRun.h"
#include "tools/validation-convert/tests/ProseFixtures.h"

#include <string>
#include <vector>

using namespace lp::core;

// Whether a switch is stated on (auto and off plan without it where the converter leaves or sets them).
inline bool on(lp::core::Toggle t) {
    return t == lp::core::Toggle::On;
}
using namespace lp::core::fixtures;
using namespace lp::tools::testing;

namespace {
TrainingOptions optionsOf(const std::string& json) {
    const auto r = proseCasesFromJson(json);
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
    LP_CHECK(t.overlapPpComm && on(t.overlapDpComm) && on(t.overlapTpComm));
    LP_CHECK(t.gradPrecision == GradPrecision::Half); // the recipes' grad_reduce_in_fp32 = False
    // Without VPP no p2p overlap; without the distributed optimizer no DP overlap; without SP no TP overlap.
    t = optionsOf(fromSource(overlapCase("h100-sxm-80gb", 4, 4, 1, 4, 0, false), nemo));
    LP_CHECK(!t.overlapPpComm && !on(t.overlapDpComm) && !on(t.overlapTpComm));
    // Others' Megatron-LM scripts keep its defaults (p2p overlap, fp32 grads) unless the notes name a switch.
    const std::string flagPerf = "FlagOpen/FlagPerf training/nvidia/llama3_8B-megatron";
    t = optionsOf(fromSource(h100, flagPerf));
    LP_CHECK(t.overlapPpComm && t.overlapDpComm == Toggle::Off && t.overlapTpComm == Toggle::Off);
    LP_CHECK(t.gradPrecision == GradPrecision::Fp32); // stated: the planner's auto takes the recipes' habit
    t = optionsOf(
        fromSource(h100, flagPerf, "flags: --tp-comm-overlap --overlap-grad-reduce, no grad_reduce_in_bf16"));
    LP_CHECK(on(t.overlapTpComm) && on(t.overlapDpComm) && t.gradPrecision == GradPrecision::Fp32);
    t = optionsOf(fromSource(h100, nemo, "tp_comm_overlap: false"));
    LP_CHECK(!on(t.overlapTpComm) && on(t.overlapDpComm));
    // A100 (2021-2022 Megatron) and FSDP-style runs keep every switch off.
    t = optionsOf(overlapCase("a100-sxm-80gb", 4, 4, 5, 4, 1, true));
    LP_CHECK(!t.overlapPpComm && !on(t.overlapDpComm) && !on(t.overlapTpComm));
    LP_CHECK(t.gradPrecision == GradPrecision::Auto);
    t = optionsOf(overlapCase("h100-sxm-80gb", 4, 4, 5, 4, 3, true));
    LP_CHECK(!t.overlapPpComm && !on(t.overlapDpComm) && !on(t.overlapTpComm));
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
        const auto r = proseCasesFromJson(json);
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
        LP_CHECK(t.executionStyle == ExecutionStyle::Fsdp && !on(t.overlapDpComm) &&
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
        return on(optionsOf(j).overlapTpComm);
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

LP_TEST(a_converted_case_states_what_its_words_said_and_plans_the_same) {
    // A torchtitan run whose notes say torch.compile: the @1 reader planned it in the FSDP style, compiled;
    // converted, the case states both as keys and says which words they came from.
    const std::string v1 =
        replaced(overlapCase("h100-sxm-80gb", 1, 1, 1, 8, 3, false), R"("id": "x",)",
                 R"("id": "x", "source": "pytorch/torchtitan", "notes": "FSDP + torch.compile",)");
    std::vector<std::string> problems;
    const std::string v2 = lp::tools::convertFile(v1, problems);
    LP_CHECK(problems.empty());
    const json::Json doc = json::Json::parse(v2);
    LP_CHECK_EQ(doc.at("schema").get<std::string>(), std::string("layout-planner/validation-cases@2"));
    const json::Json& c = doc.at("cases").at(0);
    LP_CHECK(c.at("training").at("torch_compile").get<bool>());
    LP_CHECK_EQ(c.at("training").at("execution_style").get<std::string>(), std::string("fsdp"));
    bool saysWords = false;
    for (const json::Json& d : c.at("derived"))
        saysWords = saysWords || d.get<std::string>().find("\"torch.compile\"") != std::string::npos;
    LP_CHECK(saysWords);
    // Core reads the statement, not the words: the same plan as the @1 reader's.
    const auto converted = validationCasesFromJson(v2);
    const auto prose = proseCasesFromJson(v1);
    LP_CHECK(converted.has_value() && prose.has_value());
    if (converted && prose)
        LP_CHECK(converted->front().scenario.training == prose->front().scenario.training);
}

LP_TEST_MAIN()
