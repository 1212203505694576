#include "core/io/JsonReader.h"

#include "core/io/detail/JsonWriter.h"
#include "core/model/Enums.h"

#include <algorithm>
#include <cctype>
#include <climits>
#include <cstdint>
#include <set>
#include <tuple>

namespace lp::core::json {

// ------------------------------------------------------------------------------------------------
// Describing values and places

std::string sanitizeUtf8(std::string_view in) {
    std::string out;
    std::size_t i = 0;
    while (i < in.size()) {
        const auto c = static_cast<unsigned char>(in[i]);
        std::size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
        bool ok = len > 0 && i + len <= in.size();
        for (std::size_t k = 1; ok && k < len; ++k)
            ok = (static_cast<unsigned char>(in[i + k]) & 0xC0) == 0x80;
        if (ok) {
            out.append(in.substr(i, len));
            i += len;
        } else {
            static const char* hex = "0123456789ABCDEF";
            out += "<0x";
            out += hex[c >> 4];
            out += hex[c & 0xF];
            out += ">";
            ++i;
        }
    }
    return out;
}

std::string quoteJson(std::string_view s) {
    constexpr std::size_t kMax = 60;
    const bool cut = s.size() > kMax;
    if (cut)
        s = s.substr(0, kMax);
    std::string out = Json(std::string(s)).dump(-1, ' ', false, Json::error_handler_t::replace);
    if (cut)
        out.insert(out.size() - 1, "...");
    return out;
}

std::string describe(const Json& v) {
    switch (v.type()) {
    case Json::value_t::null:
        return "null";
    case Json::value_t::boolean:
        return v.get<bool>() ? "true" : "false";
    case Json::value_t::string:
        return "a string (" + quoteJson(v.get_ref<const std::string&>()) + ")";
    case Json::value_t::number_integer:
        return std::to_string(v.get<std::int64_t>());
    case Json::value_t::number_unsigned:
        return std::to_string(v.get<std::uint64_t>());
    case Json::value_t::number_float:
        return fmtNumber(v.get<double>());
    case Json::value_t::object:
        return "an object";
    case Json::value_t::array:
        return "an array";
    default:
        return "an unsupported value";
    }
}

namespace {

bool isPlainKey(std::string_view key) {
    return !key.empty() && std::all_of(key.begin(), key.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
    });
}

} // namespace

std::string childPath(const std::string& parent, std::string_view key) {
    if (isPlainKey(key))
        return parent + "." + std::string(key);
    return parent + "[" + quoteJson(key) + "]";
}

std::string indexPath(const std::string& parent, std::size_t i) {
    return parent + "[" + std::to_string(i) + "]";
}

std::string joinList(const std::vector<std::string>& items) {
    std::string out;
    for (std::size_t i = 0; i < items.size(); ++i)
        out += (i ? ", " : "") + items[i];
    return out;
}

// ------------------------------------------------------------------------------------------------
// "Did you mean"

namespace {

std::size_t editDistance(std::string_view a, std::string_view b) {
    const auto lower = [](char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); };
    const std::size_t n = a.size(), m = b.size();
    std::vector<std::vector<std::size_t>> d(n + 1, std::vector<std::size_t>(m + 1));
    for (std::size_t i = 0; i <= n; ++i)
        d[i][0] = i;
    for (std::size_t j = 0; j <= m; ++j)
        d[0][j] = j;
    for (std::size_t i = 1; i <= n; ++i)
        for (std::size_t j = 1; j <= m; ++j) {
            const std::size_t cost = lower(a[i - 1]) == lower(b[j - 1]) ? 0 : 1;
            d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
            if (i > 1 && j > 1 && lower(a[i - 1]) == lower(b[j - 2]) && lower(a[i - 2]) == lower(b[j - 1]))
                d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
        }
    return d[n][m];
}

} // namespace

