#pragma once
// Internal to planner_cuda: HBM bandwidth, one of the benchmarks runCalibration drives. Every CUDA error
// becomes the measurement's error text.
#include "cuda/DeviceInfo.h"
#include "cuda/Measurements.h"
#include "cuda/detail/CudaUtil.h"

namespace lp::calib::detail {

// HBM bandwidth on the stream's device: buffers of `bytes` copied with cudaMemcpyAsync (device to
// device) or read and written by a kernel; bytes moved = 2 x buffer.
HbmMeasurement benchHbm(TimedStream& stream, const DeviceInfo& device, HbmMethod method, double bytes,
                        const TimingPlan& plan);

} // namespace lp::calib::detail
