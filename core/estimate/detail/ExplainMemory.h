#pragma once
// The memory figures of the worst pipeline stage: weights, gradients, optimizer state, activations,
// overheads, total and headroom, and what CPU offloading keeps in host memory.
#include "core/estimate/detail/ExplainText.h"

namespace lp::core::detail {

void explainMemory(ExplanationList& list);

} // namespace lp::core::detail
