// Memory per GPU and pipeline stage (docs/estimation.md, sections 2-4).
#include "core/estimate/detail/Memory.h"

#include <algorithm>
#include <cmath>

namespace lp::core::detail {

double stateBytesPerParam(const TrainingOptions& t) {
    // 16-bit weights + 16-bit gradients + optimizer state (master copy and moments).
    return 2.0 + 2.0 + optimizerBytesPerParam(t);
}

namespace {

// Activations one layer keeps for one micro batch on one GPU, without recompute (Korthikanti et al.
// 2022 bookkeeping, generalised to SwiGLU, GQA, no dropout and flash attention).
struct LayerActivations {
    double replicated = 0;    // h-sized tensors: divided by t only with sequence parallel
    double split = 0;         // tensors split by TP
    double attentionCore = 0; // s^2 tensors (softmax, dropout) - absent with flash attention
    // What each of Megatron-Core's recompute modules frees (part of replicated + split; per layer, MoE and
    // dense layers weighted by their share):
    double normOutputs = 0;  // layernorm: the outputs of the norms that are separate modules
    double mlaUpOutputs = 0; // mla_up_proj: q, k and v after the up-projections and rotary (MLA only)
    double denseMlp = 0;     // mlp: a dense layer's MLP intermediates (its input stays)
    double expertAct = 0;    // moe_act: the routed experts' activation output (the down-projection input)
    double sharedMlp = 0;    // shared_experts: the shared experts' intermediates
    double moeBlock = 0;     // moe: everything inside the MoE block (experts, permuted tokens, router)
};

LayerActivations layerActivations(const EvalContext& x) {
    LayerActivations r;
    const double T = x.T;
    const double drop = x.dropout ? 1.0 : 0.0;
    // Linear-layer inputs saved for the weight gradients: 16-bit, or 1-byte fp8 casts (Transformer Engine).
    const double lin = x.fp8Habit.savesLinearInputsInFp8 ? 1.0 : 2.0;
    // Two norm inputs (16-bit), the QKV input and the MLP input, and two dropout masks (1 byte).
    r.replicated = T * x.h * (2.0 * 2 + lin + lin + drop * 2.0) * x.hRep;
    if (x.traits.torchTensorParallel && x.t > 1) {
        // torch's TP hands the QKV and MLP-input linears the all-gathered sequence, and autograd saves it
        // whole (Megatron saves the shard and gathers again in backward). Under fp8 torchtitan casts before
        // that all-gather (its default fp8 all-gather for TP), so the saved copy is the fp8 one.
        const double gathered = x.fp8Habit.active ? 1.0 : lin;
        r.replicated = T * x.h * ((2.0 * 2 + drop * 2.0) * x.hRep + 2.0 * gathered);
    }
    // Q, K, V, the attention-output projection's input; the MLP's intermediate tensors.
    const double qkv = 2.0 * T * (x.aQk + x.kQk + x.kV);
    double split = qkv + T * lin * x.aV;
    // Bytes per token per MLP unit: the up-projection output(s) (16-bit) and the down-projection input.
    const double mlpTensors = (x.s.model.mlp == MlpKind::SwiGlu ? 4.0 : 2.0) + lin;
    double mlp = mlpTensors * T * x.f;
    if (x.moe) {
        // Routed experts: each token's top-k copies (the busiest GPU's share), shared experts, plus the
        // permuted tokens before and after the experts and the router's fp32 probabilities. The permutation
        // saves only its indices: the tokens before the experts are kept as the first expert GEMM's input, a
        // linear-layer input like the others (its fp8 cast under the Megatron style's fp8), the experts'
        // 16-bit output for the combine, which weights it by the router's probabilities.
        const double copies = T * x.topK * x.imbalance * x.fe;
        const double shared = mlpTensors * T * x.sharedExperts * x.fe;
        const double routed = mlpTensors * copies + shared;
        const double buffers = ((lin + 2.0) * T * x.topK * x.h + 4.0 * T * x.experts) * x.hRep * x.t;
        mlp = (1.0 - x.moeFraction) * mlp + x.moeFraction * (routed + buffers);
        r.expertAct = x.moeFraction * lin * copies / x.t;
        r.sharedMlp = x.moeFraction * shared / x.t;
        r.moeBlock = x.moeFraction * (routed + buffers) / x.t;
    }
    r.denseMlp = (1.0 - x.moeFraction) * mlpTensors * T * x.f / x.t;
    if (x.s.model.attention == AttentionKind::Mla)
        r.mlaUpOutputs = qkv / x.t;
    r.normOutputs = T * x.h * lin * x.hRep * x.separateNormsPerLayer();
    split += mlp;
    if (x.flash)
        split += 4.0 * x.a * T; // fp32 log-sum-exp per row
    r.split = split / x.t;
    if (!x.flash) {
        // Softmax output (16-bit; the unfused fp32 fallback saves it in fp32) + dropout mask and output.
        const double softmaxOut = x.unfusedSoftmax ? 4.0 : 2.0;
        r.attentionCore = x.a * T * x.seq * (softmaxOut + 3.0 * drop) / x.t;
    }
    return r;
}

// What Megatron-Core's recompute modules free of one layer's activations. The whole MoE block includes its
// activation and shared experts; the attention core is the s^2 tensors (nothing more with flash attention,
// whose inputs the up-projections' outputs are).
double recomputedModuleBytes(const LayerActivations& la, unsigned modules) {
    double freed = 0;
    if (modules & kRecomputeCoreAttn)
        freed += la.attentionCore;
    if (modules & kRecomputeLayerNorm)
        freed += la.normOutputs;
    if (modules & kRecomputeMlaUpProj)
        freed += la.mlaUpOutputs;
    if (modules & kRecomputeMlp)
        freed += la.denseMlp;
    if (modules & kRecomputeMoe)
        freed += la.moeBlock;
    else
        freed += (modules & kRecomputeMoeAct ? la.expertAct : 0.0) +
                 (modules & kRecomputeSharedExperts ? la.sharedMlp : 0.0);
    return freed;
}

// What one layer keeps for one micro batch on one GPU under a JAX/MaxText remat policy: its input (the
// checkpointed function's argument) and the saved tensors the backward needs, all 16-bit; everything else,
// the norms' outputs, rotary, the activation function's output, the s^2 scores and MoE's permuted tokens, is
// re-run. In MoE layers the MLP's tensors are the routed experts' top-k copies and the shared experts'.
double rematKeptBytes(const EvalContext& x) {
    const RematSaves keep = rematSaves(x.rematPolicy);
    const double T = x.T;
    const double replicated = 2.0 * T * x.h * x.hRep; // one h-wide 16-bit tensor (split with SP)
    double bytes = replicated;
    if (keep.qkv)
        bytes += 2.0 * T * (x.aQk + x.kQk + x.kV) / x.t;
    if (keep.context)
        bytes += (2.0 * T * x.aV + (x.flash ? 4.0 * x.a * T : 0.0)) / x.t; // + flash's log-sum-exp
    if (keep.outProj)
        bytes += replicated;
    if (keep.mlpwi) {
        const double ups = x.s.model.mlp == MlpKind::SwiGlu ? 2.0 : 1.0;
        const double dense = ups * 2.0 * T * x.f / x.t;
        const double expert = ups * 2.0 * T * (x.topK * x.imbalance + x.sharedExperts) * x.fe / x.t;
        bytes += (1.0 - x.moeFraction) * dense + x.moeFraction * expert;
    }
    return bytes;
}

// Bytes per parameter a GPU holds after ZeRO/FSDP sharding over a group of n ranks (DP x CP, or for routed
// experts the ranks that hold the same experts). FSDP with a pipeline keeps the stage's 16-bit weights
// gathered (fp8StageGatherSaving: the linear layers' in fp8 with the fp8 all-gather) and accumulates
// unsharded gradients (in the reduction dtype) until the last micro batch (docs/estimation.md, "Model
// state"). Megatron's gradient buffer is fp32 in bf16/fp8.
struct HeldBytes {
    double weights = 0, gradients = 0, optimizer = 0;
};

HeldBytes heldBytesPerParam(const EvalContext& x, double optBytes, double n) {
    HeldBytes held;
    held.weights = x.zero >= 3 && !x.fsdpStageGathered ? 2.0 / n : 2.0;
    if (x.fsdpStageGathered)
        held.gradients = x.grads.reduceBytes;
    else
        held.gradients = x.zero >= 2 ? x.grads.heldBytes / n : x.grads.heldBytes;
    held.optimizer = x.zero >= 1 ? optBytes / n : optBytes;
    return held;
}

// What one layer keeps for one micro batch under the recompute in use (docs/estimation.md, "Activations").
double keptActivationBytes(const EvalContext& x, const LayerActivations& la) {
    const double fullLayer = la.replicated + la.split + la.attentionCore;
    switch (x.recompute) {
    case Recompute::None:
        break;
    case Recompute::Selective:
        if (x.rematPolicy != RematPolicy::Auto)
            return rematKeptBytes(x);
        if (x.style != ExecutionStyle::Megatron)
            return (la.replicated + la.split) * x.traits.selectiveActivationKeep;
        return fullLayer - recomputedModuleBytes(la, x.recomputeModules);
    case Recompute::Full: // recomputed layers keep only their input, the others (block recompute) everything
        return x.recomputeShare * 2.0 * x.T * x.h * x.hRep + (1.0 - x.recomputeShare) * fullLayer;
    }
    return fullLayer;
}

// Micro batches' worth of a rank's layers held at its peak: the schedule's warm-up forwards and the one
// running. 1F1B: min(p - i, m). Interleaved (Megatron-LM's and torch's Interleaved1F1B alike, with p dividing
// m as the layout requires): (p - i - 1) x 2 + (v - 1) x p warm-up chunk forwards, at most the m x v chunks
// there are, each 1/v of the rank's layers. GPipe: every stage all m (docs/estimation.md, "Activations").
double microBatchesInFlight(const EvalContext& x, int rank) {
    const int stages = x.s.layout.pp;
    if (stages == 1)
        return 1.0;
    if (x.s.training.pipelineSchedule == PipelineSchedule::GPipe)
        return x.m; // all forwards before any backward
    if (x.v <= 1)
        return std::min(static_cast<double>(stages - rank), x.m);
    const double chunks = 2.0 * (stages - rank - 1) + (x.v - 1.0) * stages + 1.0;
    return std::min(chunks, x.m * x.v) / x.v;
}

// The logits the loss holds on the last stage. A fused linear cross-entropy holds one chunk of about h/V of
// the logits in fp32 and its gradient (never more than a fused kernel would hold for the whole logits: a
// small vocabulary is one chunk).
double logitsBytes(const EvalContext& x) {
    const CrossEntropy lossKind = lossKernel(x.s.training, x.style);
    if (lossKind == CrossEntropy::FusedLinear)
        return std::min(kFusedLossBytesPerLogit * x.T * x.V / x.t, 2.0 * 4.0 * x.T * x.h / x.t);
    return lossBytesPerLogit(lossKind, x.style, x.s.layout.tp) * x.T * x.V / x.t;
}

// Context parallel in the layer being computed: the K/V chunks it holds (16-bit; the one in use and the one
// arriving on a ring, every rank's after an all-gather) and, with torch's ring attention (K/V at the repeated
// width), the fp32 dQ, dK and dV accumulators with the fp32 dK/dV pair on its way around the ring.
double cpBufferBytes(const EvalContext& x) {
    if (x.c <= 1)
        return 0;
    const double nQ = x.T * x.aQk / x.t, nKv = x.T * x.cpKvWidth / x.t;
    double buffers = 2.0 * (x.cpGatherOnce ? x.c : 2.0) * nKv;
    if (x.traits.cpTorchRingAttention)
        buffers += 4.0 * (nQ + 3.0 * nKv);
    return buffers;
}

// torch.distributed.pipelining's receive buffers and cached outputs on a rank (docs/estimation.md,
// "Activations"): 2 x m x chunks stage-boundary tensors, the first rank's cached outputs on top, the last
// rank's missing gradient buffers and outputs off.
double pipelineBufferBytes(const EvalContext& x, int rank, double inFlight) {
    const int stages = x.s.layout.pp;
    if (!x.traits.torchPipelineBuffers || stages == 1)
        return 0.0;
    const double chunks = std::max(1.0, x.v);
    double tensors = 2.0 * chunks * x.m; // forward and backward receive buffers for each chunk on this rank
    if (rank == 0)
        tensors += inFlight - x.m; // global stage 0 receives no activations; its outputs are cached
    else if (rank == stages - 1)
        tensors -= x.m + inFlight / chunks; // the last stage receives no gradients, caches no outputs
    return 2.0 * x.T * x.h * x.hRep * std::max(0.0, tensors);
}

// What every stage's memory is made of, computed once.
struct StageInputs {
    double keptPerLayer = 0; // activations one layer keeps per micro batch (after recompute)
    double fullLayer = 0;    // ... and without recompute
    double logits = 0;
    double metricLogits = 0; // training metrics' fp32 copies of the logits after the backward
    double cpBuffers = 0;
    double gatherBuffers = 0;  // ZeRO-3: gathered layers (16-bit, or fp8) + fp32 gradients
    double linearPerLayer = 0; // linear-layer parameters of a layer on this GPU
    HeldBytes dense, expert;   // bytes per parameter held
};

StageInputs stageInputs(const EvalContext& x, const LayerActivations& la) {
    StageInputs in;
    in.fullLayer = la.replicated + la.split + la.attentionCore;
    in.keptPerLayer = keptActivationBytes(x, la);
    in.logits = logitsBytes(x);
    // Training metrics computed from the logits after each micro batch's backward (Composer's): its layers'
    // tensors and the loss's buffers are freed by then, and the metric's fp32 copies take their place.
    in.metricLogits =
        x.s.training.logitsMetricPasses > 0 ? kLogitsMetricBytesPerLogit * x.T * x.V / x.t : 0.0;
    in.cpBuffers = cpBufferBytes(x);
    const double layerOnGpu = x.layerParamsOnGpu();
    in.gatherBuffers = x.zero >= 3 && !x.fsdpStageGathered
                           ? layerOnGpu * (x.gatherBytesPerParam * x.traits.fsdpLayersInFlight + 4.0)
                           : 0.0;
    in.linearPerLayer = layerOnGpu - x.normParamsPerLayer / x.t;
    const double optBytes = optimizerBytesPerParam(x.s.training);
    in.dense = heldBytesPerParam(x, optBytes, x.shardGroup);
    in.expert = heldBytesPerParam(x, optBytes, x.expertShardGroup);
    return in;
}

// FP8: cached fp8 copies of the linear weights this GPU computes with (all of its stage, or only the gathered
// layers with ZeRO-3), and the scaling state of every fp8 linear module.
double fp8WeightCopyBytes(const EvalContext& x, const StageInputs& in, double layers) {
    const double copied = x.zero >= 3 ? std::min(layers, x.traits.fsdpLayersInFlight) : layers;
    return x.fp8Habit.active ? copied * in.linearPerLayer * x.fp8Habit.weightCopyBytesPerParam : 0.0;
}
// A stage kept gathered with the fp8 all-gather holds its linear layers' weights as the fp8 values that were
// gathered (torchao's Float8 all-gather), a byte less per parameter than the 16-bit weights counted.
double fp8StageGatherSaving(const EvalContext& x, const StageInputs& in, double layers) {
    return x.fsdpStageGathered ? layers * in.linearPerLayer * (2.0 - x.gatherBytesPerParam) : 0.0;
}
double fp8ScalingBytes(const EvalContext& x, double layers) {
    return x.fp8Habit.active ? layers * x.linearModulesPerLayer * fp8ScalingBytesPerModule(x.fp8Habit) : 0.0;
}

// Weights, gradients and optimizer state of stage i; returns the gradient shard moved to the host.
double placeStageState(const EvalContext& x, const StageInputs& in, int i, StageMemory& sm) {
    const int stages = x.s.layout.pp;
    const double layers = sm.layers;
    double params = layers * (x.layerParams - x.expertLayerParams);
    if (i == 0)
        params += x.embedParams;
    if (i == stages - 1) {
        params += x.finalNormParams;
        if (!x.s.model.tiedEmbeddings || stages > 1)
            params += x.headParams; // tied weights keep a copy on the last stage when pp > 1
    }
    params /= x.t;
    const double expertParams = layers * x.expertLayerParams / (x.etp * x.ep);
    sm.weightsBytes = params * in.dense.weights + expertParams * in.expert.weights +
                      fp8WeightCopyBytes(x, in, layers) + fp8ScalingBytes(x, layers) -
                      fp8StageGatherSaving(x, in, layers);
    sm.gradientsBytes = params * in.dense.gradients + expertParams * in.expert.gradients;
    sm.optimizerBytes = params * in.dense.optimizer + expertParams * in.expert.optimizer;
    if (!x.optimizerOffload)
        return 0;
    // The optimizer's state lives in host memory; with ZeRO 2-3 the reduced gradient shard is copied there as
    // it is produced (ZeRO 0-1 reduce the whole gradient on the GPU, so it stays).
    sm.hostBytes = sm.optimizerBytes;
    sm.optimizerBytes = 0;
    if (x.zero < 2 || x.fsdpStageGathered)
        return 0;
    const double gradientsHeld = sm.gradientsBytes;
    sm.hostBytes += gradientsHeld;
    sm.gradientsBytes = 0;
    return gradientsHeld;
}

// Activations of stage i with `inFlight` micro batches in flight, and the offloaded ones in host memory;
// returns torch pipelining's buffers among them.
double placeStageActivations(const EvalContext& x, const StageInputs& in, int i, double inFlight,
                             StageMemory& sm, Intermediates& im) {
    const double layers = sm.layers, perLayer = in.keptPerLayer;
    double act = layers * inFlight * perLayer;
    // Activation offloading: the offloaded layers' saved tensors wait in host memory; the GPU keeps one
    // layer's worth as the staging buffer of the copy in flight.
    if (const double offloaded = std::min(x.offloadLayers, layers); offloaded > 0) {
        const double moved = offloaded * inFlight * perLayer;
        act += perLayer - moved;
        sm.hostBytes += moved;
    }
    if (x.recompute == Recompute::Full)
        act += in.fullLayer; // the layer being recomputed during backward holds all its tensors
    act += in.cpBuffers;
    const double pipeBuffers = pipelineBufferBytes(x, i, inFlight);
    act += pipeBuffers;
    if (i == x.s.layout.pp - 1) {
        act += in.logits + 2.0 * x.T * x.h * x.hRep;
        const double afterBackward = std::max(0.0, act - in.logits - layers * perLayer) + in.metricLogits;
        im.logitsMetricPeak = afterBackward > act;
        act = std::max(act, afterBackward);
    }
    sm.activationsBytes = act;
    return pipeBuffers;
}

// Overheads and the total of a stage whose parts are placed.
void addStageOverheads(const EvalContext& x, const StageInputs& in, StageMemory& sm) {
    const double overheadFixed = x.traits.cudaContextBytes + x.traits.commBufferBytes;
    const double allocated =
        sm.weightsBytes + sm.gradientsBytes + sm.optimizerBytes + sm.activationsBytes + in.gatherBuffers;
    sm.overheadBytes = overheadFixed + in.gatherBuffers + x.s.training.allocatorReserveFraction * allocated;
    sm.totalBytes =
        sm.weightsBytes + sm.gradientsBytes + sm.optimizerBytes + sm.activationsBytes + sm.overheadBytes;
}

// The offload figures of the stage that needs the most host memory.
void noteHostMemory(const EvalContext& x, const StageInputs& in, const StageMemory& sm, double inFlight,
                    double gradientsHeld, MemoryPlan& mem, Intermediates& im) {
    if (sm.hostBytes <= mem.hostBytesPerGpu)
        return;
    const double offloaded = std::min(x.offloadLayers, static_cast<double>(sm.layers));
    mem.hostBytesPerGpu = sm.hostBytes;
    im.offloadedLayers = static_cast<int>(offloaded);
    im.offloadMicroBatchesInFlight = offloaded > 0 ? inFlight : 0.0;
    im.offloadedActivationBytes = offloaded > 0 ? offloaded * inFlight * in.keptPerLayer : 0.0;
    im.offloadedGradientBytes = gradientsHeld;
    im.offloadedStateBytes = sm.hostBytes - im.offloadedActivationBytes - im.offloadedGradientBytes;
}

// Whether the worst stage fits, and its largest part.
void summarise(const EvalContext& x, const StageInputs& in, MemoryPlan& mem, Intermediates& im) {
    im.offloadBytesPerLayer = x.offloadLayers > 0 ? in.keptPerLayer : 0.0;
    im.offloadCopySecondsPerLayer = x.hostCopySeconds(im.offloadBytesPerLayer);
    const StageMemory& w = mem.stages[static_cast<std::size_t>(mem.worstStage)];
    im.fp8WeightCopyBytes = fp8WeightCopyBytes(x, in, w.layers);
    im.fp8ScalingStateBytes = fp8ScalingBytes(x, w.layers);
    mem.headroomBytes = mem.capacityBytes - w.totalBytes;
    mem.fits = mem.headroomBytes >= 0;
    const double parts[5] = {w.weightsBytes, w.gradientsBytes, w.optimizerBytes, w.activationsBytes,
                             w.overheadBytes};
    mem.largestComponent = static_cast<MemoryComponent>(std::max_element(parts, parts + 5) - parts);
}

} // namespace

void computeMemory(const EvalContext& x, Plan& plan) {
    Intermediates& im = plan.intermediates;
    MemoryPlan& mem = plan.memory;
    const int stages = x.s.layout.pp;
    mem.stages.assign(static_cast<std::size_t>(stages), StageMemory{});
    mem.capacityBytes = x.s.cluster.gpu.hbmBytes;
    mem.hostCapacityBytes = x.s.cluster.gpu.hostMemoryBytes;

    const StageInputs in = stageInputs(x, layerActivations(x));
    im.activationBytesPerLayer = in.keptPerLayer;
    im.logitsBytes = in.logits;
    im.logitsMetricBytes = in.metricLogits;
    im.cpBufferBytes = in.cpBuffers;

    double worst = -1;
    for (int i = 0; i < stages; ++i) {
        StageMemory& sm = mem.stages[static_cast<std::size_t>(i)];
        sm.stage = i;
        sm.layers = static_cast<int>(x.layersOfRank(i));
        const double gradientsHeld = placeStageState(x, in, i, sm);
        const double inFlight = microBatchesInFlight(x, i);
        const double pipeBuffers = placeStageActivations(x, in, i, inFlight, sm, im);
        addStageOverheads(x, in, sm);
        if (i == 0)
            im.activationLayersInFlight = sm.layers * inFlight;
        noteHostMemory(x, in, sm, inFlight, gradientsHeld, mem, im);
        if (sm.totalBytes > worst) {
            worst = sm.totalBytes;
            mem.worstStage = i;
            im.pipelineBufferBytes = pipeBuffers;
            im.worstStageLayersInFlight = sm.layers * inFlight;
        }
    }
    summarise(x, in, mem, im);
}

} // namespace lp::core::detail
