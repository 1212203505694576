#pragma once
// Internal to planner_cuda: CUDA error messages, owned device memory, streams with timing events, and
// the timing loop every benchmark shares. Includes the CUDA runtime headers - never include it from
// the plain C++ headers of cuda/ or from code outside cuda/.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <expected>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace lp::calib::detail {

// "out of memory (cudaErrorMemoryAllocation)".
std::string cudaErrorText(cudaError_t e);
// "cudaMalloc: out of memory (cudaErrorMemoryAllocation)".
std::string callError(const char* call, cudaError_t e);
// "1.5 GiB", "64 MiB", "8 KiB".
std::string bytesText(double bytes);

// After an item failed: true when the device still works (the error was cleared), false when the
// context is broken (a sticky error such as an illegal address) and *why says so.
bool deviceStillUsable(int device, std::string* why);

// Free memory on the current device, or 0 when it cannot be asked.
double freeDeviceBytes();

// Device memory, freed on destruction (on the device it was allocated on).
class DeviceBuffer {
public:
    DeviceBuffer() = default;
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    DeviceBuffer(DeviceBuffer&& o) noexcept { *this = std::move(o); }
    DeviceBuffer& operator=(DeviceBuffer&& o) noexcept;
    ~DeviceBuffer() { reset(); }

    // Allocates on the current device; an error message (naming the size) on failure.
    std::expected<void, std::string> allocate(std::size_t bytes);
    void reset();
    void* get() const { return m_ptr; }
    std::size_t size() const { return m_bytes; }

private:
    void* m_ptr = nullptr;
    std::size_t m_bytes = 0;
    int m_device = 0;
};

// A stream on one device with a pair of events around each timed batch.
class TimedStream {
public:
    TimedStream() = default;
    TimedStream(const TimedStream&) = delete;
    TimedStream& operator=(const TimedStream&) = delete;
    TimedStream(TimedStream&& o) noexcept { *this = std::move(o); }
    TimedStream& operator=(TimedStream&& o) noexcept;
    ~TimedStream() { reset(); }

    std::expected<void, std::string> create(int device);
    void reset();
    int device() const { return m_device; }
    cudaStream_t stream() const { return m_stream; }
    cudaEvent_t start() const { return m_start; }
    cudaEvent_t stop() const { return m_stop; }

private:
    int m_device = -1;
    cudaStream_t m_stream = nullptr;
    cudaEvent_t m_start = nullptr;
    cudaEvent_t m_stop = nullptr;
};

struct TimingPlan {
    int warmup = 3;
    int repetitions = 10;
    double maxSeconds = 2.0;       // total budget of the timed runs of one item
    double minBatchSeconds = 1e-3; // short runs are repeated back to back up to this per sample
    double hangSeconds = 120.0;    // a batch not finished by then is reported as hung
};

// Enqueues one run of the benchmarked operation on the streams; returns "" or an error message.
using Launch = std::function<std::string()>;

// Times `launch`: `warmup` untimed runs (fewer for slow items), then samples of back-to-back batches
// (so that microsecond kernels are not dominated by event resolution and launch gaps), each sample the
// batch time on the slowest stream divided by the batch size. Fewer samples (at least 3) when the item
// would exceed plan.maxSeconds.
std::expected<std::vector<double>, std::string> timeRuns(std::span<TimedStream* const> streams,
                                                         const TimingPlan& plan, const Launch& launch);

// Runs `launch` back to back for about `seconds`, in windows of about `windowSeconds` each timed with
// the events (the host waits a few microseconds between windows): each window's time per run. Long
// enough, this is the throughput the GPU holds at its power limit rather than at its boost clock.
// `keepGoing` is asked after each window; false stops early with the windows measured so far.
std::expected<std::vector<double>, std::string> holdRuns(std::span<TimedStream* const> streams,
                                                         const TimingPlan& plan, const Launch& launch,
                                                         double seconds, double windowSeconds,
                                                         const std::function<bool()>& keepGoing = {});

// Waits for a stream, polling, for at most `seconds`; an error message on failure or timeout.
std::string waitForStream(const TimedStream& s, double seconds);

} // namespace lp::calib::detail
