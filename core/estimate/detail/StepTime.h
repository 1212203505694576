#pragma once
// The step time: every micro batch through the pipeline, its bubble, the data-parallel reduction, the
// optimizer step, the loader and stragglers, and the FLOPs per token (docs/estimation.md, sections 5-6).
#include "core/estimate/detail/EvalContext.h"

namespace lp::core::detail {

// Fills plan.time and the step-time figures of plan.intermediates; needs computeMemory's figures first.
void computeTime(const EvalContext& x, Plan& plan);

} // namespace lp::core::detail
