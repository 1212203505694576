// GPU detection: which local GPUs there are, or why there are none; what the build and the machine provide.
#include "cuda/Device.h"

#include "cuda/GpuDiagnosis.h"
#include "cuda/detail/CudaUtil.h"
#include "cuda/detail/DynamicLibs.h"

#include <cublas_api.h>
#if defined(LP_HAVE_NCCL)
#include <nccl.h>
#endif

#include <cstdlib>

namespace lp::calib {
namespace {

std::string noGpuReason(cudaError_t e) {
    switch (e) {
    case cudaErrorInsufficientDriver: {
        int driverCuda = 0;
        (void)cudaDriverGetVersion(&driverCuda);
        (void)cudaGetLastError();
        if (driverCuda <= 0)
            return detail::cudaErrorText(e) + ": no NVIDIA driver is installed (this build's CUDA runtime " +
                   cudaVersionString(CUDART_VERSION) + " needs driver " + minimumDriverFor(CUDART_VERSION) +
                   " or newer)";
        return detail::cudaErrorText(e) + ": " +
               insufficientDriverAdvice(localDriverFacts(driverCuda, CUDART_VERSION));
    }
    case cudaErrorSystemNotReady:
        return detail::cudaErrorText(e) + ": " + systemNotReadyAdvice();
    case cudaErrorNoDevice: {
        std::string out = detail::cudaErrorText(e);
        if (const char* visible = std::getenv("CUDA_VISIBLE_DEVICES"))
            out += " (CUDA_VISIBLE_DEVICES is set to \"" + std::string(visible) + "\")";
        return out;
    }
    case cudaErrorStubLibrary:
        return detail::cudaErrorText(e) +
               ": the libcuda found is the toolkit's link stub (a stubs folder on LD_LIBRARY_PATH?), not the "
               "NVIDIA driver; remove it from the library path and install the driver";
    default:
        return "the CUDA runtime cannot use the GPUs: " + detail::cudaErrorText(e);
    }
}

// The device's properties (the caller has checked that the index exists).
std::expected<DeviceInfo, std::string> queryDevice(int index) {
    cudaDeviceProp prop{};
    if (cudaError_t e = cudaGetDeviceProperties(&prop, index); e != cudaSuccess) {
        (void)cudaGetLastError();
        return std::unexpected("GPU " + std::to_string(index) + ": " +
                               detail::callError("cudaGetDeviceProperties", e));
    }
    DeviceInfo d;
    d.index = index;
    d.name = prop.name;
    d.smCount = prop.multiProcessorCount;
    d.memoryBytes = static_cast<double>(prop.totalGlobalMem);
    d.memoryBusWidthBits = prop.memoryBusWidth;
    d.ccMajor = prop.major;
    d.ccMinor = prop.minor;
    int kHz = 0;
    if (cudaDeviceGetAttribute(&kHz, cudaDevAttrClockRate, index) == cudaSuccess)
        d.smClockHz = kHz * 1e3;
    if (cudaDeviceGetAttribute(&kHz, cudaDevAttrMemoryClockRate, index) == cudaSuccess)
        d.memoryClockHz = kHz * 1e3;
    (void)cudaDriverGetVersion(&d.driverVersion);
    (void)cudaRuntimeGetVersion(&d.runtimeVersion);
    (void)cudaGetLastError();
    return d;
}

} // namespace

bool hasCudaSupport() {
    return true;
}

std::string buildDescription() {
    std::string out = "built with the CUDA runtime " + cudaVersionString(CUDART_VERSION) +
                      " (linked statically), cuBLASLt " + std::to_string(CUBLAS_VER_MAJOR) + "." +
                      std::to_string(CUBLAS_VER_MINOR);
#if defined(LP_HAVE_NCCL)
    out += ", NCCL " + std::to_string(NCCL_MAJOR) + "." + std::to_string(NCCL_MINOR) + "." +
           std::to_string(NCCL_PATCH);
#else
    out += ", without NCCL (collectives are not measured)";
#endif
    return out + "; cuBLASLt and NCCL are loaded when a calibration runs";
}

std::string runtimeLibraries() {
    std::string why;
    std::string out;
    if (const detail::CublasLtApi* lt = detail::cublasLt(&why))
        out = "cuBLASLt " + lt->versionText() + " (" + lt->library + ")";
    else
        out = why;
#if defined(LP_HAVE_NCCL)
    if (const detail::NcclApi* n = detail::nccl(&why))
        out += "; NCCL " + n->versionText() + " (" + n->library + ")";
    else
        out += "; " + why;
#else
    out += "; no NCCL in this build";
#endif
    return out;
}

std::vector<DeviceInfo> detectGpus(std::string* whyNot) {
    std::vector<DeviceInfo> out;
    int count = 0;
    const cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess) {
        (void)cudaGetLastError();
        if (whyNot)
            *whyNot = noGpuMessage(noGpuReason(e));
        return out;
    }
    if (count <= 0) {
        if (whyNot)
            *whyNot = noGpuMessage(noGpuReason(cudaErrorNoDevice));
        return out;
    }
    std::string firstError;
    for (int i = 0; i < count; ++i) {
        auto d = queryDevice(i);
        if (d)
            out.push_back(std::move(*d));
        else if (firstError.empty())
            firstError = d.error();
    }
    if (out.empty() && whyNot)
        *whyNot = noGpuMessage(firstError);
    return out;
}

} // namespace lp::calib
