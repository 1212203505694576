#pragma once
// A scenario's "run" object: the token rule and budgets, price, power, failures and checkpoints
// (docs/formats.md, "run"). Absent keys keep RunOptions' defaults.
#include "core/io/InputError.h"
#include "core/io/JsonReader.h"
#include "core/model/RunOptions.h"

#include <string>
#include <string_view>

namespace lp::core {

// The run options `j` states (nullptr: all defaults); problems are added to errors with their JSON path.
RunOptions readRunOptions(const json::Json* j, const std::string& path, InputErrors& errors);
// Every run key with its value.
json::Json runOptionsToJson(const RunOptions& r);
// The values a number key of the run object may hold ("price_per_gpu_hour_usd": 0 to 1e6), so that a window
// takes no value its own file would refuse; nullptr for another key.
const json::DoubleRange* runKeyRange(std::string_view key);

} // namespace lp::core
