#pragma once
// The published runs that come with the program (every bundled validation set, ValidationSets.h), predicted
// and grouped by GPU, framework style and precision (core::GroupSummary): what a throughput figure's
// explanation quotes to say how far to trust it (core/measured/ValidationTrust.h).
#include "core/measured/ValidationRun.h"

#include <vector>

namespace lp::ui {

// Computed once per process (about 0.2 s) in a worker thread started on first use:
// bundledValidationGroupsIfReady returns nullptr until they are there, bundledValidationGroups waits for
// them.
const std::vector<core::GroupSummary>* bundledValidationGroupsIfReady();
const std::vector<core::GroupSummary>& bundledValidationGroups();

} // namespace lp::ui
