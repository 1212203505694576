#include "core/report/Report.h"

#include "core/estimate/Evaluate.h"
#include "core/estimate/ExecutionStyle.h"
#include "core/estimate/PlanJson.h"
#include "core/io/Presets.h"
#include "core/io/ScenarioJson.h"
#include "core/report/ReportHtml.h"
#include "core/report/ReportMarkdown.h"
#include "core/util/NumberFormat.h"
#include "core/util/Text.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>

#ifndef LP_VERSION
#define LP_VERSION "unknown"
#endif

namespace lp::core {
namespace {

// ", long-sequence limits: at this plan's 4,096-token attention kernels 37 % and 30 %" (empty when the
// profile's attention efficiencies do not depend on the length).
std::string attentionLengthNote(const HardwareProfile& profile, const Scenario& s, const Plan& p) {
    if (!(profile.kernels.attentionFwdHalfTokens > 0 || profile.kernels.attentionBwdHalfTokens > 0) ||
        !fusedAttention(s.training) || !p.valid)
        return {};
    return ", long-sequence limits: at this plan's " + fmt::fixed(p.intermediates.attentionKernelTokens, 0) +
           "-token attention kernels " + fmt::percent(p.intermediates.flashFwdEfficiency, 0) + " and " +
           fmt::percent(p.intermediates.flashBwdEfficiency, 0);
}

// ", at this plan's heads of 64 75 % and 86 % of those" (empty when the heads run at the profile's figures).
std::string attentionHeadNote(const Scenario& s, const Plan& p) {
    if (!fusedAttention(s.training) || !p.valid ||
        !(p.intermediates.attentionHeadFactorFwd < 1.0 || p.intermediates.attentionHeadFactorBwd < 1.0))
        return {};
    return ", at this plan's heads of " + fmt::fixed(p.intermediates.attentionHeadSize, 0) + " " +
           fmt::percent(p.intermediates.attentionHeadFactorFwd, 0) + " and " +
           fmt::percent(p.intermediates.attentionHeadFactorBwd, 0) +
           " of those (the figures are for heads of 128)";
}

double curveMax(const Curve& c) {
    double m = 0;
    for (const auto& [x, y] : c.points)
        m = std::max(m, y);
    return m;
}

} // namespace

std::string_view toString(ReportFormat f) {
    switch (f) {
    case ReportFormat::Html:
        return "html";
    case ReportFormat::Markdown:
        return "md";
    case ReportFormat::Json:
        return "json";
    case ReportFormat::Pdf:
        return "pdf";
    }
    return "html";
}

std::optional<ReportFormat> parseReportFormat(std::string_view s) {
    const std::string l = asciiLower(s);
    if (l == "html" || l == "htm")
        return ReportFormat::Html;
    if (l == "md" || l == "markdown")
        return ReportFormat::Markdown;
    if (l == "json")
        return ReportFormat::Json;
    if (l == "pdf")
        return ReportFormat::Pdf;
    return std::nullopt;
}

std::optional<ReportFormat> reportFormatForPath(std::string_view path) {
    const auto dot = path.rfind('.');
    const auto slash = path.find_last_of("/\\");
    if (dot == std::string_view::npos || (slash != std::string_view::npos && dot < slash))
        return std::nullopt;
    return parseReportFormat(path.substr(dot + 1));
}

std::string reportFileStem(const Scenario& s) {
    const Layout& l = s.layout;
    std::string stem = scenarioName(s) + " TP" + std::to_string(l.tp) + " PP" + std::to_string(l.pp);
    if (l.vpp > 1)
        stem += " VPP" + std::to_string(l.vpp);
    if (l.cp > 1)
        stem += " CP" + std::to_string(l.cp);
    stem += " DP" + std::to_string(l.dp);
    if (l.ep > 1)
        stem += " EP" + std::to_string(l.ep);
    for (char& c : stem)
        if (static_cast<unsigned char>(c) < 0x20 ||
            std::string_view("/\\:*?\"<>|").find(c) != std::string_view::npos)
            c = '-';
    return stem;
}

std::string utcTimestampNow() {
    std::time_t t = 0;
    bool fromEnv = false;
    if (const char* epoch = std::getenv("SOURCE_DATE_EPOCH"); epoch && *epoch) {
        char* end = nullptr;
        const long long v = std::strtoll(epoch, &end, 10);
        if (end && *end == '\0' && v >= 0) {
            t = static_cast<std::time_t>(v);
            fromEnv = true;
        }
    }
    if (!fromEnv)
        t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

std::string displayTimestamp(std::string_view iso) {
    // YYYY-MM-DDThh:mm:ssZ
    if (iso.size() == 20 && iso[10] == 'T' && iso[19] == 'Z')
        return std::string(iso.substr(0, 10)) + " " + std::string(iso.substr(11, 5)) + " UTC";
    return std::string(iso);
}

ReportInput makeReport(const Scenario& s, const HardwareProfile& profile, const Plan& plan) {
    ReportInput r;
    r.scenario = s;
    r.profile = profile;
    r.plan = plan;
    if (plan.valid)
        r.explanations = explainPlan(s, plan);
    r.title = "Layout report: " + scenarioName(s);
    r.generatedAt = utcTimestampNow();
    r.toolVersion = LP_VERSION;
    return r;
}

ReportInput makeReport(const Scenario& s, const HardwareProfile& profile) {
    return makeReport(s, profile, evaluate(s, profile));
}

ReportInput makeReport(const Scenario& s) {
    return makeReport(s, builtinProfile(s.cluster.gpu));
}

std::string profileDescription(const HardwareProfile& profile, const Scenario& s) {
    const std::string gpu = profile.gpuId.empty() ? s.cluster.gpu.name : profile.gpuId;
    if (profile.origin == "measured") {
        std::string out = "Measured profile \"" + profile.name + "\" for " + gpu;
        if (!profile.measuredOn.empty())
            out += ", measured on " + profile.measuredOn;
        if (!profile.date.empty())
            out += " on " + profile.date;
        return out;
    }
    return "Built-in profile \"" + profile.name + "\" for " + gpu +
           " (derived from public measurements; docs/estimation.md, section 7)";
}

namespace {

std::string optimizerAssumption(const TrainingOptions& t) {
    const char* precision = t.precision == Precision::Fp16
                                ? "fp16"
                                : (t.precision == Precision::Fp8 ? "fp8 (matmuls) with bf16" : "bf16");
    const bool adam = t.optimizer == Optimizer::Adam;
    const std::string moments = adam ? "two " : "one ";
    const std::string momentWord = adam ? " moments" : " momentum";
    switch (t.optimizerPrecision) {
    case OptimizerPrecision::Fp32:
        return std::string(adam ? "Mixed-precision Adam: " : "SGD with momentum: ") + precision +
               " weights and gradients plus fp32 master weights and " + moments + "fp32" + momentWord +
               (adam ? " (about 16 bytes per parameter of training state before sharding)." : ".");
    case OptimizerPrecision::Bf16Moments:
        return std::string(adam ? "Adam: " : "SGD with momentum: ") + precision +
               " weights and gradients plus fp32 master weights and " + moments + "bf16" + momentWord +
               " (Megatron-Core's precision-aware optimizer).";
    case OptimizerPrecision::Bf16:
        return std::string(adam ? "Adam: " : "SGD with momentum: ") +
               "bf16 parameters updated in place, with no fp32 master copy, and " + moments + "bf16" +
               momentWord + " (a model built in bf16).";
    }
    return {};
}

std::string shardingAssumption(const Scenario& s) {
    const auto& t = s.training;
    const auto& l = s.layout;
    const int shardDegree = effectiveShardDegree(s);
    if (t.zeroStage >= 1 && shardDegree < l.dp)
        return zeroStageDescription(t.zeroStage) + ", hybrid: sharded over " +
               fmt::counted(shardDegree, "DP rank") +
               " x CP = " + fmt::counted(static_cast<long long>(shardDegree) * l.cp, "rank") +
               " and replicated " + fmt::counted(l.dp / shardDegree, "time") +
               "; the gradient shards are all-reduced across the replicas.";
    return zeroStageDescription(t.zeroStage) +
           " (DP x CP = " + std::to_string(static_cast<long long>(l.dp) * l.cp) + " ranks).";
}

std::string styleAssumption(const Scenario& s) {
    const TrainingOptions& t = s.training;
    if (resolvedStyle(t) == ExecutionStyle::Fsdp)
        return std::string("Execution style FSDP (PyTorch FSDP2 / torchtitan / DeepSpeed ZeRO-3): per-layer "
                           "weight gathers prefetched one layer ahead, gradient reduction overlapped with "
                           "the backward pass; ") +
               (t.torchCompile ? "the model compiled with torch.compile (elementwise ops fused)."
                : t.fusedKernels
                    ? "fused norm, rotary and activation kernels (Transformer Engine, Liger)."
                    : "eager elementwise ops (one kernel each, twice a fused kernel's memory traffic).");
    const std::string habits = megatronRecipeHabits(s)
                                   ? " The switches left on auto take the habits of NVIDIA's Megatron-Core "
                                     "performance recipes on this GPU (overlaps, 16-bit gradient reduction)."
                                   : std::string();
    return (overlapsDpComm(s)
                ? "Execution style Megatron-LM: TP/PP/DP with bucketed gradient reduction "
                  "overlapped with the backward pass (--overlap-grad-reduce) and fused kernels."
                : "Execution style Megatron-LM: TP/PP/DP with bucketed gradient reduction after "
                  "the backward pass (not overlapped) and fused kernels.") +
           habits;
}

std::string overlapAssumption(const Scenario& s) {
    const TrainingOptions& t = s.training;
    return std::string("Tensor-parallel collectives ") +
           (overlapsTpComm(s)
                ? "overlap the layer's GEMMs (--tp-comm-overlap, AsyncTP): what exceeds the GEMM "
                  "time is exposed, plus a fifth of the hidden part"
                : "run exposed, between the GEMMs") +
           "; pipeline send/receive " +
           (t.overlapPpComm ? "overlaps the stage's compute (--overlap-p2p-communication)."
                            : "runs exposed.");
}

std::string flopsAssumption(const Scenario& s, const Plan& p) {
    const auto& t = s.training;
    return std::string("Attention score FLOPs are counted ") +
           (t.attentionFlops == AttentionFlops::Full ? "in full (the PaLM / Megatron-LM convention)"
                                                     : "halved for causal kernels") +
           "; MFU is model FLOPs per second over the dense " +
           (t.precision == Precision::Fp8 ? "fp8" : "16-bit") + " peak of " + s.cluster.gpu.name + " (" +
           fmt::fixed(p.intermediates.peakFlops / 1e12, 0) + " TFLOP/s per GPU).";
}

std::string profileAssumption(const HardwareProfile& profile, const Scenario& s, const Plan& p) {
    const bool fa2 = p.intermediates.flashFwdIsFa2;
    const std::string forward = fa2 ? fmt::percent(profile.kernels.fa2AttentionFwdEfficiency, 0) +
                                          " (forward: FlashAttention-2 through torch's "
                                          "scaled_dot_product_attention, where fused attention reaches " +
                                          fmt::percent(profile.kernels.attentionFwdEfficiency, 0) + ")"
                                    : fmt::percent(profile.kernels.attentionFwdEfficiency, 0) + " (forward)";
    const double backward = fa2 && profile.kernels.fa2AttentionBwdEfficiency > 0
                                ? profile.kernels.fa2AttentionBwdEfficiency
                                : profile.kernels.attentionBwdEfficiency;
    return profileDescription(profile, s) + ": large GEMMs reach up to " +
           fmt::percent(curveMax(profile.gemmEfficiency), 0) + " of peak, memory-bound kernels " +
           fmt::percent(profile.kernels.hbmEfficiency, 0) + " of HBM bandwidth, flash attention " + forward +
           " and " + fmt::percent(backward, 0) + " (backward) of peak" + attentionLengthNote(profile, s, p) +
           attentionHeadNote(s, p) + ".";
}

// The data loader, stragglers and expert load: what slows a real run beyond the layout.
void runAssumptions(std::vector<std::string>& a, const Scenario& s) {
    const auto& t = s.training;
    a.push_back("The data loader delivers " + fmt::count(t.loaderTokensPerSecond) +
                " tokens/s per data-parallel rank" +
                (t.loaderPrefetch ? ", prefetched ahead of the step."
                                  : ", without prefetching (its time is exposed)."));
    if (t.stragglerSlowdown > 0)
        a.push_back("The slowest rank is " + fmt::percent(t.stragglerSlowdown) +
                    " slower than the others, and every step waits for it.");
    else
        a.push_back("No straggler slowdown: every rank runs at the same speed.");
    if (s.model.isMoe())
        a.push_back("Mixture of experts: the busiest expert receives " + fmt::fixed(t.moeLoadImbalance, 2) +
                    "x the mean number of tokens, with a capacity factor of " +
                    fmt::fixed(s.model.moe.capacityFactor, 2) + ".");
}

} // namespace

std::vector<std::string> reportAssumptions(const Scenario& s, const HardwareProfile& profile, const Plan& p) {
    const auto& t = s.training;
    std::vector<std::string> a;
    a.push_back(optimizerAssumption(t));
    a.push_back(shardingAssumption(s));
    a.push_back(styleAssumption(s));
    a.push_back(overlapAssumption(s));
    a.push_back(std::string("Recompute: ") + std::string(toString(t.recompute)) + recomputeDetailText(t) +
                "; sequence parallelism " + (t.sequenceParallel ? "on" : "off") + "; attention kernel " +
                attentionKernelText(t, p.intermediates.attentionKernel) + ".");
    a.push_back(flopsAssumption(s, p));
    a.push_back("Memory per GPU includes the CUDA context, communication buffers and a caching-allocator "
                "reserve of " +
                fmt::percent(t.allocatorReserveFraction, 0) + " of the GPU memory; capacity is " +
                fmt::bytesBoth(s.cluster.gpu.hbmBytes) + " per GPU.");
    runAssumptions(a, s);
    a.push_back(profileAssumption(profile, s, p));
    a.push_back("Network bandwidth " + fmt::fixed(s.cluster.gpu.networkBandwidth / 1e9, 1) +
                " GB/s per GPU and NVLink " + fmt::fixed(s.cluster.gpu.nvlinkBandwidth / 1e9, 0) +
                " GB/s per GPU (one direction), with NCCL efficiency curves from the profile.");
    a.push_back("Training time assumes " + fmt::count(t.tokenBudget) +
                " tokens at the estimated throughput, with no failures, restarts, checkpoint saves or "
                "evaluation pauses.");
    a.push_back(
        "These are estimates from a model, not measurements: docs/estimation.md describes the model, how it "
        "was checked against published runs and its known limits (the worst published cases are off by "
        "20-33%). Check the first steady steps of the real run (layout-planner-cli analyze-log).");
    return a;
}

namespace {
nlohmann::json rangeJson(bool available, double low, double high) {
    return available ? nlohmann::json{{"low", low}, {"high", high}} : nlohmann::json(nullptr);
}
} // namespace

void addTrustJson(nlohmann::json& plan, const ReportTrust& trust) {
    if (trust.sentence.empty())
        return;
    plan["time"]["step_s_band"] = rangeJson(trust.available, trust.stepLow, trust.stepHigh);
    plan["mfu_band"] = rangeJson(trust.available, trust.mfuLow, trust.mfuHigh);
    plan["tokens_per_s_band"] = rangeJson(trust.available, trust.tokensLow, trust.tokensHigh);
    plan["trust"] = {{"available", trust.available},
                     {"figures", trust.figures},
                     {"runs", trust.runs},
                     {"scale_relaxed", trust.scaleRelaxed},
                     {"sentence", trust.sentence}};
}

nlohmann::json reportToJsonValue(const ReportInput& r) {
    using nlohmann::json;
    json j;
    j["schema"] = kReportSchema;
    j["version"] = kReportVersion;
    j["title"] = r.title;
    j["generated_at"] = r.generatedAt;
    j["tool"] = json{{"name", "Layout Planner"}, {"version", r.toolVersion}};
    j["scenario"] = json::parse(scenarioToJson(r.scenario));
    const auto& pr = r.profile;
    j["profile"] = json{{"name", pr.name},
                        {"gpu_id", pr.gpuId},
                        {"origin", pr.origin},
                        {"measured_on", pr.measuredOn},
                        {"date", pr.date},
                        {"description", profileDescription(pr, r.scenario)},
                        {"gemm_max_efficiency", finiteOrNull(curveMax(pr.gemmEfficiency))},
                        {"hbm_efficiency", finiteOrNull(pr.kernels.hbmEfficiency)},
                        {"attention_fwd_efficiency", finiteOrNull(pr.kernels.attentionFwdEfficiency)},
                        {"attention_bwd_efficiency", finiteOrNull(pr.kernels.attentionBwdEfficiency)},
                        {"attention_score_overhead", finiteOrNull(pr.kernels.attentionScoreOverhead)}};
    json plan = planToJson(r.scenario, r.plan);
    bool invalid = !r.plan.valid;
    for (const auto& d : r.plan.diagnostics)
        invalid = invalid || d.severity == Severity::Error;
    plan["valid"] = !invalid;
    addTrustJson(plan, r.trust);
    j["plan"] = std::move(plan);
    json ex = json::array();
    for (const auto& e : r.explanations)
        ex.push_back(explanationToJson(e));
    j["explanations"] = std::move(ex);
    j["assumptions"] = reportAssumptions(r.scenario, r.profile, r.plan);
    sanitizeNonFinite(j);
    return j;
}

std::string reportToJson(const ReportInput& r) {
    return reportToJsonValue(r).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string renderReport(const ReportInput& r, ReportFormat f) {
    switch (f) {
    case ReportFormat::Html:
        return reportToHtml(r);
    case ReportFormat::Markdown:
        return reportToMarkdown(r);
    case ReportFormat::Json:
        return reportToJson(r);
    case ReportFormat::Pdf:
        return {};
    }
    return {};
}

} // namespace lp::core
