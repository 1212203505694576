// The guided tour as data: resources/teaching/tour.json reads cleanly, every step's scenario is what
// its text claims (checked by the core), and the figures its texts quote resolve.
#include "TestHarness.h"
#include "core/estimate/Evaluate.h"
#include "core/estimate/Explain.h"
#include "core/io/Files.h"
#include "core/io/Presets.h"
#include "core/teach/TourScript.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>
#include <string>

using namespace lp::core;

namespace {

std::string tourText() {
    const auto text = readTextFile(std::string(LP_TEST_DATA_DIR) + "/../../resources/teaching/tour.json");
    return text ? *text : std::string();
}

const TourScript& tour() {
    static const TourScript t = [] {
        auto parsed = tourFromJson(tourText());
        if (!parsed) {
            for (const InputError& e : parsed.error())
                std::fprintf(stderr, "tour.json: %s\n", e.message().c_str());
            return TourScript{};
        }
        return *parsed;
    }();
    return t;
}

bool has(const std::string& s, const std::string& part) {
    return s.find(part) != std::string::npos;
}

} // namespace

LP_TEST(tour_file_reads_cleanly) {
    LP_CHECK(tour().steps.size() >= 15);
    std::set<std::string> ids;
    for (const TourStep& step : tour().steps) {
        LP_CHECK(!step.id.empty() && !step.title.empty() && !step.text.empty());
        LP_CHECK(!step.target.empty());
        LP_CHECK(!step.checks.empty()); // every step claims something checkable
        ids.insert(step.id);
    }
    LP_CHECK_EQ(ids.size(), tour().steps.size());
}

LP_TEST(tour_covers_the_story) {
    // The story the tour tells, in order.
    const std::vector<std::string> story = {"parameters",
                                            "training_state",
                                            "one_gpu",
                                            "one_node_tp8",
                                            "pp4",
                                            "dp2",
                                            "zero_fsdp",
                                            "recompute",
                                            "micro_batch",
                                            "accumulation",
                                            "mfu",
                                            "run_length",
                                            "cause_bubble",
                                            "cause_tp_slow_links",
                                            "mistake_it_runs",
                                            "mistake_several_axes",
                                            "mistake_warmup"};
    std::size_t at = 0;
    for (const TourStep& step : tour().steps)
        if (at < story.size() && step.id == story[at])
            ++at;
    LP_CHECK_EQ(at, story.size());
}

LP_TEST(every_step_is_what_it_claims) {
    for (const TourStep& step : tour().steps) {
        const auto s = scenarioForStep(step);
        LP_CHECK(s.has_value());
        if (!s)
            continue;
        const Plan p = evaluate(*s);
        LP_CHECK(p.valid); // the tour never shows an invalid layout
        for (const CheckResult& r : checkStep(step, *s, p)) {
            LP_CHECK(r.ok);
            if (!r.ok)
                std::fprintf(stderr, "  step %s: \"%s\" is false (found %s)\n", step.id.c_str(),
                             r.claim.c_str(), r.actual.c_str());
        }
    }
}

LP_TEST(seed_numbers_in_the_tour) {
    const Scenario worked = defaultScenario();
    const Plan p = evaluate(worked);
    for (const TourStep& step : tour().steps) {
        const std::string text =
            expandFigures(step.text, *scenarioForStep(step), evaluate(*scenarioForStep(step)));
        LP_CHECK(!has(text, "{{"));
        // Every quoted figure resolved (an unknown one reads "?").
        LP_CHECK_EQ(std::count(text.begin(), text.end(), '?'),
                    std::count(step.text.begin(), step.text.end(), '?'));
        if (step.id == "training_state") {
            LP_CHECK(has(text, "1.10 TB"));
            LP_CHECK(has(text, "16 bytes per parameter"));
        }
        if (step.id == "parameters")
            LP_CHECK(has(text, "138 GB")); // 68.98e9 x 2 bytes (the seed's round 140 GB)
        if (step.id == "accumulation")
            LP_CHECK(has(text, "2 &times; 16 &times; 2 = <b>64 sequences"));
    }
    LP_CHECK_EQ(p.effectiveBatchSequences, 64);
}

