#include "core/estimate/Collectives.h"

#include <algorithm>

namespace lp::core {

double allReduceSeconds(int n, double bytes, const Link& link) {
    if (n <= 1 || bytes <= 0)
        return 0.0;
    const double frac = static_cast<double>(n - 1) / n;
    return 2.0 * frac * bytes / link.ringBusBandwidth(n, bytes) + 2.0 * (n - 1) * link.latencySeconds;
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
