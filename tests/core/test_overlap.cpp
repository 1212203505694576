// Communication-overlap switches (docs/estimation.md section 6): TP collectives behind the GEMMs, pipeline
// send/receive behind compute, data-parallel reduction behind the backward pass, MoE all-to-alls behind
// another micro batch's compute.
#include "ScenarioFixtures.h"
#include "TestHarness.h"
#include "core/estimate/Collectives.h"
#include "core/estimate/Evaluate.h"
#include "core/estimate/Precision.h"
#include "core/io/JsonReader.h"
#include "core/io/Presets.h"
#include "core/io/ScenarioJson.h"

using namespace lp::core;

namespace {

Scenario megatron() {
    Scenario s = defaultScenario(); // TP 8 x PP 4 x DP 2, Megatron style
    s.training.executionStyle = ExecutionStyle::Megatron;
    s.training.overlapTpComm = Toggle::Off; // each test turns on what it looks at
    s.training.overlapDpComm = Toggle::Off;
    return s;
}

} // namespace

LP_TEST(switches_default_to_auto_and_survive_a_round_trip) {
    LP_CHECK(TrainingOptions{}.overlapTpComm == Toggle::Auto &&
             TrainingOptions{}.overlapDpComm == Toggle::Auto);
    // The worked example states its switches off (plain Megatron-LM), the rest of its options as they were.
    LP_CHECK(defaultScenario().training.overlapTpComm == Toggle::Off);
    Scenario d = defaultScenario();
    d.training.overlapTpComm = Toggle::Auto;
    d.training.overlapDpComm = Toggle::Auto;
    // Auto is not written: a file that never set the switches keeps following the style's habit.
    std::string text = scenarioToJson(d);
    LP_CHECK(text.find("\"overlap_tp_comm\"") == std::string::npos);
    LP_CHECK(text.find("\"overlap_dp_comm\"") == std::string::npos);
    for (const Toggle v : {Toggle::On, Toggle::Off}) {
        Scenario s = d;
        s.training.overlapTpComm = v;
        s.training.overlapDpComm = v;
        const auto back = scenarioFromJson(scenarioToJson(s));
        LP_CHECK(back.has_value());
        if (back) {
            LP_CHECK(back->training.overlapTpComm == v);
            LP_CHECK(!back->training.overlapPpComm);
            LP_CHECK(back->training.overlapDpComm == v);
        }
    }
    // A file written before the switches existed still loads, with the PP switch off and the others auto.
    const auto at = text.find("\"overlap_pp_comm\"");
    LP_CHECK(at != std::string::npos);
    text.erase(at, text.find('\n', at) - at + 1);
    const auto old = scenarioFromJson(text);
    LP_CHECK(old.has_value());
    if (old)
        LP_CHECK(old->training.overlapTpComm == Toggle::Auto && !old->training.overlapPpComm &&
                 old->training.overlapDpComm == Toggle::Auto);
}

