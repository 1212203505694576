#include "ui/explore/detail/ScreenFigureFormat.h"

namespace lp::ui {

core::FigureFormat screenFigureFormat(MemoryUnit unit) {
    core::FigureFormat f;
    f.bytes = [unit](double bytes) { return formatBytes(bytes, unit).toStdString(); };
    f.percent = [](double fraction, int decimals) { return formatPercent(fraction, decimals).toStdString(); };
    f.seconds = [](double seconds) { return formatSeconds(seconds).toStdString(); };
    f.number = [](double v, int decimals) { return formatNumber(v, decimals).toStdString(); };
    f.count = [](long long n) { return formatCount(n).toStdString(); };
    return f;
}

} // namespace lp::ui
