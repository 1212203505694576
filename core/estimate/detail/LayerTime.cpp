#include "core/estimate/detail/LayerTime.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace lp::core::detail {
namespace {

// The flash-attention backward kernel does 2.5x the forward's FLOPs (it recomputes the scores).
constexpr double kFlashBwdFlopsRatio = 2.5;
// ... so a score's exponential, the same work in both passes, weighs 1 / 2.5 as much next to its MMAs.
constexpr double kFlashBwdScoreOverheadRatio = 1.0 / kFlashBwdFlopsRatio;

// How many NVLink domains other than its own one token's top-k expert copies reach, in an expert-parallel
// group of `domains` domains with experts placed in order (each domain holds 1/domains of them). Without
// routing groups the k experts fall anywhere: domains x (1 - (1 - 1/domains)^k) distinct domains. With
// group-limited routing (DeepSeek's node-limited routing: groups of experts aligned with the domains) they
// lie in at most `limit` of the `groups` groups, so in at most that many domains' worth of groups.
double remoteDomainsPerToken(double domains, double k, int groups, int limit) {
    if (domains <= 1.0)
        return 0.0;
    double reached = domains * (1.0 - std::pow(1.0 - 1.0 / domains, k));
    if (groups > 0 && limit > 0 && limit < groups) {
        const double G = groups, M = limit;
        double byGroups = 0;
        if (G >= domains) {
            // `limit` distinct groups out of `groups`, G/D of them in each domain: the expected number of
            // domains they touch is D x (1 - C(G - G/D, M) / C(G, M)).
            const double perDomain = G / domains;
            double missAll = 1.0; // C(G - G/D, M) / C(G, M) as a product
            for (int i = 0; i < limit; ++i)
                missAll *= std::max(0.0, (G - perDomain - i) / (G - i));
            byGroups = domains * (1.0 - missAll);
        } else {
            byGroups = std::min(domains, M * domains / G); // each group spans D/G domains
        }
        reached = std::min(reached, byGroups);
    }
    return reached * (domains - 1.0) / domains;
}

// How many GPUs of an expert-parallel group of n, experts placed in order (E/n on each), one token's k
// distinct experts fall on: n x (1 - C(E - E/n, k) / C(E, k)) when they fall anywhere (Mixtral's top-2 of 8
// on 8 GPUs: always 2); with group-limited routing no more than the `limit` groups' GPUs hold.
double ranksPerToken(double n, int experts, int k, int groups, int limit) {
    const double E = experts, perRank = E / n;
    double missed = 1.0; // C(E - E/n, k) / C(E, k) as a product
    for (int i = 0; i < k && missed > 0; ++i)
        missed *= std::max(0.0, (E - perRank - i) / (E - i));
    double reached = n * (1.0 - missed);
    if (groups > 0 && limit > 0 && limit < groups)
        reached = std::min(reached, limit * std::max(1.0, n / groups));
    return reached;
}

// The layer's linear layers, forward, per GPU (TP splits their output or input dimension).
struct LinearGemms {
    double attnSeconds = 0, attnFlops = 0; // QKV (MLA: down- and up-projections) and output projection
    double mlaUpSeconds = 0;               // MLA's two up-projections
    double outSeconds = 0;                 // the output projection
    double mlpSeconds = 0, mlpFlops = 0;   // the MLP, dense and MoE layers weighted by their share
    double denseMlpSeconds = 0;            // a dense layer's MLP
    double moeSeconds = 0;                 // a MoE layer's routed and shared experts and router
    double sharedSeconds = 0;              // its shared experts alone
    double mlpMatrices = 2;                // matrices per MLP (gated: gate and up run as one GEMM)
};

void timeAttentionGemms(const EvalContext& x, LinearGemms& g) {
    const double T = x.T;
    const ModelSpec& mo = x.s.model;
    if (mo.attention == AttentionKind::Mla) {
        // Down-projections to the latents, up-projections to per-head q/k/v, the output projection.
        const MlaSpec& l = mo.mla;
        const double down =
            2.0 * T * x.h * ((l.qLoraRank > 0 ? l.qLoraRank : 0) + l.kvLoraRank + l.qkRopeHeadDim) / x.t;
        const double upQ = 2.0 * T * (l.qLoraRank > 0 ? l.qLoraRank : x.h) * x.aQk / x.t;
        const double upKv = 2.0 * T * l.kvLoraRank * x.a * (l.qkNopeHeadDim + l.vHeadDim) / x.t;
        const double out = 2.0 * T * x.aV * x.h / x.t;
        g.mlaUpSeconds = x.gemmSeconds(upQ) + x.gemmSeconds(upKv);
        g.outSeconds = x.gemmSeconds(out);
        g.attnSeconds = x.gemmSeconds(down) + g.mlaUpSeconds + g.outSeconds;
        g.attnFlops = down + upQ + upKv + out;
    } else {
        const double fQkv = 2.0 * T * x.h * (x.ad + 2.0 * x.kd) / x.t;
        const double fOut = 2.0 * T * x.ad * x.h / x.t;
        g.outSeconds = x.gemmSeconds(fOut);
        g.attnSeconds = x.gemmSeconds(fQkv) + g.outSeconds;
        g.attnFlops = fQkv + fOut;
    }
}

// One MLP's up and down GEMMs over `tokens` tokens at width `width`: seconds and FLOPs.
inline std::pair<double, double> mlpGemms(const EvalContext& x, double mlpMatrices, double tokens,
                                          double width) {
    const double up = 2.0 * tokens * x.h * width * (mlpMatrices - 1.0) / x.t;
    const double down = 2.0 * tokens * width * x.h / x.t;
    return std::pair{x.gemmSeconds(up) + x.gemmSeconds(down), up + down};
}

void timeMlpGemms(const EvalContext& x, LinearGemms& g, Intermediates& im) {
    const double T = x.T;
    g.mlpMatrices = x.s.model.mlp == MlpKind::SwiGlu ? 3.0 : 2.0;
    auto [denseSeconds, denseFlops] = mlpGemms(x, g.mlpMatrices, T, x.f);
    g.denseMlpSeconds = denseSeconds;
    g.mlpSeconds = denseSeconds;
    g.mlpFlops = denseFlops;
    if (!x.moe)
        return;
    // Routed experts as grouped GEMMs: the busiest GPU handles the top-k x imbalance copies of its expert-TP
    // group's tokens spread over its E/EP local experts, each GEMM only as large as one expert's share of the
    // tokens and 1/ETP of its width (ETP = TP: all T tokens, 1/TP of each expert; ETP 1 with sequence
    // parallel: this GPU's T/TP tokens, whole experts; the same FLOPs in fewer, taller GEMMs).
    const double copies = x.expertTokens * x.topK * x.imbalance;
    const double perExpert = copies * x.ep / x.experts;
    im.tokensPerExpert = perExpert;
    const double oneExpertUp = 2.0 * perExpert * x.h * x.fe * (g.mlpMatrices - 1.0) / x.etp;
    const double oneExpertDown = 2.0 * perExpert * x.fe * x.h / x.etp;
    const double local = x.experts / x.ep;
    const double routedSeconds = local * (x.gemmSeconds(oneExpertUp) + x.gemmSeconds(oneExpertDown));
    const double routedFlops = local * (oneExpertUp + oneExpertDown);
    auto [sharedSeconds, sharedFlops] = mlpGemms(x, g.mlpMatrices, T, x.fe * x.sharedExperts);
    const double routerFlops = 2.0 * T * x.h * x.experts;
    g.sharedSeconds = x.sharedExperts > 0 ? sharedSeconds : 0.0;
    g.moeSeconds = routedSeconds + g.sharedSeconds + x.gemm16Seconds(routerFlops);
    const double moeFlops = routedFlops + (x.sharedExperts > 0 ? sharedFlops : 0.0) + routerFlops;
    g.mlpSeconds = (1.0 - x.moeFraction) * denseSeconds + x.moeFraction * g.moeSeconds;
    g.mlpFlops = (1.0 - x.moeFraction) * denseFlops + x.moeFraction * moeFlops;
}

// The deduplicating (DeepEP-style) dispatcher's all-to-all per MoE layer and pass: a token goes once to each
// other GPU that holds one of its experts, across NVLink domains once per other domain, forwarded there over
// NVLink; fp8 tokens out in fp8 training, 16-bit back (docs/estimation.md, "Step time", mixture of experts).
// `n` is the group, `g` its members per NVLink domain.
double deduplicatedAllToAllSeconds(const EvalContext& x, double n, double g, Intermediates& im) {
    const MoeSpec& moe = x.s.model.moe;
    const double remoteDomains =
        x.epCrossesNodes ? remoteDomainsPerToken(n / g, x.topK, moe.groups, moe.groupLimit) : 0.0;
    const double ranks = ranksPerToken(n, moe.experts, moe.topK, moe.groups, moe.groupLimit);
    im.epRemoteDomainsPerToken = remoteDomains;
    im.epRanksPerToken = ranks;
    const double tokenValues = x.T * x.h * x.hRep;
    const auto& nearLink = x.epCrossesNodes ? x.epIntraLink : x.epLink;
    auto oneWay = [&](double bytesPerValue) {
        const double remote = remoteDomains * tokenValues * bytesPerValue;
        const double forwarded = ranks * (g - 1.0) / g * tokenValues * bytesPerValue;
        const double message = x.topK * tokenValues * bytesPerValue;
        return std::max(remote / x.epLink.busBandwidth(message), forwarded / nearLink.busBandwidth(message)) +
               (n - 1.0) * x.epLink.latencySeconds;
    };
    return x.moeFraction * (oneWay(x.fp8 ? 1.0 : 2.0) + oneWay(2.0)) * x.imbalance;
}

// Token dispatch and combine: all-to-all inside the EP group, per MoE layer and pass. Each GPU sends (n-1)/n
// of its bytes to the other members. In a group that spans several NVLink domains only the share bound for
// other domains goes through this GPU's network card; the members next to it are reached over NVLink at the
// same time.
double expertAllToAllSeconds(const EvalContext& x, Intermediates& im) {
    const double bytes = 2.0 * x.T * x.topK * x.h * x.hRep;
    im.epMessageBytes = bytes;
    if (x.ep <= 1)
        return 0;
    const double n = x.ep;
    const double g = x.epCrossesNodes ? x.epMembersPerDomain : n;
    if (x.s.training.moeDispatcher == MoeDispatcher::Deduplicated)
        return deduplicatedAllToAllSeconds(x, n, g, im);
    const double remote = (n - g) / n * bytes, nearby = (g - 1.0) / n * bytes;
    const double wire = x.epCrossesNodes ? std::max(remote / x.epLink.busBandwidth(bytes),
                                                    nearby / x.epIntraLink.busBandwidth(bytes))
                                         : nearby / x.epLink.busBandwidth(bytes);
    const double a2a = wire + (n - 1.0) * x.epLink.latencySeconds;
    return 2.0 * x.moeFraction * a2a * x.imbalance;
}

// One fused attention kernel's figures from the profile: long-sequence limits, half-efficiency lengths and
// score overheads, forward and backward (docs/estimation.md, "Attention kernels").
struct AttentionKernelFigures {
    double fwd = 0, bwd = 0;                 // fractions of the 16-bit peak at heads of 128, long sequences
    double fwdHalf = 0, bwdHalf = 0;         // kernel tokens at half of them (0: flat)
    double fwdOverhead = 0, bwdOverhead = 0; // the exponentials' share of the MMA time at heads of 128
};

AttentionKernelFigures attentionKernelFigures(AttentionKernel kernel, const KernelEfficiencies& k) {
    if (kernel == AttentionKernel::FlashAttention3)
        return {k.fa3AttentionFwdEfficiency, k.fa3AttentionBwdEfficiency,
                k.fa3AttentionFwdHalfTokens, k.fa3AttentionBwdHalfTokens,
                k.fa3AttentionScoreOverhead, kFlashBwdScoreOverheadRatio * k.fa3AttentionScoreOverhead};
    // FlashAttention-2 where the GPU's fused attention outruns it (Hopper); elsewhere they are the same.
    if (kernel == AttentionKernel::FlashAttention2 && k.fa2AttentionFwdEfficiency > 0)
        return {k.fa2AttentionFwdEfficiency,
                k.fa2AttentionBwdEfficiency > 0 ? k.fa2AttentionBwdEfficiency : k.attentionBwdEfficiency,
                k.attentionFwdHalfTokens,
                k.attentionBwdHalfTokens,
                k.fa2AttentionScoreOverhead,
                k.fa2AttentionScoreOverhead};
    return {k.attentionFwdEfficiency, k.attentionBwdEfficiency,
            k.attentionFwdHalfTokens, k.attentionBwdHalfTokens,
            k.attentionScoreOverhead, kFlashBwdScoreOverheadRatio * k.attentionScoreOverhead};
}

// Flash attention: the causal kernel at its attention efficiencies, lowered for small kernels, short
// sequences and small heads (docs/estimation.md, "Step time"). The causal kernel skips the masked tiles, so
// it does half the full score work whichever convention attention_flops counts MFU in.
void timeFlashAttention(const EvalContext& x, double fAttn, LayerTimes& r, Intermediates& im) {
    const ModelSpec& mo = x.s.model;
    const AttentionKernelFigures k = attentionKernelFigures(x.attentionKernel, x.prof.kernels);
    const double work = 0.5 * fAttn; // causal kernels skip the masked half
    // Large kernels reach the profile's attention efficiency; small ones lose as small GEMMs do.
    const double sizeFactor = x.prof.gemmEfficiency.at(work) / x.prof.gemmEfficiency.at(1e13);
    im.flashFwdIsFa2 =
        x.attentionKernel == AttentionKernel::FlashAttention2 && x.prof.kernels.fa2AttentionFwdEfficiency > 0;
    // Short sequences run further from the limit: per-row work is a larger share.
    const double kernelTokens = x.seq / x.c;
    im.attentionKernelTokens = kernelTokens;
    const auto lengthFactor = [&](double half) {
        return half > 0 ? kernelTokens / (kernelTokens + half) : 1.0;
    };
    im.attentionLengthFactorFwd = lengthFactor(k.fwdHalf);
    im.attentionLengthFactorBwd = lengthFactor(k.bwdHalf);
    // Small heads run further from the limit: a score's exponential costs the same whatever the head size
    // while its MMA work shrinks with it. The profile's efficiencies are for heads of 128.
    im.attentionHeadSize = 0.5 * (mo.qkHeadDim() + mo.vHeadDim());
    const auto headFactor = [&](double overhead) {
        return im.attentionHeadSize > 0
                   ? std::min(1.0, (1.0 + overhead) / (1.0 + overhead * 128.0 / im.attentionHeadSize))
                   : 1.0;
    };
    im.attentionHeadFactorFwd = headFactor(k.fwdOverhead);
    im.attentionHeadFactorBwd = headFactor(k.bwdOverhead);
    im.flashFwdEfficiency = k.fwd * sizeFactor * im.attentionLengthFactorFwd * im.attentionHeadFactorFwd;
    im.flashBwdEfficiency = k.bwd * sizeFactor * im.attentionLengthFactorBwd * im.attentionHeadFactorBwd;
    r.attnFwd = work / (x.peak16 * im.flashFwdEfficiency);
    r.attnBwd = kFlashBwdFlopsRatio * work / (x.peak16 * im.flashBwdEfficiency);
}

// Attention core: QK^T and AV for this rank's queries (s/c of them) against all s keys.
void timeAttentionCore(const EvalContext& x, LayerTimes& r, Intermediates& im) {
    const ModelSpec& mo = x.s.model;
    const double fAttn = 2.0 * x.b * (x.a / x.t) * (x.seq / x.c) * x.seq * (mo.qkHeadDim() + mo.vHeadDim());
    im.attentionKernel = x.attentionKernel;
    if (x.flash) {
        timeFlashAttention(x, fAttn, r, im);
    } else {
        // Two batched GEMMs through the scores held in HBM: QK^T writes each score (16-bit) and AV reads it,
        // 2 x (q + v head size) FLOPs for 4 bytes. At small head sizes that is memory-bound (64 FLOP per
        // byte for heads of 64: under a third of an A100's peak), so each runs at the slower of the two.
        const double scores = x.b * (x.a / x.t) * (x.seq / x.c) * x.seq;
        const double gemm = x.gemm16Seconds(fAttn), traffic = x.memSeconds(4.0 * scores);
        im.attentionCoreMemoryBound = traffic > gemm;
        r.attnFwd = std::max(gemm, traffic);
        r.attnBwd = 2.0 * r.attnFwd;
    }
    im.attentionCoreFwdSeconds = r.attnFwd;
}

// The forward work of one layer that Megatron-Core's recompute modules run again (per micro batch and GPU).
// The attention core is not here (computeTime adds it); the MoE block's token all-to-all neither.
struct ModuleWork {
    double mlaUpGemm = 0;     // MLA's two up-projections
    double denseGemm = 0;     // a dense layer's MLP
    double moeGemm = 0;       // a MoE layer's routed and shared experts and router
    double sharedGemm = 0;    // its shared experts alone
    double moeBlockUnits = 0; // the MoE block's elementwise work, 16-bit elements per token
    double actWidth = 2;      // elements the activation function reads and writes per MLP unit
};

double moduleRecomputeSeconds(const EvalContext& x, const ModuleWork& w) {
    const unsigned m = x.recomputeModules;
    if ((m & ~static_cast<unsigned>(kRecomputeCoreAttn)) == 0)
        return 0.0;
    const double T = x.T;
    const double mla = x.s.model.attention == AttentionKind::Mla ? 1.0 : 0.0;
    auto units = [&](double perToken) { return x.memSeconds(2.0 * T * perToken); }; // 16-bit read + write
    double seconds = 0;
    if (m & kRecomputeLayerNorm) // the norms that stand alone: read and write h each
        seconds += units(2.0 * x.h * x.hRep * x.separateNormsPerLayer());
    if (m & kRecomputeMlaUpProj)
        seconds += mla * (w.mlaUpGemm + units(2.0 * (x.ad + x.kd) / x.t)); // + rotary
    if (m & kRecomputeMlp)
        seconds += (1.0 - x.moeFraction) * (w.denseGemm + units(w.actWidth * x.f / x.t));
    if (m & kRecomputeMoe) {
        seconds += x.moeFraction * w.moeGemm + units(x.moeFraction * w.moeBlockUnits);
    } else {
        if (m & kRecomputeMoeAct)
            seconds += units(x.moeFraction * w.actWidth * x.fe * x.topK * x.imbalance / x.t);
        if (m & kRecomputeSharedExperts)
            seconds += x.moeFraction * (w.sharedGemm + units(w.actWidth * x.fe * x.sharedExperts / x.t));
    }
    return seconds;
}

// Memory-bound kernels, forward (16-bit elements read + written per token): norms, residual adds, dropout,
// the activation function, rotary, MoE's token permutations and, without flash attention, the softmax.
// Returns the MoE block's elementwise work (per token, in the same units) for the recompute modules.
double timeMemoryBoundKernels(const EvalContext& x, double actWidth, LayerTimes& r, Intermediates& im) {
    const double drop = x.dropout ? 1.0 : 0.0;
    double replicated = (4.0 + 6.0 + drop) * x.h * x.hRep; // norms, residual adds, dropout masks
    double split = actWidth * x.f;
    double moeBlockUnits = 0;
    if (x.moe) {
        // MoE layers: the activation runs on every routed copy (top-k x imbalance per token on the busiest
        // GPU) and on the shared experts' tokens. The dispatcher permutes the tokens into expert order before
        // the all-to-all (read T x h, write T x k x h) and back after it, weighting by the router
        // probabilities (read T x k x h, write T x h); with several local experts each side also sorts the
        // received rows by expert (read and write T x k x h).
        const double copies = x.topK * x.imbalance;
        const double moeSplit = actWidth * x.fe * (copies + x.sharedExperts);
        split = (1.0 - x.moeFraction) * split + x.moeFraction * moeSplit;
        const double sorts = x.experts / x.ep > 1.0 ? 2.0 * 2.0 * copies : 0.0;
        replicated += x.moeFraction * (2.0 * (1.0 + copies) + sorts) * x.h * x.hRep;
        moeBlockUnits = moeSplit / x.t + (2.0 * (1.0 + copies) + sorts) * x.h * x.hRep;
    }
    if (!x.s.model.learnedPositions)
        split += 2.0 * (x.ad + x.kd); // rotary embedding of q and k
    double attnCore = 0;
    if (!x.flash) {
        // Scale-mask-softmax over the scores in 16-bit units: the fused kernel reads and writes them once
        // (2); the fp32 fallback upcasts (2 + 4 bytes), scales (4 + 4), masks (4 + 4), softmaxes (4 + 4) and
        // downcasts (4 + 2): 37 bytes per score. Dropout reads, writes and masks them (2.5).
        const double softmax = x.unfusedSoftmax ? 18.5 : 2.0;
        attnCore = (softmax + 2.5 * drop) * x.a * x.seq;
    }
    const double ew = elementwiseTrafficFactor(x.s.training, x.style);
    im.memoryBoundBytesPerLayer = 2.0 * x.T * (ew * (replicated + split / x.t) + attnCore / x.t);
    r.memFwd = x.memSeconds(im.memoryBoundBytesPerLayer);
    r.attnMemFwd = x.memSeconds(2.0 * x.T * attnCore / x.t);
    return moeBlockUnits;
}

// A remat policy re-runs the layer's elementwise work and each unsaved tensor the backward needs: the q/k/v
// projections, the attention, the output projection and the MLP's up-projections, never the
// down-projection (docs/estimation.md, "Activations").
double rematRecomputeSeconds(const EvalContext& x, const LinearGemms& g, const LayerTimes& r) {
    const RematSaves keep = rematSaves(x.rematPolicy);
    double again = r.memFwd - r.attnMemFwd;
    if (!keep.qkv)
        again += g.attnSeconds - g.outSeconds;
    if (!keep.context || !x.flash) // unfused attention's probabilities are never saved: it re-runs
        again += r.attnFwd + r.attnMemFwd;
    if (!keep.outProj)
        again += g.outSeconds;
    if (!keep.mlpwi)
        again += g.mlpSeconds * (g.mlpMatrices - 1.0) / g.mlpMatrices; // gate and up of gate, up and down
    return again;
}

// Tensor parallel: two collectives per layer and pass of the full hidden state.
void timeTpCollectives(const EvalContext& x, LayerTimes& r, Intermediates& im) {
    const double msg = 2.0 * x.T * x.h;
    const int tp = x.s.layout.tp;
    im.tpMessageBytes = x.t > 1 ? msg : 0;
    im.tpBusBandwidth = x.t > 1 ? x.tpLink.busBandwidth(msg) : 0;
    r.tpCollective = x.t > 1 ? allReduceSeconds(tp, msg, x.tpLink) + x.traits.collectiveLaunchSeconds : 0;
    r.tpCollectiveFwd = r.tpCollective;
    // torchao's Float8 TP plans (torchtitan's default with fp8) cast the column-parallel linears' input to
    // fp8 before the sequence all-gather: forward gathers move 1-byte elements, reduce-scatters stay 16-bit.
    im.tpForwardGathersFp8 = x.sp && x.traits.torchTensorParallel && x.fp8Habit.active;
    im.gatherBytesPerParam = x.gatherBytesPerParam;
    if (im.tpForwardGathersFp8)
        r.tpCollectiveFwd = allGatherSeconds(tp, msg / 2.0, x.tpLink) + allGatherSeconds(tp, msg, x.tpLink) +
                            x.traits.collectiveLaunchSeconds;
}

// torch's context parallel merges each step's output in fp32 (convert_to_f32) and accumulates dQ, dK, dV in
// fp32: memory-bound work per step (docs/estimation.md, "Context-parallel limits").
void timeTorchCpMerges(const EvalContext& x, LayerTimes& r) {
    const double T = x.T;
    const double nOut = T * x.aV / x.t, nQ = T * x.aQk / x.t, nKv = T * x.cpKvWidth / x.t;
    const double c = x.c;
    r.cpMergeFwd = x.memSeconds(nOut * (6.0 * c + 28.0 * (c - 1.0) + 6.0) + nKv * 4.0 * (c - 1.0));
    r.cpMergeBwd = x.memSeconds(nKv * (4.0 + 4.0 * (c - 1.0) + 19.0 * c + 6.0) + nQ * (4.0 + 11.0 * c + 6.0));
}

// Context parallel: each rank's K and V chunk reaches the other c - 1 ranks while attention computes.
void timeCpExchange(const EvalContext& x, LayerTimes& r, Intermediates& im) {
    if (x.c <= 1)
        return;
    const double T = x.T;
    // torch's context_parallel receives K and V already repeated to every query head (torchtitan calls
    // repeat_kv before SDPA), so its chunks are a/k times the GQA width Megatron's ring sends, and its dK/dV
    // accumulators travel in fp32 (twice the bytes).
    const bool torchCp = x.traits.cpTorchRingAttention;
    const double kvBytes = 2.0 * T * x.cpKvWidth / x.t;
    const double dkvBytes = torchCp ? 2.0 * kvBytes : kvBytes;
    im.cpExchangeBytes = kvBytes;
    // One ring step computes this rank's T queries against a T-token K/V chunk (half of it masked on average
    // with causal load balancing): attention work grows as T^2,
    // the exchange as T, so the exchange hides once T exceeds bytes-per-token x attention-throughput /
    // FLOPs-per-token-pair.
    if (r.attnFwd > 0) {
        const double stepSeconds = r.attnFwd / x.c;
        const double sendPerToken = sendSeconds(kvBytes, x.cpLink) / T;
        im.cpHidingTokens = sendPerToken / (stepSeconds / (T * T));
        // An all-gather moves c - 1 chunks behind the one first step: it hides only at c - 1 times that.
        if (x.cpGatherOnce)
            im.cpHidingTokens *= x.c - 1.0;
    }
    const double dkvRing = (x.c - 1.0) * sendSeconds(dkvBytes, x.cpLink);
    if (x.cpGatherOnce) {
        // One all-gather of every chunk, issued with the local step and waited for at the next: only the
        // first step's attention hides it, in forward and again in backward, where the dK/dV accumulators
        // still go round the ring behind the steps.
        const double gather = allGatherSeconds(x.s.layout.cp, x.c * kvBytes, x.cpLink);
        r.cpFwd = overlappedSeconds(gather, r.attnFwd / x.c);
        r.cpBwd = overlappedSeconds(gather, r.attnBwd / x.c) + overlappedSeconds(dkvRing, r.attnBwd);
    } else {
        const double ring = (x.c - 1.0) * sendSeconds(kvBytes, x.cpLink);
        r.cpFwd = overlappedSeconds(ring, r.attnFwd);
        r.cpBwd = overlappedSeconds(ring + dkvRing, r.attnBwd); // K, V in and dK, dV back
    }
    if (torchCp) {
        r.cpBwd += sendSeconds(dkvBytes, x.cpLink); // the last dK/dV, sent after the last step and waited for
        timeTorchCpMerges(x, r);
    }
}

} // namespace

