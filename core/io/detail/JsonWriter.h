#pragma once
// Writing io's JSON files: the shortest exact number text and a pretty printer that keeps short arrays on
// one line.
#include "core/io/JsonReader.h"

#include <string>

namespace lp::core::json {

// The shortest text that reads back to the same double, exponent tidied: 8e10, 5e-6, 0.85.
std::string fmtNumber(double v);

// A double as a JSON value: fmtNumber, or null for infinity and NaN (JSON has neither).
std::string jsonDouble(double v);

// Pretty printing with two-space indents; arrays of plain values stay on one line ([1e6, 0.42]).
// Ends with a newline.
std::string dumpPretty(const Json& j);

} // namespace lp::core::json
