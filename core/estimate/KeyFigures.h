#pragma once
// The key figures of a Plan as the Plan tab's cards show them (HFU, the 6ND yardstick, model TFLOP/s per
// GPU, step time, throughput, effective batch, training state, time and GPU-hours for the token budget),
// each worded once here: caption, value, detail line and what it means. Every card names the explanation
// (explainFigure) of the same figure, whose value it shows. The window lays the cards out; the command
// line may print the same texts. Also the MFU bands the gauge marks.
#include "core/estimate/Explain.h"
#include "core/estimate/Plan.h"
#include "core/model/Scenario.h"
#include "core/util/NumberFormat.h"

#include <string>
#include <vector>

namespace lp::core {

struct KeyFigure {
    std::string id;         // names the card: "mfu_6nd"
    std::string explainKey; // the explanation of the same figure: "mfu_6nd"
    std::string caption;    // "MFU by 6ND"
    std::string meaning;    // what the figure is, in a sentence (the card's tooltip)
    double value = 0;       // the figure, as its explanation's value
    std::string valueText;  // "41.0 %"
    std::string detail;     // "N = 37.55 B active"; may hold a line break
    bool greyed = false;    // the plan does not fit: a figure it would reach if it did, not one it reaches
};

// The cards, in the order the window shows them. Memory figures are in `unit`. With the plan shown before an
// edit (`previous`), the effective batch card says what the batch was where the edit changed it.
std::vector<KeyFigure> keyFigures(const Scenario& s, const Plan& p, MemoryUnit unit,
                                  const Plan* previous = nullptr);

// "was 64" where the global batch of `previous` differs from that of `current`, else empty.
std::string batchChangeText(const Plan& previous, const Plan& current);

// The MFU bands every view marks: under 20% something is wrong; 35-55% is typical of well-tuned pretraining.
inline constexpr double kMfuAlarm = 0.20;
inline constexpr double kMfuWellTunedLow = 0.35;
inline constexpr double kMfuWellTunedHigh = 0.55;

std::string mfuText(double mfu);     // "41.0 %"
std::string mfuBandText(double mfu); // what the band of `mfu` means: "35-55%: well-tuned pretraining"

// What the MFU gauge shows for a plan: its band, or that the plan does not fit in GPU memory (then the
// gauge is greyed: the MFU is what the layout would reach if it fit, no band applies).
enum class MfuBand { DoesNotFit, Alarm, BelowWellTuned, WellTuned, AboveWellTuned };
struct MfuGaugeState {
    double mfu = 0;
    MfuBand band = MfuBand::WellTuned;
    std::string valueText; // "41.0 %"
    std::string bandText;  // "35-55%: well-tuned pretraining", "does not fit: 278.6 GiB per GPU of 79.2 GiB"
    bool greyed() const { return band == MfuBand::DoesNotFit; }
};
MfuGaugeState mfuGaugeState(const Plan& p, MemoryUnit unit);
bool planDoesNotFit(const Plan& p); // a valid layout whose worst GPU needs more memory than it has

// A count of GPUs, whole and singular for one: "1 GPU", "2,048 GPUs".
std::string gpuCountText(long long gpus);

// The 6ND yardstick's N: "active parameters" for a mixture of experts, else "parameters".
std::string yardstickParameters(const ModelSpec& m);

// The pipeline bubble as a share of the step, with the (p-1)/(v*m) ratio named as what it is (bubble over
// the bubble-free pipeline time): "47.0 % of the step; (p-1)/(v x m) = 88.7 % of the bubble-free pipeline
// time" (no "*": Markdown would escape it); under ZB-H1 the ratio names the weight gradients' share too.
// bubbleShareOfStep is the share alone (0 without a step time).
double bubbleShareOfStep(const TimeBreakdown& t);
std::string bubbleText(const TimeBreakdown& t);

// How a plan moves with another hardware profile (the Calibrate tab's before/after), worded as the cards:
// mfuBefore "37.8 %", mfuAfter "40.1 %", points "+2.3" ("−0.4" below zero), rates
// "Step time 4.869 s → 4.590 s; 841.3 → 892.5 tokens/s per GPU".
struct PlanChangeText {
    std::string mfuBefore, mfuAfter, points, rates;
    double pointsValue = 0; // the MFU's change in percentage points, for a view to colour it
};
PlanChangeText planChangeText(const Plan& before, const Plan& after);

// An explanation's value as every view prints it beside the figure's label (the window's Explanation panel
// and glossary, `evaluate --explain`, the reports' "How the key figures are computed"): memory in `unit`
// with the other unit beside it ("48.74 GiB (52.34 GB)", "1.00 TiB (1.10 TB)"); any other figure as the
// window's card of it shows it where one does (`cards`: report::figureCards, or keyFigures, of the same
// plan; the first card of the key), else by its unit (fmt::withUnit).
std::string explanationValueText(const Explanation& e, const std::vector<KeyFigure>& cards, MemoryUnit unit);

// The FP8 extras counted in the weights bar, as the Plan tab's number-format section shows them: the
// cached fp8 weight copies and the scaling state of one GPU. `stale`: the plan is the last valid layout's
// (its figures are marked so, and are blank where that plan was not fp8 although this scenario is).
std::vector<KeyFigure> fp8Figures(const Scenario& s, const Plan& p, MemoryUnit unit, bool stale);

} // namespace lp::core
