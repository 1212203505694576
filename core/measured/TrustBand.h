#pragma once
// The band a plan's step time, MFU and tokens/s carry: how far the planner was off on the published runs most
// like the plan (same GPU generation, framework style, precision and model kind, a comparable GPU count), as
// the 10th to 90th percentile of their speed errors (docs/validation/trust-bands.md). The validation behind
// it runs once (ValidationFolder.h); the band of a plan is a filter over its figures.
#include "core/estimate/KeyFigures.h"
#include "core/estimate/Plan.h"
#include "core/measured/Validation.h"
#include "core/measured/ValidationRun.h"
#include "core/model/Hardware.h"
#include "core/model/Scenario.h"
#include "core/report/Report.h"

#include <string>
#include <vector>

namespace lp::core {

// The fewest figures a band is drawn from: fewer give percentiles that are one run's error.
inline constexpr int kMinBandFigures = 5;
// Runs count as the same scale when their GPU count is within this factor of the plan's, both ways.
inline constexpr double kComparableScaleFactor = 8.0;
// The percentiles of the speed errors that bound the band.
inline constexpr double kBandLowPercentile = 0.10;
inline constexpr double kBandHighPercentile = 0.90;

// The GPU's architecture generation ("Volta", "Ampere", "Ada", "Hopper", "Blackwell", "CDNA 2", "CDNA 3",
// "CDNA 4") from the family its id or short name starts with; the id itself for a family it does not know.
std::string gpuGeneration(const GpuSpec& gpu);

// One throughput figure of a validated run with what makes runs comparable.
struct ComparableFigure {
    std::string caseId;
    std::string generation;
    std::string style;     // resolved execution style, as toString(ExecutionStyle)
    std::string precision; // as toString(Precision)
    long long gpus = 0;
    double speedError = 0; // planned speed / measured speed - 1 (speedError())
    bool moe = false; // a mixture-of-experts model (their routing and all-to-all are a regime of their own)
};

// The throughput figures of a validation in case order; rows without a valid plan are left out (they have no
// prediction to be off by). `report` is runValidation(cases, ...).
std::vector<ComparableFigure> comparableFigures(const std::vector<ValidationCase>& cases,
                                                const ValidationReport& report);

struct TrustBand {
    bool available = false;
    double stepLow = 0, stepHigh = 0;     // seconds per step
    double mfuLow = 0, mfuHigh = 0;       // fractions
    double tokensLow = 0, tokensHigh = 0; // tokens per second, whole cluster
    int figures = 0;                      // figures the band is drawn from
    std::vector<std::string> caseIds;     // the runs they come from, each once, in case order
    bool scaleRelaxed = false;            // too few runs within kComparableScaleFactor: every scale taken
    std::string sentence;                 // what the band is and where it comes from, or why there is none
};

// The p-th quantile (0..1) of the values, interpolated linearly between order statistics; 0 when empty.
double percentileOf(std::vector<double> values, double p);
// The band of a plan from the figures of every validated run. No band for an invalid plan.
TrustBand trustBand(const Scenario& s, const Plan& plan, const std::vector<ComparableFigure>& figures);
// "0.87-1.02 s" / "38.1-44.0 %": a band as a card's detail line; empty when not available.
std::string stepBandText(const TrustBand& band);
std::string mfuBandText(const TrustBand& band);
std::string tokensBandText(const TrustBand& band); // "49.0–56.2 k" (tokens/s, as the card's value)
// One line under a chart or on the gauge: "Runs like this one: 0.87–1.02 s per step", or "No comparable
// published runs".
std::string trustLine(const TrustBand& band);
// The step-time card with its band as a further detail line ("runs like it: 0.87–1.02 s", or "no comparable
// published runs"); the step-time and throughput cards with the band's sentence in their tooltip.
void addTrustBand(std::vector<KeyFigure>& cards, const TrustBand& band);
// The band as a report shows it beside the step time and MFU.
ReportTrust reportTrust(const TrustBand& band);

} // namespace lp::core
