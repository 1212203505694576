#pragma once
// Presets named in a file ("model": "llama2-70b"): the preset, or nullptr and an error that names the known
// ones (with a "did you mean").
#include "core/io/InputError.h"
#include "core/io/JsonReader.h"
#include "core/io/Presets.h"

#include <string>

namespace lp::core::json {

const ModelPreset* namedModelPreset(const Json& v, const std::string& path, InputErrors& errors);
const GpuPreset* namedGpuPreset(const Json& v, const std::string& path, InputErrors& errors);
const ClusterPreset* namedClusterPreset(const Json& v, const std::string& path, InputErrors& errors);

// A scenario's "model", "cluster" or "gpu" value: a preset's name or an object of keys.
template <typename Preset> struct PresetOrObject {
    const Preset* preset = nullptr; // the preset the value names (nullptr, and an error, when unknown)
    bool isObject = false;          // an object, to read key by key
};
// Either, or an error ("expected a model preset name or an object").
PresetOrObject<ModelPreset> modelPresetOrObject(const Json& v, const std::string& path, InputErrors& errors);
PresetOrObject<GpuPreset> gpuPresetOrObject(const Json& v, const std::string& path, InputErrors& errors);
PresetOrObject<ClusterPreset> clusterPresetOrObject(const Json& v, const std::string& path,
                                                    InputErrors& errors);

} // namespace lp::core::json
