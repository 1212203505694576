// Memory per GPU per pipeline stage (ESTIMATION.md sections 2-4).
#include "core/estimate/detail/EvalContext.h"

#include <algorithm>
#include <cmath>

namespace lp::core::detail {

double stateBytesPerParam(const TrainingOptions& t) {
    // 16-bit weights + 16-bit gradients + optimizer state (master copy and moments).
    return 2.0 + 2.0 + optimizerBytesPerParam(t);
}

EvalContext::EvalContext(const Scenario& scenario, const HardwareProfile& profile, const Plan& plan)
    : s(scenario), prof(profile), traits(styleTraits(plan.style)), style(plan.style) {
    const ModelSpec& mo = s.model;
    const Layout& l = s.layout;
    const TrainingOptions& tr = s.training;
    const ClusterSpec& cl = s.cluster;
    t = l.tp;
    p = l.pp;
    dp = l.dp;
    c = l.cp;
    v = l.vpp;
    b = l.microBatch;
    m = l.accumulation;
    L = mo.layers;
    splitCountsEmbedLoss = pipelineSplitCountsEmbeddingAndLoss(s);
    splitUnits = mo.layers + (splitCountsEmbedLoss ? 2 : 0);
    unevenStages = splitUnits % (static_cast<long long>(l.pp) * l.vpp) != 0;
    Ls = layersOfRank(0);
    if (splitCountsEmbedLoss)
        for (int i = 1; i < l.pp; ++i)
            Ls = std::max(Ls, layersOfRank(i));
    h = mo.hidden;
    a = mo.heads;
    k = mo.kvHeads;
    d = mo.headDim();
    f = mo.ffnHidden;
    V = mo.vocab;
    seq = mo.seqLen;
    ad = a * d;
    kd = k * d;
    if (mo.attention == AttentionKind::Mla) {
        aQk = a * mo.qkHeadDim();
        kQk = aQk; // keys are materialised per head for the attention kernel
        aV = a * mo.vHeadDim();
        kV = aV;
    } else {
        aQk = aV = ad;
        kQk = kV = kd;
    }
    T = b * seq / c;
    sp = tr.sequenceParallel && l.tp > 1;
    hRep = sp ? 1.0 / t : 1.0;
    flash = tr.flashAttention;
    unfusedSoftmax = unfusedSoftmaxFallback(s);
    cpGatherOnce = cpExchangeOf(tr, style) == CpExchange::AllGather;
    cpKvWidth = traits.cpTorchRingAttention ? aQk + aV : kQk + kV;
    dropout = mo.dropout;
    fp8 = tr.precision == Precision::Fp8 && cl.gpu.peakFlops8 > 0;
    fp8Habit = fp8Habits(s, style);
    gatherBytesPerParam = fp8 && tr.fp8ParamGather ? 1.0 : 2.0;
    grads = gradientFormat(tr, style);
    recompute = tr.recompute;
    if (recompute == Recompute::Selective)
        rematPolicy = tr.rematPolicy;
    if (recompute == Recompute::Selective && style == ExecutionStyle::Megatron &&
        rematPolicy == RematPolicy::Auto)
        recomputeModules = tr.recomputeModules & kRecomputeModulesAll;
    if (recompute == Recompute::Full) {
        const double perChunk = Ls / std::max(1.0, v);
        recomputeShare =
            tr.recomputeLayers <= 0 || perChunk <= 0 ? 1.0 : std::min(1.0, tr.recomputeLayers / perChunk);
    }
    zero = tr.zeroStage;
    const int shardDegree = effectiveShardDegree(s);
    shardGroup = shardDegree * l.cp;
    replicas = l.dp / std::max(1, shardDegree);
    fsdpStageGathered = zero >= 3 && shardGroup > 1 && l.pp > 1 && traits.fsdpKeepsStageGatheredWithPp;
    optimizerOffload = tr.optimizerOffload;
    offloadLayers = std::max(0, tr.activationOffloadLayers);

    const ParameterCount& pc = plan.params;
    layerParams = pc.layersTotal / L;
    expertLayerParams = pc.routedExpertsTotal / L;
    if (mo.isMoe()) {
        moe = true;
        ep = l.ep;
        experts = mo.moe.experts;
        topK = mo.moe.topK;
        fe = mo.moe.expertFfnHidden;
        sharedExperts = mo.moe.sharedExperts;
        moeFraction = static_cast<double>(mo.moeLayerCount()) / mo.layers;
        imbalance = std::max(1.0, tr.moeLoadImbalance);
        const int resolvedEtp = std::max(1, expertTensorParallel(s));
        etp = resolvedEtp;
        expertTokens = T * std::min(1.0, etp * hRep);
        // The expert layers regroup the stage's TP x CP x DP ranks as ETP x EP x expert-DP; the state of one
        // expert shard is sharded over the expert-DP ranks of the shard group.
        expertShardGroup =
            std::max(1, static_cast<int>(static_cast<long long>(shardGroup) * l.tp /
                                         (static_cast<long long>(std::max(1, l.ep)) * resolvedEtp)));
    }
    embedParams = pc.embedding;
    headParams = mo.tiedEmbeddings ? static_cast<double>(mo.vocab) * mo.hidden : pc.head;
    finalNormParams = pc.finalNorm;
    normParamsPerLayer = pc.normsPerLayer;
    {
        // QKV and output projections (MLA: two down- and two up-projections more); the MLP's two GEMMs
        // (gate and up fused), per local expert in MoE layers.
        const double attn = mo.attention == AttentionKind::Mla ? 4.0 : 2.0;
        double mlp = 2.0;
        if (moe)
            mlp = (1.0 - moeFraction) * 2.0 +
                  moeFraction * 2.0 * (experts / ep + sharedExperts + 0.5); // + router
        fp8ModulesPerLayer = attn + mlp;
    }

    // Placement (Megatron order: TP innermost, then CP, then DP, PP outermost).
    const long long node = cl.gpusPerNode;
    const long long domain = cl.nvlinkDomain;
    tpCrossesNodes = l.tp > domain;
    cpCrossesNodes = l.cp > 1 && static_cast<long long>(l.tp) * l.cp > domain;
    dpCrossesNodes = static_cast<long long>(l.tp) * l.cp * l.dp > domain;
    // A shard group is DP-contiguous (TP innermost, then CP, then DP): TP x CP x shard degree GPUs.
    const long long shardSpan = static_cast<long long>(l.tp) * shardGroup;
    const bool shardCrossesNodes = shardSpan > domain;
    ppCrossesNodes = static_cast<long long>(l.tp) * l.cp * l.dp >= node || l.gpus() > domain;
    // Expert layers regroup the same ranks (Megatron-Core's MoE parallel folding, order etp-ep-dp-pp;
    // torchtitan borrows EP from the CP and FSDP ranks next to TP, and from TP itself with ETP 1): an EP
    // group is EP consecutive expert-TP groups, ETP x EP GPUs, whatever CP is.
    epCrossesNodes = l.ep > 1 && static_cast<long long>(etp) * l.ep > domain;
    const bool shardingTraffic = shardGroup > 1 && tr.zeroStage >= 3;
    shardingSharesNicWithTp = shardingTraffic && tpCrossesNodes && shardCrossesNodes;

    const double nvLat =
        profile.nvlinkLatencySeconds > 0 ? profile.nvlinkLatencySeconds : cl.nvlinkLatencySeconds;
    const double netLat =
        profile.networkLatencySeconds > 0 ? profile.networkLatencySeconds : cl.networkLatencySeconds;
    const Link nv{cl.gpu.nvlinkBandwidth, &profile.nvlinkBusEfficiency, nvLat};
    const Link net{cl.gpu.networkBandwidth, &profile.networkBusEfficiency, netLat};
    Link netShared = net;
    if (shardingSharesNicWithTp)
        netShared.bandwidth *= 0.5; // two kinds of traffic on one card: each gets its share
    // Collectives across nodes: NCCL runs one ring per network card, and each GPU has its own card
    // (rail-optimised DGX/HGX), so a group with k members in each NVLink domain drives k cards at once: bus
    // bandwidth k x the card's, up to NVLink's. Point-to-point traffic (pipeline, ring attention) and
    // all-to-alls keep one card's bandwidth.
    auto rails = [&](const Link& card, long long membersPerDomain) {
        Link link = card;
        link.bandwidth = std::min(cl.gpu.nvlinkBandwidth,
                                  static_cast<double>(std::max(1LL, membersPerDomain)) * card.bandwidth);
        return link;
    };
    // A TP group larger than the NVLink domain has a domain's worth of members in each.
    tpLink = tpCrossesNodes ? rails(netShared, domain) : nv;
    cpLink = cpCrossesNodes ? net : nv;
    // Data-parallel and sharding collectives: domain / TP members of the shard group in each domain.
    dpLink = shardCrossesNodes ? rails(netShared, domain / std::max(1, l.tp)) : nv;
    // Hybrid sharding: the replicas of one shard sit a shard group apart, so a domain holds
    // domain / (TP x CP x shard degree) of them (at least one); each drives its own card.
    replicaLink = replicas > 1 && dpCrossesNodes ? rails(net, domain / std::max(1LL, shardSpan)) : nv;
    ppLink = ppCrossesNodes ? net : nv;
    epLink = epCrossesNodes ? net : nv;
    epIntraLink = nv;
    epMembersPerDomain =
        std::min<double>(std::max(1, l.ep), std::max<double>(1.0, static_cast<double>(domain) / etp));

    peak16 = cl.gpu.peakFlops16;
    peakLinear = fp8 ? cl.gpu.peakFlops8 : peak16;
    linearCurve =
        fp8 && !profile.gemmEfficiencyFp8.empty() ? &profile.gemmEfficiencyFp8 : &profile.gemmEfficiency;
}

double EvalContext::layersOfRank(int i) const {
    const int pp = s.layout.pp, vpp = s.layout.vpp;
    const int chunks = pp * vpp;
    const int base = splitUnits / chunks, rem = splitUnits % chunks;
    const int extra = rem > i ? std::min(vpp, (rem - i - 1) / pp + 1) : 0;
    int layers = vpp * base + extra;
    if (splitCountsEmbedLoss)
        layers -= (i == 0 ? 1 : 0) + (i == pp - 1 ? 1 : 0); // the embedding's and the loss's units
    return static_cast<double>(layers);
}

double EvalContext::gemmSeconds(double flops) const {
    if (flops <= 0)
        return 0;
    return flops / (peakLinear * linearCurve->at(flops));
}

double EvalContext::gemm16Seconds(double flops) const {
    if (flops <= 0)
        return 0;
    return flops / (peak16 * prof.gemmEfficiency.at(flops));
}

double EvalContext::memSeconds(double bytes) const {
    return bytes / (s.cluster.gpu.hbmBandwidth * prof.kernels.hbmEfficiency);
}

double EvalContext::hostCopySeconds(double bytes) const {
    return bytes / (s.cluster.gpu.hostLinkBandwidth * kHostLinkEfficiency);
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

} // namespace

void computeMemory(const EvalContext& x, Plan& plan) {
    const TrainingOptions& tr = x.s.training;
    const StyleTraits& st = x.traits;
    Intermediates& im = plan.intermediates;
    MemoryPlan& mem = plan.memory;
    const int stages = x.s.layout.pp;
    mem.stages.assign(static_cast<std::size_t>(stages), StageMemory{});
    mem.capacityBytes = x.s.cluster.gpu.hbmBytes;
    mem.hostCapacityBytes = x.s.cluster.gpu.hostMemoryBytes;

    // Bytes per parameter held on a GPU, after ZeRO/FSDP sharding over DP x CP (routed experts: over
    // DP x CP / EP, the ranks that hold the same experts).
    const double optBytes = optimizerBytesPerParam(tr);
    // FSDP with a pipeline keeps the stage's 16-bit weights gathered and accumulates unsharded gradients
    // (in the reduction dtype) until the last micro batch. Megatron's gradient buffer is fp32 in bf16/fp8.
    auto wBytes = [&](double n) { return x.zero >= 3 && !x.fsdpStageGathered ? 2.0 / n : 2.0; };
    auto gBytes = [&](double n) {
        if (x.fsdpStageGathered)
            return x.grads.reduceBytes;
        return x.zero >= 2 ? x.grads.heldBytes / n : x.grads.heldBytes;
    };
    auto oBytes = [&](double n) { return x.zero >= 1 ? optBytes / n : optBytes; };
    const double nDense = x.shardGroup;
    const double nExpert = x.expertShardGroup;

    // Activations.
    const LayerActivations la = layerActivations(x);
    double perLayer = la.replicated + la.split + la.attentionCore;
    const double fullLayer = perLayer;
    switch (x.recompute) {
    case Recompute::None:
        break;
    case Recompute::Selective:
        if (x.rematPolicy != RematPolicy::Auto) {
            perLayer = rematKeptBytes(x);
            break;
        }
        if (x.style != ExecutionStyle::Megatron) {
            perLayer = (la.replicated + la.split) * st.selectiveActivationKeep;
            break;
        }
        perLayer -= recomputedModuleBytes(la, x.recomputeModules);
        break;
    case Recompute::Full: // recomputed layers keep only their input, the others (block recompute) everything
        perLayer = x.recomputeShare * 2.0 * x.T * x.h * x.hRep + (1.0 - x.recomputeShare) * fullLayer;
        break;
    }
    im.activationBytesPerLayer = perLayer;
    // Micro batches' worth of a rank's layers held at its peak: the schedule's warm-up forwards and the one
    // running. 1F1B: min(p - i, m). Interleaved (Megatron-LM's and torch's Interleaved1F1B alike): (p - i -
    // 1) x 2
    // + (v - 1) x p warm-up chunk forwards, at most the m x v chunks there are, each 1/v of the rank's
    // layers. On the first rank this is Korthikanti's p x (1 + (p - 1)/(p v)) when m >= p; the last rank
    // holds about p/v micro batches, not one.
    auto microBatchesInFlight = [&](int rank) {
        if (stages == 1)
            return 1.0;
        if (x.v <= 1)
            return std::min(static_cast<double>(stages - rank), x.m);
        const double chunks = 2.0 * (stages - rank - 1) + (x.v - 1.0) * stages + 1.0;
        return std::min(chunks, x.m * x.v) / x.v;
    };
    // A fused linear cross-entropy holds one chunk of about h/V of the logits in fp32 and its gradient
    // (never more than a fused kernel would hold for the whole logits: a small vocabulary is one chunk).
    const double fusedLogits = kFusedLossBytesPerLogit * x.T * x.V / x.t;
    const CrossEntropy lossKind = lossKernel(tr, x.style);
    const double logits = lossKind == CrossEntropy::FusedLinear
                              ? std::min(fusedLogits, 2.0 * 4.0 * x.T * x.h / x.t)
                              : lossBytesPerLogit(lossKind, x.style, x.s.layout.tp) * x.T * x.V / x.t;
    im.logitsBytes = logits;
    // Training metrics computed from the logits after each micro batch's backward (Composer's): its layers'
    // tensors and the loss's buffers are freed by then, and the metric's fp32 copies take their place.
    const double metricLogits =
        tr.logitsMetricPasses > 0 ? kLogitsMetricBytesPerLogit * x.T * x.V / x.t : 0.0;
    im.logitsMetricBytes = metricLogits;

    // Context parallel in the layer being computed: the K/V chunks it holds (16-bit; the one in use and the
    // one arriving on a ring, every rank's after an all-gather) and, with torch's ring attention (K/V at
    // the repeated width), the fp32 dQ, dK and dV accumulators with the fp32 dK/dV pair on its way around
    // the ring (sent and received).
    double cpBuffers = 0;
    if (x.c > 1) {
        const double nQ = x.T * x.aQk / x.t, nKv = x.T * x.cpKvWidth / x.t;
        cpBuffers = 2.0 * (x.cpGatherOnce ? x.c : 2.0) * nKv;
        if (st.cpTorchRingAttention)
            cpBuffers += 4.0 * (nQ + 3.0 * nKv);
    }
    im.cpBufferBytes = cpBuffers;

    const double overheadFixed = st.cudaContextBytes + st.commBufferBytes;
    const double layerOnGpu =
        (x.layerParams - x.expertLayerParams) / x.t + x.expertLayerParams / (x.etp * x.ep);
    const double gatherBuffers = x.zero >= 3 && !x.fsdpStageGathered
                                     ? layerOnGpu * (x.gatherBytesPerParam * st.fsdpLayersInFlight + 4.0)
                                     : 0.0; // gathered layers (16-bit, or fp8) + fp32 grads

    // FP8: cached fp8 copies of the linear weights this GPU computes with (all of its stage, or only the
    // gathered layers with ZeRO-3), and the scaling state of every fp8 linear module.
    const Fp8Habits& f8 = x.fp8Habit;
    const double linearPerLayer = layerOnGpu - x.normParamsPerLayer / x.t;
    auto fp8Copies = [&](double layers) {
        const double copied = x.zero >= 3 ? std::min(layers, st.fsdpLayersInFlight) : layers;
        return f8.active ? copied * linearPerLayer * f8.weightCopyBytesPerParam : 0.0;
    };
    auto fp8Scaling = [&](double layers) {
        return f8.active ? layers * x.fp8ModulesPerLayer * fp8ScalingBytesPerModule(f8) : 0.0;
    };

    // torch.distributed.pipelining: a stage-boundary tensor (the layer input above) per micro batch, received
    // into a buffer allocated once for every micro batch of the step, forward (all but global stage 0) and
    // backward (all but the last global stage), plus each in-flight micro batch's output, cached until its
    // backward. The in-flight inputs are the first layer's saved inputs already counted above, and the cached
    // outputs of a middle stage match them; the first rank's cached outputs come on top, and on the last rank
    // the last stage caches no output for its in-flight inputs.
    auto pipelineBuffers = [&](int rank, double inFlight) {
        if (!st.torchPipelineBuffers || stages == 1)
            return 0.0;
        const double chunks = std::max(1.0, x.v);
        double tensors =
            2.0 * chunks * x.m; // forward and backward receive buffers for each chunk on this rank
        if (rank == 0)
            tensors += inFlight - x.m; // global stage 0 receives no activations; its outputs are cached
        else if (rank == stages - 1)
            tensors -= x.m + inFlight / chunks; // the last stage receives no gradients, caches no outputs
        return 2.0 * x.T * x.h * x.hRep * std::max(0.0, tensors);
    };

    double worst = -1;
    for (int i = 0; i < stages; ++i) {
        StageMemory& sm = mem.stages[static_cast<std::size_t>(i)];
        sm.stage = i;
        const double layers = x.layersOfRank(i);
        sm.layers = static_cast<int>(layers);
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
        sm.weightsBytes =
            params * wBytes(nDense) + expertParams * wBytes(nExpert) + fp8Copies(layers) + fp8Scaling(layers);
        sm.gradientsBytes = params * gBytes(nDense) + expertParams * gBytes(nExpert);
        sm.optimizerBytes = params * oBytes(nDense) + expertParams * oBytes(nExpert);
        double gradientsHeld = 0; // the gradient shard moved to the host
        if (x.optimizerOffload) {
            // The optimizer's state lives in host memory; with ZeRO 2-3 the reduced gradient shard is copied
            // there as it is produced (ZeRO 0-1 reduce the whole gradient on the GPU, so it stays).
            sm.hostBytes = sm.optimizerBytes;
            sm.optimizerBytes = 0;
            if (x.zero >= 2 && !x.fsdpStageGathered) {
                gradientsHeld = sm.gradientsBytes;
                sm.hostBytes += gradientsHeld;
                sm.gradientsBytes = 0;
            }
        }

        const double inFlight = microBatchesInFlight(i);
        double act = layers * inFlight * perLayer;
        // Activation offloading: the offloaded layers' saved tensors wait in host memory; the GPU keeps one
        // layer's worth as the staging buffer of the copy in flight.
        const double offloaded = std::min(x.offloadLayers, layers);
        if (offloaded > 0) {
            const double moved = offloaded * inFlight * perLayer;
            act += perLayer - moved;
            sm.hostBytes += moved;
        }
        if (x.recompute == Recompute::Full)
            act += fullLayer; // the layer being recomputed during backward holds all its tensors
        act += cpBuffers;
        const double pipeBuffers = pipelineBuffers(i, inFlight);
        act += pipeBuffers;
        if (i == stages - 1) {
            act += logits + 2.0 * x.T * x.h * x.hRep;
            const double afterBackward = std::max(0.0, act - logits - layers * perLayer) + metricLogits;
            im.logitsMetricPeak = afterBackward > act;
            act = std::max(act, afterBackward);
        }
        sm.activationsBytes = act;
        if (i == 0)
            im.activationLayersInFlight = layers * inFlight;

        const double allocated =
            sm.weightsBytes + sm.gradientsBytes + sm.optimizerBytes + act + gatherBuffers;
        sm.overheadBytes = overheadFixed + gatherBuffers + tr.allocatorReserveFraction * allocated;
        sm.totalBytes =
            sm.weightsBytes + sm.gradientsBytes + sm.optimizerBytes + sm.activationsBytes + sm.overheadBytes;
        if (sm.hostBytes > mem.hostBytesPerGpu) { // the stage that needs the most host memory
            mem.hostBytesPerGpu = sm.hostBytes;
            im.offloadedLayers = static_cast<int>(offloaded);
            im.offloadMicroBatchesInFlight = offloaded > 0 ? inFlight : 0.0;
            im.offloadedActivationBytes = offloaded > 0 ? offloaded * inFlight * perLayer : 0.0;
            im.offloadedGradientBytes = gradientsHeld;
            im.offloadedStateBytes = sm.hostBytes - im.offloadedActivationBytes - im.offloadedGradientBytes;
        }
        if (sm.totalBytes > worst) {
            worst = sm.totalBytes;
            mem.worstStage = i;
            im.pipelineBufferBytes = pipeBuffers;
            im.worstStageLayersInFlight = layers * inFlight;
        }
    }
    im.offloadBytesPerLayer = x.offloadLayers > 0 ? perLayer : 0.0;
    im.offloadCopySecondsPerLayer = x.hostCopySeconds(im.offloadBytesPerLayer);
    const StageMemory& w = mem.stages[static_cast<std::size_t>(mem.worstStage)];
    im.fp8WeightCopyBytes = fp8Copies(w.layers);
    im.fp8ScalingStateBytes = fp8Scaling(w.layers);
    mem.headroomBytes = mem.capacityBytes - w.totalBytes;
    mem.fits = mem.headroomBytes >= 0;
    const double parts[5] = {w.weightsBytes, w.gradientsBytes, w.optimizerBytes, w.activationsBytes,
                             w.overheadBytes};
    mem.largestComponent = static_cast<MemoryComponent>(std::max_element(parts, parts + 5) - parts);
}

} // namespace lp::core::detail
