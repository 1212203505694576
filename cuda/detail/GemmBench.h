#pragma once
// Internal to planner_cuda: GEMM throughput with cuBLASLt, the benchmark runCalibration drives first. Every
// CUDA and cuBLAS error becomes the measurement's error text.
#include "cuda/Measurements.h"
#include "cuda/detail/CudaUtil.h"

#include <expected>
#include <functional>
#include <memory>
#include <string>

namespace lp::calib::detail {

struct PreparedGemm;

// cuBLASLt GEMMs on one device: D[m x n] = A[m x k] B[k x n] with A transposed (the "TN" layout that
// fp8 requires and that weights commonly use), fp32 accumulation, beta = 0 and a 32 MiB workspace; the
// fastest of the heuristic's first few algorithms (as cuBLASLt's own auto-tuning samples do), each timed
// briefly. Operands are filled with random values.
class GemmBench {
public:
    static std::expected<std::unique_ptr<GemmBench>, std::string> open(TimedStream& stream);
    ~GemmBench();
    GemmBench(const GemmBench&) = delete;
    GemmBench& operator=(const GemmBench&) = delete;

    GemmMeasurement run(const GemmShape& shape, GemmDtype dtype, const TimingPlan& plan);
    // The measured GEMM `burst` again, back to back for `seconds` (SustainedGemm); `keepGoing` is asked
    // after each quarter-second window.
    SustainedGemm hold(const GemmMeasurement& burst, double seconds, const TimingPlan& plan,
                       const std::function<bool()>& keepGoing = {});
    std::string libraryVersion() const;
    // A non-square GEMM (320 x 192 x 208, A transposed as in the benchmarks) of small integers against
    // a host reference: every element must be exact.
    CorrectnessCheck verify(GemmDtype dtype);

private:
    struct Impl;
    explicit GemmBench(std::unique_ptr<Impl> impl);
    std::expected<std::unique_ptr<PreparedGemm>, std::string> prepare(const GemmShape& shape,
                                                                      GemmDtype dtype);
    Launch launcher(const PreparedGemm& g) const;
    // Times the heuristic's candidates briefly and keeps the fastest in g; "" or the error.
    std::string chooseFastestAlgorithm(PreparedGemm& g, const TimingPlan& plan);
    std::unique_ptr<Impl> m_impl;
};

} // namespace lp::calib::detail
