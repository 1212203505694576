#pragma once
// The JSON codecs of the hardware types: GpuSpec and ClusterSpec (scenario files, GPU presets), the kernel
// efficiencies and the parameters a built-in profile is made from (GPU presets), and HardwareProfile
// (profile files). Limits from core/model/Limits.h.
#include "core/io/InputError.h"
#include "core/io/JsonReader.h"
#include "core/model/Hardware.h"

#include <optional>
#include <string>

namespace lp::core {

inline constexpr const char* kGpuKeys[] = {"id",
                                           "name",
                                           "peak_flops16",
                                           "peak_flops8",
                                           "hbm_bytes",
                                           "hbm_bandwidth_bytes_per_s",
                                           "nvlink_bandwidth_bytes_per_s",
                                           "network_bandwidth_bytes_per_s",
                                           "host_link_bandwidth_bytes_per_s",
                                           "host_memory_bandwidth_bytes_per_s",
                                           "host_memory_bytes",
                                           "source"};
inline constexpr const char* kKernelKeys[] = {"hbm_efficiency",
                                              "attention_fwd_efficiency",
                                              "attention_bwd_efficiency",
                                              "fa2_attention_fwd_efficiency",
                                              "fa2_attention_bwd_efficiency",
                                              "attention_fwd_half_tokens",
                                              "attention_bwd_half_tokens",
                                              "attention_score_overhead",
                                              "fa2_attention_score_overhead",
                                              "fa3_attention_fwd_efficiency",
                                              "fa3_attention_bwd_efficiency",
                                              "fa3_attention_fwd_half_tokens",
                                              "fa3_attention_bwd_half_tokens",
                                              "fa3_attention_score_overhead"};

// The GPU keys r's object holds, over gpu (a key it lacks leaves its field as it is).
void readGpuKeys(json::ObjectReader& r, GpuSpec& gpu);
// A scenario file's GPU: a GPU preset's name, or an object of GPU keys that may start from a "preset".
void readScenarioGpu(const json::Json& j, const std::string& path, GpuSpec& gpu, InputErrors& errors);
json::Json gpuToJson(const GpuSpec& g);

// A scenario file's cluster: a cluster preset's name, or an object that may start from a "preset", with
// its GPU under "gpu".
ClusterSpec readScenarioCluster(const json::Json* j, const std::string& path, InputErrors& errors);
json::Json clusterToJson(const ClusterSpec& c);
// A cluster object's "network" (over the preset's cards, which a GPU figure of the object's own replaces) and
// "network_latency_s", read after its node size and GPU; allows neither key (the caller does).
void readClusterNetwork(json::ObjectReader& r, ClusterSpec& c);
json::Json networkToJson(const NetworkSpec& n);
// A "network" object over `base` (a preset's cards; without one the cards and their speed are required); its
// latency_s, when given, into `latency`. nullopt (and errors) when a value is bad.
std::optional<NetworkSpec> readNetworkObject(json::ObjectReader& r, const std::optional<NetworkSpec>& base,
                                             std::optional<double>& latency);

// The kernel-efficiency keys r's object holds, efficiencies within `efficiency`.
void readKernelEfficiencies(json::ObjectReader& r, KernelEfficiencies& k, json::DoubleRange efficiency);

// A GPU preset's "profile" object: every parameter required but the optional kernel figures.
void readProfileParams(json::ObjectReader& r, ProfileParams& p);

// A profile file's keys (all but its schema and version) over p; the efficiency curves are required.
void readProfileKeys(json::ObjectReader& r, HardwareProfile& p);
// Adds them to j; the optional kernel figures only where set (0 means absent).
void writeProfileKeys(json::Json& j, const HardwareProfile& p);

} // namespace lp::core
