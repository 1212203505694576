// Measured runs (core/measured/RunLog.h): parsing CSV, Megatron-LM and torchtitan logs and pasted numbers
// (tests/data/logs, including noisy, truncated and malformed ones), the warmup rule, the steady
// state and the verdicts against the default scenario's plan.
#include "TestHarness.h"
#include "core/estimate/Evaluate.h"
#include "core/io/Files.h"
#include "core/io/Presets.h"
#include "core/io/ScenarioJson.h"
#include "core/measured/RunAnalysis.h"
#include "core/measured/RunLog.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <string>

using namespace lp::core;

namespace {

std::string logPath(const std::string& name) {
    return std::string(LP_TEST_DATA_DIR) + "/logs/" + name;
}

RunLog load(const std::string& name, RunLogOptions o = {}) {
    auto r = loadRunLog(logPath(name), o);
    if (!r) {
        std::fprintf(stderr, "%s: %s\n", name.c_str(), r.error().message().c_str());
        LP_CHECK(r.has_value());
        return {};
    }
    return *r;
}

bool hasVerdict(const RunAnalysis& a, const std::string& id) {
    for (const auto& v : a.verdicts)
        if (v.id == id)
            return true;
    return false;
}

const Verdict* verdict(const RunAnalysis& a, const std::string& id) {
    for (const auto& v : a.verdicts)
        if (v.id == id)
            return &v;
    return nullptr;
}

bool warningAt(const RunLog& log, int line, const std::string& part) {
    for (const auto& w : log.warnings)
        if (w.line == line && w.message.find(part) != std::string::npos)
            return true;
    return false;
}

struct Planned {
    Scenario s = defaultScenario();
    Plan p = evaluate(s);
};

} // namespace

LP_TEST(warmup_rule) {
    LP_CHECK_EQ(detectWarmup({}), 0);
    LP_CHECK_EQ(detectWarmup({9, 5, 5, 5, 5}), 0); // under 6 samples: none
    LP_CHECK_EQ(detectWarmup({5, 5, 5, 5, 5, 5, 5, 5}), 0);
    LP_CHECK_EQ(detectWarmup({20, 9, 5.1, 5, 4.9, 5, 5.05, 4.95, 5, 5}), 2);
    LP_CHECK_EQ(detectWarmup({20, 5, 5, 5, 5, 5, 5, 5, 5, 5}), 1);
    // A single slow step later on is not warmup.
    LP_CHECK_EQ(detectWarmup({5, 5, 5, 5, 12, 5, 5, 5, 5, 5}), 0);
    // Not settled within the first half: at most half the samples.
    LP_CHECK_EQ(detectWarmup({20, 18, 16, 14, 12, 10, 5.0, 5.1, 4.9, 5.0}), 5);
}

LP_TEST(megatron_log_matches_the_plan) {
    const RunLog log = load("megatron.log");
    LP_CHECK(log.format == RunLogFormat::Megatron);
    LP_CHECK_EQ(log.samples.size(), std::size_t{50});
    LP_CHECK(log.warnings.empty());
    LP_CHECK_EQ(log.samples[0].step, 1LL);
    LP_CHECK_NEAR(log.samples[0].stepSeconds, 14.21, 1e-9);
    LP_CHECK_EQ(log.samples[0].globalBatch, 64LL);
    LP_CHECK(std::isfinite(log.samples[0].loggedTflopsPerGpu));

    const Planned pl;
    const RunAnalysis a = analyzeRun(log, pl.s, pl.p);
    LP_CHECK_EQ(a.detectedWarmup, 3);
    LP_CHECK_EQ(a.warmup, 3);
    LP_CHECK_EQ(a.steadySamples, 47);
    LP_CHECK_NEAR(a.stepSeconds, 5.05, 0.01);
    LP_CHECK(a.p10 < a.median && a.median < a.p90);
    LP_CHECK(a.stddev / a.mean < 0.01);
    LP_CHECK(a.meanAll > a.mean);
    LP_CHECK_NEAR(a.tokensPerSecond, 262144.0 / a.stepSeconds, 1e-9);
    LP_CHECK_NEAR(a.tokensPerSecondPerGpu * 64, a.tokensPerSecond, 1e-9);
    LP_CHECK(a.hasPlan);
    LP_CHECK_NEAR(a.ratio, a.stepSeconds / pl.p.time.stepSeconds, 1e-12);
    LP_CHECK_NEAR(a.mfu, pl.p.mfu * pl.p.time.stepSeconds / a.stepSeconds, 1e-12);
    LP_CHECK(hasVerdict(a, "warmup_excluded"));
    LP_CHECK(hasVerdict(a, "matches_prediction"));
    LP_CHECK(!hasVerdict(a, "mfu_below_20"));
    LP_CHECK(!hasVerdict(a, "batch_mismatch"));
    LP_CHECK(!hasVerdict(a, "noisy"));
    const Verdict* w = verdict(a, "warmup_excluded");
    LP_CHECK(w && w->text.find("steps 1-3") != std::string::npos);
}

