#pragma once
// lp::format: std::format where the standard library has it, else fmt::format from {fmt} 9, the library
// std::format was standardised from (the same format-spec syntax: "{:.1f}" is printf's "%.1f", "{:g}" its
// "%g"). GCC 12's libstdc++, Debian 12's, has no <format>.
#include <version>

#if defined(__cpp_lib_format) && __cpp_lib_format >= 201907L
#include <format>

namespace lp {
using std::format;
} // namespace lp
#else
#include <fmt/format.h>

namespace lp {
using ::fmt::format;
} // namespace lp
#endif
