#pragma once
// Collective-communication cost model (docs/estimation.md, "Step time"): ring algorithms over n ranks
// with bus bandwidth B (nominal link bandwidth x achieved efficiency at that message size) and latency a.
#include "core/model/Hardware.h"

namespace lp::core {

struct Link {
    double bandwidth = 0; // nominal bytes/s per GPU, one direction
    const Curve* efficiency = nullptr;
    double latencySeconds = 0;
    double busBandwidth(double messageBytes) const {
        const double e = efficiency ? efficiency->at(messageBytes) : 1.0;
        return bandwidth * e;
    }
};

// all-reduce: 2(n-1)/n * S/B + 2(n-1) a
double allReduceSeconds(int n, double bytes, const Link& link);
// all-gather or reduce-scatter of a full buffer of S bytes: (n-1)/n * S/B + (n-1) a
double allGatherSeconds(int n, double bytes, const Link& link);
// point-to-point send of S bytes: S/B + a
double sendSeconds(double bytes, const Link& link);

// The share of overlapped communication still paid: communication kernels running beside compute take
// SMs (NCCL channels, userbuffers kernels) and memory bandwidth from the kernels they hide behind.
inline constexpr double kOverlapResidual = 0.2;

// Time that communication of `comm` seconds adds when it overlaps a compute window of `window` seconds:
// whatever exceeds the window, plus the residual of the hidden part.
double overlappedSeconds(double comm, double window);

} // namespace lp::core
