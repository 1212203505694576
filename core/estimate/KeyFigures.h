#pragma once
// The key figures of a Plan as the Plan tab's cards show them (HFU, the 6ND yardstick, model TFLOP/s per
// GPU, step time, throughput, effective batch, training state, time and GPU-hours for the token budget),
// each worded once here: caption, value, detail line and what it means. Every card names the explanation
// (explainFigure) of the same figure, whose value it shows. The window lays the cards out; the command
// line may print the same texts. Also the MFU bands the gauge marks.
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
};

// The cards, in the order the window shows them. Memory figures are in `unit`.
std::vector<KeyFigure> keyFigures(const Scenario& s, const Plan& p, MemoryUnit unit);

// The MFU bands every view marks: under 20% something is wrong; 35-55% is typical of well-tuned pretraining.
inline constexpr double kMfuAlarm = 0.20;
inline constexpr double kMfuWellTunedLow = 0.35;
inline constexpr double kMfuWellTunedHigh = 0.55;

std::string mfuText(double mfu);     // "41.0 %"
std::string mfuBandText(double mfu); // what the band of `mfu` means: "35-55%: well-tuned pretraining"

// The FP8 extras counted in the weights bar, as the Plan tab's number-format section shows them: the
// cached fp8 weight copies and the scaling state of one GPU. `stale`: the plan is the last valid layout's
// (its figures are marked so, and are blank where that plan was not fp8 although this scenario is).
std::vector<KeyFigure> fp8Figures(const Scenario& s, const Plan& p, MemoryUnit unit, bool stale);

} // namespace lp::core
