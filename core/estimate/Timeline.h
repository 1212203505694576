#pragma once
// The step laid out in time: events per pipeline rank of one data-parallel replica, built from the plan's own
// figures, so the timeline and the step-time breakdown are one model (docs/estimation.md, "Pipeline
// timeline").
#include "core/estimate/Plan.h"
#include "core/model/Scenario.h"

#include <string>
#include <string_view>
#include <vector>

namespace lp::core {

enum class TimelineKind {
    Forward,
    Backward,            // the whole backward; under ZB-H1 only its input-gradient half
    BackwardWeight,      // ZB-H1's weight-gradient half, scheduled into the bubble
    Recompute,           // the forward re-run before a backward (full or selective recompute)
    PipelineSend,        // point-to-point activations or gradients between stages
    LayerComm,           // TP / CP / EP communication inside the layers that is not hidden
    DataParallel,        // the data-parallel reduction (or ZeRO-3 gathers) overlapped with the backward
    DataParallelExposed, // ... and its tail that nothing hides
    Optimizer,
    Loader,    // waiting for the data loader
    Host,      // host overhead: launches not hidden behind GPU work
    Straggler, // waiting for the slowest data-parallel replica
    Idle,      // the pipeline bubble (fill, drain, and waits between stages)
};
enum class TimelineLane { Compute, Communication };

struct TimelineEvent {
    TimelineKind kind = TimelineKind::Idle;
    TimelineLane lane = TimelineLane::Compute;
    int rank = 0;        // pipeline rank, 0 .. pp-1
    int microBatch = -1; // 0 .. m-1; -1: not one micro batch's (reduction, optimizer, loader, idle...)
    int chunk = -1;      // virtual stage on this rank, 0 .. vpp-1; -1: none
    double startSeconds = 0;
    double seconds = 0;
    double endSeconds() const { return startSeconds + seconds; }
};

// From startSeconds until the next step, the rank holds the activations of this many micro batches of its
// whole stage (a chunk of an interleaved rank counts 1/vpp).
struct InFlightStep {
    double startSeconds = 0;
    double microBatches = 0;
};

struct TimelineRank {
    int rank = 0;
    int layers = 0;
    std::vector<InFlightStep> inFlight;
    double peakInFlight = 0; // the most micro batches held at once; the memory model charges the same
    double busySeconds = 0;  // compute-lane events other than Idle
    double idleSeconds = 0;  // Idle events inside the pipeline phase
};

struct Timeline {
    PipelineSchedule schedule = PipelineSchedule::OneFOneB;
    int pipelineRanks = 1;
    int microBatches = 1;
    int virtualStages = 1;
    std::vector<TimelineEvent> events; // by rank, then by start
    std::vector<TimelineRank> ranks;
    double pipelineSeconds = 0; // first forward to last backward (the plan's m x slowest stage + bubble)
    double bubbleSeconds = 0;   // the plan's bubble: idle of the slowest rank inside the pipeline phase
    double makespanSeconds = 0; // first forward to the end of the optimizer step: the plan's step time
    bool fits = true;           // the plan fits its GPUs' memory: a run that could start
};

std::string_view toString(TimelineKind kind); // "forward", "backward", ... (trace and CSV names)
// The words for an event kind that the window, the trace and the reports share: its title ("Forward"), what
// its duration is made of in one sentence, and the formula behind it.
std::string_view timelineKindTitle(TimelineKind kind);
std::string_view timelineKindMeaning(TimelineKind kind);
std::string_view timelineFormula(TimelineKind kind);
// The schedule as the timeline's headings name it: "1F1B", "interleaved 1F1B, 2 chunks per rank", "GPipe",
// "zero-bubble (ZB-H1)".
std::string scheduleTitle(PipelineSchedule schedule, int virtualStages);
// "PP 4, 16 micro batches, 1F1B. Step 4.869 s, bubble 735.2 ms (15.1 % of the step)": the window's lane
// heading and the reports' sentence under the picture.
std::string timelineSummary(const Timeline& timeline);

// The timeline of `plan` (evaluated from `scenario`). Above kMaxTimelineMicroBatches micro batches the
// steady middle is summarised: the first and last micro batches are laid out, the makespan stays exact.
inline constexpr int kMaxTimelineMicroBatches = 256;
Timeline buildTimeline(const Scenario& scenario, const Plan& plan);

} // namespace lp::core
