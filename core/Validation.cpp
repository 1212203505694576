// Reads layout-planner/validation-cases@1 files and compares predictions with the measured values.
#include "core/Validation.h"

#include "core/Evaluate.h"
#include "core/Presets.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <map>

namespace lp::core {
namespace {

using nlohmann::json;

constexpr const char* kSchema = "layout-planner/validation-cases@1";

const char* kMetrics[] = {"iteration_time_s", "model_tflops_per_gpu", "hardware_tflops_per_gpu", "mfu", "hfu",
                          "tokens_per_s_per_gpu", "peak_memory_gib"};

struct Reader {
    InputErrors& errors;
    std::string base;

    const json* field(const json& obj, const char* key, const std::string& where) {
        if (!obj.is_object() || !obj.contains(key)) {
            errors.push_back({where + "." + key, "is missing"});
            return nullptr;
        }
        return &obj.at(key);
    }
    int integer(const json& obj, const char* key, const std::string& where, int lo, int hi) {
        const json* v = field(obj, key, where);
        if (!v)
            return lo;
        if (!v->is_number_integer() || v->get<long long>() < lo || v->get<long long>() > hi) {
            errors.push_back({where + "." + key, "must be an integer from " + std::to_string(lo) + " to " + std::to_string(hi)});
            return lo;
        }
        return v->get<int>();
    }
    bool boolean(const json& obj, const char* key, const std::string& where, bool fallback) {
        if (!obj.contains(key) || obj.at(key).is_null())
            return fallback;
        if (!obj.at(key).is_boolean()) {
            errors.push_back({where + "." + key, "must be true or false"});
            return fallback;
        }
        return obj.at(key).get<bool>();
    }
    std::string text(const json& obj, const char* key, const std::string& where) {
        const json* v = field(obj, key, where);
        if (!v)
            return {};
        if (!v->is_string()) {
            errors.push_back({where + "." + key, "must be a string"});
            return {};
        }
        return v->get<std::string>();
    }
};

// The case format records the architecture's main numbers; the rest follows the family it names:
// GELU models are GPT-style (LayerNorm, biases, learned positions, dropout), SwiGLU models are
// Llama-style (RMSNorm, no biases, RoPE, no dropout).
ModelSpec readModel(Reader& r, const json& j, const std::string& where) {
    ModelSpec m;
    m.name = r.text(j, "name", where);
    m.layers = r.integer(j, "layers", where, 1, 100000);
    m.hidden = r.integer(j, "hidden", where, 1, 1000000);
    m.heads = r.integer(j, "heads", where, 1, 100000);
    m.kvHeads = r.integer(j, "kv_heads", where, 1, 100000);
    m.ffnHidden = r.integer(j, "ffn_hidden", where, 1, 10000000);
    m.vocab = r.integer(j, "vocab", where, 1, 100000000);
    m.seqLen = r.integer(j, "seq_len", where, 1, 100000000);
    const std::string mlp = r.text(j, "mlp", where);
    if (auto k = parseMlpKind(mlp))
        m.mlp = *k;
    else if (!mlp.empty())
        r.errors.push_back({where + ".mlp", "must be gelu or swiglu, got '" + mlp + "'"});
    m.tiedEmbeddings = r.boolean(j, "tied_embeddings", where, false);
    const bool gpt = m.mlp == MlpKind::Gelu;
    m.norm = gpt ? NormKind::LayerNorm : NormKind::RmsNorm;
    m.biases = gpt;
    m.learnedPositions = gpt;
    m.dropout = gpt;
    if (j.contains("moe") && j.at("moe").is_object()) {
        const json& e = j.at("moe");
        const std::string w = where + ".moe";
        m.moe.experts = r.integer(e, "experts", w, 1, 100000);
        m.moe.topK = r.integer(e, "top_k", w, 1, 100000);
        m.moe.expertFfnHidden = r.integer(e, "expert_ffn_hidden", w, 1, 10000000);
        if (e.contains("shared_experts") && e.at("shared_experts").is_number_integer())
            m.moe.sharedExperts = e.at("shared_experts").get<int>();
        if (e.contains("moe_layers") && e.at("moe_layers").is_number_integer())
            m.moe.moeLayers = e.at("moe_layers").get<int>();
    }
    return m;
}

ClusterSpec readCluster(Reader& r, const json& j, const std::string& where) {
    ClusterSpec c;
    const std::string gpuId = r.text(j, "gpu", where);
    const int gpus = r.integer(j, "gpus", where, 1, 10000000);
    const int perNode = r.integer(j, "gpus_per_node", where, 1, 100000);
    if (const GpuPreset* g = findGpuPreset(gpuId))
        c.gpu = g->gpu;
    else if (!gpuId.empty())
        r.errors.push_back({where + ".gpu", "unknown GPU '" + gpuId + "'"});
    // A run on part of one node uses that many GPUs of it, joined by the node's NVLink switch.
    c.gpusPerNode = gpus < perNode ? gpus : perNode;
    c.nodes = std::max(1, gpus / std::max(1, c.gpusPerNode));
    if (gpus >= perNode && gpus % perNode != 0)
        r.errors.push_back({where + ".gpus", "is not a multiple of gpus_per_node"});
    c.nvlinkDomain = c.gpusPerNode;
    if (gpuId == "gb200" || gpuId == "gb300")
        c.nvlinkDomain = std::min(gpus, 72);
    c.name = std::to_string(c.nodes) + " x " + std::to_string(c.gpusPerNode) + " " + c.gpu.name;
    return c;
}

} // namespace

std::expected<std::vector<ValidationCase>, InputErrors> validationCasesFromJson(std::string_view text) {
    InputErrors errors;
    json doc = json::parse(text, nullptr, false);
    if (doc.is_discarded())
        return std::unexpected(InputErrors{{"", "is not valid JSON"}});
    if (!doc.is_object() || doc.value("schema", std::string()) != kSchema)
        return std::unexpected(InputErrors{{"$.schema", std::string("must be \"") + kSchema + "\""}});
    if (!doc.contains("cases") || !doc.at("cases").is_array())
        return std::unexpected(InputErrors{{"$.cases", "must be an array"}});
    std::vector<ValidationCase> out;
    Reader r{errors, "$"};
    std::size_t i = 0;
    for (const json& jc : doc.at("cases")) {
        const std::string where = "$.cases[" + std::to_string(i++) + "]";
        ValidationCase vc;
        vc.id = r.text(jc, "id", where);
        vc.source = jc.value("source", std::string());
        vc.confidence = jc.value("confidence", std::string());
        vc.notes = jc.value("notes", std::string());
        const json* jm = r.field(jc, "model", where);
        const json* jh = r.field(jc, "hardware", where);
        const json* jl = r.field(jc, "layout", where);
        const json* jmeas = r.field(jc, "measured", where);
        if (!jm || !jh || !jl || !jmeas)
            continue;
        Scenario s;
        s.name = vc.id;
        s.notes = vc.source;
        s.model = readModel(r, *jm, where + ".model");
        s.cluster = readCluster(r, *jh, where + ".hardware");
        const std::string lw = where + ".layout";
        Layout& l = s.layout;
        l.tp = r.integer(*jl, "tp", lw, 1, 100000);
        l.pp = r.integer(*jl, "pp", lw, 1, 100000);
        l.dp = r.integer(*jl, "dp", lw, 1, 10000000);
        l.cp = jl->contains("cp") && !jl->at("cp").is_null() ? r.integer(*jl, "cp", lw, 1, 100000) : 1;
        l.ep = jl->contains("ep") && !jl->at("ep").is_null() ? r.integer(*jl, "ep", lw, 1, 100000) : 1;
        l.vpp = jl->contains("vpp") && !jl->at("vpp").is_null() ? r.integer(*jl, "vpp", lw, 1, 1000) : 1;
        vc.microBatchGiven = jl->contains("micro_batch") && !jl->at("micro_batch").is_null();
        l.microBatch = vc.microBatchGiven ? r.integer(*jl, "micro_batch", lw, 1, 100000) : 1;
        vc.globalBatch = r.integer(*jl, "global_batch", lw, 1, 100000000);
        TrainingOptions& t = s.training;
        t.sequenceParallel = r.boolean(*jl, "sequence_parallel", lw, false);
        const std::string rc = r.text(*jl, "recompute", lw);
        if (auto v = parseRecompute(rc))
            t.recompute = *v;
        else
            errors.push_back({lw + ".recompute", "must be none, selective or full"});
        t.zeroStage = r.integer(*jl, "zero_stage", lw, 0, 3);
        const std::string pr = r.text(*jl, "precision", lw);
        if (auto v = parsePrecision(pr))
            t.precision = *v;
        else
            errors.push_back({lw + ".precision", "must be bf16, fp16 or fp8"});
        // The format does not record the attention kernel. Runs on Hopper or newer GPUs and models of
        // the SwiGLU/RoPE family use flash attention; GELU GPT models on A100 used Megatron's fused
        // (unflashed) softmax, as the 2021-2022 papers describe.
        t.flashAttention = s.model.mlp == MlpKind::SwiGlu || s.cluster.gpu.peakFlops8 > 0;
        const long long perReplica = static_cast<long long>(l.microBatch) * l.dp;
        if (vc.microBatchGiven && vc.globalBatch % perReplica != 0)
            errors.push_back({lw + ".global_batch", "is not divisible by micro_batch x dp"});
        l.accumulation = static_cast<int>(std::max(1LL, vc.globalBatch / std::max(1LL, perReplica)));
        for (const char* metric : kMetrics) {
            if (jmeas->contains(metric) && jmeas->at(metric).is_number()) {
                const double v = jmeas->at(metric).get<double>();
                if (std::isfinite(v) && v > 0)
                    vc.measured.push_back({metric, v});
            }
        }
        vc.scenario = std::move(s);
        out.push_back(std::move(vc));
    }
    if (!errors.empty())
        return std::unexpected(errors);
    return out;
}

std::expected<std::vector<ValidationCase>, InputErrors> loadValidationCases(const std::string& path) {
    auto text = readTextFile(path);
    if (!text)
        return std::unexpected(InputErrors{{path, text.error()}});
    return validationCasesFromJson(*text);
}

bool isThroughputMetric(const std::string& metric) { return metric != "peak_memory_gib"; }

std::optional<double> predictedMetric(const std::string& metric, const Plan& plan) {
    if (metric == "iteration_time_s")
        return plan.time.stepSeconds;
    if (metric == "model_tflops_per_gpu")
        return plan.modelTflopsPerGpu;
    if (metric == "hardware_tflops_per_gpu")
        return plan.hardwareTflopsPerGpu;
    if (metric == "mfu")
        return plan.mfu;
    if (metric == "hfu")
        return plan.hfu;
    if (metric == "tokens_per_s_per_gpu")
        return plan.tokensPerSecondPerGpu;
    if (metric == "peak_memory_gib") {
        if (plan.memory.stages.empty())
            return std::nullopt;
        return plan.memory.stages[static_cast<std::size_t>(plan.memory.worstStage)].totalBytes / kGiB;
    }
    return std::nullopt;
}

Scenario resolveCase(const ValidationCase& c, const HardwareProfile* profile) {
    Scenario s = c.scenario;
    if (c.microBatchGiven)
        return s;
    // Not stated: the fastest micro batch that fits (a divisor of the per-replica batch).
    const long long perReplica = c.globalBatch / std::max(1, s.layout.dp);
    Scenario best = s;
    double bestTime = -1;
    bool bestFits = false;
    for (long long mb = 1; mb <= perReplica; ++mb) {
        if (perReplica % mb != 0)
            continue;
        Scenario t = s;
        t.layout.microBatch = static_cast<int>(mb);
        t.layout.accumulation = static_cast<int>(perReplica / mb);
        const Plan p = profile ? evaluate(t, *profile) : evaluate(t);
        if (!p.valid)
            continue;
        const bool fits = p.memory.fits;
        const bool better = bestTime < 0 || (fits && !bestFits) || (fits == bestFits && p.time.stepSeconds < bestTime);
        if (better) {
            best = t;
            bestTime = p.time.stepSeconds;
            bestFits = fits;
        }
    }
    return best;
}

ValidationReport runValidation(const std::vector<ValidationCase>& cases, const HardwareProfile* given) {
    ValidationReport report;
    std::map<std::string, std::vector<double>> errs;
    for (const ValidationCase& c : cases) {
        // A profile describes one GPU type: cases on other GPUs keep their built-in profiles.
        const HardwareProfile* profile =
            given && (given->gpuId.empty() || given->gpuId == c.scenario.cluster.gpu.id) ? given : nullptr;
        const Scenario s = resolveCase(c, profile);
        const Plan plan = profile ? evaluate(s, *profile) : evaluate(s);
        for (const MeasuredValue& mv : c.measured) {
            const auto pred = predictedMetric(mv.metric, plan);
            ValidationRow row;
            row.caseId = c.id;
            row.metric = mv.metric;
            row.measured = mv.value;
            row.predicted = plan.valid && pred ? *pred : 0.0;
            row.relativeError = (row.predicted - row.measured) / row.measured;
            row.microBatch = s.layout.microBatch;
            report.rows.push_back(row);
            errs[mv.metric].push_back(std::fabs(row.relativeError));
            if (isThroughputMetric(mv.metric))
                errs["throughput"].push_back(std::fabs(row.relativeError));
        }
    }
    for (auto& [metric, v] : errs) {
        std::sort(v.begin(), v.end());
        MetricSummary ms;
        ms.metric = metric;
        ms.count = static_cast<int>(v.size());
        const std::size_t n = v.size();
        ms.medianAbsError = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
        ms.maxAbsError = v.back();
        report.summary.push_back(ms);
    }
    return report;
}

} // namespace lp::core
