// Pipeline bubble, ZeRO sharding, the step-time breakdown, diagnostics and invalid layouts.
#include "ScenarioFixtures.h"
#include "TestHarness.h"
#include "core/estimate/Evaluate.h"
#include "core/estimate/Explain.h"
#include "core/estimate/PlanJson.h"
#include "core/io/Presets.h"
#include "core/model/Units.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <utility>

using namespace lp::core;

namespace {

Scenario withLayout(int tp, int pp, int dp, int mb, int acc) {
    Scenario s = defaultScenario();
    s.layout.tp = tp;
    s.layout.pp = pp;
    s.layout.dp = dp;
    s.layout.microBatch = mb;
    s.layout.accumulation = acc;
    s.cluster.nodes = static_cast<int>(s.layout.gpus() / s.cluster.gpusPerNode);
    return s;
}

int countOf(const Plan& p, DiagnosticId id) {
    int n = 0;
    for (const auto& d : p.diagnostics)
        n += d.id == id;
    return n;
}

} // namespace

LP_TEST(bubble_fraction_follows_p_minus_1_over_v_m) {
    for (int m : {4, 8, 16, 32}) {
        Scenario s = withLayout(8, 4, 2, 1, m);
        const Plan p = evaluate(s);
        LP_CHECK(p.valid);
        // Stages differ slightly (embedding, head), hence a small tolerance.
        LP_CHECK_NEAR(p.time.bubbleFraction, 3.0 / m, 0.03);
        s.layout.vpp = 2;
        const Plan pv = evaluate(s);
        LP_CHECK(pv.valid);
        LP_CHECK_NEAR(pv.time.bubbleFraction, 3.0 / (2.0 * m), 0.03);
    }
    const Plan single = evaluate(withLayout(8, 1, 8, 1, 4));
    LP_CHECK_EQ(single.time.bubbleSeconds, 0.0);
}

// Each thread keeps the last model's parameter count: a plan of another model, or of the same model changed
// in one field or renamed, counts afresh, and going back counts the first again.
LP_TEST(the_kept_parameter_count_follows_the_model) {
    Scenario a = defaultScenario();
    Scenario b = a;
    b.model.layers += 8;
    Scenario renamed = a;
    renamed.model.name = "another name";
    for (const Scenario* s : {&a, &b, &a, &renamed, &b, &a}) {
        const Plan p = evaluate(*s);
        LP_CHECK(p.valid);
        LP_CHECK_EQ(p.params.total, countParameters(s->model).total);
        LP_CHECK_EQ(p.params.active, countParameters(s->model).active);
    }
    LP_CHECK(evaluate(b).params.total > evaluate(a).params.total);
}

// The overload that writes over a caller's plan (a search worker's) gives what a fresh evaluation gives,
// whatever the plan held before: more or fewer stages, diagnostics, a rejected layout, another profile.
LP_TEST(a_plan_evaluated_over_another_equals_a_fresh_one) {
    const Scenario base = defaultScenario();
    const Scenario deep = withLayout(8, 8, 1, 1, 32); // 8 stages
    const Scenario flat = withLayout(8, 1, 8, 1, 8);  // 1 stage, no bubble
    Scenario rejected = base;
    rejected.layout.tp = 3;                            // does not divide the heads: only error diagnostics
    const Scenario tight = withLayout(2, 1, 32, 4, 1); // does not fit: a warning
    const Scenario moe = fixtures::mixtral(2, 4, 4);
    HardwareProfile renamed = builtinProfile(base.cluster.gpu);
    renamed.name = "a profile whose name is longer than any short-string buffer holds";
    Plan reused;
    const Scenario* const order[] = {&deep, &flat, &base, &rejected, &tight, &moe, &deep, &rejected, &base};
    for (const Scenario* s : order) {
        for (const HardwareProfile& profile : {builtinProfile(s->cluster.gpu), renamed}) {
            const Plan fresh = evaluate(*s, profile);
            evaluate(*s, profile, reused);
            LP_CHECK_EQ(planToJson(*s, reused).dump(), planToJson(*s, fresh).dump());
            LP_CHECK_EQ(reused.memory.stages.size(), fresh.memory.stages.size());
            LP_CHECK_EQ(reused.pipeline.stages.size(), fresh.pipeline.stages.size());
            LP_CHECK_EQ(reused.diagnostics.size(), fresh.diagnostics.size());
            LP_CHECK_EQ(reused.profileName, profile.name);
            const std::vector<Explanation> a = explainPlan(*s, reused), b = explainPlan(*s, fresh);
            LP_CHECK_EQ(a.size(), b.size());
            for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i)
                LP_CHECK_EQ(a[i].key + ": " + a[i].substituted, b[i].key + ": " + b[i].substituted);
        }
    }
    LP_CHECK(!evaluate(rejected).valid);
    LP_CHECK(!evaluate(tight).memory.fits);
}

