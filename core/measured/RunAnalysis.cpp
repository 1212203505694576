// The steady state of a measured run, and what it means next to the plan (docs/reports.md).
#include "core/measured/RunAnalysis.h"

#include "core/estimate/PlanJson.h"
#include "core/util/NumberFormat.h"
#include "core/util/Statistics.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace lp::core {
namespace {

// Linear interpolation between closest ranks (the common "type 7" definition).
double percentile(std::vector<double> v, double q) {
    if (v.empty())
        return kNoValue;
    std::sort(v.begin(), v.end());
    const double pos = q * static_cast<double>(v.size() - 1);
    const auto lo = static_cast<std::size_t>(std::floor(pos));
    const auto hi = std::min(lo + 1, v.size() - 1);
    return v[lo] + (v[hi] - v[lo]) * (pos - static_cast<double>(lo));
}

struct WarmupResult {
    int count = 0;
    bool settled = true; // false: no steady run of samples in the first half
};

WarmupResult warmupDetail(const std::vector<double>& t) {
    const int n = static_cast<int>(t.size());
    if (n < 6)
        return {0, true};
    const std::vector<double> tail(t.begin() + n / 2, t.end());
    const double ref = median(tail, kNoValue);
    std::vector<double> dev;
    for (double x : tail)
        dev.push_back(std::fabs(x - ref));
    const double spread = 1.4826 * median(dev, kNoValue);
    const double tol = std::max(3.0 * spread, 0.05 * std::fabs(ref));
    auto within = [&](int i) { return std::fabs(t[static_cast<std::size_t>(i)] - ref) <= tol; };
    const int cap = n / 2;
    for (int k = 0; k <= cap; ++k) {
        if (k + 2 < n && within(k) && within(k + 1) && within(k + 2))
            return {k, true};
    }
    return {cap, false};
}

std::string stepRange(const RunAnalysis& a, int from, int to) { // samples [from, to)
    if (from >= to || a.steps.empty())
        return {};
    const long long s0 = a.steps[static_cast<std::size_t>(from)];
    const long long s1 = a.steps[static_cast<std::size_t>(to - 1)];
    return s0 == s1 ? "step " + std::to_string(s0) : "steps " + std::to_string(s0) + "-" + std::to_string(s1);
}

std::string valueText(const RunAnalysis& a, double v) {
    if (a.kind == SeriesKind::StepSeconds)
        return fmt::duration(v);
    return fmt::fixed(v, 0) + " tokens/s per GPU";
}

std::string samplesWord(int n) {
    return std::to_string(n) + (n == 1 ? " sample" : " samples");
}

void addVerdict(RunAnalysis& a, Severity sev, std::string id, std::string text) {
    a.verdicts.push_back(Verdict{sev, std::move(id), std::move(text)});
}

// What the analysis reads besides the log's samples, and what one step of it hands the next.
struct Context {
    Context(const RunLog& l, const Scenario* s, const Plan* p) : log(l), scenario(s), plan(p) {}
    const RunLog& log;
    const Scenario* scenario = nullptr;
    const Plan* plan = nullptr;
    bool allTime = false;        // every sample has a step time
    bool fromThroughput = false; // step times derived from torchtitan's tps and the scenario
    double tokensPerStep = kNoValue;
    double gpus = kNoValue;
    std::vector<double> timeLike; // the series as time (throughput inverted): larger is slower
    bool settled = true;          // the automatic rule found a steady run in the first half
    double steadyTimeMedian = kNoValue;
};

// One value per usable sample: the step time, or torchtitan's throughput (as a step time when the scenario
// gives the tokens per step and the GPUs).
void readSeries(RunAnalysis& a, Context& c) {
    const auto& samples = c.log.samples;
    c.allTime = std::all_of(samples.begin(), samples.end(),
                            [](const StepSample& x) { return std::isfinite(x.stepSeconds); });
    for (const auto& x : samples) {
        double v = kNoValue;
        if (c.allTime) {
            v = x.stepSeconds;
        } else if (std::isfinite(x.tokensPerSecondPerGpu)) {
            if (c.scenario && c.tokensPerStep > 0 && c.gpus > 0) {
                v = c.tokensPerStep / (x.tokensPerSecondPerGpu * c.gpus);
                c.fromThroughput = true;
            } else {
                v = x.tokensPerSecondPerGpu;
            }
        } else if (std::isfinite(x.stepSeconds)) {
            v = x.stepSeconds;
        }
        if (!std::isfinite(v) || !(v > 0))
            continue;
        a.steps.push_back(x.step);
        a.series.push_back(v);
    }
    a.kind = (c.allTime || c.fromThroughput ||
              !std::any_of(samples.begin(), samples.end(),
                           [](const StepSample& x) { return std::isfinite(x.tokensPerSecondPerGpu); }))
                 ? SeriesKind::StepSeconds
                 : SeriesKind::TokensPerSecondPerGpu;
    a.samples = static_cast<int>(a.series.size());
    for (double v : a.series)
        c.timeLike.push_back(a.kind == SeriesKind::StepSeconds ? v : 1.0 / v);
}

void dropWarmup(RunAnalysis& a, Context& c, const RunAnalysisOptions& o) {
    const WarmupResult detected = warmupDetail(c.timeLike);
    a.detectedWarmup = detected.count;
    c.settled = detected.settled;
    if (o.warmupSamples) {
        a.warmup = std::clamp(*o.warmupSamples, 0, std::max(a.samples - 1, 0));
        a.warmupOverridden = true;
    } else {
        a.warmup = detected.count;
    }
}

void summariseSteadyState(RunAnalysis& a, Context& c) {
    const auto w = static_cast<std::ptrdiff_t>(a.warmup);
    const std::vector<double> steady(a.series.begin() + w, a.series.end());
    const std::vector<double> steadyTime(c.timeLike.begin() + w, c.timeLike.end());
    a.steadySamples = static_cast<int>(steady.size());
    const double n = static_cast<double>(steady.size());
    a.mean = std::accumulate(steady.begin(), steady.end(), 0.0) / n;
    a.median = median(steady, kNoValue);
    double sq = 0;
    for (double v : steady)
        sq += (v - a.mean) * (v - a.mean);
    a.stddev = steady.size() > 1 ? std::sqrt(sq / (n - 1)) : 0.0;
    a.p10 = percentile(steady, 0.10);
    a.p90 = percentile(steady, 0.90);
    a.min = *std::min_element(steady.begin(), steady.end());
    a.max = *std::max_element(steady.begin(), steady.end());
    a.meanAll = std::accumulate(a.series.begin(), a.series.end(), 0.0) / static_cast<double>(a.series.size());
    c.steadyTimeMedian = median(steadyTime, kNoValue);
    const std::size_t dw = static_cast<std::size_t>(std::max(a.warmup, a.detectedWarmup));
    if (dw > 0 && c.steadyTimeMedian > 0)
        a.warmupPeakRatio =
            *std::max_element(c.timeLike.begin(), c.timeLike.begin() + static_cast<std::ptrdiff_t>(
                                                                           std::min(dw, c.timeLike.size()))) /
            c.steadyTimeMedian;
}

// The framework's own figures, steady mean.
void averageLoggedFigures(RunAnalysis& a, const Context& c) {
    std::vector<double> mfu, tf;
    std::size_t idx = 0;
    for (const auto& x : c.log.samples) {
        const bool usable = std::isfinite(
            c.allTime ? x.stepSeconds
                      : (std::isfinite(x.tokensPerSecondPerGpu) ? x.tokensPerSecondPerGpu : x.stepSeconds));
        if (!usable)
            continue;
        if (idx++ < static_cast<std::size_t>(a.warmup))
            continue;
        if (std::isfinite(x.loggedMfu))
            mfu.push_back(x.loggedMfu);
        if (std::isfinite(x.loggedTflopsPerGpu))
            tf.push_back(x.loggedTflopsPerGpu);
    }
    if (!mfu.empty())
        a.loggedMfu = std::accumulate(mfu.begin(), mfu.end(), 0.0) / static_cast<double>(mfu.size());
    if (!tf.empty())
        a.loggedTflopsPerGpu = std::accumulate(tf.begin(), tf.end(), 0.0) / static_cast<double>(tf.size());
}

// Tokens/s from the step time and the scenario, and MFU and the ratio from the plan.
void deriveFigures(RunAnalysis& a, const Context& c) {
    if (a.kind == SeriesKind::StepSeconds) {
        a.stepSeconds = a.mean;
        if (c.scenario && c.tokensPerStep > 0) {
            a.tokensPerSecond = c.tokensPerStep / a.stepSeconds;
            a.tokensPerSecondPerGpu = a.tokensPerSecond / c.gpus;
        }
    } else {
        a.tokensPerSecondPerGpu = a.mean;
    }
    const Plan* plan = c.plan;
    if (!(plan && plan->valid && plan->time.stepSeconds > 0 && std::isfinite(a.stepSeconds)))
        return;
    a.hasPlan = true;
    a.predictedStepSeconds = plan->time.stepSeconds;
    a.predictedMfu = plan->mfu;
    a.predictedTokensPerSecond = plan->tokensPerSecond;
    a.ratio = a.stepSeconds / a.predictedStepSeconds;
    a.mfu = plan->mfu * plan->time.stepSeconds / a.stepSeconds;
    a.hfu = plan->hfu * plan->time.stepSeconds / a.stepSeconds;
}

std::string unitWord(const RunAnalysis& a) {
    return a.kind == SeriesKind::StepSeconds ? "step time" : "throughput";
}

void sampleCountVerdict(RunAnalysis& a) {
    if (a.steadySamples < 5)
        addVerdict(a, Severity::Warning, "too_few_samples",
                   "Only " + samplesWord(a.steadySamples) +
                       " after warmup: too few to judge. A job that runs is not yet a job that runs well: "
                       "measure at least 20 steady steps (50 or more for a stable mean).");
    else if (a.steadySamples < 20)
        addVerdict(a, Severity::Info, "few_samples",
                   samplesWord(a.steadySamples) +
                       " after warmup: the figures are indicative; 50 or more give a stable mean.");
}

void warmupVerdict(RunAnalysis& a, const Context& c) {
    if (a.samples < 6 && !a.warmupOverridden) {
        addVerdict(
            a, Severity::Info, "warmup_not_detected",
            "Too few samples to detect warmup automatically, so none were dropped. If the first steps were "
            "slow (compilation, allocator growth, data-loader start), drop them by hand (--warmup N).");
    } else if (!c.settled && !a.warmupOverridden) {
        addVerdict(a, Severity::Warning, "no_steady_state",
                   "The " + unitWord(a) +
                       " did not settle within the first half of the log; the first half is treated as "
                       "warmup. Run longer, or look for a drift: thermal throttling, a data loader falling "
                       "behind, memory fragmentation.");
    } else if (a.warmupOverridden && a.warmup < a.detectedWarmup) {
        addVerdict(a, Severity::Warning, "warmup_kept",
                   "The warmup setting keeps " + samplesWord(a.detectedWarmup - a.warmup) +
                       " that look like warmup (" + stepRange(a, a.warmup, a.detectedWarmup) +
                       (std::isfinite(a.warmupPeakRatio)
                            ? ", up to " + fmt::fixed(a.warmupPeakRatio, 1) + "x the steady step time"
                            : std::string()) +
                       "): the steady figures include them. Drop at least " +
                       std::to_string(a.detectedWarmup) + ".");
    } else if (a.warmupOverridden) {
        addVerdict(a, Severity::Info, "warmup_override",
                   "Dropping the first " + samplesWord(a.warmup) + " by hand" +
                       (a.warmup > 0 ? " (" + stepRange(a, 0, a.warmup) + ")" : std::string()) +
                       "; the automatic rule would drop " + std::to_string(a.detectedWarmup) + ".");
    } else if (a.warmup > 0) {
        const double bias =
            a.kind == SeriesKind::StepSeconds ? a.meanAll / a.mean - 1.0 : a.mean / a.meanAll - 1.0;
        addVerdict(a, Severity::Info, "warmup_excluded",
                   (a.warmup == 1 ? "The first sample (" + stepRange(a, 0, 1) + ") is warmup"
                                  : "The first " + samplesWord(a.warmup) + " (" + stepRange(a, 0, a.warmup) +
                                        ") are warmup") +
                       (std::isfinite(a.warmupPeakRatio)
                            ? ", up to " + fmt::fixed(a.warmupPeakRatio, 1) + "x the steady step time,"
                            : std::string(",")) +
                       (a.warmup == 1 ? " and is left out. Averaging it in would make the run look "
                                      : " and are left out. Averaging them in would make the run look ") +
                       fmt::percent(bias, 1) + " slower: never measure during warmup.");
    } else {
        addVerdict(a, Severity::Info, "no_warmup_detected",
                   "No warmup detected: the log starts in the steady state (or its first records already "
                   "average over many steps).");
    }
}

void variabilityVerdicts(RunAnalysis& a, const Context& c) {
    if (!(a.steadySamples >= 3 && a.mean > 0))
        return;
    const double cv = a.stddev / a.mean;
    if (cv > 0.10)
        addVerdict(a, Severity::Warning, "noisy",
                   "The " + unitWord(a) + " varies by " + fmt::percent(cv, 0) +
                       " (standard deviation over mean; p10 " + valueText(a, a.p10) + ", p90 " +
                       valueText(a, a.p90) +
                       "): look for stragglers, data-loader stalls, checkpoint saves or other jobs on the "
                       "nodes, and compare the median (" +
                       valueText(a, a.median) + ") with the mean.");
    int spikes = 0;
    long long firstSpike = -1;
    for (std::size_t i = static_cast<std::size_t>(a.warmup); i < c.timeLike.size(); ++i)
        if (c.timeLike[i] > 1.5 * c.steadyTimeMedian) {
            if (spikes++ == 0)
                firstSpike = a.steps[i];
        }
    if (spikes > 0)
        addVerdict(a, Severity::Info, "spikes",
                   std::to_string(spikes) + (spikes == 1 ? " steady sample" : " steady samples") +
                       " took more than 1.5x the median step time (first at step " +
                       std::to_string(firstSpike) +
                       "): checkpoint saves, evaluation or hiccups. They are included in the mean.");
}

void mfuVerdict(RunAnalysis& a) {
    const double measuredMfu = std::isfinite(a.mfu) ? a.mfu : a.loggedMfu;
    if (std::isfinite(measuredMfu) && measuredMfu < 0.20)
        addVerdict(
            a, Severity::Warning, "mfu_below_20",
            "Measured MFU is " + fmt::percent(measuredMfu) +
                (std::isfinite(a.mfu) ? "" : " (as the framework reports it)") +
                ", under 20%: the GPUs spend most of each step waiting (communication, pipeline bubbles, "
                "host overhead, the input pipeline). Well-tuned dense training reaches 35-55%.");
}

// "Check the plan's diagnostics first (pipeline_bubble: 735.2 ms per step; ...), then that the job matches
// the plan: ...": the three costliest diagnostics, then what to compare.
std::string checksToMake(const Plan& plan) {
    std::string causes;
    std::vector<const Diagnostic*> costly;
    for (const auto& d : plan.diagnostics)
        if (d.severity != Severity::Error)
            costly.push_back(&d);
    std::stable_sort(costly.begin(), costly.end(), [](const Diagnostic* x, const Diagnostic* y) {
        return x->costSeconds > y->costSeconds;
    });
    for (std::size_t i = 0; i < costly.size() && i < 3; ++i)
        causes += std::string(i ? "; " : "") + std::string(diagnosticIdString(costly[i]->id)) +
                  (costly[i]->costSeconds > 0 ? ": " + fmt::duration(costly[i]->costSeconds) + " per step"
                                              : std::string());
    return (causes.empty() ? std::string("The plan has no diagnostics, so check")
                           : "Check the plan's diagnostics first (" + causes + "), then") +
           " that the job matches the plan: the same layout, micro batch and recompute (export the launch "
           "settings), flash attention on, the hardware profile (calibrate the GPUs), and the network (NCCL "
           "bus bandwidth).";
}

void comparisonVerdict(RunAnalysis& a, const Plan& plan) {
    const double r = a.ratio;
    const std::string figures =
        fmt::duration(a.stepSeconds) + " measured, " + fmt::duration(a.predictedStepSeconds) + " predicted";
    if (r > 1.5)
        addVerdict(a, Severity::Warning, "much_slower_than_predicted",
                   (r >= 2.0 ? "Measured steps take " + fmt::fixed(r, 1) + "x as long as predicted ("
                             : "Measured is " + fmt::percent(r - 1.0, 0) + " slower than predicted (") +
                       figures + "). " + checksToMake(plan));
    else if (r > 1.15)
        addVerdict(a, Severity::Warning, "slower_than_predicted",
                   "Measured is " + fmt::percent(r - 1.0, 0) + " slower than predicted (" + figures +
                       "), more than the estimate's usual error. " + checksToMake(plan));
    else if (r >= 0.87)
        addVerdict(a, Severity::Info, "matches_prediction",
                   "Measured is within " + fmt::percent(std::fabs(r - 1.0), 0) + " of the prediction (" +
                       figures + "): the plan describes this run.");
    else
        addVerdict(a, Severity::Info, "faster_than_predicted",
                   "Measured is " + fmt::percent(1.0 - r, 0) + " faster than predicted (" + figures +
                       "): the job may use another layout or batch than the scenario (compare the tokens per "
                       "step), overlap more communication than planned (Megatron-LM --overlap-grad-reduce), "
                       "or the hardware profile is pessimistic for these GPUs (calibrate).");
}

void planVerdicts(RunAnalysis& a, const Context& c) {
    if (c.plan && !c.plan->valid) {
        addVerdict(a, Severity::Warning, "plan_invalid",
                   "The scenario's layout is invalid, so there is no prediction to compare with: load the "
                   "scenario the job actually used.");
    } else if (a.hasPlan) {
        comparisonVerdict(a, *c.plan);
    } else if (!c.scenario) {
        addVerdict(a, Severity::Info, "no_plan",
                   a.kind == SeriesKind::StepSeconds
                       ? "No scenario given: tokens/s, MFU and the comparison with a plan need the scenario "
                         "the run used."
                       : "No scenario given: torchtitan logs throughput (tps), not step time; the step time, "
                         "MFU and the comparison with a plan need the scenario the run used.");
    }
}

// The plan's stage a memory line speaks for: Megatron-LM puts the pipeline outermost in its rank order, so
// rank r runs stage r / (world size / PP); torchtitan logs rank 0 (stage 0). The worst stage when unknown.
int stageOfRank(const RunAnalysis& a, const Plan& plan) {
    const int stages = static_cast<int>(plan.memory.stages.size());
    const long long world = a.loggedLayout.worldSize > 0 ? a.loggedLayout.worldSize : a.plannedGpus;
    const long long pp = a.loggedLayout.pp > 0 ? a.loggedLayout.pp : a.plannedPp;
    if (a.loggedMemory.rank < 0 || world <= 0 || pp <= 0 || world % pp != 0)
        return plan.memory.worstStage;
    const long long stage = a.loggedMemory.rank / (world / pp);
    return stage < stages ? static_cast<int>(stage) : plan.memory.worstStage;
}

void compareMemory(RunAnalysis& a, const Plan& plan) {
    const bool reserved = std::isfinite(a.loggedMemory.maxReservedBytes);
    const double logged = reserved ? a.loggedMemory.maxReservedBytes : a.loggedMemory.maxAllocatedBytes;
    if (!(logged > 0) || plan.memory.stages.empty())
        return;
    a.memoryStage = stageOfRank(a, plan);
    a.predictedMemoryBytes = plan.memory.stages[static_cast<std::size_t>(a.memoryStage)].totalBytes;
    if (!(a.predictedMemoryBytes > 0))
        return;
    const double r = logged / a.predictedMemoryBytes;
    const std::string figures = "the log's peak " + std::string(reserved ? "reserved" : "allocated") +
                                " memory " + fmt::gib(logged, 1) + " vs the plan's " +
                                fmt::gib(a.predictedMemoryBytes, 1) + " for stage " +
                                std::to_string(a.memoryStage);
    if (r > 1.15)
        addVerdict(a, Severity::Warning, "memory_above_plan",
                   "The run needs more memory than planned: " + figures + " (" + fmt::percent(r - 1.0, 0) +
                       " more). Check that the job matches the plan (micro batch, recompute, ZeRO stage, "
                       "sequence length); allocator fragmentation also raises reserved memory.");
    else if (r < 0.85)
        addVerdict(a, Severity::Info, "memory_below_plan",
                   "The run needs less memory than planned: " + figures + " (" + fmt::percent(1.0 - r, 0) +
                       " less). The job may recompute or shard more than the scenario says.");
    else
        addVerdict(a, Severity::Info, "memory_matches_plan", "Memory matches the plan: " + figures + ".");
}

// "the log ran TP 4, the plan has TP 8" for each axis the log states and the scenario sets differently.
void compareLayout(RunAnalysis& a) {
    std::string differences;
    const auto differ = [&](long long logged, long long planned, const std::string& axis) {
        if (logged > 0 && planned > 0 && logged != planned)
            differences += std::string(differences.empty() ? "" : "; ") + "the log ran " + axis + " " +
                           std::to_string(logged) + ", the plan has " + axis + " " + std::to_string(planned);
    };
    differ(a.loggedLayout.worldSize, a.plannedGpus, "world size");
    differ(a.loggedLayout.tp, a.plannedTp, "TP");
    differ(a.loggedLayout.pp, a.plannedPp, "PP");
    if (!differences.empty()) {
        differences[0] = 'T';
        addVerdict(a, Severity::Warning, "layout_mismatch",
                   differences + ": the figures compare different runs. Load the scenario the job used.");
    }
}

// How the log relates to the scenario: step times derived from throughput, a different global batch, another
// count of FLOPs.
void scenarioVerdicts(RunAnalysis& a, const Context& c) {
    if (c.scenario && c.fromThroughput)
        addVerdict(
            a, Severity::Info, "step_time_from_throughput",
            "torchtitan logs throughput, not step time: step time = tokens per step / (tps x GPUs) = " +
                fmt::fixed(c.tokensPerStep, 0) + " / (tps x " + fmt::fixed(c.gpus, 0) + ").");
    if (c.scenario) {
        long long logged = c.log.layout.globalBatch;
        for (const auto& x : c.log.samples)
            if (x.globalBatch > 0)
                logged = x.globalBatch;
        const long long planned = c.scenario->layout.effectiveBatch();
        if (logged > 0 && logged != planned)
            addVerdict(
                a, Severity::Warning, "batch_mismatch",
                "The log's global batch size (" + std::to_string(logged) + ") differs from the scenario's (" +
                    std::to_string(planned) +
                    " sequences): the figures compare different runs. Load the scenario the job used.");
        compareLayout(a);
    }
    if (c.plan && c.plan->valid)
        compareMemory(a, *c.plan);
    if (std::isfinite(a.mfu) && std::isfinite(a.loggedMfu) && std::fabs(a.mfu - a.loggedMfu) > 0.05)
        addVerdict(a, Severity::Info, "logged_mfu_differs",
                   "The framework reports " + fmt::percent(a.loggedMfu) + " MFU, the planner's count gives " +
                       fmt::percent(a.mfu) +
                       ": they count FLOPs and peaks differently (docs/estimation.md, section 5).");
}

RunAnalysis analyze(const RunLog& log, const Scenario* s, const Plan* plan, const RunAnalysisOptions& o) {
    RunAnalysis a;
    a.format = log.format;
    a.loggedLayout = log.layout;
    a.loggedMemory = log.memory;
    Context c(log, s, plan);
    if (s) {
        a.plannedGpus = s->layout.gpus();
        a.plannedTp = s->layout.tp;
        a.plannedPp = s->layout.pp;
        c.tokensPerStep = static_cast<double>(s->layout.effectiveBatch()) * s->model.seqLen;
        c.gpus = static_cast<double>(s->layout.gpus());
    }
    readSeries(a, c);
    if (a.samples == 0)
        return a;
    dropWarmup(a, c, o);
    summariseSteadyState(a, c);
    averageLoggedFigures(a, c);
    deriveFigures(a, c);
    // Verdicts, most important first.
    sampleCountVerdict(a);
    warmupVerdict(a, c);
    variabilityVerdicts(a, c);
    mfuVerdict(a);
    planVerdicts(a, c);
    scenarioVerdicts(a, c);
    return a;
}

} // namespace

