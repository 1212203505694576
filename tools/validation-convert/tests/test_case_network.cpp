// The inter-node network a validation case is planned on: what its notes state, or the cloud machine they
// name (the case format has no network field).
#include "TestHarness.h"
#include "tools/validation-convert/tests/ProseFixtures.h"

#include <string>
#include <vector>

using namespace lp::core;
using namespace lp::tools;
using namespace lp::tools::testing;
using namespace lp::core::fixtures;

LP_TEST(a_case_whose_notes_state_the_network_is_planned_on_it) {
    // The format has no network field; the notes say what the source said of the cluster's.
    const double h100 = networkPerGpu("h100-sxm-80gb", "");
    LP_CHECK_NEAR(h100, 50e9, 1);
    // A node's figure is shared by its 8 GPUs; a card's is one GPU's.
    LP_CHECK_NEAR(
        networkPerGpu("h100-sxm-80gb", "an H100 cluster with 96 GPUs and 800Gbps inter-node interconnect"),
        12.5e9, 1);
    LP_CHECK_NEAR(
        networkPerGpu("h100-sxm-80gb", "Interconnect: 4x OmniPath 100Gbps per node (not InfiniBand HDR)"),
        6.25e9, 1);
    LP_CHECK_NEAR(networkPerGpu("a100-sxm-80gb", "Trainy: 400 Gb/s per GPU; torchtitan"), 50e9, 1);
    LP_CHECK_NEAR(networkPerGpu("h100-sxm-80gb", "the IBM Cloud cluster (H100, 3.2Tbps RoCE interconnect)"),
                  50e9, 1);
    // Of two clusters in one sentence, the case's GPU's.
    const std::string two =
        "an A100 cluster with 128 GPUs and 400Gbps inter-node interconnect, and an H100 cluster "
        "with 96 GPUs and 800Gbps inter-node interconnect";
    LP_CHECK_NEAR(networkPerGpu("h100-sxm-80gb", two), 12.5e9, 1);
    LP_CHECK_NEAR(networkPerGpu("a100-sxm-80gb", two), 6.25e9, 1);
    // The preset's own network changes nothing and says nothing; bytes (NVLink, bus bandwidth) are not a
    // network, nor is what a simulator assumed; one node has no network traffic.
    for (const std::string& same : std::vector<std::string>{
             "DGX H100: eight 400 Gb/s cards per node.", "Network: RoCE, 400 Gbps per GPU.",
             "NVSwitch: busbw ~229 GB/s at 1 GiB on 8 GPUs; NVLink 900 GB/s network",
             "bf16 at 1979 TFLOP/s, 2 nodes",
             "vTrain config models the inter-node network as 800 Gbps per node (not a schema field)",
             "the simulator assumes 200 Gb/s per GPU",
             "NVL72 rack: NVLink 5 at 1800 Gb/s per GPU over the network of NVSwitch trays",
             "network: 0 Gbps per node; InfiniBand 0.5 Gb/s per GPU; interconnect 900000 Tbps",
             "network " + std::string(400, '9') + " Gbps per node"}) {
        const ValidationCase c = caseWithNotes("h100-sxm-80gb", same);
        LP_CHECK_NEAR(c.scenario.cluster.gpu.networkBandwidth, h100, 1);
        for (const std::string& a : c.adjustments)
            LP_CHECK(a.find("network") == std::string::npos);
    }
    LP_CHECK_NEAR(networkPerGpu("h100-sxm-80gb", "800Gbps inter-node interconnect", 8), h100, 1);
    // A changed network is named on the case's rows.
    bool said = false;
    for (const std::string& a : caseWithNotes("h100-sxm-80gb", "800Gbps inter-node interconnect").adjustments)
        said = said ||
               a.find("network: the notes state \"800Gbps\" per node, planned with 12.5 GB/s per GPU") == 0;
    LP_CHECK(said);
}

LP_TEST(a_case_whose_notes_name_a_cloud_machine_is_planned_on_its_network) {
    // MaxText's table names the A3 High by its XPK device type; A3 Mega's differs by one word.
    LP_CHECK_NEAR(networkPerGpu("h100-sxm-80gb", "| 16x A3 (h100-80gb-8) | 375 |"), 12.5e9, 1);
    LP_CHECK_NEAR(networkPerGpu("h100-sxm-80gb", "--device-type h100-mega-80gb-8 --num-nodes 16"), 25e9, 1);
    LP_CHECK_NEAR(networkPerGpu("a100-sxm-40gb", "measured on 2 p4d.24xlarge instances"), 6.25e9, 1);
    // A named supercomputer: BLOOM's Jean Zay A100 nodes (four 100 Gb/s Omni-Path links each); its H100 nodes
    // hold 4 GPUs, so an 8-GPU H100 case does not read the name as the A100 partition.
    LP_CHECK_NEAR(networkPerGpu("a100-sxm-80gb", "Jean Zay A100 80GB nodes, Omni-Path inter-node"), 6.25e9,
                  1);
    LP_CHECK_NEAR(networkPerGpu("h100-sxm-80gb", "Jean Zay"), 50e9, 1);
    // The preset's own network is no change; the machine must carry the case's GPU; a longer word is not the
    // name; one node has no network traffic; a figure the notes state wins over the machine's.
    LP_CHECK_NEAR(networkPerGpu("h100-sxm-80gb", "on p5.48xlarge"), 50e9, 1);
    LP_CHECK_NEAR(networkPerGpu("a100-sxm-80gb", "an A3 High cluster"), 25e9, 1);
    LP_CHECK_NEAR(networkPerGpu("h100-sxm-80gb", "A3 Highlands; a3-highgpu-8gx"), 50e9, 1);
    LP_CHECK_NEAR(networkPerGpu("h100-sxm-80gb", "one a3-highgpu-8g", 8), 50e9, 1);
    LP_CHECK_NEAR(networkPerGpu("h100-sxm-80gb", "A3 Mega VMs, 3.2 Tbps RDMA network per node"), 50e9, 1);
    bool said = false;
    for (const std::string& a : caseWithNotes("h100-sxm-80gb", "on a3-highgpu-8g VMs").adjustments)
        said =
            said || a == "network: the notes name the Google Cloud A3 High (\"a3-highgpu-8g\"), planned with "
                         "12.5 GB/s per GPU (the h100-sxm-80gb preset's card: 50.0)";
    LP_CHECK(said);
}

LP_TEST_MAIN()
