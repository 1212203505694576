#pragma once
// Reading numbers and labelled fields out of training-log lines (core/measured/RunLog.cpp).
#include <cstddef>
#include <optional>
#include <string_view>

namespace lp::core::detail {

std::string_view trim(std::string_view s);

// A finite number at the start of s (after spaces); thousands separators allowed when `commas`. `used`: the
// characters read.
std::optional<double> numberAt(std::string_view s, std::size_t* used = nullptr, bool commas = false);

// A non-negative whole number at the start of s (after spaces).
std::optional<long long> integerAt(std::string_view s, std::size_t* used = nullptr);

// The value after a label ("elapsed time per iteration (ms):"), or nullopt; `present` says whether the label
// was there at all.
std::optional<double> valueAfter(std::string_view line, std::string_view label, bool* present,
                                 bool commas = false);

} // namespace lp::core::detail