int detectWarmup(const std::vector<double>& timeLike) {
    return warmupDetail(timeLike).count;
}

RunAnalysis analyzeRun(const RunLog& log, const RunAnalysisOptions& options) {
    return analyze(log, nullptr, nullptr, options);
}

RunAnalysis analyzeRun(const RunLog& log, const Scenario& s, const Plan& plan,
                       const RunAnalysisOptions& options) {
    return analyze(log, &s, &plan, options);
}

namespace {

nlohmann::json positiveOrNull(long long v) {
    return v > 0 ? nlohmann::json(v) : nlohmann::json(nullptr);
}

// What the log states about the job, and the plan's figures each is compared with.
nlohmann::json loggedToJson(const RunAnalysis& a) {
    using nlohmann::json;
    const auto& m = a.loggedMemory;
    json memory = nullptr;
    if (m.line > 0)
        memory = json{{"max_allocated_bytes", finiteOrNull(m.maxAllocatedBytes)},
                      {"max_reserved_bytes", finiteOrNull(m.maxReservedBytes)},
                      {"rank", m.rank >= 0 ? json(m.rank) : json(nullptr)},
                      {"line", m.line},
                      {"plan_stage", a.memoryStage >= 0 ? json(a.memoryStage) : json(nullptr)},
                      {"plan_bytes", finiteOrNull(a.predictedMemoryBytes)}};
    return json{{"world_size", positiveOrNull(a.loggedLayout.worldSize)},
                {"tp", positiveOrNull(a.loggedLayout.tp)},
                {"pp", positiveOrNull(a.loggedLayout.pp)},
                {"global_batch", positiveOrNull(a.loggedLayout.globalBatch)},
                {"memory", std::move(memory)}};
}

} // namespace

