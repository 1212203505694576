// Communication-overlap switches (docs/estimation.md section 6): TP collectives behind the GEMMs, pipeline
// send/receive behind compute, data-parallel reduction behind the backward pass, MoE all-to-alls behind
// another micro batch's compute.
#include "ScenarioFixtures.h"
#include "TestHarness.h"
#include "core/estimate/Collectives.h"
#include "core/estimate/Evaluate.h"
#include "core/io/Presets.h"
#include "core/io/ScenarioJson.h"

using namespace lp::core;

namespace {

Scenario megatron() {
    Scenario s = defaultScenario(); // TP 8 x PP 4 x DP 2, Megatron style
    s.training.executionStyle = ExecutionStyle::Megatron;
    return s;
}

} // namespace

LP_TEST(all_switches_default_off_and_survive_a_round_trip) {
    const Scenario d = defaultScenario();
    LP_CHECK(!d.training.overlapTpComm && !d.training.overlapPpComm && !d.training.overlapDpComm);
    Scenario s = d;
    s.training.overlapTpComm = true;
    s.training.overlapDpComm = true;
    const auto back = scenarioFromJson(scenarioToJson(s));
    LP_CHECK(back.has_value());
    if (back) {
        LP_CHECK(back->training.overlapTpComm);
        LP_CHECK(!back->training.overlapPpComm);
        LP_CHECK(back->training.overlapDpComm);
    }
    // A file written before the switches existed still loads, with all of them off.
    std::string text = scenarioToJson(d);
    for (const char* key : {"\"overlap_tp_comm\"", "\"overlap_pp_comm\"", "\"overlap_dp_comm\""}) {
        const auto at = text.find(key);
        LP_CHECK(at != std::string::npos);
        const auto end = text.find('\n', at);
        text.erase(at, end - at + 1);
    }
    const auto old = scenarioFromJson(text);
    LP_CHECK(old.has_value());
    if (old)
        LP_CHECK(!old->training.overlapTpComm && !old->training.overlapPpComm &&
                 !old->training.overlapDpComm);
}

LP_TEST(tp_overlap_hides_the_collectives_behind_the_gemms_but_not_for_free) {
    const Scenario off = megatron();
    Scenario on = off;
    on.training.overlapTpComm = true;
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
    slowOn.training.overlapTpComm = true;
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
    s.training.overlapDpComm = true;
    const Plan b = evaluate(s);
    LP_CHECK(a.valid && b.valid);
    LP_CHECK(a.time.dpCommExposedSeconds > 0);
    LP_CHECK(b.time.dpCommExposedSeconds < a.time.dpCommExposedSeconds);
    // The FSDP style overlaps already: the switch changes nothing there.
    Scenario f = s;
    f.training.executionStyle = ExecutionStyle::Fsdp;
    f.training.overlapDpComm = false;
    Scenario g = f;
    g.training.overlapDpComm = true;
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
