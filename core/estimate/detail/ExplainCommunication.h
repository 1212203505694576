#pragma once
// The exposed communication of each kind of parallelism, one explanation each.
#include "core/estimate/detail/ExplainText.h"

namespace lp::core::detail {

void explainTpComm(ExplanationList& list);
void explainPpComm(ExplanationList& list);
void explainCpComm(ExplanationList& list);
void explainEpComm(ExplanationList& list);
void explainDpComm(ExplanationList& list);

} // namespace lp::core::detail
