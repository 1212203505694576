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

} // namespace lp::calib
