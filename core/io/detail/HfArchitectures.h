#pragma once
// What each Hugging Face architecture's config.json says about the model, family by family: Llama and its
// kin (Mistral, Qwen2/3, Mixtral, the Qwen MoE models), GPT-2, GPT-NeoX, Falcon, Nemotron and DeepSeek-V3.
#include "core/io/HfImport.h"
#include "core/io/detail/HfConfigReader.h"

#include <string>

namespace lp::core::json {

// Reads the model of a config of a supported model_type into out.model; what is approximated or chosen goes
// to out.notes.
void readHfArchitecture(HfConfigReader& r, const std::string& type, HfImport& out,
                        const HfImportOptions& options);

} // namespace lp::core::json
