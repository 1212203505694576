// Step time: the per-layer costs after overlap, the pipeline, data-parallel and sharding traffic, the
// optimizer step, the loader and stragglers (docs/estimation.md, "Step time").
#include "core/estimate/detail/StepTime.h"

#include "core/estimate/detail/LayerTime.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace lp::core::detail {
namespace {

// GPU time plus the part of the host's dispatch time that the GPU work does not hide: all of it
// when the GPU work per pass is short (eager PyTorch launches kernels one by one), little of it
// when the GPU work is long.
// share^exponent. The styles' hiding exponents are whole quarters (3.75, 1), which products and square roots
// give at a fraction of std::pow's cost: a stage time is taken for every pipeline rank of every plan.
double hidingPower(double share, double exponent) {
    const double quarters = 4.0 * exponent;
    if (!(quarters >= 0 && quarters <= 64 && quarters == std::floor(quarters)))
        return std::pow(share, exponent);
    const int q = static_cast<int>(quarters);
    double r = 1.0;
    for (int i = 0; i < q / 4; ++i)
        r *= share;
    if (q % 4 >= 2)
        r *= std::sqrt(share);
    if (q % 2 == 1)
        r *= std::sqrt(std::sqrt(share));
    return r;
}

double withHost(double gpu, double host, double exponent) {
    if (host <= 0)
        return gpu;
    const double share = host / (host + gpu);
    return gpu + host * hidingPower(share, exponent);
}

// MLA's two up-projections (q, and k and v from the latent), matmul FLOPs per token and layer.
double mlaUpFlopsPerToken(const EvalContext& x) {
    const MlaSpec& l = x.s.model.mla;
    return 2.0 * ((l.qLoraRank > 0 ? l.qLoraRank : x.h) * x.aQk +
                  l.kvLoraRank * x.a * (l.qkNopeHeadDim + l.vHeadDim));
}

// The FLOPs per token (whole model) that a JAX/MaxText remat policy re-runs; `attn` is the attention
// core's forward and backward FLOPs per token.
double rematRecomputeFlopsPerToken(const EvalContext& x, double attn) {
    const RematSaves keep = rematSaves(x.rematPolicy);
    const ModelSpec& mo = x.s.model;
    const double mlpMatrices = mo.mlp == MlpKind::SwiGlu ? 3.0 : 2.0;
    const double out = 2.0 * x.aV * x.h;
    double qkv = 2.0 * x.h * (x.ad + 2.0 * x.kd);
    if (mo.attention == AttentionKind::Mla) { // the down-projections to the latents, then the up-projections
        const MlaSpec& l = mo.mla;
        qkv = 2.0 * x.h * ((l.qLoraRank > 0 ? l.qLoraRank : 0) + l.kvLoraRank + l.qkRopeHeadDim) +
              mlaUpFlopsPerToken(x);
    }
    const double ups = 2.0 * x.h * (mlpMatrices - 1.0) *
                       ((1.0 - x.moeFraction) * x.f + x.moeFraction * x.fe * (x.topK + x.sharedExperts));
    const double perLayer = (keep.qkv ? 0.0 : qkv) + (keep.outProj ? 0.0 : out) + (keep.mlpwi ? 0.0 : ups);
    return x.L * perLayer + (keep.context && x.flash ? 0.0 : attn / 3.0);
}

// The matmul FLOPs per token (whole model) of the modules recomputed besides the attention core.
double moduleRecomputeFlopsPerToken(const EvalContext& x) {
    const unsigned m = x.recomputeModules;
    const ModelSpec& mo = x.s.model;
    const double mlpMatrices = mo.mlp == MlpKind::SwiGlu ? 3.0 : 2.0;
    const double moeLayers = x.L * x.moeFraction, denseLayers = x.L - moeLayers;
    double flops = 0;
    if ((m & kRecomputeMlaUpProj) && mo.attention == AttentionKind::Mla)
        flops += x.L * mlaUpFlopsPerToken(x);
    if (m & kRecomputeMlp)
        flops += denseLayers * 2.0 * x.h * x.f * mlpMatrices;
    if (m & kRecomputeMoe)
        flops += moeLayers * 2.0 * x.h * (x.fe * mlpMatrices * (x.topK + x.sharedExperts) + x.experts);
    else if (m & kRecomputeSharedExperts)
        flops += moeLayers * 2.0 * x.h * x.fe * mlpMatrices * x.sharedExperts;
    return flops;
}

// Recompute per layer and micro batch: the forward work repeated in backward, and the TP collectives
// repeated with it (2 per recomputed layer).
struct RecomputeCost {
    double seconds = 0;
    double collectives = 0;
};

RecomputeCost recomputePerLayer(const EvalContext& x, const LayerTimes& lt) {
    RecomputeCost r;
    switch (x.recompute) {
    case Recompute::None:
        break;
    case Recompute::Selective:
        if (x.rematPolicy != RematPolicy::Auto) {
            r.seconds = lt.rematRecomputeFwd;
            break;
        }
        if (x.style == ExecutionStyle::Fsdp) {
            r.seconds = x.traits.selectiveMatmulRecompute * lt.gemmFwd + lt.memFwd;
            break;
        }
        if (!x.flash && (x.recomputeModules & kRecomputeCoreAttn))
            r.seconds = lt.attnFwd + lt.attnMemFwd; // the attention core
        r.seconds += lt.moduleRecomputeFwd;
        break;
    case Recompute::Full: // every layer, or block recompute's share of them
        r.seconds = x.recomputeShare * lt.fwd();
        r.collectives = 2.0 * x.recomputeShare;
        break;
    }
    return r;
}

// Tensor-parallel collectives per layer and micro batch: 2 per pass (+ 2 per recomputed forward).
double tpPerLayer(const EvalContext& x, const LayerTimes& lt, const RecomputeCost& rc) {
    // MoE layers with whole experts (ETP 1) and no shared expert: the MLP half of the layer runs without TP
    // collectives (the tokens go to the experts by all-to-all from their sequence-parallel shard); only the
    // attention half's all-gather and reduce-scatter remain.
    const bool expertsWithoutTp = x.moe && x.etp == 1.0 && x.t > 1 && x.sharedExperts == 0;
    const double tpShare = expertsWithoutTp ? 1.0 - 0.5 * x.moeFraction : 1.0;
    const double tp = ((2.0 + rc.collectives) * lt.tpCollectiveFwd + 2.0 * lt.tpCollective) * tpShare;
    if (!overlapsTpComm(x.s))
        return tp;
    // Collective-matmul overlap (Transformer Engine userbuffers, torchtitan AsyncTP): each TP collective is
    // split into chunks that run while the adjacent GEMM computes; only what exceeds the layer's GEMM time
    // (forward, backward and any recomputed forward) stays exposed, plus the residual share of the hidden
    // part (Collectives.h).
    const double gemms = (3.0 + x.recomputeShare) * lt.gemmFwd;
    return overlappedSeconds(tp, gemms);
}

// The MoE token all-to-all per layer and micro batch. The backward pass sends the gradients of the same
// tokens back the same way: dispatch and combine once more, as many bytes as forward (its doubled FLOPs are
// the weight gradients, which stay local); again with full recompute or the MoE block recomputed.
double epPerLayer(const EvalContext& x, const LayerTimes& lt, const RecomputeCost& rc) {
    const bool moeRecomputed = (x.recomputeModules & kRecomputeMoe) != 0;
    const double ep = (2.0 + rc.collectives / 2.0 + (moeRecomputed ? 1.0 : 0.0)) * lt.epPerPass;
    if (!x.s.training.overlapEpComm)
        return ep;
    // Combined 1F1B: one micro batch's dispatch and combine run while another computes the same layer, so
    // only what exceeds the layer's compute (+ the residual share of the hidden part) is exposed.
    return overlappedSeconds(ep, lt.fwd() + lt.bwd() + rc.seconds);
}

// ZeRO-3 / FSDP: per layer, gather 16-bit weights for forward and again for backward, reduce-scatter
// gradients; prefetched one layer ahead, so only what exceeds the layer's compute is exposed.
struct FsdpTraffic {
    double exposedPerLayer = 0; // per layer and micro batch
    double firstGather = 0;     // the first layer's gather, per micro batch
    double oncePerStep = 0;     // the stage kept gathered: all of it once per step
    double bulkReduce = 0;      // ... of which the gradient reduction after the stage's last backward
};

// FSDP under torch.distributed.pipelining keeps the stage gathered across micro batches
// (docs/estimation.md, "ZeRO-3 / FSDP"): each unit is gathered once per step, behind the first micro
// batch's forward, and its gradients are reduced only after the stage's last backward (the schedule's
// REDUCE_GRAD), every unit at once while the compute stream waits: nothing hides that reduction.
void keepStageGathered(const EvalContext& x, const LayerTimes& lt, double gather, double reduce,
                       FsdpTraffic& f) {
    // The embedding (first stage) or the output layer (last) is one more unit; the larger of the two.
    const double endShare = std::max(x.embedParams, x.headParams) / x.t / std::max(x.layerParamsOnGpu(), 1.0);
    const double units = x.Ls + endShare;
    f.bulkReduce = units * reduce;
    f.oncePerStep = x.Ls * overlappedSeconds(gather, lt.fwd()) + (1.0 + endShare) * gather + f.bulkReduce;
    f.exposedPerLayer = 0;
    f.firstGather = 0;
}

// DeepSpeed ZeRO-3 reduces gradients in buckets of reduce_bucket_size elements, 5e8 by default (DeepSpeed
// configuration documentation, "ZeRO Optimizations").
inline constexpr double kDeepSpeedReduceBucketParams = 5e8;

// The gradient reduction of `params` parameters: reduce-scatter over a shard group of `group` ranks on
// `link`, then (hybrid sharding) an all-reduce of the shard across the replicas.
double zero3ReduceSeconds(const EvalContext& x, double params, int group, const Link& link) {
    const double gradBytes = params * x.grads.reduceBytes;
    return allGatherSeconds(group, gradBytes, link) +
           allReduceSeconds(x.replicas, gradBytes / std::max(1, group), x.replicaLink);
}
double zero3ReduceSeconds(const EvalContext& x, double params) {
    return zero3ReduceSeconds(x, params, x.shardGroup, x.dpLink);
}

// One layer's ZeRO-3 traffic (docs/estimation.md, "ZeRO-3 / FSDP"): its weight all-gather, one per layer,
// or one per linear module with DeepSpeed's per-module fetches, each paying the ring's (n-1) steps of
// latency; its gradient reduction, per layer, or DeepSpeed's share of a reduce bucket. With whole layers
// (FSDP2, torchtitan) a MoE layer's routed experts are a unit of their own, sharded over the expert-DP ranks
// (dp_shard_mod_ep) and gathered and reduced over that group's link.
std::pair<double, double> zero3LayerCollectives(const EvalContext& x) {
    const double layerParams = x.layerParamsOnGpu();
    const double modules = x.zero3GathersPerLayer;
    if (x.s.training.zero3Gather == Zero3Gather::Layer) {
        const double experts = x.expertLayerParamsOnGpu();
        const double dense = layerParams - experts;
        double gather = allGatherSeconds(x.shardGroup, x.gatherBytesPerParam * dense, x.dpLink);
        double reduce = zero3ReduceSeconds(x, dense);
        if (experts > 0) {
            gather += allGatherSeconds(x.expertShardGroup, x.gatherBytesPerParam * experts, x.expertDpLink);
            reduce += zero3ReduceSeconds(x, experts, x.expertShardGroup, x.expertDpLink);
        }
        return {gather, reduce};
    }
    const double gather =
        modules * allGatherSeconds(x.shardGroup, x.gatherBytesPerParam * layerParams / modules, x.dpLink);
    const double bucket = std::min(kDeepSpeedReduceBucketParams, x.Ls * layerParams);
    return {gather, layerParams / bucket * zero3ReduceSeconds(x, bucket)};
}

FsdpTraffic fsdpTraffic(const EvalContext& x, const LayerTimes& lt, const RecomputeCost& rc) {
    FsdpTraffic f;
    if (x.zero < 3 || x.shardGroup * x.replicas <= 1)
        return f;
    const auto [gather, reduce] = zero3LayerCollectives(x);
    if (x.fsdpStageGathered) {
        keepStageGathered(x, lt, gather, reduce, f);
        return f;
    }
    f.exposedPerLayer =
        overlappedSeconds(gather, lt.fwd()) + overlappedSeconds(gather + reduce, lt.bwd() + rc.seconds);
    f.firstGather = gather;
    return f;
}

// Host dispatch per layer and micro batch, in forward-pass equivalents: the forward, the backward (autograd
// launches about two kernels per forward kernel: input and weight gradients) and, with full recompute, a
// second forward.
double hostPerLayer(const EvalContext& x) {
    const StyleTraits& st = x.traits;
    const double forwardPasses = 1.0 + x.recomputeShare; // recomputeShare is 0 without full recompute
    const double passes = 2.0 + forwardPasses;
    double host = passes * st.hostSecondsPerLayerPass;
    if (x.unfusedSoftmax) // the fallback's upcast, scale, mask and downcast: four more kernels in every
                          // forward and four more autograd nodes in the backward, each at one kernel's host
                          // cost
        host += (forwardPasses + 1.0) * kUnfusedSoftmaxExtraKernels * st.hostSecondsPerLayerPass /
                st.hostKernelsPerLayerPass;
    return host;
}

// Activation offloading per offloaded layer and micro batch: each copy runs on the copy engines beside the
// neighbouring layer's pass, exposed only beyond it and its TP collectives (docs/estimation.md, "CPU
// offloading"). The TP time splits between the passes as its collectives do (2 forward, 2 + recompute's
// backward).
double offloadPerLayer(const LayerTimes& lt, const RecomputeCost& rc, double tp, const Intermediates& im) {
    const double copy = im.offloadCopySecondsPerLayer;
    if (copy <= 0)
        return 0.0;
    const double tpForwardShare = 2.0 / (4.0 + rc.collectives);
    return std::max(0.0, copy - (lt.fwd() + tpForwardShare * tp)) +
           std::max(0.0, copy - (lt.bwd() + rc.seconds + (1 - tpForwardShare) * tp));
}

// What one layer of a stage costs per micro batch, each part after its overlap.
struct PerLayer {
    double compute = 0; // forward + backward
    RecomputeCost recompute;
    double tp = 0, ep = 0, cp = 0;
    FsdpTraffic fsdp;
    double host = 0;
    double offload = 0; // per offloaded layer
    double gpu() const { return compute + recompute.seconds + cp + fsdp.exposedPerLayer; }
};

PerLayer perLayerCosts(const EvalContext& x, const LayerTimes& lt, const Intermediates& im) {
    PerLayer c;
    c.compute = lt.fwd() + lt.bwd();
    c.recompute = recomputePerLayer(x, lt);
    c.tp = tpPerLayer(x, lt, c.recompute);
    c.ep = epPerLayer(x, lt, c.recompute);
    c.cp = (1.0 + x.recomputeShare) * lt.cpFwd + lt.cpBwd;
    c.fsdp = fsdpTraffic(x, lt, c.recompute);
    c.host = hostPerLayer(x);
    c.offload = offloadPerLayer(lt, c.recompute, c.tp, im);
    return c;
}

// The pipeline's stages for one micro batch: the slowest, their sum, and what the slowest holds.
struct StageTimes {
    double embed = 0, head = 0; // the first stage's embedding, the last stage's output layer and loss
    double p2p = 0;             // pipeline send/receive per micro batch, exposed
    double max = 0, sum = 0;
    double maxLayers = 0, maxExtra = 0;     // the slowest stage's layers and its embedding or head work
    double firstLayers = 0, lastLayers = 0; // the layers of the first and the last rank
    // The first, the last and the second rank's stage times (the middle ranks hold the second's layers unless
    // the stages are uneven), which the per-rank split reuses.
    double firstSeconds = 0, lastSeconds = 0, secondSeconds = 0;
};

// Output layer and loss, embedding, and the pipeline's point-to-point traffic per micro batch.
void timeStageEnds(const EvalContext& x, const PerLayer& c, StageTimes& st) {
    const double T = x.T;
    const double headFlops = 2.0 * T * x.h * x.V / x.t;
    // The output layer's GEMMs (forward, input and weight gradients) and the loss's (and any training
    // metric's) passes over the logits.
    const double lossTraffic =
        logitsTrafficBytesPerLogit(x.s.training, x.style, x.s.layout.tp) * T * x.V / x.t;
    st.head = 3.0 * x.gemm16Seconds(headFlops) + x.memSeconds(lossTraffic);
    st.embed = x.memSeconds(3.0 * 2.0 * T * x.h);
    // Pipeline point-to-point: activations forward, gradients backward (1/t each with scatter-gather).
    const double p2pBytes = 2.0 * T * x.h / x.t;
    st.p2p = x.p > 1 ? 2.0 * x.v * (sendSeconds(p2pBytes, x.ppLink) + x.traits.p2pFixedSeconds) : 0.0;
    if (x.s.training.overlapPpComm) // sends and receives posted ahead, completed behind the next chunk
        st.p2p = overlappedSeconds(st.p2p, x.Ls * (c.compute + c.recompute.seconds));
}

// One micro batch through a stage of `layers` layers with `extraGpu` of embedding or head work. TP
// collectives are NCCL kernels queued on the compute stream without a host wait: when the host is the
// bottleneck they run in the GPU's idle time, so they count as GPU work. The MoE all-to-all waits on the host
// for the token counts and pipeline send/receive blocks: those add to the host-or-GPU-bound compute time.
inline double stageSeconds(const EvalContext& x, const PerLayer& c, const StageTimes& st, double layers,
                           double extraGpu) {
    const double offloaded = std::min(x.offloadLayers, layers);
    return withHost(layers * (c.gpu() + c.tp) + offloaded * c.offload + c.fsdp.firstGather + extraGpu,
                    layers * c.host, x.traits.hostHidingExponent) +
           layers * c.ep + st.p2p;
}

StageTimes stageTimes(const EvalContext& x, const PerLayer& c) {
    StageTimes st;
    timeStageEnds(x, c, st);
    const int pp = x.s.layout.pp;
    const double firstLayers = x.layersOfRank(0), lastLayers = x.layersOfRank(pp - 1);
    st.firstLayers = firstLayers;
    st.lastLayers = lastLayers;
    st.maxLayers = x.Ls;
    st.maxExtra = st.embed + st.head;
    if (pp == 1) {
        st.max = stageSeconds(x, c, st, x.Ls, st.embed + st.head);
        st.sum = st.max;
        st.firstSeconds = st.lastSeconds = st.max;
        return st;
    }
    const double first = stageSeconds(x, c, st, firstLayers, st.embed);
    const double last = stageSeconds(x, c, st, lastLayers, st.head);
    st.firstSeconds = first;
    st.lastSeconds = last;
    // Middle ranks: with uneven stages the lower ranks hold one layer more than the higher ones.
    double midMax = 0, midSum = 0;
    if (pp > 2) {
        const double hi = stageSeconds(x, c, st, x.layersOfRank(1), 0.0);
        st.secondSeconds = hi;
        midMax = hi;
        if (!x.unevenStages) {
            midSum = (pp - 2.0) * hi;
        } else {
            for (int i = 1; i <= pp - 2; ++i)
                midSum += x.layersOfRank(i) == x.layersOfRank(1)
                              ? hi
                              : stageSeconds(x, c, st, x.layersOfRank(i), 0.0);
        }
    }
    st.max = std::max({first, midMax, last});
    st.sum = first + last + midSum;
    if (st.max == last && last >= first) {
        st.maxLayers = lastLayers;
        st.maxExtra = st.head;
    } else if (st.max == first) {
        st.maxLayers = firstLayers;
        st.maxExtra = st.embed;
    } else {
        st.maxLayers = x.layersOfRank(1);
        st.maxExtra = 0.0;
    }
    return st;
}

// Each rank's stage time per micro batch split into its parts, for the timeline; the host share is what
// withHost adds, so the parts add up to the stage time exactly as stageTimes sums it.
void splitStages(const EvalContext& x, const PerLayer& c, const StageTimes& st, const LayerTimes& lt,
                 PipelineTime& pt) {
    const int pp = x.s.layout.pp;
    pt.stages.assign(static_cast<std::size_t>(pp), StageTime{});
    for (int r = 0; r < pp; ++r) {
        StageTime& s = pt.stages[static_cast<std::size_t>(r)];
        const double layers = pp == 1 ? x.Ls : x.layersOfRank(r);
        const double extra = pp == 1 ? st.embed + st.head : r == 0 ? st.embed : r == pp - 1 ? st.head : 0.0;
        s.rank = r;
        s.layers = layers;
        s.totalSeconds = r == 0                                  ? st.firstSeconds
                         : r == pp - 1                           ? st.lastSeconds
                         : layers == x.layersOfRank(1) && pp > 2 ? st.secondSeconds
                                                                 : stageSeconds(x, c, st, layers, extra);
        s.forwardSeconds = layers * lt.fwd() + extra / 3.0;
        s.backwardSeconds = layers * lt.bwd() + 2.0 * extra / 3.0;
        s.recomputeSeconds = layers * c.recompute.seconds;
        s.layerCommSeconds = layers * (c.tp + c.cp + c.ep + c.fsdp.exposedPerLayer) + c.fsdp.firstGather +
                             std::min(x.offloadLayers, layers) * c.offload;
        s.pipelineSendSeconds = st.p2p;
        s.hostSeconds =
            std::max(0.0, s.totalSeconds - (s.forwardSeconds + s.backwardSeconds + s.recomputeSeconds +
                                            s.layerCommSeconds + s.pipelineSendSeconds));
    }
}

// Splits the steady part (m x the slowest stage) into components in proportion to the slowest stage's
// contents; the rest is host overhead. Returns the FSDP traffic inside the pipeline time.
double splitSteadyTime(const EvalContext& x, const PerLayer& c, const StageTimes& st, TimeBreakdown& tb) {
    const double steady = x.m * st.max;
    const double scale = x.m * (st.max > 0 ? 1.0 : 0.0);
    tb.computeSeconds = scale * (st.maxLayers * c.compute + st.maxExtra);
    tb.recomputeSeconds = scale * st.maxLayers * c.recompute.seconds;
    tb.tpCommSeconds = scale * st.maxLayers * c.tp;
    tb.epCommSeconds = scale * st.maxLayers * c.ep;
    tb.cpCommSeconds = scale * st.maxLayers * c.cp;
    tb.ppCommSeconds = scale * st.p2p;
    tb.offloadSeconds = scale * std::min(x.offloadLayers, st.maxLayers) * c.offload;
    const double fsdpInPipeline = scale * (st.maxLayers * c.fsdp.exposedPerLayer + c.fsdp.firstGather);
    tb.overheadSeconds = std::max(0.0, steady - (tb.computeSeconds + tb.recomputeSeconds + tb.tpCommSeconds +
                                                 tb.epCommSeconds + tb.cpCommSeconds + tb.ppCommSeconds +
                                                 tb.offloadSeconds + fsdpInPipeline));
    return fsdpInPipeline;
}

// The pipeline's idle time in its warm-up and drain (docs/estimation.md, "Pipeline bubble"): 1F1B and GPipe
// leave (p-1) stage times over v idle; ZB-H1 fills them with deferred weight-gradient (W) work, the paper's
// (p-1)(T_F + T_B - T_W) with T_B the input gradient alone: the stage time less twice its W.
double pipelineBubbleSeconds(const EvalContext& x, const StageTimes& st, double weightGradientSeconds) {
    const double fillAndDrain = (st.sum - st.max) / x.v;
    if (x.s.training.pipelineSchedule != PipelineSchedule::ZeroBubbleH1 || st.max <= 0)
        return fillAndDrain;
    return fillAndDrain * (1.0 - std::clamp(2.0 * weightGradientSeconds / st.max, 0.0, 1.0));
}

// One layer's parameters on a GPU, times TP: the dense part whole, the routed experts' TP / (ETP x EP) share.
double layerParamsOnTpGroup(const EvalContext& x) {
    return (x.layerParams - x.expertLayerParams) + x.expertLayerParams * x.t / (x.etp * x.ep);
}

// Parameters of the largest stage on one GPU: the first holds the embedding, the last the head, the middle
// ones layers only.
double largestStageParams(const EvalContext& x, const StageTimes& st) {
    const int pp = x.s.layout.pp;
    const double layerOnGpu = layerParamsOnTpGroup(x);
    double stageParams =
        std::max(st.firstLayers * layerOnGpu + x.embedParams, st.lastLayers * layerOnGpu + x.headParams);
    if (pp > 2)
        stageParams = std::max(stageParams, x.layersOfRank(1) * layerOnGpu);
    if (pp == 1)
        stageParams = x.Ls * layerOnGpu + x.embedParams + (x.s.model.tiedEmbeddings ? 0.0 : x.headParams);
    return stageParams / x.t;
}

// The routed experts' parameters of the busiest stage on one GPU (its 1/(ETP x EP) of each layer's experts);
// 0 for dense models.
double expertStageParams(const EvalContext& x) {
    return x.Ls * x.expertLayerParamsOnGpu();
}

// Whether NCCL's tree all-reduces `bytes` over n ranks of `link` faster than its ring: the tree's hops, or 0.
int treeHopsIfFaster(int n, double bytes, const Link& link) {
    return allReduceTreeSeconds(n, bytes, link) < allReduceRingSeconds(n, bytes, link)
               ? allReduceTreeHops(n, link)
               : 0;
}

// One data-parallel collective of `bytes` over the shard group, for the explanation and the diagnostic: a
// ring pass (ZeRO 1-3), or ZeRO 0's all-reduce, which may run on NCCL's tree.
void describeDpRing(const EvalContext& x, double bytes, Intermediates& im) {
    const int n = static_cast<int>(x.shardGroup);
    im.dpMessageBytes = bytes;
    im.dpBusBandwidth = x.dpLink.ringBusBandwidth(n, bytes);
    im.dpRingRanks = n;
    im.dpNominalBandwidth = x.dpLink.bandwidth;
    im.dpRingLatencySeconds = n > 1 ? (n - 1) * x.dpLink.latencySeconds : 0.0;
    im.dpRingBandwidthSeconds =
        n > 1 && im.dpBusBandwidth > 0 ? (n - 1.0) / n * bytes / im.dpBusBandwidth : 0.0;
    im.dpTreeHops = x.zero == 0 && n > 1 ? treeHopsIfFaster(n, bytes, x.dpLink) : 0;
    if (im.dpTreeHops > 0) {
        im.dpBusBandwidth = x.dpLink.busBandwidth(bytes);
        im.dpRingLatencySeconds = im.dpTreeHops * x.dpLink.latencySeconds;
        im.dpRingBandwidthSeconds = allReduceTreeSeconds(n, bytes, x.dpLink) - im.dpRingLatencySeconds;
    }
}

// Hybrid sharding's all-reduce of `gradientBytes` (sharded over the shard group) across the replicas.
void describeReplicaAllReduce(const EvalContext& x, double gradientBytes, Intermediates& im) {
    if (x.replicas <= 1)
        return;
    im.dpReplicaRanks = static_cast<int>(x.replicas);
    im.dpReplicaTreeHops = treeHopsIfFaster(im.dpReplicaRanks, gradientBytes / x.shardGroup, x.replicaLink);
}

// The data-parallel gradient reduction of ZeRO 0-2 for the largest stage's parameters, exposed beyond the
// backward it overlaps (ZeRO-3's traffic is per layer, in the pipeline).
double dpReductionSeconds(const EvalContext& x, const LayerTimes& lt, const PerLayer& c, double stageParams,
                          Intermediates& im, double& overlapped) {
    if (x.zero >= 3 && x.shardGroup * x.replicas > 1) {
        im.zero3GathersPerLayer = x.zero3GathersPerLayer;
        // One gather: a whole layer's (FSDP, the routed experts apart: their own unit), or a module's.
        const double gathered = x.s.training.zero3Gather == Zero3Gather::Layer
                                    ? x.layerParamsOnGpu() - x.expertLayerParamsOnGpu()
                                    : layerParamsOnTpGroup(x) / x.t / x.zero3GathersPerLayer;
        describeDpRing(x, x.gatherBytesPerParam * gathered, im);
        const double layerParams = x.layerParamsOnGpu();
        const double reduced = x.s.training.zero3Gather == Zero3Gather::Module
                                   ? std::min(kDeepSpeedReduceBucketParams, x.Ls * layerParams)
                                   : layerParams;
        describeReplicaAllReduce(x, reduced * x.grads.reduceBytes, im);
    }
    if (x.zero >= 3 || x.shardGroup * x.replicas <= 1)
        return 0;
    // The routed experts' share of the stage (MoE) is reduced over its own expert-DP group and link.
    const double expertParams = std::min(stageParams, expertStageParams(x));
    const double denseParams = stageParams - expertParams;
    const double bytes = denseParams * x.grads.reduceBytes;
    describeDpRing(x, bytes, im);
    describeReplicaAllReduce(x, bytes, im);
    // ZeRO 0: all-reduce of the gradients. ZeRO 1-2 (distributed optimizer): reduce-scatter of the gradients,
    // then all-gather of the updated 16-bit weights; with hybrid sharding (several optimizer instances) the
    // reduced shard is all-reduced across the replicas in between.
    const auto reduction = [&x](double params, int group, const Link& link) {
        if (params <= 0 || group * x.replicas <= 1)
            return 0.0;
        const double gradBytes = params * x.grads.reduceBytes;
        return x.zero == 0 ? allReduceSeconds(group, gradBytes, link)
                           : allGatherSeconds(group, gradBytes, link) +
                                 allReduceSeconds(x.replicas, gradBytes / group, x.replicaLink) +
                                 allGatherSeconds(group, params * x.gatherBytesPerParam, link);
    };
    const double expertReduce = reduction(expertParams, x.expertShardGroup, x.expertDpLink);
    if (expertParams > 0 && x.expertShardGroup * x.replicas > 1) {
        im.expertDpMessageBytes = expertParams * x.grads.reduceBytes;
        im.expertDpRanks = x.expertShardGroup;
        im.expertDpBusBandwidth =
            x.expertDpLink.ringBusBandwidth(x.expertShardGroup, im.expertDpMessageBytes);
        im.expertDpSeconds = expertReduce;
    }
    const double reduce = reduction(denseParams, x.shardGroup, x.dpLink) + expertReduce;
    const bool overlap = x.traits.overlapGradReduce || overlapsDpComm(x.s);
    const double window = overlap ? x.Ls * (lt.bwd() + c.recompute.seconds) : 0.0;
    const double exposed = overlappedSeconds(reduce, window);
    overlapped = std::max(0.0, reduce - exposed);
    return exposed;
}

// The optimizer step: memory-bound over the parameters whose state this GPU holds; offloaded, on the CPU at
// its share of the host's DRAM bandwidth (docs/estimation.md, "CPU offloading").
double optimizerStepSeconds(const EvalContext& x, const LayerTimes& lt, const PerLayer& c, double stageParams,
                            Intermediates& im) {
    const double expertParams = std::min(stageParams, expertStageParams(x));
    const double heldParams = x.zero >= 1 ? (stageParams - expertParams) / x.shardGroup +
                                                expertParams / std::max(1, x.expertShardGroup)
                                          : stageParams;
    const double bytesPerParam = optimizerStepBytesPerParam(x.s.training);
    if (!x.optimizerOffload)
        return x.memSeconds(heldParams * bytesPerParam);
    // After the held gradients have crossed to the host (streamed out during the last backward, as
    // ZeRO-Offload does) and before the updated 16-bit weights cross back.
    im.cpuOptimizerSeconds =
        heldParams * bytesPerParam / (x.s.cluster.gpu.hostMemoryBandwidth * kCpuOptimizerEfficiency);
    const double gradsOut = x.hostCopySeconds(heldParams * x.grads.reduceBytes);
    const double weightsIn = x.hostCopySeconds(heldParams * 2.0);
    im.optimizerTransferSeconds =
        overlappedSeconds(gradsOut, x.Ls * (lt.bwd() + c.recompute.seconds)) + weightsIn;
    return im.cpuOptimizerSeconds + im.optimizerTransferSeconds;
}

// FLOPs per token (model: forward + backward; hardware: + recompute).
void countFlopsPerToken(const EvalContext& x, const Plan& plan, Intermediates& im) {
    const ModelSpec& mo = x.s.model;
    const double attnFull = 6.0 * mo.layers * x.a * (mo.qkHeadDim() + mo.vHeadDim()) * x.seq;
    const double attn = x.s.training.attentionFlops == AttentionFlops::Causal ? 0.5 * attnFull : attnFull;
    im.attentionFlopsPerToken = attn;
    im.flopsPerTokenModel = 6.0 * plan.params.matmulActive + attn;
    const double layerMatmul = plan.params.matmulActive - static_cast<double>(mo.vocab) * mo.hidden;
    double recomputeFlops = 0;
    switch (x.recompute) {
    case Recompute::None:
        break;
    case Recompute::Selective:
        if (x.rematPolicy != RematPolicy::Auto) {
            recomputeFlops = rematRecomputeFlopsPerToken(x, attn);
            break;
        }
        recomputeFlops = x.style == ExecutionStyle::Fsdp
                             ? x.traits.selectiveMatmulRecompute * 2.0 * layerMatmul
                             : (x.flash || !(x.recomputeModules & kRecomputeCoreAttn) ? 0.0 : attn / 3.0) +
                                   moduleRecomputeFlopsPerToken(x);
        break;
    case Recompute::Full:
        recomputeFlops = x.recomputeShare * (2.0 * layerMatmul + attn / 3.0);
        break;
    }
    im.flopsPerTokenHardware = im.flopsPerTokenModel + recomputeFlops;
}

} // namespace

