#pragma once
// What a plan warns about: each diagnostic's kind, severity, cost per step, and the figures its message
// quotes, one struct per kind with named fields (docs/estimation.md, "Diagnostics").
#include "core/model/Enums.h"
#include "core/util/NumberFormat.h"

#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace lp::core {

enum class DiagnosticId {
    // performance and memory
    TpOverSlowLinks,
    PipelineBubble,
    LoaderNotPrefetching,
    Stragglers,
    ShardingTrafficContendsWithTp,
    MfuBelow20,
    DoesNotFit,
    ExposedDpComm,
    EpCrossesNodes,
    SmallExpertBatches,
    CpExchangeExposed,
    CpCrossesNodes,
    UnevenPipelineStages,
    LittleMemoryHeadroom,
    EmbeddingAndLossInPipelineSplit,
    UnfusedSoftmax,
    Fp8NotSupported,
    AttentionKernelNotSupported,
    CpuOffloadCost,
    HostMemoryExceeded,
    FsdpStageKeptGathered,
    GpipeHoldsAllMicroBatches,
    ScheduleNotInFramework,
    // the run (docs/estimation.md, "Run length, cost and goodput")
    LongCheckpointWrite,
    LowGoodput,
    PastDeadline,
    // invalid layouts
    HeadsNotDivisibleByTp,
    KvHeadsNotDivisibleByTp,
    LayersNotDivisibleByPp,
    GpuCountMismatch,
    BatchNotDivisible,
    SeqNotDivisibleByCp,
    ExpertsNotDivisibleByEp,
    EpDoesNotDivideDp,
    ShardDegreeDoesNotDivideDp,
    GpipeWithVirtualStages,
    InvalidValue,
};
inline constexpr int kDiagnosticCount = static_cast<int>(DiagnosticId::InvalidValue) + 1;

std::string_view diagnosticIdString(DiagnosticId id); // stable id, e.g. "pipeline_bubble"
bool isInvalidLayoutId(DiagnosticId id);

enum class MemoryComponent; // Plan.h

