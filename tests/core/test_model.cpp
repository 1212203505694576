// The seed's numbers, parameter counts, and the closed forms of the literature (Korthikanti et al.
// 2022 activations, Megatron-LM FLOPs) that the generalised bookkeeping must reduce to.
#include "TestHarness.h"
#include "core/estimate/Evaluate.h"
#include "core/io/Presets.h"

using namespace lp::core;

namespace {

// A GPT configuration as the papers use it: GELU 4h MLP, MHA, LayerNorm, dropout, no flash attention.
Scenario gptScenario(int tp, bool sp, Recompute rc) {
    Scenario s = defaultScenario();
    ModelSpec& m = s.model;
    m.layers = 48;
    m.hidden = 6144;
    m.heads = 64;
    m.kvHeads = 64;
    m.ffnHidden = 4 * 6144;
    m.vocab = 51200;
    m.seqLen = 2048;
    m.mlp = MlpKind::Gelu;
    m.norm = NormKind::LayerNorm;
    m.tiedEmbeddings = true;
    m.biases = true;
    m.learnedPositions = true;
    m.dropout = true;
    s.training.flashAttention = false;
    s.training.sequenceParallel = sp;
    s.training.recompute = rc;
    s.training.zeroStage = 0;
    s.cluster.nodes = 1;
    s.cluster.gpusPerNode = tp;
    s.cluster.nvlinkDomain = tp;
    s.layout = Layout{};
    s.layout.tp = tp;
    s.layout.microBatch = 4;
    s.layout.accumulation = 1;
    return s;
}

double sbh(const Scenario& s) {
    return static_cast<double>(s.model.seqLen) * s.layout.microBatch * s.model.hidden;
}

} // namespace

LP_TEST(seed_numbers) {
    const Scenario s = defaultScenario();
    const Plan p = evaluate(s);
    LP_CHECK(p.valid);
    // 70e9 x 2 B = 140 GB of weights; 70e9 x 16 B = 1.12 TB of training state.
    LP_CHECK_NEAR(70e9 * 2.0, 140e9, 1e-12);
    LP_CHECK_NEAR(p.intermediates.bytesPerParamState, 16.0, 1e-12);
    LP_CHECK_NEAR(70e9 * p.intermediates.bytesPerParamState, 1.12e12, 1e-12);
    // The model itself is about 69.0e9 parameters: about 138 GB of weights and 1.1 TB of state.
    LP_CHECK_NEAR(p.params.total, 69.0e9, 0.01);
    LP_CHECK_NEAR(p.trainingStateBytes, 1.1e12, 0.02);
    // TP 8 x PP 4 x DP 2 = 64 GPUs; effective batch 2 x 16 x 2 = 64 sequences.
    LP_CHECK_EQ(s.layout.gpus(), 64);
    LP_CHECK_EQ(s.cluster.gpus(), 64);
    LP_CHECK_EQ(p.effectiveBatchSequences, 64);
    LP_CHECK_NEAR(p.tokensPerStep, 64.0 * 4096, 1e-12);
}

LP_TEST(default_scenario_matches_seed_preset) {
    const ModelPreset* mp = findModelPreset("seed-70b");
    LP_CHECK(mp != nullptr);
    if (mp) {
        ModelSpec a = mp->model;
        ModelSpec b = defaultScenario().model;
        a.name = b.name;
        LP_CHECK(a == b);
    }
    const GpuPreset* gp = findGpuPreset("h100-sxm-80gb");
    LP_CHECK(gp != nullptr);
    if (gp)
        LP_CHECK(gp->gpu == defaultScenario().cluster.gpu);
}

LP_TEST(parameter_count_gpt_closed_form) {
    // GPT with biases, LayerNorm, learned positions: 12 L h^2 + 13 L h + V h + s h + 2h (tied).
    const Scenario s = gptScenario(1, false, Recompute::None);
    const ModelSpec& m = s.model;
    const double L = m.layers, h = m.hidden, V = m.vocab, S = m.seqLen;
    const double expected = 12 * L * h * h + 13 * L * h + V * h + S * h + 2 * h;
    LP_CHECK_NEAR(countParameters(m).total, expected, 1e-12);
}

