// Selective recompute by module (Megatron-Core --recompute-modules): what each module frees and costs,
// checked by hand on DeepSeek-V2-Lite (MLA, shared experts, one dense layer) and on the dense default.
#include "ScenarioFixtures.h"
#include "TestHarness.h"
#include "core/estimate/Evaluate.h"
#include "core/estimate/Explain.h"
#include "core/io/Presets.h"
#include "core/measured/Validation.h"

#include <string>

using namespace lp::core;

namespace {

// DeepSeek-V2-Lite on one node: TP 1 x EP 8 x DP 8, micro batch 1 of 4096 tokens, flash attention, ZeRO-1.
Scenario lite(unsigned modules) {
    Scenario s = defaultScenario();
    s.model = findModelPreset("deepseek-v2-lite")->model;
    s.layout = Layout{};
    s.layout.dp = 8;
    s.layout.ep = 8;
    s.layout.microBatch = 1;
    s.layout.accumulation = 4;
    s.cluster.nodes = 1;
    s.training.sequenceParallel = false;
    s.training.recompute = Recompute::Selective;
    s.training.recomputeModules = modules;
    return s;
}

double perLayer(const Plan& p) {
    return p.intermediates.activationBytesPerLayer;
}

bool samePlan(const Plan& a, const Plan& b) {
    return a.time.stepSeconds == b.time.stepSeconds &&
           a.memory.stages[0].totalBytes == b.memory.stages[0].totalBytes;
}

} // namespace

LP_TEST(each_module_frees_its_tensors_by_hand) {
    const Plan nothing = evaluate(lite(0));
    LP_CHECK(nothing.valid);
    const ModelSpec& m = lite(0).model;
    const double T = 4096, h = m.hidden, a = m.heads;
    const double moeShare = 26.0 / 27.0, imbalance = lite(0).training.moeLoadImbalance;
    const double fe = m.moe.expertFfnHidden;
    // mla_up_proj: q and k at (nope + rope) per head, v at its head size, 16-bit.
    const double qk = a * (m.mla.qkNopeHeadDim + m.mla.qkRopeHeadDim), v = a * m.mla.vHeadDim;
    LP_CHECK_NEAR(perLayer(nothing) - perLayer(evaluate(lite(kRecomputeMlaUpProj))), 2.0 * T * (2.0 * qk + v),
                  1e-12);
    // layernorm: MLA's input norm in every layer and the MoE layers' pre-MLP norm (16-bit outputs).
    LP_CHECK_NEAR(perLayer(nothing) - perLayer(evaluate(lite(kRecomputeLayerNorm))),
                  2.0 * T * h * (1.0 + moeShare), 1e-12);
    // mlp: the dense layer's SwiGLU intermediates (gate and up outputs, 4 bytes, and the down input, 2).
    LP_CHECK_NEAR(perLayer(nothing) - perLayer(evaluate(lite(kRecomputeMlp))),
                  (1.0 - moeShare) * 6.0 * T * m.ffnHidden, 1e-12);
    // moe_act: the routed copies' down-projection input.
    LP_CHECK_NEAR(perLayer(nothing) - perLayer(evaluate(lite(kRecomputeMoeAct))),
                  moeShare * 2.0 * T * m.moe.topK * imbalance * fe, 1e-12);
    // shared_experts: the two shared experts' intermediates.
    LP_CHECK_NEAR(perLayer(nothing) - perLayer(evaluate(lite(kRecomputeSharedExperts))),
                  moeShare * 6.0 * T * m.moe.sharedExperts * fe, 1e-12);
    // moe: the whole block, more than its activation and shared experts together, which it includes.
    const double moe = perLayer(evaluate(lite(kRecomputeMoe)));
    LP_CHECK(moe < perLayer(evaluate(lite(kRecomputeMoeAct | kRecomputeSharedExperts))));
    LP_CHECK_EQ(perLayer(evaluate(lite(kRecomputeMoe | kRecomputeMoeAct | kRecomputeSharedExperts))), moe);
    // core_attn under flash attention: no scores kept, nothing freed, nothing re-run.
    LP_CHECK(samePlan(evaluate(lite(kRecomputeCoreAttn)), nothing));
}

