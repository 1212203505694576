// The run: tokens from scaling laws and budgets, predicted loss, goodput under failures and checkpoints,
// cost and energy, their diagnostics, JSON and the scenario's "run" object.
#include "IoTestSupport.h"
#include "TestHarness.h"
#include "core/estimate/Evaluate.h"
#include "core/estimate/Explain.h"
#include "core/estimate/PlanJson.h"
#include "core/estimate/RunPlan.h"
#include "core/io/Presets.h"
#include "core/io/RunJson.h"
#include "core/io/ScenarioJson.h"
#include "core/io/SettingsJson.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <string>

using namespace lp::core;

namespace {

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

bool has(const Plan& p, DiagnosticId id) {
    return p.has(id);
}

std::string loadErrors(const std::string& runObject) {
    std::string text = scenarioToJson(defaultScenario());
    text.insert(text.rfind('}'), ",\n\"run\": " + runObject + "\n");
    const auto back = scenarioFromJson(text);
    return back ? std::string() : allMessages(back.error());
}

} // namespace

LP_TEST(chinchilla_70b_is_compute_optimal_at_1_4_trillion_tokens) {
    LP_CHECK_NEAR(kComputeOptimalTokensPerParameter * 70e9, 1.4e12, 1e-12);
    // Chinchilla's own compute (6 x 70e9 x 1.4e12 = 5.88e23 FLOPs) gives back 70 B and 1.4 T.
    const ComputeOptimalPoint point = computeOptimalPoint(6.0 * 70e9 * 1.4e12);
    LP_CHECK_NEAR(point.parameters, 70e9, 1e-9);
    LP_CHECK_NEAR(point.tokens, 1.4e12, 1e-9);
}

LP_TEST(published_fits_predict_the_stated_losses) {
    LP_CHECK(std::abs(predictedLoss(scalingFit(LossFit::Hoffmann2022), 70e9, 1.4e12) - 1.937) < 5e-4);
    // Besiroglu et al.'s E = 1.8172 (rounded to 1.82 in their abstract) gives 1.974; 1.82 would give 1.977.
    LP_CHECK(std::abs(predictedLoss(scalingFit(LossFit::Besiroglu2024), 70e9, 1.4e12) - 1.974) < 5e-4);
    LP_CHECK(std::isinf(predictedLoss(scalingFit(LossFit::Hoffmann2022), 70e9, 0)));
}

LP_TEST(llama3_failure_rate_gives_7_8_interruptions_a_day_on_16384_gpus) {
    Scenario s = defaultScenario();
    s.cluster.nodes = 2048;
    s.layout.dp = 16384 / (s.layout.tp * s.layout.pp);
    const Plan p = evaluate(s);
    LP_CHECK(p.valid);
    LP_CHECK_NEAR(p.run.interruptionsPerDay, 419.0 / 54.0, 1e-9);
    LP_CHECK(std::abs(p.run.interruptionsPerDay - 7.8) < 0.05);
}

