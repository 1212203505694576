#include "cuda/detail/CudaUtil.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <thread>
#include <utility>

namespace lp::calib::detail {

std::string cudaErrorText(cudaError_t e) {
    const char* text = cudaGetErrorString(e);
    const char* name = cudaGetErrorName(e);
    return std::string(text ? text : "unknown CUDA error") + " (" + (name ? name : "?") + ")";
}

std::string callError(const char* call, cudaError_t e) {
    return std::string(call) + ": " + cudaErrorText(e);
}

std::string bytesText(double bytes) {
    const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (bytes >= 1024.0 && u < 4) {
        bytes /= 1024.0;
        ++u;
    }
    const long long tenths = std::llround(bytes * 10.0);
    std::string num = tenths % 10 == 0 ? std::to_string(tenths / 10)
                                       : std::to_string(tenths / 10) + "." + std::to_string(tenths % 10);
    return num + " " + units[u];
}

bool deviceStillUsable(int device, std::string* why) {
    (void)cudaGetLastError(); // clears a non-sticky error
    if (cudaError_t e = cudaSetDevice(device); e != cudaSuccess) {
        if (why)
            *why = callError("cudaSetDevice", e);
        return false;
    }
    if (cudaError_t e = cudaDeviceSynchronize(); e != cudaSuccess) {
        if (why)
            *why = "the GPU is in an error state (" + cudaErrorText(e) +
                   "); the remaining benchmarks cannot run in this process";
        return false;
    }
    (void)cudaGetLastError();
    return true;
}

double freeDeviceBytes() {
    std::size_t freeBytes = 0;
    std::size_t totalBytes = 0;
    if (cudaMemGetInfo(&freeBytes, &totalBytes) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    return static_cast<double>(freeBytes);
}

// ------------------------------------------------------------------------------------------------

DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&& o) noexcept {
    if (this != &o) {
        reset();
        m_ptr = std::exchange(o.m_ptr, nullptr);
        m_bytes = std::exchange(o.m_bytes, 0);
        m_device = o.m_device;
    }
    return *this;
}

std::expected<void, std::string> DeviceBuffer::allocate(std::size_t bytes) {
    reset();
    if (bytes == 0)
        return {};
    int device = 0;
    if (cudaError_t e = cudaGetDevice(&device); e != cudaSuccess)
        return std::unexpected(callError("cudaGetDevice", e));
    void* p = nullptr;
    if (cudaError_t e = cudaMalloc(&p, bytes); e != cudaSuccess) {
        (void)cudaGetLastError();
        return std::unexpected("cudaMalloc(" + bytesText(static_cast<double>(bytes)) +
                               "): " + cudaErrorText(e));
    }
    m_ptr = p;
    m_bytes = bytes;
    m_device = device;
    return {};
}

void DeviceBuffer::reset() {
    if (!m_ptr)
        return;
    int current = 0;
    const bool switchDevice = cudaGetDevice(&current) == cudaSuccess && current != m_device;
    if (switchDevice)
        (void)cudaSetDevice(m_device);
    (void)cudaFree(m_ptr);
    if (switchDevice)
        (void)cudaSetDevice(current);
    (void)cudaGetLastError();
    m_ptr = nullptr;
    m_bytes = 0;
}

TimedStream& TimedStream::operator=(TimedStream&& o) noexcept {
    if (this != &o) {
        reset();
        m_device = std::exchange(o.m_device, -1);
        m_stream = std::exchange(o.m_stream, nullptr);
        m_start = std::exchange(o.m_start, nullptr);
        m_stop = std::exchange(o.m_stop, nullptr);
    }
    return *this;
}

std::expected<void, std::string> TimedStream::create(int device) {
    reset();
    if (cudaError_t e = cudaSetDevice(device); e != cudaSuccess)
        return std::unexpected(callError("cudaSetDevice", e));
    m_device = device;
    if (cudaError_t e = cudaStreamCreateWithFlags(&m_stream, cudaStreamNonBlocking); e != cudaSuccess)
        return std::unexpected(callError("cudaStreamCreate", e));
    if (cudaError_t e = cudaEventCreate(&m_start); e != cudaSuccess)
        return std::unexpected(callError("cudaEventCreate", e));
    if (cudaError_t e = cudaEventCreate(&m_stop); e != cudaSuccess)
        return std::unexpected(callError("cudaEventCreate", e));
    return {};
}

void TimedStream::reset() {
    if (m_device < 0)
        return;
    int current = 0;
    const bool switchDevice = cudaGetDevice(&current) == cudaSuccess && current != m_device;
    if (switchDevice)
        (void)cudaSetDevice(m_device);
    if (m_start)
        (void)cudaEventDestroy(m_start);
    if (m_stop)
        (void)cudaEventDestroy(m_stop);
    if (m_stream)
        (void)cudaStreamDestroy(m_stream);
    if (switchDevice)
        (void)cudaSetDevice(current);
    (void)cudaGetLastError();
    m_start = m_stop = nullptr;
    m_stream = nullptr;
    m_device = -1;
}

// ------------------------------------------------------------------------------------------------

std::string waitForStream(const TimedStream& s, double seconds) {
    using Clock = std::chrono::steady_clock;
    const auto deadline = Clock::now() + std::chrono::duration<double>(seconds);
    auto pause = std::chrono::microseconds(20);
    for (;;) {
        const cudaError_t e = cudaStreamQuery(s.stream());
        if (e == cudaSuccess)
            return {};
        if (e != cudaErrorNotReady)
            return "GPU " + std::to_string(s.device()) + ": " + cudaErrorText(e);
        if (Clock::now() > deadline)
            return "GPU " + std::to_string(s.device()) + " did not finish within " +
                   std::to_string(std::llround(seconds)) + " s (a hang, or another process holding the GPU)";
        std::this_thread::sleep_for(pause);
        pause = std::min(pause * 2, std::chrono::microseconds(2000));
    }
}

namespace {

std::string recordAll(std::span<TimedStream* const> streams, bool start) {
    for (TimedStream* s : streams) {
        if (cudaError_t e = cudaSetDevice(s->device()); e != cudaSuccess)
            return callError("cudaSetDevice", e);
        if (cudaError_t e = cudaEventRecord(start ? s->start() : s->stop(), s->stream()); e != cudaSuccess)
            return callError("cudaEventRecord", e);
    }
    return {};
}

std::string waitAll(std::span<TimedStream* const> streams, double seconds) {
    for (TimedStream* s : streams)
        if (std::string err = waitForStream(*s, seconds); !err.empty())
            return err;
    return {};
}

// The slowest stream's time between its start and stop events.
std::expected<double, std::string> elapsedSeconds(std::span<TimedStream* const> streams) {
    double worst = 0;
    for (TimedStream* s : streams) {
        float ms = 0;
        if (cudaError_t e = cudaEventElapsedTime(&ms, s->start(), s->stop()); e != cudaSuccess)
            return std::unexpected(callError("cudaEventElapsedTime", e));
        worst = std::max(worst, static_cast<double>(ms) * 1e-3);
    }
    return worst;
}

// One batch of `count` back-to-back runs between the events; its time per run.
std::expected<double, std::string> timedBatch(std::span<TimedStream* const> streams, int count,
                                              const TimingPlan& plan, const Launch& launch) {
    if (std::string err = recordAll(streams, true); !err.empty())
        return std::unexpected(err);
    for (int i = 0; i < count; ++i)
        if (std::string err = launch(); !err.empty())
            return std::unexpected(err);
    if (std::string err = recordAll(streams, false); !err.empty())
        return std::unexpected(err);
    if (std::string err = waitAll(streams, plan.hangSeconds); !err.empty())
        return std::unexpected(err);
    auto t = elapsedSeconds(streams);
    if (!t)
        return std::unexpected(t.error());
    return *t / count;
}

} // namespace

std::expected<std::vector<double>, std::string> timeRuns(std::span<TimedStream* const> streams,
                                                         const TimingPlan& plan, const Launch& launch) {
    if (streams.empty())
        return std::unexpected(std::string("no stream to time on"));
    // Warm-up: the first run (timed, to size the rest), then more untimed runs, at most a quarter of the
    // item's time budget.
    auto first = timedBatch(streams, 1, plan, launch);
    if (!first)
        return std::unexpected(first.error());
    const int moreWarmup =
        std::min(plan.warmup - 1, static_cast<int>(0.25 * plan.maxSeconds / std::max(*first, 1e-7)));
    for (int i = 0; i < moreWarmup; ++i)
        if (std::string err = launch(); !err.empty())
            return std::unexpected(err);
    if (std::string err = waitAll(streams, plan.hangSeconds); !err.empty())
        return std::unexpected(err);

    // One timed run after the warm-up sizes the batches and the number of samples.
    auto single = timedBatch(streams, 1, plan, launch);
    if (!single)
        return std::unexpected(single.error());
    const double t1 = std::max(*single, 1e-7);
    const int batch = t1 >= plan.minBatchSeconds
                          ? 1
                          : static_cast<int>(std::min(1000.0, std::ceil(plan.minBatchSeconds / t1)));
    int samples = std::max(1, plan.repetitions);
    const double perSample = t1 * batch;
    if (samples * perSample > plan.maxSeconds)
        samples = std::max(3, static_cast<int>(plan.maxSeconds / perSample));
    samples = std::min(samples, std::max(1, plan.repetitions));

    std::vector<double> out;
    out.reserve(static_cast<std::size_t>(samples));
    for (int i = 0; i < samples; ++i) {
        auto t = timedBatch(streams, batch, plan, launch);
        if (!t)
            return std::unexpected(t.error());
        out.push_back(*t);
    }
    return out;
}

std::expected<std::vector<double>, std::string> holdRuns(std::span<TimedStream* const> streams,
                                                         const TimingPlan& plan, const Launch& launch,
                                                         double seconds, double windowSeconds,
                                                         const std::function<bool()>& keepGoing) {
    if (streams.empty())
        return std::unexpected(std::string("no stream to time on"));
    auto single = timedBatch(streams, 1, plan, launch);
    if (!single)
        return std::unexpected(single.error());
    const double t1 = std::max(*single, 1e-7);
    const int count = static_cast<int>(std::clamp(std::ceil(windowSeconds / t1), 1.0, 100000.0));
    std::vector<double> out;
    const auto start = std::chrono::steady_clock::now();
    while (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < seconds) {
        auto t = timedBatch(streams, count, plan, launch);
        if (!t)
            return std::unexpected(t.error());
        out.push_back(*t);
        if (keepGoing && !keepGoing())
            break;
    }
    return out;
}

} // namespace lp::calib::detail