LP_TEST(zero_stages_shard_the_state) {
    Scenario s = withLayout(8, 4, 2, 1, 16);
    s.training.executionStyle = ExecutionStyle::Megatron; // ZeRO-3 re-gathers per micro batch
    double w[4], g[4], o[4];
    for (int z = 0; z <= 3; ++z) {
        s.training.zeroStage = z;
        const Plan p = evaluate(s);
        LP_CHECK(p.valid);
        const StageMemory& st = p.memory.stages[1]; // a middle stage: layers only
        w[z] = st.weightsBytes;
        g[z] = st.gradientsBytes;
        o[z] = st.optimizerBytes;
    }
    const double params = w[0] / 2.0; // 16-bit weights
    // bf16 under Megatron: the main_grad buffer is fp32 (4 bytes per parameter).
    LP_CHECK(s.training.precision == Precision::Bf16);
    LP_CHECK_NEAR(g[0], params * 4.0, 1e-12);
    LP_CHECK_NEAR(o[0], params * 12.0, 1e-12);
    LP_CHECK_NEAR(o[1], params * 12.0 / 2.0, 1e-12); // DP = 2
    LP_CHECK_NEAR(g[1], params * 4.0, 1e-12);
    LP_CHECK_NEAR(g[2], params * 4.0 / 2.0, 1e-12);
    LP_CHECK_NEAR(w[2], params * 2.0, 1e-12);
    LP_CHECK_NEAR(w[3], params * 2.0 / 2.0, 1e-12);
    // fp16 keeps 16-bit gradient buckets (--accumulate-allreduce-grads-in-fp32 is only forced for bf16);
    // the gradient option overrides either default.
    {
        Scenario f16 = s;
        f16.training.precision = Precision::Fp16;
        f16.training.zeroStage = 0;
        f16.training.gradPrecision = GradPrecision::Auto; // the worked example states fp32
        LP_CHECK_NEAR(evaluate(f16).memory.stages[1].gradientsBytes, params * 2.0, 1e-12);
        f16.training.gradPrecision = GradPrecision::Fp32;
        LP_CHECK_NEAR(evaluate(f16).memory.stages[1].gradientsBytes, params * 4.0, 1e-12);
        Scenario half = s;
        half.training.zeroStage = 0;
        half.training.gradPrecision = GradPrecision::Half; // --grad-reduce-in-bf16
        const Plan h = evaluate(half);
        LP_CHECK_NEAR(h.memory.stages[1].gradientsBytes, params * 2.0, 1e-12);
        half.training.gradPrecision = GradPrecision::Fp32;
        const Plan a = evaluate(half);
        // The 16-bit reduction sends half the bytes of the fp32 one.
        LP_CHECK_NEAR(h.intermediates.dpMessageBytes, a.intermediates.dpMessageBytes / 2.0, 1e-9);
    }
    // A middle stage holds L/PP layers, each split by TP.
    const Plan p = evaluate(s);
    LP_CHECK_NEAR(params, p.params.layersTotal / 4.0 / 8.0, 1e-12);
    // FSDP (torchtitan) with a pipeline keeps the stage gathered across micro batches and accumulates
    // unsharded fp32 gradients until the last one; only the optimizer state stays sharded.
    s.training.executionStyle = ExecutionStyle::Fsdp;
    const Plan fsdp = evaluate(s);
    const StageMemory& f = fsdp.memory.stages[1];
    LP_CHECK_NEAR(f.weightsBytes, params * 2.0, 1e-12);
    LP_CHECK_NEAR(f.gradientsBytes, params * 4.0, 1e-12);
    LP_CHECK_NEAR(f.optimizerBytes, params * 12.0 / 2.0, 1e-12);
}

LP_TEST(little_memory_headroom_is_noted_but_a_roomy_plan_is_not) {
    // The default plan leaves ~40% free. Shrink the GPU's memory until the worst stage fills it to
    // within 3%, then to within 10%: only the first gets the note.
    const Scenario base = defaultScenario();
    const Plan roomy = evaluate(base);
    LP_CHECK(!roomy.has(DiagnosticId::LittleMemoryHeadroom));
    const double worst = roomy.memory.stages[static_cast<std::size_t>(roomy.memory.worstStage)].totalBytes;
    Scenario tight = base;
    tight.cluster.gpu.hbmBytes = worst / 0.97;
    const Plan t = evaluate(tight);
    LP_CHECK(t.memory.fits);
    LP_CHECK(t.has(DiagnosticId::LittleMemoryHeadroom));
    for (const auto& d : t.diagnostics)
        if (d.id == DiagnosticId::LittleMemoryHeadroom) {
            LP_CHECK(d.severity == Severity::Info);
            const auto& figures = std::get<diagnostic::LittleMemoryHeadroom>(d.figures);
            LP_CHECK(figures.stage == t.memory.worstStage);
            LP_CHECK_NEAR(figures.headroomBytes, t.memory.headroomBytes, 0.0);
            LP_CHECK_NEAR(figures.headroomShare, 0.03, 1e-9);
            LP_CHECK(diagnosticMessage(d).find("caching allocator") != std::string::npos);
            LP_CHECK(!diagnosticSuggestion(d).empty());
        }
    Scenario ok = base;
    ok.cluster.gpu.hbmBytes = worst / 0.90;
    LP_CHECK(!evaluate(ok).has(DiagnosticId::LittleMemoryHeadroom));
    // A plan that does not fit says so, not this.
    Scenario over = base;
    over.cluster.gpu.hbmBytes = worst * 0.9;
    const Plan o = evaluate(over);
    LP_CHECK(o.has(DiagnosticId::DoesNotFit));
    LP_CHECK(!o.has(DiagnosticId::LittleMemoryHeadroom));
}

