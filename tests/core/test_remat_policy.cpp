// JAX/MaxText remat policies (remat_policy): which of a layer's tensors each saves, what the backward
// re-runs, checked by hand on Llama 2 7B under FSDP and on the MaxText runs of the landmark set.
#include "ScenarioFixtures.h"
#include "TestHarness.h"
#include "core/estimate/Evaluate.h"
#include "core/estimate/Explain.h"
#include "core/export/LaunchExport.h"
#include "core/io/Presets.h"
#include "core/measured/Validation.h"

#include <string>

using namespace lp::core;

namespace {

// Llama 2 7B on one node as MaxText's A3 script runs it: FSDP over 8 GPUs, micro batch 4 of 4096 tokens,
// flash attention, selective recompute by the given policy.
Scenario llama7b(RematPolicy policy) {
    Scenario s = fixtures::llama8bFsdpOnOneNode();
    s.model = findModelPreset("llama2-7b")->model;
    s.layout.microBatch = 4;
    s.training.sequenceParallel = false;
    s.training.recompute = Recompute::Selective;
    s.training.rematPolicy = policy;
    return s;
}

double perLayer(RematPolicy p) {
    return evaluate(llama7b(p)).intermediates.activationBytesPerLayer;
}

double recomputeFlopsPerToken(const Plan& p) {
    return p.intermediates.flopsPerTokenHardware - p.intermediates.flopsPerTokenModel;
}

} // namespace

LP_TEST(names_and_what_each_policy_saves) {
    LP_CHECK(parseRematPolicy("minimal_flash") == RematPolicy::MinimalWithContext); // MaxText's old name
    LP_CHECK(parseRematPolicy("save_dot_with_context_except_mlp") ==
             RematPolicy::SaveDotWithContextExceptMlp);
    LP_CHECK(!parseRematPolicy("save_everything").has_value());
    LP_CHECK_EQ(std::string(toString(RematPolicy::SaveQkvProj)), std::string("save_qkv_proj"));
    const RematSaves all = rematSaves(RematPolicy::MinimalWithContext);
    LP_CHECK(all.qkv && all.context && all.outProj && all.mlpwi);
    const RematSaves attention = rematSaves(RematPolicy::SaveDotWithContextExceptMlp);
    LP_CHECK(attention.qkv && attention.context && attention.outProj && !attention.mlpwi);
    const RematSaves out = rematSaves(RematPolicy::SaveOutProj);
    LP_CHECK(!out.qkv && !out.context && out.outProj && !out.mlpwi);
    LP_CHECK(!rematSaves(RematPolicy::Minimal).context && rematSaves(RematPolicy::Minimal).mlpwi);
}

LP_TEST(activations_kept_by_hand) {
    const ModelSpec m = llama7b(RematPolicy::Auto).model;
    const double T = 4.0 * 4096, h = m.hidden, f = m.ffnHidden, a = m.heads;
    const double kv = m.kvHeads * (h / a);
    // minimal_with_context: the layer's input, q, k and v, the context with flash attention's fp32
    // log-sum-exp, the output projection's output, the gate and up outputs; all 16-bit.
    const double input = 2.0 * T * h, qkv = 2.0 * T * (h + 2.0 * kv), context = 2.0 * T * h + 4.0 * a * T;
    const double outProj = 2.0 * T * h, ups = 2.0 * 2.0 * T * f;
    LP_CHECK_NEAR(perLayer(RematPolicy::MinimalWithContext), input + qkv + context + outProj + ups, 1e-6);
    LP_CHECK_NEAR(perLayer(RematPolicy::Minimal), input + qkv + outProj + ups, 1e-6);
    LP_CHECK_NEAR(perLayer(RematPolicy::SaveDotWithContextExceptMlp), input + qkv + context + outProj, 1e-6);
    LP_CHECK_NEAR(perLayer(RematPolicy::SaveDotExceptMlp), input + qkv + outProj, 1e-6);
    // mlpwo is named by save_dot_except_mlpwi but nothing in the backward needs it: JAX does not keep it.
    LP_CHECK_EQ(perLayer(RematPolicy::SaveDotExceptMlpwi), perLayer(RematPolicy::SaveDotExceptMlp));
    LP_CHECK_NEAR(perLayer(RematPolicy::SaveQkvProj), input + qkv, 1e-6);
    LP_CHECK_NEAR(perLayer(RematPolicy::SaveOutProj), input + outProj, 1e-6);
    // Every policy keeps less than no recompute, more than full recompute.
    Scenario full = llama7b(RematPolicy::Auto), none = llama7b(RematPolicy::Auto);
    full.training.recompute = Recompute::Full;
    none.training.recompute = Recompute::None;
    LP_CHECK(perLayer(RematPolicy::SaveOutProj) > evaluate(full).intermediates.activationBytesPerLayer);
    LP_CHECK(perLayer(RematPolicy::MinimalWithContext) <
             evaluate(none).intermediates.activationBytesPerLayer);
}