LP_TEST(patches_apply_over_the_worked_example) {
    const auto s =
        applyScenarioPatch(defaultScenario(), R"({"layout": {"tp": 4}, "training": {"recompute": "full"}})");
    LP_CHECK(s.has_value());
    LP_CHECK_EQ(s->layout.tp, 4);
    LP_CHECK_EQ(s->layout.pp, 4); // untouched fields stay
    LP_CHECK(s->training.recompute == Recompute::Full);
    LP_CHECK(applyScenarioPatch(defaultScenario(), "{}").value() == defaultScenario());
    // A patch that breaks the scenario file is reported with the file reader's path and reason.
    const auto bad = applyScenarioPatch(defaultScenario(), R"({"layout": {"tp": -2}})");
    LP_CHECK(!bad.has_value());
    LP_CHECK(!bad.error().empty() && has(bad.error().front().path, "layout.tp"));
    LP_CHECK(!applyScenarioPatch(defaultScenario(), "[1]").has_value());
    LP_CHECK(!applyScenarioPatch(defaultScenario(), "{").has_value());
}

LP_TEST(bad_tour_files_are_reported) {
    const auto noSteps = tourFromJson(R"({"schema": "layout-planner/tour", "version": 1, "steps": []})");
    LP_CHECK(!noSteps.has_value());
    const auto badStep = tourFromJson(R"({"schema": "layout-planner/tour", "version": 1, "steps": [
        {"id": "a", "title": "A", "text": "t", "colour": "red", "scenario": {"layout": {"pp": "four"}},
         "checks": [{"claim": "nothing"}, {"claim": "x", "plan": "/mfu"}]},
        {"id": "a", "title": "B", "text": "t"}]})");
    LP_CHECK(!badStep.has_value());
    if (!badStep) {
        std::string all;
        for (const InputError& e : badStep.error())
            all += e.message() + "\n";
        LP_CHECK(has(all, "$.steps[0].colour: unknown key"));
        LP_CHECK(has(all, "$.steps[0].scenario.layout.pp"));
        LP_CHECK(has(all, "exactly one of"));
        LP_CHECK(has(all, "claims nothing"));
        LP_CHECK(has(all, "duplicate id"));
    }
    LP_CHECK(!tourFromJson(
                  R"({"schema": "other", "version": 1, "steps": [{"id": "a", "title": "A", "text": "t"}]})")
                  .has_value());
}

LP_TEST(checks_report_failures) {
    TourStep step;
    step.checks.push_back({"TP is 4", TourCheck::Source::Scenario, "/layout/tp", "4", {}, {}, true});
    step.checks.push_back({"MFU over 90 %", TourCheck::Source::Plan, "/mfu", "", 0.9, {}, true});
    step.checks.push_back(
        {"bubble fires", TourCheck::Source::Diagnostic, "pipeline_bubble", "", {}, {}, true});
    step.checks.push_back({"no such figure", TourCheck::Source::Plan, "/nope", "1", {}, {}, true});
    const Scenario s = defaultScenario();
    const auto r = checkStep(step, s, evaluate(s));
    LP_CHECK_EQ(r.size(), 4u);
    LP_CHECK(!r[0].ok && r[0].actual == "8");
    LP_CHECK(!r[1].ok);
    LP_CHECK(r[2].ok && r[2].actual == "present");
    LP_CHECK(!r[3].ok && r[3].actual == "missing");
    LP_CHECK(!allChecksPass(r));
}

