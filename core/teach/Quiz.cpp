// "Check yourself" questions: varied scenarios, answers from the core, tolerant answer reading.
#include "core/teach/Quiz.h"

#include "core/estimate/Evaluate.h"
#include "core/estimate/Precision.h"
#include "core/io/Presets.h"
#include "core/model/ModelSpec.h"
#include "core/model/Units.h"
#include "core/report/SvgCharts.h"
#include "core/util/NumberFormat.h"
#include "core/util/Text.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <random>

namespace lp::core {
namespace {

using Rng = std::mt19937_64; // fully specified by the standard: the same questions everywhere

template <typename T> const T& pick(Rng& rng, const std::vector<T>& v) {
    return v[rng() % v.size()];
}

std::string word(const QuizTexts& t, const std::string& key) {
    const auto it = t.templates.find("word." + key);
    return it == t.templates.end() ? key : it->second.question;
}

std::string integer(double v) {
    return fmt::fixed(v, 0);
}

std::string componentKey(MemoryComponent c) {
    return std::string(memoryComponentKey(c));
}

// Fills in the question's text and explanation from its kind's templates and values.
void finish(Question& q, const QuizTexts& texts, const std::string& templateKey) {
    q.values["answer"] = formatAnswer(q);
    q.values["unit"] = q.unit;
    const auto it = texts.templates.find(templateKey);
    if (it == texts.templates.end()) {
        q.text = templateKey; // a missing template shows as its key: visible, never a crash
        q.explanation = templateKey;
        return;
    }
    q.text = fillTemplate(it->second.question, q.values);
    q.explanation = fillTemplate(it->second.explanation, q.values);
}

void putLayout(Question& q, const Layout& l) {
    q.values["tp"] = std::to_string(l.tp);
    q.values["pp"] = std::to_string(l.pp);
    q.values["dp"] = std::to_string(l.dp);
    q.values["cp"] = std::to_string(l.cp);
    q.values["vpp"] = std::to_string(l.vpp);
    q.values["mb"] = std::to_string(l.microBatch);
    q.values["acc"] = std::to_string(l.accumulation);
    q.values["gpus"] = integer(static_cast<double>(l.gpus()));
}

void putModel(Question& q, const Scenario& s, const Plan& p) {
    q.values["model"] = s.model.name;
    q.values["params"] = fmt::count(p.params.total);
    q.values["params_exact"] = integer(p.params.total);
    q.values["active_params"] = fmt::count(p.params.active);
    q.values["gpu"] = s.cluster.gpu.name;
    q.values["peak_tflops"] = integer(s.cluster.gpu.peakFlops16 / 1e12);
    q.values["capacity"] = fmt::gb(s.cluster.gpu.hbmBytes, 0);
}

// Valid layouts over the scenario's model and cluster (same GPU count), for the kinds that need a plan.
std::vector<Scenario> validVariants(const Scenario& s, bool needPipeline) {
    std::vector<Scenario> out;
    const long long gpus = s.cluster.gpus();
    for (int tp : {1, 2, 4, 8}) {
        for (int pp : {1, 2, 4, 8}) {
            if (needPipeline && pp < 2)
                continue;
            const long long cpTp = static_cast<long long>(tp) * pp * s.layout.cp;
            if (cpTp <= 0 || gpus % cpTp != 0)
                continue;
            for (int mb : {1, 2, 4}) {
                for (int acc : {1, 2, 4, 8, 16, 32}) {
                    Scenario v = s;
                    v.layout.tp = tp;
                    v.layout.pp = pp;
                    v.layout.dp = static_cast<int>(gpus / cpTp);
                    v.layout.vpp = 1;
                    v.layout.microBatch = mb;
                    v.layout.accumulation = acc;
                    if (checkLayout(v).empty())
                        out.push_back(std::move(v));
                }
            }
        }
    }
    return out;
}

// The scenario to vary: `s` when it evaluates, otherwise the worked example.
Scenario usableBase(const Scenario& s) {
    return evaluate(s).valid ? s : defaultScenario();
}

// A question of this kind, its answer unit, relative tolerance (0: exact) and explanation key.
Question newQuestion(QuestionKind kind, std::string unit, double relativeTolerance, std::string explainKey) {
    Question q;
    q.kind = kind;
    q.unit = std::move(unit);
    q.relativeTolerance = relativeTolerance;
    q.explainKey = std::move(explainKey);
    return q;
}

Question effectiveBatch(const Scenario& s, Rng& rng, const QuizTexts& texts) {
    Question q = newQuestion(QuestionKind::EffectiveBatch, "sequences", 0.0, "effective_batch");
    q.scenario = s;
    Layout& l = q.scenario.layout;
    l.tp = pick(rng, std::vector<int>{1, 2, 4, 8});
    l.pp = pick(rng, std::vector<int>{1, 2, 4, 8});
    l.dp = pick(rng, std::vector<int>{1, 2, 4, 8, 16, 32});
    l.microBatch = pick(rng, std::vector<int>{1, 2, 4, 8});
    l.accumulation = pick(rng, std::vector<int>{1, 2, 4, 8, 16, 32, 64});
    l.cp = 1;
    l.vpp = 1;
    q.scenario.cluster.nodes =
        static_cast<int>(std::max<long long>(1, l.gpus() / std::max(1, s.cluster.gpusPerNode)));
    q.answer = static_cast<double>(evaluate(q.scenario).effectiveBatchSequences);
    putLayout(q, l);
    finish(q, texts, "effective_batch");
    return q;
}

Question gpuCount(const Scenario& s, Rng& rng, const QuizTexts& texts) {
    Question q = newQuestion(QuestionKind::GpuCount, "GPUs", 0.0, "gpus");
    q.scenario = s;
    Layout& l = q.scenario.layout;
    l.tp = pick(rng, std::vector<int>{1, 2, 4, 8});
    l.pp = pick(rng, std::vector<int>{1, 2, 4, 8, 16});
    l.cp = pick(rng, std::vector<int>{1, 1, 1, 2, 4});
    l.dp = pick(rng, std::vector<int>{1, 2, 4, 8, 16, 32, 64});
    q.answer = static_cast<double>(q.scenario.layout.gpus());
    putLayout(q, l);
    finish(q, texts, "gpu_count");
    return q;
}

// A model for the byte questions: the scenario's own or a dense preset.
Scenario withVariedModel(const Scenario& s, Rng& rng) {
    Scenario v = s;
    std::vector<const ModelPreset*> dense;
    for (const ModelPreset& m : modelPresets())
        if (!m.model.isMoe())
            dense.push_back(&m);
    if (!dense.empty() && rng() % 3 != 0)
        v.model = pick(rng, dense)->model;
    return v;
}

Question trainingState(const Scenario& scenario, const QuizTexts& texts, const std::string& templateKey) {
    Question q = newQuestion(QuestionKind::TrainingState, "TB", 0.05, "training_state_bytes");
    q.scenario = scenario;
    const Plan p = evaluate(scenario);
    q.answer = p.trainingStateBytes / 1e12;
    putModel(q, scenario, p);
    q.values["bpp"] = integer(p.intermediates.bytesPerParamState);
    q.values["optimizer_bytes"] = integer(p.intermediates.bytesPerParamState - 4.0);
    q.values["optimizer"] =
        word(texts, std::string("optimizer.") + std::string(toString(scenario.training.optimizer)));
    q.values["bytes_exact"] = fmt::sig(p.trainingStateBytes, 4);
    q.values["weights_gb"] = fmt::fixed(p.params.total * 2.0 / 1e9, 0);
    finish(q, texts, templateKey);
    return q;
}

Question weightsBytes(const Scenario& s, Rng& rng, const QuizTexts& texts) {
    Question q = newQuestion(QuestionKind::WeightsBytes, "GB", 0.05, "weights_bytes");
    q.scenario = withVariedModel(s, rng);
    const Plan p = evaluate(q.scenario);
    q.answer = p.params.total * 2.0 / 1e9;
    putModel(q, q.scenario, p);
    finish(q, texts, "weights_bytes");
    return q;
}

Question bubbleFraction(const Scenario& s, Rng& rng, const QuizTexts& texts) {
    Question q = newQuestion(QuestionKind::BubbleFraction, "%", 0.05, "bubble_fraction");
    q.absoluteTolerance = 0.5; // percentage points
    Scenario base = usableBase(s);
    std::vector<Scenario> variants = validVariants(base, true);
    if (variants.empty())
        variants = validVariants(defaultScenario(), true);
    if (variants.empty())
        variants.push_back(defaultScenario());
    std::vector<Scenario> useful; // at least two micro batches: a bubble you would run with
    for (const Scenario& v : variants)
        if (v.layout.accumulation >= std::max(2, v.layout.pp)) // m >= p: what one would run
            useful.push_back(v);
    q.scenario = pick(rng, useful.empty() ? variants : useful);
    const Plan p = evaluate(q.scenario);
    q.answer = 100.0 * p.time.bubbleFraction;
    const Layout& l = q.scenario.layout;
    putLayout(q, l);
    putModel(q, q.scenario, p);
    q.values["formula_value"] =
        fmt::fixed(100.0 * (l.pp - 1.0) / (static_cast<double>(l.vpp) * l.accumulation), 2);
    finish(q, texts, "bubble_fraction");
    return q;
}

Question mfuFromStepTime(const Scenario& s, Rng& rng, const QuizTexts& texts) {
    Question q = newQuestion(QuestionKind::MfuFromStepTime, "%", 0.05, "mfu_6nd");
    q.absoluteTolerance = 0.5; // percentage points
    Scenario base = usableBase(s);
    if (rng() % 3 == 0) {
        q.scenario = base;
    } else {
        const std::vector<Scenario> variants = validVariants(base, false);
        q.scenario = variants.empty() ? base : pick(rng, variants);
    }
    const Plan p = evaluate(q.scenario);
    // A measured step somewhat slower than the estimate (real runs rarely beat it), to 3 digits.
    const double factor = pick(rng, std::vector<double>{1.0, 1.1, 1.25, 1.4, 1.6, 2.0, 2.5, 3.0});
    double measured = p.time.stepSeconds * factor;
    const double scale = std::pow(10.0, 2 - std::floor(std::log10(measured)));
    measured = std::round(measured * scale) / scale;
    q.answer = 100.0 * p.mfu6nd * p.time.stepSeconds / measured; // the core's 6ND MFU at the measured time
    putLayout(q, q.scenario.layout);
    putModel(q, q.scenario, p);
    q.values["tokens"] = integer(p.tokensPerStep);
    q.values["tokens_short"] = fmt::count(p.tokensPerStep);
    q.values["step"] = fmt::sig(measured, 3);
    q.values["flops"] = fmt::sig(6.0 * p.params.active * p.tokensPerStep, 3);
    q.values["peak_total"] = fmt::sig(
        static_cast<double>(q.scenario.layout.gpus()) * q.scenario.cluster.gpu.peakFlops16 * measured, 3);
    q.values["predicted_step"] = fmt::duration(p.time.stepSeconds);
    finish(q, texts, "mfu_from_step_time");
    return q;
}

Question doesItFit(const Scenario& s, Rng& rng, const QuizTexts& texts) {
    Question q = newQuestion(QuestionKind::DoesItFit, "", 0.0, "memory.total");
    q.type = AnswerType::YesNo;
    Scenario base = usableBase(s);
    // Vary the memory-relevant options too, then aim for "yes" or "no" with even odds.
    const std::array<Recompute, 3> recomputes{Recompute::None, Recompute::Selective, Recompute::Full};
    base.training.recompute = recomputes[rng() % recomputes.size()];
    base.training.zeroStage = static_cast<int>(rng() % 4);
    std::vector<Scenario> variants = validVariants(base, false);
    if (variants.empty())
        variants = validVariants(defaultScenario(), false);
    if (variants.empty())
        variants.push_back(defaultScenario());
    std::shuffle(variants.begin(), variants.end(), rng);
    const bool wantFit = rng() % 2 == 0;
    q.scenario = variants.front();
    for (std::size_t i = 0; i < variants.size() && i < 64; ++i) {
        if (evaluate(variants[i]).memory.fits == wantFit) {
            q.scenario = variants[i];
            break;
        }
    }
    const Plan p = evaluate(q.scenario);
    q.answer = p.memory.fits ? 1.0 : 0.0;
    putLayout(q, q.scenario.layout);
    putModel(q, q.scenario, p);
    const StageMemory& worst = p.memory.stages[static_cast<std::size_t>(p.memory.worstStage)];
    q.values["zero"] = std::to_string(q.scenario.training.zeroStage);
    q.values["recompute"] =
        word(texts, std::string("recompute.") + std::string(toString(q.scenario.training.recompute)));
    q.values["worst"] = fmt::gb(worst.totalBytes, 1);
    q.values["worst_stage"] = std::to_string(worst.stage);
    q.values["usable"] = fmt::gb(p.memory.capacityBytes, 1);
    q.values["largest"] = word(texts, "component." + componentKey(p.memory.largestComponent));
    q.values["verdict"] = word(texts, p.memory.fits ? "fits" : "does_not_fit");
    q.values["weights"] = fmt::gb(worst.weightsBytes, 1);
    q.values["gradients"] = fmt::gb(worst.gradientsBytes, 1);
    q.values["optimizer_state"] = fmt::gb(worst.optimizerBytes, 1);
    q.values["activations"] = fmt::gb(worst.activationsBytes, 1);
    q.values["overheads"] = fmt::gb(worst.overheadBytes, 1);
    finish(q, texts, "does_it_fit");
    return q;
}

// FP8 as Megatron-LM with Transformer Engine runs it: the cached fp8 copies (weight and transpose) of
// the linear weights one GPU computes with. A dense model, even stages and ZeRO <= 2, so that the
// copies are the stage's layers / TP x the style's bytes per parameter.
Question fp8WeightCopies(const Scenario& s, Rng& rng, const QuizTexts& texts) {
    Question q = newQuestion(QuestionKind::Fp8WeightCopies, "GB", 0.05, "memory.weights");
    Scenario base = withVariedModel(usableBase(s), rng);
    if (base.model.isMoe())
        base.model = defaultScenario().model;
    if (base.cluster.gpu.peakFlops8 <= 0)
        base.cluster = defaultScenario().cluster;
    base.training.precision = Precision::Fp8;
    base.training.executionStyle = ExecutionStyle::Megatron;
    base.training.zeroStage = std::min(base.training.zeroStage, 2);
    base.layout.ep = 1;
    base.layout.cp = 1;
    std::vector<Scenario> valid, fitting; // layouts one would run: fitting in memory when any does
    for (Scenario& v : validVariants(base, false)) {
        if (v.model.layers % v.layout.pp != 0) // even stages: every GPU holds layers / PP
            continue;
        const Plan p = evaluate(v);
        if (p.valid && p.memory.fits)
            fitting.push_back(v);
        if (p.valid)
            valid.push_back(std::move(v));
    }
    q.scenario = !fitting.empty() ? pick(rng, fitting) : valid.empty() ? base : pick(rng, valid);
    if (!evaluate(q.scenario).valid) {
        q.scenario = defaultScenario();
        q.scenario.training.precision = Precision::Fp8;
        q.scenario.training.executionStyle = ExecutionStyle::Megatron;
    }
    const Plan p = evaluate(q.scenario);
    const double perParam = fp8Habits(q.scenario, p.style).weightCopyBytesPerParam;
    q.answer = p.intermediates.fp8WeightCopyBytes / 1e9;
    putLayout(q, q.scenario.layout);
    putModel(q, q.scenario, p);
    q.values["layer_params"] = fmt::count(p.params.layersTotal);
    q.values["copy_bpp"] = integer(perParam);
    q.values["gpu_params"] = fmt::count(perParam > 0 ? p.intermediates.fp8WeightCopyBytes / perParam : 0.0);
    q.values["scaling"] = fmt::fixed(p.intermediates.fp8ScalingStateBytes / 1e6, 1) + " MB";
    finish(q, texts, "fp8_weight_copies");
    return q;
}

// ------------------------------------------------------------------------------------------------
// Reading answers

std::string trim(std::string_view s) {
    std::size_t a = 0, b = s.size();
    while (a < b && std::isspace(static_cast<unsigned char>(s[a])))
        ++a;
    while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1])))
        --b;
    return std::string(s.substr(a, b - a));
}

