// The attention core without flash attention (docs/estimation.md, section 6): the scores pass through HBM
// between the two batched GEMMs (a roofline at small head sizes), Megatron's fused softmax kernel runs only
// on the shapes it supports and falls back to PyTorch's fp32 softmax otherwise; the loss's passes over the
// logits; and TP groups that cross nodes drive every member's network card.
#include "TestHarness.h"
#include "core/estimate/Evaluate.h"
#include "core/estimate/ExecutionStyle.h"
#include "core/estimate/Explain.h"
#include "core/estimate/Precision.h"
#include "core/io/Presets.h"

#include <cmath>
#include <string>

using namespace lp::core;

namespace {

// A GPT block as 2021-22 Megatron trained it on A100: GeLU MLP, LayerNorm, biases, learned positions,
// dropout, no flash attention, fp16, full recompute; 16 heads, sequence 1024, on one 8-GPU node.
Scenario gptOnA100(int hidden, int tp, int microBatch) {
    Scenario s = defaultScenario();
    s.model = findModelPreset("gpt3-175b")->model;
    s.model.layers = 24;
    s.model.hidden = hidden;
    s.model.heads = 16;
    s.model.kvHeads = 16;
    s.model.ffnHidden = 4 * hidden;
    s.model.seqLen = 1024;
    s.cluster = makeCluster(*findClusterPreset("dgx-a100"), 1);
    s.training.flashAttention = false;
    s.training.precision = Precision::Fp16;
    s.training.recompute = Recompute::Full;
    s.training.zeroStage = 0;
    s.training.executionStyle = ExecutionStyle::Megatron;
    s.layout = Layout{};
    s.layout.tp = tp;
    s.layout.dp = 8 / tp;
    s.layout.microBatch = microBatch;
    s.layout.accumulation = 8;
    return s;
}

// Llama 3.1 8B on one 8-GPU node of `gpu`, pure data parallelism at micro batch 1, in `style`.
Scenario llama8bOnOneNode(const char* gpu, ExecutionStyle style, int zeroStage = 3) {
    Scenario s = defaultScenario();
    s.model = findModelPreset("llama3.1-8b")->model;
    s.cluster.gpu = findGpuPreset(gpu)->gpu;
    s.cluster.nodes = 1;
    s.layout = Layout{};
    s.layout.dp = 8;
    s.layout.microBatch = 1;
    s.training.zeroStage = zeroStage;
    s.training.executionStyle = style;
    return s;
}

} // namespace

LP_TEST(megatron_fused_softmax_takes_only_the_shapes_its_kernel_supports) {
    // micro batch x heads per TP rank must be a multiple of 4 (8 for sequences up to 128), 16 < s <= 4096.
    LP_CHECK(megatronFusedSoftmaxFits(1, 4, 1024));
    LP_CHECK(megatronFusedSoftmaxFits(2, 2, 1024));
    LP_CHECK(!megatronFusedSoftmaxFits(1, 2, 1024)); // 16 heads on TP 8 at micro batch 1
    LP_CHECK(!megatronFusedSoftmaxFits(3, 6, 2048)); // 18
    LP_CHECK(megatronFusedSoftmaxFits(2, 6, 2048));  // 12
    LP_CHECK(!megatronFusedSoftmaxFits(1, 4, 128));  // 4 rows, the kernel's block holds 8 at s <= 128
    LP_CHECK(megatronFusedSoftmaxFits(2, 4, 128));
    LP_CHECK(!megatronFusedSoftmaxFits(4, 4, 8192)); // beyond 4096
    LP_CHECK(!megatronFusedSoftmaxFits(4, 4, 16));
    LP_CHECK(!megatronFusedSoftmaxFits(4, 4, 1026)); // not a multiple of 4
}

