#pragma once
// Decimal and binary units, never mixed up on screen: GB (1e9 bytes) and GiB (2^30 bytes), tera (1e12).

namespace lp::core {

inline constexpr double kGB = 1e9;
inline constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
inline constexpr double kTera = 1e12;

} // namespace lp::core
