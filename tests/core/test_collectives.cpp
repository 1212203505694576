// Collective costs (docs/estimation.md section 6, "Collectives"): ring all-reduce and all-gather over n
// ranks, and across the network a ring's bus efficiency set by its per-step chunk, S/n.
#include "ScenarioFixtures.h"
#include "TestHarness.h"
#include "core/estimate/Collectives.h"
#include "core/estimate/Diagnostic.h"
#include "core/estimate/Evaluate.h"
#include "core/estimate/Explain.h"
#include "core/io/Presets.h"
#include "core/model/Hardware.h"

#include <cmath>
#include <optional>
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

using fixtures::findDiagnostic;

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

// A link remembers its curve's value at the last message size (a plan asks for the same collective's figure
// again for its explanation); what it answers must never be stale: another size, another curve (a copy
// pointed elsewhere) or another bandwidth or fabric scale gives the fresh figure.
LP_TEST(a_links_remembered_look_up_is_never_stale) {
    const Curve curve = networkCurve();
    Curve flat;
    flat.points = {{1e3, 0.3}, {1e12, 0.3}};
    flat.index();
    Link link{25e9, &curve, 12e-6, kNetworkCurveRanks};
    const auto fresh = [](const Link& l, double bytes) {
        return l.bandwidth * l.efficiency->at(bytes) * l.efficiencyScale;
    };
    for (double bytes : {4e6, 4e6, 64e6, 4e6, 1e3, 64e6})
        LP_CHECK_EQ(link.busBandwidth(bytes), fresh(link, bytes));
    Link other = link; // copies the remembered value of 64e6 on `curve`
    other.efficiency = &flat;
    LP_CHECK_EQ(other.busBandwidth(64e6), 0.3 * 25e9);
    LP_CHECK_EQ(link.busBandwidth(64e6), fresh(link, 64e6));
    link.bandwidth *= 0.5; // a card shared by two kinds of traffic
    link.efficiencyScale = 0.8;
    LP_CHECK_EQ(link.busBandwidth(64e6), fresh(link, 64e6));
}

// NCCL's tree all-reduce across NVLink domains (its tuning model, src/graph/tuning.cc): hops up and down a
// chain through each domain's members and a tree across the domains, at 0.46 of the bus bandwidth. The
// all-reduce takes whichever of ring and tree is faster, as NCCL's tuner does.
LP_TEST(an_all_reduce_across_domains_takes_nccls_tree_where_it_is_faster) {
    const Curve curve = networkCurve();
    Link net{25e9, &curve, 12e-6, kNetworkCurveRanks};
    // Within one domain (no members per domain stated) there is no tree: the ring.
    LP_CHECK_EQ(allReduceTreeHops(1024, net), 0);
    LP_CHECK(std::isinf(allReduceTreeSeconds(1024, 1e6, net)));
    LP_CHECK_EQ(allReduceSeconds(1024, 1e6, net), allReduceRingSeconds(1024, 1e6, net));
    // 128 domains of 8: 2 x (log2 128 + 8 - 1) = 28 hops where the ring has 2 x 1,023 steps.
    net.membersPerDomain = 8;
    LP_CHECK_EQ(allReduceTreeHops(1024, net), 28);
    LP_CHECK_EQ(allReduceTreeHops(8, net), 0);            // one domain's worth of members: no tree
    LP_CHECK_EQ(allReduceTreeHops(24, net), 2 * (2 + 7)); // 3 domains: a tree of depth 2
    // A small buffer over many ranks: the ring's latency dominates and the tree wins by far.
    const double small = 4e6;
    const double tree = allReduceTreeSeconds(1024, small, net);
    LP_CHECK(std::abs(tree - (small / (0.46 * net.busBandwidth(small)) + 28 * 12e-6)) < 1e-12);
    LP_CHECK(tree < 0.2 * allReduceRingSeconds(1024, small, net));
    LP_CHECK_EQ(allReduceSeconds(1024, small, net), tree);
    // A large buffer over two domains: the ring's bandwidth (n/(2(n-1)) of the bus) beats the tree's 0.46.
    const double large = 4e9;
    LP_CHECK(allReduceRingSeconds(16, large, net) < allReduceTreeSeconds(16, large, net));
    LP_CHECK_EQ(allReduceSeconds(16, large, net), allReduceRingSeconds(16, large, net));
}

// A plain data-parallel (ZeRO 0) run over a thousand GPUs all-reduces its gradients on the tree; the
// diagnostic and the explanation say so, with the tree's hops of latency.
LP_TEST(zero0_gradients_cross_a_thousand_gpus_on_the_tree) {
    Scenario s = fixtures::llama2_7bDataParallelOnA100(128, 0);
    const Plan p = evaluate(s);
    LP_CHECK_EQ(p.intermediates.dpTreeHops, 28);
    LP_CHECK(std::abs(p.intermediates.dpRingLatencySeconds - 28 * s.cluster.networkLatencySeconds) < 1e-12);
    const Diagnostic* d = findDiagnostic(p, DiagnosticId::ExposedDpComm);
    LP_CHECK(d != nullptr);
    if (d) {
        const std::string text = diagnosticMessage(*d);
        LP_CHECK(text.find("an all-reduce over 1,024 ranks on NCCL's tree") != std::string::npos);
        LP_CHECK(text.find("28 hops of latency") != std::string::npos);
        LP_CHECK(text.find("where the ring has 2,046 steps") != std::string::npos);
    }
    const std::optional<Explanation> e = explainFigure(s, p, "time.dp_comm");
    LP_CHECK(e.has_value());
    if (e)
        LP_CHECK(e->words.find("NCCL's tree is faster than its ring: 28 hops") != std::string::npos);
    // On one node the same all-reduce is a ring.
    s.cluster.nodes = 1;
    s.layout.dp = 8;
    LP_CHECK_EQ(evaluate(s).intermediates.dpTreeHops, 0);
}

// The exposed data-parallel diagnostic says what the ring spends its time on.
LP_TEST(the_exposed_dp_diagnostic_names_what_dominates_the_ring) {
    using diagnostic::RingCostDriver;
    LP_CHECK(diagnostic::ringCostDriver({1024, 4e5, 0.24, 12e-3, 2e-3}) == RingCostDriver::Latency);
    LP_CHECK(diagnostic::ringCostDriver({64, 6e6, 0.2, 0.8e-3, 30e-3}) == RingCostDriver::SmallChunks);
    LP_CHECK(diagnostic::ringCostDriver({16, 50e6, 0.8, 0.2e-3, 40e-3}) == RingCostDriver::Bandwidth);

    const Scenario s = fixtures::llama2_7bDataParallelOnA100(128, 3);
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
    const auto perGpu = [](int dp) {
        const Plan p = evaluate(fixtures::llama2_7bDataParallelOnA100(dp / 8, 3));
        LP_CHECK(p.valid);
        return p.tokensPerSecondPerGpu;
    };
    const double at64 = perGpu(64), at1024 = perGpu(1024), at2048 = perGpu(2048);
    LP_CHECK(at1024 < 0.6 * at64);
    LP_CHECK(at2048 < 0.7 * at1024);
}

LP_TEST_MAIN()