std::optional<double> toDouble(const std::string& s) {
    if (s.empty())
        return std::nullopt;
    char* end = nullptr;
    const double v = std::strtod(s.c_str(), &end);
    if (end != s.c_str() + s.size() || !std::isfinite(v))
        return std::nullopt;
    return v;
}

// The readings of a number typed with separators: "1,100" (thousands) and "1,1" (decimal comma).
std::vector<double> numberReadings(std::string n) {
    std::vector<double> out;
    const auto add = [&](const std::string& s) {
        if (auto v = toDouble(s))
            out.push_back(*v);
    };
    const std::size_t comma = n.rfind(',');
    const std::size_t dot = n.rfind('.');
    if (comma == std::string::npos) {
        add(n);
    } else if (dot != std::string::npos) {
        std::string s;
        if (dot > comma) { // 1,234.5
            for (char c : n)
                if (c != ',')
                    s += c;
        } else { // 1.234,5
            for (char c : n)
                if (c != '.')
                    s += c == ',' ? '.' : c;
        }
        add(s);
    } else {
        bool grouped = true; // every comma followed by exactly three digits
        for (std::size_t i = n.find(','); i != std::string::npos; i = n.find(',', i + 1)) {
            std::size_t k = i + 1;
            while (k < n.size() && std::isdigit(static_cast<unsigned char>(n[k])))
                ++k;
            grouped = grouped && k - i - 1 == 3 && i > 0;
        }
        if (grouped) {
            std::string s;
            for (char c : n)
                if (c != ',')
                    s += c;
            add(s);
        }
        if (std::count(n.begin(), n.end(), ',') == 1) {
            std::string s = n;
            s[comma] = '.';
            add(s);
        }
    }
    return out;
}

