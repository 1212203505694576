// The step timeline: the makespan and the bubble are the plan's, the schedules' bubbles and activations in
// flight are the textbook ones for even stages, and the memory model charges what the timeline holds.
#include "TestHarness.h"
#include "core/estimate/Evaluate.h"
#include "core/estimate/Timeline.h"
#include "core/export/TimelineExport.h"
#include "core/io/Presets.h"
#include "core/report/SvgCharts.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <tuple>

using namespace lp::core;

namespace {

constexpr double kTol = 1e-9;

// The slowest rank: its idle inside the pipeline phase is the plan's bubble.
const TimelineRank& slowestRank(const Timeline& tl, const Plan& p) {
    std::size_t slowest = 0;
    for (std::size_t r = 0; r < p.pipeline.stages.size(); ++r)
        if (p.pipeline.stages[r].totalSeconds > p.pipeline.stages[slowest].totalSeconds)
            slowest = r;
    return tl.ranks[slowest];
}

// Makespan, pipeline time and bubble are the plan's; every event lies in the step; no two events of one lane
// of one rank overlap; each rank is busy or idle the whole pipeline phase.
void checkAgainstPlan(const Scenario& s, const Plan& p) {
    const Timeline tl = buildTimeline(s, p);
    LP_CHECK_EQ(static_cast<int>(tl.ranks.size()), s.layout.pp);
    LP_CHECK_NEAR(tl.makespanSeconds, p.time.stepSeconds, kTol);
    LP_CHECK_NEAR(tl.pipelineSeconds,
                  p.time.stepSeconds - p.pipeline.dataParallelTailSeconds - p.time.optimizerSeconds -
                      p.time.loaderSeconds - p.time.stragglerSeconds,
                  1e-6);
    LP_CHECK_NEAR(tl.bubbleSeconds, p.time.bubbleSeconds, kTol);
    const TimelineRank& slowest = slowestRank(tl, p);
    LP_CHECK(std::abs(slowest.idleSeconds - p.time.bubbleSeconds) <= kTol * tl.pipelineSeconds);
    double end = 0;
    std::map<std::pair<int, int>, double> laneEnd;
    for (const TimelineEvent& e : tl.events) {
        LP_CHECK(e.seconds > 0 && e.startSeconds >= -kTol * tl.makespanSeconds);
        end = std::max(end, e.endSeconds());
        double& last = laneEnd[{e.rank, static_cast<int>(e.lane)}];
        LP_CHECK(e.startSeconds >= last - kTol * tl.makespanSeconds);
        last = e.endSeconds();
    }
    LP_CHECK(std::abs(end - tl.makespanSeconds) <= kTol * tl.makespanSeconds);
    for (const TimelineRank& r : tl.ranks)
        LP_CHECK(std::abs(r.busySeconds - p.time.stepSeconds + tl.makespanSeconds - tl.pipelineSeconds +
                          r.idleSeconds) <= 1e-6 * tl.makespanSeconds);
}

Scenario piped(const char* model, int pp, int vpp, int m, PipelineSchedule schedule) {
    Scenario s = defaultScenario();
    s.model = findModelPreset(model)->model;
    s.cluster.nodes = std::max(1, pp);
    s.layout = Layout{};
    s.layout.tp = 8;
    s.layout.pp = pp;
    s.layout.vpp = vpp;
    s.layout.dp = 1;
    s.layout.microBatch = 1;
    s.layout.accumulation = m;
    s.training.pipelineSchedule = schedule;
    return s;
}

// A plan with `p` identical stages of forward 1 s and backward 2 s per micro batch, as evaluate lays out the
// pipeline phase: m x 3 s + the bubble (p - 1) x 3 s / v.
Plan evenPlan(int p, int v, int m) {
    Plan plan;
    plan.valid = true;
    plan.memory.fits = true;
    plan.layout.pp = p;
    plan.layout.vpp = v;
    plan.intermediates.microbatches = m;
    for (int r = 0; r < p; ++r)
        plan.pipeline.stages.push_back({r, 4.0, 1.0, 2.0, 0, 0, 0, 0, 3.0});
    plan.time.bubbleSeconds = (p - 1) * 3.0 / v;
    plan.time.bubbleFraction = plan.time.bubbleSeconds / (m * 3.0);
    plan.pipeline.seconds = m * 3.0 + plan.time.bubbleSeconds;
    plan.time.optimizerSeconds = 0.5;
    plan.time.stepSeconds = plan.pipeline.seconds + 0.5;
    return plan;
}

Scenario withSchedule(PipelineSchedule schedule) {
    Scenario s = defaultScenario();
    s.training.pipelineSchedule = schedule;
    return s;
}

// Every chunk's forward starts after the previous virtual stage's forward of its micro batch, every backward
// after the next one's backward: the layout is a true schedule, not only the plan's totals.
void checkDependencies(const Timeline& tl) {
    std::map<std::tuple<bool, int, int>, std::pair<double, double>>
        span; // (backward, mb, stage) -> start, end
    for (const TimelineEvent& e : tl.events) {
        if (e.kind != TimelineKind::Forward && e.kind != TimelineKind::Backward)
            continue;
        const int stage = e.chunk * tl.pipelineRanks + e.rank;
        span[{e.kind == TimelineKind::Backward, e.microBatch, stage}] = {e.startSeconds, e.endSeconds()};
    }
    const int stages = tl.pipelineRanks * tl.virtualStages;
    for (const auto& [key, times] : span) {
        const auto [backward, mb, stage] = key;
        const int before = backward ? stage + 1 : stage - 1;
        if (before < 0 || before >= stages)
            continue;
        LP_CHECK(span.at({backward, mb, before}).second <= times.first + 1e-9);
    }
}

} // namespace