std::optional<std::string> closest(std::string_view word, const std::vector<std::string>& candidates) {
    if (word.size() > 200)
        return std::nullopt;
    std::optional<std::string> best;
    std::size_t bestDistance = SIZE_MAX;
    const auto startsWith = [](std::string_view a, std::string_view b) { // case-insensitive
        return a.size() >= b.size() && editDistance(a.substr(0, b.size()), b) == 0;
    };
    for (const auto& c : candidates) {
        std::size_t d = editDistance(word, c);
        // "vocabulary" for "vocab", "layer" for "layers": one is the start of the other.
        if (std::min(word.size(), c.size()) >= 3 && (startsWith(word, c) || startsWith(c, word)))
            d = std::min<std::size_t>(d, 1);
        const std::size_t limit = std::max<std::size_t>(2, std::min(word.size(), c.size()) / 3);
        if (d <= limit && d < bestDistance) {
            bestDistance = d;
            best = c;
        }
    }
    return best;
}

std::string didYouMean(std::string_view word, const std::vector<std::string>& candidates) {
    if (auto c = closest(word, candidates))
        return " (did you mean \"" + *c + "\"?)";
    return {};
}

// ------------------------------------------------------------------------------------------------
// Parsing the text, with duplicate-key detection and line/column for syntax errors.

namespace {

// 1-based line and column of a byte offset; columns count characters (UTF-8 sequences), not bytes.
std::pair<int, int> lineColumn(std::string_view text, std::size_t index) {
    index = std::min(index, text.size());
    int line = 1, column = 1;
    for (std::size_t i = 0; i < index; ++i) {
        if (text[i] == '\n') {
            ++line;
            column = 1;
        } else if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) {
            ++column;
        }
    }
    return {line, column};
}

// Tracks where the parser is, so that a duplicate key can be reported with its path.
class DuplicateKeyTracker {
public:
    explicit DuplicateKeyTracker(InputErrors& errors) : m_errors(errors) {}

    struct TooDeep {
        std::string path; // the innermost key whose value holds the too deep nesting, "$" when none
    };
    static constexpr std::size_t kMaxDepth = 64; // the formats need 4; this keeps hostile files cheap

    bool operator()(int /*depth*/, nlohmann::detail::parse_event_t event, Json& parsed) {
        using E = nlohmann::detail::parse_event_t;
        switch (event) {
        case E::object_start:
        case E::array_start:
            if (m_frames.size() >= kMaxDepth)
                throw TooDeep{pathOfInnermostKey()};
            m_frames.push_back({event == E::object_start, {}, 0, {}});
            break;
        case E::object_end:
        case E::array_end:
            if (!m_frames.empty())
                m_frames.pop_back();
            elementDone();
            break;
        case E::key:
            if (!m_frames.empty() && parsed.is_string()) {
                Frame& f = m_frames.back();
                const std::string& key = parsed.get_ref<const std::string&>();
                if (!f.keys.insert(key).second)
                    m_errors.push_back({childPath(pathOfTop(), key), "duplicate key " + quoteJson(key) +
                                                                         " (only one value may be given)"});
                f.lastKey = key;
            }
            break;
        case E::value:
            elementDone();
            break;
        }
        return true;
    }

private:
    struct Frame {
        bool isObject;
        std::string lastKey;
        std::size_t index;
        std::set<std::string> keys;
    };
    void elementDone() {
        if (!m_frames.empty() && !m_frames.back().isObject)
            ++m_frames.back().index;
    }
    std::string pathOfTop() const {
        std::string p = "$";
        for (std::size_t i = 0; i + 1 < m_frames.size(); ++i)
            p = m_frames[i].isObject ? childPath(p, m_frames[i].lastKey) : indexPath(p, m_frames[i].index);
        return p;
    }
    // The path down to the last key opened, without the array indices below it: "$.model.layers".
    std::string pathOfInnermostKey() const {
        std::size_t lastObject = m_frames.size();
        for (std::size_t i = 0; i < m_frames.size(); ++i)
            if (m_frames[i].isObject && !m_frames[i].lastKey.empty())
                lastObject = i;
        std::string p = "$";
        for (std::size_t i = 0; lastObject < m_frames.size() && i <= lastObject; ++i) {
            p = m_frames[i].isObject ? childPath(p, m_frames[i].lastKey) : indexPath(p, m_frames[i].index);
            if (p.size() > 200) // a hostile chain of keys: the line and column still say where
                return p.substr(0, 200) + "...";
        }
        return p;
    }
    InputErrors& m_errors;
    std::vector<Frame> m_frames;
};