// The figures each kind of diagnostic quotes, in the order of DiagnosticId (kId names the kind).
namespace diagnostic {

struct TpOverSlowLinks {
    static constexpr DiagnosticId kId = DiagnosticId::TpOverSlowLinks;
    int tp = 0;
    int nvlinkDomain = 0; // GPUs
    std::string network;  // the stated cards, "4 x 100 Gb/s Omni-Path per 8 GPUs" (empty: none stated)
};
struct PipelineBubble {
    static constexpr DiagnosticId kId = DiagnosticId::PipelineBubble;
    double bubbleFraction = 0; // (p-1)/(v*m): the bubble over the bubble-free pipeline time
    int microBatches = 0;
    double shareOfStep = 0;                                 // the bubble's share of the step
    PipelineSchedule schedule = PipelineSchedule::OneFOneB; // ZB-H1's bubble is smaller than (p-1)/(v*m)
};
struct LoaderNotPrefetching {
    static constexpr DiagnosticId kId = DiagnosticId::LoaderNotPrefetching;
};
struct Stragglers {
    static constexpr DiagnosticId kId = DiagnosticId::Stragglers;
    double slowdown = 0; // the slowest rank's, as a fraction
};
struct ShardingTrafficContendsWithTp {
    static constexpr DiagnosticId kId = DiagnosticId::ShardingTrafficContendsWithTp;
    std::string network; // the stated cards, "4 x 100 Gb/s Omni-Path per 8 GPUs" (empty: none stated)
};
struct MfuBelow20 {
    static constexpr DiagnosticId kId = DiagnosticId::MfuBelow20;
    double mfu = 0;
};
struct DoesNotFit {
    static constexpr DiagnosticId kId = DiagnosticId::DoesNotFit;
    int stage = 0;                      // the worst pipeline stage
    MemoryComponent largestComponent{}; // of that stage
    double totalBytes = 0;
    double capacityBytes = 0;
};
// What one ring collective of the data-parallel traffic spends its time on.
enum class RingCostDriver { Bandwidth, SmallChunks, Latency };
struct DpRing {
    int ranks = 0;
    double chunkBytes = 0;       // moved per ring step: the message over the ranks
    double efficiency = 0;       // achieved bus bandwidth over the link's nominal, at that chunk
    double latencySeconds = 0;   // the ring's n-1 steps of latency, per collective
    double bandwidthSeconds = 0; // the rest of one collective
    double gathersPerLayer = 0;  // ZeRO-3: weight all-gathers per layer pass (> 1: DeepSpeed's per module)
    int treeHops = 0;            // ZeRO 0's all-reduce on NCCL's tree: its hops of latency (0: a ring)
};
RingCostDriver ringCostDriver(const DpRing& ring);
struct ExposedDpComm {
    static constexpr DiagnosticId kId = DiagnosticId::ExposedDpComm;
    double shareOfStep = 0;
    long long hybridShardDegree = 0; // the shard degree that keeps sharding in the NVLink domain (0: none)
    DpRing ring;
    std::string network; // the stated cards, "4 x 100 Gb/s Omni-Path per 8 GPUs" where the ring crosses nodes
};
struct EpCrossesNodes {
    static constexpr DiagnosticId kId = DiagnosticId::EpCrossesNodes;
    int expertTp = 0; // in effect (auto resolved)
    int ep = 0;
    std::string network; // the stated cards, "4 x 100 Gb/s Omni-Path per 8 GPUs" (empty: none stated)
};
struct SmallExpertBatches {
    static constexpr DiagnosticId kId = DiagnosticId::SmallExpertBatches;
    double tokensPerExpert = 0; // per micro batch
};
struct CpExchangeExposed {
    static constexpr DiagnosticId kId = DiagnosticId::CpExchangeExposed;
    double shareOfStep = 0;
    double tokensPerRank = 0;
    double hidingTokens = 0; // tokens per rank above which the exchange hides (0: unknown)
};
struct CpCrossesNodes {
    static constexpr DiagnosticId kId = DiagnosticId::CpCrossesNodes;
    int tp = 0;
    int cp = 0;
    std::string network; // the stated cards, "4 x 100 Gb/s Omni-Path per 8 GPUs" (empty: none stated)
};
struct UnevenPipelineStages {
    static constexpr DiagnosticId kId = DiagnosticId::UnevenPipelineStages;
    int layers = 0;
    int chunks = 0; // PP x virtual stages
    int busiestRankLayers = 0;
};
struct LittleMemoryHeadroom {
    static constexpr DiagnosticId kId = DiagnosticId::LittleMemoryHeadroom;
    int stage = 0; // the worst pipeline stage
    double headroomBytes = 0;
    double headroomShare = 0; // of the capacity
};
struct EmbeddingAndLossInPipelineSplit {
    static constexpr DiagnosticId kId = DiagnosticId::EmbeddingAndLossInPipelineSplit;
    int layers = 0;
    int pp = 0;
    int firstRankLayers = 0; // beside the embedding (the last rank's beside the output layer alike)
};
struct UnfusedSoftmax {
    static constexpr DiagnosticId kId = DiagnosticId::UnfusedSoftmax;
    double rows = 0; // micro batch x heads per TP rank: the rows the softmax kernel sees
    int seqLen = 0;
};
struct Fp8NotSupported {
    static constexpr DiagnosticId kId = DiagnosticId::Fp8NotSupported;
};
struct AttentionKernelNotSupported {
    static constexpr DiagnosticId kId = DiagnosticId::AttentionKernelNotSupported;
    AttentionKernel asked = AttentionKernel::Auto; // what attention_kernel names
    AttentionKernel timed = AttentionKernel::Auto; // what the plan times instead
};
struct CpuOffloadCost {
    static constexpr DiagnosticId kId = DiagnosticId::CpuOffloadCost;
    double shareOfStep = 0;
    double activationCopySeconds = 0; // activation copies the compute does not hide
    double cpuOptimizerSeconds = 0;   // the optimizer on the CPU with its copies (0 without)
};
struct HostMemoryExceeded {
    static constexpr DiagnosticId kId = DiagnosticId::HostMemoryExceeded;
    double hostBytesPerGpu = 0;
    double hostShareBytes = 0; // the GPU's share of its host's memory
    int gpusPerNode = 0;
};
// FSDP under a pipeline keeps each stage's weights gathered and its gradients unsharded in the reduction
// dtype across the micro batches, and reduces them after the stage's last backward, exposed.
struct FsdpStageKeptGathered {
    static constexpr DiagnosticId kId = DiagnosticId::FsdpStageKeptGathered;
    int stage = 0;                    // the worst stage
    double weightsBytes = 0;          // its gathered weights
    double gradientsBytes = 0;        // its unsharded gradients
    double totalBytes = 0;            // its total
    double gradientBytesPerParam = 4; // the reduction dtype's
    double reduceShareOfStep = 0;     // the reduction after the last backward
};
// GPipe runs every forward before any backward: each stage holds all m micro batches' activations where 1F1B
// holds at most p on the first stage.
struct GpipeHoldsAllMicroBatches {
    static constexpr DiagnosticId kId = DiagnosticId::GpipeHoldsAllMicroBatches;
    int microBatches = 0;  // m, held on every stage
    int pp = 0;            // 1F1B's most on the first stage
    double extraBytes = 0; // the first stage's activations beyond 1F1B's
};
// A schedule the execution style's framework does not ship (Megatron-LM runs 1F1B only).
struct ScheduleNotInFramework {
    static constexpr DiagnosticId kId = DiagnosticId::ScheduleNotInFramework;
    PipelineSchedule schedule = PipelineSchedule::OneFOneB;
};
struct LongCheckpointWrite {
    static constexpr DiagnosticId kId = DiagnosticId::LongCheckpointWrite;
    double writeSeconds = 0;
    double intervalSeconds = 0;
    double share = 0; // of the interval
};
struct LowGoodput {
    static constexpr DiagnosticId kId = DiagnosticId::LowGoodput;
    double goodput = 0;
    double interruptionsPerDay = 0;
    double lostPerFailureSeconds = 0;
};
struct PastDeadline {
    static constexpr DiagnosticId kId = DiagnosticId::PastDeadline;
    double wallClockDays = 0;
    double deadlineDays = 0;
};
struct HeadsNotDivisibleByTp {
    static constexpr DiagnosticId kId = DiagnosticId::HeadsNotDivisibleByTp;
    int tp = 0;
    int heads = 0;
};
struct KvHeadsNotDivisibleByTp {
    static constexpr DiagnosticId kId = DiagnosticId::KvHeadsNotDivisibleByTp;
    int tp = 0;
    int kvHeads = 0;
};
struct LayersNotDivisibleByPp {
    static constexpr DiagnosticId kId = DiagnosticId::LayersNotDivisibleByPp;
    long long chunks = 0; // PP x virtual stages
    int layers = 0;
    bool countsEmbeddingAndLoss = false; // the split's units are the layers + 2
};
struct GpuCountMismatch {
    static constexpr DiagnosticId kId = DiagnosticId::GpuCountMismatch;
    long long layoutGpus = 0;
    long long clusterGpus = 0;
};
struct BatchNotDivisible {
    static constexpr DiagnosticId kId = DiagnosticId::BatchNotDivisible;
    int microBatches = 0; // accumulation steps
    int pp = 0;
};
struct SeqNotDivisibleByCp {
    static constexpr DiagnosticId kId = DiagnosticId::SeqNotDivisibleByCp;
    int seqLen = 0;
    int twiceCp = 0;
};
struct ExpertsNotDivisibleByEp {
    static constexpr DiagnosticId kId = DiagnosticId::ExpertsNotDivisibleByEp;
    int ep = 0;
    int experts = 0; // 0: a dense model
};
struct EpDoesNotDivideDp {
    static constexpr DiagnosticId kId = DiagnosticId::EpDoesNotDivideDp;
    int ep = 0;
    int expertTp = 0;     // the expert TP asked for (0: auto, and even expert TP 1 does not fit)
    long long tpCpDp = 0; // TP x CP x DP
};
struct ShardDegreeDoesNotDivideDp {
    static constexpr DiagnosticId kId = DiagnosticId::ShardDegreeDoesNotDivideDp;
    int shardDegree = 0;
    int dp = 0;
};
struct GpipeWithVirtualStages {
    static constexpr DiagnosticId kId = DiagnosticId::GpipeWithVirtualStages;
    int vpp = 0;
};
// Where a value is out of range; the numbers are the "code" the message prints.
enum class InvalidPart { Model = 1, Layout, Cluster, Training, Moe, Mla };
struct InvalidValue {
    static constexpr DiagnosticId kId = DiagnosticId::InvalidValue;
    InvalidPart part = InvalidPart::Model;
};

} // namespace diagnostic

