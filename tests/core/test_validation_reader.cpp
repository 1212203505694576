// The validation-case reader reads a case's model with the scenario files' model codec and holds every number
// to the same limits (core/model/Limits.h): what one way in refuses, the others refuse in the same words.
#include "TestHarness.h"
#include "core/io/Presets.h"
#include "core/io/ScenarioJson.h"
#include "core/io/SettingsJson.h"
#include "core/measured/Validation.h"

#include <string>

using namespace lp::core;

namespace {

// One readable case; `from` in it replaced by `to`.
std::string caseWith(const std::string& from, const std::string& to) {
    std::string json = R"({"schema": "layout-planner/validation-cases@1", "cases": [{"id": "x",
        "model": {"name": "m", "layers": 32, "hidden": 4096, "heads": 32, "kv_heads": 8, "ffn_hidden": 14336,
                  "vocab": 128256, "seq_len": 4096, "mlp": "swiglu", "tied_embeddings": false},
        "hardware": {"gpu": "h100-sxm-80gb", "gpus": 8, "gpus_per_node": 8},
        "layout": {"tp": 2, "pp": 1, "dp": 4, "micro_batch": 1, "global_batch": 32, "sequence_parallel": true,
                   "recompute": "none", "zero_stage": 1, "precision": "bf16"},
        "measured": {"tokens_per_s_per_gpu": 1000}}]})";
    if (!from.empty())
        json.replace(json.find(from), from.size(), to);
    return json;
}

std::string firstError(const std::string& json) {
    const auto r = validationCasesFromJson(json);
    return r.has_value() || r.error().empty() ? std::string() : r.error().front().message();
}

// The first problem of the default scenario with one model key replaced, as a scenario file says it.
std::string scenarioError(const std::string& key, const std::string& value) {
    std::string json = scenarioToJson(defaultScenario());
    const std::string pattern = "\"" + key + "\": ";
    const auto at = json.find(pattern) + pattern.size();
    json.replace(at, json.find_first_of(",\n", at) - at, value);
    const auto r = scenarioFromJson(json);
    return r.has_value() || r.error().empty() ? std::string() : r.error().front().reason;
}

} // namespace

LP_TEST(a_readable_case_reads) {
    const auto r = validationCasesFromJson(caseWith("", ""));
    LP_CHECK(r.has_value() && r->size() == 1);
}

LP_TEST(a_case_model_has_the_limits_and_relations_of_a_scenario_model) {
    LP_CHECK_EQ(firstError(caseWith(R"("hidden": 4096)", R"("hidden": 2000000)")),
                "$.cases[0].model.hidden: " + scenarioError("hidden", "2000000"));
    LP_CHECK_EQ(
        firstError(caseWith(R"("hidden": 4096)", R"("hidden": 2000000)")),
        std::string(
            "$.cases[0].model.hidden: out of range: must be an integer from 1 to 1000000, got 2000000"));
    LP_CHECK_EQ(firstError(caseWith(R"("kv_heads": 8)", R"("kv_heads": 64)")),
                std::string("$.cases[0].model.kv_heads: out of range: must be at most heads (32), got 64"));
    LP_CHECK_EQ(
        firstError(caseWith(R"("tied_embeddings": false)",
                            R"("tied_embeddings": false, "moe": {"experts": 8, "top_k": 9})")),
        std::string(
            "$.cases[0].model.moe.top_k: out of range: must be an integer from 1 to experts (8), got 9"));
}

LP_TEST(the_case_format_keeps_its_own_rules) {
    // A "moe" names its experts and top-k; the rest it may leave open.
    LP_CHECK_EQ(firstError(caseWith(R"("tied_embeddings": false)",
                                    R"("tied_embeddings": false, "moe": {"experts": 8})")),
                std::string("$.cases[0].model.moe.top_k: missing required key \"top_k\""));
    LP_CHECK_EQ(
        firstError(caseWith(R"("tied_embeddings": false)",
                            R"("tied_embeddings": false, "moe": {"experts": 0, "top_k": 1})")),
        std::string(
            "$.cases[0].model.moe.experts: out of range: a moe object needs at least 1 expert, got 0"));
    // Null stands for "not stated": a null kv_heads is multi-head attention.
    const auto r = validationCasesFromJson(caseWith(R"("kv_heads": 8)", R"("kv_heads": null)"));
    LP_CHECK(r.has_value() && r->size() == 1 && r->front().scenario.model.kvHeads == 32);
    // What a case states beyond the format's keys is read as a scenario would: a GELU model with RMSNorm.
    const auto stated =
        validationCasesFromJson(caseWith(R"("mlp": "swiglu")", R"("mlp": "gelu", "norm": "rmsnorm")"));
    LP_CHECK(stated.has_value() && stated->size() == 1 &&
             stated->front().scenario.model.norm == NormKind::RmsNorm &&
             stated->front().scenario.model.biases);
}

LP_TEST(a_case_layout_has_the_limits_of_a_scenario_layout) {
    LP_CHECK_EQ(
        firstError(caseWith(R"("tp": 2)", R"("tp": 2000000)")),
        std::string("$.cases[0].layout.tp: out of range: must be an integer from 1 to 1000000, got 2000000"));
    LP_CHECK_EQ(
        firstError(caseWith(R"("gpus": 8)", R"("gpus": 2000000)")),
        std::string(
            "$.cases[0].hardware.gpus: out of range: must be an integer from 1 to 1000000, got 2000000"));
}

// Format @2: a case states the planner's settings with the scenario file's keys, names and values.
std::string caseV2(const std::string& extra) {
    std::string json = caseWith(R"("measured":)", extra + R"(, "measured":)");
    json.replace(json.find("cases@1"), 7, "cases@2");
    return json;
}

