#pragma once
// The rates: FLOPs per token, MFU, HFU, the 6ND yardstick, throughput and the cost of the token budget.
#include "core/estimate/detail/ExplainText.h"

namespace lp::core::detail {

void explainRates(ExplanationList& list);

} // namespace lp::core::detail
