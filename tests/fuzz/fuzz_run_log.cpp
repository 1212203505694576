// libFuzzer target: the measured-run log parser, lp::core::parseRunLog (core/measured/RunLog.h).
// Every input is parsed in each format (auto-detected, CSV, Megatron-LM, torchtitan, numbers).
// Properties: parsing never crashes, a parsed log holds samples, and analysing it (alone and
// against the default scenario's plan) and writing the analysis never crash.
#include "FuzzCheck.h"
#include "core/estimate/Evaluate.h"
#include "core/io/Presets.h"
#include "core/measured/RunAnalysis.h"
#include "core/model/Scenario.h"

#include <nlohmann/json.hpp>

namespace {
// As the CLI writes it (analyze-log --json): the log's own text may hold invalid UTF-8.
void write(const nlohmann::json& j) {
    (void)j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace lp;
    static const core::Scenario scenario = core::defaultScenario();
    static const core::Plan plan = core::evaluate(scenario);
    const std::string_view text = fuzz::asText(data, size);
    for (const auto format : {core::RunLogFormat::Auto, core::RunLogFormat::Csv, core::RunLogFormat::Megatron,
                              core::RunLogFormat::Torchtitan, core::RunLogFormat::Numbers}) {
        const auto log = core::parseRunLog(text, {.format = format});
        if (!log) {
            (void)log.error().message();
            continue;
        }
        fuzz::check(log->format != core::RunLogFormat::Auto, "a parsed log says which format it read");
        fuzz::check(!log->samples.empty(), "a parsed log holds at least one step record");
        const core::RunAnalysis alone = core::analyzeRun(*log);
        write(core::runAnalysisToJson(alone, *log));
        (void)core::runAnalysisText(alone);
        const core::RunAnalysis compared = core::analyzeRun(*log, scenario, plan);
        write(core::runAnalysisToJson(compared, *log));
        (void)core::runAnalysisText(compared);
        // A manual warmup override past the end of the samples.
        (void)core::analyzeRun(*log, {.warmupSamples = static_cast<int>(log->samples.size()) + 1});
    }
    return 0;
}
