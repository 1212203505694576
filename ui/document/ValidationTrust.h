#pragma once
// How far to trust a throughput figure: how far the planner was off on the published runs that come with it
// (every bundled validation set, ValidationSets.h) that share the plan's GPU, framework style and precision,
// the parameters the planner's estimates depend on (core::GroupSummary). The explanation of a throughput
// figure quotes it, so the number on screen comes with its measured error band.
#include "core/measured/ValidationRun.h"
#include "core/model/Scenario.h"

#include <QString>

#include <vector>

namespace lp::ui {

// The groups over every bundled set, computed once per process (about 0.2 s) in a worker thread started on
// first use: bundledValidationGroupsIfReady returns nullptr until they are there, bundledValidationGroups
// waits for them.
const std::vector<core::GroupSummary>* bundledValidationGroupsIfReady();
const std::vector<core::GroupSummary>& bundledValidationGroups();
// The group of a scenario as planned, or nullptr when no published run like it comes with the program.
const core::GroupSummary* validationGroupFor(const core::Scenario& s,
                                             const std::vector<core::GroupSummary>& groups);
// One sentence for the explanation: the group's median error and its direction, or that there is none.
QString trustSentence(const core::Scenario& s, const std::vector<core::GroupSummary>& groups);
// The figures whose explanation carries it: those that follow from the predicted step time.
bool isThroughputFigure(const QString& key);

} // namespace lp::ui
