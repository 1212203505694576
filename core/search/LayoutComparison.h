#pragma once
// Pinned layouts side by side (the Compare tab): the figures compared, which way each is better, which
// layout is best and worst on each, and the words of the rows that are not plain numbers.
#include "core/estimate/Plan.h"
#include "core/model/Scenario.h"
#include "core/util/NumberFormat.h"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace lp::core {

enum class ComparedFigure {
    Model, // the pin's own model, GPU and GPU count: pins may come from different scenarios
    Parallelism,
    VirtualStages,
    Batch,
    Training,
    Gpus,
    WorstMemory,
    Headroom,
    StepTime,
    Mfu,
    Hfu,
    TokensPerSecond,
    TokensPerSecondPerGpu,
    Bubble,
    ExposedDp,
    TrainingTime,
    GpuHours,
    Diagnostics,
};
inline constexpr int kComparedFigureCount = static_cast<int>(ComparedFigure::Diagnostics) + 1;

std::string_view comparedFigureName(ComparedFigure f); // "Worst-stage memory", "Batch: mb × acc × DP"
// +1 where higher is better, -1 where lower is, 0 where the figure is not ranked (the layout's shape).
int betterDirection(ComparedFigure f);
// Whether the figure is a number: the ranked ones, HFU and the GPU count.
bool isNumeric(ComparedFigure f);
// The number compared (0 for the figures that are words); Diagnostics: how many count against the layout.
double comparedValue(const Plan& p, ComparedFigure f);

// A pinned layout's cell of figure `f`, as the Compare tab shows it: the figure worded as the Plan tab's card
// and `evaluate` word it (memory in `unit`; tokens/s "53,845"; the pipeline bubble's share of the step, as
// the step-time table gives it: "735.2 ms (15.1 % of step)"), the layout's words for the rows that are not
// numbers, "invalid" for a figure of an invalid layout, and the counted diagnostics' names one per line.
std::string comparedText(const Scenario& s, const Plan& p, ComparedFigure f, MemoryUnit unit);

enum class Standing { None, Best, Worst };
// Where plans[index] stands on `f`: the best or the worst value of a ranked figure where every plan is
// valid and the values differ by more than 0.5% (less is not worth a colour). Speed and cost are ranked
// among the plans that fit their GPUs' memory only (one that does not cannot run): None for the others.
Standing standing(const std::vector<const Plan*>& plans, ComparedFigure f, std::size_t index);

// What counts against a layout: its warnings and errors as shown (a plan that does not fit among them), in
// the order every view lists diagnostics.
std::vector<const Diagnostic*> countedDiagnostics(const Plan& p);
std::string diagnosticName(DiagnosticId id); // "Does not fit", "Pipeline bubble"

std::string recomputeName(Recompute r);       // "no recompute", "selective recompute", "full recompute"
std::string parallelismText(const Layout& l); // "TP 8 × PP 4 × CP 1 × DP 2", ", EP 4" where EP > 1
std::string batchText(const Layout& l);       // "2 × 16 × DP 2 = 64"
// "ZeRO-1, selective recompute, SP" with what else differs from the defaults: hybrid sharding, the
// cross-entropy, the optimizer state's precision, metric passes on the logits, the CP exchange.
std::string trainingText(const Scenario& s);
// Two lines for a pinned layout's card: "TP 8 × PP 4 × CP 1 × DP 2, v 5" and
// "mb 2 × acc 16 · ZeRO-1 · selective recompute".
std::string pinSummary(const Scenario& s);
// What a pin is of, whatever the user named the scenario: "Llama-3-8B on 64 H100".
std::string pinnedModelText(const Scenario& s);
// A pin in one line: "Llama-3-8B on 64 H100, TP 8 × PP 1 × CP 1 × DP 8".
std::string pinLabel(const Scenario& s);
// Whether two scenarios plan the same model on the same cluster (a pin of `a` compares with `b`'s layouts).
bool sameModelAndCluster(const Scenario& a, const Scenario& b);

} // namespace lp::core