LP_TEST(korthikanti_activations_all_five_cases) {
    struct Case {
        int tp;
        bool sp;
        Recompute rc;
    };
    for (const Case c : {Case{1, false, Recompute::None}, Case{8, false, Recompute::None},
                         Case{8, true, Recompute::None}, Case{8, true, Recompute::Selective},
                         Case{8, false, Recompute::Full}, Case{8, true, Recompute::Full}}) {
        const Scenario s = gptScenario(c.tp, c.sp, c.rc);
        const Plan p = evaluate(s);
        LP_CHECK(p.valid);
        const double a = s.model.heads, S = s.model.seqLen, h = s.model.hidden, t = c.tp;
        double expected = 0;
        if (c.rc == Recompute::Full)
            expected = 2.0 * sbh(s) / (c.sp ? t : 1.0);
        else if (c.rc == Recompute::Selective)
            expected = 34.0 * sbh(s) / t;
        else if (t == 1)
            expected = sbh(s) * (34.0 + 5.0 * a * S / h);
        else if (!c.sp)
            expected = sbh(s) * (10.0 + 24.0 / t + 5.0 * a * S / (h * t));
        else
            expected = sbh(s) * (34.0 + 5.0 * a * S / h) / t;
        LP_CHECK_NEAR(p.intermediates.activationBytesPerLayer, expected, 1e-12);
    }
}

LP_TEST(swiglu_gqa_flash_bookkeeping) {
    // Llama-style: no dropout, SwiGLU (3 tensors of s*b*f), GQA (K, V of s*b*k*d), flash (no s^2 terms,
    // fp32 log-sum-exp per row). Without parallelism, per layer:
    Scenario s = defaultScenario();
    s.layout = Layout{};
    s.layout.microBatch = 1;
    s.cluster.nodes = 1;
    s.cluster.gpusPerNode = 1;
    s.cluster.nvlinkDomain = 1;
    s.training.recompute = Recompute::None;
    s.training.zeroStage = 0;
    const Plan p = evaluate(s);
    const ModelSpec& m = s.model;
    const double T = m.seqLen, h = m.hidden, f = m.ffnHidden, kd = m.kvHeads * m.headDim(),
                 ad = m.heads * m.headDim();
    const double expected = T * h * 8.0 + 2.0 * T * (ad + 2 * kd + ad) + 6.0 * T * f + 4.0 * m.heads * T;
    LP_CHECK_NEAR(p.intermediates.activationBytesPerLayer, expected, 1e-12);
}

LP_TEST(megatron_flops_closed_forms) {
    // Model FLOPs per iteration 72 B s L h^2 (1 + s/6h + V/12Lh); with full recompute hardware FLOPs
    // 96 B s L h^2 (1 + s/6h + V/16Lh) (Narayanan et al. 2021).
    for (Recompute rc : {Recompute::None, Recompute::Full}) {
        const Scenario s = gptScenario(8, true, rc);
        const Plan p = evaluate(s);
        const double B = static_cast<double>(p.effectiveBatchSequences), S = s.model.seqLen,
                     L = s.model.layers, h = s.model.hidden, V = s.model.vocab;
        const double model = 72 * B * S * L * h * h * (1 + S / (6 * h) + V / (12 * L * h));
        LP_CHECK_NEAR(p.modelFlopsPerStep, model, 1e-9);
        if (rc == Recompute::Full) {
            const double hw = 96 * B * S * L * h * h * (1 + S / (6 * h) + V / (16 * L * h));
            LP_CHECK_NEAR(p.hardwareFlopsPerStep, hw, 1e-9);
        } else {
            LP_CHECK_NEAR(p.hardwareFlopsPerStep, model, 1e-12);
        }
    }
}

LP_TEST(causal_attention_convention_halves_the_score_flops) {
    Scenario s = defaultScenario();
    const Plan full = evaluate(s);
    s.training.attentionFlops = AttentionFlops::Causal;
    const Plan causal = evaluate(s);
    LP_CHECK_NEAR(full.intermediates.attentionFlopsPerToken,
                  2.0 * causal.intermediates.attentionFlopsPerToken, 1e-12);
    LP_CHECK(causal.mfu < full.mfu);
    LP_CHECK_NEAR(causal.time.stepSeconds, full.time.stepSeconds, 1e-12); // a convention, not a speed
}

LP_TEST_MAIN()