double byteUnit(const std::string& u) {
    static const std::array<std::pair<const char*, double>, 9> units{{{"b", 1.0},
                                                                      {"kb", 1e3},
                                                                      {"mb", 1e6},
                                                                      {"gb", 1e9},
                                                                      {"tb", 1e12},
                                                                      {"kib", 1024.0},
                                                                      {"mib", 1024.0 * 1024.0},
                                                                      {"gib", kGiB},
                                                                      {"tib", kGiB * 1024.0}}};
    for (const auto& [name, bytes] : units)
        if (u == name || u == std::string(name) + "ytes" ||
            (u.size() > 1 && u == std::string(name).substr(0, 1) + "bytes"))
            return bytes;
    if (u == "bytes" || u == "byte")
        return 1.0;
    if (u == "terabytes" || u == "terabyte")
        return 1e12;
    if (u == "gigabytes" || u == "gigabyte")
        return 1e9;
    return 0;
}

} // namespace

std::string_view questionKindId(QuestionKind k) {
    switch (k) {
    case QuestionKind::EffectiveBatch:
        return "effective_batch";
    case QuestionKind::TrainingState:
        return "training_state";
    case QuestionKind::WeightsBytes:
        return "weights_bytes";
    case QuestionKind::GpuCount:
        return "gpu_count";
    case QuestionKind::BubbleFraction:
        return "bubble_fraction";
    case QuestionKind::MfuFromStepTime:
        return "mfu_from_step_time";
    case QuestionKind::DoesItFit:
        return "does_it_fit";
    case QuestionKind::Fp8WeightCopies:
        return "fp8_weight_copies";
    case QuestionKind::ShardedOptimizer:
        return "sharded_optimizer";
    }
    return "effective_batch";
}

