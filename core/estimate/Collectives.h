#pragma once
// Collective-communication cost model (docs/estimation.md, "Collectives"): ring algorithms over n ranks
// with bus bandwidth B (nominal link bandwidth x achieved efficiency at that message size) and latency a;
// across the network, a ring's efficiency follows its per-step chunk. An all-reduce across NVLink domains
// takes NCCL's ring or its tree, whichever is faster, as NCCL's tuner picks.
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
    // Members of the collective's group in each NVLink domain, where the group spans several domains (a
    // link made by `rails`); 0: the group stays in one domain, where NCCL all-reduces over a ring.
    int membersPerDomain = 0;
    double ringBusBandwidth(int n, double bytes) const {
        return busBandwidth(curveRanks > 0 && n > 0 ? bytes * curveRanks / n : bytes);
    }
    double busBandwidth(double messageBytes) const {
        return bandwidth * efficiencyAt(messageBytes) * efficiencyScale;
    }

    double efficiencyAt(double messageBytes) const {
        if (!efficiency)
            return 1.0;
        if (efficiency != memo.curve || messageBytes != memo.bytes)
            memo = {efficiency, messageBytes, efficiency->at(messageBytes)};
        return memo.efficiency;
    }
    // The curve's value at the last message size asked for: a plan asks for the same collective's figure
    // again for its explanation. Links are made for each plan, never shared between threads.
    struct Memo {
        const Curve* curve = nullptr;
        double bytes = 0, efficiency = 1.0;
    };
    mutable Memo memo{};
};

// The ranks of a two-node nccl-tests run (2 x 8 GPUs), on which network bus-bandwidth curves are measured.
inline constexpr int kNetworkCurveRanks = 16;

// all-reduce: the faster of NCCL's ring, 2(n-1)/n * S/B + 2(n-1) a, and, across NVLink domains, its
// tree (allReduceTreeSeconds)
double allReduceSeconds(int n, double bytes, const Link& link);
// The ring's and the tree's all-reduce apart (the tree: +infinity where the group stays in one domain).
double allReduceRingSeconds(int n, double bytes, const Link& link);
// NCCL's double binary tree across d domains of g members each (n = d x g): a chain through each domain's
// members and a tree of depth ceil(log2 d) across domains, up and down, one latency a per hop:
// 2 (ceil(log2 d) + g - 1) a; its bandwidth is half the bus bandwidth of the whole buffer, less NCCL's
// 8% for the tree (src/graph/tuning.cc): S / (0.46 B(S)).
double allReduceTreeSeconds(int n, double bytes, const Link& link);
// Latency hops of that tree, up and down: 2 (ceil(log2 d) + g - 1); 0 where there is no tree.
int allReduceTreeHops(int n, const Link& link);
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
