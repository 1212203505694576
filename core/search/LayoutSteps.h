#pragma once
// The values each layout control steps through, and how one change to the layout propagates
// (DP rebalanced to keep the GPU count, or the cluster resized to follow the layout).
// Validity itself is the core's: a step is offered when checkLayout reports no new error for it.
#include "core/model/Scenario.h"

#include <string_view>
#include <vector>

namespace lp::core {

enum class LayoutAxis { Tp, Pp, Dp, Cp, Ep, Vpp, MicroBatch, Accumulation };
inline constexpr int kLayoutAxisCount = static_cast<int>(LayoutAxis::Accumulation) + 1;

int layoutValue(const Layout& l, LayoutAxis axis);
void setLayoutValue(Layout& l, LayoutAxis axis, int value);
std::string_view axisName(LayoutAxis axis); // "TP", "micro batch", ...
int axisMaximum(LayoutAxis axis);           // what a spin box accepts when typed

struct LayoutRules {
    bool keepGpuCount = true;     // TP/PP/CP changes rebalance DP instead of resizing the cluster
    int nodeSize = 8;             // GPUs per full node, restored when the layout grows back to whole nodes
    long long maxGpus = 65536;    // the largest cluster the DP control offers
    bool holdGlobalBatch = false; // accumulation follows DP and micro batch so the global batch stays
};

// Sets accumulation so that micro batch x accumulation x DP equals `globalBatch`; false (and `l`
// unchanged) where the global batch does not split into micro batch x DP.
bool holdGlobalBatch(Layout& l, long long globalBatch);

// The scenario after setting `axis` to `value` under `rules` (with holdGlobalBatch, a change of TP, PP,
// CP, DP or micro batch also sets accumulation where the global batch splits).
Scenario withLayoutValue(const Scenario& s, LayoutAxis axis, int value, const LayoutRules& rules);

// The scenario after a cluster edit: with keepGpuCount, DP follows the new GPU count when it can.
Scenario withClusterRebalanced(const Scenario& s, const LayoutRules& rules);

// Keeps a cluster name of the form "8 x DGX H100" in step with its node count.
void syncClusterName(ClusterSpec& c);

// Sorted values a slider for `axis` offers; the current value is always included (even when invalid).
std::vector<int> validSteps(const Scenario& s, LayoutAxis axis, const LayoutRules& rules);

} // namespace lp::core