std::expected<QuizTexts, std::string> quizTextsFromJson(std::string_view text) {
    nlohmann::json root;
    try {
        root = nlohmann::json::parse(text.begin(), text.end());
    } catch (const nlohmann::json::exception& e) {
        return std::unexpected(std::string("not valid JSON: ") + e.what());
    }
    const nlohmann::json& quiz = root.contains("quiz") ? root["quiz"] : root;
    if (!quiz.is_object())
        return std::unexpected(std::string("\"quiz\" must be an object"));
    QuizTexts texts;
    std::vector<std::string> required = {"seed_effective_batch", "seed_training_state"};
    for (int k = 0; k < kQuestionKindCount; ++k)
        required.emplace_back(questionKindId(static_cast<QuestionKind>(k)));
    for (const std::string& key : required) {
        const auto it = quiz.find(key);
        if (it == quiz.end() || !it->is_object() || !it->contains("question") ||
            !it->contains("explanation") || !(*it)["question"].is_string() ||
            !(*it)["explanation"].is_string())
            return std::unexpected("quiz." + key + ": needs the strings \"question\" and \"explanation\"");
        texts.templates[key] = {(*it)["question"].get<std::string>(),
                                (*it)["explanation"].get<std::string>()};
    }
    if (const auto words = quiz.find("words"); words != quiz.end() && words->is_object())
        for (const auto& [key, value] : words->items())
            if (value.is_string())
                texts.templates["word." + key] = {value.get<std::string>(), {}};
    return texts;
}

