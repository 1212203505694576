#include "core/util/NumberFormat.h"

#include <array>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <string_view>

namespace lp::core::fmt {
namespace {

constexpr double kGiBytes = 1024.0 * 1024.0 * 1024.0;

std::string groupThousands(const std::string& digits) {
    const std::size_t start = digits.starts_with('-') ? 1 : 0;
    std::size_t dot = digits.find('.');
    if (dot == std::string::npos)
        dot = digits.size();
    std::string out = digits.substr(0, start);
    const std::string intPart = digits.substr(start, dot - start);
    for (std::size_t i = 0; i < intPart.size(); ++i) {
        if (i > 0 && (intPart.size() - i) % 3 == 0)
            out += ',';
        out += intPart[i];
    }
    out += digits.substr(dot);
    return out;
}

} // namespace

std::string fixed(double v, int decimals) {
    if (!std::isfinite(v))
        return "n/a";
    char buf[512];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    std::string s = buf;
    if (s.starts_with('-') && s.find_first_not_of("0.", 1) == std::string::npos)
        s.erase(0, 1); // no "-0.00"
    return groupThousands(s);
}

std::string sig(double v, int digits) {
    if (!std::isfinite(v))
        return "n/a";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*g", digits, v);
    return buf;
}

std::string figure(double v, int digits) {
    const double a = std::fabs(v);
    if (std::isfinite(v) && a >= std::pow(10.0, digits - 1) && a < 1e15)
        return fixed(v, 0);
    return sig(v, digits);
}

std::string gib(double bytes, int decimals) {
    if (!std::isfinite(bytes))
        return "n/a";
    return fixed(bytes / kGiBytes, decimals) + " GiB";
}

std::string gb(double bytes, int decimals) {
    if (!std::isfinite(bytes))
        return "n/a";
    return fixed(bytes / 1e9, decimals) + " GB";
}

std::string bytesBoth(double bytes) {
    return core::bytesBoth(bytes, MemoryUnit::GB);
}

std::string messageBytes(double bytes) {
    if (!std::isfinite(bytes) || bytes < 0)
        return "n/a";
    static constexpr std::array<const char*, 5> kUnits{"B", "KB", "MB", "GB", "TB"};
    std::size_t unit = 0;
    while (unit + 1 < kUnits.size() && bytes >= 999.5) {
        bytes /= 1e3;
        ++unit;
    }
    const int decimals = unit == 0 || bytes >= 99.95 ? 0 : bytes >= 9.995 ? 1 : 2;
    return fixed(bytes, decimals) + " " + kUnits[unit];
}

std::string percent(double fraction, int decimals) {
    if (!std::isfinite(fraction))
        return "n/a";
    return fixed(fraction * 100.0, decimals) + " %";
}

std::string count(double v) {
    if (!std::isfinite(v))
        return "n/a";
    const double a = std::fabs(v);
    if (a >= 1e21)
        return sig(v, 3);
    if (a >= 1e18)
        return fixed(v / 1e18, 2) + " E";
    if (a >= 1e15)
        return fixed(v / 1e15, 2) + " P";
    if (a >= 1e12)
        return fixed(v / 1e12, 2) + " T";
    if (a >= 1e9)
        return fixed(v / 1e9, 2) + " B";
    if (a >= 1e6)
        return fixed(v / 1e6, 2) + " M";
    return fixed(v, 0);
}

std::string duration(double seconds) {
    if (!std::isfinite(seconds))
        return "n/a";
    const double a = std::fabs(seconds);
    if (a == 0)
        return "0 ms";
    if (a < 1e-3)
        return fixed(seconds * 1e6, 1) + " \xC2\xB5s";
    if (a < 1.0)
        return fixed(seconds * 1e3, 1) + " ms";
    if (a < 60.0)
        return fixed(seconds, 3) + " s";
    return fixed(seconds, 1) + " s";
}

std::string withUnit(double v, const std::string& unit) {
    if (!std::isfinite(v))
        return "n/a";
    if (unit == "bytes")
        return bytesBoth(v);
    if (unit == "fraction")
        return percent(v); // one decimal, as the gauge and the cards
    if (unit == "s")       // a step in ms or s; a checkpoint interval in hours, a run in days
        return std::fabs(v) < 600.0 ? duration(v) : wallClock(v);
    if (unit == "days")
        return fixed(v, 1) + " days";
    if (unit == "USD")
        return dollars(v);
    std::string out;
    if (std::fabs(v) >= 1e6)
        out = count(v);
    else if (v == std::floor(v) || std::fabs(v) >= 1000.0)
        out = fixed(v, 0); // 262,144 tokens; 53,845 tokens/s
    else
        out = sig(v, 4); // 1.922 nats/token; 0.0303 per day
    if (!unit.empty())
        out += " " + unit;
    return out;
}

std::string dollars(double usd) {
    if (!std::isfinite(usd))
        return "n/a";
    return std::fabs(usd) >= 1e5 ? "$" + count(usd) : "$" + fixed(usd, std::fabs(usd) >= 100 ? 0 : 3);
}

std::string counted(long long n, const std::string& noun) {
    return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

std::string wallClock(double seconds) {
    if (!std::isfinite(seconds))
        return "n/a";
    constexpr double kDay = 86400.0;
    constexpr double kYear = 365.25 * kDay;
    if (seconds >= 2 * kYear) // a run of decades reads better in years than in five-digit days
        return fixed(seconds / kYear, 1) + " years";
    if (seconds >= 2 * kDay)
        return fixed(seconds / kDay, 1) + " days";
    if (seconds >= 2 * 3600.0)
        return fixed(seconds / 3600.0, 1) + " h";
    if (seconds >= 120.0)
        return fixed(seconds / 60.0, 0) + " min";
    return duration(seconds);
}

namespace {

bool isWordChar(char ch) {
    return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_';
}

bool isNonFiniteWord(std::string_view word) {
    std::string lower(word);
    for (char& ch : lower)
        ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return lower == "inf" || lower == "nan" || lower == "infinity";
}

} // namespace

std::string finiteText(std::string text) {
    std::string out;
    out.reserve(text.size());
    std::size_t i = 0;
    while (i < text.size()) {
        if (!isWordChar(text[i])) {
            out += text[i++];
            continue;
        }
        std::size_t end = i;
        while (end < text.size() && isWordChar(text[end]))
            ++end;
        const std::string_view word(text.data() + i, end - i);
        if (isNonFiniteWord(word)) {
            if (!out.empty() && out.back() == '-')
                out.pop_back(); // "-nan", "-inf"
            out += "n/a";
        } else {
            out += word;
        }
        i = end;
    }
    return out;
}

} // namespace lp::core::fmt

namespace lp::core {

double memoryUnitBytes(MemoryUnit unit) {
    return unit == MemoryUnit::GiB ? 1024.0 * 1024.0 * 1024.0 : 1e9;
}

std::string memoryUnitName(MemoryUnit unit) {
    return unit == MemoryUnit::GiB ? "GiB" : "GB";
}

std::string bytesIn(double bytes, MemoryUnit unit, int decimals) {
    if (!std::isfinite(bytes))
        return "n/a";
    return fmt::fixed(bytes / memoryUnitBytes(unit), decimals) + " " + memoryUnitName(unit);
}

std::string bytesBoth(double bytes, MemoryUnit first) {
    if (!std::isfinite(bytes))
        return "n/a";
    const std::string gb = fmt::gb(bytes), gib = fmt::gib(bytes);
    const double tib = memoryUnitBytes(MemoryUnit::GiB) * 1024.0;
    if (first == MemoryUnit::GiB)
        return std::fabs(bytes) >= tib
                   ? fmt::fixed(bytes / tib, 2) + " TiB (" + fmt::fixed(bytes / 1e12, 2) + " TB)"
                   : gib + " (" + gb + ")";
    return std::fabs(bytes) >= 1e12
               ? fmt::fixed(bytes / 1e12, 2) + " TB (" + fmt::fixed(bytes / tib, 2) + " TiB)"
               : gb + " (" + gib + ")";
}

} // namespace lp::core