LP_TEST(timeline_matches_the_plan_on_every_model_preset) {
    int checked = 0;
    for (const ModelPreset& preset : modelPresets()) {
        for (const auto& [pp, vpp, m] : {std::tuple{1, 1, 4}, {4, 1, 8}, {4, 2, 8}, {8, 1, 3}, {2, 3, 300}}) {
            for (PipelineSchedule sched :
                 {PipelineSchedule::OneFOneB, PipelineSchedule::GPipe, PipelineSchedule::ZeroBubbleH1}) {
                const Scenario s = piped(preset.id.c_str(), pp, vpp, m, sched);
                const Plan p = evaluate(s);
                if (!p.valid)
                    continue;
                checkAgainstPlan(s, p);
                ++checked;
            }
        }
    }
    LP_CHECK(checked > 20);
}

LP_TEST(timeline_matches_the_plan_on_random_layouts) {
    std::mt19937_64 rng(48);
    const auto pick = [&](std::initializer_list<int> values) {
        return *(values.begin() + std::uniform_int_distribution<std::size_t>(0, values.size() - 1)(rng));
    };
    const auto& presets = modelPresets();
    int checked = 0;
    for (int i = 0; i < 400 && checked < 200; ++i) {
        Scenario s = piped(presets[static_cast<std::size_t>(i) % presets.size()].id.c_str(),
                           pick({1, 2, 3, 4, 8}), pick({1, 1, 2, 3}), pick({1, 2, 5, 8, 16, 33}),
                           pick({0, 1, 2}) == 0 ? PipelineSchedule::GPipe
                           : pick({0, 1}) == 0  ? PipelineSchedule::ZeroBubbleH1
                                                : PipelineSchedule::OneFOneB);
        s.layout.tp = pick({1, 2, 8});
        s.layout.dp = pick({1, 2, 16});
        s.cluster.nodes = std::max(1, s.layout.tp * s.layout.pp * s.layout.dp / 8);
        s.training.zeroStage = pick({0, 1, 3});
        s.training.recompute = pick({0, 1}) ? Recompute::Full : Recompute::Selective;
        s.training.stragglerSlowdown = pick({0, 0, 1}) * 0.05;
        s.training.loaderPrefetch = pick({0, 1}) == 1;
        s.training.overlapDpComm = pick({0, 1}) == 1 ? Toggle::On : Toggle::Off;
        const Plan p = evaluate(s);
        if (!p.valid)
            continue;
        checkAgainstPlan(s, p);
        ++checked;
    }
    LP_CHECK(checked >= 150);
}

LP_TEST(even_stages_have_the_textbook_bubble_and_a_true_schedule) {
    for (const auto& [p, v, m] :
         {std::tuple{4, 1, 8}, {4, 2, 8}, {2, 1, 1}, {8, 1, 32}, {4, 3, 12}, {3, 2, 5}}) {
        for (PipelineSchedule sched : {PipelineSchedule::OneFOneB, PipelineSchedule::GPipe}) {
            const Plan plan = evenPlan(p, v, m);
            const Timeline tl = buildTimeline(withSchedule(sched), plan);
            for (const TimelineRank& r : tl.ranks) {
                LP_CHECK_NEAR(r.idleSeconds / (m * 3.0), (p - 1.0) / (v * m), kTol);
                LP_CHECK_NEAR(r.busySeconds, m * 3.0, kTol);
            }
            LP_CHECK_NEAR(tl.makespanSeconds, plan.time.stepSeconds, kTol);
            if (m % p == 0 || v == 1)
                checkDependencies(tl);
        }
    }
}

