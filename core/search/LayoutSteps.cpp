#include "core/search/LayoutSteps.h"

#include "core/estimate/Evaluate.h"

#include <algorithm>
#include <bitset>
#include <string>

namespace lp::core {
namespace {

using ErrorSet = std::bitset<kDiagnosticCount>;

ErrorSet errorsOf(const Scenario& s) {
    ErrorSet set;
    for (const Diagnostic& d : checkLayout(s))
        if (d.severity == Severity::Error)
            set.set(static_cast<std::size_t>(d.id));
    return set;
}

// Sets the cluster size to the layout's GPU count in whole nodes, or one partial node.
void resizeClusterToLayout(Scenario& s, int nodeSize) {
    const long long gpus = s.layout.gpus();
    if (gpus <= 0 || nodeSize <= 0)
        return;
    if (gpus % nodeSize == 0) {
        s.cluster.gpusPerNode = nodeSize;
        s.cluster.nodes = static_cast<int>(gpus / nodeSize);
    } else if (nodeSize % gpus == 0) {
        s.cluster.gpusPerNode = static_cast<int>(gpus);
        s.cluster.nodes = 1;
    }
    // Otherwise the cluster stays as it is and the core reports the GPU-count mismatch.
    syncClusterName(s.cluster);
}

bool nodeCompatible(long long gpus, int nodeSize) {
    return gpus > 0 && nodeSize > 0 && (gpus % nodeSize == 0 || nodeSize % gpus == 0);
}

int candidateLimit(const Scenario& s, LayoutAxis axis) {
    switch (axis) {
    case LayoutAxis::Tp:
        return std::clamp(s.model.heads, 1, 1024);
    case LayoutAxis::Pp:
        return std::clamp(s.model.layers, 1, 1024);
    case LayoutAxis::Vpp:
        return std::clamp(s.model.layers / std::max(1, s.layout.pp), 1, 1024);
    case LayoutAxis::Cp:
        return 64;
    case LayoutAxis::Ep:
        return std::clamp(s.model.moe.experts, 1, 1024);
    case LayoutAxis::MicroBatch:
        return 64;
    case LayoutAxis::Accumulation:
        return 512;
    case LayoutAxis::Dp:
        return 65536;
    }
    return 1;
}

// Whether PP x VPP divides the layers (the slider offers even pipeline splits).
bool evenSplitOf(const Scenario& s) {
    const long long chunks = static_cast<long long>(s.layout.pp) * s.layout.vpp;
    return chunks > 0 && s.model.layers % chunks == 0;
}

} // namespace

int layoutValue(const Layout& l, LayoutAxis axis) {
    switch (axis) {
    case LayoutAxis::Tp:
        return l.tp;
    case LayoutAxis::Pp:
        return l.pp;
    case LayoutAxis::Dp:
        return l.dp;
    case LayoutAxis::Cp:
        return l.cp;
    case LayoutAxis::Ep:
        return l.ep;
    case LayoutAxis::Vpp:
        return l.vpp;
    case LayoutAxis::MicroBatch:
        return l.microBatch;
    case LayoutAxis::Accumulation:
        return l.accumulation;
    }
    return 0;
}

void setLayoutValue(Layout& l, LayoutAxis axis, int value) {
    switch (axis) {
    case LayoutAxis::Tp:
        l.tp = value;
        break;
    case LayoutAxis::Pp:
        l.pp = value;
        break;
    case LayoutAxis::Dp:
        l.dp = value;
        break;
    case LayoutAxis::Cp:
        l.cp = value;
        break;
    case LayoutAxis::Ep:
        l.ep = value;
        break;
    case LayoutAxis::Vpp:
        l.vpp = value;
        break;
    case LayoutAxis::MicroBatch:
        l.microBatch = value;
        break;
    case LayoutAxis::Accumulation:
        l.accumulation = value;
        break;
    }
}

std::string_view axisName(LayoutAxis axis) {
    switch (axis) {
    case LayoutAxis::Tp:
        return "TP";
    case LayoutAxis::Pp:
        return "PP";
    case LayoutAxis::Dp:
        return "DP";
    case LayoutAxis::Cp:
        return "CP";
    case LayoutAxis::Ep:
        return "EP";
    case LayoutAxis::Vpp:
        return "virtual stages";
    case LayoutAxis::MicroBatch:
        return "micro batch";
    case LayoutAxis::Accumulation:
        return "accumulation";
    }
    return {};
}

int axisMaximum(LayoutAxis axis) {
    switch (axis) {
    case LayoutAxis::Dp:
        return 65536;
    case LayoutAxis::Accumulation:
        return 4096;
    case LayoutAxis::MicroBatch:
        return 1024;
    default:
        return 1024;
    }
}

void syncClusterName(ClusterSpec& c) {
    if (!c.name)
        return;
    const std::string& name = *c.name;
    const std::size_t sep = name.find(" x ");
    if (sep == std::string::npos || sep == 0)
        return;
    for (std::size_t i = 0; i < sep; ++i)
        if (name[i] < '0' || name[i] > '9')
            return;
    c.name = std::to_string(c.nodes) + name.substr(sep);
}

bool holdGlobalBatch(Layout& l, long long globalBatch) {
    const long long perStep = static_cast<long long>(l.microBatch) * l.dp;
    if (perStep <= 0 || globalBatch % perStep != 0 || globalBatch / perStep < 1)
        return false;
    l.accumulation = static_cast<int>(globalBatch / perStep);
    return true;
}

Scenario withLayoutValue(const Scenario& s, LayoutAxis axis, int value, const LayoutRules& rules) {
    Scenario n = s;
    setLayoutValue(n.layout, axis, value);
    switch (axis) {
    case LayoutAxis::Tp:
    case LayoutAxis::Pp:
    case LayoutAxis::Cp:
        if (rules.keepGpuCount) {
            const long long model = static_cast<long long>(n.layout.tp) * n.layout.pp * n.layout.cp;
            const long long gpus = n.cluster.gpus();
            if (model > 0 && gpus % model == 0 && gpus / model >= 1)
                n.layout.dp = static_cast<int>(gpus / model);
        } else {
            resizeClusterToLayout(n, rules.nodeSize);
        }
        break;
    case LayoutAxis::Dp:
        // DP is set explicitly: the cluster follows (with keepGpuCount the control is read-only).
        resizeClusterToLayout(n, rules.nodeSize);
        break;
    default:
        break;
    }
    if (rules.holdGlobalBatch && axis != LayoutAxis::Accumulation &&
        static_cast<long long>(n.layout.dp) * n.layout.microBatch !=
            static_cast<long long>(s.layout.dp) * s.layout.microBatch)
        holdGlobalBatch(n.layout, s.layout.effectiveBatch());
    return n;
}

Scenario withClusterRebalanced(const Scenario& s, const LayoutRules& rules) {
    Scenario n = s;
    if (!rules.keepGpuCount)
        return n;
    const long long model = static_cast<long long>(n.layout.tp) * n.layout.pp * n.layout.cp;
    const long long gpus = n.cluster.gpus();
    if (model > 0 && gpus % model == 0 && gpus / model >= 1)
        n.layout.dp = static_cast<int>(gpus / model);
    return n;
}

std::vector<int> validSteps(const Scenario& s, LayoutAxis axis, const LayoutRules& rules) {
    const int current = layoutValue(s.layout, axis);
    std::vector<int> steps;
    if (axis == LayoutAxis::Dp) {
        if (rules.keepGpuCount) {
            steps.push_back(current); // derived: GPUs / (TP x PP x CP)
            return steps;
        }
        const long long model = static_cast<long long>(s.layout.tp) * s.layout.pp * s.layout.cp;
        for (long long dp = 1; model > 0 && dp * model <= rules.maxGpus; ++dp)
            if (nodeCompatible(dp * model, rules.nodeSize))
                steps.push_back(static_cast<int>(dp));
    } else if (axis == LayoutAxis::MicroBatch || axis == LayoutAxis::Accumulation) {
        const int limit = candidateLimit(s, axis);
        for (int v = 1; v <= limit; ++v)
            steps.push_back(v);
    } else if (axis == LayoutAxis::Vpp && s.layout.pp <= 1) {
        steps.push_back(1); // interleaving needs a pipeline
    } else if (axis == LayoutAxis::Ep && !s.model.isMoe()) {
        steps.push_back(1);
    } else {
        // Offer a value when the core finds no error in it that the current scenario does not already have.
        const ErrorSet base = errorsOf(s);
        const int limit = candidateLimit(s, axis);
        for (int v = 1; v <= limit; ++v) {
            if (v == current) {
                steps.push_back(v);
                continue;
            }
            const Scenario candidate = withLayoutValue(s, axis, v, rules);
            if (layoutValue(candidate.layout, axis) != v)
                continue;
            if (rules.keepGpuCount && candidate.layout.gpus() != s.cluster.gpus() &&
                s.layout.gpus() == s.cluster.gpus())
                continue; // DP could not absorb the change
            // Uneven pipeline stages are valid (typed in, or from a file) but the slider offers even splits.
            const bool evenSplit = evenSplitOf(candidate);
            if ((axis != LayoutAxis::Pp && axis != LayoutAxis::Vpp) || evenSplit || !evenSplitOf(s))
                if ((errorsOf(candidate) & ~base).none())
                    steps.push_back(v);
        }
    }
    if (std::find(steps.begin(), steps.end(), current) == steps.end()) {
        steps.push_back(current);
        std::sort(steps.begin(), steps.end());
    }
    return steps;
}

} // namespace lp::core