LP_TEST(an_unsupported_shape_falls_back_to_an_fp32_softmax_that_costs_time_and_memory) {
    const Scenario odd = gptOnA100(2048, 8, 1);  // 16 heads / TP 8 x micro batch 1 = 2 rows
    const Scenario even = gptOnA100(2048, 8, 2); // 4 rows: fused
    const Plan p = evaluate(odd), q = evaluate(even);
    LP_CHECK(p.valid && q.valid);
    LP_CHECK(p.has(DiagnosticId::UnfusedSoftmax));
    LP_CHECK(!q.has(DiagnosticId::UnfusedSoftmax));
    for (const Diagnostic& d : p.diagnostics)
        if (d.id == DiagnosticId::UnfusedSoftmax) {
            LP_CHECK(d.costSeconds > 0.0 && d.costSeconds < p.time.stepSeconds);
            const auto& figures = std::get<diagnostic::UnfusedSoftmax>(d.figures);
            LP_CHECK_NEAR(figures.rows, 2.0, 1e-12); // the rows the kernel sees
            LP_CHECK(figures.seqLen == odd.model.seqLen);
            LP_CHECK(!diagnosticMessage(d).empty() && !diagnosticSuggestion(d).empty());
        }
    // Without recompute the fallback's softmax output is saved in fp32: more activation memory than the
    // fused kernel's 16-bit output, per micro batch.
    Scenario oddKeep = odd, fusedKeep = odd;
    oddKeep.training.recompute = Recompute::None;
    fusedKeep.training.recompute = Recompute::None;
    fusedKeep.training.flashAttention = true; // no scores kept at all
    const Plan keep = evaluate(oddKeep);
    LP_CHECK(keep.intermediates.activationBytesPerLayer >
             evaluate(fusedKeep).intermediates.activationBytesPerLayer);
    Scenario oddSelective = oddKeep;
    oddSelective.training.recompute = Recompute::Selective; // drops the scores: no difference left
    Scenario evenSelective = gptOnA100(2048, 8, 2);
    evenSelective.training.recompute = Recompute::Selective;
    LP_CHECK_NEAR(evaluate(oddSelective).intermediates.activationBytesPerLayer,
                  evaluate(evenSelective).intermediates.activationBytesPerLayer / 2.0, 1.0);
    // The precision table says which format the scores take.
    auto attentionRow = [](const Scenario& sc) {
        for (const TensorPrecision& r : precisionTable(sc))
            if (r.tensor.rfind("Attention core", 0) == 0)
                return r;
        return TensorPrecision{};
    };
    LP_CHECK(unfusedSoftmaxFallback(odd) && !unfusedSoftmaxFallback(even));
    LP_CHECK_NEAR(attentionRow(odd).bytes, 4.0, 1e-12);
    LP_CHECK(attentionRow(odd).format.find("fp32 softmax") != std::string::npos);
    LP_CHECK_NEAR(attentionRow(even).bytes, 2.0, 1e-12);
    // Flash attention, or the FSDP style (its own eager softmax), never take Megatron's kernel rules.
    Scenario flash = odd;
    flash.training.flashAttention = true;
    LP_CHECK(!evaluate(flash).has(DiagnosticId::UnfusedSoftmax));
    Scenario fsdp = odd;
    fsdp.training.executionStyle = ExecutionStyle::Fsdp;
    LP_CHECK(!evaluate(fsdp).has(DiagnosticId::UnfusedSoftmax));
}

LP_TEST(the_fallback_adds_host_kernels_to_every_forward_and_backward) {
    // Host-bound shape (1.3B on TP 8): the step grows by more than the fallback's GPU traffic alone.
    const Scenario odd = gptOnA100(2048, 8, 1);
    Scenario noHost = odd;
    const Plan p = evaluate(odd);
    double cost = 0;
    for (const Diagnostic& d : p.diagnostics)
        if (d.id == DiagnosticId::UnfusedSoftmax)
            cost = d.costSeconds;
    // Four extra kernels in every forward pass (the forward and the recomputed forward) and four in the
    // backward, each at one kernel's host cost: 1/20 of a layer pass in the Megatron style.
    const StyleTraits& st = styleTraits(ExecutionStyle::Megatron);
    LP_CHECK_NEAR(st.hostKernelsPerLayerPass, 20.0, 0.0);
    const double extraKernelsPerLayer = 3.0 * kUnfusedSoftmaxExtraKernels; // forward, recompute, backward
    const double extraHostPerStep = odd.layout.accumulation * odd.model.layers * extraKernelsPerLayer *
                                    st.hostSecondsPerLayerPass / st.hostKernelsPerLayerPass;
    // The host runs ahead of the GPU part of the time, so a quarter or so of that hides; the fallback's GPU
    // traffic is small at this size.
    LP_CHECK(cost > 0.6 * extraHostPerStep);
    LP_CHECK(cost < 1.2 * extraHostPerStep);
}