LP_TEST(the_moe_block_keeps_its_expert_input_as_the_gemm_saves_it) {
    // The permutation saves only indices: the tokens reach the experts' first GEMM, which saves its input
    // (its fp8 cast under fp8, like the expert down-projection's input), and the experts' 16-bit output waits
    // for the combine. So fp8 saves one byte less per element of each top-k copy's h-wide input and of each
    // routed and shared intermediate that feeds a down-projection than bf16 does.
    auto moeBlock = [](Precision p) {
        Scenario none = lite(0), moe = lite(kRecomputeMoe);
        none.training.precision = moe.training.precision = p;
        return perLayer(evaluate(none)) - perLayer(evaluate(moe));
    };
    const ModelSpec& m = lite(0).model;
    const double T = 4096, share = 26.0 / 27.0, imbalance = lite(0).training.moeLoadImbalance;
    const double fe = m.moe.expertFfnHidden;
    LP_CHECK_NEAR(moeBlock(Precision::Bf16) - moeBlock(Precision::Fp8),
                  share * T * (m.moe.topK * m.hidden + (m.moe.topK * imbalance + m.moe.sharedExperts) * fe),
                  1e-6);
}

LP_TEST(each_module_costs_its_forward_once_more) {
    const Plan nothing = evaluate(lite(0));
    LP_CHECK_EQ(nothing.time.recomputeSeconds, 0.0);
    for (unsigned bit : {kRecomputeLayerNorm, kRecomputeMlaUpProj, kRecomputeMlp, kRecomputeMoeAct,
                         kRecomputeSharedExperts, kRecomputeMoe}) {
        const Plan p = evaluate(lite(bit));
        LP_CHECK(p.time.recomputeSeconds > 0);
        LP_CHECK(p.time.stepSeconds > nothing.time.stepSeconds);
    }
    // The up-projections' matmuls count as hardware FLOPs (HFU), not model FLOPs: 2 x (h x q + kv_lora x
    // heads x (nope + v)) per token and layer without query compression.
    const Scenario s = lite(kRecomputeMlaUpProj);
    const Plan up = evaluate(s);
    const MlaSpec& l = s.model.mla;
    const double q = s.model.heads * (l.qkNopeHeadDim + l.qkRopeHeadDim);
    const double perToken =
        s.model.layers * 2.0 *
        (s.model.hidden * q + l.kvLoraRank * s.model.heads * (l.qkNopeHeadDim + l.vHeadDim));
    LP_CHECK_NEAR(up.intermediates.flopsPerTokenHardware - up.intermediates.flopsPerTokenModel, perToken,
                  1e-12);
    LP_CHECK_EQ(up.intermediates.flopsPerTokenModel, nothing.intermediates.flopsPerTokenModel);
    // The whole MoE block sends its tokens once more: forward, backward and the recompute's dispatch and
    // combine.
    const Plan moe = evaluate(lite(kRecomputeMoe));
    LP_CHECK(nothing.time.epCommSeconds > 0);
    LP_CHECK_NEAR(moe.time.epCommSeconds, 1.5 * nothing.time.epCommSeconds, 1e-12);
}

LP_TEST(modules_without_anything_to_act_on_change_nothing_and_say_so) {
    // The dense default (Llama 2 70B, grouped-query attention, flash attention): no MLA, no experts, and
    // Transformer Engine fuses its norms into the linears.
    Scenario s = defaultScenario();
    s.training.recompute = Recompute::Selective;
    s.training.recomputeModules = 0;
    const Plan nothing = evaluate(s);
    s.training.recomputeModules = kRecomputeMlaUpProj | kRecomputeMoeAct | kRecomputeSharedExperts |
                                  kRecomputeLayerNorm | kRecomputeCoreAttn;
    const Plan idle = evaluate(s);
    LP_CHECK(samePlan(idle, nothing));
    const std::string words = explainFigure(s, idle, "time.recompute")->words;
    for (const char* says : {"mla_up_proj (no multi-head latent attention)", "moe_act (a dense model)",
                             "shared_experts (no shared expert)", "layernorm (Transformer Engine fuses",
                             "core_attn (flash attention keeps no scores)"})
        LP_CHECK(words.find(says) != std::string::npos);
    // mlp recomputes the dense MLP: less memory, more time.
    s.training.recomputeModules = kRecomputeMlp;
    const Plan mlp = evaluate(s);
    LP_CHECK(mlp.intermediates.activationBytesPerLayer < nothing.intermediates.activationBytesPerLayer);
    LP_CHECK(mlp.time.recomputeSeconds > 0);
    LP_CHECK(explainFigure(s, mlp, "time.recompute")->words.find("modules mlp") != std::string::npos);
}

