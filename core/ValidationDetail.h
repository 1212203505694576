// What the validation-case reader (core/Validation.cpp) and the comparison (core/ValidationRun.cpp) share.
#pragma once

#include "core/Presets.h"
#include "core/Scenario.h"

#include <optional>
#include <string>
#include <string_view>

namespace lp::core::detail {

// How many units of `per` sequences make up `total` (the nearest whole number, at least one).
long long perReplicaUnits(long long total, long long per);

// A Megatron-Core recipe's overlaps are inferred for the case: Megatron style on Hopper or newer, no ZeRO 3.
bool megatronCoreRecipeApplies(const Scenario& s);

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
    const ClusterPreset* preset = nullptr;
    std::string asWritten;
};
std::optional<NamedMachine> namedMachine(std::string_view text, std::string_view gpuFamily, int gpusPerNode);

// The latest month that the (lower-cased) source or notes of a case state, as year x 100 + month: "2025-06",
// "202412", "2024/12", "June 2025", "Dec 2024"; a year alone counts as its December (nothing says earlier).
// Years 2015-2039 only, in runs of exactly four or six digits, so that sizes and counts are not read as
// dates. 0 when the text states none.
int latestStatedMonth(const std::string& text);

// Whether the (lower-cased) notes say that what `term` begins is not stated ("activation recomputation not
// stated (none assumed)", "recompute: not stated"): the words "not stated" within 30 characters after it, in
// the same clause.
bool notesLeaveOpen(const std::string& notes, std::string_view term);

// The JAX/MaxText remat policy the (lower-cased) notes state ("remat_policy=minimal_flash",
// "remat_policy save_dot_with_context_except_mlp"): the first one named; nullopt when none is.
std::optional<RematPolicy> statedRematPolicy(const std::string& notes);

} // namespace lp::core::detail
