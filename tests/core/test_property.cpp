// Property test: thousands of random scenarios, extreme sizes included, never crash and never
// produce NaN or infinity in a plan or its explanations.
#include "TestHarness.h"
#include "core/estimate/Evaluate.h"
#include "core/estimate/Explain.h"
#include "core/io/Presets.h"

#include <cmath>
#include <random>
#include <type_traits>
#include <variant>

using namespace lp::core;

namespace {

// Every number a diagnostic's figures hold is finite (its message quotes them).
bool finiteFigures(const DiagnosticFigures& figures) {
    return std::visit(
        [](const auto& f) {
            using Figures = std::decay_t<decltype(f)>;
            if constexpr (std::is_same_v<Figures, diagnostic::PipelineBubble>)
                return std::isfinite(f.bubbleFraction);
            else if constexpr (std::is_same_v<Figures, diagnostic::Stragglers>)
                return std::isfinite(f.slowdown);
            else if constexpr (std::is_same_v<Figures, diagnostic::MfuBelow20>)
                return std::isfinite(f.mfu);
            else if constexpr (std::is_same_v<Figures, diagnostic::DoesNotFit>)
                return std::isfinite(f.totalBytes) && std::isfinite(f.capacityBytes);
            else if constexpr (std::is_same_v<Figures, diagnostic::ExposedDpComm>)
                return std::isfinite(f.shareOfStep) && std::isfinite(f.ring.chunkBytes) &&
                       std::isfinite(f.ring.efficiency) && std::isfinite(f.ring.latencySeconds) &&
                       std::isfinite(f.ring.bandwidthSeconds);
            else if constexpr (std::is_same_v<Figures, diagnostic::SmallExpertBatches>)
                return std::isfinite(f.tokensPerExpert);
            else if constexpr (std::is_same_v<Figures, diagnostic::CpExchangeExposed>)
                return std::isfinite(f.shareOfStep) && std::isfinite(f.tokensPerRank) &&
                       std::isfinite(f.hidingTokens);
            else if constexpr (std::is_same_v<Figures, diagnostic::LittleMemoryHeadroom>)
                return std::isfinite(f.headroomBytes) && std::isfinite(f.headroomShare);
            else if constexpr (std::is_same_v<Figures, diagnostic::UnfusedSoftmax>)
                return std::isfinite(f.rows);
            else if constexpr (std::is_same_v<Figures, diagnostic::CpuOffloadCost>)
                return std::isfinite(f.shareOfStep) && std::isfinite(f.activationCopySeconds) &&
                       std::isfinite(f.cpuOptimizerSeconds);
            else if constexpr (std::is_same_v<Figures, diagnostic::HostMemoryExceeded>)
                return std::isfinite(f.hostBytesPerGpu) && std::isfinite(f.hostShareBytes);
            else if constexpr (std::is_same_v<Figures, diagnostic::GpipeHoldsAllMicroBatches>)
                return std::isfinite(f.extraBytes);
            else if constexpr (std::is_same_v<Figures, diagnostic::LongCheckpointWrite>)
                return std::isfinite(f.writeSeconds) && std::isfinite(f.intervalSeconds) &&
                       std::isfinite(f.share);
            else if constexpr (std::is_same_v<Figures, diagnostic::LowGoodput>)
                return std::isfinite(f.goodput) && std::isfinite(f.interruptionsPerDay) &&
                       std::isfinite(f.lostPerFailureSeconds);
            else if constexpr (std::is_same_v<Figures, diagnostic::PastDeadline>)
                return std::isfinite(f.deadlineDays);
            else
                return true; // whole numbers only
        },
        figures);
}

bool finitePlan(const Plan& p) {
    const TimeBreakdown& t = p.time;
    const double values[] = {p.trainingStateBytes,
                             p.tokensPerStep,
                             p.modelFlopsPerStep,
                             p.hardwareFlopsPerStep,
                             p.mfu,
                             p.hfu,
                             p.mfu6nd,
                             p.modelTflopsPerGpu,
                             p.hardwareTflopsPerGpu,
                             p.tokensPerSecond,
                             p.tokensPerSecondPerGpu,
                             p.trainingSeconds,
                             p.gpuHours,
                             t.stepSeconds,
                             t.computeSeconds,
                             t.recomputeSeconds,
                             t.tpCommSeconds,
                             t.ppCommSeconds,
                             t.cpCommSeconds,
                             t.bubbleSeconds,
                             t.bubbleFraction,
                             t.dpCommExposedSeconds,
                             t.optimizerSeconds,
                             t.loaderSeconds,
                             t.stragglerSeconds,
                             t.overheadSeconds,
                             p.memory.capacityBytes,
                             p.memory.headroomBytes,
                             p.params.total,
                             p.params.active};
    for (double v : values)
        if (!std::isfinite(v))
            return false;
    for (const StageMemory& s : p.memory.stages)
        for (double v : {s.weightsBytes, s.gradientsBytes, s.optimizerBytes, s.activationsBytes,
                         s.overheadBytes, s.totalBytes})
            if (!std::isfinite(v) || v < 0)
                return false;
    for (const Diagnostic& d : p.diagnostics)
        if (!std::isfinite(d.costSeconds) || !finiteFigures(d.figures))
            return false;
    return true;
}

template <typename T> T pick(std::mt19937_64& rng, std::initializer_list<T> values) {
    std::uniform_int_distribution<std::size_t> d(0, values.size() - 1);
    return *(values.begin() + d(rng));
}

} // namespace