LP_TEST(a_v2_case_states_training_keys_as_a_scenario_file_does) {
    const auto r = validationCasesFromJson(caseV2(
        R"("training": {"execution_style": "fsdp", "torch_compile": true, "overlap_dp_comm": true,
                        "cross_entropy": "fused_16bit", "logits_metric_passes": 2, "moe_dispatcher": "deepep"})"));
    LP_CHECK(r.has_value() && r->size() == 1);
    if (!r || r->empty())
        return;
    const TrainingOptions& t = r->front().scenario.training;
    LP_CHECK(t.executionStyle == ExecutionStyle::Fsdp);
    LP_CHECK(t.torchCompile && t.overlapDpComm == Toggle::On);
    LP_CHECK(t.crossEntropy == CrossEntropy::Fused16 && t.logitsMetricPasses == 2);
    LP_CHECK(t.moeDispatcher == MoeDispatcher::Deduplicated);
    // What @1 kept in the layout may be stated in the training object instead, once.
    std::string moved = caseV2(R"("training": {"remat_policy": "minimal"})");
    const auto remat = validationCasesFromJson(moved);
    LP_CHECK(remat.has_value() && remat->front().scenario.training.rematPolicy == RematPolicy::Minimal);
    LP_CHECK_EQ(
        firstError(caseV2(R"("training": {"zero_stage": 3})")),
        std::string("$.cases[0].training.zero_stage: stated twice: also in the case's layout; state it "
                    "once"));
}

LP_TEST(a_v2_training_key_has_the_scenario_files_values_and_messages) {
    // The same words as a scenario file's training object.
    std::string scenario = scenarioToJson(defaultScenario());
    const std::string key = "\"cross_entropy\": \"auto\"";
    scenario.replace(scenario.find(key), key.size(), "\"cross_entropy\": \"fast\"");
    const auto refused = scenarioFromJson(scenario);
    LP_CHECK(!refused.has_value());
    LP_CHECK_EQ(firstError(caseV2(R"("training": {"cross_entropy": "fast"})")),
                "$.cases[0].training.cross_entropy: " + refused.error().front().reason);
    // A key no scenario has is refused, not passed over as another tool's.
    LP_CHECK(firstError(caseV2(R"("training": {"torch_compiled": true})"))
                 .starts_with("$.cases[0].training.torch_compiled: unknown key \"torch_compiled\""));
    TrainingOptions everyKeyWritten; // pipeline_schedule and zero3_gather are written only off their defaults
    everyKeyWritten.pipelineSchedule = PipelineSchedule::GPipe;
    everyKeyWritten.zero3Gather = Zero3Gather::Module;
    everyKeyWritten.overlapTpComm = Toggle::On; // and the switches left on auto are not written
    everyKeyWritten.overlapDpComm = Toggle::On;
    LP_CHECK_EQ(scenarioTrainingKeys().size(), trainingToJson(everyKeyWritten).size());
}

LP_TEST(a_v2_case_states_its_network) {
    // Eight GPUs on two nodes of four, so that the network carries traffic.
    const auto network = [](const std::string& cluster) {
        std::string json = caseV2(cluster);
        json.replace(json.find(R"("gpus_per_node": 8)"), 18, R"("gpus_per_node": 4)");
        const auto r = validationCasesFromJson(json);
        LP_CHECK(r.has_value() && r->size() == 1);
        return r && !r->empty() ? r->front().scenario.cluster.gpu.networkBandwidth : 0.0;
    };
    LP_CHECK_EQ(network(R"("cluster": {"gpu": {"network_bandwidth_bytes_per_s": 12.5e9}})"), 12.5e9);
    LP_CHECK_EQ(network(R"("cluster": {"network_latency_s": 2e-5})"), 50e9);
    // A preset of another node size is refused with the reason.
    LP_CHECK(firstError(caseV2(R"("cluster": {"preset": "dgx-a100"})"))
                 .starts_with("$.cases[0].cluster.preset: does not match the case's hardware"));
    LP_CHECK(
        firstError(caseV2(R"("cluster": {"preset": "no-such"})")).starts_with("$.cases[0].cluster.preset: "));
    // On the machine a preset describes: its network per GPU (four 200 Gb/s NICs for eight GPUs).
    const auto a3 = validationCasesFromJson(caseV2(R"("cluster": {"preset": "gcp-a3-high"})"));
    LP_CHECK(a3.has_value() && a3->size() == 1);
    if (a3 && !a3->empty())
        LP_CHECK_EQ(a3->front().scenario.cluster.gpu.networkBandwidth, 12.5e9);
}

LP_TEST(a_v2_case_keeps_what_was_derived_from_its_words_to_show_never_to_read) {
    const auto with = validationCasesFromJson(
        caseV2(R"("derived": ["torch_compile true: from the words \"torch.compile\""])"));
    const auto without = validationCasesFromJson(caseV2(R"("derived": [])"));
    LP_CHECK(with.has_value() && without.has_value());
    if (!with || !without)
        return;
    LP_CHECK(with->front().derived.size() == 1 &&
             with->front().derived.front().starts_with("torch_compile true"));
    LP_CHECK(with->front().scenario == without->front().scenario);
    LP_CHECK(!with->front().scenario.training.torchCompile);
}

LP_TEST(an_unknown_schema_names_both_versions) {
    std::string json = caseWith("", "");
    json.replace(json.find("cases@1"), 7, "cases@9");
    LP_CHECK(firstError(json).find(
                 "\"layout-planner/validation-cases@2\" or \"layout-planner/validation-cases@1\"") !=
             std::string::npos);
}

LP_TEST_MAIN()
