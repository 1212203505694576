// Property test over the text outputs: random scenarios inside the documented ranges (their lower bounds
// included: 1 GFLOP/s, 1 MB/s, a token per second, efficiencies of a millionth) never print "inf" or
// "nan" in an explanation, a diagnostic or a report, and values below those bounds are refused by name.
#include "TestHarness.h"
#include "core/estimate/Evaluate.h"
#include "core/estimate/Explain.h"
#include "core/io/Presets.h"
#include "core/io/ProfileJson.h"
#include "core/io/ScenarioJson.h"
#include "core/model/Limits.h"
#include "core/report/Report.h"
#include "core/report/ReportHtml.h"
#include "core/report/ReportMarkdown.h"
#include "core/util/NumberFormat.h"

#include <nlohmann/json.hpp>

#include <cctype>
#include <random>

using namespace lp::core;

namespace {

// "inf", "-nan", "infinity" as words of their own ("infiniband" and "information" are words too).
bool printsNonFinite(const std::string& text) {
    std::string word;
    for (std::size_t i = 0; i <= text.size(); ++i) {
        const char ch = i < text.size() ? text[i] : ' ';
        if (std::isalnum(static_cast<unsigned char>(ch)) || ch == '_') {
            word += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
            continue;
        }
        if (word == "inf" || word == "nan" || word == "infinity")
            return true;
        word.clear();
    }
    return false;
}

template <typename T> T pick(std::mt19937_64& rng, std::initializer_list<T> values) {
    std::uniform_int_distribution<std::size_t> d(0, values.size() - 1);
    return *(values.begin() + d(rng));
}

// A scenario inside the file's ranges, often at their physical lower bounds.
Scenario randomScenario(std::mt19937_64& rng) {
    Scenario s = defaultScenario();
    GpuSpec& g = s.cluster.gpu;
    g.peakFlops16 = pick(rng, {limits::kMinFlops, 1e12, 989e12, limits::kMaxRate});
    g.peakFlops8 = pick(rng, {0.0, limits::kMinFlops, 1979e12});
    g.hbmBandwidth = pick(rng, {limits::kMinBandwidth, 3.35e12});
    g.nvlinkBandwidth = pick(rng, {limits::kMinBandwidth, 450e9});
    g.networkBandwidth = pick(rng, {limits::kMinBandwidth, 50e9});
    g.hostLinkBandwidth = pick(rng, {limits::kMinBandwidth, 64e9});
    g.hostMemoryBandwidth = pick(rng, {limits::kMinBandwidth, 200e9});
    g.hbmBytes = pick(rng, {limits::kMinMemoryBytes, 80e9, limits::kMaxRate});
    TrainingOptions& t = s.training;
    t.loaderTokensPerSecond = pick(rng, {limits::kMinTokensPerSecond, 1e6, limits::kMaxRate});
    t.tokenBudget = pick(rng, {limits::kMinTokenBudget, 2e12, limits::kMaxRate});
    t.stragglerSlowdown = pick(rng, {0.0, 0.5, limits::kMaxStragglerSlowdown});
    t.precision = pick(rng, {Precision::Bf16, Precision::Fp8});
    t.optimizerOffload = pick(rng, {false, true});
    t.activationOffloadLayers = pick(rng, {0, 4});
    t.loaderPrefetch = pick(rng, {true, false});
    s.cluster.nodes = pick(rng, {4, 8}); // TP 8 x PP 4: at least 32 GPUs
    s.layout.dp = static_cast<int>(s.cluster.gpus() / (s.layout.tp * s.layout.pp * s.layout.cp));
    return s;
}

HardwareProfile randomProfile(std::mt19937_64& rng, const Scenario& s) {
    HardwareProfile p = builtinProfile(s.cluster.gpu);
    KernelEfficiencies& k = p.kernels;
    k.hbmEfficiency = pick(rng, {limits::kMinEfficiency, 0.85});
    k.attentionFwdEfficiency = pick(rng, {limits::kMinEfficiency, 0.5});
    k.attentionBwdEfficiency = pick(rng, {limits::kMinEfficiency, 0.4});
    for (Curve* curve : {&p.gemmEfficiency, &p.nvlinkBusEfficiency, &p.networkBusEfficiency})
        if (pick(rng, {false, true}))
            for (auto& point : curve->points)
                point.second = limits::kMinEfficiency;
    return p;
}

} // namespace

