// Property tests over random scenarios, extended to the search and the reports: neither
// crashes, the search's counts always add up and every layout it reports is valid and fits, and no
// report carries NaN or infinity.
#include "TestHarness.h"
#include "core/estimate/Evaluate.h"
#include "core/io/Presets.h"
#include "core/report/Report.h"
#include "core/report/ReportHtml.h"
#include "core/report/ReportMarkdown.h"
#include "core/search/Search.h"

#include <cmath>
#include <cstdio>
#include <random>

using namespace lp::core;

namespace {

Scenario randomScenario(std::mt19937_64& rng) {
    const auto& models = modelPresets();
    Scenario s = defaultScenario();
    s.model = models[rng() % models.size()].model;
    s.model.seqLen = std::vector<int>{512, 2048, 4096, 32768}[rng() % 4];
    s.cluster.nodes = std::vector<int>{1, 2, 4, 16}[rng() % 4];
    s.training.zeroStage = static_cast<int>(rng() % 4);
    s.training.precision = rng() % 3 == 0 ? Precision::Fp8 : Precision::Bf16;
    s.training.stragglerSlowdown = static_cast<double>(rng() % 3) * 0.05;
    s.layout = Layout{};
    s.layout.dp = static_cast<int>(s.cluster.gpus());
    s.layout.microBatch = 1 + static_cast<int>(rng() % 4);
    s.layout.accumulation = 1 + static_cast<int>(rng() % 8);
    return s;
}

bool finiteText(const std::string& t) {
    // As printed numbers: "nan", "-nan", "inf" standing alone (not inside words such as "Narayanan").
    for (const char* bad :
         {": nan", ": -nan", ": inf", ": -inf", " nan ", " nan%", " inf ", " inf%", ">nan<", ">inf<"})
        if (t.find(bad) != std::string::npos)
            return false;
    return true;
}

} // namespace

LP_TEST(random_searches_are_consistent) {
    std::mt19937_64 rng(7);
    for (int i = 0; i < 12; ++i) {
        const Scenario s = randomScenario(rng);
        SearchSpace space = defaultSearchSpace(s);
        space.microBatch = {1, 2};
        space.zeroStages = {1, 3};
        space.vpp = {1, 2};
        SearchOptions o;
        o.threads = 2;
        o.topN = 5;
        const SearchResult r = search(s, space, {}, o);
        long long rejected = 0;
        for (const auto& [reason, n] : r.rejected)
            rejected += n;
        LP_CHECK_EQ(rejected, r.evaluated - r.fitting);
        LP_CHECK(r.valid >= r.fitting);
        for (const SearchEntry& e : r.top) {
            const Plan p = evaluate(applyChoice(s, e.choice));
            LP_CHECK(p.valid && p.memory.fits);
            LP_CHECK(std::isfinite(e.stepSeconds) && e.stepSeconds > 0);
        }
    }
}

LP_TEST(random_reports_are_finite) {
    std::mt19937_64 rng(11);
    for (int i = 0; i < 30; ++i) {
        Scenario s = randomScenario(rng);
        s.layout.tp = std::vector<int>{1, 2, 3, 8}[rng() % 4]; // sometimes invalid
        s.name = i % 5 == 0 ? "<script>alert(1)</script>" : "random " + std::to_string(i);
        const ReportInput r = makeReport(s);
        const std::string html = reportToHtml(r);
        const std::string md = reportToMarkdown(r);
        const std::string json = reportToJson(r);
        LP_CHECK(!html.empty() && !md.empty() && !json.empty());
        LP_CHECK(finiteText(json) && finiteText(html) && finiteText(md));
        LP_CHECK(html.find("<script>") == std::string::npos);
    }
}

LP_TEST_MAIN()
