#include "core/io/detail/PresetNames.h"

#include <string_view>
#include <vector>

namespace lp::core::json {
namespace {

template <typename Preset, typename IdOf>
const Preset* named(const Json& v, const std::string& path, InputErrors& errors, std::string_view kind,
                    const Preset* (*find)(std::string_view), const std::vector<Preset>& all, IdOf idOf) {
    if (!v.is_string()) {
        errors.push_back(
            {path, "wrong type: expected a " + std::string(kind) + " preset name, got " + describe(v)});
        return nullptr;
    }
    const std::string& name = v.get_ref<const std::string&>();
    if (const Preset* p = find(name))
        return p;
    std::vector<std::string> ids;
    for (const auto& p : all)
        ids.push_back(idOf(p));
    std::string reason =
        "unknown " + std::string(kind) + " preset " + quoteJson(name) + didYouMean(name, ids);
    if (!ids.empty())
        reason += "; known: " + joinList(ids);
    errors.push_back({path, std::move(reason)});
    return nullptr;
}

} // namespace

const ModelPreset* namedModelPreset(const Json& v, const std::string& path, InputErrors& errors) {
    return named(v, path, errors, "model", &findModelPreset, modelPresets(),
                 [](const ModelPreset& p) { return p.id; });
}

const GpuPreset* namedGpuPreset(const Json& v, const std::string& path, InputErrors& errors) {
    return named(v, path, errors, "GPU", &findGpuPreset, gpuPresets(),
                 [](const GpuPreset& p) { return p.gpu.id; });
}

const ClusterPreset* namedClusterPreset(const Json& v, const std::string& path, InputErrors& errors) {
    return named(v, path, errors, "cluster", &findClusterPreset, clusterPresets(),
                 [](const ClusterPreset& p) { return p.id; });
}

} // namespace lp::core::json
