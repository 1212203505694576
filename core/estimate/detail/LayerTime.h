#pragma once
// What one layer costs for one micro batch on one GPU: GEMMs, the attention core, memory-bound kernels and
// the tensor-, context- and expert-parallel communication (docs/estimation.md, "Step time").
#include "core/estimate/detail/EvalContext.h"

namespace lp::core::detail {

struct LayerTimes {
    double gemmFwd = 0; // linear layers, forward
    double attnFwd = 0; // attention core forward
    double attnBwd = 0;
    double memFwd = 0;          // memory-bound kernels, forward
    double attnMemFwd = 0;      // the part of memFwd that belongs to the attention core (softmax, dropout)
    double tpCollective = 0;    // one TP collective (all-reduce, or all-gather + reduce-scatter with SP)
    double tpCollectiveFwd = 0; // the same in a forward pass (fp8 all-gathers in torch's fp8 TP)
    double cpFwd = 0;           // exposed ring-attention exchange, forward
    double cpBwd = 0;
    double epPerPass = 0;  // MoE token all-to-all (dispatch + combine) per pass
    double cpMergeFwd = 0; // context parallel: merging the ring steps' partial results (memory-bound)
    double cpMergeBwd = 0;
    double moduleRecomputeFwd = 0; // Megatron-Core's selective recompute by module (not the attention core)
    double rematRecomputeFwd = 0;  // what a JAX/MaxText remat policy re-runs (TrainingOptions::rematPolicy)
    double fwd() const { return gemmFwd + attnFwd + memFwd + cpMergeFwd; }
    double bwd() const { return 2.0 * gemmFwd + attnBwd + 2.0 * memFwd + cpMergeBwd; }
};

// The times of one layer (dense and MoE layers weighted by their share); fills the per-layer figures of
// `im` the explanations quote.
LayerTimes layerTimes(const EvalContext& x, Intermediates& im);

} // namespace lp::core::detail