nlohmann::json runAnalysisToJson(const RunAnalysis& a, const RunLog& log) {
    using nlohmann::json;
    const bool time = a.kind == SeriesKind::StepSeconds;
    json j;
    j["schema"] = kRunAnalysisSchema;
    j["version"] = kRunAnalysisVersion;
    j["format"] = std::string(toString(a.format));
    j["lines"] = log.lines;
    j["samples"] = a.samples;
    j["series_kind"] = time ? "step_s" : "tokens_per_s_per_gpu";
    if (!log.unitNote.empty())
        j["unit_note"] = log.unitNote;
    j["warmup"] =
        json{{"dropped", a.warmup},
             {"detected", a.detectedWarmup},
             {"overridden", a.warmupOverridden},
             {"peak_ratio", finiteOrNull(a.warmupPeakRatio)},
             {"first_steady_step",
              a.warmup < a.samples ? json(a.steps[static_cast<std::size_t>(a.warmup)]) : json(nullptr)}};
    j["steady"] = json{{"samples", a.steadySamples},       {"mean", finiteOrNull(a.mean)},
                       {"median", finiteOrNull(a.median)}, {"std", finiteOrNull(a.stddev)},
                       {"p10", finiteOrNull(a.p10)},       {"p90", finiteOrNull(a.p90)},
                       {"min", finiteOrNull(a.min)},       {"max", finiteOrNull(a.max)}};
    j["mean_all"] = finiteOrNull(a.meanAll);
    j["measured"] = json{{"step_s", finiteOrNull(a.stepSeconds)},
                         {"tokens_per_s", finiteOrNull(a.tokensPerSecond)},
                         {"tokens_per_s_per_gpu", finiteOrNull(a.tokensPerSecondPerGpu)},
                         {"mfu", finiteOrNull(a.mfu)},
                         {"hfu", finiteOrNull(a.hfu)},
                         {"logged_mfu", finiteOrNull(a.loggedMfu)},
                         {"logged_tflops_per_gpu", finiteOrNull(a.loggedTflopsPerGpu)}};
    if (a.hasPlan)
        j["predicted"] = json{{"step_s", finiteOrNull(a.predictedStepSeconds)},
                              {"mfu", finiteOrNull(a.predictedMfu)},
                              {"tokens_per_s", finiteOrNull(a.predictedTokensPerSecond)},
                              {"ratio", finiteOrNull(a.ratio)}};
    else
        j["predicted"] = nullptr;
    j["logged"] = loggedToJson(a);
    json verdicts = json::array();
    for (const auto& v : a.verdicts)
        verdicts.push_back(
            json{{"id", v.id}, {"severity", std::string(toString(v.severity))}, {"text", v.text}});
    j["verdicts"] = std::move(verdicts);
    json warnings = json::array();
    for (const auto& w : log.warnings)
        warnings.push_back(json{{"line", w.line}, {"message", w.message}});
    j["warnings"] = std::move(warnings);
    j["steps"] = a.steps;
    json series = json::array();
    for (double v : a.series)
        series.push_back(finiteOrNull(v));
    j["series"] = std::move(series);
    sanitizeNonFinite(j);
    return j;
}