using DiagnosticFigures = std::variant<
    diagnostic::TpOverSlowLinks, diagnostic::PipelineBubble, diagnostic::LoaderNotPrefetching,
    diagnostic::Stragglers, diagnostic::ShardingTrafficContendsWithTp, diagnostic::MfuBelow20,
    diagnostic::DoesNotFit, diagnostic::ExposedDpComm, diagnostic::EpCrossesNodes,
    diagnostic::SmallExpertBatches, diagnostic::CpExchangeExposed, diagnostic::CpCrossesNodes,
    diagnostic::UnevenPipelineStages, diagnostic::LittleMemoryHeadroom,
    diagnostic::EmbeddingAndLossInPipelineSplit, diagnostic::UnfusedSoftmax, diagnostic::Fp8NotSupported,
    diagnostic::AttentionKernelNotSupported, diagnostic::CpuOffloadCost, diagnostic::HostMemoryExceeded,
    diagnostic::FsdpStageKeptGathered, diagnostic::GpipeHoldsAllMicroBatches,
    diagnostic::ScheduleNotInFramework, diagnostic::LongCheckpointWrite, diagnostic::LowGoodput,
    diagnostic::PastDeadline, diagnostic::HeadsNotDivisibleByTp, diagnostic::KvHeadsNotDivisibleByTp,
    diagnostic::LayersNotDivisibleByPp, diagnostic::GpuCountMismatch, diagnostic::BatchNotDivisible,
    diagnostic::SeqNotDivisibleByCp, diagnostic::ExpertsNotDivisibleByEp, diagnostic::EpDoesNotDivideDp,
    diagnostic::ShardDegreeDoesNotDivideDp, diagnostic::GpipeWithVirtualStages, diagnostic::InvalidValue>;