std::string fillTemplate(std::string_view pattern, const std::map<std::string, std::string>& values) {
    std::string out;
    std::size_t pos = 0;
    while (pos < pattern.size()) {
        const std::size_t open = pattern.find('{', pos);
        const std::size_t close = open == std::string_view::npos ? open : pattern.find('}', open + 1);
        if (open == std::string_view::npos || close == std::string_view::npos) {
            out.append(pattern.substr(pos));
            break;
        }
        out.append(pattern.substr(pos, open - pos));
        const std::string name(pattern.substr(open + 1, close - open - 1));
        const auto it = values.find(name);
        if (it != values.end())
            out += it->second;
        else
            out.append(pattern.substr(open, close - open + 1));
        pos = close + 1;
    }
    return out;
}

std::vector<Question> seedQuestions(const QuizTexts& texts) {
    const Scenario s = defaultScenario();
    const Plan p = evaluate(s);
    Question batch;
    batch.kind = QuestionKind::EffectiveBatch;
    batch.seed = true;
    batch.unit = "sequences";
    batch.explainKey = "effective_batch";
    batch.scenario = s;
    batch.answer = static_cast<double>(p.effectiveBatchSequences);
    putLayout(batch, s.layout);
    finish(batch, texts, "seed_effective_batch");

    Question state = trainingState(s, texts, "seed_training_state");
    state.seed = true;
    if (const ModelPreset* seed = findModelPreset("seed-70b"); seed && seed->publishedParameters > 0)
        state.values["params_rounded"] = fmt::fixed(seed->publishedParameters / 1e9, 0) + " billion";
    else
        state.values["params_rounded"] = fmt::fixed(p.params.total / 1e9, 0) + " billion";
    finish(state, texts, "seed_training_state");
    return {batch, state};
}