LayerTimes layerTimes(const EvalContext& x, Intermediates& im) {
    LayerTimes r;
    LinearGemms g;
    timeAttentionGemms(x, g);
    timeMlpGemms(x, g, im);
    if (x.moe)
        r.epPerPass = expertAllToAllSeconds(x, im);
    r.gemmFwd = g.attnSeconds + g.mlpSeconds;
    const double gemmFlops = g.attnFlops + g.mlpFlops;
    im.gemmEfficiency = gemmFlops / (r.gemmFwd * x.peakLinear);

    timeAttentionCore(x, r, im);
    const double actWidth = x.s.model.mlp == MlpKind::SwiGlu ? 3.0 : 2.0; // activation: reads and writes
    const double moeBlockUnits = timeMemoryBoundKernels(x, actWidth, r, im);
    r.moduleRecomputeFwd =
        moduleRecomputeSeconds(x, ModuleWork{g.mlaUpSeconds, g.denseMlpSeconds, g.moeSeconds, g.sharedSeconds,
                                             moeBlockUnits, actWidth});
    if (x.rematPolicy != RematPolicy::Auto)
        r.rematRecomputeFwd = rematRecomputeSeconds(x, g, r);
    timeTpCollectives(x, r, im);
    timeCpExchange(x, r, im);
    return r;
}

} // namespace lp::core::detail
