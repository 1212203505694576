// Full layout searches: (a) the default scenario and (b) Llama-3.1-405B on 16,384 H100, each
// with 1 and 2 threads. Reports the time of one full search and the layouts looked at per second.
#include "BenchScenarios.h"
#include "core/io/Presets.h"
#include "core/search/Search.h"

#include <benchmark/benchmark.h>

using namespace lp::core;

namespace {

void run(benchmark::State& state, const Scenario& s, const SearchSpace& space) {
    const HardwareProfile profile = builtinProfile(s.cluster.gpu);
    SearchOptions options;
    options.threads = static_cast<int>(state.range(0));
    SearchResult r;
    for (auto _ : state) {
        r = search(s, profile, space, {}, options);
        benchmark::DoNotOptimize(r);
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * r.evaluated);
    state.counters["layouts"] = static_cast<double>(r.evaluated);
    state.counters["valid"] = static_cast<double>(r.valid);
    state.counters["fitting"] = static_cast<double>(r.fitting);
}

void BM_SearchDefault(benchmark::State& state) {
    const Scenario s = lp::bench::scenarioA();
    run(state, s, defaultSearchSpace(s));
}

void BM_Search405B(benchmark::State& state) {
    const Scenario s = lp::bench::scenarioB();
    run(state, s, defaultSearchSpace(s));
}

// Larger spaces: a range of global batches (every accumulation whose batch lies in it).
void BM_SearchDefaultBatchRange(benchmark::State& state) {
    const Scenario s = lp::bench::scenarioA();
    SearchSpace space = defaultSearchSpace(s);
    space.globalBatchMin = 32;
    space.globalBatchMax = 512;
    run(state, s, space);
}

void BM_Search405BBatchRange(benchmark::State& state) {
    const Scenario s = lp::bench::scenarioB();
    SearchSpace space = defaultSearchSpace(s);
    space.globalBatchMin = 1024;
    space.globalBatchMax = 4096;
    run(state, s, space);
}

} // namespace

BENCHMARK(BM_SearchDefault)
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime()
    ->UseRealTime();
BENCHMARK(BM_Search405B)
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime()
    ->UseRealTime();
BENCHMARK(BM_SearchDefaultBatchRange)
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime()
    ->UseRealTime();
BENCHMARK(BM_Search405BBatchRange)
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime()
    ->UseRealTime();

BENCHMARK_MAIN();