LP_TEST(the_backward_reruns_what_is_not_saved) {
    const Scenario s = llama7b(RematPolicy::Auto);
    const double L = s.model.layers, h = s.model.hidden, f = s.model.ffnHidden;
    const double kv = s.model.kvHeads * (h / s.model.heads);
    const Plan all = evaluate(llama7b(RematPolicy::MinimalWithContext));
    const Plan minimal = evaluate(llama7b(RematPolicy::Minimal));
    const Plan attention = evaluate(llama7b(RematPolicy::SaveDotWithContextExceptMlp));
    const Plan qkv = evaluate(llama7b(RematPolicy::SaveQkvProj));
    const Plan out = evaluate(llama7b(RematPolicy::SaveOutProj));
    // Saving every needed tensor re-runs no matmul: only the elementwise work (norms, rotary, activation).
    LP_CHECK_EQ(recomputeFlopsPerToken(all), 0.0);
    LP_CHECK(all.time.recomputeSeconds > 0);
    // minimal: the attention's forward (a third of its forward + backward FLOPs) runs again.
    LP_CHECK_NEAR(recomputeFlopsPerToken(minimal), all.intermediates.attentionFlopsPerToken / 3.0, 1e-3);
    // save_dot_with_context_except_mlp: the MLP's gate and up projections, 2 x h x f each per token and
    // layer.
    LP_CHECK_NEAR(recomputeFlopsPerToken(attention), L * 2.0 * 2.0 * h * f, 1e-3);
    // save_qkv_proj: also the attention and the output projection; save_out_proj: the q/k/v projections
    // instead of the output projection.
    LP_CHECK_NEAR(recomputeFlopsPerToken(qkv),
                  all.intermediates.attentionFlopsPerToken / 3.0 + L * (2.0 * h * h + 2.0 * 2.0 * h * f),
                  1e-3);
    LP_CHECK_NEAR(recomputeFlopsPerToken(out),
                  all.intermediates.attentionFlopsPerToken / 3.0 +
                      L * (2.0 * h * (h + 2.0 * kv) + 2.0 * 2.0 * h * f),
                  1e-3);
    // Time follows: each saves less and re-runs more than the one before it.
    LP_CHECK(all.time.recomputeSeconds < minimal.time.recomputeSeconds);
    LP_CHECK(minimal.time.recomputeSeconds < qkv.time.recomputeSeconds);
    LP_CHECK(attention.time.recomputeSeconds < qkv.time.recomputeSeconds);
    LP_CHECK(qkv.time.recomputeSeconds < out.time.recomputeSeconds);
    // Without flash attention no policy keeps the attention probabilities (the s^2 tensors): the attention's
    // forward re-runs even with the context saved.
    Scenario unfused = llama7b(RematPolicy::MinimalWithContext);
    unfused.training.flashAttention = false;
    const Plan u = evaluate(unfused);
    LP_CHECK_NEAR(recomputeFlopsPerToken(u), u.intermediates.attentionFlopsPerToken / 3.0, 1e-3);
    // Model FLOPs do not move; MFU falls only through the step time.
    LP_CHECK_EQ(all.intermediates.flopsPerTokenModel, out.intermediates.flopsPerTokenModel);
}

LP_TEST(a_policy_acts_with_selective_recompute_only_and_replaces_the_modules) {
    for (Recompute r : {Recompute::None, Recompute::Full}) {
        Scenario with = llama7b(RematPolicy::SaveQkvProj), without = llama7b(RematPolicy::Auto);
        with.training.recompute = without.training.recompute = r;
        const Plan a = evaluate(with), b = evaluate(without);
        LP_CHECK_EQ(a.time.stepSeconds, b.time.stepSeconds);
        LP_CHECK_EQ(a.memory.stages[0].totalBytes, b.memory.stages[0].totalBytes);
        LP_CHECK_EQ(recomputeDetailText(with.training), recomputeDetailText(without.training));
    }
    // In the Megatron style a policy takes the place of the recompute modules: changing them changes nothing.
    Scenario megatron = llama7b(RematPolicy::SaveDotWithContextExceptMlp);
    megatron.training.zeroStage = 1;
    megatron.training.executionStyle = ExecutionStyle::Megatron;
    const Plan core = evaluate(megatron);
    megatron.training.recomputeModules = kRecomputeMlp | kRecomputeLayerNorm;
    const Plan modules = evaluate(megatron);
    LP_CHECK_EQ(core.intermediates.activationBytesPerLayer, modules.intermediates.activationBytesPerLayer);
    LP_CHECK_EQ(core.time.recomputeSeconds, modules.time.recomputeSeconds);
    LP_CHECK_EQ(recomputeDetailText(megatron.training),
                std::string(" (remat policy save_dot_with_context_except_mlp)"));
}

