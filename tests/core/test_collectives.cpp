// Collective costs (docs/estimation.md section 6, "Collectives"): ring all-reduce and all-gather over n
// ranks, and across the network a ring's bus efficiency set by its per-step chunk, S/n.
#include "ScenarioFixtures.h"
#include "TestHarness.h"
#include "core/estimate/Collectives.h"
#include "core/estimate/Diagnostic.h"
#include "core/estimate/Evaluate.h"
#include "core/io/Presets.h"
#include "core/model/Hardware.h"

#include <cmath>
#include <string>
#include <variant>

using namespace lp::core;

namespace {

// e(S) = 0.8 S / (S + 16 MB), as the built-in network curves are made.
Curve networkCurve() {
    Curve c;
    for (double e = 3.0; e <= 11.01; e += 0.25) {
        const double bytes = std::pow(10.0, e);
        c.points.emplace_back(bytes, 0.8 * bytes / (bytes + 16e6));
    }
    return c;
}

double bandwidthSeconds(int n, double bytes, const Link& link) {
    Link noLatency = link;
    noLatency.latencySeconds = 0;
    return allGatherSeconds(n, bytes, noLatency);
}

} // namespace

LP_TEST(a_network_ring_runs_at_the_efficiency_of_its_chunks) {
    const Curve curve = networkCurve();
    const Link net{25e9, &curve, 12e-6, kNetworkCurveRanks};
    const double bytes = 400e6; // a 7B model's layer in 16 bits
    // On the ranks the curve was measured on, the curve applies to the whole buffer.
    LP_CHECK(std::abs(net.ringBusBandwidth(kNetworkCurveRanks, bytes) - net.busBandwidth(bytes)) < 1.0);
    // On 64 times as many ranks each step moves a 64th of the chunk: the curve's efficiency at S / 64.
    const int many = 64 * kNetworkCurveRanks;
    LP_CHECK(std::abs(net.ringBusBandwidth(many, bytes) - net.busBandwidth(bytes / 64)) < 1.0);
    // So the bandwidth part of an all-gather over 1,024 ranks is several times that over 16.
    const double ratio =
        bandwidthSeconds(many, bytes, net) / bandwidthSeconds(kNetworkCurveRanks, bytes, net);
    LP_CHECK(ratio > 3.0);
    // And the latency part still grows with the ring's n - 1 steps.
    LP_CHECK(allGatherSeconds(many, bytes, net) - bandwidthSeconds(many, bytes, net) >
             (many - 1) * 12e-6 * 0.999);
    // All-reduce moves the same chunks twice.
    LP_CHECK(std::abs(allReduceSeconds(many, bytes, net) - 2 * allGatherSeconds(many, bytes, net)) <
             1e-9 * allReduceSeconds(many, bytes, net));
}

LP_TEST(an_nvlink_ring_keeps_the_curve_of_its_buffer) {
    const Curve curve = networkCurve();
    const Link nv{450e9, &curve, 1e-6}; // curveRanks 0: measured by buffer size on 2-8 GPUs
    LP_CHECK(nv.ringBusBandwidth(8, 64e6) == nv.busBandwidth(64e6));
    LP_CHECK(nv.ringBusBandwidth(2, 64e6) == nv.busBandwidth(64e6));
}

using fixtures::findDiagnostic;

// The exposed data-parallel diagnostic says what the ring spends its time on.
LP_TEST(the_exposed_dp_diagnostic_names_what_dominates_the_ring) {
    using diagnostic::RingCostDriver;
    LP_CHECK(diagnostic::ringCostDriver({1024, 4e5, 0.24, 12e-3, 2e-3}) == RingCostDriver::Latency);
    LP_CHECK(diagnostic::ringCostDriver({64, 6e6, 0.2, 0.8e-3, 30e-3}) == RingCostDriver::SmallChunks);
    LP_CHECK(diagnostic::ringCostDriver({16, 50e6, 0.8, 0.2e-3, 40e-3}) == RingCostDriver::Bandwidth);

    Scenario s = defaultScenario();
    s.model = findModelPreset("llama-2-7b")->model;
    s.cluster.gpu = findGpuPreset("a100-sxm-80gb")->gpu;
    s.cluster.nodes = 128;
    s.training.zeroStage = 3;
    s.training.executionStyle = ExecutionStyle::Fsdp;
    s.layout = Layout{};
    s.layout.dp = 1024;
    s.layout.microBatch = 1;
    s.layout.accumulation = 1;
    const Plan p = evaluate(s);
    const Diagnostic* d = findDiagnostic(p, DiagnosticId::ExposedDpComm);
    LP_CHECK(d != nullptr);
    if (!d)
        return;
    const auto& f = std::get<diagnostic::ExposedDpComm>(d->figures);
    LP_CHECK_EQ(f.ring.ranks, 1024);
    LP_CHECK(std::abs(f.ring.latencySeconds - 1023 * s.cluster.networkLatencySeconds) < 1e-9);
    const std::string text = diagnosticMessage(*d);
    LP_CHECK(text.find("a ring over 1,024 ranks") != std::string::npos);
    LP_CHECK(text.find("latency dominates") != std::string::npos);
}

// ZeRO-3 at a large data-parallel degree with one sequence per GPU: the per-layer gathers over the whole
// data-parallel group get slower as the group grows, so per-GPU throughput falls, as it does on such runs.
LP_TEST(zero3_per_gpu_throughput_falls_with_a_large_data_parallel_group) {
    Scenario s = defaultScenario();
    s.model = findModelPreset("llama-2-7b")->model;
    s.cluster.gpu = findGpuPreset("a100-sxm-80gb")->gpu;
    s.training.zeroStage = 3;
    s.training.executionStyle = ExecutionStyle::Fsdp;
    s.layout = Layout{};
    s.layout.microBatch = 1;
    s.layout.accumulation = 1;
    const auto perGpu = [&](int dp) {
        Scenario at = s;
        at.cluster.nodes = dp / 8;
        at.layout.dp = dp;
        const Plan p = evaluate(at);
        LP_CHECK(p.valid);
        return p.tokensPerSecondPerGpu;
    };
    const double at64 = perGpu(64), at1024 = perGpu(1024), at2048 = perGpu(2048);
    LP_CHECK(at1024 < 0.6 * at64);
    LP_CHECK(at2048 < 0.7 * at1024);
}

LP_TEST_MAIN()
