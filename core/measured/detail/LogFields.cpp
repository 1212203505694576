// Reading numbers and labelled fields out of log lines.
#include "core/measured/detail/LogFields.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <string>

namespace lp::core::detail {

std::string_view trim(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
        s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
        s.remove_suffix(1);
    return s;
}

// A finite number at the start of s (after spaces); thousands separators allowed when `commas`.
std::optional<double> numberAt(std::string_view s, std::size_t* used, bool commas) {
    std::size_t i = 0;
    while (i < s.size() && s[i] == ' ')
        ++i;
    std::string buf;
    std::size_t j = i;
    while (j < s.size()) {
        const char c = s[j];
        if (std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '+' || c == 'e' ||
            c == 'E') {
            if ((c == 'e' || c == 'E') &&
                (buf.empty() || j + 1 >= s.size() ||
                 !(std::isdigit(static_cast<unsigned char>(s[j + 1])) || s[j + 1] == '-' || s[j + 1] == '+')))
                break;
            if ((c == '-' || c == '+') && !buf.empty() && buf.back() != 'e' && buf.back() != 'E')
                break;
            buf += c;
        } else if (commas && c == ',' && !buf.empty() && j + 1 < s.size() &&
                   std::isdigit(static_cast<unsigned char>(s[j + 1]))) {
            // a thousands separator: "1,234"
        } else {
            break;
        }
        ++j;
    }
    if (buf.empty())
        return std::nullopt;
    double v = 0;
    const char* first = buf.data();
    if (*first == '+')
        ++first;
    const auto [ptr, ec] = std::from_chars(first, buf.data() + buf.size(), v);
    if (ec != std::errc() || ptr != buf.data() + buf.size() || !std::isfinite(v))
        return std::nullopt;
    if (used)
        *used = j;
    return v;
}

std::optional<long long> integerAt(std::string_view s, std::size_t* used) {
    std::size_t i = 0;
    while (i < s.size() && s[i] == ' ')
        ++i;
    std::size_t j = i;
    long long v = 0;
    while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) {
        if (v > 1'000'000'000'000LL)
            return std::nullopt;
        v = v * 10 + (s[j] - '0');
        ++j;
    }
    if (j == i)
        return std::nullopt;
    if (used)
        *used = j;
    return v;
}

// The value after a label ("elapsed time per iteration (ms):"), or nullopt; `present` says whether
// the label was there at all.
std::optional<double> valueAfter(std::string_view line, std::string_view label, bool* present, bool commas) {
    const auto pos = line.find(label);
    if (present)
        *present = pos != std::string_view::npos;
    if (pos == std::string_view::npos)
        return std::nullopt;
    return numberAt(line.substr(pos + label.size()), nullptr, commas);
}

} // namespace lp::core::detail