LP_TEST(uneven_pipeline_stages_put_the_extra_layers_on_the_first_ranks) {
    Scenario s = withLayout(8, 3, 2, 1, 16); // 80 layers over 3 stages: 27, 27, 26
    s.cluster.nodes = 6;
    const Plan p = evaluate(s);
    LP_CHECK(p.valid);
    LP_CHECK(p.has(DiagnosticId::UnevenPipelineStages));
    LP_CHECK_EQ(p.memory.stages[0].layers, 27);
    LP_CHECK_EQ(p.memory.stages[1].layers, 27);
    LP_CHECK_EQ(p.memory.stages[2].layers, 26);
    LP_CHECK_NEAR(p.intermediates.layersPerStage, 27.0, 0.0); // the busiest rank sets the pace
    // Interleaved: 80 layers in 3 x 2 = 6 chunks of 14, 14, 13, 13, 13, 13; rank i holds chunks i and i + 3.
    s.layout.vpp = 2;
    s.layout.accumulation = 15; // a multiple of PP
    s.layout.dp = 2;
    const Plan v = evaluate(s);
    LP_CHECK(v.valid);
    LP_CHECK_EQ(v.memory.stages[0].layers, 27);
    LP_CHECK_EQ(v.memory.stages[1].layers, 27);
    LP_CHECK_EQ(v.memory.stages[2].layers, 26);
    // An even split gives no diagnostic; too many chunks for the layers is an error.
    LP_CHECK(!evaluate(withLayout(8, 4, 2, 1, 16)).has(DiagnosticId::UnevenPipelineStages));
}

LP_TEST(interleaving_holds_the_warm_up_chunks_on_every_rank) {
    // 80 layers, TP 8 x PP 4 x DP 2, 8 micro batches, 1F1B against 2 virtual stages (chunks of 10 layers).
    // Rank i runs 2(p - i - 1) + (v - 1)p warm-up chunk forwards before its first backward and holds them
    // with the running one: 11, 9, 7 and 5 chunks, 5.5 / 4.5 / 3.5 / 2.5 micro batches of its 20 layers,
    // against 4 / 3 / 2 / 1 with 1F1B. The first rank's is Korthikanti's p x (1 + (p - 1)/(p v)).
    Scenario s = withLayout(8, 4, 2, 1, 8);
    const Plan plain = evaluate(s);
    s.layout.vpp = 2;
    const Plan inter = evaluate(s);
    LP_CHECK(plain.valid && inter.valid);
    const double perLayer = plain.intermediates.activationBytesPerLayer;
    LP_CHECK_NEAR(inter.intermediates.activationBytesPerLayer, perLayer, 1e-9);
    LP_CHECK_NEAR(inter.intermediates.activationLayersInFlight, 20.0 * 4.0 * (1.0 + 3.0 / 8.0), 1e-9);
    const double plainMb[] = {4.0, 3.0, 2.0, 1.0}, interMb[] = {5.5, 4.5, 3.5, 2.5};
    for (int i = 0; i < 4; ++i)
        LP_CHECK_NEAR(inter.memory.stages[i].activationsBytes - plain.memory.stages[i].activationsBytes,
                      20.0 * (interMb[i] - plainMb[i]) * perLayer, 1e-6 * perLayer);
    // With as many micro batches as stages every chunk is in flight on the first rank before its first
    // backward: all m micro batches of its layers, no more than 1F1B holds there.
    s.layout.accumulation = 4;
    s.layout.dp = 4;
    s.cluster.nodes = 16;
    const Plan all = evaluate(s);
    s.layout.vpp = 1;
    const Plan allPlain = evaluate(s);
    LP_CHECK(all.valid && allPlain.valid);
    LP_CHECK_NEAR(all.intermediates.activationLayersInFlight, 20.0 * 4.0, 1e-9);
    LP_CHECK_NEAR(all.memory.stages[0].activationsBytes, allPlain.memory.stages[0].activationsBytes,
                  1e-6 * perLayer);
}

