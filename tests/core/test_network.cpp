// The network between nodes as a user states it (docs/formats.md, "Cluster network"): the cards' per-GPU
// share, each fabric's physics (docs/estimation.md, "Network fabrics"), presets with their real cards, and
// the same plan as before where no network is stated.
#include "ScenarioFixtures.h"
#include "TestHarness.h"
#include "core/estimate/Diagnostic.h"
#include "core/estimate/Evaluate.h"
#include "core/io/Presets.h"
#include "core/io/ScenarioJson.h"
#include "core/measured/Validation.h"
#include "core/model/Hardware.h"

#include <string>
#include <variant>

using namespace lp::core;
using lp::core::fixtures::findDiagnostic;

namespace {

// Llama-2-70B-class on two DGX A100 nodes, TP 8 inside each node and DP 2 across them (ZeRO-1: the
// gradients' reduce-scatter and the weights' all-gather cross the network every step).
Scenario twoNodes() {
    Scenario s = defaultScenario();
    s.cluster = makeCluster(*findClusterPreset("dgx-a100"), 2);
    s.layout.tp = 8;
    s.layout.pp = 1;
    s.layout.dp = 2;
    s.layout.vpp = 1;
    s.model.layers = 16;
    return s;
}

NetworkSpec cards(Fabric fabric, int count, double gbps) {
    NetworkSpec n;
    n.fabric = fabric;
    n.cardsPerNode = count;
    n.cardGbps = gbps;
    return n;
}

double stepSeconds(const Scenario& s) {
    const Plan p = evaluate(s);
    LP_CHECK(p.valid);
    return p.time.stepSeconds;
}

// The scenario's JSON with the cluster's "gpu" key preceded by `network` ("" for none).
std::string withNetwork(const std::string& network) {
    Scenario s = defaultScenario();
    s.cluster.network.reset();
    std::string json = scenarioToJson(s);
    if (!network.empty())
        json.replace(json.find("\"gpu\": {"), 0, "\"network\": " + network + ", ");
    return json;
}

std::string firstReason(const std::string& json) {
    const auto r = scenarioFromJson(json);
    return r.has_value() || r.error().empty() ? std::string() : r.error().front().message();
}

} // namespace

LP_TEST(the_cards_give_each_gpu_its_share) {
    LP_CHECK_NEAR(networkShareBytesPerSecond(cards(Fabric::OmniPath, 4, 100), 8), 6.25e9, 1e-9);
    LP_CHECK_NEAR(networkShareBytesPerSecond(cards(Fabric::Efa, 32, 100), 8), 50e9, 1e-9);
    ClusterSpec c = makeCluster(*findClusterPreset("dgx-a100"), 2);
    setNetwork(c, cards(Fabric::EthernetTcp, 1, 100));
    LP_CHECK_NEAR(c.gpu.networkBandwidth, 1.5625e9, 1e-9);
    LP_CHECK_EQ(c.networkLatencySeconds, fabricPhysics(Fabric::EthernetTcp).stepLatencySeconds);
    c.gpusPerNode = 4;
    refreshNetworkShare(c);
    LP_CHECK_NEAR(c.gpu.networkBandwidth, 3.125e9, 1e-9);
    LP_CHECK_EQ(networkDescription(c), std::string("1 x 100 Gb/s TCP/Ethernet per 4 GPUs"));
    // Without stated cards: one per GPU at its figure, on InfiniBand.
    ClusterSpec plain;
    const NetworkSpec implied = statedOrImpliedNetwork(plain);
    LP_CHECK_EQ(implied.cardsPerNode, 8);
    LP_CHECK_NEAR(implied.cardGbps, 400, 1e-9);
    LP_CHECK(networkDescription(plain).empty());
}

LP_TEST(fabric_ids_read_back) {
    for (const FabricPhysics& f : fabrics()) {
        LP_CHECK(parseFabric(f.id) == f.fabric);
        LP_CHECK(parseFabric(f.name) == f.fabric);
        LP_CHECK_EQ(toString(f.fabric), std::string(f.id));
        LP_CHECK(f.busEfficiencyScale > 0 && f.busEfficiencyScale <= 1);
        LP_CHECK(&fabricPhysics(f.fabric) == &f);
    }
    LP_CHECK(!parseFabric("myrinet"));
    LP_CHECK(parseFabric("InfiniBand") == Fabric::InfiniBand);
}

