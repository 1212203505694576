#pragma once
// Internal to planner_cuda: the three benchmarks runCalibration drives (GemmBench.cpp, HbmBench.cpp,
// NcclBench.cpp). Each turns every CUDA, cuBLAS and NCCL error into the measurement's error text.
#include "cuda/CudaUtil.h"

#include <expected>
#include <memory>
#include <string>
#include <vector>

namespace lp::calib::detail {

struct PreparedGemm;

// cuBLASLt GEMMs on one device: D[m x n] = A[m x k] B[k x n] with A transposed (the "TN" layout that
// fp8 requires and that weights commonly use), fp32 accumulation, beta = 0, the heuristic's first
// algorithm and a 32 MiB workspace. Operands are filled with random values.
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

private:
    struct Impl;
    explicit GemmBench(std::unique_ptr<Impl> impl);
    std::expected<std::unique_ptr<PreparedGemm>, std::string> prepare(const GemmShape& shape,
                                                                      GemmDtype dtype);
    Launch launcher(const PreparedGemm& g) const;
    std::unique_ptr<Impl> m_impl;
};

// HBM bandwidth on the stream's device: buffers of `bytes` copied with cudaMemcpyAsync (device to
// device) or read and written by a kernel; bytes moved = 2 x buffer.
HbmMeasurement benchHbm(TimedStream& stream, const DeviceInfo& device, HbmMethod method, double bytes,
                        const TimingPlan& plan);

// NCCL collectives over the first `gpus` local GPUs, one process driving them all (ncclCommInitAll and
// group calls), bf16 elements. Without NCCL in the build or on the machine, open() says so.
class NcclBench {
public:
    static std::expected<std::unique_ptr<NcclBench>, std::string> open(int gpus, double maxBytes);
    ~NcclBench();
    NcclBench(const NcclBench&) = delete;
    NcclBench& operator=(const NcclBench&) = delete;

    int ranks() const;
    double maxBytes() const; // the largest message the buffers hold
    bool usable() const;     // false after an operation failed or hung (the communicators are aborted)
    CommMeasurement run(Collective op, double bytes, const TimingPlan& plan);
    std::string libraryVersion() const;

private:
    struct Impl;
    explicit NcclBench(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> m_impl;
};

} // namespace lp::calib::detail