namespace {

// "64 GPUs, TP 8, PP 4" from what is known (empty when nothing is).
std::string layoutText(long long gpus, int tp, int pp) {
    std::string out;
    const auto add = [&](long long v, const std::string& text) {
        if (v > 0)
            out += (out.empty() ? "" : ", ") + text;
    };
    add(gpus, std::to_string(gpus) + " GPUs");
    add(tp, "TP " + std::to_string(tp));
    add(pp, "PP " + std::to_string(pp));
    return out;
}

// The log's layout and memory lines, with the plan's figures beside them.
std::string loggedFiguresText(const RunAnalysis& a) {
    std::string out;
    const std::string logged = layoutText(a.loggedLayout.worldSize, a.loggedLayout.tp, a.loggedLayout.pp);
    if (!logged.empty())
        out += "Layout      " + logged + " logged" +
               (a.plannedGpus > 0 ? "; plan " + layoutText(a.plannedGpus, a.plannedTp, a.plannedPp)
                                  : std::string()) +
               "\n";
    const auto& m = a.loggedMemory;
    if (m.line > 0) {
        const bool reserved = std::isfinite(m.maxReservedBytes);
        out += "Memory      " + fmt::gib(reserved ? m.maxReservedBytes : m.maxAllocatedBytes, 1) + " peak " +
               (reserved ? "reserved" : "allocated") +
               (m.rank >= 0 ? " on rank " + std::to_string(m.rank) : std::string()) +
               (std::isfinite(a.predictedMemoryBytes) ? "; plan " + fmt::gib(a.predictedMemoryBytes, 1) +
                                                            " for stage " + std::to_string(a.memoryStage)
                                                      : std::string()) +
               "\n";
    }
    return out;
}

} // namespace

