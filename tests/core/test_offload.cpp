// CPU offloading (docs/estimation.md, section 6 "CPU offloading"): the optimizer state and step on the CPU,
// activations of N layers per stage in host memory, both priced by the GPU's host link and host memory.
#include "TestHarness.h"
#include "core/estimate/Evaluate.h"
#include "core/estimate/Explain.h"
#include "core/estimate/detail/EvalContext.h"
#include "core/io/Presets.h"
#include "core/io/ScenarioJson.h"
#include "core/measured/Validation.h"

#include <algorithm>
#include <string>

using namespace lp::core;

namespace {

bool anyErrorAt(const InputErrors& errors, const std::string& path) {
    return std::any_of(errors.begin(), errors.end(), [&](const InputError& e) { return e.path == path; });
}

double stageActivations(const Plan& p, int stage) {
    return p.memory.stages[static_cast<std::size_t>(stage)].activationsBytes;
}

} // namespace

LP_TEST(offloading_is_off_by_default_and_costs_nothing_then) {
    const Scenario s = defaultScenario();
    LP_CHECK(!s.training.optimizerOffload);
    LP_CHECK_EQ(s.training.activationOffloadLayers, 0);
    const Plan p = evaluate(s);
    LP_CHECK(p.valid);
    LP_CHECK_EQ(p.memory.hostBytesPerGpu, 0.0);
    LP_CHECK_EQ(p.time.offloadSeconds, 0.0);
    LP_CHECK(!p.has(DiagnosticId::CpuOffloadCost));
    for (const StageMemory& st : p.memory.stages)
        LP_CHECK_EQ(st.hostBytes, 0.0);
}

LP_TEST(optimizer_offload_moves_the_optimizer_state_to_the_host) {
    const Scenario gpu = defaultScenario(); // ZeRO-1: the optimizer state is sharded, the gradients are not
    Scenario cpu = gpu;
    cpu.training.optimizerOffload = true;
    const Plan a = evaluate(gpu), b = evaluate(cpu);
    LP_CHECK(a.valid && b.valid);
    for (std::size_t i = 0; i < a.memory.stages.size(); ++i) {
        const StageMemory &on = a.memory.stages[i], &off = b.memory.stages[i];
        LP_CHECK(on.optimizerBytes > 0);
        LP_CHECK_EQ(off.optimizerBytes, 0.0);
        LP_CHECK_NEAR(off.hostBytes, on.optimizerBytes, on.optimizerBytes * 1e-12);
        LP_CHECK_NEAR(off.gradientsBytes, on.gradientsBytes, 1.0); // ZeRO-1 reduces the gradient on the GPU
        LP_CHECK(off.totalBytes < on.totalBytes - 0.9 * on.optimizerBytes);
    }
    // The step now runs on the CPU at a fraction of the host's memory bandwidth: far slower than HBM.
    LP_CHECK(b.time.optimizerSeconds > 10 * a.time.optimizerSeconds);
    LP_CHECK_NEAR(b.time.optimizerSeconds,
                  b.intermediates.cpuOptimizerSeconds + b.intermediates.optimizerTransferSeconds, 1e-12);
    LP_CHECK(b.time.stepSeconds > a.time.stepSeconds);
    LP_CHECK(b.has(DiagnosticId::CpuOffloadCost));

    // With ZeRO-2 the reduced gradient shard goes to the host as well.
    Scenario zero2 = cpu;
    zero2.training.zeroStage = 2;
    Scenario zero2Gpu = gpu;
    zero2Gpu.training.zeroStage = 2;
    const Plan c = evaluate(zero2), d = evaluate(zero2Gpu);
    LP_CHECK(c.valid && d.valid);
    const StageMemory &w = c.memory.stages[0], &g = d.memory.stages[0];
    LP_CHECK_EQ(w.gradientsBytes, 0.0);
    LP_CHECK_NEAR(w.hostBytes, g.optimizerBytes + g.gradientsBytes, 1.0);
    LP_CHECK_NEAR(c.intermediates.offloadedGradientBytes, g.gradientsBytes, 1.0);
}

