// Hugging Face config.json import (core/io/HfImport.h). The fixtures in tests/data/hf are the published
// config.json files of each model; the imported parameter count must match the published size.
#include "TestHarness.h"
#include "core/io/Files.h"
#include "core/io/HfImport.h"
#include "core/io/Presets.h"
#include "core/io/ScenarioJson.h"
#include "core/model/Scenario.h"

#include <string>

using namespace lp::core;

namespace {

std::string hfPath(const std::string& name) {
    return std::string(LP_TEST_DATA_DIR) + "/hf/" + name;
}

HfImport load(const std::string& name, int seqLen = 0) {
    HfImportOptions o;
    o.preferredSeqLen = seqLen;
    auto r = loadHfConfigFile(hfPath(name), o);
    if (!r) {
        for (const auto& e : r.error())
            std::fprintf(stderr, "%s: %s\n", name.c_str(), e.message().c_str());
        LP_CHECK(r.has_value());
        return {};
    }
    return *r;
}

InputErrors loadErrors(const std::string& name) {
    auto r = loadHfConfigFile(hfPath(name));
    LP_CHECK(!r.has_value());
    return r ? InputErrors{} : r.error();
}

bool anyError(const InputErrors& errors, const std::string& path, const std::string& part) {
    for (const auto& e : errors)
        if (e.path == path && e.reason.find(part) != std::string::npos)
            return true;
    return false;
}

bool anyNote(const HfImport& h, const std::string& part) {
    for (const auto& n : h.notes)
        if (n.find(part) != std::string::npos)
            return true;
    return false;
}

} // namespace

