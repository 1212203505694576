#include "core/measured/TrustBand.h"

#include "core/util/NumberFormat.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <set>
#include <string_view>
#include <utility>

namespace lp::core {
namespace {

std::string lowered(std::string_view text) {
    std::string out(text);
    std::ranges::transform(out, out.begin(),
                           [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

// A family's model numbers and their architecture generation (the makers' data sheets).
constexpr std::array<std::pair<std::string_view, std::string_view>, 22> kFamilies = {{
    {"v100", "Volta"},     {"a100", "Ampere"},     {"a800", "Ampere"},     {"a10", "Ampere"},
    {"a30", "Ampere"},     {"a40", "Ampere"},      {"l40", "Ada"},         {"l4", "Ada"},
    {"gh200", "Hopper"},   {"h100", "Hopper"},     {"h800", "Hopper"},     {"h200", "Hopper"},
    {"h20", "Hopper"},     {"gb200", "Blackwell"}, {"gb300", "Blackwell"}, {"b200", "Blackwell"},
    {"b300", "Blackwell"}, {"mi300", "CDNA 3"},    {"mi325", "CDNA 3"},    {"mi250", "CDNA 2"},
    {"mi210", "CDNA 2"},   {"mi35", "CDNA 4"},
}};

std::string_view generationOf(const std::string& word) {
    for (const auto& [prefix, generation] : kFamilies)
        if (word.starts_with(prefix))
            return generation;
    return {};
}

struct Selection {
    std::vector<const ComparableFigure*> figures;
    bool scaleRelaxed = false;
};

Selection comparableTo(const Scenario& s, const std::vector<ComparableFigure>& all) {
    const std::string generation = gpuGeneration(s.cluster.gpu);
    const std::string_view style = toString(resolvedStyle(s.training));
    const std::string_view precision = toString(s.training.precision);
    const bool moe = s.model.isMoe();
    const auto gpus = static_cast<double>(std::max<long long>(1, s.cluster.gpus()));
    Selection sameKind;
    Selection sameScale;
    for (const ComparableFigure& f : all) {
        if (f.generation != generation || f.style != style || f.precision != precision || f.moe != moe)
            continue;
        sameKind.figures.push_back(&f);
        const double ratio = static_cast<double>(f.gpus) / gpus;
        if (ratio >= 1.0 / kComparableScaleFactor && ratio <= kComparableScaleFactor)
            sameScale.figures.push_back(&f);
    }
    if (static_cast<int>(sameScale.figures.size()) >= kMinBandFigures)
        return sameScale;
    sameKind.scaleRelaxed = true;
    return sameKind;
}

std::string kindText(const Scenario& s) {
    return gpuGeneration(s.cluster.gpu) + ", " + std::string(toString(resolvedStyle(s.training))) +
           " style, " + std::string(toString(s.training.precision)) + (s.model.isMoe() ? ", MoE" : ", dense");
}

std::string noBandSentence(const Scenario& s, std::size_t sameKind) {
    return "No comparable published runs: " + std::to_string(sameKind) + " throughput figure" +
           (sameKind == 1 ? "" : "s") + " of runs like this one (" + kindText(s) +
           ", any GPU count) come with the program, fewer than the " + std::to_string(kMinBandFigures) +
           " a band needs.";
}

std::string bandSentence(const Scenario& s, const TrustBand& band, long long fewest, long long most) {
    const std::string scale = fewest == most ? fmt::fixed(static_cast<double>(fewest), 0) + " GPUs"
                                             : fmt::fixed(static_cast<double>(fewest), 0) + "-" +
                                                   fmt::fixed(static_cast<double>(most), 0) + " GPUs";
    const std::string relaxed =
        band.scaleRelaxed ? "; every GPU count taken: fewer than " + std::to_string(kMinBandFigures) +
                                " figures within " + fmt::fixed(kComparableScaleFactor, 0) +
                                "x of this plan's " + fmt::fixed(static_cast<double>(s.cluster.gpus()), 0)
                          : std::string();
    return "Measured runs like this one ran between " + fmt::duration(band.stepLow) + " and " +
           fmt::duration(band.stepHigh) + " per step (" + std::to_string(band.figures) + " figures of " +
           std::to_string(band.caseIds.size()) + " runs: " + kindText(s) + ", " + scale + relaxed +
           "; the 10th to 90th percentile of the planner's error on them).";
}

// "a–b unit" with the decimals that tell the two ends apart.
std::string rangeText(double low, double high, double scale, const char* unit) {
    const double span = std::max(std::fabs(high - low) * scale, 1e-12);
    const int decimals = std::clamp(static_cast<int>(std::ceil(-std::log10(span))) + 1, 0, 3);
    const std::string range = fmt::fixed(low * scale, decimals) + "–" + fmt::fixed(high * scale, decimals);
    return *unit ? range + " " + unit : range;
}

} // namespace

std::string gpuGeneration(const GpuSpec& gpu) {
    for (const std::string& word : {lowered(gpu.id), lowered(gpuShortName(gpu))})
        if (const std::string_view g = generationOf(word); !g.empty())
            return std::string(g);
    return gpu.id;
}

std::vector<ComparableFigure> comparableFigures(const std::vector<ValidationCase>& cases,
                                                const ValidationReport& report) {
    // runValidation writes one row per measured value, case by case: walk both together (ids may repeat
    // across sets).
    std::vector<ComparableFigure> out;
    std::size_t row = 0;
    for (const ValidationCase& c : cases) {
        const Scenario& s = c.scenario;
        for (std::size_t i = 0; i < c.measured.size() && row < report.rows.size(); ++i, ++row) {
            const ValidationRow& r = report.rows[row];
            if (!isThroughputMetric(r.metric) || !r.invalidReason.empty() || r.predicted <= 0 ||
                !std::isfinite(r.predicted))
                continue;
            out.push_back({c.id, gpuGeneration(s.cluster.gpu),
                           std::string(toString(resolvedStyle(s.training))),
                           std::string(toString(s.training.precision)), s.cluster.gpus(), speedError(r),
                           s.model.isMoe()});
        }
    }
    return out;
}

double percentileOf(std::vector<double> values, double p) {
    if (values.empty())
        return 0;
    std::ranges::sort(values);
    const double at = std::clamp(p, 0.0, 1.0) * static_cast<double>(values.size() - 1);
    const auto below = static_cast<std::size_t>(std::floor(at));
    const std::size_t above = std::min(below + 1, values.size() - 1);
    return values[below] + (at - static_cast<double>(below)) * (values[above] - values[below]);
}

TrustBand trustBand(const Scenario& s, const Plan& plan, const std::vector<ComparableFigure>& figures) {
    TrustBand band;
    const Selection chosen = comparableTo(s, figures);
    if (!plan.valid || plan.time.stepSeconds <= 0 ||
        static_cast<int>(chosen.figures.size()) < kMinBandFigures) {
        band.sentence = plan.valid ? noBandSentence(s, chosen.figures.size())
                                   : "No band: the layout is not valid, so there is no step time to bound.";
        return band;
    }
    std::vector<double> errors;
    std::set<std::string> seen;
    long long fewest = chosen.figures.front()->gpus;
    long long most = fewest;
    for (const ComparableFigure* f : chosen.figures) {
        errors.push_back(f->speedError);
        if (seen.insert(f->caseId).second)
            band.caseIds.push_back(f->caseId);
        fewest = std::min(fewest, f->gpus);
        most = std::max(most, f->gpus);
    }
    // A measured run slower than planned by e took (1 + e) times the planned step; speed figures divide.
    const double low = std::max(1e-3, 1.0 + percentileOf(errors, kBandLowPercentile));
    const double high = std::max(low, 1.0 + percentileOf(errors, kBandHighPercentile));
    band.available = true;
    band.figures = static_cast<int>(errors.size());
    band.scaleRelaxed = chosen.scaleRelaxed;
    band.stepLow = plan.time.stepSeconds * low;
    band.stepHigh = plan.time.stepSeconds * high;
    band.mfuLow = plan.mfu / high;
    band.mfuHigh = plan.mfu / low;
    band.tokensLow = plan.tokensPerSecond / high;
    band.tokensHigh = plan.tokensPerSecond / low;
    band.sentence = bandSentence(s, band, fewest, most);
    return band;
}

std::string stepBandText(const TrustBand& band) {
    if (!band.available)
        return {};
    if (band.stepHigh < 1)
        return rangeText(band.stepLow, band.stepHigh, 1e3, "ms");
    if (band.stepHigh < 120)
        return rangeText(band.stepLow, band.stepHigh, 1, "s");
    return band.stepHigh < 7200 ? rangeText(band.stepLow, band.stepHigh, 1.0 / 60, "min")
                                : rangeText(band.stepLow, band.stepHigh, 1.0 / 3600, "h");
}

std::string mfuBandText(const TrustBand& band) {
    return band.available ? rangeText(band.mfuLow, band.mfuHigh, 100, "%") : std::string();
}

std::string tokensBandText(const TrustBand& band) {
    if (!band.available)
        return {};
    const double high = band.tokensHigh;
    const auto [scale, unit] = high >= 1e9   ? std::pair(1e-9, "B")
                               : high >= 1e6 ? std::pair(1e-6, "M")
                               : high >= 1e3 ? std::pair(1e-3, "k")
                                             : std::pair(1.0, "");
    return rangeText(band.tokensLow, band.tokensHigh, scale, unit);
}

std::string trustLine(const TrustBand& band) {
    return band.available ? "Runs like this one: " + stepBandText(band) + " per step"
                          : std::string("No comparable published runs");
}

void addTrustBand(std::vector<KeyFigure>& cards, const TrustBand& band) {
    for (KeyFigure& card : cards) {
        if (card.id == "time.step") // the throughput card's column has no room for a third line
            card.detail += "\n" + (band.available ? "runs like it: " + stepBandText(band)
                                                  : std::string("no comparable published runs"));
        if (card.id == "time.step" || card.id == "tokens_per_s")
            card.meaning += " " + band.sentence;
    }
}

ReportTrust reportTrust(const TrustBand& band) {
    return {.stepRange = stepBandText(band),
            .mfuRange = mfuBandText(band),
            .sentence = band.sentence,
            .available = band.available,
            .stepLow = band.stepLow,
            .stepHigh = band.stepHigh,
            .mfuLow = band.mfuLow,
            .mfuHigh = band.mfuHigh,
            .tokensLow = band.tokensLow,
            .tokensHigh = band.tokensHigh,
            .figures = band.figures,
            .runs = band.caseIds,
            .scaleRelaxed = band.scaleRelaxed};
}

} // namespace lp::core
