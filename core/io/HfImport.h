#pragma once
// Importing a model architecture from a Hugging Face config.json: Llama, Mistral, Qwen2,
// Qwen3, Qwen2-MoE / Qwen3-MoE, Mixtral, GPT-2, GPT-NeoX (Pythia), Falcon and DeepSeek-V3, mapping
// hidden size, layers, heads, KV heads, MLP size, vocabulary, tied embeddings, activation, norms,
// biases, experts and latent attention. Multimodal wrappers with a "text_config" are read through it.
// An unknown model_type or a missing field is an InputError naming the JSON path and the reason.
#include "core/io/InputError.h"
#include "core/model/ModelSpec.h"

#include <expected>
#include <string>
#include <string_view>
#include <vector>

namespace lp::core {

struct HfImportOptions {
    // The sequence length to train at (the scenario's). Capped at the model's maximum positions
    // (max_position_embeddings, n_positions); 0 means min(maximum positions, 4096).
    int preferredSeqLen = 0;
    std::string name; // display name; empty: "_name_or_path" from the file, else the model type
};

struct HfImport {
    ModelSpec model;
    std::string modelType; // "llama", "gpt2", ...
    std::vector<std::string>
        notes; // what is approximated or chosen ("sliding-window attention is not modelled")
};

std::expected<HfImport, InputErrors> importHfConfig(std::string_view json,
                                                    const HfImportOptions& options = {});
// Reads the file; without a name in options or in the file, names the model after its folder
// ("Llama-2-7b-hf/config.json") or the file.
std::expected<HfImport, InputErrors> loadHfConfigFile(const std::string& path, HfImportOptions options = {});

// Whether a JSON text is a Hugging Face config rather than a scenario: an object with "model_type" or
// "architectures" and none of a scenario's "model", "cluster" or "layout". Opening one as a scenario then
// offers to import it instead of listing a scenario's missing keys.
bool looksLikeHfConfig(std::string_view json);
// The same for a file; false when it cannot be read.
bool isHfConfigFile(const std::string& path);
// What the window and its command line say of such a file: "config.json is a Hugging Face model config,
// not a scenario".
std::string hfConfigNotScenarioText(std::string_view fileName);

// The model_type values importHfConfig() understands.
const std::vector<std::string>& supportedHfModelTypes();

} // namespace lp::core
