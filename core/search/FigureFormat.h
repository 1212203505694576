#pragma once
// How a caption worded in core prints its figures. The command line and reports take the plain format
// (GiB, "41.2 %"); the window passes its own (the user's memory unit, the locale's separators), so that
// the words are written once and the numbers look like the rest of the screen.
#include <functional>
#include <string>

namespace lp::core {

struct FigureFormat {
    std::function<std::string(double bytes)> bytes;                    // "61.2 GiB"
    std::function<std::string(double fraction, int decimals)> percent; // 0.412, 1 -> "41.2 %"
    std::function<std::string(double seconds)> seconds;                // a step: "412 ms", "9.81 s"
    std::function<std::string(double v, int decimals)> number;         // "1,234.5"
    std::function<std::string(long long n)> count;                     // "65,536"
};

// core::fmt's conventions: GiB with one decimal, "41.2 %", "736.5 ms", thousands separators.
FigureFormat plainFigureFormat();

} // namespace lp::core