void computeTime(const EvalContext& x, Plan& plan) {
    Intermediates& im = plan.intermediates;
    TimeBreakdown& tb = plan.time;
    const LayerTimes lt = layerTimes(x, im);
    const PerLayer c = perLayerCosts(x, lt, im);

    const StageTimes st = stageTimes(x, c);
    im.microbatchStageSeconds = st.max;
    im.otherStagesSeconds = st.sum - st.max;
    im.microbatches = x.m;
    im.layersPerStage = x.Ls;
    const double fsdpInPipeline = splitSteadyTime(x, c, st, tb);
    im.stageForwardSeconds = st.maxLayers * lt.fwd();
    im.stageBackwardSeconds = st.maxLayers * lt.bwd();
    im.backwardWeightSeconds = st.maxLayers * lt.gemmFwd; // half the backward's GEMMs
    tb.bubbleSeconds = pipelineBubbleSeconds(x, st, im.backwardWeightSeconds);
    tb.schedule = x.s.training.pipelineSchedule;
    tb.bubbleFraction = x.m * st.max > 0 ? tb.bubbleSeconds / (x.m * st.max) : 0;
    const double pipeline = x.m * st.max + tb.bubbleSeconds;

    const double stageParams = largestStageParams(x, st);
    PipelineTime& pt = plan.pipeline;
    splitStages(x, c, st, lt, pt);
    pt.seconds = pipeline;
    const double dpExposed = fsdpInPipeline + c.fsdp.oncePerStep +
                             dpReductionSeconds(x, lt, c, stageParams, im, pt.dataParallelOverlappedSeconds);
    pt.dataParallelTailSeconds = dpExposed - fsdpInPipeline;
    tb.dpCommExposedSeconds = dpExposed;
    im.fsdpBulkReduceSeconds = c.fsdp.bulkReduce;
    tb.optimizerSeconds = optimizerStepSeconds(x, lt, c, stageParams, im);
    const double loadSeconds = x.b * x.m * x.seq / x.s.training.loaderTokensPerSecond;
    tb.loaderSeconds = x.s.training.loaderPrefetch ? std::max(0.0, loadSeconds - pipeline) : loadSeconds;

    // The FSDP part of dpExposed already sits inside the pipeline time; count it once.
    const double base = pipeline + (dpExposed - fsdpInPipeline) + tb.optimizerSeconds + tb.loaderSeconds;
    tb.stragglerSeconds = base * x.s.training.stragglerSlowdown;
    tb.stepSeconds = std::max(base + tb.stragglerSeconds, 1e-12);
    countFlopsPerToken(x, plan, im);
}

} // namespace lp::core::detail