// Published sizes: the models' Hugging Face model cards / safetensors totals and papers.
LP_TEST(llama_2_7b) {
    const HfImport h = load("llama-2-7b.json");
    const ModelSpec& m = h.model;
    LP_CHECK_EQ(h.modelType, std::string("llama"));
    LP_CHECK_EQ(m.name, std::string("meta-llama/Llama-2-7b-hf"));
    LP_CHECK_EQ(m.layers, 32);
    LP_CHECK_EQ(m.hidden, 4096);
    LP_CHECK_EQ(m.heads, 32);
    LP_CHECK_EQ(m.kvHeads, 32);
    LP_CHECK_EQ(m.ffnHidden, 11008);
    LP_CHECK_EQ(m.vocab, 32000);
    LP_CHECK_EQ(m.seqLen, 4096);
    LP_CHECK(m.mlp == MlpKind::SwiGlu);
    LP_CHECK(m.norm == NormKind::RmsNorm);
    LP_CHECK(!m.tiedEmbeddings && !m.biases && !m.learnedPositions && !m.isMoe());
    LP_CHECK_NEAR(countParameters(m).total, 6'738'415'616.0, 1e-6); // exact
}

LP_TEST(llama_3_1_8b_caps_the_sequence_and_matches_the_preset) {
    const HfImport h = load("llama-3.1-8b.json", 8192);
    LP_CHECK_EQ(h.model.kvHeads, 8);
    LP_CHECK_EQ(h.model.vocab, 128256);
    LP_CHECK_EQ(h.model.seqLen, 8192); // the preferred length, under the 131072 positions
    LP_CHECK_NEAR(countParameters(h.model).total, 8'030'261'248.0, 1e-6);
    const ModelPreset* preset = findModelPreset("llama3.1-8b");
    LP_CHECK(preset != nullptr);
    if (preset)
        LP_CHECK_NEAR(countParameters(h.model).total, countParameters(preset->model).total, 1e-9);
    LP_CHECK_EQ(load("llama-3.1-8b.json").model.seqLen, 4096); // default: min(positions, 4096)
}

LP_TEST(mistral_7b_notes_the_sliding_window) {
    const HfImport h = load("mistral-7b-v0.1.json", 8192);
    LP_CHECK_EQ(h.model.kvHeads, 8);
    LP_CHECK_EQ(h.model.ffnHidden, 14336);
    LP_CHECK_NEAR(countParameters(h.model).total, 7'241'732'096.0, 1e-6);
    LP_CHECK(anyNote(h, "Sliding-window attention (4096 tokens)"));
    LP_CHECK(!anyNote(load("mistral-7b-v0.1.json", 4096), "Sliding-window")); // window covers the sequence
}

LP_TEST(qwen2_7b) {
    const HfImport h = load("qwen2-7b.json");
    LP_CHECK_EQ(h.model.layers, 28);
    LP_CHECK_EQ(h.model.heads, 28);
    LP_CHECK_EQ(h.model.kvHeads, 4);
    LP_CHECK_EQ(h.model.hidden, 3584);
    LP_CHECK_EQ(h.model.vocab, 152064);
    // 7,615,616,512 published; the QKV biases (129,024) are not counted.
    LP_CHECK_NEAR(countParameters(h.model).total, 7'615'616'512.0, 1e-4);
    LP_CHECK(anyNote(h, "biases"));
    LP_CHECK(!anyNote(h, "Sliding-window")); // use_sliding_window is false
}

LP_TEST(gpt2_124m_is_exact) {
    const HfImport h = load("gpt2.json", 4096);
    const ModelSpec& m = h.model;
    LP_CHECK_EQ(m.name, std::string("gpt2")); // named after the file: no _name_or_path
    LP_CHECK_EQ(m.layers, 12);
    LP_CHECK_EQ(m.hidden, 768);
    LP_CHECK_EQ(m.ffnHidden, 3072); // n_inner null: 4 x n_embd
    LP_CHECK_EQ(m.seqLen, 1024);    // capped at n_positions
    LP_CHECK(m.mlp == MlpKind::Gelu && m.norm == NormKind::LayerNorm);
    LP_CHECK(m.tiedEmbeddings && m.biases && m.learnedPositions && m.dropout);
    LP_CHECK_NEAR(countParameters(m).total, 124'439'808.0, 1e-9);
    LP_CHECK(anyNote(h, "longer than the model's 1024 positions"));
}

LP_TEST(gpt_neox_20b) {
    const HfImport h = load("gpt-neox-20b.json");
    LP_CHECK_EQ(h.model.layers, 44);
    LP_CHECK_EQ(h.model.hidden, 6144);
    LP_CHECK_EQ(h.model.ffnHidden, 24576);
    LP_CHECK_EQ(h.model.seqLen, 2048);
    LP_CHECK(h.model.biases && !h.model.tiedEmbeddings && h.model.mlp == MlpKind::Gelu);
    LP_CHECK_NEAR(countParameters(h.model).total, 20'556'201'984.0, 1e-3); // GPT-NeoX-20B paper, model card
}

LP_TEST(nemotron_4_15b_squared_relu) {
    const HfImport h = load("nemotron-4-15b.json");
    LP_CHECK_EQ(h.modelType, std::string("nemotron"));
    const ModelSpec& m = h.model;
    LP_CHECK(m.mlp == MlpKind::Gelu && m.norm == NormKind::LayerNorm); // two matrices, like GELU
    LP_CHECK(!m.tiedEmbeddings && !m.biases);
    LP_CHECK_EQ(m.kvHeads, 8);
    LP_CHECK_EQ(m.headSize, 0); // head_dim null: hidden / heads
    // Nemotron-4 technical report: 3.2 billion embedding and 12.5 billion non-embedding parameters.
    const ParameterCount c = countParameters(m);
    const double embedding = 2.0 * 256000.0 * 6144.0;
    LP_CHECK_NEAR(embedding, 3.2e9, 0.02);
    LP_CHECK_NEAR(c.total - embedding, 12.5e9, 0.01);
}

LP_TEST(falcon_7b_multi_query) {
    const HfImport h = load("falcon-7b.json");
    LP_CHECK_EQ(h.modelType, std::string("falcon"));
    LP_CHECK_EQ(h.model.heads, 71);
    LP_CHECK_EQ(h.model.kvHeads, 1);
    LP_CHECK_EQ(h.model.ffnHidden, 4 * 4544);
    LP_CHECK_EQ(h.model.seqLen, 2048);
    LP_CHECK(h.model.tiedEmbeddings && !h.model.biases);
    LP_CHECK_NEAR(countParameters(h.model).total, 6'921'720'704.0, 1e-3);
}

LP_TEST(mixtral_8x7b_total_and_active) {
    const HfImport h = load("mixtral-8x7b.json", 4096);
    LP_CHECK_EQ(h.model.moe.experts, 8);
    LP_CHECK_EQ(h.model.moe.topK, 2);
    LP_CHECK_EQ(h.model.moe.expertFfnHidden, 14336);
    const ParameterCount c = countParameters(h.model);
    LP_CHECK_NEAR(c.total, 46'702'792'704.0, 1e-3);
    LP_CHECK_NEAR(c.active, 12'879'925'248.0, 1e-3);
}

LP_TEST(qwen3_moe_matches_the_preset) {
    const HfImport h = load("qwen3-30b-a3b.json", 4096);
    LP_CHECK_EQ(h.model.headSize, 128);
    LP_CHECK_EQ(h.model.moe.experts, 128);
    LP_CHECK_EQ(h.model.moe.expertFfnHidden, 768);
    LP_CHECK_EQ(h.model.moe.moeLayers, 0); // every layer
    const ModelPreset* preset = findModelPreset("qwen3-30b-a3b");
    LP_CHECK(preset != nullptr);
    if (preset) {
        LP_CHECK_NEAR(countParameters(h.model).total, countParameters(preset->model).total, 1e-9);
        LP_CHECK_NEAR(countParameters(h.model).total, preset->publishedParameters,
                      preset->parameterTolerance);
    }
}

LP_TEST(deepseek_v3_latent_attention_and_dense_layers) {
    const HfImport h = load("deepseek-v3.json", 4096);
    const ModelSpec& m = h.model;
    LP_CHECK(m.attention == AttentionKind::Mla);
    LP_CHECK_EQ(m.mla.qLoraRank, 1536);
    LP_CHECK_EQ(m.mla.kvLoraRank, 512);
    LP_CHECK_EQ(m.moe.experts, 256);
    LP_CHECK_EQ(m.moe.sharedExperts, 1);
    LP_CHECK_EQ(m.moeLayerCount(), 58); // 3 dense layers first
    LP_CHECK_EQ(m.moe.groups, 8);       // n_group: node-limited routing
    LP_CHECK_EQ(m.moe.groupLimit, 4);   // topk_group
    LP_CHECK(anyNote(h, "multi-token-prediction"));
    const ModelPreset* preset = findModelPreset("deepseek-v3");
    LP_CHECK(preset != nullptr);
    if (preset)
        LP_CHECK_NEAR(countParameters(m).total, preset->publishedParameters, preset->parameterTolerance);
}

LP_TEST(unknown_model_type_names_the_field) {
    const InputErrors e = loadErrors("bad/unknown-type.json");
    LP_CHECK(anyError(e, "$.model_type", "unsupported model type \"bert\""));
    LP_CHECK(anyError(e, "$.model_type", "llama")); // lists what is supported
}

LP_TEST(missing_fields_are_named) {
    const InputErrors e = loadErrors("bad/missing-hidden-size.json");
    LP_CHECK_EQ(e.size(), std::size_t{1});
    LP_CHECK(anyError(e, "$.hidden_size", "missing required key \"hidden_size\""));
    LP_CHECK(anyError(loadErrors("bad/no-model-type.json"), "$.model_type",
                      "missing required key \"model_type\""));
}

LP_TEST(wrong_types_and_ranges_are_all_reported) {
    const InputErrors e = loadErrors("bad/wrong-types.json");
    LP_CHECK(anyError(e, "$.hidden_size", "wrong type"));
    LP_CHECK(anyError(e, "$.num_hidden_layers", "expected an integer"));
    LP_CHECK(anyError(e, "$.intermediate_size", "out of range"));
    LP_CHECK(anyError(e, "$.tie_word_embeddings", "true or false"));
    LP_CHECK(e.size() >= 4);
}

LP_TEST(truncated_and_non_object_files) {
    const InputErrors e = loadErrors("bad/truncated.json");
    LP_CHECK(!e.empty() && e.front().reason.find("parse error") == 0);
    LP_CHECK(!e.empty() && e.front().line >= 4);
    auto huge = importHfConfig(R"({"model_type": "llama", "hidden_size": 1e99999})");
    LP_CHECK(!huge && huge.error().front().reason.find("out of range") == 0);
    auto arr = importHfConfig("[1, 2]");
    LP_CHECK(!arr && arr.error().front().path == "$");
    auto missing = loadHfConfigFile(hfPath("does-not-exist.json"));
    LP_CHECK(!missing && missing.error().front().reason.find("cannot read") != std::string::npos);
}

LP_TEST(architectures_fallback_and_text_config) {
    auto r = importHfConfig(
        R"({"architectures": ["MistralForCausalLM"], "hidden_size": 1024, "num_hidden_layers": 2,
                                "num_attention_heads": 8, "intermediate_size": 2048, "vocab_size": 1000})");
    LP_CHECK(r && r->modelType == "mistral");
    auto wrapped =
        importHfConfig(R"({"model_type": "llava", "text_config": {"model_type": "llama", "hidden_size": 1024,
                                     "num_hidden_layers": 2, "num_attention_heads": 8, "intermediate_size": 2048,
                                     "vocab_size": 1000}})");
    LP_CHECK(wrapped && wrapped->model.hidden == 1024 && wrapped->modelType == "llama");
    auto badWrapped = importHfConfig(R"({"model_type": "llava", "text_config": {"model_type": "llama",
                                        "num_hidden_layers": 2}})");
    LP_CHECK(!badWrapped && anyError(badWrapped.error(), "$.text_config.hidden_size", "missing"));
}

LP_TEST(kv_heads_must_divide_heads) {
    auto r = importHfConfig(R"({"model_type": "llama", "hidden_size": 1024, "num_hidden_layers": 2,
                                "num_attention_heads": 8, "num_key_value_heads": 3, "intermediate_size": 2048,
                                "vocab_size": 1000})");
    LP_CHECK(!r && anyError(r.error(), "$.num_key_value_heads", "do not divide"));
}

LP_TEST(a_model_beyond_what_a_scenario_holds_is_refused_naming_the_field) {
    // The import holds every number to the limit of the model field it becomes (core/model/Limits.h), the
    // one scenario files keep, so that no scenario is saved that would not open again; the error names the
    // config's own key.
    auto wide = importHfConfig(R"({"model_type": "llama", "hidden_size": 2000000, "num_hidden_layers": 2,
                                   "num_attention_heads": 8, "intermediate_size": 2048, "vocab_size": 1000})");
    LP_CHECK(!wide &&
             anyError(wide.error(), "$.hidden_size", "out of range: must be an integer from 1 to 1000000"));
    auto deep = importHfConfig(R"({"model_type": "llama", "hidden_size": 1024, "num_hidden_layers": 200000,
                                   "num_attention_heads": 8, "intermediate_size": 2048, "vocab_size": 1000})");
    LP_CHECK(!deep && anyError(deep.error(), "$.num_hidden_layers", "out of range"));
    // A relation a scenario refuses is refused too, named after the config's own keys.
    auto topK = importHfConfig(R"({"model_type": "mixtral", "hidden_size": 1024, "num_hidden_layers": 2,
                                   "num_attention_heads": 8, "intermediate_size": 2048, "vocab_size": 1000,
                                   "num_local_experts": 4, "num_experts_per_tok": 8})");
    LP_CHECK(!topK && anyError(topK.error(), "$.num_experts_per_tok",
                               "must be an integer from 1 to num_local_experts (4), got 8"));
    auto heads = importHfConfig(R"({"model_type": "llama", "hidden_size": 4, "num_hidden_layers": 2,
                                    "num_attention_heads": 8, "head_dim": 64, "intermediate_size": 2048,
                                    "vocab_size": 1000})");
    LP_CHECK(!heads &&
             anyError(heads.error(), "$.num_attention_heads", "a scenario file cannot hold this model"));
    // At the limits it imports, and the scenario it makes reads back.
    auto edge = importHfConfig(R"({"model_type": "llama", "hidden_size": 1000000, "num_hidden_layers": 100000,
                                   "num_attention_heads": 8, "intermediate_size": 2048, "vocab_size": 1000})");
    LP_CHECK(edge.has_value());
    if (edge) {
        Scenario s = defaultScenario();
        s.model = edge->model;
        LP_CHECK(scenarioFromJson(scenarioToJson(s)).has_value());
    }
}