LP_TEST(finite_text_replaces_only_non_finite_words) {
    LP_CHECK_EQ(fmt::finiteText("16 x inf s + -nan ms = nan%"), std::string("16 x n/a s + n/a ms = n/a%"));
    LP_CHECK_EQ(fmt::finiteText("INF days, Infinity"), std::string("n/a days, n/a"));
    LP_CHECK_EQ(fmt::finiteText("infiniband information nano -5 ms"),
                std::string("infiniband information nano -5 ms"));
    LP_CHECK_EQ(fmt::finiteText(""), std::string());
}

LP_TEST(in_range_scenarios_never_print_inf_or_nan) {
    std::mt19937_64 rng(20261206);
    for (int i = 0; i < 120; ++i) {
        const Scenario s = randomScenario(rng);
        // Inside the documented ranges: the scenario file holds it.
        LP_CHECK(scenarioFromJson(scenarioToJson(s)).has_value());
        const HardwareProfile profile = randomProfile(rng, s);
        LP_CHECK(profileFromJson(profileToJson(profile)).has_value());
        const Plan p = evaluate(s, profile);
        for (const Explanation& e : explainPlan(s, p)) {
            LP_CHECK(!printsNonFinite(e.substituted));
            LP_CHECK(!printsNonFinite(e.words));
            LP_CHECK(!printsNonFinite(fmt::withUnit(e.value, e.unit)));
        }
        for (const Diagnostic& d : p.diagnostics)
            LP_CHECK(!printsNonFinite(diagnosticMessage(d)));
        if (i % 4 == 0) {
            const ReportInput r = makeReport(s, profile, p);
            LP_CHECK(!printsNonFinite(reportToMarkdown(r)));
            LP_CHECK(!printsNonFinite(reportToHtml(r)));
        }
    }
}

LP_TEST(the_text_guard_holds_even_below_the_limits) {
    // A scenario built in code can bypass the reader: the words still never show inf or nan.
    Scenario s = defaultScenario();
    s.cluster.gpu.peakFlops16 = 1e-300;
    s.training.loaderTokensPerSecond = 1e-300;
    const Plan p = evaluate(s);
    for (const Explanation& e : explainPlan(s, p)) {
        LP_CHECK(!printsNonFinite(e.substituted));
        LP_CHECK(!printsNonFinite(e.words));
    }
    LP_CHECK(!printsNonFinite(reportToMarkdown(makeReport(s))));
}

LP_TEST(values_below_the_physical_bounds_are_refused_by_name) {
    const std::string base = scenarioToJson(defaultScenario());
    const struct {
        const char* pointer;
        double value;
        const char* path;
    } cases[] = {
        {"/cluster/gpu/peak_flops16", 1e-300, "$.cluster.gpu.peak_flops16"},
        {"/cluster/gpu/peak_flops8", 1e-300, "$.cluster.gpu.peak_flops8"},
        {"/cluster/gpu/hbm_bandwidth_bytes_per_s", 5e-324, "$.cluster.gpu.hbm_bandwidth_bytes_per_s"},
        {"/cluster/gpu/hbm_bytes", 1.0, "$.cluster.gpu.hbm_bytes"},
        {"/training/loader_tokens_per_s", 1e-300, "$.training.loader_tokens_per_s"},
        {"/training/token_budget_tokens", 1e-300, "$.training.token_budget_tokens"},
    };
    for (const auto& c : cases) {
        nlohmann::json j = nlohmann::json::parse(base);
        j[nlohmann::json::json_pointer(c.pointer)] = c.value;
        const auto loaded = scenarioFromJson(j.dump());
        LP_CHECK(!loaded.has_value());
        if (!loaded)
            LP_CHECK_EQ(loaded.error().front().path, std::string(c.path));
    }
    // A denormal efficiency in a profile file.
    nlohmann::json profile =
        nlohmann::json::parse(profileToJson(builtinProfile(defaultScenario().cluster.gpu)));
    profile["hbm_efficiency"] = 1e-310;
    const auto loaded = profileFromJson(profile.dump());
    LP_CHECK(!loaded.has_value());
    if (!loaded)
        LP_CHECK_EQ(loaded.error().front().path, std::string("$.hbm_efficiency"));
}

LP_TEST_MAIN()