LP_TEST(the_cpu_step_follows_the_host_memory_bandwidth) {
    Scenario s = defaultScenario();
    s.training.optimizerOffload = true;
    Scenario slow = s;
    slow.cluster.gpu.hostMemoryBandwidth = s.cluster.gpu.hostMemoryBandwidth / 4;
    const Plan a = evaluate(s), b = evaluate(slow);
    LP_CHECK(a.valid && b.valid);
    LP_CHECK_NEAR(b.intermediates.cpuOptimizerSeconds, 4 * a.intermediates.cpuOptimizerSeconds,
                  a.intermediates.cpuOptimizerSeconds * 1e-9);
    // 28 bytes per held parameter at half the GPU's share of the host's DRAM bandwidth.
    const double held = a.intermediates.cpuOptimizerSeconds * s.cluster.gpu.hostMemoryBandwidth *
                        detail::kCpuOptimizerEfficiency / 28.0;
    const double stageParams = a.params.total / s.layout.pp / s.layout.tp; // about: embedding and head aside
    LP_CHECK(held > 0.7 * stageParams / s.layout.dp && held < 1.5 * stageParams / s.layout.dp);
}

LP_TEST(activation_offload_frees_the_gpu_and_fills_the_host) {
    const Scenario base = defaultScenario(); // 80 layers on PP 4: 20 per stage, stage 0 holds 4 micro batches
    Scenario s = base;
    s.training.activationOffloadLayers = 10;
    const Plan a = evaluate(base), b = evaluate(s);
    LP_CHECK(a.valid && b.valid);
    const double perLayer = b.intermediates.offloadBytesPerLayer;
    LP_CHECK(perLayer > 0);
    // Stage 0 keeps 4 micro batches in flight: 10 layers x 4 of them go to the host, one layer stays as
    // staging.
    const double moved = 10 * 4 * perLayer;
    LP_CHECK_NEAR(stageActivations(a, 0) - stageActivations(b, 0), moved - perLayer, moved * 1e-9);
    LP_CHECK_NEAR(b.memory.stages[0].hostBytes, moved, moved * 1e-9);
    LP_CHECK_NEAR(b.memory.hostBytesPerGpu, moved, moved * 1e-9);
    LP_CHECK_EQ(b.intermediates.offloadedLayers, 10);
    LP_CHECK_NEAR(b.intermediates.offloadMicroBatchesInFlight, 4.0, 1e-12);
    // The last stage holds one micro batch in flight: less to move, less saved.
    LP_CHECK(b.memory.stages[3].hostBytes < b.memory.stages[0].hostBytes);
    // Offloading every layer frees more than offloading half of them.
    Scenario all = base;
    all.training.activationOffloadLayers = 80;
    const Plan c = evaluate(all);
    LP_CHECK(c.valid);
    LP_CHECK(stageActivations(c, 0) < stageActivations(b, 0));
    LP_CHECK_EQ(c.intermediates.offloadedLayers, 20); // no more than the stage's layers
}

LP_TEST(activation_copies_are_free_on_a_fast_link_and_exposed_on_a_slow_one) {
    Scenario s = defaultScenario();
    s.training.activationOffloadLayers = 20;
    Scenario fast = s, slow = s;
    fast.cluster.gpu.hostLinkBandwidth = 1e13; // far faster than any layer's compute needs
    slow.cluster.gpu.hostLinkBandwidth = 4e9;  // a PCIe 3.0 x4 link
    const Plan base = evaluate(defaultScenario()), f = evaluate(fast), w = evaluate(slow);
    LP_CHECK(f.valid && w.valid);
    LP_CHECK_EQ(f.time.offloadSeconds, 0.0);
    LP_CHECK_NEAR(f.time.stepSeconds, base.time.stepSeconds, base.time.stepSeconds * 1e-9);
    LP_CHECK(w.time.offloadSeconds > 0);
    // Past the compute window every extra byte is exposed: the copy time per layer is the slow link's.
    LP_CHECK_NEAR(w.intermediates.offloadCopySecondsPerLayer,
                  w.intermediates.offloadBytesPerLayer /
                      (slow.cluster.gpu.hostLinkBandwidth * detail::kHostLinkEfficiency),
                  1e-15);
    const double m = s.layout.accumulation;
    LP_CHECK(w.time.offloadSeconds < m * 20 * 2 * w.intermediates.offloadCopySecondsPerLayer);
    LP_CHECK(w.time.offloadSeconds > m * 20 * (2 * w.intermediates.offloadCopySecondsPerLayer) * 0.3);
    LP_CHECK(w.time.stepSeconds > base.time.stepSeconds + 0.9 * w.time.offloadSeconds);
    LP_CHECK(w.has(DiagnosticId::CpuOffloadCost));
    // The breakdown still adds up: the components of one step account for the whole step.
    const TimeBreakdown& t = w.time;
    const double sum = t.computeSeconds + t.recomputeSeconds + t.tpCommSeconds + t.ppCommSeconds +
                       t.cpCommSeconds + t.epCommSeconds + t.offloadSeconds + t.bubbleSeconds +
                       t.dpCommExposedSeconds + t.optimizerSeconds + t.loaderSeconds + t.stragglerSeconds +
                       t.overheadSeconds;
    LP_CHECK_NEAR(sum, t.stepSeconds, t.stepSeconds * 0.02);
}

