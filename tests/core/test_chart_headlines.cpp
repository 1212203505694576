// The sentences over the Plan tab's memory and step-time charts, as the core words them.
#include "TestHarness.h"
#include "core/estimate/Evaluate.h"
#include "core/io/Presets.h"
#include "core/report/ChartHeadlines.h"
#include "core/util/NumberFormat.h"

using namespace lp::core;

namespace {
bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}
} // namespace

LP_TEST(a_plan_that_fits_names_its_worst_stage_and_headroom) {
    const Plan p = evaluate(defaultScenario());
    const MemoryPlan& m = p.memory;
    LP_CHECK(m.fits);
    const MemoryHeadline gib = memoryHeadline(m, MemoryUnit::GiB);
    LP_CHECK_EQ(gib.verdict, std::string("Fits."));
    const double share = m.headroomBytes / m.capacityBytes;
    LP_CHECK_EQ(gib.text, "Worst stage " + std::to_string(m.worstStage) + " uses " +
                              bytesIn(m.worstTotalBytes(), MemoryUnit::GiB, 1) + " of " +
                              bytesIn(m.capacityBytes, MemoryUnit::GiB, 1) + " usable: headroom " +
                              bytesIn(m.headroomBytes, MemoryUnit::GiB, 1) + " (" + fmt::percent(share, 0) +
                              ").");
    const MemoryHeadline gb = memoryHeadline(m, MemoryUnit::GB);
    LP_CHECK(contains(gb.text, " GB") && !contains(gb.text, "GiB"));
}

LP_TEST(a_plan_that_does_not_fit_says_by_how_much_and_its_largest_part) {
    Scenario s = defaultScenario();
    s.layout.tp = 1;
    s.layout.pp = 1;
    s.layout.dp = 64;
    const Plan p = evaluate(s);
    LP_CHECK(p.valid && !p.memory.fits);
    const MemoryHeadline h = memoryHeadline(p.memory, MemoryUnit::GiB);
    LP_CHECK_EQ(h.verdict, std::string("Does not fit:"));
    LP_CHECK(contains(h.text, bytesIn(-p.memory.headroomBytes, MemoryUnit::GiB, 1) + " ("));
    LP_CHECK(contains(h.text, "over; largest part: "));
}

LP_TEST(without_stages_there_is_no_plan_yet) {
    const MemoryHeadline h = memoryHeadline(MemoryPlan{}, MemoryUnit::GiB);
    LP_CHECK(h.verdict.empty());
    LP_CHECK_EQ(h.text, std::string("No plan yet."));
}

LP_TEST(offloading_says_what_stays_in_host_memory) {
    Scenario s = defaultScenario();
    s.training.optimizerOffload = true;
    const Plan p = evaluate(s);
    LP_CHECK(p.memory.hostBytesPerGpu > 0);
    LP_CHECK(contains(memoryHeadline(p.memory, MemoryUnit::GiB).text,
                      " CPU offloading keeps " + bytesIn(p.memory.hostBytesPerGpu, MemoryUnit::GiB, 1)));
}

LP_TEST(the_step_time_headline_names_the_bubble_and_the_exposed_communication) {
    const Plan p = evaluate(defaultScenario());
    const TimeBreakdown& t = p.time;
    const double exposed =
        t.tpCommSeconds + t.ppCommSeconds + t.cpCommSeconds + t.epCommSeconds + t.dpCommExposedSeconds;
    LP_CHECK(t.bubbleFraction > 0);
    LP_CHECK_EQ(stepTimeHeadline(t), "Step time " + fmt::duration(t.stepSeconds) +
                                         " per optimizer step · pipeline bubble " +
                                         fmt::percent(t.bubbleSeconds / t.stepSeconds) +
                                         " of the step · exposed "
                                         "communication " +
                                         fmt::percent(exposed / t.stepSeconds));
    TimeBreakdown noPipeline;
    noPipeline.stepSeconds = 2.0;
    LP_CHECK_EQ(stepTimeHeadline(noPipeline),
                std::string("Step time 2.000 s per optimizer step · exposed communication 0.0 %"));
    LP_CHECK_EQ(timeShareText(0.5, 2.0), std::string("500.0 ms · 25 %"));
    LP_CHECK_EQ(timeShareText(0.5, 0.0), std::string("500.0 ms · 0 %"));
}

LP_TEST_MAIN()