LP_TEST(auto_takes_the_megatron_core_recipes_habits_on_gpus_with_fp8) {
    // The default scenario's layout (Megatron style on H100, TP 8 with sequence parallel, ZeRO-1 over DP 2)
    // with the switches it states left to auto.
    Scenario s = defaultScenario();
    s.training.overlapTpComm = Toggle::Auto;
    s.training.overlapDpComm = Toggle::Auto;
    s.training.gradPrecision = GradPrecision::Auto;
    LP_CHECK(megatronRecipeHabits(s));
    LP_CHECK(overlapsTpComm(s) && overlapsDpComm(s));
    LP_CHECK_EQ(gradientFormat(s, ExecutionStyle::Megatron).reduceBytes, 2.0);
    LP_CHECK_EQ(gradientFormat(s, ExecutionStyle::Megatron).heldBytes, 2.0);
    // What is stated wins over the habit.
    Scenario off = s;
    off.training.overlapTpComm = Toggle::Off;
    off.training.overlapDpComm = Toggle::Off;
    off.training.gradPrecision = GradPrecision::Fp32;
    LP_CHECK(!overlapsTpComm(off) && !overlapsDpComm(off));
    const Plan habit = evaluate(s), stated = evaluate(off);
    LP_CHECK(habit.valid && stated.valid);
    LP_CHECK(habit.time.tpCommSeconds < stated.time.tpCommSeconds);
    LP_CHECK(habit.time.stepSeconds < stated.time.stepSeconds);
    // Without sequence parallel there is nothing for Transformer Engine's userbuffers to overlap.
    Scenario noSp = s;
    noSp.training.sequenceParallel = false;
    LP_CHECK(!overlapsTpComm(noSp) && overlapsDpComm(noSp));
    // On A100 (no fp8 tensor cores) auto keeps Megatron-LM's own defaults: no overlap, fp32 main grads.
    Scenario a100 = s;
    a100.cluster.gpu = findGpuPreset("a100-sxm-80gb")->gpu;
    LP_CHECK(!megatronRecipeHabits(a100) && !overlapsTpComm(a100) && !overlapsDpComm(a100));
    LP_CHECK_EQ(gradientFormat(a100, ExecutionStyle::Megatron).heldBytes, 4.0);
    // Nor does the FSDP style take them (it overlaps its own way).
    Scenario fsdp = s;
    fsdp.training.executionStyle = ExecutionStyle::Fsdp;
    LP_CHECK(!megatronRecipeHabits(fsdp) && !overlapsTpComm(fsdp));
    // The file's words: true, false and "auto"; anything else names the key and the reason.
    json::Json j = json::Json::parse(scenarioToJson(off));
    j["training"]["overlap_tp_comm"] = "auto";
    const auto back = scenarioFromJson(j.dump());
    LP_CHECK(back.has_value() && back->training.overlapTpComm == Toggle::Auto);
    j["training"]["overlap_tp_comm"] = 3;
    const auto bad = scenarioFromJson(j.dump());
    LP_CHECK(!bad.has_value());
    if (!bad) {
        std::string messages;
        for (const auto& e : bad.error())
            messages += e.message();
        LP_CHECK(messages.find("overlap_tp_comm") != std::string::npos);
        LP_CHECK(messages.find("\"auto\"") != std::string::npos);
    }
}

LP_TEST(tp_overlap_hides_the_collectives_behind_the_gemms_but_not_for_free) {
    const Scenario off = megatron();
    Scenario on = off;
    on.training.overlapTpComm = Toggle::On;
    const Plan a = evaluate(off), b = evaluate(on);
    LP_CHECK(a.valid && b.valid);
    LP_CHECK(a.time.tpCommSeconds > 0);
    // Inside a node the layer's GEMMs are far longer than its collectives: a fifth stays as GEMM slowdown.
    LP_CHECK_NEAR(b.time.tpCommSeconds, 0.2 * a.time.tpCommSeconds, 1e-9);
    LP_CHECK(b.time.stepSeconds < a.time.stepSeconds);
    LP_CHECK_NEAR(b.time.computeSeconds, a.time.computeSeconds, 1e-12);
    LP_CHECK_NEAR(b.modelFlopsPerStep, a.modelFlopsPerStep, 1e-12);
    // Over a thin network (TP 8 on 4-GPU nodes with one 400 Gb/s card per node) the collectives outlast the
    // GEMMs: the excess stays exposed.
    Scenario slow = off;
    slow.cluster.gpusPerNode = 4;
    slow.cluster.nvlinkDomain = 4;
    slow.cluster.nodes = 16;
    slow.cluster.gpu.networkBandwidth = 12.5e9;
    Scenario slowOn = slow;
    slowOn.training.overlapTpComm = Toggle::On;
    const Plan c = evaluate(slow), d = evaluate(slowOn);
    LP_CHECK(c.valid && d.valid);
    LP_CHECK(d.time.tpCommSeconds < c.time.tpCommSeconds);
    LP_CHECK(d.time.tpCommSeconds > 0.2 * c.time.tpCommSeconds);
    LP_CHECK(d.has(DiagnosticId::TpOverSlowLinks));
}

LP_TEST(overlapped_communication_pays_what_exceeds_the_window_and_a_fifth_of_the_rest) {
    LP_CHECK_NEAR(overlappedSeconds(1.0, 3.0), kOverlapResidual * 1.0, 1e-12);       // fully hidden
    LP_CHECK_NEAR(overlappedSeconds(3.0, 1.0), 2.0 + kOverlapResidual * 1.0, 1e-12); // partly hidden
    LP_CHECK_NEAR(overlappedSeconds(2.0, 0.0), 2.0, 1e-12);                          // nothing to hide behind
    LP_CHECK_NEAR(overlappedSeconds(2.0, -1.0), 2.0, 1e-12);
    LP_CHECK_NEAR(overlappedSeconds(0.0, 5.0), 0.0, 0.0);
    // FSDP's per-layer gathers hide behind the layer's compute on one NVLink node, but not for free.
    Scenario s = fixtures::llama8bFsdpOnOneNode();
    s.training.recompute = Recompute::Full;
    const Plan p = evaluate(s);
    LP_CHECK(p.valid);
    LP_CHECK(p.time.dpCommExposedSeconds > 0);
    LP_CHECK(p.time.dpCommExposedSeconds < 0.1 * p.time.stepSeconds);
}

