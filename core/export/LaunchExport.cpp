#include "core/export/LaunchExport.h"

#include "core/estimate/ExecutionStyle.h"
#include "core/export/detail/DeepSpeedConfig.h"
#include "core/export/detail/MegatronArgs.h"
#include "core/export/detail/TorchtitanToml.h"
#include "core/util/NumberFormat.h"
#include "core/util/Text.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>

namespace lp::core {

std::string_view toString(LaunchTarget t) {
    switch (t) {
    case LaunchTarget::Megatron:
        return "megatron";
    case LaunchTarget::DeepSpeed:
        return "deepspeed";
    case LaunchTarget::Torchtitan:
        return "torchtitan";
    }
    return "megatron";
}

std::string_view displayName(LaunchTarget t) {
    switch (t) {
    case LaunchTarget::Megatron:
        return "Megatron-LM";
    case LaunchTarget::DeepSpeed:
        return "DeepSpeed";
    case LaunchTarget::Torchtitan:
        return "torchtitan";
    }
    return "Megatron-LM";
}

std::optional<LaunchTarget> parseLaunchTarget(std::string_view s) {
    const std::string l = asciiLower(s);
    if (l == "megatron" || l == "megatron-lm" || l == "megatron_lm")
        return LaunchTarget::Megatron;
    if (l == "deepspeed" || l == "ds")
        return LaunchTarget::DeepSpeed;
    if (l == "torchtitan" || l == "titan")
        return LaunchTarget::Torchtitan;
    return std::nullopt;
}

LaunchSettings exportLaunchSettings(const Scenario& s, LaunchTarget target) {
    switch (target) {
    case LaunchTarget::Megatron:
        return detail::megatronArgs(s);
    case LaunchTarget::DeepSpeed:
        return detail::deepSpeedConfig(s);
    case LaunchTarget::Torchtitan:
        return detail::torchtitanToml(s);
    }
    return detail::megatronArgs(s);
}

} // namespace lp::core
