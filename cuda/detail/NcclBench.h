#pragma once
// Internal to planner_cuda: NCCL collectives, the last benchmark runCalibration drives. Every CUDA and
// NCCL error becomes the measurement's error text.
#include "cuda/Measurements.h"
#include "cuda/detail/CudaUtil.h"

#include <expected>
#include <memory>
#include <string>
#include <vector>

namespace lp::calib::detail {

// NCCL collectives over the given GPUs (CUDA device numbers), one process driving them all
// (ncclCommInitAll and group calls), bf16 elements. Each timed batch is a CUDA graph per GPU holding
// several collectives, captured once, so that the one host thread's enqueue time (N enqueues per
// collective) is not in the figure: a job with one process per GPU does not pay it. Without NCCL in the
// build or on the machine, open() says so.
class NcclBench {
public:
    static std::expected<std::unique_ptr<NcclBench>, std::string> open(const std::vector<int>& devices,
                                                                       double maxBytes);
    ~NcclBench();
    NcclBench(const NcclBench&) = delete;
    NcclBench& operator=(const NcclBench&) = delete;

    int ranks() const;
    double maxBytes() const; // the largest message the buffers hold
    bool usable() const;     // false after an operation failed or hung (the communicators are aborted)
    CommMeasurement run(Collective op, double bytes, const TimingPlan& plan);
    // An all-reduce (sum) of buffers holding each rank's number plus one: every element must come back
    // as n(n+1)/2 on every GPU.
    CorrectnessCheck verifyAllReduce();
    std::string libraryVersion() const;

    struct Impl; // the communicators, streams and buffers (NcclBench.cpp)

private:
    explicit NcclBench(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> m_impl;
};

} // namespace lp::calib::detail
