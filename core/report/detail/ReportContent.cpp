#include "core/report/detail/ReportContent.h"

#include "core/estimate/ExecutionStyle.h"
#include "core/estimate/KeyFigures.h"
#include "core/estimate/Precision.h"
#include "core/io/Presets.h"
#include "core/model/Enums.h"
#include "core/model/Units.h"
#include "core/report/SvgCharts.h"
#include "core/util/NumberFormat.h"

#include <algorithm>
#include <cctype>
#include <cmath>

namespace lp::core::report {
namespace {

std::string yesNo(bool b) {
    return b ? "yes" : "no";
}

std::string onOff(bool b) {
    return b ? "on" : "off";
}

std::string str(long long v) {
    return fmt::fixed(static_cast<double>(v), 0);
}

std::string bandwidth(double bytesPerSecond) {
    return fmt::fixed(bytesPerSecond / 1e9, 1) + " GB/s";
}

} // namespace

KeyValues summaryFigures(const ReportInput& r) {
    const Plan& p = r.plan;
    const Scenario& s = r.scenario;
    KeyValues kv;
    kv.emplace_back("Scenario", scenarioName(s));
    kv.emplace_back("Model", s.model.name + " (" + parametersText(s, p) + ")");
    kv.emplace_back("Cluster", clusterLine(s.cluster));
    kv.emplace_back("Layout", layoutLine(s));
    if (isInvalid(p)) {
        kv.emplace_back("Status", statusLine(p));
        return kv;
    }
    kv.emplace_back("Memory", statusLine(p));
    kv.emplace_back("Step time", fmt::duration(p.time.stepSeconds));
    if (!r.trust.stepRange.empty())
        kv.emplace_back("Step time of runs like it", r.trust.stepRange);
    kv.emplace_back("Throughput", fmt::fixed(p.tokensPerSecond, 0) + " tokens/s (" +
                                      fmt::fixed(p.tokensPerSecondPerGpu, 1) + " per GPU)");
    kv.emplace_back("MFU", mfuText(p));
    if (!r.trust.mfuRange.empty())
        kv.emplace_back("MFU of runs like it", r.trust.mfuRange);
    if (!r.trust.sentence.empty())
        kv.emplace_back("How far to trust it", r.trust.sentence);
    kv.emplace_back("Token budget", tokenBudgetText(s, p));
    int errors = 0, warnings = 0, infos = 0;
    for (const auto& d : p.diagnostics)
        (d.severity == Severity::Error ? errors : d.severity == Severity::Warning ? warnings : infos)++;
    kv.emplace_back("Diagnostics", fmt::counted(errors, "error") + ", " + fmt::counted(warnings, "warning") +
                                       ", " + fmt::counted(infos, "note"));
    return kv;
}

KeyValues modelFacts(const Scenario& s, const Plan& p) {
    const ModelSpec& m = s.model;
    KeyValues kv;
    kv.emplace_back("Name", m.name);
    kv.emplace_back("Parameters",
                    fmt::count(p.params.total) + " (" + fmt::fixed(p.params.total, 0) + ")" +
                        (m.isMoe() ? "; active per token " + fmt::count(p.params.active) : std::string()));
    kv.emplace_back("Layers", std::to_string(m.layers));
    kv.emplace_back("Hidden size", std::to_string(m.hidden));
    kv.emplace_back("Attention heads / KV heads",
                    std::to_string(m.heads) + " / " + std::to_string(m.kvHeads));
    // MLA's heads are not hidden / heads wide: q and k take the no-position and rotary parts, v its own.
    kv.emplace_back("Head size", m.attention == AttentionKind::Mla
                                     ? "q/k " + std::to_string(m.qkHeadDim()) + ", v " +
                                           std::to_string(m.vHeadDim()) + " (multi-head latent attention)"
                                     : std::to_string(m.headDim()) +
                                           (m.headSize > 0 ? " (explicit)" : " (hidden / heads)"));
    kv.emplace_back("MLP hidden size",
                    std::to_string(m.ffnHidden) + " (" + std::string(toString(m.mlp)) + ")");
    kv.emplace_back("Vocabulary", std::to_string(m.vocab));
    kv.emplace_back("Sequence length", std::to_string(m.seqLen));
    kv.emplace_back("Normalisation", std::string(toString(m.norm)));
    kv.emplace_back("Tied embeddings", yesNo(m.tiedEmbeddings));
    kv.emplace_back("Linear biases", yesNo(m.biases));
    kv.emplace_back("Learned positions", yesNo(m.learnedPositions));
    kv.emplace_back("Dropout", yesNo(m.dropout));
    if (m.attention == AttentionKind::Mla) {
        const auto& a = m.mla;
        kv.emplace_back("Attention", "multi-head latent attention: q rank " + std::to_string(a.qLoraRank) +
                                         ", kv rank " + std::to_string(a.kvLoraRank) + ", qk " +
                                         std::to_string(a.qkNopeHeadDim) + " + rope " +
                                         std::to_string(a.qkRopeHeadDim) + ", v " +
                                         std::to_string(a.vHeadDim));
    } else {
        kv.emplace_back("Attention", m.kvHeads < m.heads ? (m.kvHeads == 1 ? "multi-query" : "grouped-query")
                                                         : "multi-head");
    }
    if (m.isMoe()) {
        const auto& e = m.moe;
        kv.emplace_back("Mixture of experts",
                        std::to_string(e.experts) + " routed experts, top-" + std::to_string(e.topK) +
                            ", expert MLP " + std::to_string(e.expertFfnHidden) + ", " +
                            std::to_string(e.sharedExperts) + " shared, " +
                            std::to_string(m.moeLayerCount()) + " MoE layers, capacity factor " +
                            fmt::fixed(e.capacityFactor, 2));
    }
    return kv;
}

KeyValues clusterFacts(const Scenario& s) {
    const ClusterSpec& c = s.cluster;
    const GpuSpec& g = c.gpu;
    KeyValues kv;
    kv.emplace_back("Name", clusterName(c));
    kv.emplace_back("GPUs", std::to_string(c.nodes) + (c.nodes == 1 ? " node x " : " nodes x ") +
                                std::to_string(c.gpusPerNode) + " = " + str(c.gpus()));
    kv.emplace_back("NVLink domain", std::to_string(c.nvlinkDomain) + " GPUs");
    kv.emplace_back("GPU", g.name + " (" + g.id + ")");
    kv.emplace_back(
        "Peak dense FLOP/s",
        fmt::fixed(g.peakFlops16 / 1e12, 0) + " TFLOP/s 16-bit" +
            (g.peakFlops8 > 0 ? ", " + fmt::fixed(g.peakFlops8 / 1e12, 0) + " TFLOP/s fp8" : std::string()));
    kv.emplace_back("HBM",
                    fmt::bytesBoth(g.hbmBytes) + ", " + fmt::fixed(g.hbmBandwidth / 1e12, 2) + " TB/s");
    kv.emplace_back("NVLink bandwidth", bandwidth(g.nvlinkBandwidth) + " per GPU, one direction");
    kv.emplace_back("Network bandwidth", bandwidth(g.networkBandwidth) + " per GPU, one direction");
    kv.emplace_back("Host link", bandwidth(g.hostLinkBandwidth) + " per GPU, one direction; host memory " +
                                     bandwidth(g.hostMemoryBandwidth) + " and " +
                                     fmt::bytesBoth(g.hostMemoryBytes) + " per GPU");
    kv.emplace_back("Latency", fmt::duration(c.nvlinkLatencySeconds) + " NVLink, " +
                                   fmt::duration(c.networkLatencySeconds) + " network");
    if (!g.source.empty())
        kv.emplace_back("GPU figures from", g.source);
    return kv;
}

KeyValues trainingFacts(const Scenario& s, const Plan& p) {
    const TrainingOptions& t = s.training;
    KeyValues kv;
    kv.emplace_back("Precision", std::string(toString(t.precision)));
    kv.emplace_back("Optimizer", std::string(toString(t.optimizer)));
    kv.emplace_back("ZeRO stage", zeroStageName(t.zeroStage));
    if (t.zeroStage >= 1) {
        const std::string hybrid = hybridShardingText(s);
        kv.emplace_back("Shard group", hybrid.empty() ? std::string("all DP ranks") : hybrid);
    }
    if (t.zeroStage >= 3)
        kv.emplace_back("ZeRO-3 weight gathers", zero3GatherText(t.zero3Gather));
    kv.emplace_back("Activation recompute", std::string(toString(t.recompute)) + recomputeDetailText(t));
    kv.emplace_back("Sequence parallelism", onOff(t.sequenceParallel));
    kv.emplace_back("Attention kernel", attentionKernelText(t, p.intermediates.attentionKernel));
    const bool compileFuses =
        elementwiseTrafficFactor(t, p.style) < styleTraits(p.style).elementwiseTrafficFactor;
    kv.emplace_back("torch.compile",
                    onOff(t.torchCompile) +
                        (t.torchCompile && !compileFuses
                             ? std::string(" (no effect: this style's kernels are fused already)")
                             : std::string()));
    if (t.fusedKernels)
        kv.emplace_back("Fused kernels (TE, Liger)",
                        onOff(true) +
                            (compileFuses
                                 ? std::string()
                                 : std::string(" (no effect: this style's kernels are fused already)")));
    if (t.fp8ParamGather)
        kv.emplace_back("FP8 weight gathers",
                        onOff(true) + (p.intermediates.gatherBytesPerParam < 2.0
                                           ? std::string()
                                           : std::string(" (no effect without fp8 training)")));
    kv.emplace_back("TP communication overlap", toggleText(t.overlapTpComm, overlapsTpComm(s)));
    kv.emplace_back("PP communication overlap", onOff(t.overlapPpComm));
    kv.emplace_back("DP communication overlap", toggleText(t.overlapDpComm, overlapsDpComm(s)) +
                                                    (p.style == ExecutionStyle::Fsdp && !overlapsDpComm(s)
                                                         ? std::string(" (the FSDP style overlaps anyway)")
                                                         : std::string()));
    if (s.model.isMoe())
        kv.emplace_back("EP communication overlap", onOff(t.overlapEpComm));
    kv.emplace_back("Execution style", std::string(toString(t.executionStyle)) +
                                           (t.executionStyle == ExecutionStyle::Auto
                                                ? " (" + std::string(toString(p.style)) + ")"
                                                : std::string()));
    {
        const GradientFormat g = gradientFormat(s, p.style);
        kv.emplace_back("Gradients", std::string(toString(t.gradPrecision)) + " (" + g.held + " held, " +
                                         g.reduced + " reduced)");
    }
    kv.emplace_back("Cross-entropy",
                    std::string(toString(t.crossEntropy)) +
                        (t.crossEntropy != CrossEntropy::Auto               ? std::string()
                         : lossKernel(t, p.style) == CrossEntropy::Compiled ? " (compiled with the model)"
                         : p.style == ExecutionStyle::Fsdp                  ? " (unfused)"
                                                           : " (Megatron's vocab-parallel loss)"));
    if (t.logitsMetricPasses > 0)
        kv.emplace_back("Metrics on logits", std::to_string(t.logitsMetricPasses) + " eager pass" +
                                                 (t.logitsMetricPasses == 1 ? "" : "es") +
                                                 " per micro batch, after its backward");
    if (s.layout.cp > 1)
        kv.emplace_back(
            "CP exchange",
            std::string(toString(t.cpExchange)) +
                (t.cpExchange == CpExchange::Auto
                     ? (cpExchangeOf(t, p.style) == CpExchange::AllGather ? " (all-gather)" : " (ring)")
                     : std::string()));
    if (s.layout.ep > 1)
        kv.emplace_back("MoE dispatcher",
                        t.moeDispatcher == MoeDispatcher::Deduplicated
                            ? "deepep (each token once per other node, forwarded over NVLink)"
                            : "alltoall (every top-k copy)");
    if (s.layout.pp > 1) {
        const bool counted = pipelineSplitCountsEmbeddingAndLoss(s);
        kv.emplace_back("Pipeline split",
                        std::string(toString(t.pipelineSplit)) +
                            (t.pipelineSplit == PipelineSplit::Auto
                                 ? (counted ? " (embedding and loss counted as layers)" : " (layers)")
                                 : std::string()));
    }
    kv.emplace_back("Attention FLOPs", std::string(toString(t.attentionFlops)));
    if (t.optimizerOffload || t.activationOffloadLayers > 0)
        kv.emplace_back("CPU offload",
                        std::string(t.optimizerOffload ? "optimizer state and step on the CPU" : "") +
                            (t.optimizerOffload && t.activationOffloadLayers > 0 ? "; " : "") +
                            (t.activationOffloadLayers > 0
                                 ? "activations of " + std::to_string(t.activationOffloadLayers) +
                                       " layers per stage to host memory"
                                 : std::string()));
    kv.emplace_back("Data loader", fmt::count(t.loaderTokensPerSecond) + " tokens/s per DP rank, prefetch " +
                                       onOff(t.loaderPrefetch));
    kv.emplace_back("Straggler slowdown", fmt::percent(t.stragglerSlowdown));
    kv.emplace_back("Allocator reserve", fmt::percent(t.allocatorReserveFraction) + " of GPU memory");
    if (s.model.isMoe())
        kv.emplace_back("MoE load imbalance", fmt::fixed(t.moeLoadImbalance, 2) + "x");
    kv.emplace_back("Token budget", fmt::count(t.tokenBudget) + " tokens");
    return kv;
}

KeyValues layoutFacts(const Scenario& s, const Plan& p) {
    const Layout& l = s.layout;
    KeyValues kv;
    kv.emplace_back("Tensor parallel (TP)", std::to_string(l.tp));
    kv.emplace_back("Pipeline parallel (PP)", std::to_string(l.pp));
    kv.emplace_back("Data parallel (DP)", std::to_string(l.dp));
    kv.emplace_back("Context parallel (CP)", std::to_string(l.cp));
    kv.emplace_back("Expert parallel (EP)", std::to_string(l.ep));
    if (s.model.isMoe())
        kv.emplace_back("Expert tensor parallel (ETP)",
                        std::to_string(expertTensorParallel(s)) + (l.etp == 0 ? " (auto)" : ""));
    kv.emplace_back("Virtual stages per rank", std::to_string(l.vpp));
    kv.emplace_back("GPUs", "TP x PP x CP x DP = " + std::to_string(l.tp) + " x " + std::to_string(l.pp) +
                                " x " + std::to_string(l.cp) + " x " + std::to_string(l.dp) + " = " +
                                str(l.gpus()));
    kv.emplace_back("Effective batch", effectiveBatchLine(l));
    const double tokens = static_cast<double>(l.effectiveBatch()) * s.model.seqLen;
    kv.emplace_back("Tokens per step", fmt::fixed(tokens, 0));
    if (p.valid && l.pp > 1)
        kv.emplace_back("Layers per stage", fmt::fixed(p.intermediates.layersPerStage, 1));
    return kv;
}

KeyValues memoryFacts(const Plan& p) {
    KeyValues kv = memoryFitFacts(p);
    kv.emplace_back("Largest component (worst stage)",
                    std::string(memoryComponentLabel(p.memory.largestComponent)));
    kv.emplace_back("Training state", trainingStateText(p));
    return kv;
}

KeyValues utilisationFacts(const Scenario& s, const Plan& p) {
    KeyValues kv;
    kv.emplace_back("MFU (model FLOPs utilisation)", fmt::percent(p.mfu));
    kv.emplace_back("HFU (hardware FLOPs utilisation, with recompute)", fmt::percent(p.hfu));
    kv.emplace_back("6ND yardstick (6 x " + yardstickParameters(s.model) + " x tokens)",
                    fmt::percent(p.mfu6nd));
    kv.emplace_back("TFLOP/s per GPU", tflopsPerGpuText(p));
    // "116.52 PFLOP": count()'s tier is the prefix; without one (scientific) the unit stands apart.
    const std::string flops = fmt::count(p.modelFlopsPerStep);
    const bool prefixed = std::isalpha(static_cast<unsigned char>(flops.back())) != 0;
    kv.emplace_back("Model FLOPs per step", flops + (prefixed ? "FLOP" : " FLOP"));
    kv.emplace_back("Tokens/s", tokensPerSecondText(p));
    kv.emplace_back("Token budget", tokenBudgetText(s, p));
    return kv;
}

KeyValues profileFacts(const ReportInput& r) {
    const HardwareProfile& pr = r.profile;
    KeyValues kv;
    kv.emplace_back("Profile", pr.name);
    kv.emplace_back("Origin", pr.origin == "measured" ? "measured" : "built-in");
    kv.emplace_back("GPU", pr.gpuId.empty() ? r.scenario.cluster.gpu.id : pr.gpuId);
    if (pr.origin == "measured") {
        kv.emplace_back("Measured on", pr.measuredOn.empty() ? "(not recorded)" : pr.measuredOn);
        kv.emplace_back("Measured", pr.date.empty() ? "(date not recorded)" : pr.date);
    }
    double gemmMax = 0;
    for (const auto& [x, y] : pr.gemmEfficiency.points)
        gemmMax = std::max(gemmMax, y);
    kv.emplace_back("GEMM efficiency (largest GEMMs)", fmt::percent(gemmMax) + " of peak");
    kv.emplace_back("HBM efficiency", fmt::percent(pr.kernels.hbmEfficiency));
    kv.emplace_back("Flash attention efficiency",
                    fmt::percent(pr.kernels.attentionFwdEfficiency) + " forward, " +
                        fmt::percent(pr.kernels.attentionBwdEfficiency) + " backward");
    if (pr.kernels.fa2AttentionFwdEfficiency > 0)
        kv.emplace_back("FlashAttention-2 forward (torch SDPA, FSDP style)",
                        fmt::percent(pr.kernels.fa2AttentionFwdEfficiency) +
                            (r.plan.intermediates.flashFwdIsFa2 ? " (this plan)" : ""));
    if (pr.kernels.fa2AttentionBwdEfficiency > 0)
        kv.emplace_back("FlashAttention-2 backward", fmt::percent(pr.kernels.fa2AttentionBwdEfficiency));
    if (pr.kernels.attentionFwdHalfTokens > 0 || pr.kernels.attentionBwdHalfTokens > 0)
        kv.emplace_back("Attention at half its limit",
                        fmt::fixed(pr.kernels.attentionFwdHalfTokens, 0) + " tokens forward, " +
                            fmt::fixed(pr.kernels.attentionBwdHalfTokens, 0) +
                            " backward (the figures above are long-sequence limits)");
    if (pr.kernels.attentionScoreOverhead > 0 || pr.kernels.fa2AttentionScoreOverhead > 0)
        kv.emplace_back(
            "Attention per-score overhead",
            fmt::fixed(pr.kernels.attentionScoreOverhead, 2) + " of the MMA time at heads of 128" +
                (pr.kernels.fa2AttentionScoreOverhead > 0
                     ? " (FlashAttention-2: " + fmt::fixed(pr.kernels.fa2AttentionScoreOverhead, 2) + ")"
                     : std::string()) +
                "; the figures above are for heads of 128" +
                (r.plan.valid && r.plan.intermediates.attentionHeadFactorFwd < 1.0
                     ? ", this plan's heads of " + fmt::fixed(r.plan.intermediates.attentionHeadSize, 0) +
                           " run at " + fmt::percent(r.plan.intermediates.attentionHeadFactorFwd, 0) +
                           " and " + fmt::percent(r.plan.intermediates.attentionHeadFactorBwd, 0) + " of them"
                     : std::string()));
    if (r.plan.valid)
        kv.emplace_back("GEMM efficiency in this plan", fmt::percent(r.plan.intermediates.gemmEfficiency) +
                                                            " (FLOP-weighted over a layer's GEMMs)");
    return kv;
}

} // namespace lp::core::report