LP_TEST(checkpoint_interval_is_young_daly_closed_form_and_goodput_follows) {
    // Daly 2006's higher-order interval: within 1% of Young's when the write is short against the MTBF, the
    // MTBF itself once the write takes two of them.
    const auto daly = [](double d, double m) {
        return std::sqrt(2 * d * m) * (1 + std::sqrt(d / (2 * m)) / 3 + d / (18 * m)) - d;
    };
    LP_CHECK_NEAR(youngDalyInterval(60, 3600), daly(60, 3600), 1e-12);
    LP_CHECK(youngDalyInterval(60, 3600) < std::sqrt(2.0 * 60 * 3600)); // the -d term wins here
    LP_CHECK(std::abs(youngDalyInterval(1, 1e5) / std::sqrt(2.0 * 1e5) - 1) < 0.01);
    LP_CHECK_NEAR(youngDalyInterval(9000, 3600), 3600, 1e-12);
    LP_CHECK_EQ(youngDalyInterval(0, 3600), 0.0);
    const Scenario s = defaultScenario();
    const Plan p = evaluate(s);
    const RunPlan& r = p.run;
    const double gpus = static_cast<double>(s.layout.gpus());
    const double mtbf = 3600.0 / (s.run.gpuFailuresPerHour * gpus);
    LP_CHECK_NEAR(r.mtbfSeconds, mtbf, 1e-12);
    LP_CHECK_NEAR(r.checkpointIntervalSeconds, daly(r.checkpointWriteSeconds, mtbf), 1e-12);
    LP_CHECK_EQ(r.checkpointStallSeconds, r.checkpointWriteSeconds); // synchronous: training waits
    // The checkpoint: 16-bit weights + fp32 master and moments, written by every node at once.
    LP_CHECK_NEAR(r.checkpointBytes, p.params.total * 14.0, 1e-12);
    LP_CHECK_NEAR(r.checkpointWriteSeconds, r.checkpointBytes / (8 * 1e9), 1e-12);
    LP_CHECK_NEAR(r.lostPerFailureSeconds, r.checkpointIntervalSeconds / 2 + 600, 1e-12);
    const double expected =
        (1 - r.lostPerFailureSeconds / mtbf) / (1 + r.checkpointWriteSeconds / r.checkpointIntervalSeconds);
    LP_CHECK_NEAR(r.goodput, expected, 1e-12);
    LP_CHECK_NEAR(r.wallClockSeconds, r.idealSeconds / r.goodput, 1e-12);
    LP_CHECK_NEAR(r.interruptions, r.wallClockSeconds / mtbf, 1e-9);
}

// Asynchronous checkpoints: training pauses only for each GPU's copy of its state to host memory; the write
// runs on, bounds the interval from below and is lost too when a failure comes before it ends.
LP_TEST(async_checkpoints_pause_for_the_host_copy_and_lose_the_write_on_failure) {
    Scenario s = defaultScenario();
    s.run.checkpointBandwidth = 0.2e9; // slow storage: the write takes minutes
    const RunPlan sync = evaluate(s).run;
    s.run.asyncCheckpoint = true;
    const Plan p = evaluate(s);
    const RunPlan& r = p.run;
    const StageMemory& held = p.memory.stages[static_cast<std::size_t>(p.memory.worstStage)];
    LP_CHECK_NEAR(r.checkpointHostBytesPerGpu, held.weightsBytes + held.optimizerBytes, 1e-12);
    LP_CHECK_NEAR(r.checkpointStallSeconds,
                  r.checkpointHostBytesPerGpu / (s.cluster.gpu.hostLinkBandwidth * 0.8), 1e-12);
    LP_CHECK(r.checkpointStallSeconds < r.checkpointWriteSeconds);
    LP_CHECK_NEAR(r.checkpointWriteSeconds, sync.checkpointWriteSeconds, 1e-12);
    LP_CHECK(r.checkpointIntervalSeconds >= r.checkpointWriteSeconds);
    LP_CHECK_NEAR(r.lostPerFailureSeconds,
                  r.checkpointIntervalSeconds / 2 + r.checkpointWriteSeconds + s.run.restartSeconds, 1e-12);
    LP_CHECK_NEAR(r.checkpointOverhead, r.checkpointStallSeconds / r.checkpointIntervalSeconds, 1e-12);
    LP_CHECK(r.goodput > sync.goodput);
    LP_CHECK(explainFigure(s, p, "run.checkpoint_stall").has_value());
    LP_CHECK(
        !explainFigure(defaultScenario(), evaluate(defaultScenario()), "run.checkpoint_stall").has_value());
}

LP_TEST(defaults_keep_the_token_budget_and_its_figures) {
    const Scenario s = defaultScenario();
    const Plan p = evaluate(s);
    LP_CHECK_EQ(p.run.tokens, s.training.tokenBudget);
    LP_CHECK_EQ(p.trainingSeconds, s.training.tokenBudget / p.tokensPerSecond);
    LP_CHECK_NEAR(p.run.idealSeconds, p.trainingSeconds, 1e-12);
}

