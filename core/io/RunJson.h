#pragma once
// A scenario's "run" object: the token rule and budgets, price, power, failures and checkpoints
// (docs/formats.md, "run"). Absent keys keep RunOptions' defaults.
#include "core/io/InputError.h"
#include "core/io/JsonReader.h"
#include "core/model/RunOptions.h"

#include <string>

namespace lp::core {

// The run options `j` states (nullptr: all defaults); problems are added to errors with their JSON path.
RunOptions readRunOptions(const json::Json* j, const std::string& path, InputErrors& errors);
// Every run key with its value.
json::Json runOptionsToJson(const RunOptions& r);

} // namespace lp::core