LP_TEST(torch_pipelining_holds_a_receive_buffer_per_micro_batch_and_the_in_flight_outputs) {
    // FSDP style (ZeRO 3: torchtitan), TP 8 x PP 4 x DP 2, 8 micro batches of 1. A stage-boundary tensor is
    // 2 x b x s x h / TP bytes (sequence parallel). Per rank, beyond what Megatron's habits hold:
    // 1F1B: rank 0 the 8 gradient buffers and its 4 in-flight outputs; ranks 1-2 the 8 + 8 receive buffers
    // (their in-flight inputs are the first layer's saved inputs, their in-flight outputs match them);
    // rank 3 the 8 activation buffers less the one in-flight input already counted.
    Scenario s = withLayout(8, 4, 2, 1, 8);
    s.training.zeroStage = 3;
    s.training.sequenceParallel = true;
    const double boundary = 2.0 * s.layout.microBatch * s.model.seqLen * s.model.hidden / s.layout.tp;
    auto extra = [&](const Scenario& sc) {
        const Plan with = evaluate(sc);
        const Plan without = fixtures::evaluateWithoutFsdpHabit(sc, &StyleTraits::torchPipelineBuffers);
        LP_CHECK(with.valid && without.valid);
        std::vector<double> out;
        for (std::size_t i = 0; i < with.memory.stages.size(); ++i)
            out.push_back(
                (with.memory.stages[i].activationsBytes - without.memory.stages[i].activationsBytes) /
                boundary);
        return out;
    };
    const std::vector<double> plain = extra(s);
    const double plainWant[] = {12.0, 16.0, 16.0, 7.0};
    for (int i = 0; i < 4; ++i)
        LP_CHECK_NEAR(plain[static_cast<std::size_t>(i)], plainWant[i], 1e-9);
    // Interleaved (2 chunks per rank): a forward and a backward buffer per micro batch for each chunk but
    // global stage 0's activations and the last global stage's gradients; rank 0 adds its 5.5 micro batches
    // of in-flight outputs, rank 3 subtracts its last chunk's in-flight inputs (2.5 / 2).
    s.layout.vpp = 2;
    const std::vector<double> inter = extra(s);
    const double interWant[] = {29.5, 32.0, 32.0, 22.75};
    for (int i = 0; i < 4; ++i)
        LP_CHECK_NEAR(inter[static_cast<std::size_t>(i)], interWant[i], 1e-9);
    // The plan records the worst stage's buffers and the explanation names them.
    const Plan p = evaluate(s);
    LP_CHECK_NEAR(p.intermediates.pipelineBufferBytes / boundary, interWant[p.memory.worstStage], 1e-9);
    const auto e = explainFigure(s, p, "memory.activations");
    LP_CHECK(e && e->substituted.find("torch pipeline buffers") != std::string::npos);
    // ... with the worst stage's own numbers: its layers in flight, and the logits only on the last stage.
    if (e) {
        LP_CHECK(e->substituted.rfind("stage " + std::to_string(p.memory.worstStage) + ": ", 0) == 0);
        LP_CHECK((e->substituted.find("logits") != std::string::npos) ==
                 (p.memory.worstStage == s.layout.pp - 1));
    }
    // Megatron's pipeline frees what it sent and receives into short-lived tensors: none of this.
    s.training.zeroStage = 1;
    const Plan megatron = evaluate(s);
    LP_CHECK_EQ(megatron.intermediates.pipelineBufferBytes, 0.0);
}

LP_TEST(breakdown_adds_up_to_the_step) {
    for (int z : {0, 1, 3}) {
        for (Recompute rc : {Recompute::None, Recompute::Selective, Recompute::Full}) {
            Scenario s = withLayout(8, 4, 2, 2, 16);
            s.training.zeroStage = z;
            s.training.recompute = rc;
            s.training.stragglerSlowdown = 0.05;
            s.training.loaderPrefetch = false;
            const Plan p = evaluate(s);
            const TimeBreakdown& t = p.time;
            const double sum = t.computeSeconds + t.recomputeSeconds + t.tpCommSeconds + t.ppCommSeconds +
                               t.cpCommSeconds + t.epCommSeconds + t.bubbleSeconds + t.dpCommExposedSeconds +
                               t.optimizerSeconds + t.loaderSeconds + t.stragglerSeconds + t.overheadSeconds;
            LP_CHECK_NEAR(sum, t.stepSeconds, 1e-9);
            if (rc == Recompute::None)
                LP_CHECK_EQ(t.recomputeSeconds, 0.0);
            if (rc == Recompute::Full)
                LP_CHECK(t.recomputeSeconds > 0.25 * t.computeSeconds);
        }
    }
}

