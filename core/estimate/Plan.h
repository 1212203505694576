#pragma once
// What evaluate() returns: memory per pipeline stage, the step-time breakdown, MFU and friends,
// diagnostics, and the intermediate values the explanations quote.
#include "core/estimate/Diagnostic.h"
#include "core/estimate/RunPlan.h"
#include "core/model/Enums.h"
#include "core/model/ModelSpec.h"
#include "core/model/Scenario.h"

#include <array>
#include <string>
#include <string_view>
#include <vector>

namespace lp::core {

enum class MemoryComponent { Weights, Gradients, Optimizer, Activations, Overhead };

struct StageMemory {
    int stage = 0;
    int layers = 0;
    double weightsBytes = 0;
    double gradientsBytes = 0;
    double optimizerBytes = 0;
    double activationsBytes = 0; // incl. logits on the last stage
    double overheadBytes = 0;    // CUDA context, comm buffers, allocator reserve, ZeRO-3 gathers
    double totalBytes = 0;
    double hostBytes = 0; // CPU offloading: what this stage's GPU keeps in host memory instead
};

struct MemoryPlan {
    std::vector<StageMemory> stages;
    int worstStage = 0;
    double capacityBytes = 0;
    double headroomBytes = 0; // capacity - worst total (negative: overflow)
    bool fits = false;
    MemoryComponent largestComponent = MemoryComponent::Weights; // of the worst stage
    double hostBytesPerGpu = 0;   // CPU offloading: the most any GPU keeps in host memory
    double hostCapacityBytes = 0; // ... and the GPU's share of its host's memory