LP_TEST(a_scenarios_network_round_trips) {
    Scenario s = twoNodes();
    setNetwork(s.cluster, cards(Fabric::OmniPath, 4, 100));
    s.cluster.network->railOptimized = false;
    s.cluster.networkLatencySeconds = 20e-6;
    const auto back = scenarioFromJson(scenarioToJson(s));
    LP_CHECK(back.has_value());
    if (back)
        LP_CHECK(back->cluster == s.cluster);
    // Without one, none comes back.
    Scenario plain = twoNodes();
    plain.cluster.network.reset();
    const auto none = scenarioFromJson(scenarioToJson(plain));
    LP_CHECK(none.has_value() && !none->cluster.network);
}

LP_TEST(a_stated_network_sets_the_share_and_the_fabrics_latency) {
    const auto r = scenarioFromJson(withNetwork(R"({"fabric": "ethernet-tcp", "cards_per_node": 2,
        "card_gbps": 100, "rail_optimized": false})"));
    LP_CHECK(r.has_value());
    if (!r)
        return;
    LP_CHECK(r->cluster.network && r->cluster.network->fabric == Fabric::EthernetTcp);
    LP_CHECK_NEAR(r->cluster.gpu.networkBandwidth, 3.125e9, 1e-9);
    // The cluster's own network_latency_s (written by scenarioToJson) states the latency over the fabric's.
    LP_CHECK_EQ(r->cluster.networkLatencySeconds, defaultScenario().cluster.networkLatencySeconds);
    // Over a preset, one key changes the preset's cards.
    const auto half = scenarioFromJson(
        R"({"schema": "layout-planner/scenario", "version": 1,
            "cluster": {"preset": "dgx-a100", "nodes": 2, "network": {"cards_per_node": 4}}})");
    LP_CHECK(half.has_value());
    if (half) {
        LP_CHECK_NEAR(half->cluster.gpu.networkBandwidth, 12.5e9, 1e-9);
        LP_CHECK(half->cluster.network->fabric == Fabric::InfiniBand);
    }
}

LP_TEST(bad_network_values_name_their_field) {
    const auto reason = [](const std::string& network) { return firstReason(withNetwork(network)); };
    LP_CHECK(reason(R"({"fabric": "myrinet", "cards_per_node": 4, "card_gbps": 100})")
                 .starts_with("$.cluster.network.fabric: unknown value \"myrinet\""));
    LP_CHECK(reason(R"({"cards_per_node": 0, "card_gbps": 100})")
                 .starts_with("$.cluster.network.cards_per_node:"));
    LP_CHECK(reason(R"({"cards_per_node": 4, "card_gbps": -1})").starts_with("$.cluster.network.card_gbps:"));
    LP_CHECK(
        reason(R"({"cards_per_node": 4, "card_gbps": 1e-9})").starts_with("$.cluster.network.card_gbps:"));
    LP_CHECK(reason(R"({"card_gbps": 100})").starts_with("$.cluster.network.cards_per_node: missing"));
    LP_CHECK(reason(R"({"cards_per_node": 4, "card_gbps": 100, "latency_s": 2})")
                 .starts_with("$.cluster.network.latency_s:"));
    LP_CHECK(reason(R"({"cards_per_node": 4, "card_gbps": 100, "speed": 1})")
                 .starts_with("$.cluster.network.speed: unknown key"));
    LP_CHECK(reason(R"("fast")").starts_with("$.cluster.network: wrong type"));
    // The latency stated twice.
    LP_CHECK(reason(R"({"cards_per_node": 4, "card_gbps": 100, "latency_s": 2e-5})")
                 .starts_with("$.cluster.network_latency_s: given twice"));
}

LP_TEST(fabrics_cost_in_the_order_of_their_physics) {
    const auto step = [](Fabric fabric) {
        Scenario s = twoNodes();
        setNetwork(s.cluster, cards(fabric, 8, 200));
        return stepSeconds(s);
    };
    const double ib = step(Fabric::InfiniBand);
    LP_CHECK_EQ(step(Fabric::RoCE), ib);
    LP_CHECK_EQ(step(Fabric::Efa), ib);
    LP_CHECK(step(Fabric::OmniPath) > ib);
    LP_CHECK(step(Fabric::EthernetTcp) > ib);
}

LP_TEST(half_the_cards_make_two_nodes_slower) {
    Scenario eight = twoNodes();
    Scenario four = twoNodes();
    setNetwork(four.cluster, cards(Fabric::InfiniBand, 4, 200));
    const Plan a = evaluate(eight), b = evaluate(four);
    LP_CHECK(a.valid && b.valid);
    LP_CHECK(b.time.stepSeconds > a.time.stepSeconds);
    LP_CHECK(b.time.dpCommExposedSeconds > 1.5 * a.time.dpCommExposedSeconds);
}

