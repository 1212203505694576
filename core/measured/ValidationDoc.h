#pragma once
// The generated validation pages (docs/validation/) and their plots, from a ValidationReport (no Qt: the SVG
// is written by hand).
#include "core/measured/ValidationRun.h"

#include <string>
#include <vector>

namespace lp::core {

// Markdown: summary per metric, then one row per case and metric (measured, predicted, error).
// markdownPath and plotPath as given on the command line; the image link is made relative to the
// Markdown file's folder. `skipped`: the problems of the cases that could not be read (a section lists them).
std::string validationMarkdown(const std::vector<ValidationCase>& cases, const ValidationReport& report,
                               const std::string& casesPath, const std::string& markdownPath,
                               const std::string& plotPath, const InputErrors& skipped = {});
// Predicted against measured, one log-log panel per kind of metric, with the 1:1 line and +-10% bands.
std::string validationPlotSvg(const ValidationReport& report);

} // namespace lp::core
