// The step laid out in time from the plan's own stage figures (docs/estimation.md, "Pipeline timeline"): the
// schedule's order of forwards and backwards per rank is simulated with the dependencies between stages, then
// each rank's waits are scaled so that its pipeline phase spans the plan's closed-form pipeline time.
#include "core/estimate/Timeline.h"

#include "core/util/NumberFormat.h"

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
    bool weight = false; // ZB-H1: the weight-gradient half of a backward, run apart from it
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
            double weightSeconds, std::vector<TimelineEvent>& out) {
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
    if (op.weight) {
        add(TimelineKind::BackwardWeight, op.seconds);
        return;
    }
    const double share = op.backward ? 1.0 - slots.forwardShare : slots.forwardShare;
    if (op.backward) {
        add(TimelineKind::Recompute, s.recomputeSeconds / v);
        add(TimelineKind::Backward, s.backwardSeconds / v - weightSeconds);
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
    // ZB-H1's weight gradients keep only the linear layers' inputs, which the memory model does not count
    // apart (Qi et al. 2024 hold ZB-H1 at 1F1B's peak): the input-gradient backward frees the micro batch.
    for (const PipelineOp& op : ops)
        if (op.microBatch >= 0 && !op.weight)
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

// ZB-H1 (Qi et al. 2024) as a list schedule: whenever a rank is free it runs, in this order of preference, a
// backward (input gradient) whose successor's is done, a forward whose predecessor's is done while it holds
// fewer micro batches than 1F1B lets it (p - rank per chunk round), or a weight gradient left over from an
// earlier backward; otherwise it waits. The weight gradients thus fill what would be the bubble. Ops are
// placed earliest first across the ranks, so an op not yet placed cannot end before the one being placed
// starts. False on a deadlock.
bool simulateZeroBubble(const ScheduleShape& sh, const std::vector<RankSlots>& slots,
                        const std::vector<double>& weightSeconds,
                        std::vector<std::vector<PipelineOp>>& ranks) {
    const int stages = sh.p * sh.v;
    const auto index = [&](int stage, int mb) { return static_cast<std::size_t>(stage) * sh.m + mb; };
    std::vector<double> forwardEnd(static_cast<std::size_t>(stages) * sh.m, -1.0);
    std::vector<double> backwardEnd(forwardEnd.size(), -1.0);
    struct RankState {
        std::vector<PipelineOp> forwards, backwards; // in the rank's 1F1B order
        std::size_t f = 0, b = 0;
        std::vector<PipelineOp> weights; // pending, oldest first
        double free = 0, held = 0;
        int limit = 1;
    };
    std::vector<RankState> state(static_cast<std::size_t>(sh.p));
    for (int r = 0; r < sh.p; ++r) {
        RankState& rs = state[static_cast<std::size_t>(r)];
        for (const PipelineOp& op : rankOrder(sh, r))
            (op.backward ? rs.backwards : rs.forwards).push_back(op);
        rs.limit = sh.v == 1 ? sh.p - r : 2 * (sh.p - r - 1) + (sh.v - 1) * sh.p + 1;
        ranks[static_cast<std::size_t>(r)].clear();
    }
    const auto readyAt = [&](int r, const PipelineOp& op) {
        const int stage = op.chunk * sh.p + r;
        if (!op.backward)
            return stage > 0 ? forwardEnd[index(stage - 1, op.microBatch)] : 0.0;
        return stage == stages - 1 ? forwardEnd[index(stage, op.microBatch)]
                                   : backwardEnd[index(stage + 1, op.microBatch)];
    };
    const auto run = [&](int r, PipelineOp op, double start, double seconds) {
        RankState& rs = state[static_cast<std::size_t>(r)];
        op.start = start;
        op.seconds = seconds;
        rs.free = start + seconds;
        if (!op.weight) {
            const int stage = op.chunk * sh.p + r;
            (op.backward ? backwardEnd : forwardEnd)[index(stage, op.microBatch)] = rs.free;
        }
        ranks[static_cast<std::size_t>(r)].push_back(op);
    };
    // Each round runs the op that can start earliest of all the ranks': at a rank's free time when it has one
    // ready there (or a weight gradient left), else at its earliest known dependency.
    for (;;) {
        int r = -1;
        double at = 0;
        for (int i = 0; i < sh.p; ++i) {
            RankState& rs = state[static_cast<std::size_t>(i)];
            double when = -1;
            if (!rs.weights.empty())
                when = rs.free;
            if (rs.b < rs.backwards.size())
                if (const double t = readyAt(i, rs.backwards[rs.b]); t >= 0)
                    when = when < 0 ? std::max(t, rs.free) : std::min(when, std::max(t, rs.free));
            if (rs.f < rs.forwards.size() && rs.held < rs.limit)
                if (const double t = readyAt(i, rs.forwards[rs.f]); t >= 0)
                    when = when < 0 ? std::max(t, rs.free) : std::min(when, std::max(t, rs.free));
            if (when >= 0 && (r < 0 || when < at))
                r = i, at = when;
        }
        if (r < 0) {
            for (const RankState& rs : state)
                if (rs.f < rs.forwards.size() || rs.b < rs.backwards.size() || !rs.weights.empty())
                    return false; // nothing can start: a deadlock
            return true;
        }
        RankState& rs = state[static_cast<std::size_t>(r)];
        rs.free = at;
        const RankSlots& slot = slots[static_cast<std::size_t>(r)];
        const double w = weightSeconds[static_cast<std::size_t>(r)];
        const bool backwardNow = rs.b < rs.backwards.size() && readyAt(r, rs.backwards[rs.b]) >= 0 &&
                                 readyAt(r, rs.backwards[rs.b]) <= at;
        const bool forwardNow = rs.f < rs.forwards.size() && rs.held < rs.limit &&
                                readyAt(r, rs.forwards[rs.f]) >= 0 && readyAt(r, rs.forwards[rs.f]) <= at;
        if (backwardNow) {
            PipelineOp op = rs.backwards[rs.b++];
            run(r, op, at, slot.backward - w);
            --rs.held;
            op.weight = true;
            rs.weights.push_back(op);
        } else if (forwardNow) {
            run(r, rs.forwards[rs.f++], at, slot.forward);
            ++rs.held;
        } else {
            run(r, rs.weights.front(), at, w);
            rs.weights.erase(rs.weights.begin());
        }
    }
}

// The simulated ops of every rank with their durations, in the schedule's order; GPipe's order where the
// schedule's own would deadlock (interleaving with micro batches that do not fill the groups).
std::vector<std::vector<PipelineOp>> scheduledOps(ScheduleShape sh, const std::vector<RankSlots>& slots,
                                                  const std::vector<double>& weightSeconds,
                                                  double& simulatedEnd) {
    std::vector<std::vector<PipelineOp>> ranks(static_cast<std::size_t>(sh.p));
    if (sh.schedule == PipelineSchedule::ZeroBubbleH1 && !simulateZeroBubble(sh, slots, weightSeconds, ranks))
        sh.schedule = PipelineSchedule::OneFOneB;
    for (int attempt = 0; attempt < 2 && sh.schedule != PipelineSchedule::ZeroBubbleH1; ++attempt) {
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

std::string_view timelineKindTitle(TimelineKind kind) {
    switch (kind) {
    case TimelineKind::Forward:
        return "Forward";
    case TimelineKind::Backward:
        return "Backward";
    case TimelineKind::BackwardWeight:
        return "Backward (weights)";
    case TimelineKind::Recompute:
        return "Recompute";
    case TimelineKind::PipelineSend:
        return "Pipeline send";
    case TimelineKind::LayerComm:
        return "Layer communication";
    case TimelineKind::DataParallel:
        return "Data-parallel reduction (overlapped)";
    case TimelineKind::DataParallelExposed:
        return "Data-parallel reduction (exposed)";
    case TimelineKind::Optimizer:
        return "Optimizer step";
    case TimelineKind::Loader:
        return "Data loader";
    case TimelineKind::Host:
        return "Host overhead";
    case TimelineKind::Straggler:
        return "Straggler wait";
    case TimelineKind::Idle:
        return "Idle (bubble)";
    }
    return "";
}

std::string_view timelineKindMeaning(TimelineKind kind) {
    switch (kind) {
    case TimelineKind::Forward:
        return "One micro batch's forward through this stage: its share of the plan's compute time per micro "
               "batch and stage.";
    case TimelineKind::Backward:
        return "One micro batch's backward through this stage (about twice its forward).";
    case TimelineKind::BackwardWeight:
        return "The weight-gradient half of the backward, moved into the bubble (zero-bubble schedule).";
    case TimelineKind::Recompute:
        return "The forward re-run before the backward, as the recompute setting asks.";
    case TimelineKind::PipelineSend:
        return "Activations or gradients sent point to point to the next stage.";
    case TimelineKind::LayerComm:
        return "Tensor, context or expert parallel communication inside the layers that nothing hides.";
    case TimelineKind::DataParallel:
        return "The data-parallel gradient reduction, overlapped with the backward.";
    case TimelineKind::DataParallelExposed:
        return "The data-parallel reduction's tail that no backward hides.";
    case TimelineKind::Optimizer:
        return "The optimizer step over this stage's parameters.";
    case TimelineKind::Loader:
        return "Waiting for the data loader.";
    case TimelineKind::Host:
        return "Host overhead: kernel launches not hidden behind GPU work.";
    case TimelineKind::Straggler:
        return "Waiting for the slowest data-parallel replica.";
    case TimelineKind::Idle:
        return "The pipeline bubble: this rank waits for a neighbouring stage's forward or backward.";
    }
    return "";
}

std::string_view timelineFormula(TimelineKind kind) {
    switch (kind) {
    case TimelineKind::Forward:
        return "layers of the chunk x forward per layer (+ 1/3 of the embedding or output layer)";
    case TimelineKind::Backward:
        return "layers of the chunk x backward per layer (+ 2/3 of the embedding or output layer)";
    case TimelineKind::BackwardWeight:
        return "the weight-gradient half of the backward";
    case TimelineKind::Recompute:
        return "layers recomputed x forward per layer";
    case TimelineKind::PipelineSend:
        return "activations or gradients b x s x h / t between stages, not hidden";
    case TimelineKind::LayerComm:
        return "TP, CP, EP and ZeRO-3 traffic of the chunk's layers beyond what overlaps";
    case TimelineKind::DataParallel:
        return "gradient reduction hidden behind the backward";
    case TimelineKind::DataParallelExposed:
        return "data-parallel traffic beyond the backward it overlaps";
    case TimelineKind::Optimizer:
        return "optimizer state bytes / memory bandwidth";
    case TimelineKind::Loader:
        return "b x m x s / loader tokens per second, beyond the pipeline";
    case TimelineKind::Host:
        return "kernel launches the GPU work does not hide";
    case TimelineKind::Straggler:
        return "step x straggler slowdown";
    case TimelineKind::Idle:
        return "pipeline bubble: (sum of stages - slowest) / v on the slowest rank (ZB-H1: x (1 - 2 T_W / "
               "t_mb))";
    }
    return "";
}

std::string scheduleTitle(PipelineSchedule schedule, int virtualStages) {
    switch (schedule) {
    case PipelineSchedule::GPipe:
        return "GPipe";
    case PipelineSchedule::ZeroBubbleH1:
        return "zero-bubble (ZB-H1)";
    case PipelineSchedule::OneFOneB:
        break;
    }
    return virtualStages > 1 ? "interleaved 1F1B, " + std::to_string(virtualStages) + " chunks per rank"
                             : "1F1B";
}

std::string timelineSummary(const Timeline& tl) {
    const double bubbleShare = tl.makespanSeconds > 0 ? tl.bubbleSeconds / tl.makespanSeconds : 0;
    return "PP " + std::to_string(tl.pipelineRanks) + ", " + std::to_string(tl.microBatches) +
           " micro batch" + (tl.microBatches == 1 ? "" : "es") + ", " +
           scheduleTitle(tl.schedule, tl.virtualStages) + ". Step " + fmt::duration(tl.makespanSeconds) +
           ", bubble " + fmt::duration(tl.bubbleSeconds) + " (" + fmt::percent(bubbleShare) +
           " of the step)" + (tl.fits ? "" : ". The layout does not fit its GPUs' memory: it could not run");
}

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
    tl.fits = plan.memory.fits;
    if (pt.stages.empty())
        return tl;

    const ScheduleShape shape{p, v, std::min(m, kMaxTimelineMicroBatches), tl.schedule};
    const int half = shape.m / 2, skipped = m - shape.m;
    std::vector<RankSlots> slots;
    std::vector<double> weightSeconds; // ZB-H1: each rank's weight gradients of one micro batch and chunk
    const Intermediates& im = plan.intermediates;
    for (const StageTime& s : pt.stages) {
        slots.push_back(slotsOf(s, v));
        const double share =
            im.stageBackwardSeconds > 0 ? im.backwardWeightSeconds / im.stageBackwardSeconds : 0.0;
        weightSeconds.push_back(std::min(share * s.backwardSeconds, s.backwardSeconds) / v);
    }
    double simulatedEnd = 0;
    auto ranks = scheduledOps(shape, slots, weightSeconds, simulatedEnd);
    const bool weightsApart = std::ranges::any_of(ranks, [](const std::vector<PipelineOp>& ops) {
        return std::ranges::any_of(ops, [](const PipelineOp& op) { return op.weight; });
    });

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
            emitOp(op, label, pt.stages[static_cast<std::size_t>(r)], slot, v, r,
                   weightsApart ? weightSeconds[static_cast<std::size_t>(r)] : 0.0, tl.events);
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