LP_TEST(default_scenario_is_valid_fits_and_is_well_tuned) {
    const Plan p = evaluate(defaultScenario());
    LP_CHECK(p.valid);
    LP_CHECK(p.memory.fits);
    LP_CHECK(p.mfu > 0.30 && p.mfu < 0.60);
    LP_CHECK(p.hfu >= p.mfu);
    LP_CHECK_EQ(p.memory.worstStage, 0); // the first stage keeps PP micro batches in flight
    // The seed's bubble: (4 - 1) / 16 = 19%, reported as information.
    LP_CHECK_EQ(countOf(p, DiagnosticId::PipelineBubble), 1);
    for (const auto& d : p.diagnostics)
        LP_CHECK(d.id == DiagnosticId::PipelineBubble && d.severity == Severity::Info);
}

LP_TEST(each_diagnostic_fires_when_it_should) {
    { // TP over slow links: TP 16 spans two 8-GPU nodes.
        Scenario s = withLayout(16, 4, 1, 1, 16);
        s.model.kvHeads = 16;
        const Plan p = evaluate(s);
        LP_CHECK(p.valid);
        LP_CHECK(p.has(DiagnosticId::TpOverSlowLinks));
        LP_CHECK(!evaluate(withLayout(8, 4, 2, 1, 16)).has(DiagnosticId::TpOverSlowLinks));
    }
    { // Bubble: 3 micro batches for 4 stages.
        const Plan p = evaluate(withLayout(8, 4, 2, 2, 3));
        LP_CHECK(p.has(DiagnosticId::PipelineBubble));
        LP_CHECK(!evaluate(withLayout(8, 1, 8, 1, 16)).has(DiagnosticId::PipelineBubble));
    }
    { // Loader without prefetch, and a slow one.
        Scenario s = defaultScenario();
        s.training.loaderPrefetch = false;
        s.training.loaderTokensPerSecond = 2e4;
        const Plan p = evaluate(s);
        LP_CHECK(p.has(DiagnosticId::LoaderNotPrefetching));
        LP_CHECK(p.has(DiagnosticId::MfuBelow20));
        s.training.loaderPrefetch = true;
        LP_CHECK(!evaluate(s).has(DiagnosticId::LoaderNotPrefetching));
    }
    { // Stragglers.
        Scenario s = defaultScenario();
        s.training.stragglerSlowdown = 0.15;
        const Plan p = evaluate(s);
        LP_CHECK(p.has(DiagnosticId::Stragglers));
        LP_CHECK_NEAR(p.time.stragglerSeconds, 0.15 * (p.time.stepSeconds - p.time.stragglerSeconds), 1e-9);
    }
    { // FSDP gathers and TP collectives both on the network cards.
        Scenario s = withLayout(16, 1, 4, 1, 16);
        s.model.kvHeads = 16;
        s.training.zeroStage = 3;
        const Plan p = evaluate(s);
        LP_CHECK(p.has(DiagnosticId::ShardingTrafficContendsWithTp));
        s.training.zeroStage = 1;
        LP_CHECK(!evaluate(s).has(DiagnosticId::ShardingTrafficContendsWithTp));
    }
    { // Does not fit: no model parallelism and no sharding.
        Scenario s = withLayout(1, 1, 64, 1, 1);
        s.training.zeroStage = 0;
        const Plan p = evaluate(s);
        LP_CHECK(p.valid);
        LP_CHECK(!p.memory.fits);
        LP_CHECK(p.memory.headroomBytes < 0);
        LP_CHECK(p.has(DiagnosticId::DoesNotFit));
        LP_CHECK(!evaluate(defaultScenario()).has(DiagnosticId::DoesNotFit));
    }
}

LP_TEST(invalid_layouts_are_rejected_with_their_id) {
    auto only = [](const Scenario& s, DiagnosticId id) {
        const Plan p = evaluate(s);
        LP_CHECK(!p.valid);
        LP_CHECK(p.has(id));
        for (const auto& d : p.diagnostics)
            LP_CHECK(d.severity == Severity::Error && isInvalidLayoutId(d.id));
        return p;
    };
    {
        Scenario s = defaultScenario();
        s.layout.tp = 3;
        s.layout.dp = 1;
        only(s, DiagnosticId::HeadsNotDivisibleByTp);
    }
    {
        Scenario s = withLayout(16, 2, 2, 1, 16); // 64 heads divide by 16, 8 KV heads do not
        only(s, DiagnosticId::KvHeadsNotDivisibleByTp);
    }
    {
        Scenario s = withLayout(1, 8, 8, 1, 16); // 80 layers cannot fill 8 x 16 = 128 chunks
        s.layout.vpp = 16;
        only(s, DiagnosticId::LayersNotDivisibleByPp);
    }
    {
        Scenario s = defaultScenario();
        s.layout.dp = 3; // 96 GPUs on a 64-GPU cluster
        only(s, DiagnosticId::GpuCountMismatch);
    }
    {
        Scenario s = defaultScenario();
        s.layout.vpp = 2;
        s.layout.accumulation = 6; // interleaving needs micro batches in multiples of PP
        only(s, DiagnosticId::BatchNotDivisible);
    }
}

