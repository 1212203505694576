#include "core/export/TimelineExport.h"

#include "core/model/Enums.h"

#include <nlohmann/json.hpp>

#include <cstdio>

namespace lp::core {
namespace {

std::string_view laneName(TimelineLane lane) {
    return lane == TimelineLane::Compute ? "compute" : "communication";
}

nlohmann::json metadata(std::string_view name, int pid, int tid, std::string_view value) {
    return {{"name", name}, {"ph", "M"}, {"pid", pid}, {"tid", tid}, {"args", {{"name", value}}}};
}

std::string shortest(double v) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.9g", v);
    return buf;
}

} // namespace

std::optional<TimelineFormat> parseTimelineFormat(std::string_view s) {
    if (s == "chrome-trace" || s == "chrome_trace" || s == "trace" || s == "json" || s == "perfetto")
        return TimelineFormat::ChromeTrace;
    if (s == "svg")
        return TimelineFormat::Svg;
    if (s == "csv")
        return TimelineFormat::Csv;
    return std::nullopt;
}

std::string timelineChromeTrace(const Timeline& tl) {
    nlohmann::json events = nlohmann::json::array();
    for (const TimelineRank& r : tl.ranks) {
        events.push_back(metadata("process_name", r.rank, 0, "pipeline rank " + std::to_string(r.rank)));
        events.push_back({{"name", "process_sort_index"},
                          {"ph", "M"},
                          {"pid", r.rank},
                          {"tid", 0},
                          {"args", {{"sort_index", r.rank}}}});
        events.push_back(metadata("thread_name", r.rank, 0, laneName(TimelineLane::Compute)));
        events.push_back(metadata("thread_name", r.rank, 1, laneName(TimelineLane::Communication)));
    }
    for (const TimelineEvent& e : tl.events) {
        nlohmann::json args = {{"micro_batch", e.microBatch},
                               {"chunk", e.chunk},
                               {"seconds", e.seconds},
                               {"formula", timelineFormula(e.kind)}};
        events.push_back({{"name", toString(e.kind)},
                          {"cat", laneName(e.lane)},
                          {"ph", "X"},
                          {"pid", e.rank},
                          {"tid", e.lane == TimelineLane::Compute ? 0 : 1},
                          {"ts", e.startSeconds * 1e6},
                          {"dur", e.seconds * 1e6},
                          {"args", std::move(args)}});
    }
    const nlohmann::json trace = {{"traceEvents", std::move(events)},
                                  {"displayTimeUnit", "ms"},
                                  {"otherData",
                                   {{"schedule", toString(tl.schedule)},
                                    {"pipeline_ranks", tl.pipelineRanks},
                                    {"micro_batches", tl.microBatches},
                                    {"virtual_stages", tl.virtualStages},
                                    {"step_s", tl.makespanSeconds},
                                    {"pipeline_s", tl.pipelineSeconds},
                                    {"bubble_s", tl.bubbleSeconds}}}};
    return trace.dump(1) + "\n";
}

std::string timelineCsv(const Timeline& tl) {
    std::string out = "rank,lane,kind,micro_batch,chunk,start_s,seconds\n";
    for (const TimelineEvent& e : tl.events)
        out += std::to_string(e.rank) + "," + std::string(laneName(e.lane)) + "," +
               std::string(toString(e.kind)) + "," + std::to_string(e.microBatch) + "," +
               std::to_string(e.chunk) + "," + shortest(e.startSeconds) + "," + shortest(e.seconds) + "\n";
    return out;
}

} // namespace lp::core
