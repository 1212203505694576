#include "ui/widgets/Format.h"

#include "core/model/Enums.h"
#include "core/model/Units.h"
#include "core/util/NumberFormat.h"

#include <QLocale>

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
    return formatNumber(bytes / bytesPerUnit(u), decimals) + QChar(0x202F) + unitName(u);
}

QString formatPercent(double fraction, int decimals) {
    return formatNumber(100.0 * fraction, decimals) + QStringLiteral("%");
}

QString formatSeconds(double s) {
    if (!std::isfinite(s))
        return QStringLiteral("–");
    const double a = std::fabs(s);
    if (a >= 100.0)
        return formatNumber(s, 0) + QStringLiteral(" s");
    if (a >= 1.0)
        return formatNumber(s, 2) + QStringLiteral(" s");
    if (a >= 1e-3 || a == 0.0)
        return formatNumber(s * 1e3, a >= 0.1 ? 0 : 1) + QStringLiteral(" ms");
    return formatNumber(s * 1e6, 0) + QStringLiteral(" µs");
}

QString formatDuration(double s) {
    if (!std::isfinite(s))
        return QStringLiteral("–");
    constexpr double kYear = 365.25 * 86400.0;
    if (s >= 2 * kYear) // a run of decades reads better in years than in five-digit days
        return formatNumber(s / kYear, 1) + QStringLiteral(" years");
    if (s >= 2 * 86400.0)
        return formatNumber(s / 86400.0, 1) + QStringLiteral(" days");
    if (s >= 2 * 3600.0)
        return formatNumber(s / 3600.0, 1) + QStringLiteral(" h");
    if (s >= 120.0)
        return formatNumber(s / 60.0, 0) + QStringLiteral(" min");
    return formatSeconds(s);
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