LP_TEST(zero_and_negative_sizes_are_invalid_values_not_crashes) {
    Scenario s = defaultScenario();
    s.model.hidden = 0;
    Plan p = evaluate(s);
    LP_CHECK(!p.valid && p.has(DiagnosticId::InvalidValue));
    s = defaultScenario();
    s.layout.microBatch = -2;
    p = evaluate(s);
    LP_CHECK(!p.valid && p.has(DiagnosticId::InvalidValue));
    s = defaultScenario();
    s.cluster.gpu.hbmBandwidth = 0;
    p = evaluate(s);
    LP_CHECK(!p.valid && p.has(DiagnosticId::InvalidValue));
    for (const auto& d : p.diagnostics)
        LP_CHECK(!diagnosticMessage(d).empty() && !diagnosticSuggestion(d).empty());
}

LP_TEST(every_figure_explains_itself) {
    const Scenario s = defaultScenario();
    const Plan p = evaluate(s);
    const auto all = explainPlan(s, p);
    LP_CHECK(all.size() >= 25);
    for (const auto& e : all) {
        LP_CHECK(!e.formula.empty() && !e.substituted.empty() && !e.source.empty() && !e.words.empty());
        LP_CHECK(std::isfinite(e.value));
    }
    const auto mfu = explainFigure(s, p, "mfu");
    LP_CHECK(mfu.has_value());
    if (mfu) {
        LP_CHECK_NEAR(mfu->value, p.mfu, 1e-12);
        LP_CHECK(mfu->substituted.find("64") != std::string::npos); // the GPU count is substituted
    }
    const auto batch = explainFigure(s, p, "effective_batch");
    LP_CHECK(batch && batch->substituted == "2 x 16 x 2 = 64");
    LP_CHECK(explanationKeys().size() == all.size());
}

namespace {
// Llama 3.1 8B on 64 GPUs, FSDP style with full sharding: eager elementwise kernels unless told otherwise.
Scenario fsdpEightB() {
    Scenario s = withLayout(1, 1, 64, 1, 4);
    s.model = findModelPreset("llama3.1-8b")->model;
    s.training.zeroStage = 3;
    s.training.executionStyle = ExecutionStyle::Fsdp;
    return s;
}
} // namespace

LP_TEST(torch_compile_fuses_the_fsdp_styles_eager_elementwise_kernels) {
    Scenario s = fsdpEightB();
    const Plan eager = evaluate(s);
    s.training.torchCompile = true;
    const Plan compiled = evaluate(s);
    LP_CHECK(eager.valid && compiled.valid);
    // With flash attention every memory-bound byte is elementwise work: eager moves twice the fused traffic.
    LP_CHECK_NEAR(compiled.intermediates.memoryBoundBytesPerLayer,
                  eager.intermediates.memoryBoundBytesPerLayer / 2.0,
                  1e-9 * eager.intermediates.memoryBoundBytesPerLayer);
    LP_CHECK(compiled.time.computeSeconds < eager.time.computeSeconds);
    LP_CHECK(compiled.time.stepSeconds < eager.time.stepSeconds);
    // Memory: only the loss changes, compiled with the model (4 bytes per logit, not the eager 12).
    LP_CHECK(compiled.memory.stages[0].weightsBytes == eager.memory.stages[0].weightsBytes);
    LP_CHECK_NEAR(eager.intermediates.logitsBytes - compiled.intermediates.logitsBytes,
                  eager.intermediates.logitsBytes * 8.0 / 12.0, 1e-9 * eager.intermediates.logitsBytes);
    LP_CHECK(compiled.memory.headroomBytes > eager.memory.headroomBytes);
    // The Megatron style's kernels are fused already: compiling changes nothing there.
    s.training.executionStyle = ExecutionStyle::Megatron;
    const Plan megatron = evaluate(s);
    s.training.torchCompile = false;
    LP_CHECK_NEAR(evaluate(s).time.stepSeconds, megatron.time.stepSeconds, 0.0);
    // The compute explanation says which it is.
    s.training.executionStyle = ExecutionStyle::Fsdp;
    const auto text = [](const Scenario& sc) {
        for (const Explanation& e : explainPlan(sc, evaluate(sc)))
            if (e.key == "time.compute")
                return e.substituted + " " + e.words;
        return std::string();
    };
    LP_CHECK(text(s).find("eager: one kernel per op") != std::string::npos);
    s.training.torchCompile = true;
    LP_CHECK(text(s).find("compiled: fused") != std::string::npos);
}