// Where the object or array one level deeper than `maxDepth` opens, outside strings.
std::size_t tooDeepOffset(std::string_view text, std::size_t maxDepth) {
    std::size_t depth = 0;
    bool inString = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '{' || c == '[') {
            if (++depth > maxDepth)
                return i;
        } else if ((c == '}' || c == ']') && depth > 0) {
            --depth;
        }
    }
    return text.size();
}

std::string stripNlohmannPrefix(const std::string& what) {
    // "[json.exception.parse_error.101] parse error at line 1, column 2: syntax error ..." -> "syntax error
    // ..."
    const auto close = what.find("] ");
    std::string rest = close == std::string::npos ? what : what.substr(close + 2);
    const auto colon = rest.find(": ");
    if (rest.rfind("parse error", 0) == 0 && colon != std::string::npos)
        rest = rest.substr(colon + 2);
    return rest;
}

} // namespace

std::optional<Json> parseObject(std::string_view text, InputErrors& errors) {
    const bool blank = std::all_of(text.begin(), text.end(),
                                   [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; });
    if (blank) {
        errors.push_back({"", "the file is empty (expected a JSON object)"});
        return std::nullopt;
    }
    InputErrors duplicates;
    Json root;
    try {
        DuplicateKeyTracker tracker(duplicates);
        root = Json::parse(text.begin(), text.end(),
                           [&tracker](int depth, nlohmann::detail::parse_event_t e, Json& parsed) {
                               return tracker(depth, e, parsed);
                           });
    } catch (const Json::parse_error& e) {
        const std::string why = stripNlohmannPrefix(e.what());
        InputError err{"", "parse error: " + sanitizeUtf8(why)};
        // nlohmann reports the last character it read, the end of the offending token; point at the
        // token's start instead.
        std::size_t index = std::min<std::size_t>(e.byte > 0 ? e.byte - 1 : 0, text.size());
        const std::string marker = "last read: '";
        const auto m = why.rfind(marker);
        const auto isWordChar = [](char c) {
            return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '+' || c == '-';
        };
        if (m == std::string::npos) {
            // A grammar error ("unexpected string literal"): the token is a whole string, literal or sign.
            if (index < text.size() && text[index] == '"') {
                for (std::size_t i = index; i-- > 0;) {
                    std::size_t slashes = 0;
                    while (slashes < i && text[i - 1 - slashes] == '\\')
                        ++slashes;
                    if (text[i] == '"' && slashes % 2 == 0) {
                        index = i;
                        break;
                    }
                }
            } else if (index < text.size() && isWordChar(text[index])) {
                while (index > 0 && isWordChar(text[index - 1]))
                    --index;
            }
        } else if (why.find("invalid literal") != std::string::npos) {
            // "tru", "nul", "x": back to the first letter of the word.
            while (index > 0 && std::isalpha(static_cast<unsigned char>(text[index - 1])))
                --index;
        } else if (why.back() == '\'') {
            // A bad number or string: the token quoted, when it stands verbatim just before that point.
            const std::string token = why.substr(m + marker.size(), why.size() - m - marker.size() - 1);
            if (!token.empty() && token.size() <= e.byte && e.byte <= text.size() &&
                text.substr(e.byte - token.size(), token.size()) == token)
                index = e.byte - token.size();
        }
        if (text.substr(index, 2) == "//" || text.substr(index, 2) == "/*")
            err.reason += " (JSON files cannot hold comments)";
        std::tie(err.line, err.column) = lineColumn(text, index);
        errors.push_back(std::move(err));
        return std::nullopt;
    } catch (const DuplicateKeyTracker::TooDeep& deep) {
        InputError err{deep.path, "the file is nested too deeply (more than " +
                                      std::to_string(DuplicateKeyTracker::kMaxDepth) +
                                      " levels of objects and arrays)"};
        std::tie(err.line, err.column) =
            lineColumn(text, tooDeepOffset(text, DuplicateKeyTracker::kMaxDepth));
        err.reason += ": level " + std::to_string(DuplicateKeyTracker::kMaxDepth + 1) + " opens at line " +
                      std::to_string(err.line) + ", column " + std::to_string(err.column);
        errors.push_back(std::move(err));
        return std::nullopt;
    } catch (const Json::out_of_range& e) {
        // Number overflow ("1e999"): nlohmann gives no position; find the number in the text.
        const std::string why = sanitizeUtf8(stripNlohmannPrefix(e.what()));
        InputError err{"", "out of range: " + why + " (not a finite number)"};
        const auto q1 = why.find('\''), q2 = why.rfind('\'');
        if (q1 != std::string::npos && q2 > q1 + 1) {
            const auto at = text.find(why.substr(q1 + 1, q2 - q1 - 1));
            if (at != std::string_view::npos)
                std::tie(err.line, err.column) = lineColumn(text, at);
        }
        errors.push_back(std::move(err));
        return std::nullopt;
    } catch (const std::exception& e) {
        errors.push_back({"", "cannot parse the file: " + sanitizeUtf8(e.what())});
        return std::nullopt;
    }
    if (!root.is_object()) {
        errors.push_back({"$", "wrong type: the file must hold a JSON object, got " + describe(root)});
        return std::nullopt;
    }
    errors.insert(errors.end(), duplicates.begin(), duplicates.end());
    return root;
}

