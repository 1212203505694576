// Launch settings (core/export/LaunchExport.h): the default scenario's output is pinned in
// tests/data/launch/, the framework names and the mapping of each option are checked one by one.
#include "ScenarioFixtures.h"
#include "TestHarness.h"
#include "core/export/LaunchExport.h"
#include "core/export/detail/LaunchText.h"
#include "core/io/Files.h"
#include "core/io/Presets.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <iostream>

using namespace lp::core;

namespace {

std::string golden(const std::string& name) {
    auto text = readTextFile(std::string(LP_TEST_DATA_DIR) + "/launch/" + name);
    return text ? *text : std::string("<missing golden file " + name + ">");
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

bool hasNote(const LaunchSettings& l, const std::string& part) {
    for (const auto& n : l.notes)
        if (contains(n, part))
            return true;
    return false;
}

void checkGolden(LaunchTarget t) {
    const LaunchSettings l = exportLaunchSettings(defaultScenario(), t);
    const std::string expected = golden("default-" + l.fileName);
    if (l.text != expected) {
        // Leave the new output beside the build for a diff (and, when intended, to replace the pin).
        const std::string out = "launch-actual-" + l.fileName;
        std::ofstream(out) << l.text;
        std::cerr << "launch settings for " << toString(t) << " differ from tests/data/launch/default-"
                  << l.fileName << "; actual output written to " << out << "\n";
    }
    LP_CHECK(l.text == expected);
}

Scenario withLayout(Scenario s, int tp, int pp, int dp, int vpp = 1) {
    s.layout.tp = tp;
    s.layout.pp = pp;
    s.layout.dp = dp;
    s.layout.vpp = vpp;
    return s;
}

} // namespace

LP_TEST(default_scenario_megatron_is_pinned) {
    checkGolden(LaunchTarget::Megatron);
}
LP_TEST(default_scenario_deepspeed_is_pinned) {
    checkGolden(LaunchTarget::DeepSpeed);
}
LP_TEST(default_scenario_torchtitan_is_pinned) {
    checkGolden(LaunchTarget::Torchtitan);
}

LP_TEST(targets_parse_and_print) {
    LP_CHECK(parseLaunchTarget("megatron") == LaunchTarget::Megatron);
    LP_CHECK(parseLaunchTarget("Megatron-LM") == LaunchTarget::Megatron);
    LP_CHECK(parseLaunchTarget("DeepSpeed") == LaunchTarget::DeepSpeed);
    LP_CHECK(parseLaunchTarget("torchtitan") == LaunchTarget::Torchtitan);
    LP_CHECK(!parseLaunchTarget("fairseq"));
    for (auto t : kLaunchTargets)
        LP_CHECK(parseLaunchTarget(toString(t)) == t);
}

LP_TEST(megatron_uses_the_current_flag_names) {
    const auto text = exportLaunchSettings(defaultScenario(), LaunchTarget::Megatron).text;
    for (const char* flag : {"--tensor-model-parallel-size 8",
                             "--pipeline-model-parallel-size 4",
                             "--context-parallel-size 1",
                             "--sequence-parallel",
                             "--use-distributed-optimizer",
                             "--micro-batch-size 2",
                             "--global-batch-size 64",
                             "--seq-length 4096",
                             "--num-layers 80",
                             "--hidden-size 8192",
                             "--ffn-hidden-size 28672",
                             "--num-attention-heads 64",
                             "--group-query-attention",
                             "--num-query-groups 8",
                             "--swiglu",
                             "--normalization RMSNorm",
                             "--disable-bias-linear",
                             "--untie-embeddings-and-output-weights",
                             "--bf16",
                             "--recompute-granularity selective",
                             "--attention-backend auto"})
        LP_CHECK(contains(text, std::string("  ") + flag + "\n") ||
                 contains(text, std::string("  ") + flag + " "));
    LP_CHECK(!contains(text, "--num-layers-per-virtual-pipeline-stage")); // v = 1
    LP_CHECK(!contains(text, "--expert-model-parallel-size"));            // dense model
}

LP_TEST(megatron_virtual_stages_and_full_recompute) {
    Scenario s = withLayout(defaultScenario(), 8, 4, 2, 5); // 80 layers / (4 x 5) = 4 per virtual stage
    s.training.recompute = Recompute::Full;
    s.training.precision = Precision::Fp16;
    const auto text = exportLaunchSettings(s, LaunchTarget::Megatron).text;
    LP_CHECK(contains(text, "--num-layers-per-virtual-pipeline-stage 4"));
    LP_CHECK(contains(text, "--recompute-granularity full"));
    LP_CHECK(contains(text, "--recompute-method uniform"));
    LP_CHECK(contains(text, "--recompute-num-layers 1"));
    LP_CHECK(contains(text, "--fp16"));
    // Block recompute: the first N layers of each chunk; DeepSpeed's note and torchtitan's every-k-th layer.
    Scenario block = s;
    block.training.recomputeLayers = 2;
    const auto blockText = exportLaunchSettings(block, LaunchTarget::Megatron).text;
    LP_CHECK(contains(blockText, "--recompute-method block"));
    LP_CHECK(contains(blockText, "--recompute-num-layers 2"));
    LP_CHECK(!contains(blockText, "--recompute-method uniform"));
    const auto titan = exportLaunchSettings(block, LaunchTarget::Torchtitan).text;
    LP_CHECK(contains(titan, "selective_ac_option = \"2\"")); // 4 layers per chunk, 2 of them: every 2nd
    bool noted = false;
    for (const auto& note : exportLaunchSettings(block, LaunchTarget::DeepSpeed).notes)
        noted = noted || contains(note, "the first 2 layers of each pipeline stage");
    LP_CHECK(noted);
    LP_CHECK(!contains(text, "--bf16"));

    s = withLayout(defaultScenario(), 8, 4, 2, 3); // 80 / 12 is not whole: the per-rank count instead
    LP_CHECK(contains(exportLaunchSettings(s, LaunchTarget::Megatron).text,
                      "--num-virtual-stages-per-pipeline-rank 3"));
}

LP_TEST(megatron_selective_recompute_names_its_modules_unless_the_default) {
    Scenario s = defaultScenario();
    s.training.recompute = Recompute::Selective;
    LP_CHECK(!contains(exportLaunchSettings(s, LaunchTarget::Megatron).text, "--recompute-modules"));
    s.training.recomputeModules = kRecomputeMlaUpProj | kRecomputeMoeAct;
    const auto text = exportLaunchSettings(s, LaunchTarget::Megatron).text;
    LP_CHECK(contains(text, "  --recompute-granularity selective\n"));
    LP_CHECK(contains(text, "  --recompute-modules moe_act mla_up_proj\n"));
    s.training.recomputeModules = 0;
    LP_CHECK(contains(exportLaunchSettings(s, LaunchTarget::Megatron).text, "# no recompute module"));
}

LP_TEST(megatron_zero_stages_precision_and_recompute_none) {
    Scenario s = defaultScenario();
    s.training.zeroStage = 0;
    s.training.recompute = Recompute::None;
    auto l = exportLaunchSettings(s, LaunchTarget::Megatron);
    LP_CHECK(!contains(l.text, "--use-distributed-optimizer"));
    LP_CHECK(!contains(l.text, "--recompute-granularity"));
    s.training.zeroStage = 3;
    s.training.precision = Precision::Fp8;
    l = exportLaunchSettings(s, LaunchTarget::Megatron);
    LP_CHECK(contains(l.text, "--use-torch-fsdp2"));
    LP_CHECK(contains(l.text, "--fp8-format hybrid"));
    LP_CHECK(!contains(l.text, "--fp8-param-gather"));
    LP_CHECK(hasNote(l, "does not support pipeline parallelism")); // PP 4 with FSDP2
    // FP8 weight gathers: Megatron's --fp8-param-gather; torchtitan's float8 FSDP all-gather, named.
    s.training.fp8ParamGather = true;
    LP_CHECK(contains(exportLaunchSettings(s, LaunchTarget::Megatron).text, "--fp8-param-gather"));
    LP_CHECK(
        contains(exportLaunchSettings(s, LaunchTarget::Torchtitan).text, "enable_fsdp_float8_all_gather"));
}

LP_TEST(megatron_mixture_of_experts_and_latent_attention) {
    const ModelPreset* ds = findModelPreset("deepseek-v3");
    LP_CHECK(ds != nullptr);
    if (!ds)
        return;
    Scenario s = defaultScenario();
    s.model = ds->model;
    s.layout.ep = 8;
    const auto text = exportLaunchSettings(s, LaunchTarget::Megatron).text;
    LP_CHECK(contains(text, "--expert-model-parallel-size 8"));
    LP_CHECK(contains(text, "--num-experts 256"));
    LP_CHECK(contains(text, "--moe-router-topk 8"));
    LP_CHECK(contains(text, "--moe-ffn-hidden-size 2048"));
    LP_CHECK(contains(text, "--moe-shared-expert-intermediate-size 2048"));
    LP_CHECK(contains(text, "--moe-layer-freq \"([0]*3+[1]*58)\""));
    LP_CHECK(contains(text, "--multi-latent-attention"));
    LP_CHECK(contains(text, "--q-lora-rank 1536"));
    LP_CHECK(contains(text, "--kv-lora-rank 512"));
    LP_CHECK(contains(text, "--qk-head-dim 128"));
    LP_CHECK(contains(text, "--qk-pos-emb-head-dim 64"));
    LP_CHECK(contains(text, "--v-head-dim 128"));
    LP_CHECK(!contains(text, "--group-query-attention"));
}

LP_TEST(megatron_gpt_style_model) {
    const ModelPreset* gpt = findModelPreset("gpt3-175b");
    LP_CHECK(gpt != nullptr);
    if (!gpt)
        return;
    Scenario s = defaultScenario();
    s.model = gpt->model;
    const auto text = exportLaunchSettings(s, LaunchTarget::Megatron).text;
    LP_CHECK(contains(text, "--position-embedding-type learned_absolute"));
    LP_CHECK(contains(text, "--normalization LayerNorm"));
    LP_CHECK(!contains(text, "--swiglu"));
    LP_CHECK(!contains(text, "--disable-bias-linear"));
    LP_CHECK(!contains(text, "--untie-embeddings-and-output-weights"));
    LP_CHECK(!contains(text, "--hidden-dropout 0.0"));
}

LP_TEST(deepspeed_config_is_valid_json_with_the_batch_identity) {
    for (int zero = 0; zero <= 3; ++zero) {
        Scenario s = defaultScenario();
        s.training.zeroStage = zero;
        const auto l = exportLaunchSettings(s, LaunchTarget::DeepSpeed);
        const auto j = nlohmann::json::parse(l.text);
        LP_CHECK_EQ(j.at("train_batch_size").get<long long>(), s.layout.effectiveBatch());
        LP_CHECK_EQ(j.at("train_micro_batch_size_per_gpu").get<int>(), s.layout.microBatch);
        LP_CHECK_EQ(j.at("gradient_accumulation_steps").get<int>(), s.layout.accumulation);
        LP_CHECK_EQ(j.at("zero_optimization").at("stage").get<int>(), zero);
        LP_CHECK(j.at("bf16").at("enabled").get<bool>());
        LP_CHECK(hasNote(l, "no tensor- or pipeline-parallel size"));
        LP_CHECK_EQ(hasNote(l, "supports ZeRO stages 0 and 1 only"), zero >= 2);
    }
    Scenario s = defaultScenario();
    s.training.precision = Precision::Fp16;
    const auto j = nlohmann::json::parse(exportLaunchSettings(s, LaunchTarget::DeepSpeed).text);
    LP_CHECK(j.at("fp16").at("enabled").get<bool>());
    LP_CHECK(!j.contains("bf16"));
}

LP_TEST(torchtitan_degrees_batches_and_schedules) {
    Scenario s = withLayout(defaultScenario(), 8, 1, 8);
    s.layout.accumulation = 4;
    s.training.zeroStage = 3;
    auto l = exportLaunchSettings(s, LaunchTarget::Torchtitan);
    LP_CHECK(contains(l.text, "local_batch_size = 2 "));
    LP_CHECK(contains(l.text, "global_batch_size = 64 ")); // 2 x 4 x 8
    LP_CHECK(contains(l.text, "data_parallel_shard_degree = 8"));
    LP_CHECK(!contains(l.text, "fsdp_reshard_after_forward"));
    LP_CHECK(!contains(l.text, "pipeline_parallel_schedule"));
    LP_CHECK(!hasNote(l, "no ZeRO"));

    s = withLayout(defaultScenario(), 8, 4, 2, 2);
    s.training.zeroStage = 0;
    s.training.recompute = Recompute::Full;
    l = exportLaunchSettings(s, LaunchTarget::Torchtitan);
    LP_CHECK(contains(l.text, "data_parallel_replicate_degree = 2"));
    LP_CHECK(contains(l.text, "data_parallel_shard_degree = 1"));
    LP_CHECK(contains(l.text, "pipeline_parallel_schedule = \"Interleaved1F1B\""));
    LP_CHECK(contains(l.text, "pipeline_parallel_layers_per_stage = 10"));
    LP_CHECK(contains(l.text, "mode = \"full\""));
}

LP_TEST(overlap_switches_off_add_no_flags) {
    // The defaults (all off) are what the pinned files show: no overlap flags, the usual notes.
    const auto meg = exportLaunchSettings(defaultScenario(), LaunchTarget::Megatron);
    for (const char* flag : {"--tp-comm-overlap", "--overlap-grad-reduce", "--overlap-param-gather",
                             "--overlap-p2p-communication", "Communication overlap"})
        LP_CHECK(!contains(meg.text, flag));
    LP_CHECK(hasNote(meg, "reducing gradients after the backward pass"));
    LP_CHECK(!contains(exportLaunchSettings(defaultScenario(), LaunchTarget::Torchtitan).text,
                       "enable_async_tensor_parallel"));
    const auto ds = exportLaunchSettings(defaultScenario(), LaunchTarget::DeepSpeed);
    // The config says what the plan assumes: ZeRO-1 without the DP overlap writes overlap_comm false.
    LP_CHECK(hasNote(ds, "the plan reduces gradients after the backward pass"));
    LP_CHECK(nlohmann::json::parse(ds.text).at("zero_optimization").at("overlap_comm") == false);
    Scenario z0 = defaultScenario();
    z0.training.zeroStage = 0;
    const auto j = nlohmann::json::parse(exportLaunchSettings(z0, LaunchTarget::DeepSpeed).text);
    LP_CHECK(j.at("zero_optimization").at("overlap_comm") == false);
}

LP_TEST(megatron_overlap_flags) {
    Scenario s = defaultScenario(); // TP 8 with sequence parallel, PP 4, ZeRO-1
    s.training.overlapTpComm = Toggle::On;
    s.training.overlapDpComm = Toggle::On;
    auto l = exportLaunchSettings(s, LaunchTarget::Megatron);
    LP_CHECK(contains(l.text, "  # Communication overlap\n"));
    LP_CHECK(contains(l.text, "  --tp-comm-overlap "));
    LP_CHECK(contains(l.text, "  --overlap-grad-reduce "));
    LP_CHECK(contains(l.text, "  --overlap-param-gather ")); // distributed optimizer
    LP_CHECK(hasNote(l, "Transformer Engine"));
    LP_CHECK(!hasNote(l, "reducing gradients after the backward pass"));

    // Without sequence parallelism Megatron-LM refuses --tp-comm-overlap: a comment and a note instead.
    s.training.sequenceParallel = false;
    s.training.zeroStage = 0;
    l = exportLaunchSettings(s, LaunchTarget::Megatron);
    LP_CHECK(!contains(l.text, "  --tp-comm-overlap"));
    LP_CHECK(contains(l.text, "# --tp-comm-overlap left out: it needs --sequence-parallel"));
    LP_CHECK(hasNote(l, "only with --sequence-parallel"));
    LP_CHECK(contains(l.text, "  --overlap-grad-reduce "));
    LP_CHECK(!contains(l.text, "--overlap-param-gather")); // no distributed optimizer at ZeRO-0

    // TP 1: nothing to overlap. ZeRO-3 (FSDP2) overlaps by itself.
    s = withLayout(defaultScenario(), 1, 4, 16);
    s.training.overlapTpComm = Toggle::On;
    s.training.overlapDpComm = Toggle::On;
    s.training.zeroStage = 3;
    l = exportLaunchSettings(s, LaunchTarget::Megatron);
    LP_CHECK(!contains(l.text, "tp-comm-overlap"));
    LP_CHECK(!contains(l.text, "--overlap-grad-reduce"));
}

LP_TEST(megatron_pipeline_overlap_follows_the_virtual_stages) {
    // With virtual stages Megatron-LM overlaps send/receive by default: no flag, a comment.
    Scenario s = withLayout(defaultScenario(), 8, 4, 2, 5);
    s.training.overlapPpComm = true;
    auto l = exportLaunchSettings(s, LaunchTarget::Megatron);
    LP_CHECK(!contains(l.text, "  --overlap-p2p-communication"));
    LP_CHECK(!contains(l.text, "--no-overlap-p2p-communication"));
    LP_CHECK(contains(l.text, "# pipeline send/receive overlap: the default with virtual stages"));
    LP_CHECK(!hasNote(l, "overlap-p2p-communication"));
    // Off with virtual stages: a note says the run overlaps anyway and how to match the plan.
    s.training.overlapPpComm = false;
    l = exportLaunchSettings(s, LaunchTarget::Megatron);
    LP_CHECK(!contains(l.text, "Communication overlap"));
    LP_CHECK(hasNote(l, "--no-overlap-p2p-communication"));
    // On without virtual stages: the 1F1B schedule cannot overlap, a note says so.
    s = defaultScenario();
    s.training.overlapPpComm = true;
    l = exportLaunchSettings(s, LaunchTarget::Megatron);
    LP_CHECK(contains(l.text, "# pipeline send/receive overlap needs virtual stages"));
    LP_CHECK(hasNote(l, "only in the interleaved schedule"));
    // PP 1: nothing at all.
    s = withLayout(defaultScenario(), 8, 1, 8);
    s.training.overlapPpComm = true;
    l = exportLaunchSettings(s, LaunchTarget::Megatron);
    LP_CHECK(!contains(l.text, "pipeline send/receive"));
    LP_CHECK(!hasNote(l, "interleaved schedule"));
}

LP_TEST(megatron_moe_flags_expert_tp_and_ep_overlap) {
    // Mixtral on TP 2 x DP 4 with EP 8: whole experts (expert TP 1) and the EP overlap, both as flags.
    Scenario s = fixtures::mixtral(2, 8, 4);
    auto l = exportLaunchSettings(s, LaunchTarget::Megatron);
    LP_CHECK(contains(l.text, "--expert-model-parallel-size 8"));
    LP_CHECK(contains(l.text, "--expert-tensor-parallel-size 1"));
    LP_CHECK(!contains(l.text, "--overlap-moe-expert-parallel-comm"));
    s.training.overlapEpComm = true;
    l = exportLaunchSettings(s, LaunchTarget::Megatron);
    LP_CHECK(contains(l.text, "--overlap-moe-expert-parallel-comm"));
    const auto tt = exportLaunchSettings(s, LaunchTarget::Torchtitan);
    LP_CHECK(contains(tt.text, "expert_tensor_parallel_degree = 1"));
}

LP_TEST(deepspeed_and_torchtitan_overlap_settings) {
    Scenario s = defaultScenario();
    s.training.overlapDpComm = Toggle::On;
    for (int zero = 0; zero <= 3; ++zero) {
        s.training.zeroStage = zero;
        const auto l = exportLaunchSettings(s, LaunchTarget::DeepSpeed);
        const auto j = nlohmann::json::parse(l.text);
        LP_CHECK(j.at("zero_optimization").at("overlap_comm").get<bool>());
        LP_CHECK_EQ(hasNote(l, "only in its ZeRO optimizer"), zero == 0);
        LP_CHECK(!hasNote(l, "the plan does not assume"));
    }
    s.training.overlapTpComm = Toggle::On;
    LP_CHECK(hasNote(exportLaunchSettings(s, LaunchTarget::DeepSpeed), "DeepSpeed's config has no key"));

    // torchtitan: AsyncTP in [parallelism], and torch.compile, which it needs.
    s = defaultScenario();
    s.training.overlapTpComm = Toggle::On;
    auto l = exportLaunchSettings(s, LaunchTarget::Torchtitan);
    LP_CHECK(contains(l.text, "enable_async_tensor_parallel = true"));
    LP_CHECK(l.text.find("enable_async_tensor_parallel") > l.text.find("[parallelism]"));
    LP_CHECK(l.text.find("enable_async_tensor_parallel") < l.text.find("[activation_checkpoint]"));
    LP_CHECK(contains(l.text, "\n[compile]\nenable = true"));
    // The model is compiled, not the loss: the plan's loss stays what the style assumes.
    LP_CHECK(contains(l.text, "components = [\"model\"]"));
    LP_CHECK(hasNote(l, "torch.compile"));
    s.training.crossEntropy = CrossEntropy::Fused; // a compiled loss as well
    LP_CHECK(contains(exportLaunchSettings(s, LaunchTarget::Torchtitan).text,
                      "components = [\"model\", \"loss\"]"));
    s = withLayout(s, 1, 4, 16); // TP 1: no AsyncTP, the loss alone is compiled
    l = exportLaunchSettings(s, LaunchTarget::Torchtitan);
    LP_CHECK(!contains(l.text, "enable_async_tensor_parallel"));
    LP_CHECK(contains(l.text, "components = [\"loss\"]"));
    s.training.crossEntropy = CrossEntropy::Auto;
    LP_CHECK(!contains(exportLaunchSettings(s, LaunchTarget::Torchtitan).text, "[compile]"));
    // A plan made with torch.compile compiles the model, whatever the TP, and the loss with it: the FSDP
    // style's loss is then the compiled one (torchtitan compiles both).
    s.training.torchCompile = true;
    l = exportLaunchSettings(s, LaunchTarget::Torchtitan);
    LP_CHECK(contains(l.text, "\n[compile]\nenable = true"));
    LP_CHECK(contains(l.text, "components = [\"model\", \"loss\"]"));
    // ... unless the plan's loss is the eager one.
    s.training.crossEntropy = CrossEntropy::Unfused;
    LP_CHECK(contains(exportLaunchSettings(s, LaunchTarget::Torchtitan).text, "components = [\"model\"]"));
}

LP_TEST(cross_entropy_kernel_reaches_each_framework) {
    Scenario s = defaultScenario();
    s.training.crossEntropy = CrossEntropy::Fused;
    LP_CHECK(contains(exportLaunchSettings(s, LaunchTarget::Megatron).text, "--cross-entropy-loss-fusion"));
    s.training.crossEntropy = CrossEntropy::FusedLinear;
    const LaunchSettings m = exportLaunchSettings(s, LaunchTarget::Megatron);
    LP_CHECK(contains(m.text, "--cross-entropy-fusion-impl linear"));
    LP_CHECK(
        hasNote(exportLaunchSettings(s, LaunchTarget::Torchtitan), "no fused linear cross-entropy setting"));
    LP_CHECK(hasNote(exportLaunchSettings(s, LaunchTarget::DeepSpeed), "has no DeepSpeed config key"));
    s.training.crossEntropy = CrossEntropy::Unfused;
    LP_CHECK(hasNote(exportLaunchSettings(s, LaunchTarget::Megatron), "overstates the last stage's memory"));
    // Megatron-LM has no 16-bit loss (compiled, or flash-attn's kernel): its fused kernel is the closest, and
    // the note says it holds more; torchtitan's closest is its compiled loss.
    for (const CrossEntropy sixteenBit : {CrossEntropy::Compiled, CrossEntropy::Fused16}) {
        s.training.crossEntropy = sixteenBit;
        const LaunchSettings compiled = exportLaunchSettings(s, LaunchTarget::Megatron);
        LP_CHECK(contains(compiled.text, "--cross-entropy-loss-fusion"));
        LP_CHECK(hasNote(compiled, "has no 16-bit loss kernel"));
        LP_CHECK(contains(exportLaunchSettings(s, LaunchTarget::Torchtitan).text, "components = [\"loss\"]"));
    }
    // Neither framework computes training metrics from the logits: the plan's passes are named as a cost
    // the exported run will not pay.
    s.training.logitsMetricPasses = 2;
    LP_CHECK(hasNote(exportLaunchSettings(s, LaunchTarget::Megatron), "2 metric passes"));
    LP_CHECK(hasNote(exportLaunchSettings(s, LaunchTarget::Torchtitan), "2 metric passes"));
    LP_CHECK(hasNote(exportLaunchSettings(s, LaunchTarget::DeepSpeed), "2 metric passes"));
    s.training.logitsMetricPasses = 0;
    LP_CHECK(!hasNote(exportLaunchSettings(s, LaunchTarget::Megatron), "metric passes"));
    s.training.crossEntropy = CrossEntropy::Auto;
    LP_CHECK(!contains(exportLaunchSettings(s, LaunchTarget::Megatron).text, "cross-entropy"));
}

LP_TEST(moe_dispatcher_and_routing_groups_reach_megatron) {
    Scenario s = defaultScenario();
    s.model = findModelPreset("deepseek-v3")->model;
    s.layout = Layout{};
    s.layout.pp = 8;
    s.layout.dp = 8;
    s.layout.ep = 8;
    s.cluster.nodes = 8;
    std::string megatron = exportLaunchSettings(s, LaunchTarget::Megatron).text;
    LP_CHECK(contains(megatron, "--moe-token-dispatcher-type alltoall"));
    LP_CHECK(contains(megatron, "--moe-router-num-groups 8"));
    LP_CHECK(contains(megatron, "--moe-router-group-topk 4"));
    s.training.moeDispatcher = MoeDispatcher::Deduplicated;
    megatron = exportLaunchSettings(s, LaunchTarget::Megatron).text;
    LP_CHECK(contains(megatron, "--moe-token-dispatcher-type flex"));
    LP_CHECK(contains(megatron, "--moe-flex-dispatcher-backend deepep"));
    // torchtitan's settings do not name the backend: a note says so.
    bool noted = false;
    for (const std::string& n : exportLaunchSettings(s, LaunchTarget::Torchtitan).notes)
        noted |= contains(n, "DeepEP");
    LP_CHECK(noted);
}

LP_TEST(cp_exchange_reaches_megatron_and_torchtitan) {
    Scenario s = withLayout(defaultScenario(), 8, 1, 2);
    s.layout.cp = 4;
    // Auto: Megatron's p2p ring needs no flag; torchtitan's default rotate method is written out.
    LP_CHECK(!contains(exportLaunchSettings(s, LaunchTarget::Megatron).text, "--cp-comm-type"));
    LP_CHECK(contains(exportLaunchSettings(s, LaunchTarget::Torchtitan).text,
                      "context_parallel_rotate_method = \"allgather\""));
    s.training.cpExchange = CpExchange::Ring;
    LP_CHECK(contains(exportLaunchSettings(s, LaunchTarget::Torchtitan).text,
                      "context_parallel_rotate_method = \"alltoall\""));
    LP_CHECK(!contains(exportLaunchSettings(s, LaunchTarget::Megatron).text, "--cp-comm-type"));
    s.training.cpExchange = CpExchange::AllGather;
    LP_CHECK(contains(exportLaunchSettings(s, LaunchTarget::Megatron).text, "--cp-comm-type all_gather"));
    // Without CP neither appears.
    s.layout.cp = 1;
    LP_CHECK(!contains(exportLaunchSettings(s, LaunchTarget::Megatron).text, "--cp-comm-type"));
    LP_CHECK(!contains(exportLaunchSettings(s, LaunchTarget::Torchtitan).text, "rotate_method"));
}

LP_TEST(user_names_cannot_break_out_of_comments) {
    Scenario s = defaultScenario();
    s.name = "evil\"\n$(rm -rf ~) `id` \\";
    s.model.name = "model\nwith\nlines";
    for (auto t : kLaunchTargets) {
        const auto text = exportLaunchSettings(s, t).text;
        LP_CHECK(!contains(text, "$("));
        LP_CHECK(!contains(text, "`"));
        for (std::size_t pos = 0; (pos = text.find('\n', pos)) != std::string::npos; ++pos) {
            // every line is a comment, an argument, a key, a table, JSON, or blank: no stray "rm"
            const auto end = text.find('\n', pos + 1);
            const std::string line =
                text.substr(pos + 1, end == std::string::npos ? std::string::npos : end - pos - 1);
            LP_CHECK(line.rfind("with", 0) != 0 && line.rfind("lines", 0) != 0);
        }
    }
}

LP_TEST(gradient_format_reaches_every_framework) {
    // bf16 on A100 with the format on auto: Megatron's own default is fp32 main grads, no flag.
    Scenario s = defaultScenario();
    s.training.gradPrecision = GradPrecision::Auto;
    s.cluster.gpu = findGpuPreset("a100-sxm-80gb")->gpu;
    LP_CHECK(exportLaunchSettings(s, LaunchTarget::Megatron).text.find("--grad-reduce-in-bf16") ==
             std::string::npos);
    LP_CHECK(exportLaunchSettings(s, LaunchTarget::DeepSpeed).text.find("communication_data_type") ==
             std::string::npos);
    // On H100 auto takes NVIDIA's recipes' 16-bit reduction, which Megatron-LM needs the flag for.
    Scenario h100 = defaultScenario();
    h100.training.gradPrecision = GradPrecision::Auto;
    LP_CHECK(exportLaunchSettings(h100, LaunchTarget::Megatron).text.find("--grad-reduce-in-bf16") !=
             std::string::npos);
    s.training.gradPrecision = GradPrecision::Half;
    LP_CHECK(exportLaunchSettings(s, LaunchTarget::Megatron).text.find("--grad-reduce-in-bf16") !=
             std::string::npos);
    LP_CHECK(nlohmann::json::parse(exportLaunchSettings(s, LaunchTarget::DeepSpeed).text)
                 .at("communication_data_type") == "bf16");
    LP_CHECK(exportLaunchSettings(s, LaunchTarget::Torchtitan)
                 .text.find("mixed_precision_reduce = \"bfloat16\"") != std::string::npos);
    s.training.precision = Precision::Fp16;
    s.training.gradPrecision = GradPrecision::Fp32;
    LP_CHECK(
        exportLaunchSettings(s, LaunchTarget::Megatron).text.find("--accumulate-allreduce-grads-in-fp32") !=
        std::string::npos);
    LP_CHECK(nlohmann::json::parse(exportLaunchSettings(s, LaunchTarget::DeepSpeed).text)
                 .at("communication_data_type") == "fp32");
}

LP_TEST(launch_file_opens_with_the_framework_and_the_scenario) {
    Scenario s = defaultScenario();
    s.name = "My \"run\"";
    detail::LaunchFile file(s, LaunchTarget::Torchtitan, "torchtitan.toml", "settings");
    file.raw("[training]\n");
    const LaunchSettings out = file.take();
    LP_CHECK(out.target == LaunchTarget::Torchtitan);
    LP_CHECK(out.fileName == "torchtitan.toml");
    LP_CHECK(out.text == "# torchtitan settings for \"My 'run'\", written by Layout Planner.\n[training]\n");
    LP_CHECK(out.notes.empty());
}

LP_TEST_MAIN()
