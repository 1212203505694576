// Step time (ESTIMATION.md sections 5-6): per-layer GEMMs, attention and memory-bound kernels,
// tensor/context-parallel collectives, the 1F1B pipeline, data-parallel and sharding traffic,
// the optimizer step, the loader and stragglers.
#include "core/estimate/detail/EvalContext.h"

#include <algorithm>
#include <cmath>

namespace lp::core::detail {
namespace {

// The flash-attention backward kernel does 2.5x the forward's FLOPs (it recomputes the scores).
constexpr double kFlashBwdFlopsRatio = 2.5;
// ... so a score's exponential, the same work in both passes, weighs 1 / 2.5 as much next to its MMAs.
constexpr double kFlashBwdScoreOverheadRatio = 1.0 / kFlashBwdFlopsRatio;

struct LayerTimes {
    double gemmFwd = 0; // linear layers, forward
    double attnFwd = 0; // attention core forward
    double attnBwd = 0;
    double memFwd = 0;          // memory-bound kernels, forward
    double attnMemFwd = 0;      // the part of memFwd that belongs to the attention core (softmax, dropout)
    double tpCollective = 0;    // one TP collective (all-reduce, or all-gather + reduce-scatter with SP)
    double tpCollectiveFwd = 0; // the same in a forward pass (fp8 all-gathers in torch's fp8 TP)
    double cpFwd = 0;           // exposed ring-attention exchange, forward
    double cpBwd = 0;
    double epPerPass = 0;  // MoE token all-to-all (dispatch + combine) per pass
    double cpMergeFwd = 0; // context parallel: merging the ring steps' partial results (memory-bound)
    double cpMergeBwd = 0;
    double moduleRecomputeFwd = 0; // Megatron-Core's selective recompute by module (not the attention core)
    double rematRecomputeFwd = 0;  // what a JAX/MaxText remat policy re-runs (TrainingOptions::rematPolicy)
    double fwd() const { return gemmFwd + attnFwd + memFwd + cpMergeFwd; }
    double bwd() const { return 2.0 * gemmFwd + attnBwd + 2.0 * memFwd + cpMergeBwd; }
};

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

LayerTimes layerTimes(const EvalContext& x, Intermediates& im) {
    LayerTimes r;
    const double T = x.T;
    const bool gated = x.s.model.mlp == MlpKind::SwiGlu;
    // Linear layers, forward, per GPU (TP splits their output or input dimension).
    const ModelSpec& mo = x.s.model;
    double attnGemmSeconds = 0, attnGemmFlops = 0, mlaUpSeconds = 0, outGemmSeconds = 0;
    if (mo.attention == AttentionKind::Mla) {
        // Down-projections to the latents, up-projections to per-head q/k/v, the output projection.
        const MlaSpec& l = mo.mla;
        const double down =
            2.0 * T * x.h * ((l.qLoraRank > 0 ? l.qLoraRank : 0) + l.kvLoraRank + l.qkRopeHeadDim) / x.t;
        const double upQ = 2.0 * T * (l.qLoraRank > 0 ? l.qLoraRank : x.h) * x.aQk / x.t;
        const double upKv = 2.0 * T * l.kvLoraRank * x.a * (l.qkNopeHeadDim + l.vHeadDim) / x.t;
        const double out = 2.0 * T * x.aV * x.h / x.t;
        mlaUpSeconds = x.gemmSeconds(upQ) + x.gemmSeconds(upKv);
        outGemmSeconds = x.gemmSeconds(out);
        attnGemmSeconds = x.gemmSeconds(down) + mlaUpSeconds + outGemmSeconds;
        attnGemmFlops = down + upQ + upKv + out;
    } else {
        const double fQkv = 2.0 * T * x.h * (x.ad + 2.0 * x.kd) / x.t;
        const double fOut = 2.0 * T * x.ad * x.h / x.t;
        outGemmSeconds = x.gemmSeconds(fOut);
        attnGemmSeconds = x.gemmSeconds(fQkv) + outGemmSeconds;
        attnGemmFlops = fQkv + fOut;
    }
    const double mlpWidth = gated ? 3.0 : 2.0; // matrices per MLP (gate and up run as one GEMM)
    auto mlpSeconds = [&](double tokens, double width) {
        const double up = 2.0 * tokens * x.h * width * (mlpWidth - 1.0) / x.t;
        const double down = 2.0 * tokens * width * x.h / x.t;
        return std::pair{x.gemmSeconds(up) + x.gemmSeconds(down), up + down};
    };
    auto [denseSeconds, denseFlops] = mlpSeconds(T, x.f);
    double mlpGemmSeconds = denseSeconds, mlpGemmFlops = denseFlops;
    double moeGemmSeconds = 0, sharedGemmSeconds = 0;
    if (x.moe) {
        // Routed experts as grouped GEMMs: the busiest GPU handles the top-k x imbalance copies of its
        // expert-TP group's tokens spread over its E/EP local experts, each GEMM only as large as one
        // expert's share of the tokens and 1/ETP of its width (ETP = TP: all T tokens, 1/TP of each expert;
        // ETP 1 with sequence parallel: this GPU's T/TP tokens, whole experts; the same FLOPs in fewer,
        // taller GEMMs).
        const double copies = x.expertTokens * x.topK * x.imbalance;
        const double perExpert = copies * x.ep / x.experts;
        im.tokensPerExpert = perExpert;
        const double oneExpertUp = 2.0 * perExpert * x.h * x.fe * (mlpWidth - 1.0) / x.etp;
        const double oneExpertDown = 2.0 * perExpert * x.fe * x.h / x.etp;
        const double local = x.experts / x.ep;
        const double routedSeconds = local * (x.gemmSeconds(oneExpertUp) + x.gemmSeconds(oneExpertDown));
        const double routedFlops = local * (oneExpertUp + oneExpertDown);
        auto [sharedSeconds, sharedFlops] = mlpSeconds(T, x.fe * x.sharedExperts);
        const double routerFlops = 2.0 * T * x.h * x.experts;
        sharedGemmSeconds = x.sharedExperts > 0 ? sharedSeconds : 0.0;
        const double moeSeconds = routedSeconds + sharedGemmSeconds + x.gemm16Seconds(routerFlops);
        const double moeFlops = routedFlops + (x.sharedExperts > 0 ? sharedFlops : 0.0) + routerFlops;
        moeGemmSeconds = moeSeconds;
        mlpGemmSeconds = (1.0 - x.moeFraction) * denseSeconds + x.moeFraction * moeSeconds;
        mlpGemmFlops = (1.0 - x.moeFraction) * denseFlops + x.moeFraction * moeFlops;
        // Token dispatch and combine: all-to-all inside the EP group, per MoE layer and pass.
        const double bytes = 2.0 * T * x.topK * x.h * x.hRep;
        im.epMessageBytes = bytes;
        if (x.ep > 1) {
            // Each GPU sends (n-1)/n of its bytes to the other members. In a group that spans several NVLink
            // domains only the share bound for other domains goes through this GPU's network card; the
            // members next to it are reached over NVLink at the same time.
            const double n = x.ep;
            const double g = x.epCrossesNodes ? x.epMembersPerDomain : n;
            if (x.s.training.moeDispatcher == MoeDispatcher::Deduplicated) {
                // DeepEP-style: a token goes once to each other GPU that holds one of its experts (not once
                // per expert), the experts there share the copy, and the combine sums on that GPU before
                // sending one result back. Across NVLink domains it crosses the network once per other domain
                // that holds one of its experts, to the GPU with the same index there, which forwards the
                // copies over NVLink (both at once). In fp8 training the dispatch sends fp8 tokens
                // (DeepSeek-V3, section 3.3); the combine, and the gradients back, 16-bit; the other
                // direction's gradients fp8 again, so both passes move the same bytes.
                const ModelSpec& model = x.s.model;
                const double remoteDomains =
                    x.epCrossesNodes
                        ? remoteDomainsPerToken(n / g, x.topK, model.moe.groups, model.moe.groupLimit)
                        : 0.0;
                const double ranks = ranksPerToken(n, model.moe.experts, model.moe.topK, model.moe.groups,
                                                   model.moe.groupLimit);
                im.epRemoteDomainsPerToken = remoteDomains;
                im.epRanksPerToken = ranks;
                const double tokenValues = T * x.h * x.hRep;
                const auto& nearLink = x.epCrossesNodes ? x.epIntraLink : x.epLink;
                auto oneWay = [&](double bytesPerValue) {
                    const double remote = remoteDomains * tokenValues * bytesPerValue;
                    const double forwarded = ranks * (g - 1.0) / g * tokenValues * bytesPerValue;
                    const double message = x.topK * tokenValues * bytesPerValue;
                    return std::max(remote / x.epLink.busBandwidth(message),
                                    forwarded / nearLink.busBandwidth(message)) +
                           (n - 1.0) * x.epLink.latencySeconds;
                };
                r.epPerPass = x.moeFraction * (oneWay(x.fp8 ? 1.0 : 2.0) + oneWay(2.0)) * x.imbalance;
            } else {
                const double remote = (n - g) / n * bytes, nearby = (g - 1.0) / n * bytes;
                const double wire = x.epCrossesNodes ? std::max(remote / x.epLink.busBandwidth(bytes),
                                                                nearby / x.epIntraLink.busBandwidth(bytes))
                                                     : nearby / x.epLink.busBandwidth(bytes);
                const double a2a = wire + (n - 1.0) * x.epLink.latencySeconds;
                r.epPerPass = 2.0 * x.moeFraction * a2a * x.imbalance;
            }
        }
    }
    r.gemmFwd = attnGemmSeconds + mlpGemmSeconds;
    const double gemmFlops = attnGemmFlops + mlpGemmFlops;
    im.gemmEfficiency = gemmFlops / (r.gemmFwd * x.peakLinear);

    // Attention core: QK^T and AV for this rank's queries (s/c of them) against all s keys.
    const double fAttn = 2.0 * x.b * (x.a / x.t) * (x.seq / x.c) * x.seq * (mo.qkHeadDim() + mo.vHeadDim());
    if (x.flash) {
        const double work = 0.5 * fAttn; // causal kernels skip the masked half
        // Large kernels reach the profile's attention efficiency; small ones lose as small GEMMs do.
        const double sizeFactor = x.prof.gemmEfficiency.at(work) / x.prof.gemmEfficiency.at(1e13);
        const bool fa2 = x.traits.torchSdpaAttention && x.prof.kernels.fa2AttentionFwdEfficiency > 0;
        im.flashFwdIsFa2 = fa2;
        // Short sequences run further from the limit: per-row work is a larger share (Hardware.h).
        const double kernelTokens = x.seq / x.c;
        im.attentionKernelTokens = kernelTokens;
        const auto lengthFactor = [&](double half) {
            return half > 0 ? kernelTokens / (kernelTokens + half) : 1.0;
        };
        im.attentionLengthFactorFwd = lengthFactor(x.prof.kernels.attentionFwdHalfTokens);
        im.attentionLengthFactorBwd = lengthFactor(x.prof.kernels.attentionBwdHalfTokens);
        const double bwdLimit = fa2 && x.prof.kernels.fa2AttentionBwdEfficiency > 0
                                    ? x.prof.kernels.fa2AttentionBwdEfficiency
                                    : x.prof.kernels.attentionBwdEfficiency;
        // Small heads run further from the limit: a score's exponential costs the same whatever the head
        // size while its MMA work shrinks with it (Hardware.h). The profile's efficiencies are for heads of
        // 128.
        im.attentionHeadSize = 0.5 * (mo.qkHeadDim() + mo.vHeadDim());
        const auto headFactor = [&](double overhead) {
            return im.attentionHeadSize > 0
                       ? std::min(1.0, (1.0 + overhead) / (1.0 + overhead * 128.0 / im.attentionHeadSize))
                       : 1.0;
        };
        im.attentionHeadFactorFwd = headFactor(fa2 ? x.prof.kernels.fa2AttentionScoreOverhead
                                                   : x.prof.kernels.attentionScoreOverhead);
        im.attentionHeadFactorBwd =
            headFactor(fa2 ? x.prof.kernels.fa2AttentionScoreOverhead
                           : kFlashBwdScoreOverheadRatio * x.prof.kernels.attentionScoreOverhead);
        im.flashFwdEfficiency =
            (fa2 ? x.prof.kernels.fa2AttentionFwdEfficiency : x.prof.kernels.attentionFwdEfficiency) *
            sizeFactor * im.attentionLengthFactorFwd * im.attentionHeadFactorFwd;
        im.flashBwdEfficiency =
            bwdLimit * sizeFactor * im.attentionLengthFactorBwd * im.attentionHeadFactorBwd;
        r.attnFwd = work / (x.peak16 * im.flashFwdEfficiency);
        r.attnBwd = kFlashBwdFlopsRatio * work / (x.peak16 * im.flashBwdEfficiency);
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

    // Memory-bound kernels, forward (16-bit elements read + written per token).
    const double drop = x.dropout ? 1.0 : 0.0;
    double replicated = (4.0 + 6.0 + drop) * x.h * x.hRep; // norms, residual adds, dropout masks
    const double actWidth = gated ? 3.0 : 2.0; // activation function: reads and writes per element
    double split = actWidth * x.f;
    double moeBlockUnits = 0; // the MoE block's elementwise work, in the units above (per token)
    if (x.moe) {
        // MoE layers: the activation runs on every routed copy (top-k x imbalance per token on the busiest
        // GPU) and on the shared experts' tokens. The dispatcher permutes the tokens into expert order
        // before the all-to-all (read T x h, write T x k x h) and back after it, weighting by the router
        // probabilities (read T x k x h, write T x h); with several local experts each side also sorts
        // the received rows by expert (read and write T x k x h).
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
    im.memoryBoundBytesPerLayer = 2.0 * T * (ew * (replicated + split / x.t) + attnCore / x.t);
    r.memFwd = x.memSeconds(im.memoryBoundBytesPerLayer);
    r.attnMemFwd = x.memSeconds(2.0 * T * attnCore / x.t);
    r.moduleRecomputeFwd = moduleRecomputeSeconds(x, ModuleWork{mlaUpSeconds, denseSeconds, moeGemmSeconds,
                                                                sharedGemmSeconds, moeBlockUnits, actWidth});
    if (x.rematPolicy != RematPolicy::Auto) {
        // A remat policy re-runs the layer's elementwise work (norms, rotary, the activation function) and,
        // from the saved tensors, each unsaved one the backward needs: the q/k/v projections, the attention
        // (for its output, which its own backward and the output projection's need), the output projection
        // (the residual that feeds the MLP's norm) and the MLP's up-projections (their outputs feed the
        // activation and the down-projection's weight gradient). The down-projection's output is never
        // needed.
        const RematSaves keep = rematSaves(x.rematPolicy);
        double again = r.memFwd - r.attnMemFwd;
        if (!keep.qkv)
            again += attnGemmSeconds - outGemmSeconds;
        if (!keep.context || !x.flash) // unfused attention's probabilities are never saved: it re-runs
            again += r.attnFwd + r.attnMemFwd;
        if (!keep.outProj)
            again += outGemmSeconds;
        if (!keep.mlpwi)
            again += mlpGemmSeconds * (mlpWidth - 1.0) / mlpWidth; // gate and up of gate, up and down
        r.rematRecomputeFwd = again;
    }

    // Tensor parallel: two collectives per layer and pass of the full hidden state.
    const double msg = 2.0 * T * x.h;
    im.tpMessageBytes = x.t > 1 ? msg : 0;
    im.tpBusBandwidth = x.t > 1 ? x.tpLink.busBandwidth(msg) : 0;
    r.tpCollective =
        x.t > 1 ? allReduceSeconds(x.s.layout.tp, msg, x.tpLink) + x.traits.collectiveLaunchSeconds : 0;
    r.tpCollectiveFwd = r.tpCollective;
    // torchao's Float8 TP plans (torchtitan's default with fp8) cast the column-parallel linears' input to
    // fp8 before the sequence all-gather: forward gathers move 1-byte elements, reduce-scatters stay 16-bit.
    im.tpForwardGathersFp8 = x.sp && x.traits.torchTensorParallel && x.fp8Habit.active;
    im.gatherBytesPerParam = x.gatherBytesPerParam;
    if (im.tpForwardGathersFp8)
        r.tpCollectiveFwd = allGatherSeconds(x.s.layout.tp, msg / 2.0, x.tpLink) +
                            allGatherSeconds(x.s.layout.tp, msg, x.tpLink) + x.traits.collectiveLaunchSeconds;

    // Context parallel: each rank's K and V chunk reaches the other c - 1 ranks while attention computes.
    if (x.c > 1) {
        // torch's context_parallel receives K and V already repeated to every query head (torchtitan calls
        // repeat_kv before SDPA), so its chunks are a/k times the GQA width Megatron's ring sends, and its
        // dK/dV accumulators travel in fp32 (twice the bytes).
        const bool torchCp = x.traits.cpTorchRingAttention;
        const double kvBytes = 2.0 * T * x.cpKvWidth / x.t;
        const double dkvBytes = torchCp ? 2.0 * kvBytes : kvBytes;
        im.cpExchangeBytes = kvBytes;
        // One ring step computes this rank's T queries against a T-token K/V chunk (half of it masked on
        // average with causal load balancing): attention work grows as T^2, the exchange as T, so the
        // exchange hides once T exceeds bytes-per-token x attention-throughput / FLOPs-per-token-pair.
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
            // first step's attention hides it, in forward and again in backward, where the dK/dV
            // accumulators still go round the ring behind the steps.
            const double gather = allGatherSeconds(x.s.layout.cp, x.c * kvBytes, x.cpLink);
            r.cpFwd = overlappedSeconds(gather, r.attnFwd / x.c);
            r.cpBwd = overlappedSeconds(gather, r.attnBwd / x.c) + overlappedSeconds(dkvRing, r.attnBwd);
        } else {
            const double ring = (x.c - 1.0) * sendSeconds(kvBytes, x.cpLink);
            r.cpFwd = overlappedSeconds(ring, r.attnFwd);
            r.cpBwd = overlappedSeconds(ring + dkvRing, r.attnBwd); // K, V in and dK, dV back
        }
        if (torchCp) {
            // torch sends the last dK/dV after the last step and waits for it at once.
            r.cpBwd += sendSeconds(dkvBytes, x.cpLink);
            // convert_to_f32: each step's output is upcast (2 + 4 bytes per element) and merged into the fp32
            // result by log-sum-exp weights (about 28 bytes per element, the half-query steps through a
            // concatenation), then downcast (4 + 2); the K/V pair is concatenated for the next send (2 + 2).
            // Backward accumulates dQ, dK, dV in fp32 (about 11 bytes per element and step), concatenates
            // dK/dV in fp32 for the send (4 + 4), and zero-fills and downcasts the accumulators.
            const double nOut = T * x.aV / x.t, nQ = T * x.aQk / x.t, nKv = T * x.cpKvWidth / x.t;
            const double c = x.c;
            r.cpMergeFwd = x.memSeconds(nOut * (6.0 * c + 28.0 * (c - 1.0) + 6.0) + nKv * 4.0 * (c - 1.0));
            r.cpMergeBwd =
                x.memSeconds(nKv * (4.0 + 4.0 * (c - 1.0) + 19.0 * c + 6.0) + nQ * (4.0 + 11.0 * c + 6.0));
        }
    }
    return r;
}

// GPU time plus the part of the host's dispatch time that the GPU work does not hide: all of it
// when the GPU work per pass is short (eager PyTorch launches kernels one by one), little of it
// when the GPU work is long.
double withHost(double gpu, double host, double exponent) {
    if (host <= 0)
        return gpu;
    const double share = host / (host + gpu);
    return gpu + host * (exponent == 1.0 ? share : std::pow(share, exponent));
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

} // namespace

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

void computeTime(const EvalContext& x, Plan& plan) {
    Intermediates& im = plan.intermediates;
    TimeBreakdown& tb = plan.time;
    const StyleTraits& st = x.traits;
    const LayerTimes lt = layerTimes(x, im);

    // Recompute per layer.
    double recompute = 0;
    double recomputeCollectives = 0;
    switch (x.recompute) {
    case Recompute::None:
        break;
    case Recompute::Selective:
        if (x.rematPolicy != RematPolicy::Auto) {
            recompute = lt.rematRecomputeFwd;
            break;
        }
        if (x.style == ExecutionStyle::Fsdp) {
            recompute = st.selectiveMatmulRecompute * lt.gemmFwd + lt.memFwd;
            break;
        }
        if (!x.flash && (x.recomputeModules & kRecomputeCoreAttn))
            recompute = lt.attnFwd + lt.attnMemFwd; // the attention core
        recompute += lt.moduleRecomputeFwd;
        break;
    case Recompute::Full: // every layer, or block recompute's share of them
        recompute = x.recomputeShare * lt.fwd();
        recomputeCollectives = 2.0 * x.recomputeShare;
        break;
    }
    // MoE layers with whole experts (ETP 1) and no shared expert: the MLP half of the layer runs without TP
    // collectives (the tokens go to the experts by all-to-all from their sequence-parallel shard); only the
    // attention half's all-gather and reduce-scatter remain.
    const bool expertsWithoutTp = x.moe && x.etp == 1.0 && x.t > 1 && x.sharedExperts == 0;
    const double tpShare = expertsWithoutTp ? 1.0 - 0.5 * x.moeFraction : 1.0;
    double tpPerLayer = ((2.0 + recomputeCollectives) * lt.tpCollectiveFwd + 2.0 * lt.tpCollective) * tpShare;
    if (x.s.training.overlapTpComm) {
        // Collective-matmul overlap (Transformer Engine userbuffers, torchtitan AsyncTP): each TP
        // collective is split into chunks that run while the adjacent GEMM computes; only what
        // exceeds the layer's GEMM time (forward, backward and any recomputed forward) stays exposed.
        // The hidden part is not free: the communication kernels take SMs and memory bandwidth from the
        // GEMMs they overlap, so a fifth of it is still paid.
        const double gemms = (3.0 + x.recomputeShare) * lt.gemmFwd;
        tpPerLayer = overlappedSeconds(tpPerLayer, gemms);
    }
    // The backward pass sends the gradients of the same tokens back the same way: dispatch and combine once
    // more, as many bytes as forward (its doubled FLOPs are the weight gradients, which stay local).
    // fwd, bwd, and again with full recompute or the MoE block recomputed
    const bool moeRecomputed = (x.recomputeModules & kRecomputeMoe) != 0;
    double epPerLayer = (2.0 + recomputeCollectives / 2.0 + (moeRecomputed ? 1.0 : 0.0)) * lt.epPerPass;
    const double cpPerLayer = (1.0 + x.recomputeShare) * lt.cpFwd + lt.cpBwd;
    const double computePerLayer = lt.fwd() + lt.bwd();
    if (x.s.training.overlapEpComm)
        // Combined 1F1B: one micro batch's dispatch and combine run while another computes the same layer,
        // so only what exceeds the layer's compute (+ the residual share of the hidden part) is exposed.
        epPerLayer = overlappedSeconds(epPerLayer, computePerLayer + recompute);

    // ZeRO-3 / FSDP: per layer, gather 16-bit weights for forward and again for backward, reduce-scatter
    // gradients; prefetched one layer ahead, so only what exceeds the layer's compute is exposed.
    double fsdpExposedPerLayer = 0;
    double fsdpFirstGather = 0;
    if (x.zero >= 3 && x.shardGroup * x.replicas > 1) {
        const double layerBytes16 = x.gatherBytesPerParam * ((x.layerParams - x.expertLayerParams) / x.t +
                                                             x.expertLayerParams / (x.etp * x.ep));
        const double gather = allGatherSeconds(x.shardGroup, layerBytes16, x.dpLink);
        const double gradBytes = layerBytes16 / 2.0 * x.grads.reduceBytes;
        // Hybrid sharding: the reduce-scattered shard is then all-reduced across the replicas.
        const double reduce = allGatherSeconds(x.shardGroup, gradBytes, x.dpLink) +
                              allReduceSeconds(x.replicas, gradBytes / x.shardGroup, x.replicaLink);
        fsdpExposedPerLayer =
            overlappedSeconds(gather, lt.fwd()) + overlappedSeconds(gather + reduce, lt.bwd() + recompute);
        fsdpFirstGather = gather;
    }
    // With a pipeline, FSDP keeps the stage gathered across micro batches and reduces its gradients after
    // the last one: the traffic above happens once per step instead of once per micro batch.
    double fsdpOncePerStep = 0;
    if (x.fsdpStageGathered) {
        fsdpOncePerStep = x.Ls * fsdpExposedPerLayer + fsdpFirstGather;
        fsdpExposedPerLayer = 0;
        fsdpFirstGather = 0;
    }

    // Host dispatch in forward-pass equivalents: the forward, the backward (autograd launches about two
    // kernels per forward kernel: input and weight gradients) and, with full recompute, a second forward.
    const double forwardPasses = 1.0 + x.recomputeShare; // recomputeShare is 0 without full recompute
    const double passes = 2.0 + forwardPasses;
    double hostPerLayer = passes * st.hostSecondsPerLayerPass;
    if (x.unfusedSoftmax) // the fallback's upcast, scale, mask and downcast: four more kernels in every
                          // forward and four more autograd nodes in the backward, each at one kernel's host
                          // cost
        hostPerLayer += (forwardPasses + 1.0) * kUnfusedSoftmaxExtraKernels * st.hostSecondsPerLayerPass /
                        st.hostKernelsPerLayerPass;

    // Activation offloading: an offloaded layer's saved tensors go to the host while the next layer's forward
    // runs and come back while the one after it in backward runs, on the copy engines (a side stream, no SMs
    // taken); only the copy that outlasts that layer's pass, its exposed TP collectives included, keeps the
    // GPU waiting. The TP time splits between the passes as its collectives do (2 forward, 2 + recompute's
    // backward).
    const double offloadCopy = im.offloadCopySecondsPerLayer;
    const double tpForwardShare = 2.0 / (4.0 + recomputeCollectives);
    const double offloadPerLayer =
        offloadCopy > 0
            ? std::max(0.0, offloadCopy - (lt.fwd() + tpForwardShare * tpPerLayer)) +
                  std::max(0.0, offloadCopy - (lt.bwd() + recompute + (1 - tpForwardShare) * tpPerLayer))
            : 0.0;
    auto offloadedOf = [&](double layers) { return std::min(x.offloadLayers, layers); };

    // One micro batch through one stage (middle stages); first and last stages add embedding and head.
    const double layerGpu = computePerLayer + recompute + cpPerLayer + fsdpExposedPerLayer;
    const double Tm = x.T;
    const double headFlops = 2.0 * Tm * x.h * x.V / x.t;
    // The output layer's GEMMs (forward, input and weight gradients) and the loss's (and any training
    // metric's) passes over the logits.
    const double lossTraffic =
        logitsTrafficBytesPerLogit(x.s.training, x.style, x.s.layout.tp) * Tm * x.V / x.t;
    const double headTime = 3.0 * x.gemm16Seconds(headFlops) + x.memSeconds(lossTraffic);
    const double embedTime = x.memSeconds(3.0 * 2.0 * Tm * x.h);
    // Pipeline point-to-point: activations forward, gradients backward (1/t each with scatter-gather).
    const double p2pBytes = 2.0 * Tm * x.h / x.t;
    double p2p = x.p > 1 ? 2.0 * x.v * (sendSeconds(p2pBytes, x.ppLink) + st.p2pFixedSeconds) : 0.0;
    if (x.s.training.overlapPpComm) // sends and receives posted ahead, completed behind the next chunk
        p2p = overlappedSeconds(p2p, x.Ls * (computePerLayer + recompute));

    // TP collectives are NCCL kernels queued on the compute stream without a host wait: when the host is
    // the bottleneck they run in the GPU's idle time, so they count as GPU work. The MoE all-to-all waits
    // on the host for the token counts and pipeline send/receive blocks: those add to the host-or-GPU-bound
    // compute time.
    auto stageTime = [&](double layers, double extraGpu) {
        return withHost(layers * (layerGpu + tpPerLayer) + offloadedOf(layers) * offloadPerLayer +
                            fsdpFirstGather + extraGpu,
                        layers * hostPerLayer, st.hostHidingExponent) +
               layers * epPerLayer + p2p;
    };
    const int pp = x.s.layout.pp;
    const double firstLayers = x.layersOfRank(0), lastLayers = x.layersOfRank(pp - 1);
    const double first = stageTime(firstLayers, embedTime);
    const double last = stageTime(lastLayers, headTime);
    // The slowest stage's layers and its embedding or head work, for the breakdown below.
    double maxLayers = x.Ls, maxExtra = embedTime + headTime;
    double tMax, tSum;
    if (pp == 1) {
        tMax = stageTime(x.Ls, embedTime + headTime);
        tSum = tMax;
    } else {
        // Middle ranks: with uneven stages the lower ranks hold one layer more than the higher ones.
        double midMax = 0, midSum = 0;
        if (pp > 2) {
            const double hi = stageTime(x.layersOfRank(1), 0.0);
            midMax = hi;
            if (!x.unevenStages) {
                midSum = (pp - 2.0) * hi;
            } else {
                for (int i = 1; i <= pp - 2; ++i)
                    midSum += x.layersOfRank(i) == x.layersOfRank(1) ? hi : stageTime(x.layersOfRank(i), 0.0);
            }
        }
        tMax = std::max({first, midMax, last});
        tSum = first + last + midSum;
        if (tMax == last && last >= first) {
            maxLayers = lastLayers;
            maxExtra = headTime;
        } else if (tMax == first) {
            maxLayers = firstLayers;
            maxExtra = embedTime;
        } else {
            maxLayers = x.layersOfRank(1);
            maxExtra = 0.0;
        }
    }
    const double steady = x.m * tMax;
    const double bubble = (tSum - tMax) / x.v;
    im.microbatchStageSeconds = tMax;
    im.microbatches = x.m;
    im.layersPerStage = x.Ls;

    // Split the steady part into components in proportion to the slowest stage's contents.
    const double gpuShare = tMax > 0 ? 1.0 : 0.0;
    const double scale = x.m * gpuShare;
    tb.computeSeconds = scale * (maxLayers * computePerLayer + maxExtra);
    tb.recomputeSeconds = scale * maxLayers * recompute;
    tb.tpCommSeconds = scale * maxLayers * tpPerLayer;
    tb.epCommSeconds = scale * maxLayers * epPerLayer;
    tb.cpCommSeconds = scale * maxLayers * cpPerLayer;
    tb.ppCommSeconds = scale * p2p;
    tb.offloadSeconds = scale * offloadedOf(maxLayers) * offloadPerLayer;
    const double fsdpInPipeline = scale * (maxLayers * fsdpExposedPerLayer + fsdpFirstGather);
    tb.overheadSeconds = std::max(0.0, steady - (tb.computeSeconds + tb.recomputeSeconds + tb.tpCommSeconds +
                                                 tb.epCommSeconds + tb.cpCommSeconds + tb.ppCommSeconds +
                                                 tb.offloadSeconds + fsdpInPipeline));
    tb.bubbleSeconds = bubble;
    tb.bubbleFraction = steady > 0 ? bubble / steady : 0;

    // Data-parallel gradient reduction (ZeRO 0-2) for the largest stage's parameters.
    const double layerOnGpu =
        (x.layerParams - x.expertLayerParams) + x.expertLayerParams * x.t / (x.etp * x.ep);
    // The largest stage: the first holds the embedding, the last the head, the middle ones layers only.
    double stageParams =
        std::max(firstLayers * layerOnGpu + x.embedParams, lastLayers * layerOnGpu + x.headParams);
    if (pp > 2)
        stageParams = std::max(stageParams, x.layersOfRank(1) * layerOnGpu);
    if (x.s.layout.pp == 1)
        stageParams = x.Ls * layerOnGpu + x.embedParams + (x.s.model.tiedEmbeddings ? 0.0 : x.headParams);
    stageParams /= x.t;
    double dpExposed = fsdpInPipeline + fsdpOncePerStep;
    if (x.zero < 3 && x.shardGroup * x.replicas > 1) {
        const double bytes = stageParams * x.grads.reduceBytes;
        im.dpMessageBytes = bytes;
        im.dpBusBandwidth = x.dpLink.busBandwidth(bytes);
        // ZeRO 0: all-reduce of the gradients. ZeRO 1-2 (distributed optimizer): reduce-scatter of the
        // gradients, then all-gather of the updated 16-bit weights; with hybrid sharding (several
        // optimizer instances) the reduced shard is all-reduced across the replicas in between.
        const double reduce =
            x.zero == 0 ? allReduceSeconds(x.shardGroup, bytes, x.dpLink)
                        : allGatherSeconds(x.shardGroup, bytes, x.dpLink) +
                              allReduceSeconds(x.replicas, bytes / x.shardGroup, x.replicaLink) +
                              allGatherSeconds(x.shardGroup, stageParams * x.gatherBytesPerParam, x.dpLink);
        const bool overlap = st.overlapGradReduce || x.s.training.overlapDpComm;
        const double window = overlap ? x.Ls * (lt.bwd() + recompute) : 0.0;
        dpExposed += overlappedSeconds(reduce, window);
    } else if (x.zero >= 3 && x.shardGroup * x.replicas > 1) {
        im.dpMessageBytes = x.gatherBytesPerParam * layerOnGpu / x.t;
        im.dpBusBandwidth = x.dpLink.busBandwidth(im.dpMessageBytes);
    }
    tb.dpCommExposedSeconds = dpExposed;

    // Optimizer step: memory-bound over the parameters whose state this GPU holds.
    const double heldParams = x.zero >= 1 ? stageParams / x.shardGroup : stageParams;
    const double bytesPerParam = optimizerStepBytesPerParam(x.s.training);
    tb.optimizerSeconds = x.memSeconds(heldParams * bytesPerParam);
    if (x.optimizerOffload) {
        // On the CPU, at its share of the host's DRAM bandwidth, after the held gradients have crossed to the
        // host (streamed out during the last backward, as ZeRO-Offload does) and before the updated 16-bit
        // weights cross back.
        im.cpuOptimizerSeconds =
            heldParams * bytesPerParam / (x.s.cluster.gpu.hostMemoryBandwidth * kCpuOptimizerEfficiency);
        const double gradsOut = x.hostCopySeconds(heldParams * x.grads.reduceBytes);
        const double weightsIn = x.hostCopySeconds(heldParams * 2.0);
        im.optimizerTransferSeconds = overlappedSeconds(gradsOut, x.Ls * (lt.bwd() + recompute)) + weightsIn;
        tb.optimizerSeconds = im.cpuOptimizerSeconds + im.optimizerTransferSeconds;
    }

    const double pipeline = steady + bubble;
    const double loadSeconds = x.b * x.m * x.seq / x.s.training.loaderTokensPerSecond;
    tb.loaderSeconds = x.s.training.loaderPrefetch ? std::max(0.0, loadSeconds - pipeline) : loadSeconds;

    // The FSDP part of dpExposed already sits inside the pipeline time; count it once.
    const double base = pipeline + (dpExposed - fsdpInPipeline) + tb.optimizerSeconds + tb.loaderSeconds;
    tb.stragglerSeconds = base * x.s.training.stragglerSlowdown;
    tb.stepSeconds = std::max(base + tb.stragglerSeconds, 1e-12);

    // FLOPs per token (model: forward + backward; hardware: + recompute).
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
                             ? st.selectiveMatmulRecompute * 2.0 * layerMatmul
                             : (x.flash || !(x.recomputeModules & kRecomputeCoreAttn) ? 0.0 : attn / 3.0) +
                                   moduleRecomputeFlopsPerToken(x);
        break;
    case Recompute::Full:
        recomputeFlops = x.recomputeShare * (2.0 * layerMatmul + attn / 3.0);
        break;
    }
    im.flopsPerTokenHardware = im.flopsPerTokenModel + recomputeFlops;
}

} // namespace lp::core::detail