LP_TEST(figures_expand) {
    const Scenario s = defaultScenario();
    const Plan p = evaluate(s);
    LP_CHECK_EQ(
        expandFigures("TP {{scenario:/layout/tp}}, batch {{plan:/effective_batch_sequences|int}}", s, p),
        std::string("TP 8, batch 64"));
    LP_CHECK(has(expandFigures("{{plan:/mfu|percent}}", s, p), " %"));
    LP_CHECK_EQ(expandFigures("{{plan:/no/such}} and {{nonsense}}", s, p), std::string("? and ?"));
    LP_CHECK_EQ(expandFigures("unclosed {{plan:/mfu", s, p), std::string("unclosed {{plan:/mfu"));
    // Memory as the memory chart reads it, in the window's unit; both units with the chosen one first; the
    // decimal arithmetic of bytes per parameter stays decimal.
    const double worst = p.memory.worstTotalBytes();
    const std::string memory = "{{plan:/derived/worst_stage_bytes|memory}}";
    LP_CHECK_EQ(expandFigures(memory, s, p, MemoryUnit::GiB), bytesIn(worst, MemoryUnit::GiB, 1));
    LP_CHECK_EQ(expandFigures(memory, s, p, MemoryUnit::GB), bytesIn(worst, MemoryUnit::GB, 1));
    LP_CHECK_EQ(expandFigures("{{plan:/derived/worst_stage_bytes|bytes}}", s, p, MemoryUnit::GiB),
                bytesBoth(worst, MemoryUnit::GiB));
    LP_CHECK_EQ(expandFigures("{{plan:/training_state_bytes|tb}}", s, p, MemoryUnit::GiB),
                std::string("1.10 TB"));
}

// The glossary, the tour and the shared texts refer to each other and to the core's explanations.
LP_TEST(teaching_resources_are_consistent) {
    const auto glossaryText =
        readTextFile(std::string(LP_TEST_DATA_DIR) + "/../../resources/teaching/glossary.json");
    LP_CHECK(glossaryText.has_value());
    if (!glossaryText)
        return;
    const nlohmann::json glossary = nlohmann::json::parse(*glossaryText);
    const std::vector<std::string> keys = explanationKeys();
    const auto isKey = [&](const std::string& k) {
        return std::find(keys.begin(), keys.end(), k) != keys.end();
    };
    std::set<std::string> ids;
    for (const auto& t : glossary.at("terms"))
        ids.insert(t.at("id").get<std::string>());
    for (const char* required : {"tp",
                                 "pp",
                                 "dp",
                                 "cp",
                                 "ep",
                                 "zero",
                                 "fsdp",
                                 "bubble",
                                 "mfu",
                                 "hfu",
                                 "recompute",
                                 "micro-batch",
                                 "accumulation",
                                 "effective-batch",
                                 "sp",
                                 "flash-attention",
                                 "nvlink",
                                 "all-reduce",
                                 "compute-optimal",
                                 "goodput",
                                 "checkpoint-interval"})
        LP_CHECK(ids.contains(required));
    for (const auto& t : glossary.at("terms")) {
        LP_CHECK(!t.at("term").get<std::string>().empty());
        LP_CHECK(!t.at("short").get<std::string>().empty());
        LP_CHECK(!t.at("long").get<std::string>().empty());
        for (const auto& see : t.value("see", nlohmann::json::array()))
            LP_CHECK(ids.contains(see.get<std::string>()));
        if (t.contains("explain"))
            LP_CHECK(isKey(t.at("explain").get<std::string>()));
    }
    // Links from the tour's texts into the glossary, and the explanations it shows.
    for (const TourStep& step : tour().steps) {
        if (!step.explain.empty()) {
            LP_CHECK(isKey(step.explain));
            if (!isKey(step.explain))
                std::fprintf(stderr, "  step %s explains unknown key %s\n", step.id.c_str(),
                             step.explain.c_str());
        }
        for (std::size_t at = step.text.find("glossary:"); at != std::string::npos;
             at = step.text.find("glossary:", at + 1)) {
            const std::size_t end = step.text.find('"', at);
            const std::string id = step.text.substr(at + 9, end - at - 9);
            LP_CHECK(ids.contains(id));
        }
    }
}

LP_TEST_MAIN()
