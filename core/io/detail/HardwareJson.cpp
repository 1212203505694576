#include "core/io/detail/HardwareJson.h"

#include "core/io/Presets.h"
#include "core/io/detail/FieldTable.h"
#include "core/io/detail/JsonWriter.h"
#include "core/io/detail/PresetNames.h"
#include "core/model/Limits.h"

#include <algorithm>
#include <array>
#include <string_view>
#include <utility>

namespace lp::core {
namespace {

using json::CustomKey;
using json::describe;
using json::DoubleKey;
using json::DoubleRange;
using json::Field;
using json::indexPath;
using json::IntKey;
using json::Json;
using json::nonNegative;
using json::ObjectReader;
using json::positive;
using limits::kMaxCount;
using limits::kMaxRate;

// A profile file's efficiencies: a measured one may exceed its nominal figure a little.
constexpr DoubleRange kEfficiency{limits::kMinEfficiency, true, 1.5, true};
// The parameters a built-in profile is made from are large-message plateaus: at most the nominal figure.
constexpr DoubleRange kMaxEfficiency{limits::kMinEfficiency, true, 1.0, true};
constexpr DoubleRange kFlops{limits::kMinFlops, true, kMaxRate, true};
constexpr DoubleRange kBandwidth{limits::kMinBandwidth, true, kMaxRate, true};
constexpr DoubleRange kMemory{limits::kMinMemoryBytes, true, kMaxRate, true};
constexpr DoubleRange kCurveX{0.0, false, 1e30, true};
constexpr DoubleRange kCurveEfficiency{limits::kMinCurveEfficiency, true, 1.5, true};

// ------------------------------------------------------------------------------------------------
// GPUs and clusters

constexpr Field<GpuSpec> kGpuFields[] = {
    {"id", &GpuSpec::id},
    {"name", &GpuSpec::name},
    {"peak_flops16", DoubleKey<GpuSpec>{&GpuSpec::peakFlops16, kFlops}},
    {"peak_flops8", DoubleKey<GpuSpec>{&GpuSpec::peakFlops8, nonNegative(kMaxRate)}},
    {"hbm_bytes", DoubleKey<GpuSpec>{&GpuSpec::hbmBytes, kMemory}},
    {"hbm_bandwidth_bytes_per_s", DoubleKey<GpuSpec>{&GpuSpec::hbmBandwidth, kBandwidth}},
    {"nvlink_bandwidth_bytes_per_s", DoubleKey<GpuSpec>{&GpuSpec::nvlinkBandwidth, kBandwidth}},
    {"network_bandwidth_bytes_per_s", DoubleKey<GpuSpec>{&GpuSpec::networkBandwidth, kBandwidth}},
    {"host_link_bandwidth_bytes_per_s", DoubleKey<GpuSpec>{&GpuSpec::hostLinkBandwidth, kBandwidth}},
    {"host_memory_bandwidth_bytes_per_s", DoubleKey<GpuSpec>{&GpuSpec::hostMemoryBandwidth, kBandwidth}},
    {"host_memory_bytes", DoubleKey<GpuSpec>{&GpuSpec::hostMemoryBytes, kMemory}},
    {"source", &GpuSpec::source},
};

// Written as a table; read by hand in readScenarioCluster (the node count comes before the preset, and the
// NVLink domain follows the node size), with the same limits.
constexpr Field<ClusterSpec> kClusterFields[] = {
    {"nodes", IntKey<ClusterSpec>{&ClusterSpec::nodes, 1, kMaxCount}},
    {"gpus_per_node", IntKey<ClusterSpec>{&ClusterSpec::gpusPerNode, 1, kMaxCount}},
    {"nvlink_domain", IntKey<ClusterSpec>{&ClusterSpec::nvlinkDomain, 1, kMaxCount}},
    {"nvlink_latency_s", DoubleKey<ClusterSpec>{&ClusterSpec::nvlinkLatencySeconds, nonNegative(1.0)}},
    {"network_latency_s", DoubleKey<ClusterSpec>{&ClusterSpec::networkLatencySeconds, nonNegative(1.0)}},
};

// The kernel figures, efficiencies within `efficiency`; all but the first three are optional (0: not set).
constexpr std::array<Field<KernelEfficiencies>, 14> kernelFields(DoubleRange efficiency) {
    using K = KernelEfficiencies;
    return {{
        {"hbm_efficiency", DoubleKey<K>{&K::hbmEfficiency, efficiency}},
        {"attention_fwd_efficiency", DoubleKey<K>{&K::attentionFwdEfficiency, efficiency}},
        {"attention_bwd_efficiency", DoubleKey<K>{&K::attentionBwdEfficiency, efficiency}},
        {"fa2_attention_fwd_efficiency", DoubleKey<K>{&K::fa2AttentionFwdEfficiency, efficiency}, true},
        {"fa2_attention_bwd_efficiency", DoubleKey<K>{&K::fa2AttentionBwdEfficiency, efficiency}, true},
        {"attention_fwd_half_tokens", DoubleKey<K>{&K::attentionFwdHalfTokens, nonNegative(1e7)}, true},
        {"attention_bwd_half_tokens", DoubleKey<K>{&K::attentionBwdHalfTokens, nonNegative(1e7)}, true},
        {"attention_score_overhead", DoubleKey<K>{&K::attentionScoreOverhead, nonNegative(10.0)}, true},
        {"fa2_attention_score_overhead", DoubleKey<K>{&K::fa2AttentionScoreOverhead, nonNegative(10.0)},
         true},
        {"fa3_attention_fwd_efficiency", DoubleKey<K>{&K::fa3AttentionFwdEfficiency, efficiency}, true},
        {"fa3_attention_bwd_efficiency", DoubleKey<K>{&K::fa3AttentionBwdEfficiency, efficiency}, true},
        {"fa3_attention_fwd_half_tokens", DoubleKey<K>{&K::fa3AttentionFwdHalfTokens, nonNegative(1e7)},
         true},
        {"fa3_attention_bwd_half_tokens", DoubleKey<K>{&K::fa3AttentionBwdHalfTokens, nonNegative(1e7)},
         true},
        {"fa3_attention_score_overhead", DoubleKey<K>{&K::fa3AttentionScoreOverhead, nonNegative(10.0)},
         true},
    }};
}

// The host figures came with CPU offloading: a GPU written out before them, with a preset's id, takes that
// preset's host link and host memory rather than the defaults.
void takeKnownHostFigures(const ObjectReader& r, GpuSpec& gpu) {
    if (r.find("preset") || r.find("host_link_bandwidth_bytes_per_s") ||
        r.find("host_memory_bandwidth_bytes_per_s") || r.find("host_memory_bytes"))
        return;
    if (const GpuPreset* known = findGpuPreset(gpu.id); known && known->gpu.id == gpu.id) {
        gpu.hostLinkBandwidth = known->gpu.hostLinkBandwidth;
        gpu.hostMemoryBandwidth = known->gpu.hostMemoryBandwidth;
        gpu.hostMemoryBytes = known->gpu.hostMemoryBytes;
    }
}

// ------------------------------------------------------------------------------------------------
// Curves: [[x, efficiency], ...] with x increasing

// One [x, efficiency] pair at `path`; nullopt (and errors) when it is not one.
std::optional<std::pair<double, double>> readCurvePoint(const Json& p, const std::string& path,
                                                        InputErrors& errors) {
    if (!p.is_array() || p.size() != 2) {
        errors.push_back(
            {path, "wrong type: expected a pair [x, efficiency], got " +
                       (p.is_array() ? "an array of " + std::to_string(p.size()) + " values" : describe(p))});
        return std::nullopt;
    }
    bool ok = true;
    for (std::size_t k = 0; k < 2; ++k) {
        if (!p[k].is_number()) {
            errors.push_back({indexPath(path, k), "wrong type: expected a number, got " + describe(p[k])});
            ok = false;
            continue;
        }
        const DoubleRange& range = k == 0 ? kCurveX : kCurveEfficiency;
        const double d = p[k].get<double>();
        if (!range.contains(d)) {
            errors.push_back(
                {indexPath(path, k), "out of range: " + range.text() + ", got " + json::fmtNumber(d)});
            ok = false;
        }
    }
    if (!ok)
        return std::nullopt;
    return std::pair{p[0].get<double>(), p[1].get<double>()};
}

void readCurve(ObjectReader& r, std::string_view key, Curve& out, bool required) {
    const Json* v = r.find(key);
    if (!v) {
        if (required)
            r.error(key,
                    "missing required key " + json::quoteJson(key) + " (a list of [x, efficiency] points)");
        return;
    }
    if (!v->is_array()) {
        r.error(key, "wrong type: expected an array of [x, efficiency] points, got " + describe(*v));
        return;
    }
    if (v->empty() && required) {
        r.error(key, "out of range: needs at least one [x, efficiency] point, got an empty array");
        return;
    }
    const std::string path = r.path(key);
    Curve curve;
    bool ok = true;
    double previousX = 0;
    for (std::size_t i = 0; i < v->size(); ++i) {
        const auto point = readCurvePoint((*v)[i], indexPath(path, i), r.errors());
        if (!point) {
            ok = false;
            continue;
        }
        const double x = point->first;
        if (!curve.points.empty() && !(x > previousX)) {
            r.errors().push_back({indexPath(indexPath(path, i), 0),
                                  "out of order: x must be greater than the previous point's (" +
                                      json::fmtNumber(previousX) + "), got " + json::fmtNumber(x)});
            ok = false;
        }
        previousX = x;
        curve.points.push_back(*point);
    }
    if (ok) {
        curve.index();
        out = std::move(curve);
    }
}

Json curveToJson(const Curve& c) {
    Json j = Json::array();
    for (const auto& [x, y] : c.points)
        j.push_back(Json::array({x, y}));
    return j;
}

// An efficiency curve's key: required ones report their absence and refuse an empty list.
template <Curve HardwareProfile::*Member, bool Required> constexpr CustomKey<HardwareProfile> curveKey() {
    return {[](ObjectReader& r, std::string_view key, HardwareProfile& p) {
                readCurve(r, key, p.*Member, Required);
            },
            [](const HardwareProfile& p) { return curveToJson(p.*Member); }};
}

constexpr CustomKey<HardwareProfile> kOrigin{
    [](ObjectReader& r, std::string_view key, HardwareProfile& p) {
        if (r.readString(key, p.origin) && p.origin != "built-in" && p.origin != "measured")
            r.error(key, "unknown value " + json::quoteJson(p.origin) +
                             json::didYouMean(p.origin, {"built-in", "measured"}) +
                             ": expected one of built-in, measured");
    },
    [](const HardwareProfile& p) { return Json(p.origin); }};

// A profile file's keys before its kernel figures, and after them.
constexpr Field<HardwareProfile> kProfileFields[] = {
    {"name", &HardwareProfile::name},
    {"gpu_id", &HardwareProfile::gpuId},
    {"origin", kOrigin},
    {"measured_on", &HardwareProfile::measuredOn},
    {"date", &HardwareProfile::date},
    {"gemm_efficiency", curveKey<&HardwareProfile::gemmEfficiency, true>()},
    {"gemm_efficiency_fp8", curveKey<&HardwareProfile::gemmEfficiencyFp8, false>()},
};
constexpr Field<HardwareProfile> kProfileLinkFields[] = {
    {"nvlink_bus_efficiency", curveKey<&HardwareProfile::nvlinkBusEfficiency, true>()},
    {"network_bus_efficiency", curveKey<&HardwareProfile::networkBusEfficiency, true>()},
    {"nvlink_latency_s",
     DoubleKey<HardwareProfile>{&HardwareProfile::nvlinkLatencySeconds, nonNegative(1.0)}},
    {"network_latency_s",
     DoubleKey<HardwareProfile>{&HardwareProfile::networkLatencySeconds, nonNegative(1.0)}},
};

} // namespace

void readGpuKeys(ObjectReader& r, GpuSpec& gpu) {
    r.allow(kGpuKeys);
    json::readFields(r, gpu, kGpuFields);
    // 0 stands for "no fp8 units"; a rate that exists is held to the 16-bit one's lower bound.
    if (gpu.peakFlops8 > 0 && gpu.peakFlops8 < limits::kMinFlops)
        r.error("peak_flops8", "out of range: must be 0 (no fp8) or at least " +
                                   json::fmtNumber(limits::kMinFlops) + ", got " +
                                   json::fmtNumber(gpu.peakFlops8));
}

void readScenarioGpu(const Json& j, const std::string& path, GpuSpec& gpu, InputErrors& errors) {
    const auto value = json::gpuPresetOrObject(j, path, errors);
    if (value.preset)
        gpu = value.preset->gpu;
    if (!value.isObject)
        return;
    ObjectReader r(j, path, errors, {"preset"});
    if (const Json* p = r.find("preset"))
        if (const GpuPreset* preset = json::namedGpuPreset(*p, r.path("preset"), errors))
            gpu = preset->gpu;
    readGpuKeys(r, gpu);
    takeKnownHostFigures(r, gpu);
    r.reportUnknownKeys();
}

Json gpuToJson(const GpuSpec& g) {
    Json j;
    json::writeFields(j, g, kGpuFields);
    return j;
}

namespace {

// A name the planner derived (its own today, or what an earlier version wrote: "8 x DGX H100" from a
// system preset, "Custom cluster" from the command line) is not the user's: it follows the cluster.
bool isDerivedClusterName(std::string_view name, const ClusterSpec& c) {
    if (name.empty() || name == "Custom cluster" || name == automaticClusterName(c))
        return true;
    const std::size_t sep = name.find(" x ");
    if (sep == 0 || sep == std::string_view::npos ||
        name.substr(0, sep).find_first_not_of("0123456789") != std::string_view::npos)
        return false;
    const std::string_view system = name.substr(sep + 3);
    return std::ranges::any_of(clusterPresets(), [&](const ClusterPreset& p) { return p.name == system; });
}

constexpr double kMaxCardGbps = 1e6; // 1 Pb/s per card: far beyond any card, low enough to catch a typo
constexpr int kMaxCardsPerNode = 10000;

constexpr std::initializer_list<Fabric> kFabricValues = {Fabric::InfiniBand, Fabric::RoCE,
                                                         Fabric::Efa,        Fabric::GpuDirectTcpx,
                                                         Fabric::OmniPath,   Fabric::EthernetTcp};

} // namespace

std::optional<NetworkSpec> readNetworkObject(ObjectReader& r, const std::optional<NetworkSpec>& base,
                                             std::optional<double>& latency) {
    r.allow({"fabric", "cards_per_node", "card_gbps", "rail_optimized", "latency_s"});
    NetworkSpec n = base.value_or(NetworkSpec{});
    bool ok = true;
    if (!base) {
        ok = r.require("cards_per_node") && ok;
        ok = r.require("card_gbps") && ok;
    }
    ok = r.readEnum("fabric", n.fabric, parseFabric, kFabricValues) && ok;
    ok = r.readInt("cards_per_node", n.cardsPerNode, 1, kMaxCardsPerNode) && ok;
    // A card carries at least what any link needs (limits::kMinBandwidth, 1 MB/s = 0.008 Gb/s).
    constexpr DoubleRange kCardGbps{limits::kMinBandwidth * 8.0 / 1e9, true, kMaxCardGbps, true};
    ok = r.readDouble("card_gbps", n.cardGbps, kCardGbps) && ok;
    ok = r.readBool("rail_optimized", n.railOptimized) && ok;
    double seconds = 0;
    if (r.has("latency_s") && r.readDouble("latency_s", seconds, nonNegative(1.0)))
        latency = seconds;
    r.reportUnknownKeys();
    return ok ? std::optional(n) : std::nullopt;
}

void readClusterNetwork(ObjectReader& r, ClusterSpec& c) {
    // Without a network of its own, a GPU figure of its own describes another network than the preset's
    // cards.
    if (c.network && !r.has("network") &&
        c.gpu.networkBandwidth != networkShareBytesPerSecond(*c.network, c.gpusPerNode))
        c.network.reset();
    std::optional<double> latency;
    if (const Json* v = r.find("network")) {
        if (!v->is_object()) {
            r.error("network", "wrong type: expected an object (fabric, cards_per_node, card_gbps, "
                               "rail_optimized, latency_s), got " +
                                   describe(*v));
        } else {
            ObjectReader nr = r.nested(*v, "network");
            if (const auto n = readNetworkObject(nr, c.network, latency))
                setNetwork(c, *n);
        }
    }
    refreshNetworkShare(c);
    if (latency && r.has("network_latency_s"))
        r.error("network_latency_s", "given twice: network.latency_s states the network's latency");
    else if (latency)
        c.networkLatencySeconds = *latency;
    r.readDouble("network_latency_s", c.networkLatencySeconds, nonNegative(1.0));
}

Json networkToJson(const NetworkSpec& n) {
    return Json{{"fabric", toString(n.fabric)},
                {"cards_per_node", n.cardsPerNode},
                {"card_gbps", n.cardGbps},
                {"rail_optimized", n.railOptimized}};
}

ClusterSpec readScenarioCluster(const Json* j, const std::string& path, InputErrors& errors) {
    ClusterSpec c;
    if (!j)
        return c;
    const auto value = json::clusterPresetOrObject(*j, path, errors);
    if (value.preset)
        c = makeCluster(*value.preset, c.nodes);
    if (!value.isObject)
        return c;
    ObjectReader r(*j, path, errors,
                   {"preset", "name", "gpu", "nodes", "gpus_per_node", "nvlink_domain", "nvlink_latency_s",
                    "network_latency_s", "network"});
    int nodes = c.nodes;
    r.readInt("nodes", nodes, 1, kMaxCount);
    if (const Json* p = r.find("preset"))
        if (const ClusterPreset* preset = json::namedClusterPreset(*p, r.path("preset"), errors))
            c = makeCluster(*preset, nodes);
    c.nodes = nodes;
    // The NVLink domain follows the node size unless the base spans more than a node (NVL72 racks).
    const bool domainIsNode = c.nvlinkDomain == c.gpusPerNode;
    std::string name;
    const bool named = r.readString("name", name);
    const bool perNodeOk = r.readInt("gpus_per_node", c.gpusPerNode, 1, kMaxCount);
    if (r.has("nvlink_domain"))
        r.readInt("nvlink_domain", c.nvlinkDomain, 1, kMaxCount);
    else if (domainIsNode && perNodeOk)
        c.nvlinkDomain = c.gpusPerNode;
    r.readDouble("nvlink_latency_s", c.nvlinkLatencySeconds, nonNegative(1.0));
    if (const Json* g = r.find("gpu"))
        readScenarioGpu(*g, r.path("gpu"), c.gpu, errors);
    readClusterNetwork(r, c);
    r.reportUnknownKeys();
    c.name.reset();
    if (named && !isDerivedClusterName(name, c))
        c.name = name;
    return c;
}

Json clusterToJson(const ClusterSpec& c) {
    Json j;
    j["name"] = clusterName(c);
    json::writeFields(j, c, kClusterFields);
    if (c.network)
        j["network"] = networkToJson(*c.network);
    j["gpu"] = gpuToJson(c.gpu);
    return j;
}

// ------------------------------------------------------------------------------------------------
// Profiles

void readKernelEfficiencies(ObjectReader& r, KernelEfficiencies& k, DoubleRange efficiency) {
    r.allow(kKernelKeys);
    json::readFields(r, k, kernelFields(efficiency));
}

void readProfileParams(ObjectReader& r, ProfileParams& p) {
    r.allow({"gemm_max_efficiency", "gemm_fixed_seconds", "fp8_gemm_max_efficiency", "nvlink_max_efficiency",
             "nvlink_half_bytes", "network_max_efficiency", "network_half_bytes"});
    for (const char* key :
         {"gemm_max_efficiency", "gemm_fixed_seconds", "fp8_gemm_max_efficiency", "hbm_efficiency",
          "attention_fwd_efficiency", "attention_bwd_efficiency", "nvlink_max_efficiency",
          "nvlink_half_bytes", "network_max_efficiency", "network_half_bytes"})
        r.require(key);
    r.readDouble("gemm_max_efficiency", p.gemmMaxEfficiency, kMaxEfficiency);
    r.readDouble("gemm_fixed_seconds", p.gemmFixedSeconds, nonNegative(1.0));
    r.readDouble("fp8_gemm_max_efficiency", p.fp8GemmMaxEfficiency, {0.0, true, 1.0, true});
    readKernelEfficiencies(r, p.kernels, kMaxEfficiency);
    r.readDouble("nvlink_max_efficiency", p.nvlinkMaxEfficiency, kMaxEfficiency);
    r.readDouble("nvlink_half_bytes", p.nvlinkHalfBytes, positive(kMaxRate));
    r.readDouble("network_max_efficiency", p.networkMaxEfficiency, kMaxEfficiency);
    r.readDouble("network_half_bytes", p.networkHalfBytes, positive(kMaxRate));
    r.reportUnknownKeys();
}

void readProfileKeys(ObjectReader& r, HardwareProfile& p) {
    r.allow({"name", "gpu_id", "origin", "measured_on", "date", "gemm_efficiency", "gemm_efficiency_fp8"});
    r.allow(kKernelKeys);
    r.allow({"nvlink_bus_efficiency", "network_bus_efficiency", "nvlink_latency_s", "network_latency_s"});
    json::readFields(r, p, kProfileFields);
    readKernelEfficiencies(r, p.kernels, kEfficiency); // all but the first three optional
    json::readFields(r, p, kProfileLinkFields);
}

void writeProfileKeys(Json& j, const HardwareProfile& p) {
    json::writeFields(j, p, kProfileFields);
    json::writeFields(j, p.kernels, kernelFields(kEfficiency)); // the limits do not matter in writing
    json::writeFields(j, p, kProfileLinkFields);
}

} // namespace lp::core
