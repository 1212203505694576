#include "app/cli/Args.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <system_error>

namespace lp::cli {
namespace {

std::string quoted(std::string_view s) {
    return "'" + std::string(s) + "'";
}

std::string numberText(double v) {
    char buf[64];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
    return ec == std::errc() ? std::string(buf, end) : std::string("?");
}

} // namespace

std::string_view ArgCursor::peekName() const {
    if (atEnd())
        return {};
    std::string_view a = m_args[m_pos];
    if (a.starts_with("--")) {
        const auto eq = a.find('=');
        if (eq != std::string_view::npos)
            return a.substr(0, eq);
    }
    return a;
}

bool ArgCursor::isOption() const {
    if (atEnd())
        return false;
    const std::string& a = m_args[m_pos];
    return a.size() > 1 && a[0] == '-';
}

std::string ArgCursor::take() {
    return atEnd() ? std::string() : m_args[m_pos++];
}

std::expected<std::string, CliError> ArgCursor::takeValue() {
    const std::string name(peekName());
    const std::string& a = m_args[m_pos];
    if (a.size() > name.size()) { // --flag=value
        ++m_pos;
        return a.substr(name.size() + 1);
    }
    if (m_pos + 1 >= m_args.size())
        return std::unexpected(badValue(name, "needs a value"));
    m_pos += 2;
    return m_args[m_pos - 1];
}

std::expected<std::string, CliError> ArgCursor::takeNonEmptyValue(std::string_view needs) {
    const std::string name(peekName());
    auto v = takeValue();
    if (v && v->empty())
        return std::unexpected(badValue(name, "needs " + std::string(needs)));
    return v;
}

std::expected<void, CliError> ArgCursor::takeSwitch() {
    const std::string name(peekName());
    const std::string& a = m_args[m_pos];
    ++m_pos;
    if (a.size() > name.size())
        return std::unexpected(badValue(name, "takes no value, got " + quoted(a.substr(name.size() + 1))));
    return {};
}

std::expected<long long, CliError> parseInteger(std::string_view flag, std::string_view text, long long min,
                                                long long max) {
    const std::string f(flag);
    if (text.empty())
        return std::unexpected(badValue(f, "expected a whole number, got an empty value"));
    if (text.front() == '-' || text.front() == '+') {
        std::string_view digits = text.substr(1);
        long long ignored = 0;
        auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), ignored);
        const bool numeric = !digits.empty() && p == digits.data() + digits.size() &&
                             (ec == std::errc() || ec == std::errc::result_out_of_range);
        if (numeric && text.front() == '-' && ignored != 0)
            return std::unexpected(badValue(f, "must not be negative, got " + quoted(text)));
        return std::unexpected(badValue(f, "expected a whole number without a sign, got " + quoted(text)));
    }
    long long value = 0;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ptr == text.data())
        return std::unexpected(badValue(f, "expected a whole number, got " + quoted(text)));
    if (ec == std::errc::result_out_of_range)
        return std::unexpected(
            badValue(f, "is too large (at most " + std::to_string(max) + "), got " + quoted(text)));
    if (ptr != text.data() + text.size())
        return std::unexpected(badValue(f, "expected a whole number, got " + quoted(text)));
    if (value < min) {
        if (min == 1 && value == 0)
            return std::unexpected(badValue(f, "must be a positive whole number (at least 1), got 0"));
        return std::unexpected(
            badValue(f, "must be at least " + std::to_string(min) + ", got " + std::to_string(value)));
    }
    if (value > max)
        return std::unexpected(
            badValue(f, "is too large (at most " + std::to_string(max) + "), got " + std::to_string(value)));
    return value;
}

std::expected<int, CliError> parseInt(std::string_view flag, std::string_view text, int min, int max) {
    auto v = parseInteger(flag, text, min, max);
    if (!v)
        return std::unexpected(v.error());
    return static_cast<int>(*v);
}

std::expected<double, CliError> parseNumber(std::string_view flag, std::string_view text, double min,
                                            double max) {
    const std::string f(flag);
    if (text.empty())
        return std::unexpected(badValue(f, "expected a number, got an empty value"));
    std::string_view body = text;
    if (body.front() == '+')
        body.remove_prefix(1);
    double value = 0;
    auto [ptr, ec] =
        std::from_chars(body.data(), body.data() + body.size(), value, std::chars_format::general);
    if (ptr == body.data() || ptr != body.data() + body.size())
        return std::unexpected(badValue(f, "expected a number, got " + quoted(text)));
    if (ec == std::errc::result_out_of_range || !std::isfinite(value))
        return std::unexpected(badValue(f, "must be a finite decimal number")); // no NaN/inf echoed back
    if (value < 0 && min >= 0)
        return std::unexpected(badValue(f, "must not be negative, got " + quoted(text)));
    if (value < min)
        return std::unexpected(badValue(f, "must be at least " + numberText(min) + ", got " + quoted(text)));
    if (value > max)
        return std::unexpected(
            badValue(f, "is too large (at most " + numberText(max) + "), got " + quoted(text)));
    return value;
}

std::expected<bool, CliError> parseOnOff(std::string_view flag, std::string_view text) {
    if (text == "on" || text == "true" || text == "yes" || text == "1")
        return true;
    if (text == "off" || text == "false" || text == "no" || text == "0")
        return false;
    return std::unexpected(badValue(std::string(flag), "expected on or off, got " + quoted(text)));
}

bool hasSwitch(const std::vector<std::string>& args, std::string_view name) {
    for (const auto& a : args)
        if (a == name)
            return true;
    return false;
}

} // namespace lp::cli