LP_TEST(every_offload_number_explains_itself) {
    Scenario s = defaultScenario();
    s.training.activationOffloadLayers = 5;
    s.training.optimizerOffload = true;
    const Plan p = evaluate(s);
    LP_CHECK(p.valid);
    for (const char* key : {"memory.host_offload", "time.offload", "time.optimizer"}) {
        const auto e = explainFigure(s, p, key);
        LP_CHECK(e.has_value());
        if (e)
            LP_CHECK(!e->substituted.empty());
    }
    const auto host = explainFigure(s, p, "memory.host_offload");
    if (host) {
        LP_CHECK_NEAR(host->value, p.memory.hostBytesPerGpu, 1.0);
        LP_CHECK(host->substituted.find("5 layers") != std::string::npos);
    }
    // Without offloading there is no host-memory figure to explain.
    LP_CHECK(
        !explainFigure(defaultScenario(), evaluate(defaultScenario()), "memory.host_offload").has_value());
}

LP_TEST(scenario_files_carry_offloading_and_refuse_impossible_values) {
    Scenario s = defaultScenario();
    s.training.optimizerOffload = true;
    s.training.activationOffloadLayers = 7;
    s.cluster.gpu.hostLinkBandwidth = 2.25e11;
    s.cluster.gpu.hostMemoryBandwidth = 2.56e11;
    const auto back = scenarioFromJson(scenarioToJson(s));
    LP_CHECK(back.has_value());
    if (back) {
        LP_CHECK(back->training.optimizerOffload);
        LP_CHECK_EQ(back->training.activationOffloadLayers, 7);
        LP_CHECK_EQ(back->cluster.gpu.hostLinkBandwidth, 2.25e11);
        LP_CHECK_EQ(back->cluster.gpu.hostMemoryBandwidth, 2.56e11);
    }
    // More layers than the model has, or a zero host link: refused, naming the field.
    const std::string written = scenarioToJson(s);
    const auto refusedAt = [&](const std::string& from, const std::string& to, const std::string& path) {
        std::string text = written;
        const auto at = text.find(from);
        LP_CHECK(at != std::string::npos);
        if (at == std::string::npos)
            return;
        text.replace(at, from.size(), to);
        const auto bad = scenarioFromJson(text);
        LP_CHECK(!bad.has_value());
        if (!bad)
            LP_CHECK(anyErrorAt(bad.error(), path));
    };
    refusedAt("\"activation_offload_layers\": 7", "\"activation_offload_layers\": 81",
              "$.training.activation_offload_layers");
    refusedAt("\"host_link_bandwidth_bytes_per_s\": 2.25e11", "\"host_link_bandwidth_bytes_per_s\": 0",
              "$.cluster.gpu.host_link_bandwidth_bytes_per_s");
}

LP_TEST(a_gpu_written_before_the_host_figures_takes_its_presets) {
    // A file from before the host keys: its A100 gets PCIe 4.0's link, not the default's PCIe 5.0.
    Scenario s = defaultScenario();
    const GpuPreset* a100 = findGpuPreset("a100-sxm-80gb");
    LP_CHECK(a100 != nullptr);
    if (!a100)
        return;
    s.cluster.gpu = a100->gpu;
    std::string text = scenarioToJson(s);
    for (const char* key : {"\"host_link_bandwidth_bytes_per_s\"", "\"host_memory_bandwidth_bytes_per_s\"",
                            "\"host_memory_bytes\""}) {
        const auto at = text.find(key);
        LP_CHECK(at != std::string::npos);
        if (at == std::string::npos)
            return;
        text.erase(at, text.find('\n', at) - at + 1);
    }
    const auto old = scenarioFromJson(text);
    LP_CHECK(old.has_value());
    if (old) {
        LP_CHECK_EQ(old->cluster.gpu.hostLinkBandwidth, a100->gpu.hostLinkBandwidth);
        LP_CHECK_EQ(old->cluster.gpu.hostMemoryBandwidth, a100->gpu.hostMemoryBandwidth);
        LP_CHECK_EQ(old->cluster.gpu.hostMemoryBytes, a100->gpu.hostMemoryBytes);
        LP_CHECK(old->cluster.gpu.hostLinkBandwidth < GpuSpec{}.hostLinkBandwidth);
    }
}