// ZeRO-1 (the distributed optimizer) with Adam, one pipeline stage: each GPU holds 12 bytes for each of
// its 1/TP of the parameters, divided over the shard group, all DP ranks or a hybrid group of them.
Question shardedOptimizer(const Scenario& s, Rng& rng, const QuizTexts& texts) {
    Question q = newQuestion(QuestionKind::ShardedOptimizer, "GB", 0.05, "memory.optimizer");
    Scenario base = withVariedModel(usableBase(s), rng);
    base.training.optimizer = Optimizer::Adam;
    base.training.zeroStage = 1;
    base.layout.ep = 1;
    base.layout.cp = 1;
    std::vector<Scenario> candidates;
    for (Scenario& v : validVariants(base, false))
        if (v.layout.pp == 1 && v.layout.dp >= 2 && v.layout.accumulation == 1 && v.layout.microBatch == 1)
            candidates.push_back(std::move(v));
    if (candidates.empty()) { // the worked example's model as TP 8 x DP 8
        Scenario v = defaultScenario();
        v.layout.pp = 1;
        v.layout.dp = 8;
        v.layout.accumulation = 1;
        v.training.recompute = Recompute::Full;
        candidates.push_back(v);
    }
    q.scenario = pick(rng, candidates);
    // The shard group: a proper divisor of DP (hybrid) or all of DP.
    const int dp = q.scenario.layout.dp;
    std::vector<int> degrees;
    for (int d = 1; d <= dp && degrees.size() < 8; ++d)
        if (dp % d == 0)
            degrees.push_back(d);
    degrees.push_back(dp);
    const int degree = pick(rng, degrees);
    q.scenario.training.zeroShardDegree = degree >= dp ? 0 : degree;
    const Plan p = evaluate(q.scenario);
    q.answer = p.memory.stages.empty() ? 0.0 : p.memory.stages[0].optimizerBytes / 1e9;
    putLayout(q, q.scenario.layout);
    putModel(q, q.scenario, p);
    const double perGpuParams = p.params.total / q.scenario.layout.tp;
    q.values["shard"] = std::to_string(degree);
    q.values["replicas"] = std::to_string(dp / degree);
    q.values["group"] = degree >= dp ? "all " + std::to_string(dp) + " data-parallel ranks"
                                     : std::to_string(degree) + " of the " + std::to_string(dp) +
                                           " data-parallel ranks (hybrid sharding, " +
                                           std::to_string(dp / degree) + " replicas)";
    q.values["gpu_params"] = fmt::count(perGpuParams);
    q.values["tail"] =
        degree >= dp
            ? "Each data-parallel rank holds a different slice: nothing is replicated, and ZeRO-2 and -3 "
              "would shard the gradients and the weights the same way."
            : "Sharding over all " + std::to_string(dp) + " data-parallel ranks would leave " +
                  fmt::fixed(perGpuParams * 12.0 / dp / 1e9, 2) +
                  " GB; the smaller (hybrid) group keeps more state per GPU, but its gathers and "
                  "reduce-scatters stay within the group and only the gradient shards cross between the " +
                  std::to_string(dp / degree) + " replicas.";
    finish(q, texts, "sharded_optimizer");
    return q;
}

