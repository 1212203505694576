#pragma once
// Number formatting for the screen: explicit units (GB vs GiB never ambiguous), sensible precision,
// the digits and thousands separators of the core's formatting (core/util/NumberFormat.h), as the command
// line and the reports print them.
#include "core/util/NumberFormat.h"

#include <QString>

#include <string_view>

namespace lp::ui {

// Core text (UTF-8) as a QString.
QString qs(std::string_view text);

using MemoryUnit = core::MemoryUnit;

double bytesPerUnit(MemoryUnit u);
QString unitName(MemoryUnit u);                                    // "GB" or "GiB"
QString formatBytes(double bytes, MemoryUnit u, int decimals = 1); // "71.3 GiB"
QString formatNumber(double v, int decimals = 0);                  // "1,234,567"
QString formatCount(long long v);                                  // "65,536"
QString formatPercent(double fraction, int decimals = 1);          // 0.412 -> "41.2 %"
QString formatSeconds(double s);                                   // "9.810 s", "412.3 ms", "35.0 µs"
QString formatDuration(double s);                                  // "13.2 days", "5.1 h", "42 min"
QString formatBandwidth(double bytesPerSecond);                    // "450 GB/s"

} // namespace lp::ui