LP_TEST(explanations_and_launch_exports_name_the_policy) {
    const Scenario s = llama7b(RematPolicy::SaveDotWithContextExceptMlp);
    const auto e = explainFigure(s, evaluate(s), "time.recompute");
    LP_CHECK(e.has_value());
    if (e) {
        LP_CHECK(e->words.find("remat policy save_dot_with_context_except_mlp") != std::string::npos);
        LP_CHECK(e->words.find("re-runs the norms, rotary and activation function, and the MLP's "
                               "up-projections") != std::string::npos);
        LP_CHECK(e->substituted.find("(remat policy save_dot_with_context_except_mlp)") != std::string::npos);
    }
    for (LaunchTarget target : {LaunchTarget::Megatron, LaunchTarget::DeepSpeed, LaunchTarget::Torchtitan}) {
        bool named = false;
        for (const std::string& note : exportLaunchSettings(s, target).notes)
            named = named || note.find("remat policy save_dot_with_context_except_mlp is MaxText's") !=
                                 std::string::npos;
        LP_CHECK(named);
        bool quiet = true;
        for (const std::string& note : exportLaunchSettings(llama7b(RematPolicy::Auto), target).notes)
            quiet = quiet && note.find("remat policy") == std::string::npos;
        LP_CHECK(quiet);
    }
}

LP_TEST(validation_reads_the_policy_a_case_states) {
    // The MaxText rows of the landmark set state the policy their scripts set (converted from their notes).
    const auto cases = loadValidationCases(std::string(LP_TEST_DATA_DIR) + "/validation/landmark-runs.json");
    LP_CHECK(cases.has_value());
    int maxtext = 0;
    for (const ValidationCase& c : cases ? *cases : std::vector<ValidationCase>{}) {
        if (c.id.find("maxtext") == std::string::npos)
            continue;
        ++maxtext;
        const bool ultra = c.id.find("a3ultra") != std::string::npos;
        LP_CHECK(c.scenario.training.rematPolicy ==
                 (ultra ? RematPolicy::SaveDotWithContextExceptMlp : RematPolicy::MinimalWithContext));
        // They ran: planned with the tensors MaxText keeps, each fits its GPUs (the A3 Ultra 70B row had
        // planned at 152% with the FSDP style's own selective recompute).
        LP_CHECK(evaluate(c.scenario).memory.fits);
    }
    LP_CHECK_EQ(maxtext, 6);

    // A case may state the policy in its layout; an unknown name is an error that names the field.
    const std::string text = R"({"schema": "layout-planner/validation-cases@1", "cases": [{
        "id": "x", "source": "s", "confidence": "high", "notes": "",
        "model": {"name": "m", "layers": 32, "hidden": 4096, "heads": 32, "kv_heads": 32, "ffn_hidden": 11008,
                  "vocab": 32000, "mlp": "swiglu", "tied_embeddings": false, "seq_len": 4096, "moe": null},
        "hardware": {"gpu": "h100-sxm-80gb", "gpus": 8, "gpus_per_node": 8},
        "layout": {"tp": 1, "pp": 1, "dp": 8, "cp": 1, "ep": 1, "vpp": 1, "micro_batch": 1, "global_batch": 8,
                   "sequence_parallel": false, "recompute": "selective", "zero_stage": 3, "precision": "bf16",
                   "remat_policy": "%s"},
        "measured": {"iteration_time_s": 1.0}}]})";
    auto withPolicy = [&](const std::string& name) {
        std::string t = text;
        t.replace(t.find("%s"), 2, name);
        return validationCasesFromJson(t);
    };
    const auto stated = withPolicy("save_out_proj");
    LP_CHECK(stated.has_value() && stated->front().scenario.training.rematPolicy == RematPolicy::SaveOutProj);
    const auto bad = withPolicy("save_all");
    LP_CHECK(!bad.has_value());
    if (!bad.has_value())
        LP_CHECK(bad.error().front().path.find("remat_policy") != std::string::npos);
}

LP_TEST_MAIN()
