#pragma once
// The model and layout figures: parameters, the training state, GPUs, batch and tokens per step.
#include "core/estimate/detail/ExplainText.h"

namespace lp::core::detail {

void explainModel(ExplanationList& list);

} // namespace lp::core::detail