LP_TEST(offloading_beyond_the_hosts_memory_is_flagged) {
    Scenario s = defaultScenario();
    s.training.optimizerOffload = true;
    s.training.activationOffloadLayers = 20;
    const Plan fits = evaluate(s);
    LP_CHECK(fits.valid);
    LP_CHECK(fits.memory.hostBytesPerGpu > 0);
    LP_CHECK_EQ(fits.memory.hostCapacityBytes, s.cluster.gpu.hostMemoryBytes);
    LP_CHECK(fits.memory.hostBytesPerGpu < fits.memory.hostCapacityBytes); // a DGX H100's 250 GB per GPU
    LP_CHECK(!fits.has(DiagnosticId::HostMemoryExceeded));
    // A host with less memory than the offloaded state: a warning naming both figures, the plan still valid.
    s.cluster.gpu.hostMemoryBytes = fits.memory.hostBytesPerGpu / 2;
    const Plan over = evaluate(s);
    LP_CHECK(over.valid);
    LP_CHECK(over.has(DiagnosticId::HostMemoryExceeded));
    for (const Diagnostic& d : over.diagnostics)
        if (d.id == DiagnosticId::HostMemoryExceeded) {
            LP_CHECK(d.severity == Severity::Warning);
            LP_CHECK(diagnosticMessage(d).find("pinned host memory") != std::string::npos);
        }
    // Without offloading nothing is kept on the host, whatever its size.
    Scenario none = defaultScenario();
    none.cluster.gpu.hostMemoryBytes = 1e6;
    LP_CHECK(!evaluate(none).has(DiagnosticId::HostMemoryExceeded));
}

LP_TEST(every_gpu_preset_describes_its_host) {
    for (const GpuPreset& p : gpuPresets()) {
        LP_CHECK(p.gpu.hostLinkBandwidth > 1e9 && p.gpu.hostLinkBandwidth < 1e12);
        LP_CHECK(p.gpu.hostMemoryBandwidth > 1e10 && p.gpu.hostMemoryBandwidth < 1e12);
        LP_CHECK(p.gpu.hostMemoryBytes > p.gpu.hbmBytes / 2 && p.gpu.hostMemoryBytes < 1e12);
        LP_CHECK(p.gpu.source.find("Host memory") != std::string::npos);
        LP_CHECK(p.gpu.source.find("Host") != std::string::npos);
    }
    // Grace's NVLink-C2C is several times a PCIe 5.0 slot.
    const GpuPreset* gb200 = findGpuPreset("gb200");
    const GpuPreset* h100 = findGpuPreset("h100-sxm-80gb");
    LP_CHECK(gb200 && h100);
    if (gb200 && h100)
        LP_CHECK(gb200->gpu.hostLinkBandwidth > 3 * h100->gpu.hostLinkBandwidth);
}

LP_TEST(validation_cases_may_state_the_recipes_offloading) {
    const std::string text = R"({"schema": "layout-planner/validation-cases@1", "cases": [{
        "id": "offload", "source": "Megatron-Bridge", "confidence": "high", "notes": "",
        "model": {"name": "m", "layers": 32, "hidden": 4096, "heads": 32, "kv_heads": 8, "ffn_hidden": 14336,
                  "vocab": 128256, "mlp": "swiglu", "tied_embeddings": false, "seq_len": 8192, "moe": null},
        "hardware": {"gpu": "gb200", "gpus": 8, "gpus_per_node": 4},
        "layout": {"tp": 1, "pp": 1, "dp": 8, "cp": 1, "ep": 1, "vpp": 1, "micro_batch": 1, "global_batch": 8,
                   "sequence_parallel": false, "recompute": "none", "zero_stage": 3, "precision": "bf16",
                   "activation_offload_layers": 12, "optimizer_offload": true},
        "measured": {"tokens_per_s_per_gpu": 1000}}]})";
    const auto cases = validationCasesFromJson(text);
    LP_CHECK(cases.has_value());
    if (cases) {
        LP_CHECK_EQ(cases->front().scenario.training.activationOffloadLayers, 12);
        LP_CHECK(cases->front().scenario.training.optimizerOffload);
    }
    // More offloaded layers than the model has: the case is refused, naming the key.
    std::string bad = text;
    bad.replace(bad.find("\"activation_offload_layers\": 12"), 31, "\"activation_offload_layers\": 33");
    const auto refused = validationCasesFromJson(bad);
    LP_CHECK(!refused.has_value());
    if (!refused)
        LP_CHECK(!refused.error().empty() &&
                 refused.error().front().path.find("activation_offload_layers") != std::string::npos);
}

LP_TEST_MAIN()
