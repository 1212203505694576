#include "core/model/Hardware.h"

#include "core/model/Limits.h"
#include "core/util/Format.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <iterator>
#include <string_view>

namespace lp::core {

namespace {

// The profiles' network curves are InfiniBand's with GPUDirect RDMA, 0.85 of line rate for large buffers;
// each other fabric's share of that, and its latency, from the measurements in docs/estimation.md,
// "Network fabrics".
const std::vector<FabricPhysics> kFabrics = {
    {Fabric::InfiniBand, "infiniband", "InfiniBand", 1.0, 12e-6},
    {Fabric::RoCE, "roce", "RoCE", 1.0, 12e-6},
    {Fabric::Efa, "efa", "EFA", 1.0, 12e-6},
    {Fabric::GpuDirectTcpx, "gpudirect-tcpx", "GPUDirect-TCPX", 1.0, 12e-6},
    // 135 Gb/s of all-reduce over 4 x 100 Gb/s: 0.34 of line rate, 0.4 of InfiniBand's 0.85.
    {Fabric::OmniPath, "omni-path", "Omni-Path", 0.4, 12e-6},
    // 4-6 GB/s of bus bandwidth over 100 Gb/s sockets: 0.4 of line rate; 40 us per step.
    {Fabric::EthernetTcp, "ethernet-tcp", "TCP/Ethernet", 0.47, 40e-6},
};

} // namespace

const std::vector<FabricPhysics>& fabrics() {
    return kFabrics;
}

const FabricPhysics& fabricPhysics(Fabric fabric) {
    return kFabrics[static_cast<std::size_t>(fabric)];
}

std::optional<Fabric> parseFabric(std::string_view id) {
    const auto lower = [](std::string_view text) {
        std::string out(text);
        std::ranges::transform(out, out.begin(),
                               [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
        return out;
    };
    const std::string wanted = lower(id);
    for (const FabricPhysics& f : kFabrics)
        if (wanted == f.id || wanted == lower(f.name))
            return f.fabric;
    return std::nullopt;
}

std::string toString(Fabric fabric) {
    return fabricPhysics(fabric).id;
}

double networkShareBytesPerSecond(const NetworkSpec& network, int gpusPerNode) {
    // Floored like any link (limits::kMinBandwidth): a node of far more GPUs than its cards serve still
    // plans.
    return std::max(limits::kMinBandwidth,
                    network.cardsPerNode * network.cardGbps * 1e9 / 8.0 / std::max(1, gpusPerNode));
}

void setNetwork(ClusterSpec& c, const NetworkSpec& network) {
    c.network = network;
    c.networkLatencySeconds = fabricPhysics(network.fabric).stepLatencySeconds;
    refreshNetworkShare(c);
}

NetworkSpec statedOrImpliedNetwork(const ClusterSpec& c) {
    if (c.network)
        return *c.network;
    NetworkSpec n;
    n.cardsPerNode = std::max(1, c.gpusPerNode);
    n.cardGbps = c.gpu.networkBandwidth * 8.0 / 1e9;
    return n;
}

void refreshNetworkShare(ClusterSpec& c) {
    if (c.network)
        c.gpu.networkBandwidth = networkShareBytesPerSecond(*c.network, c.gpusPerNode);
}

double networkEfficiencyScale(const ClusterSpec& c) {
    return c.network ? fabricPhysics(c.network->fabric).busEfficiencyScale : 1.0;
}

std::string networkDescription(const ClusterSpec& c) {
    if (!c.network)
        return {};
    const NetworkSpec& n = *c.network;
    // {:g}: a stream's default for the speed (100, 12.5, 3200)
    return lp::format("{} x {:g} Gb/s {} per {} {}", n.cardsPerNode, n.cardGbps, fabricPhysics(n.fabric).name,
                      c.gpusPerNode, c.gpusPerNode == 1 ? "GPU" : "GPUs");
}

std::string gpuShortName(const GpuSpec& gpu) {
    static constexpr std::string_view kMakers[] = {"NVIDIA", "AMD", "Instinct", "Intel"};
    std::string_view rest = gpu.name;
    for (;;) {
        while (rest.starts_with(' '))
            rest.remove_prefix(1);
        const std::string_view word = rest.substr(0, rest.find(' '));
        if (word.empty() || std::ranges::find(kMakers, word) == std::end(kMakers) ||
            word.size() == rest.size())
            return word.empty() ? gpu.id : std::string(word);
        rest.remove_prefix(word.size());
    }
}

double Curve::at(double x) const {
    if (points.empty())
        return 1.0;
    if (!(x > 0) || x <= points.front().first)
        return points.front().second;
    if (x >= points.back().first)
        return points.back().second;
    const std::size_t n = points.size(); // at least 2 here
    if (logX.size() == n && invLogWidth.size() + 1 == n) {
        const double lx = std::log(x);
        std::size_t i = 0; // the interval [i, i + 1] that holds lx
        if (logStep > 0) {
            // An estimate: the loops below settle the interval whatever the rounding.
            const double steps = (lx - logX.front()) * invLogStep;
            i = std::min(n - 2, static_cast<std::size_t>(std::max(0.0, steps)));
            while (i > 0 && lx < logX[i]) // rounding at a point's own x
                --i;
            while (i + 2 < n && lx >= logX[i + 1])
                ++i;
        } else {
            i = static_cast<std::size_t>(std::upper_bound(logX.begin(), logX.end(), lx) - logX.begin()) - 1;
            i = std::min(i, n - 2);
        }
        const double t = (lx - logX[i]) * invLogWidth[i];
        return points[i].second + t * (points[i + 1].second - points[i].second);
    }
    const auto it =
        std::upper_bound(points.begin(), points.end(), x,
                         [](double v, const std::pair<double, double>& p) { return v < p.first; });
    const auto& hi = *it;
    const auto& lo = *(it - 1);
    const double t = std::log(x / lo.first) / std::log(hi.first / lo.first);
    return lo.second + t * (hi.second - lo.second);
}

void Curve::index() {
    logX.clear();
    logStep = 0;
    invLogStep = 0;
    invLogWidth.clear();
    if (points.size() < 2)
        return;
    logX.reserve(points.size());
    for (const auto& [x, y] : points)
        logX.push_back(std::log(x));
    const double step = logX[1] - logX[0];
    bool even = step > 0;
    for (std::size_t i = 2; even && i < logX.size(); ++i)
        even = std::abs((logX[i] - logX[i - 1]) - step) <= 1e-9 * step;
    logStep = even ? (logX.back() - logX.front()) / static_cast<double>(logX.size() - 1) : 0.0;
    invLogStep = logStep > 0 ? 1.0 / logStep : 0.0;
    invLogWidth.reserve(logX.size() - 1);
    for (std::size_t i = 0; i + 1 < logX.size(); ++i)
        invLogWidth.push_back(1.0 / (logX[i + 1] - logX[i]));
}

namespace {

// GEMM time = fixed cost + FLOPs / (peak x max efficiency), so efficiency(F) = max / (1 + fixed*peak*max/F).
Curve gemmCurve(double peak, double maxEff, double fixedSeconds) {
    Curve c;
    if (peak <= 0 || maxEff <= 0)
        return c;
    for (double e = 6.0; e <= 14.01; e += 0.25) {
        const double flops = std::pow(10.0, e);
        c.points.emplace_back(flops, maxEff / (1.0 + fixedSeconds * peak * maxEff / flops));
    }
    c.index();
    return c;
}

// Bus bandwidth reaches half its plateau at halfBytes: eff(S) = max * S / (S + half).
Curve busCurve(double maxEff, double halfBytes) {
    Curve c;
    for (double e = 3.0; e <= 11.01; e += 0.25) {
        const double bytes = std::pow(10.0, e);
        c.points.emplace_back(bytes, maxEff * bytes / (bytes + halfBytes));
    }
    c.index();
    return c;
}

} // namespace

HardwareProfile makeProfile(const GpuSpec& gpu, const ProfileParams& p) {
    HardwareProfile prof;
    prof.name = "built-in " + gpu.name;
    prof.gpuId = gpu.id;
    prof.origin = "built-in";
    prof.gemmEfficiency = gemmCurve(gpu.peakFlops16, p.gemmMaxEfficiency, p.gemmFixedSeconds);
    prof.gemmEfficiencyFp8 = gemmCurve(gpu.peakFlops8, p.fp8GemmMaxEfficiency, p.gemmFixedSeconds);
    prof.kernels = p.kernels;
    prof.nvlinkBusEfficiency = busCurve(p.nvlinkMaxEfficiency, p.nvlinkHalfBytes);
    prof.networkBusEfficiency = busCurve(p.networkMaxEfficiency, p.networkHalfBytes);
    return prof;
}

} // namespace lp::core
