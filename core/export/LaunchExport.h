#pragma once
// Launch settings: the chosen layout written as what a user pastes into a training
// framework, with the framework's current names:
//   Megatron-LM  command-line arguments (a bash array, pretrain_gpt.py "${MEGATRON_ARGS[@]}"),
//   DeepSpeed    a config JSON (ds_config.json),
//   torchtitan   the [training], [parallelism] and [activation_checkpoint] tables of its TOML config.
// What a target cannot express (DeepSpeed has no TP/PP keys, torchtitan no ZeRO-1) is said in notes,
// never silently dropped. Formats and the names used: docs/reports.md.
#include "core/model/Scenario.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lp::core {

enum class LaunchTarget { Megatron, DeepSpeed, Torchtitan };
inline constexpr LaunchTarget kLaunchTargets[] = {LaunchTarget::Megatron, LaunchTarget::DeepSpeed,
                                                  LaunchTarget::Torchtitan};

std::string_view toString(LaunchTarget t);                         // "megatron", "deepspeed", "torchtitan"
std::string_view displayName(LaunchTarget t);                      // "Megatron-LM", "DeepSpeed", "torchtitan"
std::optional<LaunchTarget> parseLaunchTarget(std::string_view s); // any case; also "megatron-lm", "ds"

struct LaunchSettings {
    LaunchTarget target = LaunchTarget::Megatron;
    std::string text;               // the file's content, ends with a newline
    std::string fileName;           // suggested: "megatron-args.sh", "ds_config.json", "torchtitan.toml"
    std::vector<std::string> notes; // what the target cannot express, and what to check
};

LaunchSettings exportLaunchSettings(const Scenario& s, LaunchTarget target);

} // namespace lp::core