// The messages quote the user's key and value as written: no wrap-around of a value beyond 64 bits, no
// scenario path, and a model_type of the wrong type is named.
LP_TEST(messages_name_the_configs_own_keys_and_values) {
    const std::string rest = R"("num_hidden_layers": 2, "num_attention_heads": 8, "intermediate_size": 2048,
                                "vocab_size": 1000})";
    for (const char* big : {"9223372036854775808", "18446744073709551615"}) {
        auto r =
            importHfConfig(std::string(R"({"model_type": "llama", "hidden_size": )") + big + ", " + rest);
        LP_CHECK(!r.has_value());
        if (r)
            continue;
        LP_CHECK(anyError(r.error(), "$.hidden_size", std::string("got ") + big));
        for (const auto& e : r.error())
            LP_CHECK(e.reason.find("got -") == std::string::npos);
    }
    auto layers = importHfConfig(R"({"model_type": "llama", "hidden_size": 1024, "num_hidden_layers": 1000000,
                                     "num_attention_heads": 8, "intermediate_size": 2048, "vocab_size": 1000})");
    LP_CHECK(!layers && anyError(layers.error(), "$.num_hidden_layers", "got 1000000"));
    auto deepseek =
        importHfConfig(R"({"model_type": "deepseek_v3", "hidden_size": 1024, "num_hidden_layers": 4,
        "num_attention_heads": 8, "intermediate_size": 2048, "vocab_size": 1000, "kv_lora_rank": 64,
        "qk_nope_head_dim": 32, "qk_rope_head_dim": 16, "v_head_dim": 32, "n_routed_experts": 8,
        "num_experts_per_tok": 9, "moe_intermediate_size": 256})");
    LP_CHECK(!deepseek && anyError(deepseek.error(), "$.num_experts_per_tok", "n_routed_experts (8), got 9"));
    for (const char* type : {"5", "[\"llama\"]", "{\"name\": \"llama\"}", "true"}) {
        auto r = importHfConfig(std::string(R"({"model_type": )") + type +
                                R"(, "architectures": ["LlamaForCausalLM"],
                                "hidden_size": 1024, )" +
                                rest);
        LP_CHECK(!r && anyError(r.error(), "$.model_type", "wrong type: expected a string"));
    }
}

