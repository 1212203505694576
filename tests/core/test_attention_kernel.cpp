// The attention kernel a user names (docs/estimation.md, "Attention kernels"): each kernel generation's
// curve by GPU, sequence length and head size, forward and backward, from the FlashAttention-3 paper; auto
// keeps the style's kernel; FlashAttention-3 off Hopper falls back with a warning naming the field.
#include "IoTestSupport.h"
#include "TestHarness.h"
#include "core/estimate/Evaluate.h"
#include "core/estimate/ExecutionStyle.h"
#include "core/export/LaunchExport.h"
#include "core/io/Presets.h"
#include "core/io/ScenarioJson.h"
#include "core/model/Enums.h"
#include "core/report/Report.h"
#include "core/report/ReportMarkdown.h"

#include <string>

using namespace lp::core;

namespace {

// A 7B-class MHA GELU model (32 heads of 128, no GQA) under the FSDP style on one 8-GPU node, one sequence
// per GPU, full recompute: the long-sequence regime.
Scenario mhaGeluOnOneNode(const char* gpu, int seqLen, AttentionKernel kernel) {
    Scenario s = defaultScenario();
    s.model = findModelPreset("llama3.1-8b")->model;
    s.model.kvHeads = s.model.heads;
    s.model.mlp = MlpKind::Gelu;
    s.model.ffnHidden = 4 * s.model.hidden;
    s.model.seqLen = seqLen;
    s.cluster.gpu = findGpuPreset(gpu)->gpu;
    s.cluster.nodes = 1;
    s.layout = Layout{};
    s.layout.dp = 8;
    s.layout.microBatch = 1;
    s.training.zeroStage = 3;
    s.training.recompute = Recompute::Full;
    s.training.executionStyle = ExecutionStyle::Fsdp;
    s.training.attentionKernel = kernel;
    return s;
}

bool hasWarningNaming(const Plan& p, DiagnosticId id, const std::string& words) {
    for (const Diagnostic& d : p.diagnostics)
        if (d.id == id && diagnosticMessage(d).find(words) != std::string::npos)
            return true;
    return false;
}

} // namespace

LP_TEST(attention_kernel_names_parse_with_the_spellings_people_use) {
    LP_CHECK(parseAttentionKernel("auto") == AttentionKernel::Auto);
    LP_CHECK(parseAttentionKernel("flash_attention_2") == AttentionKernel::FlashAttention2);
    LP_CHECK(parseAttentionKernel("flash-attention-3") == AttentionKernel::FlashAttention3);
    LP_CHECK(parseAttentionKernel("FA3") == AttentionKernel::FlashAttention3);
    LP_CHECK(parseAttentionKernel("te") == AttentionKernel::Cudnn);
    LP_CHECK(parseAttentionKernel("math") == AttentionKernel::Unfused);
    LP_CHECK(!parseAttentionKernel("flash_attention_4"));
    for (AttentionKernel k :
         {AttentionKernel::Auto, AttentionKernel::FlashAttention2, AttentionKernel::FlashAttention3,
          AttentionKernel::Cudnn, AttentionKernel::Unfused})
        LP_CHECK(parseAttentionKernel(toString(k)) == k);
}

