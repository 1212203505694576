#pragma once
// The inter-node network a validation case's notes state, or the cloud machine they name, for the @1
// reader that the converter keeps.
#include "core/io/Presets.h"

#include <optional>
#include <string>
#include <string_view>

namespace lp::tools::prose {

// An inter-node network a case's notes state: the first bit rate (Gb/s, Gbps, Tbps) in a clause about the
// network ("network", "interconnect", "InfiniBand", "RoCE", "per node", ...), times a link count in front of
// it
// ("4x OmniPath 100Gbps"); per node when the clause says so ("per node", "inter-node", "node-node") or the
// figure is over 800 Gb/s (no single card is faster), else per GPU (one card each, as HGX boards have).
struct StatedNetwork {
    double bitsPerSecond = 0; // as stated, links counted
    bool perNode = false;
    double bytesPerSecondPerGpu = 0; // one direction, a node's figure shared by its GPUs
    std::string statement;           // the figure as written
};
// gpuFamily ("h100"): of several figures, the one whose clause names the case's GPU ("an H100 cluster with 96
// GPUs and 800Gbps inter-node interconnect"), else the first.
std::optional<StatedNetwork> statedNetwork(std::string_view text, int gpusPerNode,
                                           std::string_view gpuFamily);

// A machine the notes name by a built-in cluster preset's machine name ("16x A3 (h100-80gb-8)",
// "p5.48xlarge", "ND H100 v5"), of the case's GPU family and node size: the first one named, as written.
struct NamedMachine {
    const core::ClusterPreset* preset = nullptr;
    std::string asWritten;
};
std::optional<NamedMachine> namedMachine(std::string_view text, std::string_view gpuFamily, int gpusPerNode);

} // namespace lp::tools::prose
