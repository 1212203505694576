#pragma once
// Small statistics shared by the core: the median of a sample (run logs, validation summaries).
#include <algorithm>
#include <vector>

namespace lp::core {

// The middle value of v, or the mean of the two middle values for an even count; `empty` when v is empty.
inline double median(std::vector<double> v, double empty) {
    if (v.empty())
        return empty;
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

} // namespace lp::core