// One warmup step is worded as one: "The first sample (step 1) is warmup", not "the first 1 sample ... are".
LP_TEST(a_single_warmup_step_is_worded_in_the_singular) {
    std::string text = "9.8\n";
    for (int i = 0; i < 30; ++i)
        text += (i % 2 ? "5.02\n" : "5.08\n");
    const auto log = parseRunLog(text);
    LP_CHECK(log.has_value());
    if (!log)
        return;
    const Planned pl;
    const RunAnalysis a = analyzeRun(*log, pl.s, pl.p);
    LP_CHECK_EQ(a.warmup, 1);
    const Verdict* w = verdict(a, "warmup_excluded");
    LP_CHECK(w != nullptr);
    if (!w)
        return;
    LP_CHECK(
        w->text.starts_with("The first sample (step 1) is warmup, up to 1.9x the steady step time, and is "
                            "left out. Averaging it in"));
    LP_CHECK(w->text.find("1 sample") == std::string::npos);
}

LP_TEST(keeping_the_warmup_is_flagged) {
    const Planned pl;
    const RunLog log = load("megatron.log");
    RunAnalysisOptions o;
    o.warmupSamples = 0;
    const RunAnalysis kept = analyzeRun(log, pl.s, pl.p, o);
    LP_CHECK(kept.warmupOverridden);
    LP_CHECK_EQ(kept.warmup, 0);
    LP_CHECK(hasVerdict(kept, "warmup_kept"));
    LP_CHECK(kept.mean > analyzeRun(log, pl.s, pl.p).mean * 1.03);
    o.warmupSamples = 10;
    const RunAnalysis more = analyzeRun(log, pl.s, pl.p, o);
    LP_CHECK_EQ(more.steadySamples, 40);
    LP_CHECK(hasVerdict(more, "warmup_override"));
    o.warmupSamples = 1000; // clamped: one sample stays
    LP_CHECK_EQ(analyzeRun(log, o).steadySamples, 1);
}

LP_TEST(slow_run_says_why) {
    const Planned pl;
    const RunAnalysis a = analyzeRun(load("megatron-slow.log"), pl.s, pl.p);
    LP_CHECK(a.ratio > 2.0);
    LP_CHECK(a.mfu < 0.20);
    LP_CHECK(hasVerdict(a, "mfu_below_20"));
    const Verdict* v = verdict(a, "much_slower_than_predicted");
    LP_CHECK(v != nullptr);
    if (v) {
        LP_CHECK(v->severity == Severity::Warning);
        LP_CHECK(v->text.find("pipeline_bubble") != std::string::npos); // the plan's diagnostic is named
        LP_CHECK(v->text.find("launch settings") != std::string::npos);
    }
}

LP_TEST(truncated_megatron_log_keeps_what_it_can) {
    const RunLog log = load("megatron-truncated.log");
    LP_CHECK_EQ(log.samples.size(), std::size_t{20});
    LP_CHECK(warningAt(log, log.lines, "truncated")); // the cut-off last line
    bool badNumber = false;
    for (const auto& w : log.warnings)
        badNumber = badNumber || w.message.find("not a positive number") != std::string::npos;
    LP_CHECK(badNumber); // "elapsed time per iteration (ms): n/a"
    const RunAnalysis a = analyzeRun(log);
    LP_CHECK_EQ(a.warmup, 2);
    LP_CHECK(hasVerdict(a, "few_samples"));
    LP_CHECK(hasVerdict(a, "no_plan"));
    LP_CHECK(!std::isfinite(a.mfu));
}