bool checkHeader(const Json& root, InputErrors& errors, const char* schema, int version,
                 std::string_view what) {
    const auto s = root.find("schema");
    if (s == root.end()) {
        errors.push_back(
            {"$.schema", std::string("missing required key \"schema\" (expected \"") + schema + "\")"});
    } else if (!s->is_string()) {
        errors.push_back({"$.schema", std::string("wrong type: expected the string \"") + schema +
                                          "\", got " + describe(*s)});
    } else if (s->get_ref<const std::string&>() != schema) {
        errors.push_back({"$.schema", "wrong schema: expected \"" + std::string(schema) + "\", got " +
                                          quoteJson(s->get_ref<const std::string&>()) + " (not a " +
                                          std::string(what) + " file)"});
        return false;
    }
    const auto v = root.find("version");
    const std::string expected = std::to_string(version);
    if (v == root.end()) {
        errors.push_back({"$.version", "missing required key \"version\" (expected " + expected + ")"});
    } else if (!v->is_number() || v->get<double>() != std::floor(v->get<double>())) {
        errors.push_back(
            {"$.version", "wrong type: expected the integer " + expected + ", got " + describe(*v)});
    } else if (v->get<double>() > version) {
        errors.push_back(
            {"$.version", "unsupported version " + describe(*v) +
                              ": the file was written by a newer version of Layout Planner (this one reads " +
                              std::string(what) + " files up to version " + expected + ")"});
        return false;
    } else if (v->get<double>() < 1) {
        errors.push_back({"$.version", "out of range: must be an integer from 1 to " + expected + ", got " +
                                           describe(*v)});
    }
    return true;
}

InputErrors capped(InputErrors errors) {
    constexpr std::size_t kMaxErrors = 100;
    if (errors.size() > kMaxErrors) {
        const std::size_t more = errors.size() - kMaxErrors;
        errors.resize(kMaxErrors);
        errors.push_back({"", "... and " + std::to_string(more) + " more problems"});
    }
    return errors;
}

// ------------------------------------------------------------------------------------------------
// Typed reads

std::string DoubleRange::text() const {
    return std::string("must be ") + (loInclusive ? "at least " : "greater than ") + fmtNumber(lo) + " and " +
           (hiInclusive ? "at most " : "less than ") + fmtNumber(hi);
}

void ObjectReader::invalid(std::string_view key, std::string reason) {
    m_bad.emplace(key);
    error(key, std::move(reason));
}

const Json* ObjectReader::find(std::string_view key) const {
    if (!m_obj.is_object())
        return nullptr;
    const auto it = m_obj.find(std::string(key));
    if (it == m_obj.end() || (m_strictness == Strictness::Lenient && it->is_null()))
        return nullptr;
    return &*it;
}

bool ObjectReader::require(std::string_view key) {
    if (has(key))
        return true;
    error(key, "missing required key " + quoteJson(key) +
                   (m_obj.is_object() ? "" : " (" + m_path + " is " + describe(m_obj) + ", not an object)"));
    return false;
}

