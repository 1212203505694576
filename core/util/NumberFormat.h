#pragma once
// Number formatting for reports and run analyses (HTML, Markdown, text): thousands separators,
// GB and GiB side by side, percentages. Non-finite numbers print as "n/a", never NaN or inf.
// The same conventions as the command line's tables (app/cli/TextFormat.h).
#include <string>

namespace lp::core::fmt {

std::string fixed(double v, int decimals); // 12,345.67
std::string sig(double v, int digits = 4); // 0.4123, 1.235e+12
// A table's figure: `digits` significant digits (0.4123, 137.5), whole numbers with separators from
// 10^(digits-1) up to 1e15 (7,352 and 18,347 tokens/s, not 1.835e+04), scientific beyond and for the tiny.
std::string figure(double v, int digits = 4);
std::string gib(double bytes, int decimals = 2); // "61.23 GiB"
std::string gb(double bytes, int decimals = 2);  // "65.75 GB"
// Decimal and binary side by side, in GB/GiB or, from 1 TB up, TB/TiB: "47.77 GB (44.49 GiB)".
std::string bytesBoth(double bytes);
// A message size in decimal units, three significant digits: "512 B", "390 KB", "3.13 MB", "1.20 GB".
std::string messageBytes(double bytes);
std::string percent(double fraction, int decimals = 1); // "41.2 %"
// 68,976,648,192 -> "68.98 B"; M, B, T, P (1.1652e17 FLOPs -> "116.52 P"), E; scientific from 1e21.
std::string count(double v);
// Dollars: "$2.66 M" from 100,000 up (count()), "$3,990" from 100, "$1.330" below.
std::string dollars(double usd);
// "1 DP rank", "8 DP ranks": a count with its noun, singular or plural ("replica" -> "replicas").
std::string counted(long long n, const std::string& noun);
// A duration: "12.5 µs" under 1 ms, "736.5 ms" under 1 s, "4.817 s" under a minute, "95.2 s" beyond.
std::string duration(double seconds);
// A figure with its unit as Explanation::unit names it ("bytes", "fraction", "s", ...): fractions as
// percentages with one decimal, seconds as duration() under ten minutes and wallClock() beyond, whole
// numbers and figures from 1,000 up with separators, millions as count(), four significant digits below.
std::string withUnit(double v, const std::string& unit);

// A run's wall-clock time: years, days, hours or minutes, and duration()'s units below two minutes.
std::string wallClock(double seconds);

// The guard behind every sentence of figures: a non-finite number that a format string printed ("inf",
// "-nan", "infinity") as "n/a", whole words only ("infiniband" stays). Limits keep such numbers out of a
// plan (core/model/Limits.h); this keeps them out of the words if one ever gets through.
std::string finiteText(std::string text);

} // namespace lp::core::fmt

namespace lp::core {

// The unit memory figures are shown in; the user picks it.
enum class MemoryUnit { GB, GiB };

double memoryUnitBytes(MemoryUnit unit);     // 1e9 or 2^30
std::string memoryUnitName(MemoryUnit unit); // "GB" or "GiB"
// Bytes in the unit, with thousands separators: "1,028 GiB" (decimals 0), "71.3 GB" (decimals 1).
std::string bytesIn(double bytes, MemoryUnit unit, int decimals);
// Both units, the chosen one first, in GB/GiB or, from 1 TB (1 TiB) up, TB/TiB: "48.74 GiB (52.34 GB)",
// "52.34 GB (48.74 GiB)", "1.00 TiB (1.10 TB)". fmt::bytesBoth(b) is bytesBoth(b, MemoryUnit::GB).
std::string bytesBoth(double bytes, MemoryUnit first);

// How a sentence worded in core prints its figures: the conventions above, memory in the user's unit.
struct FigureFormat {
    MemoryUnit unit = MemoryUnit::GiB;
    std::string bytes(double b) const { return bytesIn(b, unit, 1); }
    std::string percent(double fraction, int decimals) const { return fmt::percent(fraction, decimals); }
    std::string seconds(double s) const { return fmt::duration(s); }
    std::string number(double v, int decimals) const { return fmt::fixed(v, decimals); }
    std::string count(long long n) const { return fmt::fixed(static_cast<double>(n), 0); }
};

} // namespace lp::core