LP_TEST(torchtitan_log_with_colours) {
    const RunLog log = load("torchtitan.log");
    LP_CHECK(log.format == RunLogFormat::Torchtitan);
    LP_CHECK_EQ(log.samples.size(), std::size_t{21}); // "validate step:" is not a training step
    LP_CHECK_EQ(log.samples[0].step, 1LL);
    LP_CHECK_EQ(log.samples[0].stepsCovered, 1LL);
    LP_CHECK_EQ(log.samples[2].stepsCovered, 10LL);
    LP_CHECK_NEAR(log.samples[1].tokensPerSecondPerGpu, 702.0, 1e-12);
    LP_CHECK(std::isfinite(log.samples[1].loggedMfu) && log.samples[1].loggedMfu < 1.0);

    // Without a scenario the analysis is in tokens/s per GPU.
    const RunAnalysis bare = analyzeRun(log);
    LP_CHECK(bare.kind == SeriesKind::TokensPerSecondPerGpu);
    LP_CHECK_EQ(bare.warmup, 2);
    LP_CHECK_NEAR(bare.tokensPerSecondPerGpu, 812.0, 0.02);
    LP_CHECK(!std::isfinite(bare.stepSeconds));
    LP_CHECK(hasVerdict(bare, "no_plan"));
    LP_CHECK(std::isfinite(bare.loggedMfu));

    // With the scenario: step time = tokens per step / (tps x GPUs).
    const Planned pl;
    const RunAnalysis a = analyzeRun(log, pl.s, pl.p);
    LP_CHECK(a.kind == SeriesKind::StepSeconds);
    LP_CHECK_EQ(a.warmup, 2);
    LP_CHECK_NEAR(a.stepSeconds, 262144.0 / (812.0 * 64), 0.02);
    LP_CHECK(hasVerdict(a, "step_time_from_throughput"));
    LP_CHECK(a.hasPlan);
}

LP_TEST(csv_with_header_and_milliseconds) {
    const RunLog log = load("steps.csv");
    LP_CHECK(log.format == RunLogFormat::Csv);
    LP_CHECK_EQ(log.samples.size(), std::size_t{40});
    LP_CHECK_NEAR(log.samples[0].stepSeconds, 9.8, 1e-12);
    LP_CHECK_EQ(log.samples[39].step, 40LL);
    const RunAnalysis a = analyzeRun(log);
    LP_CHECK_EQ(a.warmup, 2);
    LP_CHECK_NEAR(a.mean, 5.0, 0.01);
}

LP_TEST(noisy_csv_is_called_noisy) {
    const RunLog log = load("noisy.csv");
    LP_CHECK_EQ(log.samples.size(), std::size_t{60});
    const RunAnalysis a = analyzeRun(log);
    LP_CHECK(a.warmup >= 1 && a.warmup <= 3);
    LP_CHECK(hasVerdict(a, "noisy"));
    LP_CHECK(hasVerdict(a, "spikes"));
    LP_CHECK(a.p90 > a.p10);
}

LP_TEST(malformed_csv_rows_become_warnings) {
    const RunLog log = load("malformed.csv");
    LP_CHECK_EQ(log.samples.size(), std::size_t{9});
    LP_CHECK(warningAt(log, 5, "\"abc\" is not a number"));
    LP_CHECK(warningAt(log, 6, "expected 2 fields, got 1"));
    LP_CHECK(warningAt(log, 7, "not a positive"));
    LP_CHECK_EQ(log.samples[3].step, 7LL);
}

LP_TEST(pasted_numbers_with_and_without_units) {
    const RunLog log = load("pasted.txt");
    LP_CHECK(log.format == RunLogFormat::Numbers);
    LP_CHECK_EQ(log.samples.size(), std::size_t{13});
    LP_CHECK_NEAR(log.samples[6].stepSeconds, 5.01, 1e-12); // "5010ms"
    LP_CHECK(log.unitNote.find("seconds") != std::string::npos);
    const RunAnalysis a = analyzeRun(log);
    LP_CHECK_EQ(a.warmup, 3);

    auto ms = parseRunLog("4900 5010 5020\n4980 5000 5030 5010\n");
    LP_CHECK(ms && ms->unitNote.find("milliseconds") != std::string::npos);
    LP_CHECK(ms && std::fabs(ms->samples[0].stepSeconds - 4.9) < 1e-12);
    RunLogOptions o;
    o.unit = NumberUnit::Seconds;
    auto forced = parseRunLog("4900 5010\n", o);
    LP_CHECK(forced && forced->samples[0].stepSeconds == 4900.0);
    auto bad = parseRunLog("5.0 five 5.1\n");
    LP_CHECK(bad && bad->samples.size() == 2 && bad->warnings.size() == 1);
}

LP_TEST(nothing_usable_is_an_error) {
    auto empty = parseRunLog("  \n\n");
    LP_CHECK(!empty && empty.error().reason.find("empty") != std::string::npos);
    auto none = loadRunLog(logPath("no-steps.log"));
    LP_CHECK(!none && none.error().reason.find("no step times") != std::string::npos);
    RunLogOptions o;
    o.format = RunLogFormat::Csv;
    auto wrongFormat = loadRunLog(logPath("megatron.log"), o);
    LP_CHECK(!wrongFormat && wrongFormat.error().reason.find("no step-time column") != std::string::npos);
    auto missing = loadRunLog(logPath("does-not-exist.log"));
    LP_CHECK(!missing && missing.error().reason.find("cannot read") != std::string::npos);
    auto onlyTruncated =
        parseRunLog(" iteration        1/    1000 | consumed samples: 64 | elapsed time per it");
    LP_CHECK(!onlyTruncated && onlyTruncated.error().reason.find("truncated") != std::string::npos);
}

