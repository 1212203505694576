#include "core/search/SearchExport.h"

#include "core/estimate/PlanJson.h"

#include <nlohmann/json.hpp>

#include <charconv>
#include <cmath>
#include <utility>

namespace lp::core {
namespace {

std::string shortest(double v) {
    if (!std::isfinite(v))
        return "";
    char buf[64];
    const auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, v);
    return ec == std::errc() ? std::string(buf, ptr) : std::string();
}

bool onFront(const SearchResult& r, const SearchEntry& e) {
    for (const auto& p : r.pareto)
        if (p.choice == e.choice && p.globalBatch == e.globalBatch)
            return true;
    return false;
}

std::string csvRow(int rank, const SearchEntry& e, bool pareto) {
    const Layout& l = e.choice.layout;
    std::string row =
        (rank > 0 ? std::to_string(rank) : std::string()) + "," + std::to_string(l.tp) + "," +
        std::to_string(l.pp) + "," + std::to_string(l.dp) + "," + std::to_string(l.cp) + "," +
        std::to_string(l.ep) + "," + std::to_string(l.vpp) + "," + std::to_string(l.microBatch) + "," +
        std::to_string(l.accumulation) + "," + std::to_string(e.globalBatch) + "," +
        std::to_string(e.choice.zeroStage) + "," + std::string(toString(e.choice.recompute)) + "," +
        (e.choice.sequenceParallel ? "on" : "off") + "," + shortest(e.stepSeconds) + "," + shortest(e.mfu) +
        "," + shortest(e.tokensPerSecond) + "," + shortest(e.worstStageBytes) + "," +
        shortest(e.headroomBytes) + "," + shortest(e.gpuHours) + "," + (pareto ? "yes" : "no") + "," +
        std::to_string(e.choice.recomputeLayers);
    return row + "\n";
}

nlohmann::json entryJson(int rank, const SearchEntry& e) {
    nlohmann::json j;
    if (rank > 0)
        j["rank"] = rank;
    j["layout"] = layoutToJson(e.choice.layout);
    j["global_batch"] = e.globalBatch;
    j["zero_stage"] = e.choice.zeroStage;
    j["recompute"] = std::string(toString(e.choice.recompute));
    j["recompute_layers"] = e.choice.recomputeLayers;
    j["sequence_parallel"] = e.choice.sequenceParallel;
    j["step_s"] = finiteOrNull(e.stepSeconds);
    j["mfu"] = finiteOrNull(e.mfu);
    j["tokens_per_s"] = finiteOrNull(e.tokensPerSecond);
    j["worst_stage_bytes"] = finiteOrNull(e.worstStageBytes);
    j["headroom_bytes"] = finiteOrNull(e.headroomBytes);
    j["gpu_hours"] = finiteOrNull(e.gpuHours);
    j["cost_usd"] = finiteOrNull(e.costUsd);
    j["wall_clock_days"] = finiteOrNull(e.wallClockDays);
    return j;
}

// The search's layout counts, in the order the file lists them.
constexpr std::pair<const char*, long long SearchResult::*> kCounts[] = {
    {"candidates", &SearchResult::candidates},
    {"evaluated", &SearchResult::evaluated},
    {"valid", &SearchResult::valid},
    {"fitting", &SearchResult::fitting},
    {"selective_as_none", &SearchResult::selectiveAsNone}};

} // namespace

std::string searchResultToCsv(const SearchResult& r) {
    std::string out = "rank,tp,pp,dp,cp,ep,vpp,micro_batch,accumulation,global_batch,zero_stage,recompute,"
                      "sequence_parallel,step_s,mfu,tokens_per_s,worst_stage_bytes,headroom_bytes,gpu_hours,"
                      "pareto,recompute_layers\n";
    int rank = 0;
    for (const auto& e : r.top)
        out += csvRow(++rank, e, onFront(r, e));
    for (const auto& p : r.pareto) {
        bool ranked = false;
        for (const auto& e : r.top)
            ranked = ranked || (e.choice == p.choice && e.globalBatch == p.globalBatch);
        if (!ranked)
            out += csvRow(0, p, true);
    }
    return out;
}

nlohmann::json searchResultToJsonValue(const Scenario& base, const SearchResult& r) {
    using nlohmann::json;
    json j;
    j["schema"] = kSearchResultsSchema;
    j["version"] = kSearchResultsVersion;
    j["scenario"] = scenarioName(base);
    j["rank_by"] = std::string(toString(r.rankBy));
    for (const auto& [key, count] : kCounts)
        j[key] = r.*count;
    j["rejected"] = r.rejected;
    j["threads"] = r.threads;
    j["seconds"] = finiteOrNull(r.seconds);
    j["cancelled"] = r.cancelled;
    json top = json::array();
    int rank = 0;
    for (const auto& e : r.top)
        top.push_back(entryJson(++rank, e));
    j["top"] = std::move(top);
    json pareto = json::array();
    for (const auto& e : r.pareto)
        pareto.push_back(entryJson(0, e));
    j["pareto"] = std::move(pareto);
    sanitizeNonFinite(j);
    return j;
}

std::string searchResultToJson(const Scenario& base, const SearchResult& r) {
    return searchResultToJsonValue(base, r).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) +
           "\n";
}

} // namespace lp::core