LP_TEST(auto_keeps_the_styles_kernel_and_plans_as_before) {
    // FSDP: torch SDPA's FlashAttention-2; Megatron: the GPU's fused attention; no flash: unfused.
    Scenario s = mhaGeluOnOneNode("h100-sxm-80gb", 8192, AttentionKernel::Auto);
    const KernelEfficiencies& k = findGpuPreset("h100-sxm-80gb")->profile.kernels;
    LP_CHECK(attentionKernelOf(s.training, ExecutionStyle::Fsdp, k) == AttentionKernel::FlashAttention2);
    LP_CHECK(attentionKernelOf(s.training, ExecutionStyle::Megatron, k) == AttentionKernel::Cudnn);
    const Plan autoPlan = evaluate(s);
    Scenario fa2 = s;
    fa2.training.attentionKernel = AttentionKernel::FlashAttention2;
    LP_CHECK(autoPlan.valid);
    LP_CHECK_NEAR(evaluate(fa2).time.stepSeconds, autoPlan.time.stepSeconds, 1e-15);
    Scenario meg = s;
    meg.training.executionStyle = ExecutionStyle::Megatron;
    Scenario megCudnn = meg;
    megCudnn.training.attentionKernel = AttentionKernel::Cudnn;
    LP_CHECK_NEAR(evaluate(megCudnn).time.stepSeconds, evaluate(meg).time.stepSeconds, 1e-15);
    Scenario noFlash = s;
    noFlash.training.flashAttention = false;
    LP_CHECK(!fusedAttention(noFlash.training));
    LP_CHECK(attentionKernelOf(noFlash.training, ExecutionStyle::Fsdp, k) == AttentionKernel::Unfused);
    // A named fused kernel runs whatever flash_attention says; unfused turns it off.
    noFlash.training.attentionKernel = AttentionKernel::FlashAttention2;
    LP_CHECK(fusedAttention(noFlash.training));
    s.training.attentionKernel = AttentionKernel::Unfused;
    LP_CHECK(!fusedAttention(s.training));
}

LP_TEST(flash_attention_3_curve_gives_the_papers_h100_figures_forward_and_backward) {
    // FlashAttention-3 paper, fig. 5: causal forward at heads of 128 on H100, 292 TFLOP/s at 512 tokens and
    // 616 at 16K; the fit limit x s / (s + 610) with a limit of 0.646 of 989 TFLOP/s.
    auto fa3 = [](int seq) {
        return evaluate(mhaGeluOnOneNode("h100-sxm-80gb", seq, AttentionKernel::FlashAttention3))
            .intermediates;
    };
    const Intermediates at16k = fa3(16384), at512 = fa3(512), at64k = fa3(65536);
    LP_CHECK(at16k.attentionKernel == AttentionKernel::FlashAttention3);
    LP_CHECK_NEAR(at16k.flashFwdEfficiency * 989.0, 616.0, 616.0 * 0.02);
    LP_CHECK_NEAR(at512.attentionLengthFactorFwd, 512.0 / (512.0 + 610.0), 1e-9);
    LP_CHECK_NEAR(at512.attentionLengthFactorBwd, 512.0 / (512.0 + 420.0), 1e-9);
    LP_CHECK(at512.flashFwdEfficiency < 0.5 * at16k.flashFwdEfficiency);
    // Backward below forward at long lengths (546 vs 639 TFLOP/s limits), closer at short ones.
    LP_CHECK(at16k.flashBwdEfficiency < at16k.flashFwdEfficiency);
    LP_CHECK(at512.flashBwdEfficiency / at512.flashFwdEfficiency >
             at16k.flashBwdEfficiency / at16k.flashFwdEfficiency);
    // Beyond 16K the curve is flat within 3%.
    LP_CHECK(at64k.flashFwdEfficiency > at16k.flashFwdEfficiency &&
             at64k.flashFwdEfficiency < 1.03 * at16k.flashFwdEfficiency);
}

LP_TEST(flash_attention_3_outruns_flash_attention_2_on_h100_at_every_length) {
    for (int seq : {2048, 8192, 32768}) {
        const Plan fa2 = evaluate(mhaGeluOnOneNode("h100-sxm-80gb", seq, AttentionKernel::FlashAttention2));
        const Plan fa3 = evaluate(mhaGeluOnOneNode("h100-sxm-80gb", seq, AttentionKernel::FlashAttention3));
        LP_CHECK(fa2.valid && fa3.valid);
        LP_CHECK(fa3.intermediates.flashFwdEfficiency > 1.4 * fa2.intermediates.flashFwdEfficiency);
        LP_CHECK(fa3.intermediates.flashBwdEfficiency > 1.4 * fa2.intermediates.flashBwdEfficiency);
        LP_CHECK(fa3.time.stepSeconds < fa2.time.stepSeconds);
    }
}