LP_TEST(scores_through_hbm_bound_the_attention_gemms_at_small_head_sizes) {
    // The same model (hidden 1024, same FLOPs) with 16 heads of 64 and 8 heads of 128 on one GPU: the two
    // batched GEMMs do the same FLOPs, but heads of 64 write and read twice the scores, so the attention
    // core takes longer. The roofline at 4 bytes per score: with heads of 64 the GEMMs are memory-bound.
    Scenario h64 = gptOnA100(1024, 1, 8), h128 = h64;
    h128.model.heads = h128.model.kvHeads = 8;
    const Plan a = evaluate(h64), b = evaluate(h128);
    LP_CHECK(a.valid && b.valid);
    LP_CHECK_NEAR(a.intermediates.attentionFlopsPerToken, b.intermediates.attentionFlopsPerToken,
                  1e-6 * b.intermediates.attentionFlopsPerToken);
    LP_CHECK(a.intermediates.attentionCoreFwdSeconds > b.intermediates.attentionCoreFwdSeconds);
    const double scores = 8.0 * 16 * 1024 * 1024; // micro batch x heads x s x s, one layer
    const double hbm = h64.cluster.gpu.hbmBandwidth * builtinProfile(h64.cluster.gpu).kernels.hbmEfficiency;
    LP_CHECK_NEAR(a.intermediates.attentionCoreFwdSeconds, 4.0 * scores / hbm,
                  1e-9); // memory-bound at heads of 64
    // Heads of 128 move half the scores for the same FLOPs: at most the GEMM time or that traffic.
    LP_CHECK(b.intermediates.attentionCoreFwdSeconds >= 4.0 * (scores / 2.0) / hbm - 1e-12);
    LP_CHECK(b.intermediates.attentionCoreFwdSeconds < 0.75 * a.intermediates.attentionCoreFwdSeconds);
}

LP_TEST(the_loss_passes_over_the_logits_as_its_kernel_does) {
    // A small model with GPT-2's 50257-token vocabulary: per token the logits outweigh a layer's
    // activations, so the loss's memory traffic shows in the step. Megatron's vocab-parallel loss in fp32
    // makes about 52 bytes of traffic per logit, an eager fp32 F.cross_entropy about 44, a fused kernel 6.
    LP_CHECK_NEAR(lossTrafficBytesPerLogit(CrossEntropy::Auto, ExecutionStyle::Megatron, 1), 52.0, 1e-12);
    LP_CHECK_NEAR(lossTrafficBytesPerLogit(CrossEntropy::Auto, ExecutionStyle::Fsdp, 1), 44.0, 1e-12);
    LP_CHECK_NEAR(lossTrafficBytesPerLogit(CrossEntropy::Unfused, ExecutionStyle::Megatron, 1), 44.0, 1e-12);
    LP_CHECK(lossTrafficBytesPerLogit(CrossEntropy::Fused, ExecutionStyle::Megatron, 1) <
             lossTrafficBytesPerLogit(CrossEntropy::Unfused, ExecutionStyle::Fsdp, 1));
    Scenario megatron = gptOnA100(1024, 1, 8), fused = megatron;
    fused.training.crossEntropy = CrossEntropy::Fused;
    const Plan a = evaluate(megatron), b = evaluate(fused);
    LP_CHECK(a.valid && b.valid);
    LP_CHECK_NEAR(a.modelFlopsPerStep, b.modelFlopsPerStep, 1e-9 * a.modelFlopsPerStep);
    // The step differs by the traffic: (52 - 6) bytes x tokens x vocabulary per micro batch, memory-bound.
    const double logits = 8.0 * 1024 * 50257; // micro batch x sequence x vocabulary, TP 1
    const double hbm =
        megatron.cluster.gpu.hbmBandwidth * builtinProfile(megatron.cluster.gpu).kernels.hbmEfficiency;
    const double perMicroBatch = (52.0 - 6.0) * logits / hbm;
    LP_CHECK(a.time.stepSeconds - b.time.stepSeconds > 0.5 * megatron.layout.accumulation * perMicroBatch);
    LP_CHECK(a.time.stepSeconds - b.time.stepSeconds < 1.01 * megatron.layout.accumulation * perMicroBatch);
}

