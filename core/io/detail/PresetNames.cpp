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

template <typename Preset, typename IdOf>
PresetOrObject<Preset> presetOrObject(const Json& v, const std::string& path, InputErrors& errors,
                                      std::string_view kind, const Preset* (*find)(std::string_view),
                                      const std::vector<Preset>& all, IdOf idOf) {
    if (v.is_object())
        return {nullptr, true};
    if (v.is_string())
        return {named(v, path, errors, kind, find, all, idOf), false};
    errors.push_back({path, "wrong type: expected a " + std::string(kind) +
                                " preset name or an object, got " + describe(v)});
    return {};
}

std::string modelId(const ModelPreset& p) {
    return p.id;
}
std::string gpuId(const GpuPreset& p) {
    return p.gpu.id;
}
std::string clusterId(const ClusterPreset& p) {
    return p.id;
}

} // namespace

const ModelPreset* namedModelPreset(const Json& v, const std::string& path, InputErrors& errors) {
    return named(v, path, errors, "model", &findModelPreset, modelPresets(), modelId);
}

const GpuPreset* namedGpuPreset(const Json& v, const std::string& path, InputErrors& errors) {
    return named(v, path, errors, "GPU", &findGpuPreset, gpuPresets(),
                 [](const GpuPreset& p) { return p.gpu.id; });
}

const ClusterPreset* namedClusterPreset(const Json& v, const std::string& path, InputErrors& errors) {
    return named(v, path, errors, "cluster", &findClusterPreset, clusterPresets(), clusterId);
}

PresetOrObject<ModelPreset> modelPresetOrObject(const Json& v, const std::string& path, InputErrors& errors) {
    return presetOrObject(v, path, errors, "model", &findModelPreset, modelPresets(), modelId);
}

PresetOrObject<GpuPreset> gpuPresetOrObject(const Json& v, const std::string& path, InputErrors& errors) {
    return presetOrObject(v, path, errors, "GPU", &findGpuPreset, gpuPresets(), gpuId);
}

PresetOrObject<ClusterPreset> clusterPresetOrObject(const Json& v, const std::string& path,
                                                    InputErrors& errors) {
    return presetOrObject(v, path, errors, "cluster", &findClusterPreset, clusterPresets(), clusterId);
}

} // namespace lp::core::json