LP_TEST(random_scenarios_stay_finite) {
    std::mt19937_64 rng(20261129);
    std::mt19937_64 scheduleRng(20261206); // its own draws: the other settings' sequence stays as it was
    int valid = 0;
    const int n = 4000;
    for (int i = 0; i < n; ++i) {
        Scenario s = defaultScenario();
        ModelSpec& m = s.model;
        m.layers = pick(rng, {1, 2, 12, 24, 80, 126, 1000, 100000});
        m.heads = pick(rng, {1, 8, 16, 64, 128});
        m.kvHeads = pick(rng, {1, 2, 8, m.heads});
        m.hidden = m.heads * pick(rng, {1, 64, 128, 256});
        m.ffnHidden = pick(rng, {1, 4 * m.hidden, 28672, 1000000});
        m.vocab = pick(rng, {1, 32000, 128256, 100000000});
        m.seqLen = pick(rng, {1, 2048, 8192, 131072, 1048576});
        m.mlp = pick(rng, {MlpKind::Gelu, MlpKind::SwiGlu});
        m.dropout = pick(rng, {true, false});
        m.tiedEmbeddings = pick(rng, {true, false});
        if (pick(rng, {0, 0, 1}) == 1) {
            m.moe.experts = pick(rng, {8, 64, 256});
            m.moe.topK = pick(rng, {1, 2, 8});
            m.moe.expertFfnHidden = pick(rng, {1408, 14336});
        }
        s.cluster.nodes = pick(rng, {1, 2, 8, 64, 2048, 1000000});
        s.cluster.gpusPerNode = pick(rng, {1, 4, 8, 72});
        s.cluster.nvlinkDomain = pick(rng, {1, s.cluster.gpusPerNode, 72});
        s.cluster.gpu.peakFlops16 = pick(rng, {1e12, 989e12, 1e18});
        s.cluster.gpu.hbmBytes = pick(rng, {1e9, 80e9, 1e15});
        s.cluster.gpu.networkBandwidth = pick(rng, {1e6, 50e9, 1e15});
        Layout& l = s.layout;
        l.tp = pick(rng, {1, 2, 4, 8, 16, 64});
        l.pp = pick(rng, {1, 2, 4, 8, 1000});
        l.cp = pick(rng, {1, 2, 8});
        l.vpp = pick(rng, {1, 2, 3});
        l.microBatch = pick(rng, {1, 2, 8, 100000});
        l.accumulation = pick(rng, {1, 4, 16, 1000000});
        const long long rest = s.cluster.gpus() / std::max(1LL, static_cast<long long>(l.tp) * l.pp * l.cp);
        l.dp = static_cast<int>(std::max(1LL, std::min(rest, 100000000LL)));
        TrainingOptions& t = s.training;
        t.zeroStage = pick(rng, {0, 1, 2, 3});
        t.recompute = pick(rng, {Recompute::None, Recompute::Selective, Recompute::Full});
        t.sequenceParallel = pick(rng, {true, false});
        t.flashAttention = pick(rng, {true, false});
        t.torchCompile = pick(rng, {true, false});
        t.precision = pick(rng, {Precision::Bf16, Precision::Fp16, Precision::Fp8});
        t.loaderPrefetch = pick(rng, {true, false});
        t.overlapTpComm = pick(rng, {Toggle::On, Toggle::Off, Toggle::Auto});
        t.overlapPpComm = pick(rng, {true, false});
        t.overlapDpComm = pick(rng, {Toggle::On, Toggle::Off, Toggle::Auto});
        t.overlapEpComm = pick(rng, {true, false});
        t.stragglerSlowdown = pick(rng, {0.0, 0.5, 100.0});
        t.zeroShardDegree = pick(rng, {0, 0, 1, 2, 8, 3, 1000000});
        t.crossEntropy =
            pick(rng, {CrossEntropy::Auto, CrossEntropy::Unfused, CrossEntropy::Fused,
                       CrossEntropy::FusedLinear, CrossEntropy::Compiled, CrossEntropy::Fused16});
        t.logitsMetricPasses = pick(rng, {0, 0, 2, 16});
        t.optimizerPrecision =
            pick(rng, {OptimizerPrecision::Fp32, OptimizerPrecision::Bf16Moments, OptimizerPrecision::Bf16});
        t.rematPolicy = pick(rng, {RematPolicy::Auto, RematPolicy::Auto, RematPolicy::Minimal,
                                   RematPolicy::SaveDotWithContextExceptMlp, RematPolicy::SaveOutProj});
        t.cpExchange = pick(rng, {CpExchange::Auto, CpExchange::Ring, CpExchange::AllGather});
        t.moeDispatcher = pick(rng, {MoeDispatcher::AllToAll, MoeDispatcher::Deduplicated});
        t.pipelineSchedule = pick(scheduleRng, {PipelineSchedule::OneFOneB, PipelineSchedule::GPipe,
                                                PipelineSchedule::ZeroBubbleH1});
        t.zero3Gather = pick(scheduleRng, {Zero3Gather::Layer, Zero3Gather::Module});
        // Sometimes a nonsense value: zero, negative, or non-finite.
        switch (pick(rng, {0, 0, 0, 0, 1, 2, 3, 4})) {
        case 1:
            m.hidden = 0;
            break;
        case 2:
            l.microBatch = -1;
            break;
        case 3:
            s.cluster.gpu.hbmBandwidth = std::nan("");
            break;
        case 4:
            t.stragglerSlowdown = INFINITY;
            break;
        default:
            break;
        }
        const Plan p = evaluate(s);
        valid += p.valid;
        LP_CHECK(finitePlan(p));
        if (i % 20 == 0) {
            for (const Explanation& e : explainPlan(s, p))
                LP_CHECK(std::isfinite(e.value));
        }
        for (const Diagnostic& d : p.diagnostics) {
            LP_CHECK(d.figures.index() == static_cast<std::size_t>(d.id)); // the figures of its own kind
            const std::string msg = diagnosticMessage(d);
            LP_CHECK(msg.find("nan") == std::string::npos && msg.find("inf ") == std::string::npos);
        }
    }
    LP_CHECK(valid > n / 20); // the generator reaches valid layouts too
}