Question makeQuestion(QuestionKind kind, const Scenario& s, std::uint64_t seed, const QuizTexts& texts) {
    Rng rng(seed * 0x9E3779B97F4A7C15ULL + static_cast<std::uint64_t>(kind) + 1);
    switch (kind) {
    case QuestionKind::EffectiveBatch:
        return effectiveBatch(s, rng, texts);
    case QuestionKind::TrainingState:
        return trainingState(withVariedModel(s, rng), texts, "training_state");
    case QuestionKind::WeightsBytes:
        return weightsBytes(s, rng, texts);
    case QuestionKind::GpuCount:
        return gpuCount(s, rng, texts);
    case QuestionKind::BubbleFraction:
        return bubbleFraction(s, rng, texts);
    case QuestionKind::MfuFromStepTime:
        return mfuFromStepTime(s, rng, texts);
    case QuestionKind::DoesItFit:
        return doesItFit(s, rng, texts);
    case QuestionKind::Fp8WeightCopies:
        return fp8WeightCopies(s, rng, texts);
    case QuestionKind::ShardedOptimizer:
        return shardedOptimizer(s, rng, texts);
    }
    return effectiveBatch(s, rng, texts);
}

std::vector<Question> makeQuiz(const Scenario& s, const QuizOptions& options, const QuizTexts& texts) {
    std::vector<Question> out;
    if (options.includeSeedQuestions)
        out = seedQuestions(texts);
    std::vector<QuestionKind> kinds;
    for (int k = 0; k < kQuestionKindCount; ++k)
        kinds.push_back(static_cast<QuestionKind>(k));
    Rng rng(options.seed);
    std::shuffle(kinds.begin(), kinds.end(), rng);
    for (int i = 0; static_cast<int>(out.size()) < options.count; ++i)
        out.push_back(makeQuestion(kinds[static_cast<std::size_t>(i) % kinds.size()], s, rng(), texts));
    return out;
}

namespace {

AnswerCheck checkYesNo(const Question& q, const std::string& t) {
    AnswerCheck r;
    static const std::array<const char*, 8> yes{"yes", "y", "true", "fits", "it fits", "1", "ja", "oui"};
    static const std::array<const char*, 11> no{
        "no",  "n", "false", "does not fit", "doesn't fit",        "it does not fit",
        "not", "0", "nein",  "non",          "no, it does not fit"};
    std::string cleaned = t;
    while (!cleaned.empty() && (cleaned.back() == '.' || cleaned.back() == '!'))
        cleaned.pop_back();
    const bool isYes = std::find(yes.begin(), yes.end(), cleaned) != yes.end() || cleaned.starts_with("yes");
    const bool isNo = std::find(no.begin(), no.end(), cleaned) != no.end() || cleaned.starts_with("no");
    if (isYes == isNo)
        return r;
    r.understood = true;
    r.value = isYes ? 1.0 : 0.0;
    r.correct = r.value == q.answer;
    return r;
}

// The answer split into the number as written ("1,234.5", "2e9", without digit-group apostrophes) and what
// follows it ("gb", "%", "k").
std::pair<std::string, std::string> numberAndSuffix(const std::string& t) {
    std::size_t i = 0;
    while (i < t.size() && std::isspace(static_cast<unsigned char>(t[i])))
        ++i;
    const std::size_t start = i;
    if (i < t.size() && (t[i] == '-' || t[i] == '+'))
        ++i;
    while (i < t.size() &&
           (std::isdigit(static_cast<unsigned char>(t[i])) || t[i] == '.' || t[i] == ',' || t[i] == '\''))
        ++i;
    if (i < t.size() && t[i] == 'e' && i + 1 < t.size() &&
        (std::isdigit(static_cast<unsigned char>(t[i + 1])) ||
         ((t[i + 1] == '-' || t[i + 1] == '+') && i + 2 < t.size() &&
          std::isdigit(static_cast<unsigned char>(t[i + 2]))))) {
        i += 2;
        while (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i])))
            ++i;
    }
    std::string number;
    for (char c : t.substr(start, i - start))
        if (c != '\'')
            number += c;
    std::string suffix = trim(t.substr(i));
    if (suffix.starts_with("x 10^") || suffix.starts_with("*10^") || suffix.starts_with("x10^") ||
        suffix.starts_with("×10^"))
        suffix.clear(); // not supported; stays unread below
    return {number, suffix};
}

