#pragma once
// What the calibration measures: the GEMM shapes of a scenario's layers, a sweep of square and skinny
// GEMMs, HBM buffer sizes and NCCL message sizes. Plain C++ (no CUDA), in every build.
#include "core/model/Scenario.h"
#include "cuda/Calibrate.h"

#include <vector>

namespace lp::calib {

// The linear-layer GEMMs of one micro batch on one GPU under the scenario's TP, CP and micro batch:
// QKV, attention output, MLP up and down (dense layers; the experts' share of tokens for MoE layers),
// LM head; each in its forward shape and its two backward
// shapes (input gradient, weight gradient). With T = micro batch x sequence / CP tokens and a layer
// mapping `in` features to `out` features (one TP shard of them):
//   forward      m = T,  n = out, k = in
//   input grad   m = T,  n = in,  k = out
//   weight grad  m = in, n = out, k = T
// Duplicate shapes are listed once.
std::vector<GemmShape> scenarioGemms(const core::Scenario& s);

// Square GEMMs (256 to 16384) and skinny ones (few rows against an 8192 x 8192 weight).
std::vector<GemmShape> sweepGemms(bool quick);

// Buffer sizes for the HBM benchmarks (1 MiB to 4 GiB; quick: 16 MiB to 1 GiB).
std::vector<double> hbmSizes(bool quick);

// NCCL message sizes: 8 KiB and 64 KiB (latency), then powers of two from 1 MiB to 1 GiB (quick: every
// fourth), plus the scenario's TP and data-parallel message sizes (at most 1 GiB) when one is given.
std::vector<double> commSizes(bool quick, const core::Scenario* s);

// How long the fastest GEMM of each type is held at the power limit (CalibrationRequest::sustainSeconds).
inline constexpr double kFullSustainSeconds = 15.0;
inline constexpr double kQuickSustainSeconds = 4.0;

// The whole request: the scenario's shapes (when given) and the sweep, the sizes above, the GEMM hold,
// and fewer repetitions and a shorter hold when quick.
CalibrationRequest makeRequest(const core::Scenario* s, bool quick);

} // namespace lp::calib
