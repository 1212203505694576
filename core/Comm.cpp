#include "core/Comm.h"

namespace lp::core {

double allReduceSeconds(int n, double bytes, const Link& link) {
    if (n <= 1 || bytes <= 0)
        return 0.0;
    const double frac = static_cast<double>(n - 1) / n;
    return 2.0 * frac * bytes / link.busBandwidth(bytes) + 2.0 * (n - 1) * link.latencySeconds;
}

double allGatherSeconds(int n, double bytes, const Link& link) {
    if (n <= 1 || bytes <= 0)
        return 0.0;
    const double frac = static_cast<double>(n - 1) / n;
    return frac * bytes / link.busBandwidth(bytes) + (n - 1) * link.latencySeconds;
}

double sendSeconds(double bytes, const Link& link) {
    if (bytes <= 0)
        return 0.0;
    return bytes / link.busBandwidth(bytes) + link.latencySeconds;
}

} // namespace lp::core