LP_TEST(fused_kernels_fuse_the_fsdp_styles_elementwise_work_and_leave_the_loss) {
    // Transformer Engine's or Liger's norm, rotary and SwiGLU kernels in a PyTorch trainer (NeMo AutoModel):
    // the elementwise traffic of torch.compile, but the loss as it was.
    Scenario s = fsdpEightB();
    const Plan eager = evaluate(s);
    s.training.fusedKernels = true;
    const Plan fused = evaluate(s);
    LP_CHECK(eager.valid && fused.valid);
    LP_CHECK_NEAR(fused.intermediates.memoryBoundBytesPerLayer,
                  eager.intermediates.memoryBoundBytesPerLayer / 2.0,
                  1e-9 * eager.intermediates.memoryBoundBytesPerLayer);
    LP_CHECK(fused.time.stepSeconds < eager.time.stepSeconds);
    LP_CHECK_NEAR(fused.intermediates.logitsBytes, eager.intermediates.logitsBytes,
                  0.0); // the eager loss stays
    Scenario compiled = s;
    compiled.training.fusedKernels = false;
    compiled.training.torchCompile = true;
    LP_CHECK_NEAR(evaluate(compiled).intermediates.memoryBoundBytesPerLayer,
                  fused.intermediates.memoryBoundBytesPerLayer,
                  1e-9 * fused.intermediates.memoryBoundBytesPerLayer);
    bool said = false;
    for (const Explanation& e : explainPlan(s, fused))
        said = said || (e.key == "time.compute" &&
                        e.substituted.find("fused kernels: TE, Liger") != std::string::npos);
    LP_CHECK(said);
    // Megatron's kernels are fused already.
    s.training.executionStyle = ExecutionStyle::Megatron;
    const double megatron = evaluate(s).time.stepSeconds;
    s.training.fusedKernels = false;
    LP_CHECK_NEAR(evaluate(s).time.stepSeconds, megatron, 0.0);
}

LP_TEST(groups_over_the_nvlink_domain_say_which_group_and_what_crosses) {
    const auto text = [](auto figures) {
        return diagnosticMessage(makeDiagnostic(Severity::Warning, 0.0125, figures));
    };
    LP_CHECK_EQ(
        text(diagnostic::TpOverSlowLinks{16, 8, {}}),
        std::string("The tensor-parallel group (TP 16) is larger than the NVLink domain (8 GPUs): its "
                    "all-reduces cross the network and cost 12.5 ms per step."));
    LP_CHECK_EQ(
        text(diagnostic::EpCrossesNodes{2, 8, {}}),
        std::string("The expert-parallel group (expert TP 2 x EP 8 = 16 GPUs) is larger than the NVLink "
                    "domain: token all-to-alls cross the network and cost 12.5 ms per step."));
    LP_CHECK_EQ(
        text(diagnostic::CpCrossesNodes{4, 4, {}}),
        std::string("The context-parallel group (TP 4 x CP 4 GPUs) is larger than the NVLink domain: the "
                    "key/value exchange crosses the network (12.5 ms per step exposed)."));
}

LP_TEST(diagnostics_quote_their_named_figures) {
    // The share of the step first; the ratio named as the bubble over the bubble-free time.
    const Diagnostic bubble =
        makeDiagnostic(Severity::Warning, 0.125, diagnostic::PipelineBubble{0.3, 8, 0.3 / 1.3});
    LP_CHECK(bubble.id == DiagnosticId::PipelineBubble);
    LP_CHECK_EQ(diagnosticMessage(bubble),
                std::string("The pipeline bubble is 23.1% of the step: 125.0 ms per step with idle GPUs "
                            "(30.0% of the bubble-free pipeline time: 8 micro batches through the slowest "
                            "stage)."));
    const Diagnostic full =
        makeDiagnostic(Severity::Warning, 0,
                       diagnostic::DoesNotFit{2, MemoryComponent::Activations, 90.0 * kGiB, 80.0 * kGiB});
    LP_CHECK_EQ(diagnosticMessage(full),
                std::string("Does not fit: pipeline stage 2 needs 90.0 GiB of the GPU's "
                            "80.0 GiB; its largest part is the activations."));
    // In the unit the user chose, as the memory chart beside it reads.
    LP_CHECK_EQ(diagnosticMessage(full, MemoryUnit::GB),
                std::string("Does not fit: pipeline stage 2 needs 96.6 GB of the GPU's "
                            "85.9 GB; its largest part is the activations."));
    const Diagnostic tight =
        makeDiagnostic(Severity::Warning, 0, diagnostic::LittleMemoryHeadroom{1, 2.0 * kGiB, 0.025});
    LP_CHECK(diagnosticMessage(tight, MemoryUnit::GB).starts_with("Only 2.1 GB (2.5%) of the GPU's memory"));
    LP_CHECK(diagnosticMessage(tight).starts_with("Only 2.0 GiB (2.5%) of the GPU's memory"));
    const Diagnostic cluster = makeDiagnostic(Severity::Error, 0, diagnostic::GpuCountMismatch{64, 799992});
    LP_CHECK_EQ(diagnosticMessage(cluster),
                std::string("TP x PP x CP x DP = 64 GPUs, but the cluster has 799,992."));
    const Diagnostic slow = makeDiagnostic(Severity::Warning, 0.01, diagnostic::TpOverSlowLinks{16, 8, {}});
    LP_CHECK(diagnosticSuggestion(slow).find("use TP <= 8") != std::string::npos);
    const Diagnostic dp = makeDiagnostic(Severity::Info, 0.2, diagnostic::ExposedDpComm{0.15, 4, {}, {}});
    LP_CHECK(diagnosticSuggestion(dp).find("shard degree 4") != std::string::npos);
    const Diagnostic bad =
        makeDiagnostic(Severity::Error, 0, diagnostic::InvalidValue{diagnostic::InvalidPart::Cluster});
    LP_CHECK(diagnosticMessage(bad).find("the cluster (") != std::string::npos);
    LP_CHECK(diagnosticMessage(bad).find("(code 3).") != std::string::npos);
    // Every kind has its stable id, a message and a suggestion, whatever its figures.
    [&]<std::size_t... kind>(std::index_sequence<kind...>) {
        (
            [&] {
                Diagnostic d;
                d.id = static_cast<DiagnosticId>(kind);
                d.figures = DiagnosticFigures{std::in_place_index<kind>};
                LP_CHECK(!diagnosticIdString(d.id).empty());
                LP_CHECK(!diagnosticMessage(d).empty());
                LP_CHECK(!diagnosticSuggestion(d).empty());
            }(),
            ...);
    }
    (std::make_index_sequence<kDiagnosticCount>{});
}

