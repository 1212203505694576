#pragma once
// The run a plan is for: its tokens (a number, or a rule from scaling laws or a budget), the loss a published
// fit predicts, cost, energy, and goodput under failures and checkpoints (docs/estimation.md, "Run length,
// cost and goodput").
#include "core/estimate/Diagnostic.h"
#include "core/model/RunOptions.h"

#include <string>
#include <string_view>
#include <vector>

namespace lp::core {

struct Plan;
struct Scenario;

// Hoffmann et al. 2022: the compute-optimal run trains about 20 tokens per parameter.
inline constexpr double kComputeOptimalTokensPerParameter = 20;
// Below this goodput, or above this share of the interval spent writing checkpoints, a diagnostic says so.
inline constexpr double kLowGoodput = 0.9;
inline constexpr double kLongCheckpointShare = 0.1;

// A published fit of the loss, L(N, D) = E + A / N^alpha + B / D^beta.
struct ScalingFit {
    double e = 0;
    double a = 0;
    double b = 0;
    double alpha = 0;
    double beta = 0;
    const char* source = "";
};
const ScalingFit& scalingFit(LossFit fit);
double predictedLoss(const ScalingFit& fit, double parameters, double tokens);

// The compute-optimal model and tokens for a compute budget C = 6 N D at 20 tokens per parameter.
struct ComputeOptimalPoint {
    double parameters = 0;
    double tokens = 0;
};
ComputeOptimalPoint computeOptimalPoint(double computeFlops);

// The checkpoint interval that loses the least time for a pause of `stallSeconds` per checkpoint: Daly 2006's
// higher-order estimate, sqrt(2 d M) x (1 + sqrt(d / 2M) / 3 + d / 18M) - d, which refines Young 1974's
// sqrt(2 d M); M itself when d >= 2M.
double youngDalyInterval(double stallSeconds, double mtbfSeconds);

struct RunPlan {
    TokenRule tokenRule = TokenRule::Tokens;
    double tokens = 0;
    double scalingParameters = 0; // N of the scaling laws: the active parameters (MoE: roughly)
    double tokensPerParameter = 0;
    double computeFlops = 0;            // 6 N D
    ComputeOptimalPoint computeOptimal; // for that compute
    double predictedLoss = 0;
    LossFit lossFit = LossFit::Hoffmann2022;
    // Goodput.
    double nodes = 0;           // nodes the layout's GPUs occupy
    double checkpointBytes = 0; // 16-bit weights + optimizer state, whole model
    double checkpointWriteSeconds = 0;
    double checkpointStallSeconds = 0;    // training paused per checkpoint: the write, or async the host copy
    double checkpointHostBytesPerGpu = 0; // async: what each GPU copies to host memory (its weights + state)
    double jobFailuresPerSecond = 0;
    double mtbfSeconds = 0; // of the whole job (infinite without failures)
    double checkpointIntervalSeconds = 0;
    double lostPerFailureSeconds = 0; // half an interval + restart (+ the write when asynchronous)
    double checkpointOverhead = 0;    // stall / interval
    double goodput = 0;               // ideal time / wall-clock time (0: the run never finishes)
    double idealSeconds = 0;
    double wallClockSeconds = 0;
    double interruptionsPerDay = 0;
    double interruptions = 0; // over the run
    // Cost and energy.
    double gpuHours = 0; // GPUs x wall-clock hours: what is billed
    double pricePerGpuHourUsd = 0;
    // "the scenario", a preset's source, or empty without a price. Views of a literal or of the built-in
    // presets, which live as long as the program: no copy of a source's sentence on every plan.
    std::string_view priceSource;
    double costUsd = 0;
    double costPerMillionTokensUsd = 0;
    double boardPowerWatts = 0;
    std::string_view powerSource; // likewise
    double energyMwh = 0;
};

// The run of a valid plan (its throughput and training state known).
RunPlan planRun(const Scenario& s, const Plan& p);
// The run's diagnostics: a long checkpoint write, low goodput, a run past its deadline.
void diagnoseRun(const Scenario& s, const RunPlan& run, std::vector<Diagnostic>& out);

} // namespace lp::core
