#pragma once
// Measurements -> hardware profile. Plain C++ (no CUDA), compiled in every build and tested on CPUs.
//
// Efficiencies are fractions of a reference GPU's nominal figures (its data-sheet peak FLOP/s, HBM and
// NVLink bandwidth). The profile is only meaningful with scenarios on that GPU, so the reference is the
// GPU preset the device matches (its id goes into the profile's gpu_id), or the scenario's own GPU.
#include "core/io/Presets.h"
#include "core/model/Hardware.h"
#include "core/model/Scenario.h"
#include "cuda/Calibrate.h"
#include "cuda/DeviceInfo.h"

#include <expected>
#include <string>
#include <utility>
#include <vector>

namespace lp::calib {

// The GPU whose nominal figures the measurements are divided by.
struct Reference {
    core::GpuSpec gpu;
    std::string how;        // "GPU preset h100-sxm-80gb (matched by the device name)"
    bool estimated = false; // figures estimated from the device's SM count and clocks (no preset)
};

// The GPU preset a device is, from the whole words of its name and its memory ("NVIDIA H100 80GB HBM3"
// -> h100-sxm-80gb, "NVIDIA A100-SXM4-80GB" -> a100-sxm-80gb); nullptr when none has its figures (GH200,
// H20, H100 NVL, PCIe variants without a preset, unknown GPUs).
const core::GpuPreset* matchGpuPreset(const DeviceInfo& device);
// "unknown GPU \"NVIDIA H20\": no GPU preset has its data-sheet figures".
std::string unknownGpuText(const DeviceInfo& device);

// The SM clock the data sheet quotes the architecture's tensor peak at (A100 1,410 MHz, Hopper 1,830 MHz),
// or the device's clock when that is lower or the architecture has no such figure here.
double dataSheetClockHz(const DeviceInfo& device);

// Dense 16-bit FLOPs per clock and SM of an architecture (compute capability); 0 when unknown.
double flopsPerClockPerSm(int ccMajor, int ccMinor);

// Nominal figures estimated from the device: peak = SMs x data-sheet clock x FLOPs per clock and SM, fp8
// twice that from compute capability 8.9, HBM from the memory clock and bus width, NVLink by architecture.
core::GpuSpec estimateGpuSpec(const DeviceInfo& device);

// Picks the reference, in this order: the preset `gpuId` names (an error when unknown); the preset the
// device matches (the scenario's GPU figures when the scenario uses that preset); the scenario's GPU
// when its peak is within 35% of the device's estimate; the estimate.
std::expected<Reference, std::string>
chooseReference(const DeviceInfo& device, const core::Scenario* scenario, const std::string& gpuId = {});

// A curve from scattered (x, y) samples: invalid samples dropped, samples within 1/8 decade of x pooled
// (geometric mean of x, median of y), made non-decreasing in x (pool-adjacent-violators, weighted by the
// samples pooled), then y clamped into [minY, maxY]. x strictly increasing, as profile files require.
core::Curve monotoneCurve(std::vector<std::pair<double, double>> samples, double minY = 1e-4,
                          double maxY = 1.5);

// Per-step latency of the ring model (seconds) from the smallest all-reduce messages: t / (2(n-1));
// 0 when no all-reduce under 1 MiB was measured.
double estimateCommLatency(const CalibrationResult& r);

// A skinny shape of the sweep (sweepGemms: "skinny m x 8192 x 8192"). These stay out of the GEMM curves:
// the core looks the curves up by FLOPs for the layers' shapes, and a memory-bound skinny shape would be
// pooled with a compute-bound square of equal FLOPs (16x8192x8192 and 1024^3).
bool isSkinnySweepShape(const GemmShape& shape);

struct BuiltProfile {
    core::HardwareProfile profile;
    std::vector<std::string> notes; // what was measured and what was kept from the base profile
};

// The measured profile:
//   gemm_efficiency      bf16 GEMMs: achieved FLOP/s / peak16, by FLOPs of one GEMM (2mnk); the
//                        scenario's shapes and the squares (skinny sweep shapes kept apart, in a note)
//   gemm_efficiency_fp8  fp8 GEMMs against peak8 (the base curve when fp8 was not measured)
//                        Each GEMM curve is then scaled by its type's held / short-sample throughput
//                        (CalibrationResult::sustained) when that is below 1: in training the GPU runs at
//                        its power limit, not at the boost clock of short samples.
//   hbm_efficiency       the better of the read-write kernel and the copy: median bandwidth over buffers
//                        of 256 MiB and more / nominal
//   nvlink_bus_efficiency  per message size (1 MiB and up), the median over all-reduce, all-gather and
//                        reduce-scatter of bus bandwidth / nominal NVLink bandwidth, with the ring model's
//                        latency term taken out of the time first (the core adds it back)
//   nvlink_latency_s     estimateCommLatency
// Attention efficiencies, the network curve and latency, and whatever was not measured come from `base`
// (normally the reference GPU's built-in profile). An error when no GEMM was measured.
std::expected<BuiltProfile, std::string> buildProfile(const CalibrationResult& r, const Reference& ref,
                                                      const core::HardwareProfile& base);

// Today's date, ISO 8601 ("2025-01-31"), local time.
std::string todayIso();

} // namespace lp::calib
