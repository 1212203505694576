#include "core/estimate/Collectives.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace lp::core {

namespace {

// NCCL's tuning model (src/graph/tuning.cc): a tree all-reduce's bus bandwidth is 0.92 of the graph's, and
// its algorithm bandwidth half of that (a ring's is n / (2(n-1)) of it).
constexpr double kTreeAlgorithmShare = 0.5 * 0.92;

} // namespace

double allReduceRingSeconds(int n, double bytes, const Link& link) {
    if (n <= 1 || bytes <= 0)
        return 0.0;
    const double frac = static_cast<double>(n - 1) / n;
    return 2.0 * frac * bytes / link.ringBusBandwidth(n, bytes) + 2.0 * (n - 1) * link.latencySeconds;
}

int allReduceTreeHops(int n, const Link& link) {
    const int g = link.membersPerDomain;
    if (g <= 0 || n < 2 * g)
        return 0;
    const int domains = (n + g - 1) / g;
    const int depth = static_cast<int>(std::ceil(std::log2(static_cast<double>(domains))));
    return 2 * (depth + g - 1);
}

double allReduceTreeSeconds(int n, double bytes, const Link& link) {
    const int hops = allReduceTreeHops(n, link);
    if (hops == 0 || bytes <= 0)
        return std::numeric_limits<double>::infinity();
    return bytes / (kTreeAlgorithmShare * link.busBandwidth(bytes)) + hops * link.latencySeconds;
}

double allReduceSeconds(int n, double bytes, const Link& link) {
    if (n <= 1 || bytes <= 0)
        return 0.0;
    return std::min(allReduceRingSeconds(n, bytes, link), allReduceTreeSeconds(n, bytes, link));
}

double allGatherSeconds(int n, double bytes, const Link& link) {
    if (n <= 1 || bytes <= 0)
        return 0.0;
    const double frac = static_cast<double>(n - 1) / n;
    return frac * bytes / link.ringBusBandwidth(n, bytes) + (n - 1) * link.latencySeconds;
}

double overlappedSeconds(double comm, double window) {
    if (comm <= 0)
        return 0.0;
    const double w = std::max(0.0, window);
    return std::max(0.0, comm - w) + kOverlapResidual * std::min(comm, w);
}

double sendSeconds(double bytes, const Link& link) {
    if (bytes <= 0)
        return 0.0;
    return bytes / link.busBandwidth(bytes) + link.latencySeconds;
}

} // namespace lp::core