// What one reading of the number means in the question's unit, given what followed it; none when the suffix
// does not fit the question.
void addCandidates(const Question& q, double v, const std::string& suffix, std::vector<double>& candidates) {
    const bool bytesQuestion = q.unit == "TB" || q.unit == "GB";
    const double questionBytes = q.unit == "TB" ? 1e12 : 1e9;
    const bool percentQuestion = q.unit == "%";
    if (suffix.empty()) {
        candidates.push_back(v);
        if (bytesQuestion && std::fabs(v) >= 1e6)
            candidates.push_back(v / questionBytes); // raw bytes
        if (percentQuestion && std::fabs(v) <= 1.0)
            candidates.push_back(v * 100.0); // a fraction
        return;
    }
    if (percentQuestion) {
        if (suffix == "%" || suffix == "percent" || suffix == "pct")
            candidates.push_back(v);
        return;
    }
    if (bytesQuestion) {
        if (const double b = byteUnit(suffix); b > 0)
            candidates.push_back(v * b / questionBytes);
        return;
    }
    // Counts: "64 sequences", "2k", "64 gpus".
    double m = 1.0;
    if (suffix == "k" || suffix == "thousand")
        m = 1e3;
    else if (suffix == "m" || suffix == "million")
        m = 1e6;
    else if (suffix == "b" || suffix == "bn" || suffix == "billion")
        m = 1e9;
    else if (!std::all_of(suffix.begin(), suffix.end(),
                          [](char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == ' '; }))
        return;
    candidates.push_back(v * m);
}

} // namespace

AnswerCheck checkAnswer(const Question& q, std::string_view text) {
    AnswerCheck r;
    const std::string t = asciiLower(trim(text));
    if (q.type == AnswerType::YesNo)
        return checkYesNo(q, t);
    const auto [number, suffix] = numberAndSuffix(t);
    std::vector<double> candidates;
    for (double v : numberReadings(number))
        addCandidates(q, v, suffix, candidates);
    if (candidates.empty())
        return r;
    r.understood = true;
    r.value = candidates.front();
    const double tolerance = std::max(q.absoluteTolerance, q.relativeTolerance * std::fabs(q.answer));
    for (double c : candidates) {
        if (std::fabs(c - q.answer) <= tolerance + 1e-9 * std::max(1.0, std::fabs(q.answer))) {
            r.correct = true;
            r.value = c;
            break;
        }
    }
    return r;
}

std::string formatAnswer(const Question& q) {
    if (q.type == AnswerType::YesNo)
        return q.answer != 0 ? "yes" : "no";
    if (q.unit == "TB" || q.unit == "GB") {
        // Three significant digits (0.0644 TB for a 0.6B model's state, 0.0275 GB of fp8 copies), whole
        // units from 100 on.
        const double magnitude = std::fabs(q.answer) > 0 ? std::floor(std::log10(std::fabs(q.answer))) : 0.0;
        return fmt::fixed(q.answer, static_cast<int>(std::clamp(2.0 - magnitude, 0.0, 6.0)));
    }
    if (q.unit == "%")
        return fmt::fixed(q.answer, 1);
    return fmt::fixed(q.answer, 0);
}

} // namespace lp::core
