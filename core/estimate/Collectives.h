#pragma once
// Collective-communication cost model (docs/estimation.md, "Collectives"): ring algorithms over n ranks
// with bus bandwidth B (nominal link bandwidth x achieved efficiency at that message size) and latency a;
// across the network, a ring's efficiency follows its per-step chunk.
#include "core/model/Hardware.h"

namespace lp::core {

struct Link {
    double bandwidth = 0; // nominal bytes/s per GPU, one direction
    const Curve* efficiency = nullptr;
    double latencySeconds = 0;
    // Ranks of the ring the efficiency curve was measured on; 0: the curve holds for every ring size
    // (NVLink). A ring of n moves chunks of S/n per step, so over n ranks a buffer of S runs at the curve's
    // efficiency for S x curveRanks / n.
    int curveRanks = 0;
    // The fabric's share of the curve (networkEfficiencyScale): 1 on NVLink and InfiniBand.
    double efficiencyScale = 1.0;
    double ringBusBandwidth(int n, double bytes) const {
        return busBandwidth(curveRanks > 0 && n > 0 ? bytes * curveRanks / n : bytes);
    }
    double busBandwidth(double messageBytes) const {
        const double e = efficiency ? efficiency->at(messageBytes) : 1.0;
        return bandwidth * e * efficiencyScale;
    }
};

// The ranks of a two-node nccl-tests run (2 x 8 GPUs), on which network bus-bandwidth curves are measured.
inline constexpr int kNetworkCurveRanks = 16;

// all-reduce: 2(n-1)/n * S/B + 2(n-1) a (a ring; NCCL's tree is not modelled)
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
