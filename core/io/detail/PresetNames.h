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

} // namespace lp::core::json
