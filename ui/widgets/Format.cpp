#include "ui/widgets/Format.h"

#include "core/util/NumberFormat.h"

#include <cmath>

namespace lp::ui {

QString qs(std::string_view text) {
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

double bytesPerUnit(MemoryUnit u) {
    return core::memoryUnitBytes(u);
}

QString unitName(MemoryUnit u) {
    return qs(core::memoryUnitName(u));
}

QString formatNumber(double v, int decimals) {
    if (!std::isfinite(v))
        return QStringLiteral("–");
    return qs(core::fmt::fixed(v, decimals));
}

QString formatCount(long long v) {
    return qs(core::fmt::fixed(static_cast<double>(v), 0));
}

QString formatBytes(double bytes, MemoryUnit u, int decimals) {
    return qs(core::bytesIn(bytes, u, decimals));
}

QString formatPercent(double fraction, int decimals) {
    return qs(core::fmt::percent(fraction, decimals));
}

QString formatSeconds(double s) {
    return qs(core::fmt::duration(s));
}

QString formatDuration(double s) {
    return qs(core::fmt::wallClock(s));
}

QString formatBandwidth(double bytesPerSecond) {
    return formatNumber(bytesPerSecond / 1e9, 0) + QStringLiteral(" GB/s");
}

} // namespace lp::ui
