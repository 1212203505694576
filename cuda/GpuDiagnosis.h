#pragma once
// Why the GPUs of a machine cannot be used, and what to do: whether GPUs are expected at all (the NVIDIA
// driver lists them, or LP_EXPECT_GPU=1), the driver found against the one the build's CUDA runtime
// needs, and the fabric manager of NVSwitch nodes. Plain C++ (no CUDA), in every build and tested on CPUs.
#include <string>
#include <string_view>
#include <vector>

namespace lp::calib {

// The GPU names of `nvidia-smi -L` output ("GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-...)").
std::vector<std::string> listedGpus(std::string_view nvidiaSmiList);

// The driver version in /proc/driver/nvidia/version ("NVRM version: NVIDIA UNIX x86_64 Kernel Module
// 550.54.15 ..." -> "550.54.15"); "" when it is not there.
std::string driverVersionFromProc(std::string_view procText);

// The oldest Linux driver that runs a CUDA runtime of this version (CUDA 13.0 -> "580.65.06", 12.x ->
// "525.60.13", 11.x -> "450.80.02": the CUDA toolkit release notes); "" when unknown.
std::string minimumDriverFor(int cudaRuntimeVersion);

// What a machine says about its driver and toolkits.
struct DriverFacts {
    std::string driverVersion; // "550.54.15" ("" when unknown)
    int driverCudaVersion = 0; // the newest CUDA the driver supports (12040 = 12.4)
    int runtimeVersion = 0;    // the CUDA runtime this build links (13000)
    std::vector<std::string>
        toolkitDirs; // installed CUDA toolkits the driver can run ("/usr/local/cuda-12.4")
};
// The driver, its CUDA version and the toolkits under /usr/local whose version the driver supports.
DriverFacts localDriverFacts(int driverCudaVersion, int runtimeVersion);

// The driver is older than the build's CUDA runtime: the driver found, the one needed, and how to build
// against a CUDA the driver runs instead.
std::string insufficientDriverAdvice(const DriverFacts& facts);

// cudaErrorSystemNotReady (802) on an NVSwitch (HGX/DGX) node: the fabric manager is not running.
std::string systemNotReadyAdvice();

// Whether GPUs should be usable here: LP_EXPECT_GPU=1, or the NVIDIA driver lists some.
struct GpuExpectation {
    bool expected = false;
    std::string why; // "nvidia-smi -L lists 8 GPUs (NVIDIA H100 80GB HBM3)", "LP_EXPECT_GPU=1 is set"
};
// From LP_EXPECT_GPU's value (null when unset) and the text of `nvidia-smi -L`.
GpuExpectation gpuExpectation(const char* expectGpuEnv, std::string_view nvidiaSmiList);
// The same on this machine: `nvidia-smi -L`, or the file LP_NVIDIA_SMI_LIST_FILE names (a fake list, for
// tests).
GpuExpectation localGpuExpectation();

// "nvidia-smi -L lists 2 GPUs (NVIDIA H100 80GB HBM3), but none can be used: <why>".
std::string unusableGpusMessage(const GpuExpectation& expectation, const std::string& why);

// The reason no GPU could be used, with "but none can be used" in front when GPUs are expected here (the
// message the GPU tests fail with and `calibrate` gives).
std::string noGpuMessage(const std::string& why);

} // namespace lp::calib