LP_TEST(activations_in_flight_peak_as_the_schedules_hold_them) {
    for (int m : {2, 4, 8, 16}) {
        const int p = 4;
        const Timeline one = buildTimeline(withSchedule(PipelineSchedule::OneFOneB), evenPlan(p, 1, m));
        const Timeline gpipe = buildTimeline(withSchedule(PipelineSchedule::GPipe), evenPlan(p, 1, m));
        LP_CHECK_NEAR(one.ranks[0].peakInFlight, std::min(p, m), kTol);
        LP_CHECK_NEAR(one.ranks[p - 1].peakInFlight, 1.0, kTol);
        for (const TimelineRank& r : gpipe.ranks)
            LP_CHECK_NEAR(r.peakInFlight, m, kTol);
        LP_CHECK_EQ(one.ranks[0].inFlight.back().microBatches, 0.0);
    }
}

// ZB-H1 with forward, input gradient and weight gradient of 1 s each: the weight gradients fill the bubble,
// which shrinks from (p - 1) x 3 s to the paper's (p - 1)(T_F + T_B - T_W) = (p - 1) x 1 s, at 1F1B's memory.
LP_TEST(zero_bubble_fills_the_bubble_with_weight_gradients) {
    for (const auto& [p, m] : {std::pair{4, 8}, {4, 4}, {8, 16}, {2, 6}}) {
        Plan plan = evenPlan(p, 1, m);
        plan.intermediates.stageBackwardSeconds = 2.0;
        plan.intermediates.backwardWeightSeconds = 1.0;
        plan.time.bubbleSeconds = (p - 1) * 1.0;
        plan.pipeline.seconds = m * 3.0 + plan.time.bubbleSeconds;
        plan.time.stepSeconds = plan.pipeline.seconds + 0.5;
        const Timeline tl = buildTimeline(withSchedule(PipelineSchedule::ZeroBubbleH1), plan);
        LP_CHECK_NEAR(tl.makespanSeconds, plan.time.stepSeconds, kTol);
        for (const TimelineRank& r : tl.ranks) {
            double weights = 0;
            for (const TimelineEvent& e : tl.events)
                if (e.rank == r.rank && e.kind == TimelineKind::BackwardWeight)
                    weights += e.seconds;
            LP_CHECK_NEAR(weights, m * 1.0, kTol);
            LP_CHECK_NEAR(r.busySeconds, m * 3.0, kTol);
            LP_CHECK_NEAR(r.idleSeconds, (p - 1) * 1.0, kTol);
        }
        LP_CHECK_NEAR(tl.ranks[0].peakInFlight, std::min(p, m), kTol);
        checkDependencies(tl);
    }
}

LP_TEST(activations_in_flight_match_the_memory_model) {
    // 1F1B and interleaved: the first rank's and the worst stage's layers in flight are the memory model's.
    for (const auto& [pp, vpp, m] : {std::tuple{4, 1, 8}, {4, 2, 8}, {8, 1, 4}, {4, 2, 16}, {2, 4, 4}}) {
        for (PipelineSchedule sched :
             {PipelineSchedule::OneFOneB, PipelineSchedule::GPipe, PipelineSchedule::ZeroBubbleH1}) {
            if (sched == PipelineSchedule::GPipe && vpp > 1)
                continue; // an input error: GPipe runs one stage per rank
            const Scenario s = piped("llama3.1-70b", pp, vpp, m, sched);
            const Plan p = evaluate(s);
            LP_CHECK(p.valid);
            const Timeline tl = buildTimeline(s, p);
            LP_CHECK_NEAR(tl.ranks[0].peakInFlight * tl.ranks[0].layers,
                          p.intermediates.activationLayersInFlight, kTol);
            const TimelineRank& worst = tl.ranks[static_cast<std::size_t>(p.memory.worstStage)];
            LP_CHECK_NEAR(worst.peakInFlight * worst.layers, p.intermediates.worstStageLayersInFlight, kTol);
        }
    }
}

