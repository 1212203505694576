#pragma once
// The published runs that come with the program (every bundled validation set, ValidationSets.h), predicted
// once (core::validateForTrust): grouped by GPU, framework style and precision (core::GroupSummary), what a
// throughput figure's explanation quotes, and every throughput figure with what makes runs comparable, from
// which each plan's trust band is a lookup (core/measured/TrustBand.h).
#include "core/measured/TrustBand.h"
#include "core/measured/ValidationFolder.h"
#include "core/measured/ValidationRun.h"

#include <optional>
#include <vector>

namespace lp::ui {

// Computed once per process (about 0.2 s) in a worker thread started on first use: the ...IfReady functions
// return nullptr until they are there, the others wait for them.
const core::TrustData* bundledTrustDataIfReady();
const core::TrustData& bundledTrustData();
const std::vector<core::GroupSummary>* bundledValidationGroupsIfReady();
const std::vector<core::GroupSummary>& bundledValidationGroups();
// The plan's trust band (a lookup over the figures), nullopt until the runs are predicted.
std::optional<core::TrustBand> bundledTrustBand(const core::Scenario& s, const core::Plan& plan);

} // namespace lp::ui
