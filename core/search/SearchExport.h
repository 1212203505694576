#pragma once
// Search results (core/search/Search.h) as CSV and JSON, for spreadsheets and scripts (docs/reports.md).
#include "core/search/Search.h"

#include <nlohmann/json_fwd.hpp>

#include <string>

namespace lp::core {

inline constexpr const char* kSearchResultsSchema = "layout-planner/search-results";
inline constexpr int kSearchResultsVersion = 1;

// One row per ranked layout (best first), then the Pareto-front layouts that are not among them
// (empty rank); the "pareto" column (yes/no) says which rows are on the front. Comma-separated with a
// header row, the same columns as `layout-planner-cli search --csv`; numbers in SI units (seconds,
// bytes), written so that they read back exactly.
std::string searchResultToCsv(const SearchResult& r);
nlohmann::json searchResultToJsonValue(const Scenario& base, const SearchResult& r);
std::string searchResultToJson(const Scenario& base,
                               const SearchResult& r); // pretty-printed, ends with a newline

} // namespace lp::core
