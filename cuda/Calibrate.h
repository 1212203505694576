#pragma once
// Calibration micro-benchmarks on the local GPUs: GEMM throughput (cuBLASLt, bf16 and fp8), HBM
// bandwidth and NCCL collectives. A plain C++ header (no CUDA types), so core, ui and app include it
// without nvcc. Without a CUDA build the same functions exist and say so; without a driver or a GPU at
// run time they return an empty list or an error message - never an abort.
#include <functional>
#include <string>
#include <vector>

namespace lp::calib {

// One local GPU as the CUDA runtime reports it.
struct DeviceInfo {
    int index = 0;
    std::string name; // "NVIDIA H100 80GB HBM3"
    int smCount = 0;
    double memoryBytes = 0;   // total device memory
    double smClockHz = 0;     // peak SM clock
    double memoryClockHz = 0; // peak memory clock
    int memoryBusWidthBits = 0;
    int ccMajor = 0; // compute capability
    int ccMinor = 0;
    int driverVersion = 0; // CUDA encoding: 13000 = 13.0
    int runtimeVersion = 0;

    std::string computeCapability() const; // "9.0"
    // Nominal memory bandwidth from the clocks and bus width (bytes/s; 0 when unknown).
    double nominalMemoryBandwidth() const;
};

// "13.0" from 13000.
std::string cudaVersionString(int version);

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

struct CalibrationRequest {
    int device = 0;                // GPU the GEMM and HBM benchmarks run on
    std::vector<GemmShape> gemms;  // measured in bf16, and in fp8 where supported
    bool fp8 = true;               // also fp8 (compute capability 8.9 and later)
    std::vector<double> hbmBytes;  // buffer sizes for the bandwidth benchmarks
    std::vector<double> commBytes; // NCCL message sizes (with two or more GPUs)
    bool nccl = true;
    int maxGpus = 0;                // GPUs the collectives span (0: all local GPUs)
    int warmup = 3;                 // untimed runs before timing
    int repetitions = 10;           // timed runs; the median is reported
    double maxSecondsPerItem = 2.0; // fewer repetitions for items slower than this
    // After the sweep, the fastest bf16 (and fp8) GEMM is run back to back for this long: the throughput
    // the GPU holds at its power limit, as in training, rather than at boost clock (0: not measured).
    double sustainSeconds = 0;
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
    std::string error;
    bool ok() const { return error.empty() && seconds.samples > 0; }
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
    std::vector<std::string> notes; // skipped parts and why ("fp8: needs compute capability 8.9")
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
