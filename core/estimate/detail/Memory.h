#pragma once
// Memory per GPU and pipeline stage: weights, gradients, optimizer state, activations, overheads, and what
// CPU offloading keeps in host memory (docs/estimation.md, sections 2-4).
#include "core/estimate/detail/EvalContext.h"

namespace lp::core::detail {

// Training-state bytes per parameter, unsharded (ZeRO paper: 2 + 2 + 12 for mixed-precision Adam).
double stateBytesPerParam(const TrainingOptions& t);

// Fills plan.memory and the memory figures of plan.intermediates.
void computeMemory(const EvalContext& x, Plan& plan);

} // namespace lp::core::detail
