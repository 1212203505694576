// HBM bandwidth: device-to-device cudaMemcpy and a read-write kernel.
#include "cuda/detail/HbmBench.h"

#include "cuda/detail/Kernels.h"

namespace lp::calib::detail {

HbmMeasurement benchHbm(TimedStream& stream, const DeviceInfo& device, HbmMethod method, double bytes,
                        const TimingPlan& plan) {
    HbmMeasurement out;
    out.method = method;
    const auto size = static_cast<std::size_t>(bytes) / 16 * 16; // whole 16-byte vectors
    out.bufferBytes = static_cast<double>(size);
    out.bytesMoved = 2.0 * static_cast<double>(size);
    if (size == 0) {
        out.error = "buffer too small";
        return out;
    }
    if (cudaError_t e = cudaSetDevice(stream.device()); e != cudaSuccess) {
        out.error = callError("cudaSetDevice", e);
        return out;
    }
    const double freeBytes = freeDeviceBytes();
    if (freeBytes > 0 && 2.0 * static_cast<double>(size) > 0.95 * freeBytes - 256.0 * 1024 * 1024) {
        out.error = "skipped: needs 2 x " + bytesText(static_cast<double>(size)) + " of GPU memory, " +
                    bytesText(freeBytes) + " free";
        return out;
    }
    DeviceBuffer src, dst;
    if (auto r = src.allocate(size); !r) {
        out.error = r.error();
        return out;
    }
    if (auto r = dst.allocate(size); !r) {
        out.error = r.error();
        return out;
    }
    cudaStream_t st = stream.stream();
    if (cudaError_t e = launchFillBf16(src.get(), size / 2, 7u, st); e != cudaSuccess) {
        out.error = callError("fill kernel", e);
        return out;
    }
    if (cudaError_t e = cudaMemsetAsync(dst.get(), 0, size, st); e != cudaSuccess) {
        out.error = callError("cudaMemsetAsync", e);
        return out;
    }
    const Launch launch = [&]() -> std::string {
        if (method == HbmMethod::Memcpy) {
            const cudaError_t e = cudaMemcpyAsync(dst.get(), src.get(), size, cudaMemcpyDeviceToDevice, st);
            return e == cudaSuccess ? std::string() : callError("cudaMemcpyAsync", e);
        }
        const cudaError_t e = launchReadWrite(src.get(), dst.get(), size, device.smCount, st);
        return e == cudaSuccess ? std::string() : callError("read-write kernel", e);
    };
    TimedStream* streams[] = {&stream};
    auto samples = timeRuns(streams, plan, launch);
    if (!samples) {
        out.error = samples.error();
        return out;
    }
    out.seconds = summarize(std::move(*samples));
    if (out.seconds.median > 0)
        out.bytesPerSecond = out.bytesMoved / out.seconds.median;
    return out;
}

} // namespace lp::calib::detail
