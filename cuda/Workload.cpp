#include "cuda/Workload.h"

#include "core/estimate/Evaluate.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace lp::calib {
namespace {

long long dim(double v) {
    return std::max(1LL, static_cast<long long>(std::llround(v)));
}

std::string shapeText(long long m, long long n, long long k) {
    return std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k);
}

void addShape(std::vector<GemmShape>& out, std::string label, long long m, long long n, long long k) {
    for (const auto& g : out)
        if (g.m == m && g.n == n && g.k == k)
            return;
    out.push_back({std::move(label), m, n, k});
}

// Forward, input-gradient and weight-gradient GEMMs of a layer mapping `in` to `out` features for T tokens.
void addLayer(std::vector<GemmShape>& out, const std::string& name, long long tokens, long long in,
              long long outF) {
    addShape(out, name + " fwd", tokens, outF, in);
    addShape(out, name + " bwd-data", tokens, in, outF);
    addShape(out, name + " bwd-weight", in, outF, tokens);
}

double roundBytes(double bytes) {
    constexpr double kStep = 4096.0;
    return std::max(kStep, std::round(bytes / kStep) * kStep);
}

} // namespace

std::vector<GemmShape> scenarioGemms(const core::Scenario& s) {
    std::vector<GemmShape> out;
    const core::ModelSpec& m = s.model;
    const core::Layout& l = s.layout;
    const double tp = std::max(1, l.tp);
    const double cp = std::max(1, l.cp);
    const long long tokens = dim(static_cast<double>(std::max(1, l.microBatch)) * m.seqLen / cp);
    const double headDim = m.headDim();
    const double qWidth = static_cast<double>(m.heads) * headDim;
    const double kvWidth = static_cast<double>(m.kvHeads > 0 ? m.kvHeads : m.heads) * headDim;
    const bool gated = m.mlp == core::MlpKind::SwiGlu;
    if (m.hidden <= 0 || m.seqLen <= 0)
        return out;
    const long long h = m.hidden;
    addLayer(out, "qkv", tokens, h, dim((qWidth + 2.0 * kvWidth) / tp));
    addLayer(out, "attn-out", tokens, dim(qWidth / tp), h);
    const double upFactor = gated ? 2.0 : 1.0;
    if ((!m.isMoe() || m.moeLayerCount() < m.layers) && m.ffnHidden > 0) {
        addLayer(out, "mlp-up", tokens, h, dim(m.ffnHidden * upFactor / tp));
        addLayer(out, "mlp-down", tokens, dim(m.ffnHidden / tp), h);
    }
    if (m.isMoe() && m.moe.expertFfnHidden > 0 && m.moe.topK > 0) {
        // Each GPU holds experts/EP experts and receives T x topK x EP / experts tokens per local expert.
        const double ep = std::max(1, l.ep);
        const long long expertTokens = dim(static_cast<double>(tokens) * m.moe.topK * ep / m.moe.experts);
        addLayer(out, "expert-up", expertTokens, h, dim(m.moe.expertFfnHidden * upFactor / tp));
        addLayer(out, "expert-down", expertTokens, dim(m.moe.expertFfnHidden / tp), h);
    }
    if (m.vocab > 0)
        addLayer(out, "lm-head", tokens, h, dim(m.vocab / tp));
    for (auto& g : out)
        g.label += " " + shapeText(g.m, g.n, g.k);
    return out;
}

std::vector<GemmShape> sweepGemms(bool quick) {
    std::vector<GemmShape> out;
    const std::vector<long long> squares =
        quick ? std::vector<long long>{512, 2048, 8192}
              : std::vector<long long>{256, 512, 1024, 2048, 4096, 8192, 16384};
    for (long long n : squares)
        addShape(out, "square " + std::to_string(n), n, n, n);
    const std::vector<long long> rows =
        quick ? std::vector<long long>{64, 1024} : std::vector<long long>{16, 64, 256, 1024, 4096};
    constexpr long long kWidth = 8192;
    for (long long r : rows)
        addShape(out, "skinny " + shapeText(r, kWidth, kWidth), r, kWidth, kWidth);
    return out;
}

std::vector<double> hbmSizes(bool quick) {
    constexpr double kMiB = 1024.0 * 1024.0;
    if (quick)
        return {16 * kMiB, 256 * kMiB, 1024 * kMiB};
    return {1 * kMiB, 4 * kMiB, 16 * kMiB, 64 * kMiB, 256 * kMiB, 1024 * kMiB, 4096 * kMiB};
}

std::vector<double> commSizes(bool quick, const core::Scenario* s) {
    std::vector<double> out{8.0 * 1024, 64.0 * 1024};
    for (int e = 20; e <= 30; e += quick ? 4 : 1)
        out.push_back(std::ldexp(1.0, e));
    if (quick && out.back() < std::ldexp(1.0, 30))
        out.push_back(std::ldexp(1.0, 30));
    if (s) {
        const core::Plan plan = core::evaluate(*s);
        for (double b : {plan.intermediates.tpMessageBytes, plan.intermediates.dpMessageBytes})
            if (plan.valid && std::isfinite(b) && b > 0)
                out.push_back(
                    roundBytes(std::min(b, std::ldexp(1.0, 30)))); // the curve holds its last point beyond
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

CalibrationRequest makeRequest(const core::Scenario* s, bool quick) {
    CalibrationRequest r;
    if (s)
        r.gemms = scenarioGemms(*s);
    for (auto& g : sweepGemms(quick)) {
        const bool dup = std::any_of(r.gemms.begin(), r.gemms.end(), [&](const GemmShape& o) {
            return o.m == g.m && o.n == g.n && o.k == g.k;
        });
        if (!dup)
            r.gemms.push_back(std::move(g));
    }
    r.hbmBytes = hbmSizes(quick);
    r.commBytes = commSizes(quick, s);
    r.warmup = quick ? 2 : 5;
    r.repetitions = quick ? 5 : 20;
    r.maxSecondsPerItem = quick ? 0.5 : 2.0;
    // An H200 settles at its 700 W limit within a second of full load (docs/calibration.md): the second
    // half of the run is the held figure.
    r.sustainSeconds = quick ? kQuickSustainSeconds : kFullSustainSeconds;
    return r;
}

} // namespace lp::calib