LP_TEST(flash_attention_3_heads_of_64_run_at_the_papers_share_of_heads_of_128) {
    // FlashAttention-3 paper: heads of 64 at 473 / 616 = 0.77 of heads of 128 forward, 474 / 561 = 0.85
    // backward; the score overhead 0.43 gives 1.43 / 1.86 and 1.172 / 1.344.
    Scenario s = mhaGeluOnOneNode("h100-sxm-80gb", 16384, AttentionKernel::FlashAttention3);
    s.model.heads = s.model.kvHeads = 64; // heads of 64
    const Intermediates im = evaluate(s).intermediates;
    LP_CHECK_NEAR(im.attentionHeadSize, 64.0, 1e-9);
    LP_CHECK_NEAR(im.attentionHeadFactorFwd, 1.43 / 1.86, 1e-9);
    LP_CHECK_NEAR(im.attentionHeadFactorFwd, 0.77, 0.01);
    LP_CHECK_NEAR(im.attentionHeadFactorBwd, 1.172 / 1.344, 1e-9);
    LP_CHECK_NEAR(im.attentionHeadFactorBwd, 0.85, 0.03);
}

LP_TEST(flash_attention_3_on_a100_falls_back_to_its_fused_attention_with_a_message_naming_the_field) {
    const Plan fa3 = evaluate(mhaGeluOnOneNode("a100-sxm-80gb", 8192, AttentionKernel::FlashAttention3));
    const Plan cudnn = evaluate(mhaGeluOnOneNode("a100-sxm-80gb", 8192, AttentionKernel::Cudnn));
    LP_CHECK(fa3.valid);
    LP_CHECK(fa3.intermediates.attentionKernel == AttentionKernel::Cudnn);
    LP_CHECK_NEAR(fa3.time.stepSeconds, cudnn.time.stepSeconds, 1e-15);
    LP_CHECK(hasWarningNaming(fa3, DiagnosticId::AttentionKernelNotSupported, "attention_kernel"));
    LP_CHECK(diagnosticIdString(DiagnosticId::AttentionKernelNotSupported) ==
             "attention_kernel_not_supported");
    LP_CHECK(!cudnn.has(DiagnosticId::AttentionKernelNotSupported));
    LP_CHECK(!evaluate(mhaGeluOnOneNode("h100-sxm-80gb", 8192, AttentionKernel::FlashAttention3))
                  .has(DiagnosticId::AttentionKernelNotSupported));
    // Only the Hopper presets carry FlashAttention-3 figures.
    for (const GpuPreset& g : gpuPresets()) {
        const bool hopper =
            g.gpu.id.starts_with("h100") || g.gpu.id.starts_with("h200") || g.gpu.id.starts_with("h800");
        LP_CHECK((g.profile.kernels.fa3AttentionFwdEfficiency > 0) == hopper);
    }
}

LP_TEST(the_causal_kernels_time_does_not_depend_on_how_mfu_counts_attention) {
    // attention_flops only says how MFU counts the scores; the kernel skips the masked half in both.
    Scenario full = mhaGeluOnOneNode("h100-sxm-80gb", 32768, AttentionKernel::Auto);
    Scenario causal = full;
    full.training.attentionFlops = AttentionFlops::Full;
    causal.training.attentionFlops = AttentionFlops::Causal;
    const Plan a = evaluate(full), b = evaluate(causal);
    LP_CHECK_NEAR(a.time.stepSeconds, b.time.stepSeconds, 1e-15);
    LP_CHECK(b.mfu < a.mfu);
}

