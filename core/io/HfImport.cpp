#include "core/io/HfImport.h"

#include "core/io/Files.h"
#include "core/io/JsonReader.h"
#include "core/io/Presets.h"
#include "core/io/ScenarioJson.h"
#include "core/io/detail/HfArchitectures.h"
#include "core/io/detail/HfConfigReader.h"
#include "core/model/Scenario.h"

#include <algorithm>
#include <string_view>
#include <utility>
#include <vector>

namespace lp::core {
namespace {

using json::Json;

const std::vector<std::pair<std::string, std::string>>& architectureTypes() {
    static const std::vector<std::pair<std::string, std::string>> table = {
        {"LlamaForCausalLM", "llama"},        {"MistralForCausalLM", "mistral"},
        {"Qwen2ForCausalLM", "qwen2"},        {"Qwen3ForCausalLM", "qwen3"},
        {"Qwen2MoeForCausalLM", "qwen2_moe"}, {"Qwen3MoeForCausalLM", "qwen3_moe"},
        {"MixtralForCausalLM", "mixtral"},    {"GPT2LMHeadModel", "gpt2"},
        {"GPTNeoXForCausalLM", "gpt_neox"},   {"FalconForCausalLM", "falcon"},
        {"RWForCausalLM", "falcon"},          {"DeepseekV3ForCausalLM", "deepseek_v3"},
        {"NemotronForCausalLM", "nemotron"},
    };
    return table;
}

std::string familyOf(const std::string& type) {
    if (type == "llama" || type == "mistral" || type == "qwen2" || type == "qwen3" || type == "mixtral" ||
        type == "qwen2_moe" || type == "qwen3_moe")
        return "llama";
    if (type == "RefinedWebModel" || type == "RefinedWeb")
        return "falcon";
    return type;
}

bool supported(const std::string& type) {
    const auto& types = supportedHfModelTypes();
    return std::find(types.begin(), types.end(), familyOf(type) == "falcon" ? std::string("falcon") : type) !=
           types.end();
}

// The object that describes the language model: the file's own, or a multimodal wrapper's "text_config".
struct ConfigObject {
    const Json* object = nullptr;
    std::string path = "$";
};

ConfigObject languageModelConfig(const Json& root, std::vector<std::string>& notes) {
    if (!root.contains("hidden_size") && !root.contains("n_embd") && root.contains("text_config") &&
        root.at("text_config").is_object()) {
        notes.push_back(
            "Read the language model from text_config (the vision or audio parts are not modelled).");
        return {&root.at("text_config"), "$.text_config"};
    }
    return {&root, "$"};
}

// The config's model_type (the wrapper's when the language model does not say), else the one its
// "architectures" name ("LlamaForCausalLM"); an error when none is supported.
std::expected<std::string, InputErrors> modelTypeOf(const Json& root, const ConfigObject& config) {
    std::string type;
    const Json& obj = *config.object;
    for (const auto& [where, path] : {std::pair{&obj, config.path}, std::pair{&root, std::string("$")}})
        if (where->contains("model_type") && !where->at("model_type").is_string() &&
            !where->at("model_type").is_null())
            return std::unexpected(InputErrors{
                {json::childPath(path, "model_type"),
                 "wrong type: expected a string naming the architecture (such as \"llama\"), got " +
                     json::describe(where->at("model_type"))}});
    if (obj.contains("model_type") && obj.at("model_type").is_string())
        type = obj.at("model_type").get<std::string>();
    else if (&obj != &root && root.contains("model_type") && root.at("model_type").is_string())
        type = root.at("model_type").get<std::string>();
    if (!supported(type) && root.contains("architectures") && root.at("architectures").is_array()) {
        for (const auto& a : root.at("architectures")) {
            if (!a.is_string())
                continue;
            for (const auto& [cls, t] : architectureTypes())
                if (a.get<std::string>() == cls)
                    type = t;
            if (supported(type))
                break;
        }
    }
    const std::string path = json::childPath(config.path, "model_type");
    if (type.empty())
        return std::unexpected(
            InputErrors{{path, "missing required key \"model_type\" (and no known \"architectures\" entry): "
                               "cannot tell which architecture this is"}});
    if (familyOf(type) == "falcon")
        type = "falcon";
    if (!supported(type))
        return std::unexpected(
            InputErrors{{path, "unsupported model type " + json::quoteJson(type) +
                                   ": Layout Planner imports the decoder-only language models " +
                                   json::joinList(supportedHfModelTypes())}});
    return type;
}

// The config key that a scenario file's model key was read from: the first of its spellings the config
// holds (the user's own path), else the scenario's path.
std::string configKeyOf(const std::string& scenarioPath, const ConfigObject& config) {
    static const std::pair<std::string_view, std::vector<std::string_view>> kSpellings[] = {
        {"$.model.layers", {"num_hidden_layers", "n_layer"}},
        {"$.model.hidden", {"hidden_size", "n_embd", "n_embed"}},
        {"$.model.heads", {"num_attention_heads", "n_head"}},
        {"$.model.kv_heads", {"num_key_value_heads", "num_kv_heads", "n_head_kv"}},
        {"$.model.head_size", {"head_dim"}},
        {"$.model.ffn_hidden", {"intermediate_size", "n_inner", "ffn_hidden_size"}},
        {"$.model.vocab", {"vocab_size"}},
        {"$.model.seq_len", {"max_position_embeddings", "n_positions", "seq_length"}},
        {"$.model.moe.experts", {"num_local_experts", "num_experts", "n_routed_experts"}},
        {"$.model.moe.top_k", {"num_experts_per_tok"}},
        {"$.model.moe.expert_ffn_hidden", {"moe_intermediate_size"}},
        {"$.model.moe.shared_experts", {"n_shared_experts", "shared_expert_intermediate_size"}},
        {"$.model.moe.groups", {"n_group"}},
        {"$.model.moe.group_limit", {"topk_group"}},
        {"$.model.moe.moe_layers", {"first_k_dense_replace", "decoder_sparse_step", "mlp_only_layers"}},
    };
    for (const auto& [path, keys] : kSpellings) {
        if (path != scenarioPath)
            continue;
        for (std::string_view key : keys)
            if (config.object->contains(key))
                return json::childPath(config.path, key);
    }
    return scenarioPath;
}

// The model must also be one a scenario file can hold: a relation between its numbers that a scenario
// refuses (more experts per token than experts, heads wider than the model) is refused here, naming the
// field, rather than saved into a scenario that would not open again.
std::expected<void, InputErrors> checkScenarioHoldsModel(const ModelSpec& model, const ConfigObject& config) {
    Scenario check = defaultScenario();
    check.model = model;
    if (auto readBack = scenarioFromJson(scenarioToJson(check)); !readBack) {
        InputErrors errors;
        for (InputError e : readBack.error()) {
            e.path = configKeyOf(e.path, config);
            e.reason += " (a scenario file cannot hold this model)";
            e.line = e.column = 0;
            errors.push_back(std::move(e));
        }
        return std::unexpected(std::move(errors));
    }
    return {};
}

// "Llama-2-7b-hf/config.json" names the model after its folder; another file after itself.
std::string nameFromPath(std::string p) {
    while (p.size() > 1 && (p.back() == '/' || p.back() == '\\'))
        p.pop_back();
    const auto slash = p.find_last_of("/\\");
    const std::string file = slash == std::string::npos ? p : p.substr(slash + 1);
    const std::string stem = file.ends_with(".json") ? file.substr(0, file.size() - 5) : file;
    std::string folder;
    if (slash != std::string::npos) {
        const std::string dir = p.substr(0, slash);
        const auto parent = dir.find_last_of("/\\");
        folder = parent == std::string::npos ? dir : dir.substr(parent + 1);
    }
    return (stem == "config" && !folder.empty() && folder != ".") ? folder : stem;
}

} // namespace

const std::vector<std::string>& supportedHfModelTypes() {
    static const std::vector<std::string> types = {"llama",     "mistral",   "qwen2",       "qwen3",
                                                   "qwen2_moe", "qwen3_moe", "mixtral",     "gpt2",
                                                   "gpt_neox",  "falcon",    "deepseek_v3", "nemotron"};
    return types;
}

std::expected<HfImport, InputErrors> importHfConfig(std::string_view text, const HfImportOptions& options) {
    InputErrors errors;
    const std::optional<Json> root = json::parseObject(text, errors);
    if (!root || !errors.empty())
        return std::unexpected(json::capped(std::move(errors)));
    HfImport out;
    const ConfigObject config = languageModelConfig(*root, out.notes);
    const auto type = modelTypeOf(*root, config);
    if (!type)
        return std::unexpected(type.error());
    out.modelType = *type;
    json::ObjectReader object(*config.object, config.path, errors, {}, json::Strictness::Lenient);
    json::HfConfigReader r(object, *type);
    json::readHfArchitecture(r, *type, out, options);
    if (!errors.empty())
        return std::unexpected(json::capped(std::move(errors)));
    std::string name = options.name;
    if (name.empty() && root->contains("_name_or_path") && root->at("_name_or_path").is_string())
        name = root->at("_name_or_path").get<std::string>();
    out.model.name = name.empty() ? "Hugging Face " + *type + " model" : name;
    if (auto held = checkScenarioHoldsModel(out.model, config); !held)
        return std::unexpected(held.error());
    return out;
}

bool looksLikeHfConfig(std::string_view text) {
    InputErrors errors;
    const std::optional<Json> root = json::parseObject(text, errors);
    if (!root || !errors.empty())
        return false;
    const bool hfKeys = root->contains("model_type") || root->contains("architectures");
    const bool scenarioKeys =
        root->contains("model") || root->contains("cluster") || root->contains("layout");
    return hfKeys && !scenarioKeys;
}

bool isHfConfigFile(const std::string& path) {
    const auto text = readTextFile(path);
    return text && looksLikeHfConfig(*text);
}

std::string hfConfigNotScenarioText(std::string_view fileName) {
    return std::string(fileName) + " is a Hugging Face model config, not a scenario";
}

std::expected<HfImport, InputErrors> loadHfConfigFile(const std::string& path, HfImportOptions options) {
    auto text = readTextFile(path);
    if (!text)
        return std::unexpected(InputErrors{{"", text.error(), 0, 0}});
    auto imported = importHfConfig(*text, options);
    // Without a name in the options or the file, the model is named after its folder or file.
    if (imported && options.name.empty() && imported->model.name.starts_with("Hugging Face ")) {
        const std::string fallback = nameFromPath(path);
        if (!fallback.empty())
            imported->model.name = fallback;
    }
    return imported;
}

} // namespace lp::core
