#pragma once
// What the calibration measures and what it reports: GEMM shapes and types, HBM methods, collectives,
// timing statistics and one record per measured item. Plain C++ (no CUDA types), used in every build.
#include <string>
#include <vector>

namespace lp::calib {

// ------------------------------------------------------------------------------------------------
// What to measure

enum class GemmDtype { Bf16, Fp8 };
enum class HbmMethod { Memcpy, Kernel }; // cudaMemcpy device to device; a read-write kernel
enum class Collective { AllReduce, AllGather, ReduceScatter, SendRecv };

const char* toString(GemmDtype d);
const char* toString(HbmMethod m);
const char* toString(Collective c);

// C[m x n] = A[m x k] * B[k x n]; 2mnk FLOPs.
struct GemmShape {
    std::string label; // "qkv fwd", "square 4096", "skinny 16x8192x8192"
    long long m = 0;
    long long n = 0;
    long long k = 0;
    double flops() const {
        return 2.0 * static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k);
    }
    bool operator==(const GemmShape&) const = default;
};

// ------------------------------------------------------------------------------------------------
// What was measured

// Summary of repeated timings (seconds).
struct Stats {
    double median = 0;
    double min = 0;
    double max = 0;
    double spread = 0; // (p90 - p10) / median: 0.02 = the middle 80% within 2% of each other
    int samples = 0;
};
Stats summarize(std::vector<double> samples);

struct GemmMeasurement {
    GemmShape shape;
    GemmDtype dtype = GemmDtype::Bf16;
    Stats seconds;
    double flopsPerSecond = 0; // achieved, from the median
    int algorithmsTimed = 0;   // cuBLASLt heuristic candidates timed
    int algorithmRank = 0;     // the fastest one's place in the heuristic's list (0: its first choice)
    std::string error;         // non-empty: not measured (why)
    bool ok() const { return error.empty() && seconds.samples > 0; }
};

// A GEMM held back to back for seconds (CalibrationRequest::sustainSeconds). Short samples run at the
// boost clock; a GPU kept busy, as in training, settles at its power limit and a lower clock.
struct SustainedGemm {
    GemmShape shape;
    GemmDtype dtype = GemmDtype::Bf16;
    double windowSeconds = 0;        // length of one timed window
    std::vector<double> windowFlops; // achieved FLOP/s in each window, in order
    double heldFlopsPerSecond = 0;   // the median over the second half of the windows
    double burstFlopsPerSecond = 0;  // the same shape's short samples in the sweep
    std::string error;
    bool ok() const { return error.empty() && heldFlopsPerSecond > 0; }
    // Held over short-sample throughput (0 when either is missing).
    double ratio() const {
        return ok() && burstFlopsPerSecond > 0 ? heldFlopsPerSecond / burstFlopsPerSecond : 0.0;
    }
};

struct HbmMeasurement {
    HbmMethod method = HbmMethod::Kernel;
    double bufferBytes = 0;
    double bytesMoved = 0; // read + written per run
    Stats seconds;
    double bytesPerSecond = 0; // achieved, from the median
    std::string error;
    bool ok() const { return error.empty() && seconds.samples > 0; }
};

struct CommMeasurement {
    Collective op = Collective::AllReduce;
    int ranks = 0;
    double bytes = 0; // message size (all-reduce buffer, all-gather output, bytes sent)
    Stats seconds;
    double algBytesPerSecond = 0; // bytes / time
    double busBytesPerSecond = 0; // nccl-tests bus bandwidth: all-reduce x 2(n-1)/n, gathers x (n-1)/n
    // How it was driven: "CUDA graph of 16 per GPU" (the host's enqueue time left out, as a job with one
    // process per GPU sees it) or "one host thread enqueuing on every GPU" (after a failed capture).
    std::string method;
    std::string error;
    bool ok() const { return error.empty() && seconds.samples > 0; }
};

// A check that a benchmark computes the right thing, not only fast: a GEMM against a host reference, an
// all-reduce of known values.
struct CorrectnessCheck {
    std::string what; // "bf16 GEMM 320x192x208 (A transposed) against a host reference"
    bool passed = false;
    std::string detail; // "exact", "element (3, 7): 12 instead of 13", or why it could not run
};

} // namespace lp::calib
