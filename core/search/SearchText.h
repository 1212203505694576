#pragma once
// A search and its choices in words, for the Explore tab, the command line and reports.
#include "core/search/Search.h"
#include "core/util/NumberFormat.h"

#include <string>
#include <vector>

namespace lp::core {

// "TP 8 · PP 4 · DP 2 · mb 2 × 16 · ZeRO-1 · selective recompute · SP": CP, EP and v where above 1, the
// hybrid shard group where there is one, SP where TP > 1.
std::string choiceText(const SearchChoice& c);
std::string rankByName(RankBy r); // "step time", "MFU", "cost (GPU-hours)", "memory headroom"

// The figures of a ranked layout that the Explore table and `search` list in columns of their own.
enum class SearchFigure {
    Zero,
    SequenceParallel,
    StepTime,
    Mfu,
    TokensPerSecond,
    WorstMemory,
    Headroom,
    GpuHours
};
// A column's cell, as the Explore table and `search` print it and as the Plan tab's cards word the figure:
// "2 (HSDP 16)", "on" or "–" where TP is 1, "3.594 s", "51.2 %", "72,946" tokens/s, memory as a number in
// `unit` ("77.5"; the heading names the unit), "660,334" GPU-hours.
std::string searchFigureText(const SearchEntry& e, SearchFigure f, MemoryUnit unit);
// A rejection reason's id in words: "does_not_fit" -> "does not fit".
std::string reasonText(const std::string& id);
// "1,234 does not fit": one line per rejection reason, the most frequent first (ties by id).
std::vector<std::string> rejectionLines(const SearchResult& r, const FigureFormat& f);
// Where nothing fits, the layout nearest to fitting and how far it is: "The nearest, TP 8 · PP 8 · ..., needs
// 150.2 GiB on its worst stage of the 79.2 GiB usable (1.9x): more GPUs ... or GPUs with more memory."
std::string closestMissText(const SearchEntry& e, const FigureFormat& f);
// What the search did: the layouts tried (or where it was cancelled), how many were valid and fit, the
// ranking and the Pareto front (or, where none fits, the nearest miss), on one line.
std::string searchOutcomeText(const SearchResult& r, const FigureFormat& f);
// searchOutcomeText and, on a second line, the four commonest reasons for rejection (the Explore tab).
std::string searchSummary(const SearchResult& r, const FigureFormat& f);

// The Pareto layouts that are not among the ranked top ones (listed after them).
long long paretoBeyondTop(const SearchResult& r);
// What a list of the result shows, given how many ranked and how many further Pareto layouts pass its
// filter: "Top 50 of 812 that fit + 21 more on the Pareto front", "All 30 that fit", filtered
// "Filter: 9 of the top 50 + 3 of 21 more on the Pareto front". Empty when nothing fits.
std::string listedLayoutsText(const SearchResult& r, long long rankedShown, long long paretoShown,
                              const FigureFormat& f);

} // namespace lp::core
