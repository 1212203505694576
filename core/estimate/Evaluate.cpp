// evaluate(): scenario -> plan (docs/estimation.md). The layout checks and the diagnostics live here; the
// memory in detail/Memory.cpp, the step time in detail/StepTime.cpp.
#include "core/estimate/Evaluate.h"

#include "core/estimate/Collectives.h"
#include "core/estimate/ExecutionStyle.h"
#include "core/estimate/KeyFigures.h"
#include "core/estimate/detail/EvalContext.h"
#include "core/estimate/detail/Memory.h"
#include "core/estimate/detail/StepTime.h"
#include "core/io/Presets.h"
#include "core/model/Units.h"

#include <algorithm>
#include <cmath>
#include <memory>

namespace lp::core {

using detail::EvalContext;

namespace {

bool positiveFinite(double v) {
    return std::isfinite(v) && v > 0;
}

template <typename Figures> void addInvalid(std::vector<Diagnostic>& out, Figures figures) {
    out.push_back(makeDiagnostic(Severity::Error, 0, figures));
}

void checkLayoutInto(const Scenario& s, std::vector<Diagnostic>& out) {
    const ModelSpec& m = s.model;
    const Layout& l = s.layout;
    const ClusterSpec& c = s.cluster;
    const GpuSpec& g = c.gpu;
    // Sizes that must be positive (and sane) before anything can be divided by them.
    const bool sizesOk = m.layers > 0 && m.hidden > 0 && m.heads > 0 && m.kvHeads > 0 && m.ffnHidden > 0 &&
                         m.vocab > 0 && m.seqLen > 0 && (m.headSize > 0 || m.hidden % m.heads == 0) &&
                         m.kvHeads <= m.heads && m.heads % m.kvHeads == 0;
    const bool layoutOk = l.tp > 0 && l.pp > 0 && l.dp > 0 && l.cp > 0 && l.ep > 0 && l.etp >= 0 &&
                          l.vpp > 0 && l.microBatch > 0 && l.accumulation > 0;
    const bool clusterOk = c.nodes > 0 && c.gpusPerNode > 0 && c.nvlinkDomain > 0 &&
                           positiveFinite(g.peakFlops16) && positiveFinite(g.hbmBytes) &&
                           positiveFinite(g.hbmBandwidth) && positiveFinite(g.nvlinkBandwidth) &&
                           positiveFinite(g.networkBandwidth) && positiveFinite(g.hostLinkBandwidth) &&
                           positiveFinite(g.hostMemoryBandwidth) && positiveFinite(g.hostMemoryBytes) &&
                           std::isfinite(c.nvlinkLatencySeconds) && c.nvlinkLatencySeconds >= 0 &&
                           std::isfinite(c.networkLatencySeconds) && c.networkLatencySeconds >= 0;
    const TrainingOptions& t = s.training;
    const bool trainingOk =
        t.zeroStage >= 0 && t.zeroStage <= 3 && t.zeroShardDegree >= 0 &&
        positiveFinite(t.loaderTokensPerSecond) && std::isfinite(t.stragglerSlowdown) &&
        t.stragglerSlowdown >= 0 && t.stragglerSlowdown <= 100 && std::isfinite(t.allocatorReserveFraction) &&
        t.allocatorReserveFraction >= 0 && t.allocatorReserveFraction < 1 && std::isfinite(t.tokenBudget) &&
        t.tokenBudget >= 0 && std::isfinite(t.moeLoadImbalance) && t.moeLoadImbalance >= 1 &&
        t.moeLoadImbalance <= 100 && t.activationOffloadLayers >= 0 &&
        t.activationOffloadLayers <= std::max(0, m.layers);
    const bool moeOk =
        !m.isMoe() ||
        (m.moe.topK > 0 && m.moe.topK <= m.moe.experts && m.moe.expertFfnHidden > 0 && m.moe.moeLayers >= 0 &&
         m.moe.moeLayers <= m.layers && m.moe.sharedExperts >= 0 && std::isfinite(m.moe.capacityFactor) &&
         m.moe.capacityFactor > 0 && m.moe.groupLimit >= 0 && m.moe.routingGroupsFit());
    const bool mlaOk = m.attention != AttentionKind::Mla ||
                       (m.mla.qLoraRank >= 0 && m.mla.kvLoraRank > 0 && m.mla.qkNopeHeadDim > 0 &&
                        m.mla.qkRopeHeadDim >= 0 && m.mla.vHeadDim > 0);
    using diagnostic::InvalidPart;
    if (!sizesOk)
        addInvalid(out, diagnostic::InvalidValue{InvalidPart::Model});
    if (!layoutOk)
        addInvalid(out, diagnostic::InvalidValue{InvalidPart::Layout});
    if (!clusterOk)
        addInvalid(out, diagnostic::InvalidValue{InvalidPart::Cluster});
    if (!trainingOk)
        addInvalid(out, diagnostic::InvalidValue{InvalidPart::Training});
    if (!moeOk)
        addInvalid(out, diagnostic::InvalidValue{InvalidPart::Moe});
    if (!mlaOk || m.headSize < 0)
        addInvalid(out, diagnostic::InvalidValue{InvalidPart::Mla});
    if (!sizesOk || !layoutOk || !clusterOk)
        return;
    if (m.heads % l.tp != 0)
        addInvalid(out, diagnostic::HeadsNotDivisibleByTp{l.tp, m.heads});
    if (m.kvHeads % l.tp != 0 && m.heads % l.tp == 0)
        addInvalid(out, diagnostic::KvHeadsNotDivisibleByTp{l.tp, m.kvHeads});
    const long long chunks = static_cast<long long>(l.pp) * l.vpp;
    if (const bool counted = pipelineSplitCountsEmbeddingAndLoss(s); m.layers + (counted ? 2 : 0) < chunks)
        addInvalid(out, diagnostic::LayersNotDivisibleByPp{chunks, m.layers, counted});
    if (l.gpus() != c.gpus())
        addInvalid(out, diagnostic::GpuCountMismatch{l.gpus(), c.gpus()});
    if (l.vpp > 1 && l.accumulation % l.pp != 0)
        addInvalid(out, diagnostic::BatchNotDivisible{l.accumulation, l.pp});
    if (l.vpp > 1 && l.pp > 1 && t.pipelineSchedule == PipelineSchedule::GPipe)
        addInvalid(out, diagnostic::GpipeWithVirtualStages{l.vpp});
    if (l.cp > 1 && m.seqLen % (2 * l.cp) != 0)
        addInvalid(out, diagnostic::SeqNotDivisibleByCp{m.seqLen, 2 * l.cp});
    if (l.ep > 1 && (!m.isMoe() || m.moe.experts % l.ep != 0))
        addInvalid(out, diagnostic::ExpertsNotDivisibleByEp{l.ep, m.isMoe() ? m.moe.experts : 0});
    else if (m.isMoe() && expertTensorParallel(s) == 0)
        addInvalid(out,
                   diagnostic::EpDoesNotDivideDp{l.ep, l.etp, static_cast<long long>(l.tp) * l.cp * l.dp});
    if (t.zeroStage >= 1 && t.zeroShardDegree > 0 && t.zeroShardDegree < l.dp &&
        l.dp % t.zeroShardDegree != 0)
        addInvalid(out, diagnostic::ShardDegreeDoesNotDivideDp{t.zeroShardDegree, l.dp});
}

template <typename Figures> void addDiagnostic(Plan& p, Severity severity, double cost, Figures figures) {
    p.diagnostics.push_back(makeDiagnostic(severity, cost, figures));
}

// One data-parallel collective's ring, as the diagnostic quotes it.
diagnostic::DpRing dpRing(const Intermediates& im) {
    diagnostic::DpRing ring;
    ring.ranks = im.dpRingRanks;
    ring.chunkBytes = im.dpRingRanks > 0 ? im.dpMessageBytes / im.dpRingRanks : 0.0;
    ring.efficiency = im.dpNominalBandwidth > 0 ? im.dpBusBandwidth / im.dpNominalBandwidth : 0.0;
    ring.latencySeconds = im.dpRingLatencySeconds;
    ring.bandwidthSeconds = im.dpRingBandwidthSeconds;
    ring.gathersPerLayer = im.zero3GathersPerLayer;
    ring.treeHops = im.dpTreeHops;
    return ring;
}

// Hybrid sharding within the NVLink domain, when the shard group crosses it and such a degree exists
// (0: none).
long long hybridShardDegreeInDomain(const EvalContext& x) {
    const Layout& l = x.s.layout;
    const long long domain = x.s.cluster.nvlinkDomain;
    const long long inner = static_cast<long long>(l.tp) * l.cp;
    const long long nodeDegree = inner > 0 ? domain / inner : 0;
    const bool hybridHelps = x.zero >= 1 && inner * x.shardGroup > domain && nodeDegree >= 1 &&
                             nodeDegree < effectiveShardDegree(x.s) && l.dp % nodeDegree == 0;
    return hybridHelps ? nodeDegree : 0;
}

// What costs step time: slow links, the bubble, the loader, stragglers, exposed communication.
void diagnoseStepTime(const EvalContext& x, Plan& p) {
    const Layout& l = x.s.layout;
    const TimeBreakdown& t = p.time;
    const double step = t.stepSeconds;
    // The stated cards in words, for the diagnostics that quote them (written only when one is raised).
    const auto network = [&] { return networkDescription(x.s.cluster); };
    if (x.tpCrossesNodes)
        addDiagnostic(p, Severity::Warning, t.tpCommSeconds,
                      diagnostic::TpOverSlowLinks{l.tp, x.s.cluster.nvlinkDomain, network()});
    if (l.pp > 1 && t.bubbleFraction >= 0.05)
        addDiagnostic(p, t.bubbleFraction >= 0.25 ? Severity::Warning : Severity::Info, t.bubbleSeconds,
                      diagnostic::PipelineBubble{t.bubbleFraction, l.accumulation, bubbleShareOfStep(t),
                                                 x.s.training.pipelineSchedule});
    if (!x.s.training.loaderPrefetch && t.loaderSeconds > 0.01 * step)
        addDiagnostic(p, Severity::Warning, t.loaderSeconds, diagnostic::LoaderNotPrefetching{});
    if (x.s.training.stragglerSlowdown >= 0.02)
        addDiagnostic(p, Severity::Warning, t.stragglerSeconds,
                      diagnostic::Stragglers{x.s.training.stragglerSlowdown});
    if (x.shardingSharesNicWithTp)
        addDiagnostic(p, Severity::Warning, t.dpCommExposedSeconds,
                      diagnostic::ShardingTrafficContendsWithTp{network()});
    if (step > 0 && t.dpCommExposedSeconds > 0.10 * step)
        addDiagnostic(p, t.dpCommExposedSeconds > 0.25 * step ? Severity::Warning : Severity::Info,
                      t.dpCommExposedSeconds,
                      diagnostic::ExposedDpComm{t.dpCommExposedSeconds / step, hybridShardDegreeInDomain(x),
                                                dpRing(p.intermediates), x.dpCrossesNodes ? network() : ""});
    if (x.epCrossesNodes)
        addDiagnostic(p, Severity::Warning, t.epCommSeconds,
                      diagnostic::EpCrossesNodes{static_cast<int>(x.etp), l.ep, network()});
    if (x.moe && p.intermediates.tokensPerExpert < 256)
        addDiagnostic(p, Severity::Warning, 0,
                      diagnostic::SmallExpertBatches{p.intermediates.tokensPerExpert});
    if (l.cp > 1 && step > 0 && t.cpCommSeconds > 0.03 * step)
        addDiagnostic(p, t.cpCommSeconds > 0.10 * step ? Severity::Warning : Severity::Info, t.cpCommSeconds,
                      diagnostic::CpExchangeExposed{t.cpCommSeconds / step, x.seq / x.c,
                                                    p.intermediates.cpHidingTokens});
    if (x.cpCrossesNodes)
        addDiagnostic(p, t.cpCommSeconds > 0.03 * step ? Severity::Warning : Severity::Info, t.cpCommSeconds,
                      diagnostic::CpCrossesNodes{l.tp, l.cp, network()});
}

// A pipeline schedule's memory (GPipe) and whether the framework has it (docs/estimation.md, "Pipeline
// bubble").
void diagnosePipelineSchedule(const EvalContext& x, Plan& p) {
    const Layout& l = x.s.layout;
    const PipelineSchedule schedule = x.s.training.pipelineSchedule;
    if (l.pp <= 1 || schedule == PipelineSchedule::OneFOneB)
        return;
    if (x.style == ExecutionStyle::Megatron)
        addDiagnostic(p, Severity::Info, 0, diagnostic::ScheduleNotInFramework{schedule});
    const Intermediates& im = p.intermediates;
    const double oneFOneB = std::min(static_cast<double>(l.pp), x.m);
    if (schedule == PipelineSchedule::GPipe && x.m > oneFOneB) {
        const double extra =
            im.activationBytesPerLayer * im.activationLayersInFlight * (1.0 - oneFOneB / x.m);
        addDiagnostic(p, p.memory.fits ? Severity::Info : Severity::Warning, 0,
                      diagnostic::GpipeHoldsAllMicroBatches{l.accumulation, l.pp, extra});
    }
}

// How the layers split into pipeline stages.
void diagnosePipelineSplit(const EvalContext& x, Plan& p) {
    const int layers = x.s.model.layers, pp = x.s.layout.pp;
    if (x.unevenStages && pp > 1) {
        // The busiest rank sets the pace; an even split would give every rank U / PP of the split's units
        // (the layers, and with the embedding and the loss counted, those two as well).
        const double busiestUnits = x.layersOfRank(0) + (x.splitCountsEmbedLoss ? 1.0 : 0.0);
        addDiagnostic(p, Severity::Info,
                      x.m * p.intermediates.microbatchStageSeconds *
                          std::max(0.0, 1.0 - x.splitUnits / x.p / busiestUnits),
                      diagnostic::UnevenPipelineStages{layers, pp * x.s.layout.vpp, static_cast<int>(x.Ls)});
    }
    if (x.splitCountsEmbedLoss && !x.unevenStages)
        addDiagnostic(
            p, Severity::Info, 0,
            diagnostic::EmbeddingAndLossInPipelineSplit{layers, pp, static_cast<int>(x.layersOfRank(0))});
}

// What Megatron's unfused softmax fallback costs: the same plan timed with the fused kernel.
void diagnoseUnfusedSoftmax(const EvalContext& x, Plan& p) {
    EvalContext fused = x;
    fused.unfusedSoftmax = false;
    Plan q = p;
    detail::computeTime(fused, q);
    addDiagnostic(p, Severity::Info, std::max(0.0, p.time.stepSeconds - q.time.stepSeconds),
                  diagnostic::UnfusedSoftmax{x.b * x.a / x.t, x.s.model.seqLen});
}

// CPU offloading: its time, and host memory beyond the GPU's share of the host's (the node runs out of
// pinned host memory).
void diagnoseOffload(const EvalContext& x, Plan& p) {
    const TimeBreakdown& t = p.time;
    const double step = t.stepSeconds;
    const double optimizer = x.optimizerOffload ? t.optimizerSeconds : 0.0;
    if (const double offload = t.offloadSeconds + optimizer; step > 0 && offload > 0.05 * step)
        addDiagnostic(p, offload > 0.20 * step ? Severity::Warning : Severity::Info, offload,
                      diagnostic::CpuOffloadCost{offload / step, t.offloadSeconds, optimizer});
    if (const double host = p.memory.hostBytesPerGpu, share = x.s.cluster.gpu.hostMemoryBytes; host > share)
        addDiagnostic(p, Severity::Warning, 0,
                      diagnostic::HostMemoryExceeded{host, share, x.s.cluster.gpusPerNode});
}

// GPU memory: little headroom, or none.
void diagnoseMemory(Plan& p) {
    const MemoryPlan& mem = p.memory;
    if (mem.fits && mem.headroomBytes < 0.05 * mem.capacityBytes)
        addDiagnostic(p, Severity::Info, 0,
                      diagnostic::LittleMemoryHeadroom{mem.worstStage, mem.headroomBytes,
                                                       mem.headroomBytes / mem.capacityBytes});
    if (!mem.fits) {
        const StageMemory& w = mem.stages[static_cast<std::size_t>(mem.worstStage)];
        addDiagnostic(p, Severity::Warning, 0,
                      diagnostic::DoesNotFit{w.stage, mem.largestComponent, w.totalBytes, mem.capacityBytes});
    }
}

// FSDP under a pipeline: the stage's gathered weights and unsharded gradients when they are a large share of
// its memory, or the reduction after its last backward when it is a noticeable part of the step.
void diagnoseFsdpStageGathered(const EvalContext& x, Plan& p) {
    const MemoryPlan& mem = p.memory;
    const StageMemory& w = mem.stages[static_cast<std::size_t>(mem.worstStage)];
    const double share = (w.weightsBytes + w.gradientsBytes) / std::max(w.totalBytes, 1.0);
    const double step = p.time.stepSeconds, reduce = p.intermediates.fsdpBulkReduceSeconds;
    const double reduceShare = step > 0 ? reduce / step : 0.0;
    if (share < 0.4 && reduceShare < 0.03)
        return;
    const bool costly = !mem.fits || reduceShare >= 0.10;
    addDiagnostic(p, costly ? Severity::Warning : Severity::Info, reduce,
                  diagnostic::FsdpStageKeptGathered{w.stage, w.weightsBytes, w.gradientsBytes, w.totalBytes,
                                                    x.grads.reduceBytes, reduceShare});
}

void diagnose(const EvalContext& x, Plan& p) {
    diagnoseStepTime(x, p);
    diagnosePipelineSplit(x, p);
    diagnosePipelineSchedule(x, p);
    if (x.unfusedSoftmax)
        diagnoseUnfusedSoftmax(x, p);
    diagnoseOffload(x, p);
    if (x.fsdpStageGathered)
        diagnoseFsdpStageGathered(x, p);
    if (x.s.training.precision == Precision::Fp8 && !x.fp8) // asked for, but the GPU runs it in 16 bits
        addDiagnostic(p, Severity::Warning, 0, diagnostic::Fp8NotSupported{});
    if (attentionKernelFallsBack(x.s.training, x.prof.kernels))
        addDiagnostic(
            p, Severity::Warning, 0,
            diagnostic::AttentionKernelNotSupported{x.s.training.attentionKernel, x.attentionKernel});
    if (p.mfu < 0.20)
        addDiagnostic(p, Severity::Warning, 0, diagnostic::MfuBelow20{p.mfu});
    diagnoseMemory(p);
}

// The parameter count depends on the model alone, the same for every layout a search or a slider tries: each
// thread keeps its last answer (the whole model compared, its name included).
const ParameterCount& parametersOf(const ModelSpec& m) {
    thread_local ModelSpec lastModel;
    thread_local ParameterCount lastCount;
    thread_local bool counted = false;
    if (!counted || !(m == lastModel)) {
        lastCount = countParameters(m);
        lastModel = m;
        counted = true;
    }
    return lastCount;
}

} // namespace

std::vector<Diagnostic> checkLayout(const Scenario& s) {
    std::vector<Diagnostic> out;
    checkLayoutInto(s, out);
    return out;
}

Plan evaluate(const Scenario& s) {
    // Building a profile costs more than an evaluation: keep the last one per thread.
    thread_local GpuSpec cachedGpu;
    thread_local HardwareProfile cachedProfile;
    thread_local bool cached = false;
    if (!cached || !(cachedGpu == s.cluster.gpu)) {
        cachedProfile = builtinProfile(s.cluster.gpu);
        cachedGpu = s.cluster.gpu;
        cached = true;
    }
    return evaluate(s, cachedProfile);
}

namespace {

// Fills a plan that holds nothing yet (a new Plan, or one reset by evaluate(s, profile, out)).
void evaluateInto(const Scenario& s, const HardwareProfile& profile, Plan& p) {
    p.layout = s.layout;
    p.profileName = profile.name;
    p.style = resolvedStyle(s.training);
    checkLayoutInto(s, p.diagnostics);
    // Parameter counts and the yardsticks need only positive sizes.
    const bool sizesUsable =
        std::none_of(p.diagnostics.begin(), p.diagnostics.end(),
                     [](const Diagnostic& d) { return d.id == DiagnosticId::InvalidValue; });
    if (sizesUsable) {
        p.params = parametersOf(s.model);
        p.intermediates.bytesPerParamState = detail::stateBytesPerParam(s.training);
        p.trainingStateBytes = p.params.total * p.intermediates.bytesPerParamState;
        p.effectiveBatchSequences = s.layout.effectiveBatch();
        p.tokensPerStep = static_cast<double>(p.effectiveBatchSequences) * s.model.seqLen;
    }
    if (!p.diagnostics.empty())
        return; // invalid layout: nothing else is meaningful

    p.valid = true;
    EvalContext x(s, profile, p);
    detail::computeMemory(x, p);
    detail::computeTime(x, p);

    const double gpus = static_cast<double>(s.layout.gpus());
    const double peak = s.cluster.gpu.peakFlops16;
    const double step = p.time.stepSeconds;
    p.modelFlopsPerStep = p.intermediates.flopsPerTokenModel * p.tokensPerStep;
    p.hardwareFlopsPerStep = p.intermediates.flopsPerTokenHardware * p.tokensPerStep;
    p.mfu = p.modelFlopsPerStep / (step * gpus * peak);
    p.hfu = p.hardwareFlopsPerStep / (step * gpus * peak);
    p.mfu6nd = 6.0 * p.params.active * p.tokensPerStep / (step * gpus * peak);
    p.modelTflopsPerGpu = p.modelFlopsPerStep / (step * gpus) / kTera;
    p.hardwareTflopsPerGpu = p.hardwareFlopsPerStep / (step * gpus) / kTera;
    p.tokensPerSecond = p.tokensPerStep / step;
    p.tokensPerSecondPerGpu = p.tokensPerSecond / gpus;
    p.run = planRun(s, p);
    p.trainingSeconds = p.run.tokens / p.tokensPerSecond;
    p.gpuHours = p.trainingSeconds * gpus / 3600.0;
    p.intermediates.peakFlops = peak;
    diagnose(x, p);
    diagnoseRun(s, p.run, p.diagnostics);
}

} // namespace

Plan evaluate(const Scenario& s, const HardwareProfile& profile) {
    Plan p;
    evaluateInto(s, profile, p);
    return p;
}

void evaluate(const Scenario& s, const HardwareProfile& profile, Plan& out) {
    // A fresh plan that takes over out's buffers, emptied: their capacity stays.
    std::vector<StageMemory> memoryStages = std::move(out.memory.stages);
    std::vector<StageTime> timeStages = std::move(out.pipeline.stages);
    std::vector<Diagnostic> diagnostics = std::move(out.diagnostics);
    std::string profileName = std::move(out.profileName);
    memoryStages.clear();
    timeStages.clear();
    diagnostics.clear();
    profileName.clear();
    // Made anew in place: assigning Plan{} would build a temporary and copy it over.
    std::destroy_at(&out);
    std::construct_at(&out);
    out.memory.stages = std::move(memoryStages);
    out.pipeline.stages = std::move(timeStages);
    out.diagnostics = std::move(diagnostics);
    out.profileName = std::move(profileName);
    evaluateInto(s, profile, out);
}

} // namespace lp::core
