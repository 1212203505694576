#pragma once
// The local GPUs and what the build and the machine provide for calibrating them. A plain C++ header:
// a CUDA build implements it in Device.cpp, a build without CUDA in DeviceStub.cpp (the functions exist
// and say so). Without a driver or a GPU at run time they return an empty list and the reason.
#include "cuda/DeviceInfo.h"

#include <string>
#include <vector>

namespace lp::calib {

// Whether this build contains the CUDA micro-benchmarks.
bool hasCudaSupport();
// What the build links against ("CUDA runtime 13.0, cuBLASLt, NCCL 2.28.9") or why it cannot calibrate.
std::string buildDescription();
// Loads cuBLASLt and NCCL (no GPU needed) and says which were found: "cuBLASLt 13.0.2
// (libcublasLt.so.13); NCCL 2.28.9 (libnccl.so.2)", or why one cannot be loaded.
std::string runtimeLibraries();
// The message every entry point gives in a build without CUDA.
inline constexpr const char* kNoCudaBuildMessage =
    "this build has no CUDA support: rebuild with the CUDA toolkit installed (LP_BUILD_CUDA=ON)";

// The local GPUs. Empty with *whyNot set (when given) when there is none to use: no CUDA in the build,
// no driver ("CUDA driver version is insufficient for CUDA runtime version"), or no device.
std::vector<DeviceInfo> detectGpus(std::string* whyNot = nullptr);

} // namespace lp::calib