struct Diagnostic {
    DiagnosticId id{};
    Severity severity = Severity::Info;
    double costSeconds = 0;    // time per step it costs (0 where not a time cost)
    DiagnosticFigures figures; // what the message quotes: the struct of kind `id`
};

// A diagnostic of the kind its figures name.
template <typename Figures>
Diagnostic makeDiagnostic(Severity severity, double costSeconds, Figures figures) {
    return Diagnostic{Figures::kId, severity, costSeconds, DiagnosticFigures{figures}};
}

// Human words for a diagnostic: what is wrong and what it costs, and the change to make.
// Memory in `unit` ("Does not fit: pipeline stage 0 needs 83.5 GiB of the GPU's 79.2 GiB; ...").
std::string diagnosticMessage(const Diagnostic& d, MemoryUnit unit = MemoryUnit::GiB);
std::string diagnosticSuggestion(const Diagnostic& d);

// The severity a view marks a diagnostic with: its own, except that a plan that does not fit is shown with
// the errors (the job would die of out-of-memory) though its layout is valid.
Severity shownSeverity(const Diagnostic& d);
// The diagnostics in the order every view lists them: by shown severity, errors first; within one the
// costliest first (time per step); ties in the order evaluate() found them.
std::vector<const Diagnostic*> orderedDiagnostics(const std::vector<Diagnostic>& diagnostics);

} // namespace lp::core