LP_TEST(cost_is_gpu_hours_times_price) {
    Scenario s = defaultScenario();
    s.run.pricePerGpuHourUsd = 2.5;
    const Plan p = evaluate(s);
    LP_CHECK_NEAR(p.run.gpuHours, 64 * p.run.wallClockSeconds / 3600.0, 1e-12);
    LP_CHECK_NEAR(p.run.costUsd, p.run.gpuHours * 2.5, 1e-12);
    LP_CHECK_NEAR(p.run.costPerMillionTokensUsd, p.run.costUsd / p.run.tokens * 1e6, 1e-12);
    LP_CHECK_EQ(p.run.priceSource, std::string("the scenario"));
    // Without one, the GPU preset's on-demand price and board power.
    const Plan preset = evaluate(defaultScenario());
    LP_CHECK_EQ(preset.run.pricePerGpuHourUsd, findGpuPreset("h100-sxm-80gb")->pricePerGpuHourUsd);
    LP_CHECK(preset.run.pricePerGpuHourUsd > 0 && !preset.run.priceSource.empty());
    LP_CHECK_EQ(preset.run.boardPowerWatts, 700.0);
    LP_CHECK_NEAR(preset.run.energyMwh, preset.run.gpuHours * 700 * 1.82 * 1.1 / 1e6, 1e-12);
}

LP_TEST(token_rules_give_their_tokens) {
    Scenario s = defaultScenario();
    const double n = evaluate(s).params.active;
    s.run.tokenRule = TokenRule::ComputeOptimal;
    LP_CHECK_NEAR(evaluate(s).run.tokens, 20 * n, 1e-12);
    s.run.tokenRule = TokenRule::TokensPerParameter;
    s.run.tokensPerParameter = 1900;
    LP_CHECK_NEAR(evaluate(s).run.tokens, 1900 * n, 1e-12);
    s.run.tokenRule = TokenRule::Compute;
    s.run.computeBudgetFlops = 1e24;
    LP_CHECK_NEAR(evaluate(s).run.tokens, 1e24 / (6 * n), 1e-12);
    s.run.tokenRule = TokenRule::Days;
    s.run.daysBudget = 30;
    LP_CHECK_NEAR(evaluate(s).run.wallClockSeconds, 30 * 86400.0, 1e-9);
    s.run.tokenRule = TokenRule::Money;
    s.run.moneyBudgetUsd = 1e6;
    s.run.pricePerGpuHourUsd = 2;
    LP_CHECK_NEAR(evaluate(s).run.costUsd, 1e6, 1e-9);
    // The plan's time follows the rule.
    const Plan p = evaluate(s);
    LP_CHECK_NEAR(p.trainingSeconds, p.run.tokens / p.tokensPerSecond, 1e-12);
}

LP_TEST(run_diagnostics_name_slow_checkpoints_low_goodput_and_deadlines) {
    Scenario s = defaultScenario();
    LP_CHECK(!has(evaluate(s), DiagnosticId::LowGoodput));
    LP_CHECK(!has(evaluate(s), DiagnosticId::LongCheckpointWrite));
    s.run.checkpointBandwidth = 1e6; // 1 MB/s per node
    s.run.gpuFailuresPerHour = 1e-3;
    const Plan slow = evaluate(s);
    LP_CHECK(has(slow, DiagnosticId::LongCheckpointWrite));
    LP_CHECK(has(slow, DiagnosticId::LowGoodput));
    for (const Diagnostic& d : slow.diagnostics)
        if (d.id == DiagnosticId::LowGoodput)
            LP_CHECK(contains(diagnosticSuggestion(d), "asynchronous"));
    s = defaultScenario();
    s.run.deadlineDays = 30;
    const Plan late = evaluate(s);
    LP_CHECK(has(late, DiagnosticId::PastDeadline));
    s.run.deadlineDays = 1e5;
    LP_CHECK(!has(evaluate(s), DiagnosticId::PastDeadline));
}

LP_TEST(plan_json_has_the_run_keys) {
    const Scenario s = defaultScenario();
    const nlohmann::json j = planToJson(s, evaluate(s));
    for (const char* key : {"tokens", "token_rule", "ideal_days", "wall_clock_days", "gpu_hours", "cost_usd",
                            "cost_per_million_tokens_usd", "energy_mwh", "goodput", "interruptions_per_day",
                            "checkpoint_interval_s", "checkpoint_write_s", "checkpoint_stall_s",
                            "checkpoint_bytes", "predicted_loss"})
        LP_CHECK(j.at("run").contains(key));
    LP_CHECK_EQ(j.at("run").at("token_rule").get<std::string>(), std::string("tokens"));
}