LP_TEST(restarted_run_is_warned_about) {
    std::string text;
    for (int i = 1; i <= 8; ++i)
        text += " iteration " + std::to_string(i) + "/ 100 | elapsed time per iteration (ms): 5000.0 |\n";
    for (int i = 5; i <= 8; ++i)
        text += " iteration " + std::to_string(i) + "/ 100 | elapsed time per iteration (ms): 5000.0 |\n";
    auto log = parseRunLog(text);
    LP_CHECK(log && log->samples.size() == 12);
    LP_CHECK(log && !log->warnings.empty() &&
             log->warnings.front().message.find("restarted") != std::string::npos);
}

LP_TEST(batch_mismatch_and_invalid_plan) {
    Planned pl;
    pl.s.layout.accumulation = 8; // the scenario says 32 sequences, the log 64
    pl.p = evaluate(pl.s);
    LP_CHECK(hasVerdict(analyzeRun(load("megatron.log"), pl.s, pl.p), "batch_mismatch"));
    Scenario bad = defaultScenario();
    bad.layout.tp = 3;
    const Plan invalid = evaluate(bad);
    const RunAnalysis a = analyzeRun(load("megatron.log"), bad, invalid);
    LP_CHECK(hasVerdict(a, "plan_invalid"));
    LP_CHECK(!a.hasPlan);
}

LP_TEST(megatron_layout_and_memory_lines) {
    const RunLog log = load("megatron-layout.log");
    LP_CHECK_EQ(log.layout.worldSize, 32LL);
    LP_CHECK_EQ(log.layout.tp, 4);
    LP_CHECK_EQ(log.layout.pp, 4);
    LP_CHECK_EQ(log.layout.globalBatch, 64LL);
    // The highest max reserved of the two memory lines (mebibytes).
    LP_CHECK_EQ(log.memory.rank, 24);
    LP_CHECK_EQ(log.memory.line, 10);
    LP_CHECK_NEAR(log.memory.maxReservedBytes, 62668.8 * 1024 * 1024, 1.0);
    LP_CHECK_NEAR(log.memory.maxAllocatedBytes, 52000.0 * 1024 * 1024, 1.0);

    const Planned pl; // 64 GPUs, TP 8, PP 4
    const RunAnalysis a = analyzeRun(log, pl.s, pl.p);
    const Verdict* layout = verdict(a, "layout_mismatch");
    LP_CHECK(layout && layout->severity == Severity::Warning);
    LP_CHECK(layout && layout->text.find("the log ran TP 4, the plan has TP 8") != std::string::npos);
    LP_CHECK(layout && layout->text.find("The log ran world size 32, the plan has world size 64") == 0);
    LP_CHECK(layout && layout->text.find("PP") == std::string::npos); // PP agrees
    // Rank 24 of 32 with PP 4 runs the last stage.
    LP_CHECK_EQ(a.memoryStage, 3);
    LP_CHECK_NEAR(a.predictedMemoryBytes, pl.p.memory.stages[3].totalBytes, 1e-6);
    const bool memoryVerdict = hasVerdict(a, "memory_above_plan") || hasVerdict(a, "memory_below_plan") ||
                               hasVerdict(a, "memory_matches_plan");
    LP_CHECK(memoryVerdict);
    bool quoted = false;
    for (const auto& v : a.verdicts)
        quoted = quoted ||
                 v.text.find("the log's peak reserved memory 61.2 GiB vs the plan's") != std::string::npos;
    LP_CHECK(quoted);
    const std::string text = runFiguresText(a);
    LP_CHECK(text.find("Layout      32 GPUs, TP 4, PP 4 logged; plan 64 GPUs, TP 8, PP 4") !=
             std::string::npos);
    LP_CHECK(text.find("Memory      61.2 GiB peak reserved on rank 24; plan ") != std::string::npos);
    LP_CHECK(text.find("for stage 3") != std::string::npos);
    const nlohmann::json j = runAnalysisToJson(a, log);
    LP_CHECK_EQ(j.at("logged").at("tp").get<int>(), 4);
    LP_CHECK_EQ(j.at("logged").at("world_size").get<long long>(), 32LL);
    LP_CHECK_EQ(j.at("logged").at("memory").at("rank").get<int>(), 24);
    LP_CHECK_EQ(j.at("logged").at("memory").at("plan_stage").get<int>(), 3);
}

