#pragma once
// What every family of explanations shares: the list they are added to, numbers in words and the sources
// they cite.
#include "core/estimate/Explain.h"
#include "core/util/Format.h"

#include <string>
#include <vector>

namespace lp::core::detail {

inline constexpr const char* kZeroPaper = "Rajbhandari et al. 2020, ZeRO (2+2+12 bytes per parameter)";
inline constexpr const char* kKorthikantiPaper = "Korthikanti et al. 2022, Reducing Activation Recomputation";
inline constexpr const char* kNarayananPaper =
    "Narayanan et al. 2021, Efficient Large-Scale Language Model Training (Megatron-LM)";
inline constexpr const char* kHuangPaper =
    "Huang et al. 2019, GPipe; torch.distributed.pipelining ScheduleGPipe";
inline constexpr const char* kQiPaper = "Qi et al. 2024, Zero Bubble Pipeline Parallelism (ZB-H1)";
inline constexpr const char* kPalmPaper = "Chowdhery et al. 2022, PaLM, Appendix B (MFU)";
inline constexpr const char* kEstimationDoc = "docs/estimation.md";

// The explanations of one plan, in the order they are shown.
struct ExplanationList {
    const Scenario& scenario;
    const Plan& plan;
    MemoryUnit memoryUnit; // memory in the values substituted: the user's unit first, the other beside
    std::vector<Explanation> items;

    // 5e10 -> "50.00 GB (46.57 GiB)" in GB, "46.57 GiB (50.00 GB)" in GiB; "12.5 MB" or "11.9 MiB" below.
    std::string bytes(double v) const;

    void add(std::string key, std::string label, double value, std::string unit, std::string formula,
             std::string substituted, std::string source, std::string words);
};

// What an explanation reads, under the short names its formulas use:
//     const auto [s, p, t, l, im, o] = inputsOf(list);
struct ExplanationInputs {
    const Scenario& s;
    const Plan& p;
    const TimeBreakdown& t;
    const Layout& l;
    const Intermediates& im;
    const TrainingOptions& o;
};
ExplanationInputs inputsOf(const ExplanationList& list);

std::string count(double v); // 69.0e9 -> "69.00 B", 53844.8 -> "53,845"
std::string secs(double v);  // 2.5 -> "2.500 s", 0.0125 -> "12.50 ms"
// "a", "a and b", "a, b and c".
std::string joinedWords(const std::vector<std::string>& items);
std::string capitalised(std::string text);
// What the optimizer keeps per parameter, in words (TrainingOptions::optimizerPrecision).
const char* optimizerStateWords(const TrainingOptions& t);

} // namespace lp::core::detail
