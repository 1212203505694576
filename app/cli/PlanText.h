#pragma once
// A Plan as readable text: the scenario in one screen, memory per stage, the time breakdown,
// utilisation, throughput, training time and diagnostics; and the explanations (--explain).
#include "core/estimate/Explain.h"
#include "core/estimate/Plan.h"
#include "core/measured/TrustBand.h"
#include "core/model/Scenario.h"

#include <string>
#include <vector>

namespace lp::cli {

std::string renderScenarioSummary(const core::Scenario& s, const core::Plan& p);
std::string renderMemory(const core::Plan& p);
// Which tensors are kept in which number format (fp8 extras when fp8 is on).
std::string renderPrecision(const core::Scenario& s, const core::Plan& p);
// With a trust band, its sentence under the breakdown and the MFU and tokens/s bands beside their figures.
std::string renderTime(const core::Plan& p, const core::TrustBand* trust = nullptr);
std::string renderThroughput(const core::Scenario& s, const core::Plan& p,
                             const core::TrustBand* trust = nullptr);
std::string renderDiagnostics(const core::Plan& p);

// Everything above; an invalid plan shows only the summary and its diagnostics.
std::string renderPlanText(const core::Scenario& s, const core::Plan& p,
                           const core::TrustBand* trust = nullptr);

// "label = value", then formula, substituted values, source and words, per explanation of the plan; the
// values as every view prints them (core::explanationValueText).
std::string renderExplanations(const core::Scenario& s, const core::Plan& p);

} // namespace lp::cli