    // The stage that needs the most memory (nullptr without stages) and its total bytes (0 then).
    const StageMemory* worst() const;
    double worstTotalBytes() const;
};

struct TimeBreakdown {
    double stepSeconds = 0;
    double computeSeconds = 0; // forward + backward GEMMs and memory-bound kernels (no recompute)
    double recomputeSeconds = 0;
    double tpCommSeconds = 0;
    double ppCommSeconds = 0;
    double cpCommSeconds = 0;
    double epCommSeconds = 0;
    double bubbleSeconds = 0;
    double bubbleFraction = 0;                              // bubble / ideal pipeline time
    PipelineSchedule schedule = PipelineSchedule::OneFOneB; // the schedule the bubble is of
    double dpCommExposedSeconds = 0;
    double optimizerSeconds = 0;
    double loaderSeconds = 0;
    double stragglerSeconds = 0;
    double overheadSeconds = 0; // host-side launch overhead not hidden behind GPU work
    double offloadSeconds = 0;  // activation offloading's copies to and from host memory, not hidden
};

// One micro batch through one pipeline rank (all its virtual stages), split as the step time splits it; the
// parts add up to totalSeconds, the plan's stage time (docs/estimation.md, "Pipeline timeline").
struct StageTime {
    int rank = 0;
    double layers = 0;
    double forwardSeconds = 0;  // the layers' forward passes and 1/3 of the embedding or output layer's work
    double backwardSeconds = 0; // the layers' backward passes and the other 2/3
    double recomputeSeconds = 0;
    double layerCommSeconds = 0; // exposed TP, CP, EP, ZeRO-3 gathers and activation offload copies
    double pipelineSendSeconds = 0;
    double hostSeconds = 0;  // launches the GPU work does not hide
    double totalSeconds = 0; // the largest is Intermediates::microbatchStageSeconds
};

// The pipeline phase of the step, per rank, for the timeline (filled by evaluate; cheap to keep).
struct PipelineTime {
    std::vector<StageTime> stages;            // one per pipeline rank
    double seconds = 0;                       // m x the slowest stage + the bubble
    double dataParallelTailSeconds = 0;       // data-parallel traffic exposed after the pipeline
    double dataParallelOverlappedSeconds = 0; // the gradient reduction's part hidden behind the backward
};

// Intermediate figures kept for explanations (filled by evaluate, cheap to keep).
struct Intermediates {
    double bytesPerParamState = 0;       // training state bytes per parameter (unsharded)
    double activationBytesPerLayer = 0;  // one micro batch, one layer, per GPU
    double activationLayersInFlight = 0; // layer-equivalents the first stage keeps
    double worstStageLayersInFlight = 0; // ... and the worst stage
    double logitsBytes = 0;
    double logitsMetricBytes = 0;    // training metrics' copies of the logits after the backward (0: none)
    bool logitsMetricPeak = false;   // the last stage peaks at those metrics, not at the loss
    double fp8WeightCopyBytes = 0;   // cached fp8 weight copies on one GPU (in the weights)
    double fp8ScalingStateBytes = 0; // fp8 amax histories and scales on one GPU (in the weights)
    double cpExchangeBytes = 0;      // K/V chunk one CP rank sends per ring step, per layer
    double cpHidingTokens = 0;       // tokens per CP rank above which the ring exchange hides
    double cpBufferBytes = 0;        // context parallel: K/V chunks held (and torch's fp32 gradient buffers)
    double pipelineBufferBytes = 0; // torch pipelining on the worst stage: receive buffers and cached outputs
    double flopsPerTokenModel = 0;
    double flopsPerTokenHardware = 0;
    double attentionFlopsPerToken = 0;
    double microbatchStageSeconds = 0; // one micro batch through one stage (fwd+bwd+recompute+TP)
    // One micro batch through every other pipeline rank, summed: the fill and drain the slowest rank waits
    // for, (p - 1) x microbatchStageSeconds when the stages are even.
    double otherStagesSeconds = 0;
    double microbatches = 0; // m
    // One micro batch on the slowest stage (all its layers, GPU compute only: no recompute, no
    // communication): the forward, the backward, and the backward's weight-gradient GEMMs (W, half its GEMM
    // FLOPs) that a zero-bubble schedule defers into the bubble (docs/estimation.md, "Pipeline bubble").
    double stageForwardSeconds = 0;
    double stageBackwardSeconds = 0;
    double backwardWeightSeconds = 0;
    double tokensPerExpert = 0; // per micro batch, per local expert (MoE)
    double epMessageBytes = 0;  // all-to-all bytes per GPU per dispatch (MoE)
    // Deduplicated (DeepEP-style) dispatch across NVLink domains: the other domains one token is sent to;
    // 0 when every top-k copy travels (the all-to-all dispatcher, or an EP group inside one domain).
    double epRemoteDomainsPerToken = 0;
    // Deduplicated dispatch: the GPUs of the EP group one token's experts are on (it is sent once to each
    // other one); 0 with the all-to-all dispatcher, which sends every top-k copy.
    double epRanksPerToken = 0;
    double tpMessageBytes = 0;
    double tpBusBandwidth = 0;
    bool tpForwardGathersFp8 = false; // forward sequence all-gathers carry the fp8 cast (torch's fp8 TP)
    double gatherBytesPerParam = 2;   // weight all-gathers: 16-bit, or 1 with fp8_param_gather in fp8
    double dpMessageBytes = 0;
    double dpBusBandwidth = 0; // at the ring's per-step chunk (Collectives.h)
    // One data-parallel collective of that message (ZeRO-3: a layer's weight all-gather, or one module's
    // with DeepSpeed's per-module fetches; else the gradient reduction's first collective): its ring, and
    // the parts of its time.
    int dpRingRanks = 0;
    double zero3GathersPerLayer = 0; // ZeRO-3: weight all-gathers per layer pass (1, or its linear modules)
    double dpNominalBandwidth = 0;   // the link's bytes/s before efficiency
    double dpRingLatencySeconds = 0; // (n-1) steps x the link's latency (a tree: its hops x the latency)
    double dpRingBandwidthSeconds = 0;
    // That collective is ZeRO 0's gradient all-reduce and runs on NCCL's tree, faster there than its ring
    // (Collectives.h): its hops of latency, up and down; 0 on a ring.
    int dpTreeHops = 0;
    // Hybrid sharding's all-reduce of the gradient shard across the replicas: its ranks, and its tree's hops
    // where NCCL's tree is faster than its ring (0: a ring).
    int dpReplicaRanks = 0;
    int dpReplicaTreeHops = 0;
    // MoE with ZeRO 0-2: the routed experts' gradients, reduced over their own expert-DP group (the
    // ranks that hold the same experts: TP x CP x shard degree / (EP x ETP)), and that reduction's time
    // with the weights' gather; zeros for dense models (the dp fields above are then the whole stage's).
    double expertDpMessageBytes = 0;
    int expertDpRanks = 0;
    double expertDpBusBandwidth = 0;
    double expertDpSeconds = 0;
    // FSDP with a pipeline (the stage kept gathered): the gradient reduction after the stage's last backward,
    // exposed whole, per step; 0 otherwise.
    double fsdpBulkReduceSeconds = 0;
    double gemmEfficiency = 0; // FLOP-weighted over the layer's GEMMs
    double attentionCoreFwdSeconds =
        0; // attention core (scores, softmax excluded), one layer, one micro batch, forward
    bool attentionCoreMemoryBound =
        false; // without flash: the scores' trip through HBM, not the GEMMs, sets that time
    double flashFwdEfficiency = 0; // with flash: the attention kernels' fraction of the 16-bit peak, forward
    AttentionKernel attentionKernel = AttentionKernel::Auto; // ... the kernel timed (resolved)
    bool flashFwdIsFa2 = false; // ... that of FlashAttention-2 (torch SDPA) where it trails fused attention
    double flashBwdEfficiency = 0;    // ... and backward (the profile's, lowered for small kernels)
    double attentionKernelTokens = 0; // ... one attention kernel's tokens: the sequence, s/CP per ring step
    double attentionLengthFactorFwd = 1; // ... the share of the long-sequence limit at this kernel length
    double attentionLengthFactorBwd = 1;
    double attentionHeadSize = 0;      // ... the head size they run at (mean of the q/k and v heads)
    double attentionHeadFactorFwd = 1; // ... the share of the profile's heads-of-128 figures at that size
    double attentionHeadFactorBwd = 1;
    double memoryBoundBytesPerLayer =
        0; // forward traffic of a layer's memory-bound kernels, one micro batch, per GPU
    double layersPerStage = 0;
    double peakFlops = 0;
    // CPU offloading.
    int offloadedLayers =
        0; // layers of the stage holding the most host memory whose activations go to host memory
    double offloadBytesPerLayer = 0;     // ... per layer and micro batch, each way
    double offloadedActivationBytes = 0; // that stage's activations held in host memory
    double offloadMicroBatchesInFlight =
        0;                                 // ... the micro batches whose activations that stage holds at once
    double offloadedStateBytes = 0;        // optimizer state held in host memory, per GPU
    double offloadedGradientBytes = 0;     // the gradient shard held in host memory (ZeRO 2-3), per GPU
    double offloadCopySecondsPerLayer = 0; // one layer's activations over the host link, one way
    double cpuOptimizerSeconds = 0;        // the optimizer step on the CPU
    double optimizerTransferSeconds = 0;   // gradients to the host and updated weights back, not hidden
};

struct Plan {
    bool valid = false;
    Layout layout;
    ExecutionStyle style = ExecutionStyle::Megatron;
    std::string profileName;
    ParameterCount params;
    double trainingStateBytes = 0; // whole model, unsharded, at the optimizer's bytes per parameter
    long long effectiveBatchSequences = 0;
    double tokensPerStep = 0;
    MemoryPlan memory;
    TimeBreakdown time;
    PipelineTime pipeline;
    double modelFlopsPerStep = 0;
    double hardwareFlopsPerStep = 0;
    double mfu = 0;
    double hfu = 0;
    double mfu6nd = 0;
    double modelTflopsPerGpu = 0;
    double hardwareTflopsPerGpu = 0;
    double tokensPerSecond = 0;
    double tokensPerSecondPerGpu = 0;
    double trainingSeconds = 0; // for the run's tokens, without failures (ideal)
    double gpuHours = 0;
    RunPlan run; // tokens, predicted loss, cost, energy, goodput
    std::vector<Diagnostic> diagnostics;
    Intermediates intermediates; // the figures the explanations quote

    bool has(DiagnosticId id) const;
};

} // namespace lp::core
