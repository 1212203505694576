#include "core/search/SearchText.h"

#include <algorithm>
#include <utility>

namespace lp::core {
namespace {

// "Tried 1,234 layouts in 1.20 s on 8 threads. 120 valid, 40 fit (...)."
std::string countsText(const SearchResult& r, const FigureFormat& f) {
    std::string text = r.cancelled ? "Cancelled after " + f.count(r.evaluated) + " of " +
                                         f.count(r.candidates) + " layouts: partial results. "
                                   : "Tried " + f.count(r.evaluated) + " layouts in " + f.seconds(r.seconds) +
                                         " on " + std::to_string(r.threads) + " threads. ";
    text += f.count(r.valid) + " valid, " + f.count(r.fitting) + " fit";
    if (r.blockRecompute > 0)
        text += " (" + f.count(r.blockRecompute) + " of them also ranked with block recompute)";
    if (r.selectiveAsNone > 0)
        text += "; " + f.count(r.selectiveAsNone) +
                " with selective recompute listed as none, whose plan they equal";
    return text + ". ";
}

} // namespace

std::string choiceText(const SearchChoice& c) {
    const Layout& l = c.layout;
    std::string text =
        "TP " + std::to_string(l.tp) + " · PP " + std::to_string(l.pp) + " · DP " + std::to_string(l.dp);
    if (l.cp > 1)
        text += " · CP " + std::to_string(l.cp);
    if (l.ep > 1)
        text += " · EP " + std::to_string(l.ep);
    if (l.vpp > 1)
        text += " · v " + std::to_string(l.vpp);
    text += " · mb " + std::to_string(l.microBatch) + " × " + std::to_string(l.accumulation);
    text += " · ZeRO-" + std::to_string(c.zeroStage);
    if (const int group = hybridShardDegree(c); group > 0)
        text += " (HSDP " + std::to_string(group) + ")";
    text +=
        c.recompute == Recompute::None ? " · no recompute" : " · " + recomputeChoiceText(c) + " recompute";
    if (l.tp > 1)
        text += c.sequenceParallel ? " · SP" : " · no SP";
    return text;
}

std::string rankByName(RankBy r) {
    switch (r) {
    case RankBy::StepTime:
        return "step time";
    case RankBy::Mfu:
        return "MFU";
    case RankBy::Cost:
        return "cost (GPU-hours)";
    case RankBy::Headroom:
        return "memory headroom";
    case RankBy::Money:
        return "money (dollars for the run)";
    case RankBy::WallClock:
        return "wall-clock days";
    }
    return {};
}

std::string searchFigureText(const SearchEntry& e, SearchFigure f, MemoryUnit unit) {
    switch (f) {
    case SearchFigure::Zero:
        if (const int group = hybridShardDegree(e.choice); group > 0)
            return std::to_string(e.choice.zeroStage) + " (HSDP " + std::to_string(group) + ")";
        return std::to_string(e.choice.zeroStage);
    case SearchFigure::SequenceParallel:
        return e.choice.layout.tp > 1 ? (e.choice.sequenceParallel ? "on" : "off") : "–";
    case SearchFigure::StepTime:
        return fmt::duration(e.stepSeconds);
    case SearchFigure::Mfu:
        return fmt::percent(e.mfu);
    case SearchFigure::TokensPerSecond:
        return fmt::count(e.tokensPerSecond);
    case SearchFigure::WorstMemory:
        return fmt::fixed(e.worstStageBytes / memoryUnitBytes(unit), 1);
    case SearchFigure::Headroom:
        return fmt::fixed(e.headroomBytes / memoryUnitBytes(unit), 1);
    case SearchFigure::GpuHours:
        return fmt::fixed(e.gpuHours, 0);
    }
    return {};
}

std::string reasonText(const std::string& id) {
    std::string text = id;
    std::replace(text.begin(), text.end(), '_', ' ');
    return text;
}

std::vector<std::string> rejectionLines(const SearchResult& r, const FigureFormat& f) {
    std::vector<std::pair<long long, std::string>> reasons;
    for (const auto& [id, n] : r.rejected)
        reasons.emplace_back(n, id);
    std::sort(reasons.begin(), reasons.end(), [](const auto& a, const auto& b) {
        return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    std::vector<std::string> lines;
    for (const auto& [n, id] : reasons)
        lines.push_back(f.count(n) + " " + reasonText(id));
    return lines;
}

std::string closestMissText(const SearchEntry& e, const FigureFormat& f) {
    const double capacity = e.worstStageBytes + e.headroomBytes; // the headroom is negative
    std::string text = "The nearest, " + choiceText(e.choice) + ", needs " + f.bytes(e.worstStageBytes) +
                       " on its worst stage of the " + f.bytes(capacity) + " usable";
    if (capacity > 0)
        text += " (" + f.number(e.worstStageBytes / capacity, 1) + "x)";
    return text + ": more GPUs (ZeRO-3 shards the weights and optimizer state over them) or GPUs with more "
                  "memory.";
}

std::string searchOutcomeText(const SearchResult& r, const FigureFormat& f) {
    std::string text = countsText(r, f);
    if (r.fitting == 0)
        return text + (r.closestMiss ? "No layout fits. " + closestMissText(*r.closestMiss, f) +
                                           " See the reasons below."
                                     : std::string("No layout fits: see the reasons below."));
    return text + "Ranked by " + rankByName(r.rankBy) + "; " +
           f.count(static_cast<long long>(r.pareto.size())) + " on the Pareto front.";
}

std::string searchSummary(const SearchResult& r, const FigureFormat& f) {
    std::string text = searchOutcomeText(r, f);
    const std::vector<std::string> lines = rejectionLines(r, f);
    constexpr std::size_t kShown = 4;
    for (std::size_t i = 0; i < std::min(lines.size(), kShown); ++i)
        text += (i == 0 ? "\nRejected: " : " · ") + lines[i];
    if (lines.size() > kShown)
        text += " · " + std::to_string(lines.size() - kShown) + " more reasons";
    return text;
}

long long paretoBeyondTop(const SearchResult& r) {
    return std::count_if(r.pareto.begin(), r.pareto.end(), [&](const SearchEntry& p) {
        return std::none_of(r.top.begin(), r.top.end(),
                            [&](const SearchEntry& t) { return t.choice == p.choice; });
    });
}

std::string listedLayoutsText(const SearchResult& r, long long rankedShown, long long paretoShown,
                              const FigureFormat& f) {
    const long long ranked = static_cast<long long>(r.top.size());
    const long long beyond = paretoBeyondTop(r);
    if (ranked + beyond == 0)
        return {};
    const bool all = ranked == r.fitting;
    const bool filtered = rankedShown != ranked || paretoShown != beyond;
    std::string text;
    if (!filtered)
        text = all ? "All " + f.count(ranked) + " that fit"
                   : "Top " + f.count(ranked) + " of " + f.count(r.fitting) + " that fit";
    else
        text = "Filter: " + f.count(rankedShown) +
               (all ? " of the " + f.count(ranked) + " that fit" : " of the top " + f.count(ranked));
    if (beyond > 0)
        text += filtered
                    ? " + " + f.count(paretoShown) + " of " + f.count(beyond) + " more on the Pareto front"
                    : " + " + f.count(beyond) + " more on the Pareto front";
    return text;
}

} // namespace lp::core
