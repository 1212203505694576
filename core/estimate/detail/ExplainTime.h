#pragma once
// The step time, figure by figure, in the order of its breakdown.
#include "core/estimate/detail/ExplainText.h"

namespace lp::core::detail {

void explainTime(ExplanationList& list);

} // namespace lp::core::detail