LP_TEST(modules_apply_to_megatron_selective_recompute_only) {
    const unsigned all = kRecomputeModulesAll;
    // No recompute, full recompute: the modules are not read.
    for (Recompute r : {Recompute::None, Recompute::Full}) {
        Scenario a = lite(kRecomputeModulesDefault), b = lite(all);
        a.training.recompute = b.training.recompute = r;
        LP_CHECK(samePlan(evaluate(a), evaluate(b)));
    }
    // The FSDP style's selective recompute is torchtitan's operator policy; the explanation says the modules
    // are not read.
    Scenario a = lite(kRecomputeModulesDefault), b = lite(all);
    a.training.zeroStage = b.training.zeroStage = 3;
    const Plan fsdp = evaluate(b);
    LP_CHECK(samePlan(evaluate(a), fsdp));
    LP_CHECK(explainFigure(b, fsdp, "time.recompute")->words.find("does not read them") != std::string::npos);
    // No module at all: selective recompute re-runs nothing, as no recompute.
    Scenario none = lite(0);
    none.training.recompute = Recompute::None;
    const Plan plain = evaluate(none);
    LP_CHECK(samePlan(evaluate(lite(0)), plain));
    LP_CHECK(explainFigure(lite(0), evaluate(lite(0)), "time.recompute")->words.find("re-runs nothing") !=
             std::string::npos);
}

LP_TEST(module_names_read_and_write_as_megatron_spells_them) {
    LP_CHECK_EQ(recomputeModulesText(kRecomputeMlaUpProj | kRecomputeCoreAttn | kRecomputeMoeAct),
                std::string("core_attn,moe_act,mla_up_proj"));
    std::string bad;
    const auto bits = parseRecomputeModules(" mla_up_proj , moe_act,", &bad);
    LP_CHECK(bits.has_value());
    LP_CHECK_EQ(*bits, static_cast<unsigned>(kRecomputeMlaUpProj | kRecomputeMoeAct));
    LP_CHECK(!parseRecomputeModules("mla_up_proj,attention", &bad).has_value());
    LP_CHECK_EQ(bad, std::string("attention"));
    // The scenario's one-line summary names them.
    Scenario s = lite(kRecomputeMlaUpProj);
    LP_CHECK_EQ(recomputeDetailText(s.training), std::string(" (modules: mla_up_proj)"));
    LP_CHECK_EQ(recomputeDetailText(lite(kRecomputeModulesDefault).training), std::string());
}

LP_TEST(a_validation_case_may_state_its_recompute_modules) {
    // The optional layout key recompute_modules (docs/formats.md), as NVIDIA's DeepSeek-V3 launch scripts set
    // it; absent, the attention core alone. A bad name is refused naming the element.
    const std::string head = R"({"schema": "layout-planner/validation-cases@1", "cases": [{"id": "x",
        "model": {"name": "m", "layers": 4, "hidden": 1024, "heads": 8, "kv_heads": 8, "ffn_hidden": 4096,
                  "vocab": 32000, "seq_len": 2048, "mlp": "swiglu", "tied_embeddings": false},
        "hardware": {"gpu": "h100-sxm-80gb", "gpus": 8, "gpus_per_node": 8},
        "layout": {"tp": 1, "pp": 1, "dp": 8, "micro_batch": 1, "global_batch": 8, "recompute": "selective",
                   "zero_stage": 1, "precision": "bf16")";
    const std::string tail = R"(}, "measured": {"iteration_time_s": 1.0}}]})";
    const auto plain = validationCasesFromJson(head + tail);
    LP_CHECK(plain.has_value() &&
             plain->front().scenario.training.recomputeModules == kRecomputeModulesDefault);
    const auto stated =
        validationCasesFromJson(head + R"(, "recompute_modules": ["mlp", "layernorm"])" + tail);
    LP_CHECK(stated.has_value() &&
             stated->front().scenario.training.recomputeModules == (kRecomputeMlp | kRecomputeLayerNorm));
    const auto bad = validationCasesFromJson(head + R"(, "recompute_modules": ["mlp", "attn"])" + tail);
    LP_CHECK(!bad.has_value());
    if (!bad.has_value())
        LP_CHECK_EQ(bad.error().front().path, std::string("$.cases[0].layout.recompute_modules[1]"));
    // The DGX Cloud DeepSeek-V3 rows on H100 recompute MLA's up-projections (their launch.sh).
    const auto dgxc =
        loadValidationCases(std::string(LP_TEST_DATA_DIR) + "/validation/dgxc-benchmarking-runs.json");
    LP_CHECK(dgxc.has_value());
    int upProj = 0;
    for (const ValidationCase& c : dgxc ? *dgxc : std::vector<ValidationCase>{})
        upProj += c.scenario.training.recomputeModules == kRecomputeMlaUpProj;
    LP_CHECK_EQ(upProj, 2);
}

LP_TEST_MAIN()
