#pragma once
// What a calibration measured against the reference GPU's data-sheet figures, in words: the best GEMM
// throughput, the scenario's GEMMs, the throughput held at the power limit, HBM and NCCL bandwidth. Plain
// C++ (no CUDA), in every build; the window's Calibrate tab shows these lines.
#include "core/model/Hardware.h"
#include "cuda/Calibrate.h"

#include <string>
#include <vector>

namespace lp::calib {

// Whether a GEMM is one of the sweep's (sweepGemms: "square N", "skinny ...") rather than a scenario's shape.
bool isSweepShape(const GemmShape& shape);

// "612.3 TFLOP/s" (a measurement) and "989 TFLOP/s" (a data-sheet peak).
std::string tflopsText(double flopsPerSecond);
std::string peakTflopsText(double flopsPerSecond);

// One line per finding, e.g. "bf16 GEMM: up to 612.3 TFLOP/s (61.9% of 989 TFLOP/s)"; empty when the run
// measured nothing to summarise (it failed before its first GEMM). The run's notes are not included.
std::vector<std::string> measurementSummary(const CalibrationResult& result, const core::GpuSpec& reference);

// The least a healthy node reaches, as fractions of the reference GPU's data-sheet figures: the GPU
// tests' acceptance bounds and docs/calibration.md's first-run checklist. Hopper SXM parts (H100, H800,
// H200): bf16 8192^3 0.60, fp8 0.55, HBM 0.75, a 64 MiB all-reduce over NVSwitch half the NVLink
// figure; any other GPU only loose sanity bounds (0 where nothing is checked).
struct AcceptanceBounds {
    double bf16 = 0.2;         // bf16 8192^3 GEMM over the bf16 peak
    double fp8 = 0;            // fp8 8192^3 GEMM over the fp8 peak
    double hbm = 0.3;          // the better HBM method over nominal
    double allReduce64MiB = 0; // 64 MiB all-reduce bus bandwidth over the NVLink figure
    bool strict = false;       // the Hopper SXM bounds
};
AcceptanceBounds acceptanceBounds(const std::string& presetId);

} // namespace lp::calib