LP_TEST(memory_verdict_against_the_plan) {
    const Planned pl;
    const double stage0 = pl.p.memory.stages[0].totalBytes / (1024.0 * 1024.0);
    const auto analysed = [&](double mib) {
        const std::string text =
            "[Rank 0] (after 1 iterations) memory (MB) | allocated: 1 | max allocated: 1 | "
            "reserved: 1 | max reserved: " +
            std::to_string(mib) + "\n" + " iteration 1/ 10 | elapsed time per iteration (ms): 5000.0 |\n";
        auto log = parseRunLog(text);
        LP_CHECK(log.has_value());
        return log ? analyzeRun(*log, pl.s, pl.p) : RunAnalysis{};
    };
    const RunAnalysis high = analysed(stage0 * 1.4);
    LP_CHECK_EQ(high.memoryStage, 0);
    LP_CHECK(hasVerdict(high, "memory_above_plan"));
    LP_CHECK(hasVerdict(analysed(stage0 * 0.5), "memory_below_plan"));
    LP_CHECK(hasVerdict(analysed(stage0 * 1.02), "memory_matches_plan"));
    LP_CHECK(!hasVerdict(high, "layout_mismatch")); // the log states no layout
}

LP_TEST(torchtitan_memory_and_batch) {
    const RunLog log = load("torchtitan.log");
    LP_CHECK_EQ(log.layout.globalBatch, 64LL);
    LP_CHECK_EQ(log.memory.rank, 0);
    LP_CHECK_NEAR(log.memory.maxReservedBytes, 51.30 * 1024 * 1024 * 1024, 1e3);
    LP_CHECK(!std::isfinite(log.memory.maxAllocatedBytes));
}

LP_TEST(too_few_samples) {
    auto log = parseRunLog("5.0 5.1 5.0\n");
    LP_CHECK(log.has_value());
    if (!log)
        return;
    const RunAnalysis a = analyzeRun(*log);
    LP_CHECK(hasVerdict(a, "too_few_samples"));
    LP_CHECK(hasVerdict(a, "warmup_not_detected"));
}

LP_TEST(json_and_text_output) {
    const Planned pl;
    const RunLog log = load("megatron.log");
    const RunAnalysis a = analyzeRun(log, pl.s, pl.p);
    const nlohmann::json j = runAnalysisToJson(a, log);
    LP_CHECK_EQ(j.at("schema").get<std::string>(), std::string(kRunAnalysisSchema));
    LP_CHECK_EQ(j.at("version").get<int>(), kRunAnalysisVersion);
    LP_CHECK_EQ(j.at("format").get<std::string>(), std::string("megatron"));
    LP_CHECK_EQ(j.at("warmup").at("dropped").get<int>(), 3);
    LP_CHECK_EQ(j.at("warmup").at("first_steady_step").get<long long>(), 4LL);
    LP_CHECK_EQ(j.at("steps").size(), std::size_t{50});
    LP_CHECK(j.at("predicted").is_object());
    LP_CHECK(j.at("verdicts").is_array() && !j.at("verdicts").empty());
    LP_CHECK(j.dump().find("NaN") == std::string::npos);
    const std::string text = runAnalysisText(a);
    LP_CHECK(text.find("Step time") != std::string::npos);
    LP_CHECK(text.find("Verdict") != std::string::npos);
    // The figures alone are the text up to the verdicts.
    const std::string figures = runFiguresText(a);
    LP_CHECK(figures.find("Step time") != std::string::npos && figures.find("Verdict") == std::string::npos);
    LP_CHECK_EQ(text.substr(0, figures.size()), figures);
    const nlohmann::json bare = runAnalysisToJson(analyzeRun(log), log);
    LP_CHECK(bare.at("predicted").is_null());
    LP_CHECK(bare.at("measured").at("mfu").is_null());
}

// Found by fuzz_run_log: a step number beyond long long was cast without a range check (UB).
LP_TEST(csv_step_number_overflow_is_skipped) {
    const auto text = lp::core::readTextFile(std::string(LP_TEST_DATA_DIR) +
                                             "/fuzz/regressions/run_log-step-number-overflow.csv");
    LP_CHECK(text.has_value());
    if (!text)
        return;
    const auto log = lp::core::parseRunLog(*text);
    LP_CHECK(log.has_value());
    if (!log)
        return;
    LP_CHECK_EQ(log->samples.size(), static_cast<std::size_t>(3));
    LP_CHECK(!log->warnings.empty());
}

LP_TEST_MAIN()