LP_TEST(tp_groups_across_nodes_cross_on_every_members_network_card) {
    // TP 16 on two 8-GPU DGX A100 nodes: 8 members per node, each with its own 25 GB/s card, so the
    // collectives see up to 8 x 25 GB/s (capped by NVLink), not one card's 25 GB/s.
    Scenario s = gptOnA100(4096, 8, 4);
    s.model.heads = s.model.kvHeads = 32;
    s.cluster.nodes = 2;
    s.layout.tp = 16;
    s.layout.dp = 1;
    const Plan wide = evaluate(s);
    LP_CHECK(wide.valid && wide.has(DiagnosticId::TpOverSlowLinks));
    const double card = s.cluster.gpu.networkBandwidth;
    const double eff =
        builtinProfile(s.cluster.gpu).networkBusEfficiency.at(wide.intermediates.tpMessageBytes);
    LP_CHECK_NEAR(wide.intermediates.tpBusBandwidth, 8.0 * card * eff, 1e-6 * card);
    // One 200 Gb/s card per node (the GPU's share: 25/8 GB/s) leaves the group one card's worth.
    Scenario thin = s;
    thin.cluster.gpu.networkBandwidth = card / 8.0;
    const Plan slow = evaluate(thin);
    LP_CHECK_NEAR(slow.intermediates.tpBusBandwidth, card * eff, 1e-6 * card);
    LP_CHECK(slow.time.tpCommSeconds > 4.0 * wide.time.tpCommSeconds);
    // Inside one node NVLink carries it.
    Scenario inside = s;
    inside.cluster.nodes = 1;
    inside.layout.tp = 8;
    LP_CHECK(!evaluate(inside).has(DiagnosticId::TpOverSlowLinks));
}

LP_TEST(flash_attention_runs_at_the_profile_efficiency_and_blackwell_ultra_runs_it_faster) {
    // Llama 3.1 70B at 8K on one 4-GPU tray (TP 4): only the GPU differs between the two plans.
    auto on = [](const char* cluster) {
        Scenario s = defaultScenario();
        s.model = findModelPreset("llama3.1-70b")->model;
        s.model.seqLen = 8192;
        s.cluster = makeCluster(*findClusterPreset(cluster), 1);
        s.layout = Layout{};
        s.layout.tp = 4;
        s.layout.microBatch = 1;
        s.layout.accumulation = 4;
        s.training.zeroStage = 1;
        s.training.sequenceParallel = true;
        return std::pair{s, evaluate(s)};
    };
    const auto [s200, gb200] = on("gb200-nvl72");
    const auto [s300, gb300] = on("gb300-nvl72");
    // Large kernels: the plan's attention runs at the profile's efficiency (forward and backward).
    LP_CHECK(gb200.intermediates.flashFwdEfficiency > 0.9 * 0.30 &&
             gb200.intermediates.flashFwdEfficiency <= 0.30 + 1e-12);
    LP_CHECK(gb200.intermediates.flashBwdEfficiency > 0.9 * 0.27 &&
             gb200.intermediates.flashBwdEfficiency <= 0.27 + 1e-12);
    // Same peaks, same GEMMs: Blackwell Ultra's doubled exponential units make the attention core 4/3 faster.
    LP_CHECK_NEAR(gb200.intermediates.attentionCoreFwdSeconds / gb300.intermediates.attentionCoreFwdSeconds,
                  0.40 / 0.30, 1e-9);
    LP_CHECK(gb300.time.computeSeconds < gb200.time.computeSeconds);
    // The explanation of the compute time names the attention kernels' efficiency.
    const auto e = explainFigure(s300, gb300, "time.compute");
    LP_CHECK(e.has_value());
    if (e) {
        LP_CHECK(e->substituted.find("flash attention") != std::string::npos);
        const std::string shares =
            std::to_string(static_cast<int>(std::lround(100 * gb300.intermediates.flashFwdEfficiency))) +
            "% (forward) and " +
            std::to_string(static_cast<int>(std::lround(100 * gb300.intermediates.flashBwdEfficiency))) +
            "% (backward)";
        LP_CHECK(e->substituted.find(shares) != std::string::npos);
        LP_CHECK(e->words.find("exponentials") != std::string::npos);
    }
}

