// Names of what is measured, and the statistics of repeated timings.
#include "cuda/Measurements.h"

#include <algorithm>
#include <cmath>

namespace lp::calib {

const char* toString(GemmDtype d) {
    switch (d) {
    case GemmDtype::Bf16:
        return "bf16";
    case GemmDtype::Fp8:
        return "fp8";
    }
    return "?";
}

const char* toString(HbmMethod m) {
    switch (m) {
    case HbmMethod::Memcpy:
        return "memcpy";
    case HbmMethod::Kernel:
        return "kernel";
    }
    return "?";
}

const char* toString(Collective c) {
    switch (c) {
    case Collective::AllReduce:
        return "all-reduce";
    case Collective::AllGather:
        return "all-gather";
    case Collective::ReduceScatter:
        return "reduce-scatter";
    case Collective::SendRecv:
        return "send-recv";
    }
    return "?";
}

namespace {

// Linear interpolation between order statistics (q in [0, 1]) of sorted values.
double quantile(const std::vector<double>& sorted, double q) {
    if (sorted.empty())
        return 0;
    const double pos = q * static_cast<double>(sorted.size() - 1);
    const auto lo = static_cast<std::size_t>(std::floor(pos));
    const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
    const double t = pos - static_cast<double>(lo);
    return sorted[lo] + t * (sorted[hi] - sorted[lo]);
}

} // namespace

Stats summarize(std::vector<double> samples) {
    std::erase_if(samples, [](double v) { return !std::isfinite(v) || v < 0; });
    Stats s;
    if (samples.empty())
        return s;
    std::sort(samples.begin(), samples.end());
    s.samples = static_cast<int>(samples.size());
    s.min = samples.front();
    s.max = samples.back();
    s.median = quantile(samples, 0.5);
    s.spread = s.median > 0 ? (quantile(samples, 0.9) - quantile(samples, 0.1)) / s.median : 0;
    return s;
}

} // namespace lp::calib
