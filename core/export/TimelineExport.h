#pragma once
// The step timeline as files: Chrome trace-event JSON (Perfetto, chrome://tracing) and CSV (docs/cli.md,
// "timeline"); the SVG picture is core/report's timelineChartSvg.
#include "core/estimate/Timeline.h"

#include <optional>
#include <string>
#include <string_view>

namespace lp::core {

enum class TimelineFormat { ChromeTrace, Svg, Csv };
std::optional<TimelineFormat> parseTimelineFormat(std::string_view s); // chrome-trace (or json), svg, csv

// {"traceEvents": [...], "displayTimeUnit": "ms", "otherData": {...}}: one process per pipeline rank
// (process_name metadata), threads "compute" and "communication" (thread_name metadata), one complete ("X")
// event per timeline event with ts and dur in microseconds and args naming the micro batch, the chunk and the
// formula the duration comes from.
std::string timelineChromeTrace(const Timeline& timeline);
// rank,lane,kind,micro_batch,chunk,start_s,seconds: one row per event, in the timeline's order.
std::string timelineCsv(const Timeline& timeline);

} // namespace lp::core