LP_TEST(torch_sdpa_runs_flash_attention_2_forward_where_the_gpu_has_faster_fused_attention) {
    // Llama 3.1 8B at 8K on one node, the same layout in both styles: the FSDP style's attention goes through
    // torch SDPA's FlashAttention-2 kernels (0.34 of an H100's peak forward, FlashAttention-3 paper), the
    // Megatron style through Transformer Engine's fused attention (the profile's 0.40); backward the same.
    auto plan = [](const char* gpu, ExecutionStyle style) {
        Scenario s = llama8bOnOneNode(gpu, style);
        s.model.seqLen = 8192;
        return evaluate(s);
    };
    const Plan fsdp = plan("h100-sxm-80gb", ExecutionStyle::Fsdp),
               meg = plan("h100-sxm-80gb", ExecutionStyle::Megatron);
    LP_CHECK(fsdp.valid && meg.valid);
    LP_CHECK_NEAR(meg.intermediates.flashFwdEfficiency / fsdp.intermediates.flashFwdEfficiency, 0.40 / 0.34,
                  1e-9);
    LP_CHECK_NEAR(meg.intermediates.flashBwdEfficiency, fsdp.intermediates.flashBwdEfficiency, 1e-12);
    LP_CHECK_NEAR(fsdp.intermediates.attentionCoreFwdSeconds / meg.intermediates.attentionCoreFwdSeconds,
                  0.40 / 0.34, 1e-9);
    LP_CHECK(fsdp.intermediates.flashFwdIsFa2 && !meg.intermediates.flashFwdIsFa2);
    // On A100 FlashAttention-2 is the GPU's own kernel, and on Blackwell the profile has no separate figure:
    // both styles run attention at the same efficiency.
    for (const char* gpu : {"a100-sxm-80gb", "gb200"}) {
        const Plan a = plan(gpu, ExecutionStyle::Fsdp), b = plan(gpu, ExecutionStyle::Megatron);
        LP_CHECK_NEAR(a.intermediates.flashFwdEfficiency, b.intermediates.flashFwdEfficiency, 1e-12);
    }
    // Where a preset gives FlashAttention-2 a forward figure, it trails the GPU's fused attention.
    for (const GpuPreset& g : gpuPresets())
        if (g.profile.kernels.fa2AttentionFwdEfficiency > 0)
            LP_CHECK(g.profile.kernels.fa2AttentionFwdEfficiency < g.profile.kernels.attentionFwdEfficiency);
}