std::string runFiguresText(const RunAnalysis& a) {
    std::string out;
    if (a.samples == 0)
        return "No usable samples.\n";
    const bool time = a.kind == SeriesKind::StepSeconds;
    out += "Samples     " + std::to_string(a.samples) + " (" + std::string(displayName(a.format)) + ")\n";
    out += "Warmup      " +
           (a.warmup > 0 ? std::to_string(a.warmup) + " dropped (" + stepRange(a, 0, a.warmup) + ")"
                         : std::string("none dropped")) +
           (a.warmupOverridden ? ", set by hand (detected: " + std::to_string(a.detectedWarmup) + ")"
                               : std::string(", detected")) +
           "\n";
    out += std::string(time ? "Step time   " : "Throughput  ") + valueText(a, a.mean) + " mean over " +
           samplesWord(a.steadySamples) + " (median " + valueText(a, a.median) + ", std " +
           (time ? fmt::duration(a.stddev) : fmt::fixed(a.stddev, 0)) + ", p10 " + valueText(a, a.p10) +
           ", p90 " + valueText(a, a.p90) + ")\n";
    if (std::isfinite(a.tokensPerSecond))
        out += "Tokens/s    " + fmt::fixed(a.tokensPerSecond, 0) + " (" +
               fmt::fixed(a.tokensPerSecondPerGpu, 1) + " per GPU)\n";
    if (std::isfinite(a.mfu))
        out += "MFU         " + fmt::percent(a.mfu) + " measured" +
               (std::isfinite(a.predictedMfu) ? ", " + fmt::percent(a.predictedMfu) + " predicted"
                                              : std::string()) +
               "\n";
    if (std::isfinite(a.loggedMfu))
        out += "Logged MFU  " + fmt::percent(a.loggedMfu) + " (the framework's own count)\n";
    if (a.hasPlan)
        out += "Predicted   " + fmt::duration(a.predictedStepSeconds) +
               " per step; measured / predicted = " + fmt::fixed(a.ratio, 2) + "\n";
    return out + loggedFiguresText(a);
}

std::string runAnalysisText(const RunAnalysis& a) {
    if (a.samples == 0)
        return runFiguresText(a);
    std::string out = runFiguresText(a) + "\nVerdict\n";
    for (const auto& v : a.verdicts) {
        std::string sev(toString(v.severity));
        sev.resize(8, ' ');
        out += "  " + sev + v.text + "\n";
    }
    return out;
}

} // namespace lp::core
