#pragma once
// The HTML report: one self-contained, printable page (inline CSS, charts as inline SVG, no scripts, no
// external resources).
#include "core/report/Report.h"

#include <string>

namespace lp::core {

struct HtmlOptions {
    // true: the charts as inline <svg> (the self-contained file). false: <img src="lp-chart:memory">
    // and <img src="lp-chart:time"> references (and lp-chart:goodput, lp-chart:loss), for renderers
    // without SVG (QTextDocument), which supply the images from the SvgCharts.h functions themselves.
    bool inlineSvg = true;
    int imageWidth = 0;           // with inlineSvg false: the images' width in pixels (0: the chart's own)
    bool navigation = true;       // the table of contents (links within the page; pointless on paper)
    bool fullWidthTables = false; // width="100%" on every table (renderers without CSS table sizing)
};

std::string reportToHtml(const ReportInput& r, const HtmlOptions& options = {});

} // namespace lp::core