LP_TEST(at_32k_tokens_attention_takes_a_larger_share_of_the_step) {
    // Attention work per token grows with s, the GEMMs' does not: a 7B MHA model's attention core takes
    // more of the layer at 32K than at 4K, under every kernel.
    for (AttentionKernel k : {AttentionKernel::Auto, AttentionKernel::FlashAttention3}) {
        auto share = [&](int seq) {
            const Plan p = evaluate(mhaGeluOnOneNode("h100-sxm-80gb", seq, k));
            const double perToken = p.intermediates.attentionCoreFwdSeconds / seq;
            return perToken / (p.time.stepSeconds / (8.0 * seq)); // per micro batch of one sequence
        };
        LP_CHECK(share(32768) > 3.0 * share(4096));
    }
}

LP_TEST(attention_kernel_reads_from_scenario_files_and_names_the_field_when_wrong) {
    const auto read =
        scenarioFromJson(scenarioText(R"("training": {"attention_kernel": "flash_attention_3"})"));
    LP_CHECK(read.has_value());
    if (read)
        LP_CHECK(read->training.attentionKernel == AttentionKernel::FlashAttention3);
    const auto bad =
        scenarioFromJson(scenarioText(R"("training": {"attention_kernel": "flash_attention_4"})"));
    LP_CHECK(!bad.has_value());
    if (!bad)
        LP_CHECK(hasError(bad.error(), "$.training.attention_kernel", "flash_attention_3"));
    // Written back under its key, and read again the same.
    Scenario s = defaultScenario();
    s.training.attentionKernel = AttentionKernel::Cudnn;
    const auto back = scenarioFromJson(scenarioToJson(s));
    LP_CHECK(back && back->training.attentionKernel == AttentionKernel::Cudnn);
}

// One wording of the kernel everywhere: the report, the validation table and the launch settings read the
// attention_kernel the plan timed, not the older on/off switch.
LP_TEST(reports_and_launch_settings_name_the_kernel_the_plan_times) {
    Scenario s = mhaGeluOnOneNode("h100-sxm-80gb", 8192, AttentionKernel::FlashAttention3);
    s.training.executionStyle = ExecutionStyle::Megatron;
    const Plan fa3 = evaluate(s);
    LP_CHECK(fa3.intermediates.attentionKernel == AttentionKernel::FlashAttention3);
    LP_CHECK(attentionKernelText(s.training, fa3.intermediates.attentionKernel) == "FlashAttention-3");
    const std::string markdown = reportToMarkdown(makeReport(s, builtinProfile(s.cluster.gpu), fa3));
    LP_CHECK(markdown.find("| Attention kernel | FlashAttention-3 |") != std::string::npos);
    LP_CHECK(markdown.find("| Flash attention |") == std::string::npos);
    LP_CHECK(exportLaunchSettings(s, LaunchTarget::Megatron).text.find("--attention-backend flash") !=
             std::string::npos);

    s.training.attentionKernel = AttentionKernel::Cudnn;
    LP_CHECK(exportLaunchSettings(s, LaunchTarget::Megatron).text.find("--attention-backend fused") !=
             std::string::npos);
    s.training.attentionKernel = AttentionKernel::Unfused;
    const Plan unfused = evaluate(s);
    LP_CHECK(attentionKernelText(s.training, unfused.intermediates.attentionKernel) == "unfused attention");
    LP_CHECK(exportLaunchSettings(s, LaunchTarget::Megatron).text.find("--attention-backend unfused") !=
             std::string::npos);

    s.training.attentionKernel = AttentionKernel::Auto;
    const Plan autoPlan = evaluate(s);
    LP_CHECK(attentionKernelText(s.training, autoPlan.intermediates.attentionKernel) ==
             "cuDNN fused attention (framework default)");

    Scenario a100 = mhaGeluOnOneNode("a100-sxm-80gb", 8192, AttentionKernel::FlashAttention3);
    const Plan fellBack = evaluate(a100);
    LP_CHECK(attentionKernelText(a100.training, fellBack.intermediates.attentionKernel) ==
             "cuDNN fused attention (FlashAttention-3 needs Hopper)");
}

LP_TEST_MAIN()