LP_TEST(every_run_figure_explains_itself) {
    const Scenario s = defaultScenario();
    const Plan p = evaluate(s);
    for (const char* key :
         {"run.tokens", "run.predicted_loss", "run.checkpoint_bytes", "run.checkpoint_write",
          "run.interruptions_per_day", "run.checkpoint_interval", "run.goodput", "run.wall_clock_days",
          "run.gpu_hours", "run.cost", "run.cost_per_million_tokens", "run.energy"}) {
        const auto e = explainFigure(s, p, key);
        LP_CHECK(e.has_value());
        if (e)
            LP_CHECK(!e->formula.empty() && !e->substituted.empty() && !e->source.empty());
    }
    LP_CHECK_NEAR(explainFigure(s, p, "run.goodput")->value, p.run.goodput, 1e-12);
}

LP_TEST(run_object_round_trips_and_defaults_are_not_written) {
    Scenario s = defaultScenario();
    LP_CHECK(!contains(scenarioToJson(s), "\"run\""));
    s.run.tokenRule = TokenRule::Compute;
    s.run.computeBudgetFlops = 3e24;
    s.run.lossFit = LossFit::Besiroglu2024;
    s.run.pricePerGpuHourUsd = 3.25;
    s.run.checkpointBandwidth = 5e9;
    s.run.deadlineDays = 90;
    s.run.asyncCheckpoint = true;
    const std::string text = scenarioToJson(s);
    LP_CHECK(contains(text, "\"async_checkpoint\": true"));
    const auto back = scenarioFromJson(text);
    LP_CHECK(back.has_value() && *back == s);
    if (back)
        LP_CHECK_EQ(scenarioToJson(*back), text);
}

LP_TEST(bad_run_values_are_named) {
    LP_CHECK(contains(loadErrors(R"({"price_per_gpu_hour_usd": -1})"), "$.run.price_per_gpu_hour_usd"));
    LP_CHECK(contains(loadErrors(R"({"checkpoint_bandwidth_bytes_per_s": 0})"),
                      "$.run.checkpoint_bandwidth_bytes_per_s"));
    LP_CHECK(contains(loadErrors(R"({"token_rule": "lots"})"), "$.run.token_rule"));
    LP_CHECK(contains(loadErrors(R"({"token_rule": "compute"})"), "$.run.compute_budget_flops"));
    LP_CHECK(contains(loadErrors(R"({"pue": 0.5})"), "$.run.pue"));
    LP_CHECK(contains(loadErrors(R"({"async_checkpoint": "yes"})"), "$.run.async_checkpoint"));
    LP_CHECK(contains(loadErrors(R"({"mtbf": 1})"), "mtbf"));
    LP_CHECK(contains(loadErrors("3"), "$.run"));
    LP_CHECK(loadErrors(R"({"token_rule": "compute_optimal", "loss_fit": "besiroglu2024"})").empty());
}

// The limits a window's run fields keep are the file's own, read from the same table.
LP_TEST(the_run_keys_limits_are_the_files) {
    const json::DoubleRange* price = runKeyRange("price_per_gpu_hour_usd");
    LP_CHECK(price != nullptr);
    if (price) {
        LP_CHECK(price->contains(0) && price->contains(1e6) && !price->contains(1e6 * 1.001));
        LP_CHECK(loadErrors(R"({"price_per_gpu_hour_usd": 1000000})").empty());
        LP_CHECK(
            contains(loadErrors(R"({"price_per_gpu_hour_usd": 1000001})"), "$.run.price_per_gpu_hour_usd"));
    }
    const json::DoubleRange* bandwidth = runKeyRange("checkpoint_bandwidth_bytes_per_s");
    LP_CHECK(bandwidth != nullptr && !bandwidth->contains(0));
    LP_CHECK(runKeyRange("token_rule") == nullptr); // not a number
    LP_CHECK(runKeyRange("no_such_key") == nullptr);
    const json::DoubleRange* tokens = trainingKeyRange("token_budget_tokens");
    LP_CHECK(tokens != nullptr && !tokens->contains(0) && tokens->contains(2e12));
}

LP_TEST_MAIN()
