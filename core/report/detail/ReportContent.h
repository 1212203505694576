#pragma once
// What a report says beyond the figures it shares with the command line (core/report/PlanFigures.h), as
// plain (unescaped) key-value lists for the HTML and the Markdown renderers.
#include "core/report/PlanFigures.h"
#include "core/report/Report.h"

namespace lp::core::report {

KeyValues summaryFigures(const ReportInput& r);
KeyValues modelFacts(const Scenario& s, const Plan& p);
KeyValues clusterFacts(const Scenario& s);
KeyValues trainingFacts(const Scenario& s, const Plan& p);
KeyValues layoutFacts(const Scenario& s, const Plan& p);
KeyValues memoryFacts(const Plan& p); // memoryFitFacts, the largest component and the training state
KeyValues utilisationFacts(const Scenario& s, const Plan& p);
KeyValues profileFacts(const ReportInput& r);

} // namespace lp::core::report
