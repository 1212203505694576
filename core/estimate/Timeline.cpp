// The step laid out in time from the plan's own stage figures (docs/estimation.md, "Pipeline timeline"): the
// schedule's order of forwards and backwards per rank is simulated with the dependencies between stages, then
// each rank's waits are scaled so that its pipeline phase spans the plan's closed-form pipeline time.
#include "core/estimate/Timeline.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>

namespace lp::core {
namespace {

// One forward or backward of one micro batch on one chunk of a rank (or a summary of the steady middle).
struct PipelineOp {
    bool backward = false;
    int microBatch = 0; // simulated index; -1 for a summary of the middle micro batches
    int chunk = 0;
    double seconds = 0;
    double start = 0;
};

struct ScheduleShape {
    int p = 1, v = 1, m = 1; // m: the micro batches simulated (at most kMaxTimelineMicroBatches)
    PipelineSchedule schedule = PipelineSchedule::OneFOneB;
};

// The order of a rank's forwards and backwards: Megatron-LM's interleaved order (groups of p micro batches,
// each through every chunk in turn; backwards through the chunks in reverse), with its warm-up count.
std::vector<PipelineOp> rankOrder(const ScheduleShape& sh, int rank) {
    std::vector<std::pair<int, int>> forwards, backwards; // (micro batch, chunk)
    for (int group = 0; group < sh.m; group += sh.p) {
        const int end = std::min(group + sh.p, sh.m);
        for (int c = 0; c < sh.v; ++c)
            for (int mb = group; mb < end; ++mb)
                forwards.emplace_back(mb, c);
        for (int c = sh.v - 1; c >= 0; --c)
            for (int mb = group; mb < end; ++mb)
                backwards.emplace_back(mb, c);
    }
    const int total = static_cast<int>(forwards.size());
    int warmup = total;
    if (sh.schedule != PipelineSchedule::GPipe)
        warmup = std::min(total, sh.v == 1 ? sh.p - rank - 1 : 2 * (sh.p - rank - 1) + (sh.v - 1) * sh.p);
    std::vector<PipelineOp> ops;
    ops.reserve(2 * forwards.size());
    int f = 0, b = 0;
    auto forward = [&] { ops.push_back({false, forwards[f].first, forwards[f].second, 0, 0}), ++f; };
    auto backward = [&] { ops.push_back({true, backwards[b].first, backwards[b].second, 0, 0}), ++b; };
    for (int i = 0; i < warmup; ++i)
        forward();
    while (f < total) {
        forward();
        backward();
    }
    while (b < total)
        backward();
    return ops;
}

// Starts every op as early as its rank and its dependency allow: a forward after the previous virtual stage's
// forward of the micro batch, a backward after the next one's backward. False on a deadlock.
bool simulate(const ScheduleShape& sh, std::vector<std::vector<PipelineOp>>& ranks) {
    const int stages = sh.p * sh.v;
    const auto index = [&](int stage, int mb) { return static_cast<std::size_t>(stage) * sh.m + mb; };
    std::vector<double> forwardEnd(static_cast<std::size_t>(stages) * sh.m, -1.0);
    std::vector<double> backwardEnd(forwardEnd.size(), -1.0);
    std::vector<std::size_t> next(ranks.size(), 0);
    std::vector<double> free(ranks.size(), 0.0);
    std::size_t remaining = 0;
    for (const auto& ops : ranks)
        remaining += ops.size();
    while (remaining > 0) {
        bool progress = false;
        for (std::size_t r = 0; r < ranks.size(); ++r) {
            for (; next[r] < ranks[r].size(); ++next[r], --remaining, progress = true) {
                PipelineOp& op = ranks[r][next[r]];
                const int stage = op.chunk * sh.p + static_cast<int>(r);
                double ready = 0;
                if (!op.backward && stage > 0)
                    ready = forwardEnd[index(stage - 1, op.microBatch)];
                else if (op.backward)
                    ready = stage == stages - 1 ? forwardEnd[index(stage, op.microBatch)]
                                                : backwardEnd[index(stage + 1, op.microBatch)];
                if (ready < 0)
                    break;
                op.start = std::max(free[r], ready);
                free[r] = op.start + op.seconds;
                (op.backward ? backwardEnd : forwardEnd)[index(stage, op.microBatch)] = free[r];
            }
        }
        if (!progress)
            return false;
    }
    return true;
}

struct RankSlots {
    double forward = 0, backward = 0; // one micro batch, one chunk, with its share of the communication
    double forwardShare = 0.5;        // of the layer communication and host time
};

RankSlots slotsOf(const StageTime& s, int v) {
    RankSlots slots;
    const double work = s.forwardSeconds + s.backwardSeconds + s.recomputeSeconds;
    slots.forwardShare = work > 0 ? s.forwardSeconds / work : 0.5;
    const double shared = s.layerCommSeconds + s.hostSeconds;
    slots.forward = (s.forwardSeconds + slots.forwardShare * shared + s.pipelineSendSeconds / 2.0) / v;
    slots.backward = s.totalSeconds / v - slots.forward;
    return slots;
}

// The events of one op: its compute, then its exposed communication and host time, then its send.
void emitOp(const PipelineOp& op, int label, const StageTime& s, const RankSlots& slots, int v, int rank,
            std::vector<TimelineEvent>& out) {
    double t = op.start;
    const auto add = [&](TimelineKind kind, double seconds) {
        if (seconds <= 0)
            return;
        out.push_back(
            {kind, TimelineLane::Compute, rank, label, op.microBatch < 0 ? -1 : op.chunk, t, seconds});
        t += seconds;
    };
    if (op.microBatch < 0) { // the summarised middle: one event for all its forwards or backwards
        add(op.backward ? TimelineKind::Backward : TimelineKind::Forward, op.seconds);
        return;
    }
    const double share = op.backward ? 1.0 - slots.forwardShare : slots.forwardShare;
    if (op.backward) {
        add(TimelineKind::Recompute, s.recomputeSeconds / v);
        add(TimelineKind::Backward, s.backwardSeconds / v);
    } else {
        add(TimelineKind::Forward, s.forwardSeconds / v);
    }
    add(TimelineKind::LayerComm, share * s.layerCommSeconds / v);
    add(TimelineKind::Host, share * s.hostSeconds / v);
    // The send takes the rest of the slot, so the op's events end exactly where the op does.
    const double end = op.start + op.seconds;
    if (s.pipelineSendSeconds > 0 && end > t)
        out.push_back({TimelineKind::PipelineSend, TimelineLane::Compute, rank, label, op.chunk, t, end - t});
}

// Where the summarised middle goes: before the first forward of the second half of the simulated micro
// batches (in the steady phase both halves' micro batches are in flight around it).
std::size_t middleIndex(const std::vector<PipelineOp>& ops, int half) {
    for (std::size_t i = 0; i < ops.size(); ++i)
        if (!ops[i].backward && ops[i].microBatch >= half && ops[i].chunk == 0)
            return i;
    return ops.size();
}

// Re-times one rank's ops: their order and durations stay, the waits between them are scaled so that the
// rank's pipeline phase ends at `pipeline` (docs/estimation.md, "Pipeline timeline").
void fitToPipeline(std::vector<PipelineOp>& ops, double simulatedEnd, double pipeline) {
    double busy = 0, waits = 0, cursor = 0;
    for (const PipelineOp& op : ops) {
        busy += op.seconds;
        waits += std::max(0.0, op.start - cursor);
        cursor = std::max(cursor, op.start) + op.seconds;
    }
    waits += std::max(0.0, simulatedEnd - cursor);
    const double scale = waits > 0 ? std::max(0.0, pipeline - busy) / waits : 0.0;
    double t = 0;
    cursor = 0;
    for (PipelineOp& op : ops) {
        const double wait = std::max(0.0, op.start - cursor);
        cursor = std::max(cursor, op.start) + op.seconds;
        t += wait * scale;
        op.start = t;
        t += op.seconds;
    }
}

// Activations held: a chunk's forward adds 1/v of a micro batch when it starts, its backward frees it when it
// ends; the summarised middle keeps the steady count.
void trackInFlight(const std::vector<PipelineOp>& ops, int v, TimelineRank& tr) {
    std::vector<std::pair<double, double>> changes; // (time, change), frees first at equal times
    for (const PipelineOp& op : ops)
        if (op.microBatch >= 0)
            changes.emplace_back(op.backward ? op.start + op.seconds : op.start,
                                 (op.backward ? -1.0 : 1.0) / v);
    std::sort(changes.begin(), changes.end());
    double held = 0;
    tr.inFlight.push_back({0.0, 0.0});
    for (const auto& [time, change] : changes) {
        held += change;
        if (std::abs(held) < 1e-12)
            held = 0;
        if (tr.inFlight.back().startSeconds == time)
            tr.inFlight.back().microBatches = held;
        else
            tr.inFlight.push_back({time, held});
        tr.peakInFlight = std::max(tr.peakInFlight, held);
    }
}

// Idle events for the waits inside the pipeline phase, and the busy and idle totals.
void fillIdle(Timeline& tl, int rank, std::size_t first, double pipeline) {
    TimelineRank& tr = tl.ranks[static_cast<std::size_t>(rank)];
    std::vector<TimelineEvent> idle;
    double cursor = 0;
    for (std::size_t i = first; i < tl.events.size(); ++i) {
        const TimelineEvent& e = tl.events[i];
        if (e.lane != TimelineLane::Compute)
            continue;
        tr.busySeconds += e.seconds;
        if (e.startSeconds > cursor)
            idle.push_back(
                {TimelineKind::Idle, TimelineLane::Compute, rank, -1, -1, cursor, e.startSeconds - cursor});
        cursor = std::max(cursor, e.endSeconds());
    }
    if (pipeline > cursor)
        idle.push_back({TimelineKind::Idle, TimelineLane::Compute, rank, -1, -1, cursor, pipeline - cursor});
    for (const TimelineEvent& e : idle)
        tr.idleSeconds += e.seconds;
    tl.events.insert(tl.events.end(), idle.begin(), idle.end());
}

// After the pipeline: the exposed data-parallel tail on the communication lane, then the optimizer step, the
// loader's wait and the straggler's, as the plan adds them to the step.
void appendStepEnd(const Plan& plan, int rank, double lastBackwardEnd, std::vector<TimelineEvent>& out) {
    const PipelineTime& pt = plan.pipeline;
    const double overlapped = std::min(pt.dataParallelOverlappedSeconds, lastBackwardEnd);
    if (overlapped > 0)
        out.push_back({TimelineKind::DataParallel, TimelineLane::Communication, rank, -1, -1,
                       lastBackwardEnd - overlapped, overlapped});
    double t = pt.seconds;
    if (pt.dataParallelTailSeconds > 0)
        out.push_back({TimelineKind::DataParallelExposed, TimelineLane::Communication, rank, -1, -1, t,
                       pt.dataParallelTailSeconds});
    t += pt.dataParallelTailSeconds;
    const std::array<std::pair<TimelineKind, double>, 3> tail{
        {{TimelineKind::Optimizer, plan.time.optimizerSeconds},
         {TimelineKind::Loader, plan.time.loaderSeconds},
         {TimelineKind::Straggler, plan.time.stragglerSeconds}}};
    for (const auto& [kind, seconds] : tail) {
        if (seconds > 0)
            out.push_back({kind, TimelineLane::Compute, rank, -1, -1, t, seconds});
        t += seconds;
    }
}

// The simulated ops of every rank with their durations, in the schedule's order; GPipe's order where the
// schedule's own would deadlock (interleaving with micro batches that do not fill the groups).
std::vector<std::vector<PipelineOp>> scheduledOps(ScheduleShape sh, const std::vector<RankSlots>& slots,
                                                  double& simulatedEnd) {
    std::vector<std::vector<PipelineOp>> ranks;
    for (int attempt = 0; attempt < 2; ++attempt) {
        ranks.clear();
        for (int r = 0; r < sh.p; ++r) {
            ranks.push_back(rankOrder(sh, r));
            for (PipelineOp& op : ranks.back())
                op.seconds = op.backward ? slots[static_cast<std::size_t>(r)].backward
                                         : slots[static_cast<std::size_t>(r)].forward;
        }
        if (simulate(sh, ranks))
            break;
        sh.schedule = PipelineSchedule::GPipe;
    }
    simulatedEnd = 0;
    for (const auto& ops : ranks)
        if (!ops.empty())
            simulatedEnd = std::max(simulatedEnd, ops.back().start + ops.back().seconds);
    return ranks;
}

} // namespace

std::string_view toString(TimelineKind kind) {
    switch (kind) {
    case TimelineKind::Forward:
        return "forward";
    case TimelineKind::Backward:
        return "backward";
    case TimelineKind::BackwardWeight:
        return "backward_weight";
    case TimelineKind::Recompute:
        return "recompute";
    case TimelineKind::PipelineSend:
        return "pipeline_send";
    case TimelineKind::LayerComm:
        return "layer_comm";
    case TimelineKind::DataParallel:
        return "data_parallel";
    case TimelineKind::DataParallelExposed:
        return "data_parallel_exposed";
    case TimelineKind::Optimizer:
        return "optimizer";
    case TimelineKind::Loader:
        return "loader";
    case TimelineKind::Host:
        return "host";
    case TimelineKind::Straggler:
        return "straggler";
    case TimelineKind::Idle:
        return "idle";
    }
    return "idle";
}

Timeline buildTimeline(const Scenario& scenario, const Plan& plan) {
    Timeline tl;
    const PipelineTime& pt = plan.pipeline;
    const int p = std::max(1, static_cast<int>(pt.stages.size()));
    const int m = std::max(1, static_cast<int>(std::lround(plan.intermediates.microbatches)));
    const int v = p > 1 ? std::max(1, plan.layout.vpp) : 1;
    tl.schedule = scenario.training.pipelineSchedule;
    tl.pipelineRanks = p;
    tl.microBatches = m;
    tl.virtualStages = v;
    tl.pipelineSeconds = pt.seconds;
    tl.bubbleSeconds = plan.time.bubbleSeconds;
    tl.makespanSeconds = plan.time.stepSeconds;
    if (pt.stages.empty())
        return tl;

    const ScheduleShape shape{p, v, std::min(m, kMaxTimelineMicroBatches), tl.schedule};
    const int half = shape.m / 2, skipped = m - shape.m;
    std::vector<RankSlots> slots;
    for (const StageTime& s : pt.stages)
        slots.push_back(slotsOf(s, v));
    double simulatedEnd = 0;
    auto ranks = scheduledOps(shape, slots, simulatedEnd);

    for (int r = 0; r < p; ++r) {
        std::vector<PipelineOp>& ops = ranks[static_cast<std::size_t>(r)];
        const RankSlots& slot = slots[static_cast<std::size_t>(r)];
        if (skipped > 0) { // the steady middle: its forwards, then its backwards, in one event each
            const auto at = ops.begin() + static_cast<std::ptrdiff_t>(middleIndex(ops, half));
            const double start = at == ops.end() ? simulatedEnd : at->start;
            ops.insert(at, {{false, -1, -1, skipped * v * slot.forward, start},
                            {true, -1, -1, skipped * v * slot.backward, start}});
        }
        fitToPipeline(ops, simulatedEnd, pt.seconds);
        TimelineRank tr;
        tr.rank = r;
        tr.layers = static_cast<int>(pt.stages[static_cast<std::size_t>(r)].layers);
        trackInFlight(ops, v, tr);
        tl.ranks.push_back(std::move(tr));

        const std::size_t first = tl.events.size();
        double lastBackwardEnd = 0;
        for (const PipelineOp& op : ops) {
            const int label =
                op.microBatch < 0 || op.microBatch < half ? op.microBatch : op.microBatch + skipped;
            emitOp(op, label, pt.stages[static_cast<std::size_t>(r)], slot, v, r, tl.events);
            if (op.backward)
                lastBackwardEnd = std::max(lastBackwardEnd, op.start + op.seconds);
        }
        fillIdle(tl, r, first, pt.seconds);
        appendStepEnd(plan, r, lastBackwardEnd, tl.events);
        std::stable_sort(
            tl.events.begin() + static_cast<std::ptrdiff_t>(first), tl.events.end(),
            [](const TimelineEvent& a, const TimelineEvent& b) { return a.startSeconds < b.startSeconds; });
    }
    return tl;
}

} // namespace lp::core