bool ObjectReader::readInt(std::string_view key, int& out, long long lo, long long hi) {
    const Json* v = find(key);
    if (!v)
        return true;
    const std::string range = "must be an integer from " + std::to_string(lo) + " to " + std::to_string(hi);
    long long value = 0;
    if (v->is_number_unsigned()) {
        const auto u = v->get<std::uint64_t>();
        if (u > static_cast<std::uint64_t>(hi)) {
            invalid(key, "out of range: " + range + ", got " + std::to_string(u));
            return false;
        }
        value = static_cast<long long>(u);
    } else if (v->is_number_integer()) {
        value = v->get<std::int64_t>();
    } else if (v->is_number_float()) {
        const double d = v->get<double>();
        if (!std::isfinite(d) || d < static_cast<double>(lo) || d > static_cast<double>(hi)) {
            invalid(key, "out of range: " + range + ", got " + fmtNumber(d));
            return false;
        }
        if (d != std::floor(d)) {
            invalid(key, "wrong type: expected an integer, got " + fmtNumber(d));
            return false;
        }
        value = static_cast<long long>(d);
    } else {
        invalid(key, "wrong type: expected an integer, got " + describe(*v));
        return false;
    }
    if (value < lo || value > hi) {
        invalid(key, "out of range: " + range + ", got " + std::to_string(value));
        return false;
    }
    out = static_cast<int>(value);
    return true;
}

bool ObjectReader::readDouble(std::string_view key, double& out, DoubleRange range) {
    const Json* v = find(key);
    if (!v)
        return true;
    if (!v->is_number()) {
        invalid(key, "wrong type: expected a number, got " + describe(*v));
        return false;
    }
    const double d = v->get<double>();
    if (!range.contains(d)) {
        invalid(key, "out of range: " + range.text() + ", got " + fmtNumber(d));
        return false;
    }
    out = d;
    return true;
}

bool ObjectReader::readBool(std::string_view key, bool& out) {
    const Json* v = find(key);
    if (!v)
        return true;
    if (!v->is_boolean()) {
        invalid(key, "wrong type: expected true or false, got " + describe(*v));
        return false;
    }
    out = v->get<bool>();
    return true;
}

bool ObjectReader::readString(std::string_view key, std::string& out) {
    const Json* v = find(key);
    if (!v)
        return true;
    if (!v->is_string()) {
        invalid(key, "wrong type: expected a string, got " + describe(*v));
        return false;
    }
    out = v->get<std::string>();
    return true;
}

void ObjectReader::reportUnknownKeys() {
    if (m_strictness == Strictness::Lenient)
        return;
    for (auto it = m_obj.begin(); it != m_obj.end(); ++it) {
        if (std::find(m_keys.begin(), m_keys.end(), it.key()) != m_keys.end())
            continue;
        m_errors.push_back(
            {path(it.key()), "unknown key " + quoteJson(it.key()) + didYouMean(it.key(), m_keys)});
    }
}

std::optional<unsigned> recomputeModulesFromJson(const Json& v, std::string& where, std::string& reason) {
    std::vector<std::string> names;
    for (const auto& m : kRecomputeModuleNames)
        names.emplace_back(m.name);
    if (!v.is_array()) {
        reason = "wrong type: expected an array of " + joinList(names) + ", got " + describe(v);
        return std::nullopt;
    }
    unsigned bits = 0;
    for (std::size_t i = 0; i < v.size(); ++i) {
        const Json& e = v[i];
        if (!e.is_string()) {
            where = "[" + std::to_string(i) + "]";
            reason = "wrong type: expected one of " + joinList(names) + ", got " + describe(e);
            return std::nullopt;
        }
        const std::string& name = e.get_ref<const std::string&>();
        const auto bit = parseRecomputeModule(name);
        if (!bit) {
            where = "[" + std::to_string(i) + "]";
            reason = "unknown module " + quoteJson(name) + didYouMean(name, names) + ": expected one of " +
                     joinList(names);
            return std::nullopt;
        }
        bits |= *bit;
    }
    return bits;
}

Json recomputeModulesJson(unsigned modules) {
    Json j = Json::array();
    for (const auto& m : kRecomputeModuleNames)
        if (modules & m.bit)
            j.push_back(std::string(m.name));
    return j;
}

bool ObjectReader::readRecomputeModules(std::string_view key, unsigned& out) {
    const Json* v = find(key);
    if (!v)
        return true;
    std::string where, reason;
    const auto bits = recomputeModulesFromJson(*v, where, reason);
    if (!bits) {
        m_bad.emplace(key);
        m_errors.push_back({path(key) + where, std::move(reason)});
        return false;
    }
    out = *bits;
    return true;
}

} // namespace lp::core::json
