#pragma once
// Internal to planner_cuda: NCCL collectives, the last benchmark runCalibration drives. Every CUDA and
// NCCL error becomes the measurement's error text.
#include "cuda/Measurements.h"
#include "cuda/detail/CudaUtil.h"

#include <expected>
#include <memory>
#include <string>

namespace lp::calib::detail {

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