LP_TEST(many_micro_batches_are_summarised_with_the_exact_makespan) {
    const int m = 1000, p = 4;
    const Plan plan = evenPlan(p, 1, m);
    const Timeline tl = buildTimeline(withSchedule(PipelineSchedule::OneFOneB), plan);
    LP_CHECK_NEAR(tl.makespanSeconds, plan.time.stepSeconds, kTol);
    int summaries = 0, highest = 0;
    for (const TimelineEvent& e : tl.events) {
        summaries += e.kind == TimelineKind::Forward && e.microBatch < 0;
        highest = std::max(highest, e.microBatch);
    }
    LP_CHECK_EQ(summaries, p);
    LP_CHECK_EQ(highest, m - 1);
    for (const TimelineRank& r : tl.ranks) {
        LP_CHECK_NEAR(r.busySeconds, m * 3.0, kTol);
        LP_CHECK_NEAR(r.idleSeconds, plan.time.bubbleSeconds, 1e-9);
    }
    LP_CHECK(tl.events.size() < 20000u);
}

LP_TEST(timeline_kind_names_are_distinct) {
    LP_CHECK_EQ(toString(TimelineKind::Forward), std::string_view("forward"));
    LP_CHECK_EQ(toString(TimelineKind::DataParallelExposed), std::string_view("data_parallel_exposed"));
    LP_CHECK(toString(TimelineKind::Idle) != toString(TimelineKind::Host));
    // One set of words per kind, which the window's hover, the trace's args and the SVG legend all read.
    std::set<std::string_view> titles, meanings, formulas;
    for (int k = 0; k <= static_cast<int>(TimelineKind::Idle); ++k) {
        const auto kind = static_cast<TimelineKind>(k);
        LP_CHECK(!timelineKindTitle(kind).empty() && !timelineKindMeaning(kind).empty() &&
                 !timelineFormula(kind).empty());
        titles.insert(timelineKindTitle(kind));
        meanings.insert(timelineKindMeaning(kind));
        formulas.insert(timelineFormula(kind));
    }
    LP_CHECK_EQ(titles.size(), std::size_t{13});
    LP_CHECK_EQ(meanings.size(), std::size_t{13});
    LP_CHECK_EQ(formulas.size(), std::size_t{13});
}

// The headings the window's lanes and the reports' sentence share.
LP_TEST(timeline_summary_names_the_schedule_and_the_bubble) {
    LP_CHECK_EQ(scheduleTitle(PipelineSchedule::OneFOneB, 1), std::string("1F1B"));
    LP_CHECK_EQ(scheduleTitle(PipelineSchedule::OneFOneB, 2),
                std::string("interleaved 1F1B, 2 chunks per rank"));
    LP_CHECK_EQ(scheduleTitle(PipelineSchedule::ZeroBubbleH1, 1), std::string("zero-bubble (ZB-H1)"));
    const Timeline tl = buildTimeline(withSchedule(PipelineSchedule::GPipe), evenPlan(4, 1, 8));
    // 8 x 3 s + 3 x 3 s of bubble + 0.5 s of optimizer: a bubble of 9 s in a 33.5 s step.
    LP_CHECK_EQ(
        timelineSummary(tl),
        std::string("PP 4, 8 micro batches, GPipe. Step 33.500 s, bubble 9.000 s (26.9 % of the step)"));
    // A layout that does not fit is still drawn, and its summary says it could not run.
    Scenario tight = defaultScenario();
    tight.layout.tp = 1;
    tight.layout.dp = 16;
    const Plan over = evaluate(tight);
    LP_CHECK(over.valid && !over.memory.fits);
    const Timeline overTimeline = buildTimeline(tight, over);
    LP_CHECK(!overTimeline.fits && !overTimeline.events.empty());
    LP_CHECK(timelineSummary(overTimeline)
                 .ends_with("of the step). The layout does not fit its GPUs' memory: it could not run"));
    LP_CHECK(buildTimeline(defaultScenario(), evaluate(defaultScenario())).fits);
}