LP_TEST(a_profile_with_half_lengths_makes_attention_approach_its_limit_as_s_over_s_plus_half) {
    // Per-row work grows as s, score work as s^2. A profile with the H200's measured attention (limits and
    // half lengths of docs/calibration.md: FlashAttention-2 0.325 / 0.32, half at 360 tokens forward and 830
    // backward) runs longer sequences closer to the limit; a ring step under CP is a kernel of s/CP tokens.
    auto plan = [](int seq, int cp, bool halves) {
        Scenario s = llama8bOnOneNode("h200-sxm-141gb", ExecutionStyle::Fsdp);
        s.model.seqLen = seq;
        s.layout.cp = cp;
        s.layout.dp = 8 / cp;
        HardwareProfile p = builtinProfile(s.cluster.gpu);
        if (halves) {
            p.kernels.fa2AttentionFwdEfficiency = 0.325;
            p.kernels.fa2AttentionBwdEfficiency = 0.32;
            p.kernels.attentionFwdHalfTokens = 360;
            p.kernels.attentionBwdHalfTokens = 830;
        }
        return std::pair{s, evaluate(s, p)};
    };
    const auto [s2k, short2k] = plan(2048, 1, true);
    const auto [s16k, long16k] = plan(16384, 1, true);
    const auto [sRing, ring] = plan(16384, 2, true);
    const auto [sFlat, flat] = plan(2048, 1, false);
    LP_CHECK(short2k.valid && long16k.valid && ring.valid && flat.valid);
    LP_CHECK_NEAR(short2k.intermediates.attentionLengthFactorFwd, 2048.0 / (2048 + 360), 1e-12);
    LP_CHECK_NEAR(short2k.intermediates.attentionLengthFactorBwd, 2048.0 / (2048 + 830), 1e-12);
    LP_CHECK_NEAR(long16k.intermediates.attentionLengthFactorFwd, 16384.0 / (16384 + 360), 1e-12);
    LP_CHECK_NEAR(ring.intermediates.attentionLengthFactorBwd, 8192.0 / (8192 + 830), 1e-12);
    LP_CHECK(long16k.intermediates.flashFwdEfficiency > short2k.intermediates.flashFwdEfficiency);
    LP_CHECK(long16k.intermediates.flashBwdEfficiency > 1.2 * short2k.intermediates.flashBwdEfficiency);
    LP_CHECK(long16k.intermediates.flashFwdEfficiency <= 0.325 + 1e-12 &&
             long16k.intermediates.flashBwdEfficiency <= 0.32 + 1e-12);
    // FlashAttention-2's own backward figure is used where the profile has one.
    LP_CHECK(short2k.intermediates.flashBwdEfficiency <
             0.32 * short2k.intermediates.attentionLengthFactorBwd + 1e-12);
    // The built-in profiles give no half lengths: attention efficiency does not depend on the length.
    LP_CHECK_EQ(flat.intermediates.attentionLengthFactorFwd, 1.0);
    LP_CHECK_EQ(flat.intermediates.attentionLengthFactorBwd, 1.0);
    for (const GpuPreset& g : gpuPresets())
        LP_CHECK(g.profile.kernels.attentionFwdHalfTokens == 0 &&
                 g.profile.kernels.attentionBwdHalfTokens == 0);
    // The explanation says how far from the limit the plan's kernels run, and why.
    HardwareProfile p = builtinProfile(s2k.cluster.gpu);
    p.kernels.attentionFwdHalfTokens = 360;
    p.kernels.attentionBwdHalfTokens = 830;
    const auto e = explainFigure(s2k, evaluate(s2k, p), "time.compute");
    LP_CHECK(e && e->substituted.find("of the profile's long-sequence limits at 2048-token kernels") !=
                      std::string::npos);
    LP_CHECK(e && e->words.find("s / (s + s_half)") != std::string::npos);
    const auto plain = explainFigure(sFlat, flat, "time.compute");
    LP_CHECK(plain && plain->substituted.find("long-sequence limits") == std::string::npos);
}