LP_TEST_MAIN()

LP_TEST(block_recompute_re_runs_its_share_of_each_chunk_and_keeps_the_rest) {
    // The default 70B layout: 80 layers on PP 4, 20 per stage. Recomputing 5 of each stage's 20 layers
    // (Megatron-LM --recompute-method block --recompute-num-layers 5) costs a quarter of full recompute's
    // extra forward and holds the other 15 layers' activations whole.
    Scenario s = defaultScenario();
    s.layout.vpp = 1;
    s.training.recompute = Recompute::Full;
    s.training.recomputeLayers = 0;
    const Plan every = evaluate(s);
    s.training.recomputeLayers = 20;
    const Plan all = evaluate(s);
    s.training.recomputeLayers = 500; // more than a chunk has: every layer
    const Plan beyond = evaluate(s);
    s.training.recomputeLayers = 5;
    const Plan block = evaluate(s);
    Scenario n = s;
    n.training.recompute = Recompute::None;
    const Plan none = evaluate(n);
    LP_CHECK(every.valid && block.valid && none.valid);
    LP_CHECK_NEAR(all.time.stepSeconds, every.time.stepSeconds, 1e-12);
    LP_CHECK_NEAR(beyond.time.stepSeconds, every.time.stepSeconds, 1e-12);
    LP_CHECK_NEAR(all.memory.stages[0].totalBytes, every.memory.stages[0].totalBytes, 1e-12);
    LP_CHECK_NEAR(block.time.recomputeSeconds, 0.25 * every.time.recomputeSeconds, 1e-9);
    // Per layer: a quarter of the layers keep their input, three quarters everything.
    LP_CHECK_NEAR(block.intermediates.activationBytesPerLayer,
                  0.25 * every.intermediates.activationBytesPerLayer +
                      0.75 * none.intermediates.activationBytesPerLayer,
                  1e-9);
    LP_CHECK(block.time.stepSeconds > none.time.stepSeconds &&
             block.time.stepSeconds < every.time.stepSeconds);
    LP_CHECK(block.memory.stages[0].activationsBytes > every.memory.stages[0].activationsBytes &&
             block.memory.stages[0].activationsBytes < none.memory.stages[0].activationsBytes);
    LP_CHECK_NEAR(block.intermediates.flopsPerTokenHardware -
                      block.intermediates.flopsPerTokenModel, // a quarter of the recomputed FLOPs
                  0.25 * (every.intermediates.flopsPerTokenHardware - every.intermediates.flopsPerTokenModel),
                  1e-9);
    // With interleaving the count is per virtual stage: 5 of each 5-layer chunk (VPP 4) is every layer.
    s.layout.vpp = 4;
    const Plan chunkAll = evaluate(s);
    s.training.recomputeLayers = 0;
    LP_CHECK_NEAR(chunkAll.time.stepSeconds, evaluate(s).time.stepSeconds, 1e-12);
    // Without full recompute the count changes nothing.
    n.training.recomputeLayers = 3;
    LP_CHECK_NEAR(evaluate(n).time.stepSeconds, none.time.stepSeconds, 1e-12);
}
