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

QString formatLarge(double v) {
    if (!std::isfinite(v))
        return QStringLiteral("–");
    const double a = std::fabs(v);
    auto scaled = [](double x, const char* suffix) {
        const int decimals = x >= 100 ? 0 : (x >= 10 ? 1 : 2);
        return formatNumber(x, decimals) + QLatin1Char(' ') + QLatin1String(suffix);
    };
    if (a >= 1e12)
        return scaled(v / 1e12, "T");
    if (a >= 1e9)
        return scaled(v / 1e9, "B");
    if (a >= 1e6)
        return scaled(v / 1e6, "M");
    if (a >= 1e4)
        return scaled(v / 1e3, "k");
    return formatNumber(v, a < 10 ? 2 : 0);
}

QString formatTokensPerSecond(double v) {
    return formatLarge(v) + QStringLiteral(" tokens/s");
}

QString formatBandwidth(double bytesPerSecond) {
    return formatNumber(bytesPerSecond / 1e9, 0) + QStringLiteral(" GB/s");
}

} // namespace lp::ui