LP_TEST(heads_under_128_run_further_from_peak_by_the_share_of_the_exponentials) {
    // The profiles' attention figures are for heads of 128. A score's exponential costs the same at any head
    // size while its MMA work (4 x d FLOPs forward) shrinks with d: with r the exponentials' share of the MMA
    // time at heads of 128, efficiency = figure x (1 + r) / (1 + r x 128 / d), at most the figure. Same
    // hidden size and sequence, so the attention FLOPs are the same whatever the head count.
    auto plan = [](const char* gpu, int heads, ExecutionStyle style) {
        Scenario s = llama8bOnOneNode(gpu, style, style == ExecutionStyle::Fsdp ? 3 : 1);
        s.model.heads = heads;
        s.model.kvHeads = 8;
        return std::pair{s, evaluate(s)};
    };
    const auto [s64, h64] = plan("h100-sxm-80gb", 64, ExecutionStyle::Megatron);
    const auto [s128, h128] = plan("h100-sxm-80gb", 32, ExecutionStyle::Megatron);
    const auto [s256, h256] = plan("h100-sxm-80gb", 16, ExecutionStyle::Megatron);
    LP_CHECK(h64.valid && h128.valid && h256.valid);
    LP_CHECK_EQ(h64.intermediates.attentionHeadSize, 64.0);
    // Hopper's fused attention: r = 4096 / (512 x 16) = 0.5 forward, 0.4 of it backward.
    LP_CHECK_NEAR(h64.intermediates.attentionHeadFactorFwd, 1.5 / 2.0, 1e-12);
    LP_CHECK_NEAR(h64.intermediates.attentionHeadFactorBwd, 1.2 / 1.4, 1e-12);
    LP_CHECK_NEAR(h64.intermediates.flashFwdEfficiency / h128.intermediates.flashFwdEfficiency, 0.75, 1e-9);
    LP_CHECK_NEAR(h64.intermediates.attentionCoreFwdSeconds / h128.intermediates.attentionCoreFwdSeconds,
                  1.0 / 0.75, 1e-9);
    // An H200 measured cuDNN's fused attention at heads of 64 at 0.79 (forward) and 0.83 (backward) of its
    // heads-of-128 speed (docs/calibration.md): the derived factors are within 6% of that.
    LP_CHECK(std::abs(h64.intermediates.attentionHeadFactorFwd / 0.79 - 1.0) < 0.06);
    LP_CHECK(std::abs(h64.intermediates.attentionHeadFactorBwd / 0.83 - 1.0) < 0.06);
    // Heads of 128 run at the profile's figures, and larger heads are not planned faster.
    LP_CHECK_EQ(h128.intermediates.attentionHeadFactorFwd, 1.0);
    LP_CHECK_EQ(h256.intermediates.attentionHeadFactorFwd, 1.0);
    LP_CHECK_EQ(h256.intermediates.attentionHeadFactorBwd, 1.0);
    // FlashAttention-2's kernels (the FSDP style's torch SDPA on Hopper) are not paced by the exponentials:
    // heads of 64 measured 0.92 / 0.91 of heads of 128 on the H200, r = 0.1 both ways.
    const auto [f64, fsdp64] = plan("h100-sxm-80gb", 64, ExecutionStyle::Fsdp);
    LP_CHECK(fsdp64.intermediates.flashFwdIsFa2);
    LP_CHECK_NEAR(fsdp64.intermediates.attentionHeadFactorFwd, 1.1 / 1.2, 1e-12);
    LP_CHECK_NEAR(fsdp64.intermediates.attentionHeadFactorBwd, 1.1 / 1.2, 1e-12);
    // A100: 2048 tensor FLOPs per SM and clock, r = 0.25. Blackwell: 8192, r = 1. A GPU whose profile gives
    // no share (MI300X) keeps its figures at every head size.
    LP_CHECK_NEAR(
        plan("a100-sxm-80gb", 64, ExecutionStyle::Megatron).second.intermediates.attentionHeadFactorFwd,
        1.25 / 1.5, 1e-12);
    LP_CHECK_NEAR(plan("b200", 64, ExecutionStyle::Megatron).second.intermediates.attentionHeadFactorFwd,
                  2.0 / 3.0, 1e-12);
    LP_CHECK_EQ(plan("mi300x", 64, ExecutionStyle::Megatron).second.intermediates.attentionHeadFactorFwd,
                1.0);
    // The explanation gives the factors and the reason; at heads of 128 it says nothing of them.
    const auto e = explainFigure(s64, h64, "time.compute");
    LP_CHECK(e && e->substituted.find("of the profile's heads-of-128 figures at heads of 64") !=
                      std::string::npos);
    LP_CHECK(e && e->words.find("(1 + r) / (1 + r x 128 / d)") != std::string::npos);
    const auto plain = explainFigure(s128, h128, "time.compute");
    LP_CHECK(plain && plain->substituted.find("heads-of-128") == std::string::npos);
}

LP_TEST_MAIN()

LP_TEST(selective_recompute_with_flash_attention_says_it_changes_nothing_in_the_megatron_style) {
    // Megatron's selective recompute re-runs the attention core; flash attention never stores its scores.
    Scenario s = defaultScenario();
    s.training.recompute = Recompute::Selective;
    const Plan selective = evaluate(s);
    Scenario none = s;
    none.training.recompute = Recompute::None;
    const Plan plain = evaluate(none);
    LP_CHECK_EQ(selective.time.stepSeconds, plain.time.stepSeconds);
    LP_CHECK_EQ(selective.memory.stages[0].totalBytes, plain.memory.stages[0].totalBytes);
    const std::string says = "changes nothing";
    LP_CHECK(explainFigure(s, selective, "time.recompute")->words.find(says) != std::string::npos);
    // Without flash attention it saves the scores' memory at a cost, and the sentence goes.
    s.training.flashAttention = false;
    const Plan eager = evaluate(s);
    LP_CHECK(eager.time.recomputeSeconds > 0);
    LP_CHECK(explainFigure(s, eager, "time.recompute")->words.find(says) == std::string::npos);
    // Nor in the FSDP style, where selective (torchtitan's op-level checkpointing) recomputes matmuls.
    s.training.flashAttention = true;
    s.training.zeroStage = 3;
    const Plan fsdp = evaluate(s);
    LP_CHECK(fsdp.time.recomputeSeconds > 0);
    LP_CHECK(explainFigure(s, fsdp, "time.recompute")->words.find(says) == std::string::npos);
}
