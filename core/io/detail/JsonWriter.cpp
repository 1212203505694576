#include "core/io/detail/JsonWriter.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace lp::core::json {

std::string fmtNumber(double v) {
    if (std::isnan(v))
        return "NaN";
    if (std::isinf(v))
        return v > 0 ? "infinity" : "-infinity";
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    std::string s(buf, r.ptr);
    if (const auto e = s.find('e'); e != std::string::npos) {
        std::string mantissa = s.substr(0, e), exponent = s.substr(e + 1);
        const bool negative = !exponent.empty() && exponent[0] == '-';
        if (!exponent.empty() && (exponent[0] == '+' || exponent[0] == '-'))
            exponent.erase(0, 1);
        exponent.erase(0, std::min(exponent.find_first_not_of('0'), exponent.size() - 1));
        s = mantissa + "e" + (negative ? "-" : "") + exponent;
    }
    return s;
}

std::string jsonDouble(double v) {
    return std::isfinite(v) ? fmtNumber(v) : "null"; // JSON has no infinity; reading it back names the key
}

namespace {

bool isScalar(const Json& j) {
    return !j.is_object() && !j.is_array();
}

// Two-space indents; arrays of plain values stay on one line.
void writeJson(std::string& out, const Json& j, int indent) {
    const auto pad = [&](int n) { out.append(static_cast<std::size_t>(n), ' '); };
    const auto scalar = [&](const Json& v) {
        if (v.is_number_float())
            out += jsonDouble(v.get<double>());
        else // invalid UTF-8 in a user's text is replaced rather than thrown on
            out += v.dump(-1, ' ', false, Json::error_handler_t::replace);
    };
    if (j.is_object()) {
        if (j.empty()) {
            out += "{}";
            return;
        }
        out += "{\n";
        std::size_t i = 0;
        for (auto it = j.begin(); it != j.end(); ++it, ++i) {
            pad(indent + 2);
            out += Json(it.key()).dump(-1, ' ', false, Json::error_handler_t::replace) + ": ";
            writeJson(out, it.value(), indent + 2);
            out += i + 1 < j.size() ? ",\n" : "\n";
        }
        pad(indent);
        out += "}";
    } else if (j.is_array()) {
        if (std::all_of(j.begin(), j.end(), isScalar)) {
            out += "[";
            for (std::size_t i = 0; i < j.size(); ++i) {
                out += i ? ", " : "";
                scalar(j[i]);
            }
            out += "]";
            return;
        }
        out += "[\n";
        for (std::size_t i = 0; i < j.size(); ++i) {
            pad(indent + 2);
            writeJson(out, j[i], indent + 2);
            out += i + 1 < j.size() ? ",\n" : "\n";
        }
        pad(indent);
        out += "]";
    } else {
        scalar(j);
    }
}

} // namespace

std::string dumpPretty(const Json& j) {
    std::string out;
    writeJson(out, j, 0);
    return out + "\n";
}

} // namespace lp::core::json
