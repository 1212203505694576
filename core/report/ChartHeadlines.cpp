#include "core/report/ChartHeadlines.h"

#include "core/estimate/KeyFigures.h"
#include "core/report/SvgCharts.h"
#include "core/util/NumberFormat.h"

#include <cctype>
#include <cmath>

namespace lp::core {
namespace {

std::string lowerCase(std::string_view text) {
    std::string out(text);
    for (char& c : out)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

} // namespace

MemoryHeadline memoryHeadline(const MemoryPlan& m, MemoryUnit unit) {
    const StageMemory* worst = m.worst();
    if (!worst)
        return {"", "No plan yet."};
    const double share = m.capacityBytes > 0 ? std::fabs(m.headroomBytes) / m.capacityBytes : 0.0;
    const std::string needs = bytesIn(worst->totalBytes, unit, 1);
    const std::string usable = bytesIn(m.capacityBytes, unit, 1);
    MemoryHeadline h;
    if (m.fits) {
        h.verdict = "Fits.";
        h.text = "Worst stage " + std::to_string(worst->stage) + " uses " + needs + " of " + usable +
                 " usable: headroom " + bytesIn(m.headroomBytes, unit, 1) + " (" + fmt::percent(share, 0) +
                 ").";
    } else {
        h.verdict = "Does not fit:";
        h.text = "stage " + std::to_string(worst->stage) + " needs " + needs + " of " + usable + " usable, " +
                 bytesIn(-m.headroomBytes, unit, 1) + " (" + fmt::percent(share, 0) +
                 ") over; largest part: " + lowerCase(memoryComponentLabel(m.largestComponent)) + ".";
    }
    if (m.hostBytesPerGpu > 0)
        h.text += " CPU offloading keeps " + bytesIn(m.hostBytesPerGpu, unit, 1) + " per GPU in host memory.";
    return h;
}

std::string stepTimeHeadline(const TimeBreakdown& t) {
    std::string text = "Step time " + fmt::duration(t.stepSeconds) + " per optimizer step";
    if (t.bubbleFraction > 0)
        text += " · pipeline bubble " + fmt::percent(bubbleShareOfStep(t)) + " of the step";
    const double exposed =
        t.tpCommSeconds + t.ppCommSeconds + t.cpCommSeconds + t.epCommSeconds + t.dpCommExposedSeconds;
    if (t.stepSeconds > 0)
        text += " · exposed communication " + fmt::percent(exposed / t.stepSeconds);
    return text;
}

std::string timeShareText(double seconds, double stepSeconds) {
    const double share = stepSeconds > 0 ? seconds / stepSeconds : 0.0;
    return fmt::duration(seconds) + " · " + fmt::percent(share, 0);
}

} // namespace lp::core