LP_TEST(no_stated_network_plans_as_before) {
    // The GPU's figure on InfiniBand's physics, and the same cards stated as InfiniBand: the same plan.
    Scenario plain = twoNodes();
    plain.cluster.network.reset();
    Scenario stated = twoNodes();
    setNetwork(stated.cluster, cards(Fabric::InfiniBand, 8, 200));
    LP_CHECK_EQ(stepSeconds(plain), stepSeconds(stated));
    LP_CHECK_EQ(networkEfficiencyScale(plain.cluster), 1.0);
}

LP_TEST(every_preset_states_its_cards_and_their_share) {
    for (const ClusterPreset& p : clusterPresets()) {
        if (!p.network)
            continue;
        LP_CHECK_NEAR(networkShareBytesPerSecond(*p.network, p.gpusPerNode), p.networkBandwidth, 1e-9);
        const ClusterSpec c = makeCluster(p, 2);
        LP_CHECK(c.network == p.network);
        LP_CHECK(matchingClusterPreset(c) != nullptr);
    }
    const ClusterPreset* jz = findClusterPreset("jean-zay-a100");
    LP_CHECK(jz && jz->network && jz->network->fabric == Fabric::OmniPath && jz->network->cardsPerNode == 4);
    const ClusterPreset* p4d = findClusterPreset("aws-p4d");
    LP_CHECK(p4d && p4d->network && p4d->network->fabric == Fabric::Efa && p4d->network->cardGbps == 100);
    const ClusterPreset* neox = findClusterPreset("coreweave-a100-4hdr");
    LP_CHECK(neox && neox->network && neox->network->cardsPerNode == 4 && neox->networkBandwidth == 12.5e9);
}

LP_TEST(diagnostics_name_the_stated_network) {
    Scenario s = twoNodes();
    s.cluster = makeCluster(*findClusterPreset("jean-zay-a100"), 2);
    s.layout.tp = 16;
    s.layout.dp = 1;
    s.model.layers = 16;
    s.model.kvHeads = s.model.heads; // TP 16 splits the key/value heads too
    const Plan p = evaluate(s);
    const Diagnostic* d = findDiagnostic(p, DiagnosticId::TpOverSlowLinks);
    LP_CHECK(d != nullptr);
    if (d)
        LP_CHECK(diagnosticMessage(*d).find("(4 x 100 Gb/s Omni-Path per 8 GPUs)") != std::string::npos);
}

LP_TEST(a_validation_case_on_a_preset_takes_its_fabric) {
    const std::string json = R"({"schema": "layout-planner/validation-cases@2", "cases": [{"id": "x",
        "model": {"name": "m", "layers": 32, "hidden": 4096, "heads": 32, "kv_heads": 8, "ffn_hidden": 14336,
                  "vocab": 128256, "seq_len": 4096, "mlp": "swiglu", "tied_embeddings": false},
        "hardware": {"gpu": "a100-sxm-80gb", "gpus": 16, "gpus_per_node": 8},
        "layout": {"tp": 2, "pp": 1, "dp": 8, "micro_batch": 1, "global_batch": 64, "sequence_parallel": true,
                   "recompute": "none", "zero_stage": 1, "precision": "bf16"},
        "cluster": CLUSTER,
        "measured": {"tokens_per_s_per_gpu": 1000}}]})";
    const auto read = [&](const std::string& cluster) {
        std::string text = json;
        text.replace(text.find("CLUSTER"), 7, cluster);
        return validationCasesFromJson(text);
    };
    const auto jz = read(R"({"preset": "jean-zay-a100"})");
    LP_CHECK(jz.has_value() && jz->size() == 1);
    if (jz && !jz->empty()) {
        const ClusterSpec& c = jz->front().scenario.cluster;
        LP_CHECK(c.network && c.network->fabric == Fabric::OmniPath);
        LP_CHECK_NEAR(c.gpu.networkBandwidth, 6.25e9, 1e-9);
    }
    const auto own = read(R"({"network": {"fabric": "roce", "cards_per_node": 4, "card_gbps": 200}})");
    LP_CHECK(own.has_value() && own->size() == 1);
    if (own && !own->empty())
        LP_CHECK_NEAR(own->front().scenario.cluster.gpu.networkBandwidth, 12.5e9, 1e-9);
}

LP_TEST_MAIN()
