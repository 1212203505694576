#pragma once
// The settings keys that scenario files and validation cases (layout-planner/validation-cases@2) share: the
// training options, and what a case may state about its cluster. One table, so that names, values, limits
// and messages are the same in both (docs/formats.md).
#include "core/io/JsonReader.h"
#include "core/io/Presets.h"
#include "core/model/Hardware.h"
#include "core/model/Scenario.h"

#include <span>
#include <string_view>

namespace lp::core {

// The training keys of a scenario file, in its order.
std::span<const char* const> scenarioTrainingKeys();
// Every training key r's object holds, over t (a key it lacks leaves its field as it is); allows them all.
void readTrainingKeys(json::ObjectReader& r, TrainingOptions& t);
// One training key, when r's object holds it, over t.
void readTrainingKey(json::ObjectReader& r, std::string_view key, TrainingOptions& t);
// Every training key with its value, as a scenario file writes them.
json::Json trainingToJson(const TrainingOptions& t);
// The values a number training key may hold ("token_budget_tokens"); nullptr for another key.
const json::DoubleRange* trainingKeyRange(std::string_view key);

// A validation case's "cluster" object over the cluster its hardware gives: "preset", a cluster preset of the
// case's GPU family and node size, whose network per GPU it takes; "gpu", GPU keys over the case's GPU
// (network_bandwidth_bytes_per_s, as a scenario's cluster.gpu); "nvlink_domain", "nvlink_latency_s" and
// "network_latency_s" and "network" (the cards: fabric, cards_per_node, card_gbps, rail_optimized, latency_s)
// as a scenario's cluster. Allows these keys; returns the preset named, or nullptr.
const ClusterPreset* readClusterStatement(json::ObjectReader& r, ClusterSpec& c);

} // namespace lp::core