// The picture draws every event two pixels wide or more alone; narrower neighbours become blocks split by
// their kinds' shares, so a long accumulation stays a small picture and still shows what its ranks do.
LP_TEST(svg_draws_wide_events_alone_and_merges_slivers_into_blocks) {
    auto count = [](const std::string& text, const std::string& what) {
        std::size_t n = 0;
        for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
            ++n;
        return n;
    };
    const int width = 760;
    const double plotW = width - 90 - 16; // the picture's margins
    // The worked example: 16 micro batches, every forward wide enough to be drawn (and pointed at) alone.
    const Scenario few = defaultScenario();
    const Timeline small = buildTimeline(few, evaluate(few));
    const std::string smallSvg = timelineChartSvg(small, width).svg;
    std::size_t wideForwards = 0;
    for (const TimelineEvent& e : small.events)
        wideForwards += e.kind == TimelineKind::Forward && e.microBatch >= 0 &&
                        e.seconds / small.makespanSeconds * plotW >= 2.0;
    LP_CHECK(wideForwards >= 16u * 4u - 4u);
    LP_CHECK_EQ(count(smallSvg, "<title>Forward, micro batch "), wideForwards);
    // 512 micro batches on 8 ranks: thousands of events, each a fraction of a pixel.
    Scenario many = few;
    many.layout.pp = 8;
    many.layout.dp = 1;
    many.layout.accumulation = 512;
    const Plan plan = evaluate(many);
    LP_CHECK(plan.valid);
    const Timeline tl = buildTimeline(many, plan);
    LP_CHECK(tl.events.size() > 10000u);
    const std::string svg = timelineChartSvg(tl, width).svg;
    const std::size_t rects = count(svg, "<rect");
    LP_CHECK(rects < tl.events.size() / 10);
    LP_CHECK(svg.size() < 300000u);
    LP_CHECK(count(svg, " events, micro batches ") > 0u); // merged blocks say what they hold
    // Blocks are split by share, so forward and backward both show on every rank's compute lane.
    LP_CHECK(count(svg, "fill=\"" + std::string(timelineKindColor(TimelineKind::Forward)) + "\"") >= 8u);
    LP_CHECK(count(svg, "fill=\"" + std::string(timelineKindColor(TimelineKind::Backward)) + "\"") >= 8u);
}

LP_TEST(chrome_trace_csv_and_svg_carry_every_event) {
    const Scenario s = piped("llama3.1-70b", 4, 2, 8, PipelineSchedule::OneFOneB);
    const Plan p = evaluate(s);
    const Timeline tl = buildTimeline(s, p);
    const nlohmann::json trace = nlohmann::json::parse(timelineChromeTrace(tl));
    LP_CHECK(trace.contains("traceEvents") && trace["traceEvents"].is_array());
    std::size_t complete = 0, names = 0;
    for (const nlohmann::json& e : trace["traceEvents"]) {
        LP_CHECK(e.contains("name") && e.contains("ph") && e.contains("pid") && e.contains("tid"));
        if (e["ph"] == "M") {
            names += e["name"] == "process_name" || e["name"] == "thread_name";
            continue;
        }
        LP_CHECK(e["ph"] == "X" && e["ts"].is_number() && e["dur"].is_number() && e["dur"].get<double>() > 0);
        LP_CHECK(e["args"].contains("micro_batch") && e["args"].contains("chunk") &&
                 e["args"].contains("formula"));
        ++complete;
    }
    LP_CHECK_EQ(complete, tl.events.size());
    LP_CHECK_EQ(names, 3 * tl.ranks.size());
    // The CSV: a header and one row per event, in order, with its rank and kind.
    const std::string csv = timelineCsv(tl);
    std::size_t rows = 0, at = csv.find('\n') + 1;
    for (std::size_t next; (next = csv.find('\n', at)) != std::string::npos; at = next + 1, ++rows) {
        const std::string row = csv.substr(at, next - at);
        const TimelineEvent& e = tl.events[rows];
        LP_CHECK(row.starts_with(std::to_string(e.rank) + ","));
        LP_CHECK(row.find("," + std::string(toString(e.kind)) + ",") != std::string::npos);
    }
    LP_CHECK_EQ(rows, tl.events.size());
    // The SVG: every element closed (a minimal well-formedness check: tags balance).
    const std::string svg = timelineChartSvg(tl).svg;
    int depth = 0;
    for (std::size_t i = svg.find('<'); i != std::string::npos; i = svg.find('<', i + 1)) {
        const std::size_t close = svg.find('>', i);
        LP_CHECK(close != std::string::npos);
        if (svg[i + 1] == '/')
            --depth;
        else if (svg[close - 1] != '/')
            ++depth;
        LP_CHECK(depth >= 0);
    }
    LP_CHECK_EQ(depth, 0);
    LP_CHECK(svg.find("Idle (bubble)") != std::string::npos);
    LP_CHECK(parseTimelineFormat("chrome-trace") == TimelineFormat::ChromeTrace);
    LP_CHECK(!parseTimelineFormat("pdf"));
}

LP_TEST_MAIN()
