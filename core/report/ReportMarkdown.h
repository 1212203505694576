#pragma once
// The Markdown report, for a code forge (GitHub / GitLab flavoured tables, charts drawn with block
// characters).
#include "core/report/Report.h"

#include <string>

namespace lp::core {

std::string reportToMarkdown(const ReportInput& r);

} // namespace lp::core
