#include "core/estimate/detail/ExplainText.h"

#include "core/model/Units.h"
#include "core/util/NumberFormat.h"

#include <cctype>

namespace lp::core::detail {

void ExplanationList::add(std::string key, std::string label, double value, std::string unit,
                          std::string formula, std::string substituted, std::string source,
                          std::string words) {
    items.push_back({std::move(key), std::move(label), value, std::move(unit), std::move(formula),
                     fmt::finiteText(std::move(substituted)), std::move(source),
                     fmt::finiteText(std::move(words))});
}

ExplanationInputs inputsOf(const ExplanationList& list) {
    const Scenario& s = list.scenario;
    const Plan& p = list.plan;
    return {s, p, p.time, s.layout, p.intermediates, s.training};
}

std::string count(double v) {
    if (v > 0 && v < 0.5) // a throughput of a token in seconds or more: its digits, not "0"
        return lp::format("{:.3g}", v);
    if (v >= 1e6)
        return fmt::count(v); // the reports' and the window's tiers: "116.52 P", "68.98 B"
    return fmt::fixed(v, 0);  // with separators, as the cards: "53,845", "262,144"
}

std::string ExplanationList::bytes(double v) const {
    if (memoryUnit == MemoryUnit::GiB)
        return v >= kGiB ? bytesBoth(v, memoryUnit) : lp::format("{:.1f} MiB", v / (1024.0 * 1024.0));
    return v >= 1e9 ? bytesBoth(v, memoryUnit) : lp::format("{:.1f} MB", v / 1e6);
}

std::string secs(double v) {
    return v >= 1.0 ? lp::format("{:.3f} s", v) : lp::format("{:.2f} ms", v * 1e3);
}

std::string joinedWords(const std::vector<std::string>& items) {
    std::string out;
    for (std::size_t i = 0; i < items.size(); ++i)
        out += (i == 0 ? "" : (i + 1 == items.size() ? " and " : ", ")) + items[i];
    return out;
}

std::string capitalised(std::string text) {
    if (!text.empty())
        text[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(text[0])));
    return text;
}

const char* optimizerStateWords(const TrainingOptions& t) {
    const bool adam = t.optimizer == Optimizer::Adam;
    switch (t.optimizerPrecision) {
    case OptimizerPrecision::Bf16Moments:
        return adam ? "the fp32 master weights and Adam's two moments in bf16"
                    : "the fp32 master weights and the momentum in bf16";
    case OptimizerPrecision::Bf16:
        return adam ? "Adam's two moments in bf16, with no master copy (the parameters are bf16)"
                    : "the momentum in bf16, with no master copy (the parameters are bf16)";
    case OptimizerPrecision::Fp32:
        break;
    }
    return adam ? "the fp32 master weights and Adam's two moments"
                : "the fp32 master weights and the momentum";
}

} // namespace lp::core::detail
