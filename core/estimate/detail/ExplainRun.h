#pragma once
// The run: its tokens and the loss a fit predicts, checkpoints, failures and goodput, cost and energy.
#include "core/estimate/detail/ExplainText.h"

namespace lp::core::detail {

void explainRun(ExplanationList& list);

} // namespace lp::core::detail
