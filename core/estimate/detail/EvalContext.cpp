#include "core/estimate/detail/EvalContext.h"

#include <algorithm>

namespace lp::core::detail {
namespace {

// The layout's and the model's sizes as the formulas' symbols, and the pipeline split.
void setShape(EvalContext& x) {
    const ModelSpec& mo = x.s.model;
    const Layout& l = x.s.layout;
    x.t = l.tp;
    x.p = l.pp;
    x.dp = l.dp;
    x.c = l.cp;
    x.v = l.vpp;
    x.b = l.microBatch;
    x.m = l.accumulation;
    x.L = mo.layers;
    x.splitCountsEmbedLoss = pipelineSplitCountsEmbeddingAndLoss(x.s);
    x.splitUnits = mo.layers + (x.splitCountsEmbedLoss ? 2 : 0);
    x.unevenStages = x.splitUnits % (static_cast<long long>(l.pp) * l.vpp) != 0;
    x.Ls = x.layersOfRank(0);
    if (x.splitCountsEmbedLoss)
        for (int i = 1; i < l.pp; ++i)
            x.Ls = std::max(x.Ls, x.layersOfRank(i));
    x.h = mo.hidden;
    x.a = mo.heads;
    x.k = mo.kvHeads;
    x.d = mo.headDim();
    x.f = mo.ffnHidden;
    x.V = mo.vocab;
    x.seq = mo.seqLen;
    x.ad = x.a * x.d;
    x.kd = x.k * x.d;
    if (mo.attention == AttentionKind::Mla) {
        x.aQk = x.a * mo.qkHeadDim();
        x.kQk = x.aQk; // keys are materialised per head for the attention kernel
        x.aV = x.a * mo.vHeadDim();
        x.kV = x.aV;
    } else {
        x.aQk = x.aV = x.ad;
        x.kQk = x.kV = x.kd;
    }
    x.T = x.b * x.seq / x.c;
    x.sp = x.s.training.sequenceParallel && l.tp > 1;
    x.hRep = x.sp ? 1.0 / x.t : 1.0;
}

// The kernels and number formats the style and the options choose.
void setKernelsAndFormats(EvalContext& x) {
    const TrainingOptions& tr = x.s.training;
    x.flash = fusedAttention(tr);
    x.attentionKernel = attentionKernelOf(tr, x.style, x.prof.kernels);
    x.unfusedSoftmax = unfusedSoftmaxFallback(x.s);
    x.cpGatherOnce = cpExchangeOf(tr, x.style) == CpExchange::AllGather;
    x.cpKvWidth = x.traits.cpTorchRingAttention ? x.aQk + x.aV : x.kQk + x.kV;
    x.dropout = x.s.model.dropout;
    x.fp8 = tr.precision == Precision::Fp8 && x.s.cluster.gpu.peakFlops8 > 0;
    x.fp8Habit = fp8Habits(x.s, x.style);
    x.gatherBytesPerParam = x.fp8 && tr.fp8ParamGather ? 1.0 : 2.0;
    x.grads = gradientFormat(x.s, x.style);
}

// Recompute, ZeRO/FSDP sharding and CPU offloading.
void setRecomputeAndSharding(EvalContext& x) {
    const TrainingOptions& tr = x.s.training;
    const Layout& l = x.s.layout;
    x.recompute = tr.recompute;
    if (x.recompute == Recompute::Selective)
        x.rematPolicy = tr.rematPolicy;
    if (x.recompute == Recompute::Selective && x.style == ExecutionStyle::Megatron &&
        x.rematPolicy == RematPolicy::Auto)
        x.recomputeModules = tr.recomputeModules & kRecomputeModulesAll;
    if (x.recompute == Recompute::Full) {
        const double perChunk = x.Ls / std::max(1.0, x.v);
        x.recomputeShare =
            tr.recomputeLayers <= 0 || perChunk <= 0 ? 1.0 : std::min(1.0, tr.recomputeLayers / perChunk);
    }
    x.zero = tr.zeroStage;
    const int shardDegree = effectiveShardDegree(x.s);
    x.shardGroup = shardDegree * l.cp;
    x.replicas = l.dp / std::max(1, shardDegree);
    x.fsdpStageGathered =
        x.zero >= 3 && x.shardGroup > 1 && l.pp > 1 && x.traits.fsdpKeepsStageGatheredWithPp;
    x.optimizerOffload = tr.optimizerOffload;
    x.offloadLayers = std::max(0, tr.activationOffloadLayers);
}

// The mixture of experts: experts, routing and expert tensor parallelism (zeros for dense models).
void setExperts(EvalContext& x) {
    const ModelSpec& mo = x.s.model;
    const Layout& l = x.s.layout;
    if (!mo.isMoe())
        return;
    x.moe = true;
    x.ep = l.ep;
    x.experts = mo.moe.experts;
    x.topK = mo.moe.topK;
    x.fe = mo.moe.expertFfnHidden;
    x.sharedExperts = mo.moe.sharedExperts;
    x.moeFraction = static_cast<double>(mo.moeLayerCount()) / mo.layers;
    x.imbalance = std::max(1.0, x.s.training.moeLoadImbalance);
    const int resolvedEtp = std::max(1, expertTensorParallel(x.s));
    x.etp = resolvedEtp;
    x.expertTokens = x.T * std::min(1.0, x.etp * x.hRep);
    // The expert layers regroup the stage's TP x CP x DP ranks as ETP x EP x expert-DP; the state of one
    // expert shard is sharded over the expert-DP ranks of the shard group.
    x.expertShardGroup =
        std::max(1, static_cast<int>(static_cast<long long>(x.shardGroup) * l.tp /
                                     (static_cast<long long>(std::max(1, l.ep)) * resolvedEtp)));
}

// Parameter counts per layer and of the embedding, head and norms.
void setParameters(EvalContext& x, const ParameterCount& pc) {
    const ModelSpec& mo = x.s.model;
    x.layerParams = pc.layersTotal / x.L;
    x.expertLayerParams = pc.routedExpertsTotal / x.L;
    x.embedParams = pc.embedding;
    x.headParams = mo.tiedEmbeddings ? static_cast<double>(mo.vocab) * mo.hidden : pc.head;
    x.finalNormParams = pc.finalNorm;
    x.normParamsPerLayer = pc.normsPerLayer;
    // QKV and output projections (MLA: two down- and two up-projections more); the MLP's two GEMMs (gate
    // and up fused), per local expert in MoE layers.
    const double attn = mo.attention == AttentionKind::Mla ? 4.0 : 2.0;
    double mlp = 2.0;
    if (x.moe) // + 0.5: the router
        mlp = (1.0 - x.moeFraction) * 2.0 + x.moeFraction * 2.0 * (x.experts / x.ep + x.sharedExperts + 0.5);
    x.linearModulesPerLayer = attn + mlp;
    x.zero3GathersPerLayer = x.s.training.zero3Gather == Zero3Gather::Module ? x.linearModulesPerLayer : 1.0;
}

// A collective's link across nodes: NCCL runs one ring per network card, and each GPU has its own card
// (rail-optimised DGX/HGX), so a group with k members in each NVLink domain drives k cards at once: bus
// bandwidth k x the card's, up to NVLink's; an all-reduce over it may take NCCL's tree across the domains
// (Collectives.h). Point-to-point traffic (pipeline, ring attention) and all-to-alls keep one card's
// bandwidth.
Link rails(const Link& card, long long membersPerDomain, double nvlinkBandwidth) {
    Link link = card;
    link.bandwidth =
        std::min(nvlinkBandwidth, static_cast<double>(std::max(1LL, membersPerDomain)) * card.bandwidth);
    link.membersPerDomain = static_cast<int>(std::max(1LL, membersPerDomain));
    return link;
}

// Which groups cross the NVLink domain, and the link each kind of traffic takes (docs/estimation.md, "Step
// time"). Placement in Megatron's order: TP innermost, then CP, then DP, PP outermost.
void setPlacementAndLinks(EvalContext& x, const HardwareProfile& profile) {
    const Layout& l = x.s.layout;
    const ClusterSpec& cl = x.s.cluster;
    const long long node = cl.gpusPerNode;
    const long long domain = cl.nvlinkDomain;
    x.tpCrossesNodes = l.tp > domain;
    x.cpCrossesNodes = l.cp > 1 && static_cast<long long>(l.tp) * l.cp > domain;
    x.dpCrossesNodes = static_cast<long long>(l.tp) * l.cp * l.dp > domain;
    // A shard group is DP-contiguous (TP innermost, then CP, then DP): TP x CP x shard degree GPUs.
    const long long shardSpan = static_cast<long long>(l.tp) * x.shardGroup;
    const bool shardCrossesNodes = shardSpan > domain;
    x.ppCrossesNodes = static_cast<long long>(l.tp) * l.cp * l.dp >= node || l.gpus() > domain;
    // Expert layers regroup the same ranks (Megatron-Core's MoE parallel folding, order etp-ep-dp-pp;
    // torchtitan borrows EP from the CP and FSDP ranks next to TP, and from TP itself with ETP 1): an EP
    // group is EP consecutive expert-TP groups, ETP x EP GPUs, whatever CP is.
    x.epCrossesNodes = l.ep > 1 && static_cast<long long>(x.etp) * l.ep > domain;
    const bool shardingTraffic = x.shardGroup > 1 && x.s.training.zeroStage >= 3;
    x.shardingSharesNicWithTp = shardingTraffic && x.tpCrossesNodes && shardCrossesNodes;

    const double nvLat =
        profile.nvlinkLatencySeconds > 0 ? profile.nvlinkLatencySeconds : cl.nvlinkLatencySeconds;
    const double netLat =
        profile.networkLatencySeconds > 0 ? profile.networkLatencySeconds : cl.networkLatencySeconds;
    const double nvlinkBandwidth = cl.gpu.nvlinkBandwidth;
    const Link nv{nvlinkBandwidth, &profile.nvlinkBusEfficiency, nvLat};
    const Link net{cl.gpu.networkBandwidth, &profile.networkBusEfficiency, netLat, kNetworkCurveRanks,
                   networkEfficiencyScale(cl)};
    Link netShared = net;
    if (x.shardingSharesNicWithTp)
        netShared.bandwidth *= 0.5; // two kinds of traffic on one card: each gets its share
    // A TP group larger than the NVLink domain has a domain's worth of members in each.
    x.tpLink = x.tpCrossesNodes ? rails(netShared, domain, nvlinkBandwidth) : nv;
    x.cpLink = x.cpCrossesNodes ? net : nv;
    // Data-parallel and sharding collectives: domain / TP members of the shard group in each domain.
    x.dpLink = shardCrossesNodes ? rails(netShared, domain / std::max(1, l.tp), nvlinkBandwidth) : nv;
    // Hybrid sharding: the replicas of one shard sit a shard group apart, so a domain holds
    // domain / (TP x CP x shard degree) of them (at least one); each drives its own card.
    x.replicaLink = x.replicas > 1 && x.dpCrossesNodes
                        ? rails(net, domain / std::max(1LL, shardSpan), nvlinkBandwidth)
                        : nv;
    // The experts' data-parallel group: one member in every ETP x EP consecutive ranks (Megatron-Core's
    // order etp-ep-dp), so an EP group that fills the domain leaves one member per domain, on its own card.
    const long long expertStride = static_cast<long long>(std::max(1.0, x.etp * x.ep));
    x.expertDpLink = expertStride * x.expertShardGroup > domain
                         ? rails(netShared, std::max(1LL, domain / expertStride), nvlinkBandwidth)
                         : nv;
    x.ppLink = x.ppCrossesNodes ? net : nv;
    x.epLink = x.epCrossesNodes ? net : nv;
    x.epIntraLink = nv;
    x.epMembersPerDomain =
        std::min<double>(std::max(1, l.ep), std::max<double>(1.0, static_cast<double>(domain) / x.etp));
}

} // namespace

EvalContext::EvalContext(const Scenario& scenario, const HardwareProfile& profile, const Plan& plan)
    : s(scenario), prof(profile), traits(styleTraits(plan.style)), style(plan.style) {
    setShape(*this);
    setKernelsAndFormats(*this);
    setRecomputeAndSharding(*this);
    setExperts(*this);
    setParameters(*this, plan.params);
    setPlacementAndLinks(*this, profile);
    peak16 = s.cluster.gpu.peakFlops16;
    peakLinear = fp8 ? s.cluster.gpu.peakFlops8 : peak16;
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

} // namespace lp::core::detail