LP_TEST(pp_overlap_removes_the_exposed_send_receive) {
    Scenario s = megatron();
    const Plan a = evaluate(s);
    s.training.overlapPpComm = true;
    const Plan b = evaluate(s);
    LP_CHECK(a.time.ppCommSeconds > 0);
    // Hidden behind the stage's compute, a fifth of it is still paid (the kernels share the SMs).
    LP_CHECK_NEAR(b.time.ppCommSeconds, kOverlapResidual * a.time.ppCommSeconds, 1e-9);
    LP_CHECK(b.time.stepSeconds < a.time.stepSeconds);
}

LP_TEST(dp_overlap_gives_megatron_what_fsdp_does_by_design) {
    // Small model, DP 32 across four nodes: the gradient all-reduce is long enough to notice.
    Scenario s = megatron();
    s.model = findModelPreset("llama3.1-8b")->model;
    s.layout = Layout{};
    s.layout.tp = 2;
    s.layout.dp = 32;
    s.layout.microBatch = 1;
    s.layout.accumulation = 2;
    s.training.zeroStage = 0;
    const Plan a = evaluate(s);
    s.training.overlapDpComm = Toggle::On;
    const Plan b = evaluate(s);
    LP_CHECK(a.valid && b.valid);
    LP_CHECK(a.time.dpCommExposedSeconds > 0);
    LP_CHECK(b.time.dpCommExposedSeconds < a.time.dpCommExposedSeconds);
    // The FSDP style overlaps already: the switch changes nothing there.
    Scenario f = s;
    f.training.executionStyle = ExecutionStyle::Fsdp;
    f.training.overlapDpComm = Toggle::Off;
    Scenario g = f;
    g.training.overlapDpComm = Toggle::On;
    LP_CHECK_NEAR(evaluate(f).time.stepSeconds, evaluate(g).time.stepSeconds, 1e-12);
}

LP_TEST(ep_overlap_hides_the_all_to_alls_behind_another_micro_batch) {
    // Mixtral 8x7B, EP 8 inside one node: each layer's all-to-alls are far shorter than its compute, so the
    // overlap leaves exactly the residual fifth of them.
    Scenario s = fixtures::mixtral(1, 8, 8);
    const Plan off = evaluate(s);
    s.training.overlapEpComm = true;
    const Plan on = evaluate(s);
    LP_CHECK(off.valid && on.valid);
    LP_CHECK(off.time.epCommSeconds > 0);
    LP_CHECK_NEAR(on.time.epCommSeconds, kOverlapResidual * off.time.epCommSeconds, 1e-9);
    LP_CHECK(on.time.stepSeconds < off.time.stepSeconds);
    // The same layout on eight one-GPU nodes joined by a slow 5 GB/s network: the all-to-alls outlast the
    // compute, and what exceeds it stays exposed.
    Scenario wide = s;
    wide.cluster.nodes = 8;
    wide.cluster.gpusPerNode = 1;
    wide.cluster.nvlinkDomain = 1;
    wide.cluster.gpu.networkBandwidth = 5e9;
    wide.training.overlapEpComm = false;
    const Plan wOff = evaluate(wide);
    wide.training.overlapEpComm = true;
    const Plan wOn = evaluate(wide);
    LP_CHECK(wOn.time.epCommSeconds < wOff.time.epCommSeconds);
    LP_CHECK(wOn.time.epCommSeconds > 1.5 * kOverlapResidual * wOff.time.epCommSeconds);
    // A dense model has no all-to-all to hide: the switch changes nothing.
    Scenario dense = defaultScenario();
    const Plan d0 = evaluate(dense);
    dense.training.overlapEpComm = true;
    LP_CHECK_EQ(evaluate(dense).time.stepSeconds, d0.time.stepSeconds);
}

LP_TEST_MAIN()
