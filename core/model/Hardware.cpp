#include "core/model/Hardware.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <string_view>

namespace lp::core {

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
    const auto it =
        std::upper_bound(points.begin(), points.end(), x,
                         [](double v, const std::pair<double, double>& p) { return v < p.first; });
    const auto& hi = *it;
    const auto& lo = *(it - 1);
    const double t = std::log(x / lo.first) / std::log(hi.first / lo.first);
    return lo.second + t * (hi.second - lo.second);
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
    return c;
}

// Bus bandwidth reaches half its plateau at halfBytes: eff(S) = max * S / (S + half).
Curve busCurve(double maxEff, double halfBytes) {
    Curve c;
    for (double e = 3.0; e <= 11.01; e += 0.25) {
        const double bytes = std::pow(10.0, e);
        c.points.emplace_back(bytes, maxEff * bytes / (bytes + halfBytes));
    }
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