// Found by fuzz_hf_config: "1e9999" made nlohmann throw out_of_range, which escaped the importer.
LP_TEST(hf_config_number_overflow_is_an_input_error) {
    const auto text = lp::core::readTextFile(std::string(LP_TEST_DATA_DIR) +
                                             "/fuzz/regressions/hf_config-number-overflow.json");
    LP_CHECK(text.has_value());
    if (!text)
        return;
    const auto r = lp::core::importHfConfig(*text, {});
    LP_CHECK(!r.has_value());
    if (!r.has_value())
        LP_CHECK(!r.error().empty() && r.error().front().reason.rfind("out of range", 0) == 0);
}

// Opening a config.json as a scenario: recognised as a Hugging Face config, and a scenario is not one.
LP_TEST(a_config_is_told_from_a_scenario) {
    for (const char* name : {"llama-2-7b.json", "gpt2.json", "deepseek-v3.json", "mixtral-8x7b.json"})
        LP_CHECK(isHfConfigFile(hfPath(name)));
    LP_CHECK(!isHfConfigFile(std::string(LP_TEST_DATA_DIR) + "/scenarios/default.json"));
    LP_CHECK(!isHfConfigFile(std::string(LP_TEST_DATA_DIR) + "/scenarios/presets.json"));
    LP_CHECK(!isHfConfigFile(hfPath("no-such-file.json")));
    LP_CHECK(!looksLikeHfConfig("{\"model_type\": \"llama\", \"model\": \"llama2-70b\"}"));
    LP_CHECK(looksLikeHfConfig("{\"architectures\": [\"LlamaForCausalLM\"]}"));
    LP_CHECK(!looksLikeHfConfig("not json"));
    LP_CHECK_EQ(hfConfigNotScenarioText("config.json"),
                std::string("config.json is a Hugging Face model config, not a scenario"));
}

LP_TEST_MAIN()
