#pragma once
// Calibration micro-benchmarks on the local GPUs: GEMM throughput (cuBLASLt, bf16 and fp8), HBM
// bandwidth and NCCL collectives; runCalibration with its request and result. A plain C++ header (no
// CUDA types), so core, ui and app include it without nvcc. A CUDA build implements it in Calibrate.cpp,
// a build without CUDA in CalibrateStub.cpp (which says so); without a driver or a GPU at run time the
// result carries the error - never an abort.
#include "cuda/DeviceInfo.h"
#include "cuda/Measurements.h"

#include <functional>
#include <string>
#include <vector>

namespace lp::calib {

struct CalibrationRequest {
    int device = 0;                // GPU the GEMM and HBM benchmarks run on
    std::vector<GemmShape> gemms;  // measured in bf16, and in fp8 where supported
    bool fp8 = true;               // also fp8 (compute capability 8.9 and later)
    std::vector<double> hbmBytes;  // buffer sizes for the bandwidth benchmarks
    std::vector<double> commBytes; // NCCL message sizes (with two or more GPUs)
    bool nccl = true;
    bool verify = true;             // correctness checks before timing (CorrectnessCheck)
    int maxGpus = 0;                // GPUs the collectives span (0: all local GPUs)
    int warmup = 3;                 // untimed runs before timing
    int repetitions = 10;           // timed runs; the median is reported
    double maxSecondsPerItem = 2.0; // fewer repetitions for items slower than this
    // After the sweep, the fastest bf16 (and fp8) GEMM is run back to back for this long: the throughput
    // the GPU holds at its power limit, as in training, rather than at boost clock (0: not measured).
    double sustainSeconds = 0;
};

struct CalibrationResult {
    bool ok = false; // ran to the end (individual items may still carry errors)
    bool cancelled = false;
    std::string error;     // why it stopped, when !ok and !cancelled
    DeviceInfo device;     // the GPU of the GEMM and HBM benchmarks
    int gpuCount = 0;      // GPUs the collectives ran on (0: none)
    std::string date;      // ISO date of the run ("2025-01-31")
    std::string libraries; // "cuBLASLt 13.0.0, NCCL 2.28.9"
    std::vector<GemmMeasurement> gemms;
    std::vector<SustainedGemm> sustained; // one per GEMM type held (bf16, fp8)
    std::vector<HbmMeasurement> hbm;
    std::vector<CommMeasurement> comm;
    std::vector<CorrectnessCheck> checks; // when the request asked for them
    std::vector<std::string> notes;       // skipped parts and why ("fp8: needs compute capability 8.9")
    double elapsedSeconds = 0;
};

// Reported before each item and once at the end (done == total). `partial` holds what has been
// measured so far, for live charts. The callback runs on the calibrating thread; returning false
// cancels the run after the current item.
struct Progress {
    int done = 0;
    int total = 0;
    std::string phase; // "GEMM", "HBM", "NCCL"
    std::string item;  // "bf16 qkv fwd 8192x1280x8192"
    const CalibrationResult* partial = nullptr;
};
using ProgressCallback = std::function<bool(const Progress&)>;

// Runs the benchmarks. Never throws and never aborts: CUDA, cuBLAS and NCCL errors become
// CalibrationResult::error (a whole-run failure) or an item's error.
CalibrationResult runCalibration(const CalibrationRequest& request, const ProgressCallback& progress = {});

} // namespace lp::calib
