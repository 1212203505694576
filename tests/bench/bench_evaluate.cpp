// Evaluations per second (the goal in docs/performance.md: at least one million per second on one core).
#include "BenchScenarios.h"
#include "core/estimate/Evaluate.h"
#include "core/io/Presets.h"

#include <benchmark/benchmark.h>

using namespace lp::core;

namespace {

void run(benchmark::State& state, const Scenario& s) {
    const HardwareProfile profile = builtinProfile(s.cluster.gpu);
    for (auto _ : state) {
        Plan p = evaluate(s, profile);
        benchmark::DoNotOptimize(p);
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}

// The seed example: TP 8 x PP 4 x DP 2, micro batch 2 x 16.
void BM_EvaluateDefault(benchmark::State& state) {
    run(state, defaultScenario());
}

// The seed example as a search worker evaluates it: over the last plan, whose buffers are reused.
void BM_EvaluateDefaultReusingPlan(benchmark::State& state) {
    const Scenario s = defaultScenario();
    const HardwareProfile profile = builtinProfile(s.cluster.gpu);
    Plan p;
    for (auto _ : state) {
        evaluate(s, profile, p);
        benchmark::DoNotOptimize(p);
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}

// The 405B scenario's starting layout (126 layers, PP 2).
void BM_Evaluate405B(benchmark::State& state) {
    run(state, lp::bench::scenarioB());
}

// A layout the checks reject (TP 3 does not divide 64 heads): the cheap path of a search.
void BM_EvaluateInvalid(benchmark::State& state) {
    Scenario s = defaultScenario();
    s.layout.tp = 3;
    run(state, s);
}

// The built-in profile built once per call (what evaluate(scenario) without a profile costs).
void BM_EvaluateWithProfileLookup(benchmark::State& state) {
    const Scenario s = defaultScenario();
    for (auto _ : state) {
        Plan p = evaluate(s);
        benchmark::DoNotOptimize(p);
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}

} // namespace

BENCHMARK(BM_EvaluateDefault);
BENCHMARK(BM_EvaluateDefaultReusingPlan);
BENCHMARK(BM_Evaluate405B);
BENCHMARK(BM_EvaluateInvalid);
BENCHMARK(BM_EvaluateWithProfileLookup);

BENCHMARK_MAIN();