LP_TEST(larger_shard_groups_and_leaner_losses_never_take_more_memory) {
    // Whatever the layout: sharding over more DP ranks never adds to a GPU's training state, and the
    // loss kernels order as unfused >= fused >= fused linear on every stage and in the step time.
    std::mt19937_64 rng(7);
    int checked = 0;
    for (int i = 0; i < 600; ++i) {
        Scenario s = defaultScenario();
        Layout& l = s.layout;
        l.tp = pick(rng, {1, 2, 4, 8});
        l.pp = pick(rng, {1, 2, 4});
        l.dp = pick(rng, {2, 4, 8, 16, 32});
        l.accumulation = pick(rng, {4, 8, 16});
        l.microBatch = pick(rng, {1, 2});
        s.cluster.nodes = std::max(1, static_cast<int>(l.gpus() / s.cluster.gpusPerNode));
        s.cluster.gpusPerNode = static_cast<int>(l.gpus() / s.cluster.nodes);
        s.cluster.nvlinkDomain = s.cluster.gpusPerNode;
        s.training.zeroStage = pick(rng, {1, 2, 3});
        if (!evaluate(s).valid)
            continue;
        double previous = -1;
        for (int d = 1; d <= l.dp; d *= 2) { // powers of two: all divide DP
            s.training.zeroShardDegree = d;
            const Plan p = evaluate(s);
            LP_CHECK(p.valid);
            const StageMemory& st = p.memory.stages[0];
            const double state = st.weightsBytes + st.gradientsBytes + st.optimizerBytes;
            if (previous >= 0)
                LP_CHECK(state <= previous * (1 + 1e-12));
            previous = state;
        }
        s.training.zeroShardDegree = 0;
        double last = INFINITY, lastStep = INFINITY;
        for (CrossEntropy ce : {CrossEntropy::Unfused, CrossEntropy::Fused, CrossEntropy::FusedLinear}) {
            s.training.crossEntropy = ce;
            const Plan p = evaluate(s);
            const double lastStage = p.memory.stages.back().activationsBytes;
            LP_CHECK(lastStage <= last);
            last = lastStage;
            // ... and in time: the same FLOPs, fewer passes over the logits.
            LP_CHECK(p.time.stepSeconds <= lastStep);
            lastStep = p.time.stepSeconds;
        }
        ++checked;
    }
    LP_CHECK(checked > 100);
}

LP_TEST_MAIN()
