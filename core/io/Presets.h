#pragma once
// Presets embedded in the library from resources/presets/*.json (no file needed at run time).
#include "core/model/Hardware.h"
#include "core/model/ModelSpec.h"
#include "core/model/Scenario.h"

#include <expected>
#include <string>
#include <string_view>
#include <vector>

namespace lp::core {

struct ModelPreset {
    std::string id;                 // "llama2-70b"
    ModelSpec model;                // model.name is the display name
    double publishedParameters = 0; // the size the authors state, for checks
    double publishedActiveParameters =
        0; // MoE: active parameters per token the authors state (0: not stated)
    // What the architecture fields cannot express yet (e.g. MLA, head size != hidden/heads); empty when
    // exact.
    std::string approximation;
    double parameterTolerance = 0.03; // how far the counted parameters may stray from the published sizes
    std::string source;
};

struct GpuPreset {
    GpuSpec gpu;                 // gpu.id, gpu.name, figures and source
    ProfileParams profileParams; // what its built-in profile is generated from
    HardwareProfile profile;     // built-in efficiency curves for this GPU (makeProfile of the above)
    // Short names users type for this preset of a family with several ("h100": the H100 SXM 80 GB).
    std::vector<std::string> aliases;
    // Run defaults (docs/estimation.md, "Run length, cost and goodput"): board power under training load, and
    // a public on-demand price (0: none found), each with its source.
    double boardPowerWatts = 0;
    std::string powerSource;
    double pricePerGpuHourUsd = 0;
    std::string priceSource;
};

struct ClusterPreset {
    std::string id; // "dgx-h100"
    std::string name;
    std::string gpuId;
    int gpusPerNode = 8;
    int nvlinkDomain = 8;
    double networkBandwidth = 0; // bytes/s per GPU, one direction (0: the GPU preset's)
    // The node's network cards, from the preset's source; their per-GPU share is networkBandwidth.
    std::optional<NetworkSpec> network;
    // How sources name the machine ("a3-highgpu-8g", "A3 High", "p5.48xlarge", "Jean Zay"): a cloud instance
    // type or a named supercomputer is a statement of its network, which a validation case's notes make by
    // naming it.
    std::vector<std::string> machineNames;
    std::string source;
    double pricePerGpuHourUsd = 0; // a cloud instance's on-demand price per GPU (0: none, the GPU's)
    std::string priceSource;
};

const std::vector<ModelPreset>& modelPresets();
const std::vector<GpuPreset>& gpuPresets();
const std::vector<ClusterPreset>& clusterPresets();

// The model presets as a list offers them: dense models, then mixtures of experts, each group smallest first.
struct ModelPresetGroup {
    std::string title; // "Dense models", "Mixtures of experts"
    std::vector<const ModelPreset*> presets;
};
std::vector<ModelPresetGroup> modelPresetGroups();
// A preset in that list: its name and size, "Llama-3.1-8B · 8.0 B"; a mixture of experts adds its active
// parameters, "Mixtral-8x7B · 46.7 B, 12.9 B active".
std::string modelPresetLabel(const ModelPreset& preset);

// Look-ups by id, case-insensitive, also accepting the display name. nullptr when unknown.
const ModelPreset* findModelPreset(std::string_view idOrName);
const GpuPreset* findGpuPreset(std::string_view idOrName);
const ClusterPreset* findClusterPreset(std::string_view idOrName);

// A GPU preset from what a user types, case-insensitively: its id, display name or an alias ("h100"),
// else the one preset whose id's words the typed words begin, in order ("h200", "a100-40", "H100 PCIe",
// "mi300"). The error lists the candidates when several match, the known ids when none does.
std::expected<const GpuPreset*, std::string> resolveGpuPreset(std::string_view typed);

// A cluster of `nodes` nodes built from a cluster preset and its GPU.
ClusterSpec makeCluster(const ClusterPreset& preset, int nodes);
// The system preset a cluster is built from: its GPU, node size, NVLink domain and network match the
// preset's (what tells a DGX H100 from an A3 High). nullptr for a cluster of the user's own figures.
const ClusterPreset* matchingClusterPreset(const ClusterSpec& c);
// The cluster's name: the one the user wrote, else "32 x DGX H100" (nodes x the matching system), else
// "32 nodes x 8 H200".
std::string clusterName(const ClusterSpec& c);
std::string automaticClusterName(const ClusterSpec& c);
// The network per GPU a cluster preset gives (bytes/s, one direction): its own figure, or its GPU preset's
// where it sets none.
double presetNetworkBandwidth(const ClusterPreset& preset);

// The built-in profile for a GPU: the preset's parameters when the GPU id is a preset, generic otherwise.
HardwareProfile builtinProfile(const GpuSpec& gpu);

// The seed's worked example: Llama-2-70B-class model, 8 x 8 H100 SXM, TP 8 x PP 4 x DP 2,
// micro batch 2 x accumulation 16 (effective batch 64), ZeRO-1, selective recompute, SP, flash.
Scenario defaultScenario();

} // namespace lp::core
