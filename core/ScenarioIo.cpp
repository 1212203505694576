// Scenario and hardware-profile files. The format is documented in docs/formats.md; keep the two in
// step. Loading collects every problem (JSON path and reason) and never half-loads; saving is atomic.
#include "core/ScenarioIo.h"

#include "core/Presets.h"
#include "core/Types.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <fcntl.h>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>

namespace lp::core {
namespace {

using Json = nlohmann::ordered_json;

constexpr std::size_t kMaxFileBytes = 64u * 1024u * 1024u;

// ------------------------------------------------------------------------------------------------
// Formatting

std::string errnoText(int e) {
    return std::generic_category().message(e);
}

// The shortest text that reads back to the same double, exponent tidied: 8e10, 5e-6, 0.85.
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

// Text that is valid UTF-8: bytes of ill-formed sequences are written as <0xE9>.
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

bool isPlainKey(std::string_view key) {
    return !key.empty() && std::all_of(key.begin(), key.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
    });
}

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
// "Did you mean": the closest candidate by optimal-string-alignment distance, case-insensitive.

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

    struct TooDeep {};
    static constexpr std::size_t kMaxDepth = 64; // the formats need 4; this keeps hostile files cheap

    bool operator()(int /*depth*/, nlohmann::detail::parse_event_t event, Json& parsed) {
        using E = nlohmann::detail::parse_event_t;
        switch (event) {
        case E::object_start:
        case E::array_start:
            if (m_frames.size() >= kMaxDepth)
                throw TooDeep{};
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
    InputErrors& m_errors;
    std::vector<Frame> m_frames;
};

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

// Parses `text` into an object; on failure appends to errors and returns nullopt.
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
    } catch (const DuplicateKeyTracker::TooDeep&) {
        errors.push_back({"", "the file is nested too deeply (more than " +
                                  std::to_string(DuplicateKeyTracker::kMaxDepth) +
                                  " levels of objects and arrays)"});
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

// ------------------------------------------------------------------------------------------------
// Reading typed values out of an object, collecting errors.

struct DoubleRange {
    double lo;
    bool loInclusive;
    double hi;
    bool hiInclusive;
    bool contains(double v) const {
        return std::isfinite(v) && (loInclusive ? v >= lo : v > lo) && (hiInclusive ? v <= hi : v < hi);
    }
    std::string text() const {
        return std::string("must be ") + (loInclusive ? "at least " : "greater than ") + fmtNumber(lo) +
               " and " + (hiInclusive ? "at most " : "less than ") + fmtNumber(hi);
    }
};
constexpr DoubleRange positive(double hi) {
    return {0.0, false, hi, true};
}
constexpr DoubleRange nonNegative(double hi) {
    return {0.0, true, hi, true};
}

class ObjectReader {
public:
    ObjectReader(const Json& obj, std::string path, InputErrors& errors,
                 std::initializer_list<const char*> keys)
        : m_obj(obj), m_path(std::move(path)), m_errors(errors), m_keys(keys.begin(), keys.end()) {}

    const std::string& path() const { return m_path; }
    std::string path(std::string_view key) const { return childPath(m_path, key); }
    InputErrors& errors() { return m_errors; }
    void error(std::string_view key, std::string reason) {
        m_errors.push_back({path(key), std::move(reason)});
    }

    const Json* find(std::string_view key) const {
        const auto it = m_obj.find(std::string(key));
        return it == m_obj.end() ? nullptr : &*it;
    }
    bool has(std::string_view key) const { return find(key) != nullptr; }

    // Each reader leaves `out` untouched when the key is absent or its value is bad; returns false when bad.
    bool readInt(std::string_view key, int& out, long long lo, long long hi) {
        const Json* v = find(key);
        if (!v)
            return true;
        const std::string range =
            "must be an integer from " + std::to_string(lo) + " to " + std::to_string(hi);
        long long value = 0;
        if (v->is_number_unsigned()) {
            const auto u = v->get<std::uint64_t>();
            if (u > static_cast<std::uint64_t>(hi)) {
                error(key, "out of range: " + range + ", got " + std::to_string(u));
                return false;
            }
            value = static_cast<long long>(u);
        } else if (v->is_number_integer()) {
            value = v->get<std::int64_t>();
        } else if (v->is_number_float()) {
            const double d = v->get<double>();
            if (!std::isfinite(d) || d < static_cast<double>(lo) || d > static_cast<double>(hi)) {
                error(key, "out of range: " + range + ", got " + fmtNumber(d));
                return false;
            }
            if (d != std::floor(d)) {
                error(key, "wrong type: expected an integer, got " + fmtNumber(d));
                return false;
            }
            value = static_cast<long long>(d);
        } else {
            error(key, "wrong type: expected an integer, got " + describe(*v));
            return false;
        }
        if (value < lo || value > hi) {
            error(key, "out of range: " + range + ", got " + std::to_string(value));
            return false;
        }
        out = static_cast<int>(value);
        return true;
    }

    bool readDouble(std::string_view key, double& out, DoubleRange range) {
        const Json* v = find(key);
        if (!v)
            return true;
        if (!v->is_number()) {
            error(key, "wrong type: expected a number, got " + describe(*v));
            return false;
        }
        const double d = v->get<double>();
        if (!range.contains(d)) {
            error(key, "out of range: " + range.text() + ", got " + fmtNumber(d));
            return false;
        }
        out = d;
        return true;
    }

    bool readBool(std::string_view key, bool& out) {
        const Json* v = find(key);
        if (!v)
            return true;
        if (!v->is_boolean()) {
            error(key, "wrong type: expected true or false, got " + describe(*v));
            return false;
        }
        out = v->get<bool>();
        return true;
    }

    bool readString(std::string_view key, std::string& out) {
        const Json* v = find(key);
        if (!v)
            return true;
        if (!v->is_string()) {
            error(key, "wrong type: expected a string, got " + describe(*v));
            return false;
        }
        out = v->get<std::string>();
        return true;
    }

    template <typename E>
    bool readEnum(std::string_view key, E& out, std::optional<E> (*parse)(std::string_view),
                  std::initializer_list<E> allowed) {
        const Json* v = find(key);
        if (!v)
            return true;
        std::vector<std::string> names;
        for (E e : allowed)
            names.emplace_back(toString(e));
        if (!v->is_string()) {
            error(key, "wrong type: expected one of " + joinList(names) + ", got " + describe(*v));
            return false;
        }
        const std::string& s = v->get_ref<const std::string&>();
        if (auto e = parse(s)) {
            out = *e;
            return true;
        }
        error(key, "unknown value " + quoteJson(s) + didYouMean(s, names) + ": expected one of " +
                       joinList(names));
        return false;
    }

    // Reports every key not in the allowed list.
    void reportUnknownKeys() {
        for (auto it = m_obj.begin(); it != m_obj.end(); ++it) {
            if (std::find(m_keys.begin(), m_keys.end(), it.key()) != m_keys.end())
                continue;
            m_errors.push_back(
                {path(it.key()), "unknown key " + quoteJson(it.key()) + didYouMean(it.key(), m_keys)});
        }
    }

private:
    const Json& m_obj;
    std::string m_path;
    InputErrors& m_errors;
    std::vector<std::string> m_keys;
};

template <typename Preset, typename IdOf>
std::string unknownPreset(std::string_view kind, const std::string& name, const std::vector<Preset>& all,
                          IdOf idOf) {
    std::vector<std::string> ids;
    for (const auto& p : all)
        ids.push_back(idOf(p));
    std::string reason =
        "unknown " + std::string(kind) + " preset " + quoteJson(name) + didYouMean(name, ids);
    if (!ids.empty())
        reason += "; known: " + joinList(ids);
    return reason;
}

const ModelPreset* lookUpModel(const Json& v, const std::string& path, InputErrors& errors) {
    if (!v.is_string()) {
        errors.push_back({path, "wrong type: expected a model preset name, got " + describe(v)});
        return nullptr;
    }
    const std::string& name = v.get_ref<const std::string&>();
    if (const ModelPreset* p = findModelPreset(name))
        return p;
    errors.push_back(
        {path, unknownPreset("model", name, modelPresets(), [](const ModelPreset& p) { return p.id; })});
    return nullptr;
}

const GpuPreset* lookUpGpu(const Json& v, const std::string& path, InputErrors& errors) {
    if (!v.is_string()) {
        errors.push_back({path, "wrong type: expected a GPU preset name, got " + describe(v)});
        return nullptr;
    }
    const std::string& name = v.get_ref<const std::string&>();
    if (const GpuPreset* p = findGpuPreset(name))
        return p;
    errors.push_back(
        {path, unknownPreset("GPU", name, gpuPresets(), [](const GpuPreset& p) { return p.gpu.id; })});
    return nullptr;
}

const ClusterPreset* lookUpCluster(const Json& v, const std::string& path, InputErrors& errors) {
    if (!v.is_string()) {
        errors.push_back({path, "wrong type: expected a cluster preset name, got " + describe(v)});
        return nullptr;
    }
    const std::string& name = v.get_ref<const std::string&>();
    if (const ClusterPreset* p = findClusterPreset(name))
        return p;
    errors.push_back({path, unknownPreset("cluster", name, clusterPresets(),
                                          [](const ClusterPreset& p) { return p.id; })});
    return nullptr;
}

// Header: schema and version. Returns false when the rest of the file must not be interpreted.
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
        errors.push_back({"$.version", "unsupported version " + describe(*v) +
                                           ": the file was written by a newer "
                                           "version of Layout Planner (this one reads " +
                                           std::string(what) + " files up to version " + expected + ")"});
        return false;
    } else if (v->get<double>() < 1) {
        errors.push_back({"$.version", "out of range: must be an integer from 1 to " + expected + ", got " +
                                           describe(*v)});
    }
    return true;
}

// ------------------------------------------------------------------------------------------------
// Scenario: reading

// Limits on sizes: generous, but they keep arithmetic far from overflow and catch typos.
constexpr long long kMaxLayers = 100000;
constexpr long long kMaxHidden = 1000000;
constexpr long long kMaxHeads = 100000;
constexpr long long kMaxWidth = 10000000; // ffn_hidden, vocab, seq_len
constexpr long long kMaxCount = 1000000;  // nodes, layout degrees, micro batch, accumulation
constexpr double kMaxRate = 1e18;         // FLOP/s, bytes, bytes/s, tokens

void readMoe(const Json& j, const std::string& path, MoeSpec& moe, int layers, InputErrors& errors) {
    if (j.is_null()) {
        moe = MoeSpec{};
        return;
    }
    if (!j.is_object()) {
        errors.push_back({path, "wrong type: expected an object or null, got " + describe(j)});
        return;
    }
    ObjectReader r(
        j, path, errors,
        {"experts", "top_k", "expert_ffn_hidden", "shared_experts", "moe_layers", "capacity_factor"});
    const bool expertsOk = r.readInt("experts", moe.experts, 0, kMaxHeads);
    const bool topKOk = r.readInt("top_k", moe.topK, 0, kMaxHeads);
    const bool ffnOk = r.readInt("expert_ffn_hidden", moe.expertFfnHidden, 0, kMaxWidth);
    r.readInt("shared_experts", moe.sharedExperts, 0, kMaxHeads);
    const bool layersOk = r.readInt("moe_layers", moe.moeLayers, 0, kMaxLayers);
    r.readDouble("capacity_factor", moe.capacityFactor, positive(1000));
    r.reportUnknownKeys();
    if (expertsOk && topKOk && moe.experts > 0 && (moe.topK < 1 || moe.topK > moe.experts))
        r.error("top_k", "out of range: must be an integer from 1 to experts (" +
                             std::to_string(moe.experts) + "), got " + std::to_string(moe.topK));
    if (expertsOk && ffnOk && moe.experts > 0 && moe.expertFfnHidden < 1)
        r.error("expert_ffn_hidden", "out of range: must be at least 1 in a MoE model, got 0");
    if (layersOk && layers > 0 && moe.moeLayers > layers)
        r.error("moe_layers", "out of range: must be an integer from 0 to layers (" + std::to_string(layers) +
                                  "), got " + std::to_string(moe.moeLayers));
}

void readMla(const Json& j, const std::string& path, MlaSpec& mla, InputErrors& errors) {
    if (!j.is_object()) {
        errors.push_back({path, "wrong type: expected an object, got " + describe(j)});
        return;
    }
    ObjectReader r(j, path, errors,
                   {"q_lora_rank", "kv_lora_rank", "qk_nope_head_dim", "qk_rope_head_dim", "v_head_dim"});
    r.readInt("q_lora_rank", mla.qLoraRank, 0, kMaxHidden);
    r.readInt("kv_lora_rank", mla.kvLoraRank, 1, kMaxHidden);
    r.readInt("qk_nope_head_dim", mla.qkNopeHeadDim, 1, kMaxHidden);
    r.readInt("qk_rope_head_dim", mla.qkRopeHeadDim, 0, kMaxHidden);
    r.readInt("v_head_dim", mla.vHeadDim, 1, kMaxHidden);
    r.reportUnknownKeys();
}

ModelSpec readModel(const Json* j, const std::string& path, InputErrors& errors) {
    ModelSpec m;
    if (!j)
        return m;
    if (j->is_string()) {
        if (const ModelPreset* p = lookUpModel(*j, path, errors))
            m = p->model;
        return m;
    }
    if (!j->is_object()) {
        errors.push_back(
            {path, "wrong type: expected a model preset name or an object, got " + describe(*j)});
        return m;
    }
    ObjectReader r(*j, path, errors,
                   {"preset", "name", "layers", "hidden", "heads", "kv_heads", "ffn_hidden", "vocab",
                    "seq_len", "mlp", "norm", "tied_embeddings", "biases", "learned_positions", "dropout",
                    "head_size", "attention", "mla", "moe"});
    bool fromPreset = false;
    if (const Json* p = r.find("preset")) {
        if (const ModelPreset* preset = lookUpModel(*p, r.path("preset"), errors)) {
            m = preset->model;
            fromPreset = true;
        }
    }
    r.readString("name", m.name);
    const bool layersOk = r.readInt("layers", m.layers, 1, kMaxLayers);
    const bool hiddenOk = r.readInt("hidden", m.hidden, 1, kMaxHidden);
    const bool headsOk = r.readInt("heads", m.heads, 1, kMaxHeads);
    bool kvOk = true;
    if (r.has("kv_heads"))
        kvOk = r.readInt("kv_heads", m.kvHeads, 1, kMaxHeads);
    else if (!fromPreset)
        m.kvHeads = m.heads; // no grouped-query attention unless asked for
    r.readInt("ffn_hidden", m.ffnHidden, 1, kMaxWidth);
    r.readInt("vocab", m.vocab, 1, kMaxWidth);
    r.readInt("seq_len", m.seqLen, 1, kMaxWidth);
    r.readEnum("mlp", m.mlp, &parseMlpKind, {MlpKind::Gelu, MlpKind::SwiGlu});
    r.readEnum("norm", m.norm, &parseNormKind, {NormKind::LayerNorm, NormKind::RmsNorm});
    r.readBool("tied_embeddings", m.tiedEmbeddings);
    r.readBool("biases", m.biases);
    r.readBool("learned_positions", m.learnedPositions);
    r.readBool("dropout", m.dropout);
    r.readInt("head_size", m.headSize, 0, kMaxHidden);
    r.readEnum("attention", m.attention, &parseAttentionKind, {AttentionKind::Standard, AttentionKind::Mla});
    if (const Json* mla = r.find("mla"))
        readMla(*mla, r.path("mla"), m.mla, errors);
    if (const Json* moe = r.find("moe"))
        readMoe(*moe, r.path("moe"), m.moe, layersOk ? m.layers : 0, errors);
    r.reportUnknownKeys();
    if (hiddenOk && headsOk && m.heads > m.hidden)
        r.error("heads", "out of range: must be at most hidden (" + std::to_string(m.hidden) + "), got " +
                             std::to_string(m.heads));
    if (headsOk && kvOk && m.kvHeads > m.heads)
        r.error("kv_heads", "out of range: must be at most heads (" + std::to_string(m.heads) + "), got " +
                                std::to_string(m.kvHeads));
    return m;
}

void readGpu(const Json& j, const std::string& path, GpuSpec& gpu, InputErrors& errors) {
    if (j.is_string()) {
        if (const GpuPreset* p = lookUpGpu(j, path, errors))
            gpu = p->gpu;
        return;
    }
    if (!j.is_object()) {
        errors.push_back({path, "wrong type: expected a GPU preset name or an object, got " + describe(j)});
        return;
    }
    ObjectReader r(j, path, errors,
                   {"preset", "id", "name", "peak_flops16", "peak_flops8", "hbm_bytes",
                    "hbm_bandwidth_bytes_per_s", "nvlink_bandwidth_bytes_per_s",
                    "network_bandwidth_bytes_per_s", "source"});
    if (const Json* p = r.find("preset"))
        if (const GpuPreset* preset = lookUpGpu(*p, r.path("preset"), errors))
            gpu = preset->gpu;
    r.readString("id", gpu.id);
    r.readString("name", gpu.name);
    r.readDouble("peak_flops16", gpu.peakFlops16, positive(kMaxRate));
    r.readDouble("peak_flops8", gpu.peakFlops8, nonNegative(kMaxRate));
    r.readDouble("hbm_bytes", gpu.hbmBytes, positive(kMaxRate));
    r.readDouble("hbm_bandwidth_bytes_per_s", gpu.hbmBandwidth, positive(kMaxRate));
    r.readDouble("nvlink_bandwidth_bytes_per_s", gpu.nvlinkBandwidth, positive(kMaxRate));
    r.readDouble("network_bandwidth_bytes_per_s", gpu.networkBandwidth, positive(kMaxRate));
    r.readString("source", gpu.source);
    r.reportUnknownKeys();
}

ClusterSpec readCluster(const Json* j, const std::string& path, InputErrors& errors) {
    ClusterSpec c;
    if (!j)
        return c;
    if (j->is_string()) {
        if (const ClusterPreset* p = lookUpCluster(*j, path, errors))
            c = makeCluster(*p, c.nodes);
        return c;
    }
    if (!j->is_object()) {
        errors.push_back(
            {path, "wrong type: expected a cluster preset name or an object, got " + describe(*j)});
        return c;
    }
    ObjectReader r(*j, path, errors,
                   {"preset", "name", "gpu", "nodes", "gpus_per_node", "nvlink_domain", "nvlink_latency_s",
                    "network_latency_s"});
    int nodes = c.nodes;
    r.readInt("nodes", nodes, 1, kMaxCount);
    if (const Json* p = r.find("preset"))
        if (const ClusterPreset* preset = lookUpCluster(*p, r.path("preset"), errors))
            c = makeCluster(*preset, nodes);
    c.nodes = nodes;
    // The NVLink domain follows the node size unless the base spans more than a node (NVL72 racks).
    const bool domainIsNode = c.nvlinkDomain == c.gpusPerNode;
    r.readString("name", c.name);
    const bool perNodeOk = r.readInt("gpus_per_node", c.gpusPerNode, 1, kMaxCount);
    if (r.has("nvlink_domain"))
        r.readInt("nvlink_domain", c.nvlinkDomain, 1, kMaxCount);
    else if (domainIsNode && perNodeOk)
        c.nvlinkDomain = c.gpusPerNode;
    r.readDouble("nvlink_latency_s", c.nvlinkLatencySeconds, nonNegative(1.0));
    r.readDouble("network_latency_s", c.networkLatencySeconds, nonNegative(1.0));
    if (const Json* g = r.find("gpu"))
        readGpu(*g, r.path("gpu"), c.gpu, errors);
    r.reportUnknownKeys();
    return c;
}

TrainingOptions readTraining(const Json* j, const std::string& path, InputErrors& errors) {
    TrainingOptions t;
    if (!j)
        return t;
    if (!j->is_object()) {
        errors.push_back({path, "wrong type: expected an object, got " + describe(*j)});
        return t;
    }
    ObjectReader r(*j, path, errors,
                   {"precision", "optimizer", "zero_stage", "recompute", "sequence_parallel",
                    "flash_attention", "loader_prefetch", "loader_tokens_per_s", "straggler_slowdown",
                    "allocator_reserve_fraction", "moe_load_imbalance", "execution_style", "attention_flops",
                    "token_budget_tokens"});
    r.readEnum("precision", t.precision, &parsePrecision, {Precision::Bf16, Precision::Fp16, Precision::Fp8});
    r.readEnum("optimizer", t.optimizer, &parseOptimizer, {Optimizer::Adam, Optimizer::SgdMomentum});
    r.readInt("zero_stage", t.zeroStage, 0, 3);
    r.readEnum("recompute", t.recompute, &parseRecompute,
               {Recompute::None, Recompute::Selective, Recompute::Full});
    r.readBool("sequence_parallel", t.sequenceParallel);
    r.readBool("flash_attention", t.flashAttention);
    r.readBool("loader_prefetch", t.loaderPrefetch);
    r.readDouble("loader_tokens_per_s", t.loaderTokensPerSecond, positive(kMaxRate));
    r.readDouble("straggler_slowdown", t.stragglerSlowdown, nonNegative(10.0));
    r.readDouble("allocator_reserve_fraction", t.allocatorReserveFraction, {0.0, true, 1.0, false});
    r.readDouble("moe_load_imbalance", t.moeLoadImbalance, {1.0, true, 1000.0, true});
    r.readEnum("execution_style", t.executionStyle, &parseExecutionStyle,
               {ExecutionStyle::Auto, ExecutionStyle::Megatron, ExecutionStyle::Fsdp});
    r.readEnum("attention_flops", t.attentionFlops, &parseAttentionFlops,
               {AttentionFlops::Full, AttentionFlops::Causal});
    r.readDouble("token_budget_tokens", t.tokenBudget, positive(kMaxRate));
    r.reportUnknownKeys();
    return t;
}

Layout readLayout(const Json* j, const std::string& path, InputErrors& errors) {
    Layout l;
    if (!j)
        return l;
    if (!j->is_object()) {
        errors.push_back({path, "wrong type: expected an object, got " + describe(*j)});
        return l;
    }
    ObjectReader r(*j, path, errors, {"tp", "pp", "dp", "cp", "ep", "vpp", "micro_batch", "accumulation"});
    r.readInt("tp", l.tp, 1, kMaxCount);
    r.readInt("pp", l.pp, 1, kMaxCount);
    r.readInt("dp", l.dp, 1, kMaxCount);
    r.readInt("cp", l.cp, 1, kMaxCount);
    r.readInt("ep", l.ep, 1, kMaxCount);
    r.readInt("vpp", l.vpp, 1, kMaxCount);
    r.readInt("micro_batch", l.microBatch, 1, kMaxCount);
    r.readInt("accumulation", l.accumulation, 1, kMaxCount);
    r.reportUnknownKeys();
    return l;
}

// ------------------------------------------------------------------------------------------------
// Scenario: writing

Json modelToJson(const ModelSpec& m) {
    Json j;
    j["name"] = m.name;
    j["layers"] = m.layers;
    j["hidden"] = m.hidden;
    j["heads"] = m.heads;
    j["kv_heads"] = m.kvHeads;
    j["ffn_hidden"] = m.ffnHidden;
    j["vocab"] = m.vocab;
    j["seq_len"] = m.seqLen;
    j["mlp"] = toString(m.mlp);
    j["norm"] = toString(m.norm);
    j["tied_embeddings"] = m.tiedEmbeddings;
    j["biases"] = m.biases;
    j["learned_positions"] = m.learnedPositions;
    j["dropout"] = m.dropout;
    j["head_size"] = m.headSize;
    j["attention"] = toString(m.attention);
    Json mla;
    mla["q_lora_rank"] = m.mla.qLoraRank;
    mla["kv_lora_rank"] = m.mla.kvLoraRank;
    mla["qk_nope_head_dim"] = m.mla.qkNopeHeadDim;
    mla["qk_rope_head_dim"] = m.mla.qkRopeHeadDim;
    mla["v_head_dim"] = m.mla.vHeadDim;
    j["mla"] = std::move(mla);
    Json moe;
    moe["experts"] = m.moe.experts;
    moe["top_k"] = m.moe.topK;
    moe["expert_ffn_hidden"] = m.moe.expertFfnHidden;
    moe["shared_experts"] = m.moe.sharedExperts;
    moe["moe_layers"] = m.moe.moeLayers;
    moe["capacity_factor"] = m.moe.capacityFactor;
    j["moe"] = std::move(moe);
    return j;
}

Json gpuToJson(const GpuSpec& g) {
    Json j;
    j["id"] = g.id;
    j["name"] = g.name;
    j["peak_flops16"] = g.peakFlops16;
    j["peak_flops8"] = g.peakFlops8;
    j["hbm_bytes"] = g.hbmBytes;
    j["hbm_bandwidth_bytes_per_s"] = g.hbmBandwidth;
    j["nvlink_bandwidth_bytes_per_s"] = g.nvlinkBandwidth;
    j["network_bandwidth_bytes_per_s"] = g.networkBandwidth;
    j["source"] = g.source;
    return j;
}

Json clusterToJson(const ClusterSpec& c) {
    Json j;
    j["name"] = c.name;
    j["nodes"] = c.nodes;
    j["gpus_per_node"] = c.gpusPerNode;
    j["nvlink_domain"] = c.nvlinkDomain;
    j["nvlink_latency_s"] = c.nvlinkLatencySeconds;
    j["network_latency_s"] = c.networkLatencySeconds;
    j["gpu"] = gpuToJson(c.gpu);
    return j;
}

Json trainingToJson(const TrainingOptions& t) {
    Json j;
    j["precision"] = toString(t.precision);
    j["optimizer"] = toString(t.optimizer);
    j["zero_stage"] = t.zeroStage;
    j["recompute"] = toString(t.recompute);
    j["sequence_parallel"] = t.sequenceParallel;
    j["flash_attention"] = t.flashAttention;
    j["loader_prefetch"] = t.loaderPrefetch;
    j["loader_tokens_per_s"] = t.loaderTokensPerSecond;
    j["straggler_slowdown"] = t.stragglerSlowdown;
    j["allocator_reserve_fraction"] = t.allocatorReserveFraction;
    j["moe_load_imbalance"] = t.moeLoadImbalance;
    j["execution_style"] = toString(t.executionStyle);
    j["attention_flops"] = toString(t.attentionFlops);
    j["token_budget_tokens"] = t.tokenBudget;
    return j;
}

Json layoutToJson(const Layout& l) {
    Json j;
    j["tp"] = l.tp;
    j["pp"] = l.pp;
    j["dp"] = l.dp;
    j["cp"] = l.cp;
    j["ep"] = l.ep;
    j["vpp"] = l.vpp;
    j["micro_batch"] = l.microBatch;
    j["accumulation"] = l.accumulation;
    return j;
}

std::string jsonDouble(double v) {
    return std::isfinite(v) ? fmtNumber(v) : "null"; // JSON has no infinity; reading it back names the key
}

bool isScalar(const Json& j) {
    return !j.is_object() && !j.is_array();
}

// Pretty printing with two-space indents; arrays of plain values stay on one line ([1e6, 0.42]).
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

std::string dumpPretty(const Json& j) {
    std::string out;
    writeJson(out, j, 0);
    return out + "\n";
}

// ------------------------------------------------------------------------------------------------
// Hardware profile

constexpr DoubleRange kEfficiency{0.0, false, 1.5, true};
constexpr DoubleRange kCurveX{0.0, false, 1e30, true};

void readCurve(ObjectReader& r, std::string_view key, Curve& out, bool required) {
    const Json* v = r.find(key);
    if (!v) {
        if (required)
            r.error(key, "missing required key " + quoteJson(key) + " (a list of [x, efficiency] points)");
        return;
    }
    if (!v->is_array()) {
        r.error(key, "wrong type: expected an array of [x, efficiency] points, got " + describe(*v));
        return;
    }
    if (v->empty() && required) {
        r.error(key, "out of range: needs at least one [x, efficiency] point, got an empty array");
        return;
    }
    const std::string path = r.path(key);
    Curve curve;
    bool ok = true;
    double previousX = 0;
    for (std::size_t i = 0; i < v->size(); ++i) {
        const Json& p = (*v)[i];
        const std::string pp = indexPath(path, i);
        if (!p.is_array() || p.size() != 2) {
            r.errors().push_back(
                {pp,
                 "wrong type: expected a pair [x, efficiency], got " +
                     (p.is_array() ? "an array of " + std::to_string(p.size()) + " values" : describe(p))});
            ok = false;
            continue;
        }
        bool pointOk = true;
        for (std::size_t k = 0; k < 2; ++k) {
            if (!p[k].is_number()) {
                r.errors().push_back(
                    {indexPath(pp, k), "wrong type: expected a number, got " + describe(p[k])});
                pointOk = false;
                continue;
            }
            const DoubleRange& range = k == 0 ? kCurveX : kEfficiency;
            const double d = p[k].get<double>();
            if (!range.contains(d)) {
                r.errors().push_back(
                    {indexPath(pp, k), "out of range: " + range.text() + ", got " + fmtNumber(d)});
                pointOk = false;
            }
        }
        if (!pointOk) {
            ok = false;
            continue;
        }
        const double x = p[0].get<double>();
        if (!curve.points.empty() && !(x > previousX)) {
            r.errors().push_back(
                {indexPath(pp, 0), "out of order: x must be greater than the previous point's (" +
                                       fmtNumber(previousX) + "), got " + fmtNumber(x)});
            ok = false;
        }
        previousX = x;
        curve.points.emplace_back(x, p[1].get<double>());
    }
    if (ok)
        out = std::move(curve);
}

Json curveToJson(const Curve& c) {
    Json j = Json::array();
    for (const auto& [x, y] : c.points)
        j.push_back(Json::array({x, y}));
    return j;
}

// A hostile file can hold millions of problems; a person needs the first hundred.
InputErrors capped(InputErrors errors) {
    constexpr std::size_t kMaxErrors = 100;
    if (errors.size() > kMaxErrors) {
        const std::size_t more = errors.size() - kMaxErrors;
        errors.resize(kMaxErrors);
        errors.push_back({"", "... and " + std::to_string(more) + " more problems"});
    }
    return errors;
}

template <typename T, typename ReadFn> std::expected<T, InputErrors> guarded(ReadFn read) {
    try {
        return read();
    } catch (const std::exception& e) {
        return std::unexpected(InputErrors{{"", std::string("internal error while reading: ") + e.what()}});
    } catch (...) {
        return std::unexpected(InputErrors{{"", "internal error while reading"}});
    }
}

} // namespace

// ------------------------------------------------------------------------------------------------

std::string InputError::message() const {
    if (!path.empty())
        return path + ": " + reason;
    if (line > 0)
        return "line " + std::to_string(line) + ", column " + std::to_string(column) + ": " + reason;
    return reason;
}

std::expected<Scenario, InputErrors> scenarioFromJson(std::string_view text) {
    return guarded<Scenario>([&]() -> std::expected<Scenario, InputErrors> {
        InputErrors errors;
        const std::optional<Json> root = parseObject(text, errors);
        if (!root || !checkHeader(*root, errors, kScenarioSchema, kScenarioVersion, "scenario"))
            return std::unexpected(capped(std::move(errors)));
        Scenario s;
        ObjectReader r(*root, "$", errors,
                       {"schema", "version", "name", "notes", "model", "cluster", "training", "layout"});
        r.readString("name", s.name);
        r.readString("notes", s.notes);
        s.model = readModel(r.find("model"), r.path("model"), errors);
        s.cluster = readCluster(r.find("cluster"), r.path("cluster"), errors);
        s.training = readTraining(r.find("training"), r.path("training"), errors);
        s.layout = readLayout(r.find("layout"), r.path("layout"), errors);
        r.reportUnknownKeys();
        if (!errors.empty())
            return std::unexpected(capped(std::move(errors)));
        return s;
    });
}

std::string scenarioToJson(const Scenario& s) {
    Json j;
    j["schema"] = kScenarioSchema;
    j["version"] = kScenarioVersion;
    j["name"] = s.name;
    j["notes"] = s.notes;
    j["model"] = modelToJson(s.model);
    j["cluster"] = clusterToJson(s.cluster);
    j["training"] = trainingToJson(s.training);
    j["layout"] = layoutToJson(s.layout);
    return dumpPretty(j);
}

std::expected<Scenario, InputErrors> loadScenarioFile(const std::string& path) {
    auto text = readTextFile(path);
    if (!text)
        return std::unexpected(InputErrors{{"", text.error()}});
    return scenarioFromJson(*text);
}

std::expected<void, std::string> saveScenarioFile(const std::string& path, const Scenario& s) {
    return writeFileAtomically(path, scenarioToJson(s));
}

std::expected<HardwareProfile, InputErrors> profileFromJson(std::string_view text) {
    return guarded<HardwareProfile>([&]() -> std::expected<HardwareProfile, InputErrors> {
        InputErrors errors;
        const std::optional<Json> root = parseObject(text, errors);
        if (!root || !checkHeader(*root, errors, kProfileSchema, kProfileVersion, "hardware-profile"))
            return std::unexpected(capped(std::move(errors)));
        HardwareProfile p;
        ObjectReader r(*root, "$", errors,
                       {"schema", "version", "name", "gpu_id", "origin", "measured_on", "date",
                        "gemm_efficiency", "gemm_efficiency_fp8", "hbm_efficiency",
                        "attention_fwd_efficiency", "attention_bwd_efficiency", "nvlink_bus_efficiency",
                        "network_bus_efficiency", "nvlink_latency_s", "network_latency_s"});
        r.readString("name", p.name);
        r.readString("gpu_id", p.gpuId);
        if (r.readString("origin", p.origin) && p.origin != "built-in" && p.origin != "measured")
            r.error("origin", "unknown value " + quoteJson(p.origin) +
                                  didYouMean(p.origin, {"built-in", "measured"}) +
                                  ": expected one of built-in, measured");
        r.readString("measured_on", p.measuredOn);
        r.readString("date", p.date);
        readCurve(r, "gemm_efficiency", p.gemmEfficiency, true);
        readCurve(r, "gemm_efficiency_fp8", p.gemmEfficiencyFp8, false);
        r.readDouble("hbm_efficiency", p.hbmEfficiency, kEfficiency);
        r.readDouble("attention_fwd_efficiency", p.attentionFwdEfficiency, kEfficiency);
        r.readDouble("attention_bwd_efficiency", p.attentionBwdEfficiency, kEfficiency);
        readCurve(r, "nvlink_bus_efficiency", p.nvlinkBusEfficiency, true);
        readCurve(r, "network_bus_efficiency", p.networkBusEfficiency, true);
        r.readDouble("nvlink_latency_s", p.nvlinkLatencySeconds, nonNegative(1.0));
        r.readDouble("network_latency_s", p.networkLatencySeconds, nonNegative(1.0));
        r.reportUnknownKeys();
        if (!errors.empty())
            return std::unexpected(capped(std::move(errors)));
        return p;
    });
}

std::string profileToJson(const HardwareProfile& p) {
    Json j;
    j["schema"] = kProfileSchema;
    j["version"] = kProfileVersion;
    j["name"] = p.name;
    j["gpu_id"] = p.gpuId;
    j["origin"] = p.origin;
    j["measured_on"] = p.measuredOn;
    j["date"] = p.date;
    j["gemm_efficiency"] = curveToJson(p.gemmEfficiency);
    j["gemm_efficiency_fp8"] = curveToJson(p.gemmEfficiencyFp8);
    j["hbm_efficiency"] = p.hbmEfficiency;
    j["attention_fwd_efficiency"] = p.attentionFwdEfficiency;
    j["attention_bwd_efficiency"] = p.attentionBwdEfficiency;
    j["nvlink_bus_efficiency"] = curveToJson(p.nvlinkBusEfficiency);
    j["network_bus_efficiency"] = curveToJson(p.networkBusEfficiency);
    j["nvlink_latency_s"] = p.nvlinkLatencySeconds;
    j["network_latency_s"] = p.networkLatencySeconds;
    return dumpPretty(j);
}

std::expected<HardwareProfile, InputErrors> loadProfileFile(const std::string& path) {
    auto text = readTextFile(path);
    if (!text)
        return std::unexpected(InputErrors{{"", text.error()}});
    return profileFromJson(*text);
}

std::expected<void, std::string> saveProfileFile(const std::string& path, const HardwareProfile& p) {
    return writeFileAtomically(path, profileToJson(p));
}

// ------------------------------------------------------------------------------------------------
// Files

std::expected<std::string, std::string> readTextFile(const std::string& path) {
    if (path.empty())
        return std::unexpected("cannot read a file: no file name given");
    const auto failed = [&](int e) { return std::unexpected("cannot read " + path + ": " + errnoText(e)); };
    const auto tooLarge = [&]() {
        return std::unexpected("cannot read " + path + ": the file is larger than " +
                               std::to_string(kMaxFileBytes / (1024 * 1024)) +
                               " MiB, the limit for input files");
    };
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return failed(errno);
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
        const int e = errno;
        ::close(fd);
        return failed(e);
    }
    if (S_ISDIR(st.st_mode)) {
        ::close(fd);
        return failed(EISDIR);
    }
    if (S_ISREG(st.st_mode) && static_cast<unsigned long long>(st.st_size) > kMaxFileBytes) {
        ::close(fd);
        return tooLarge();
    }
    std::string text;
    try {
        if (S_ISREG(st.st_mode))
            text.reserve(static_cast<std::size_t>(st.st_size));
        char buf[65536];
        for (;;) {
            const ssize_t n = ::read(fd, buf, sizeof buf);
            if (n < 0) {
                if (errno == EINTR)
                    continue;
                const int e = errno;
                ::close(fd);
                return failed(e);
            }
            if (n == 0)
                break;
            if (text.size() + static_cast<std::size_t>(n) > kMaxFileBytes) {
                ::close(fd);
                return tooLarge();
            }
            text.append(buf, static_cast<std::size_t>(n));
        }
    } catch (const std::exception&) {
        ::close(fd);
        return failed(ENOMEM);
    }
    ::close(fd);
    return text;
}

std::expected<void, std::string> writeFileAtomically(const std::string& path, std::string_view content) {
    if (path.empty())
        return std::unexpected("cannot write a file: no file name given");
    const auto fail = [&](int e) { return std::unexpected("cannot write " + path + ": " + errnoText(e)); };

    // Replace what a symbolic link points to, keeping the link.
    std::string target = path;
    struct stat st {};
    if (::lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode)) {
        if (char* resolved = ::realpath(path.c_str(), nullptr)) {
            target = resolved;
            std::free(resolved);
        }
    }
    if (target.back() == '/')
        return fail(EISDIR);
    const bool exists = ::stat(target.c_str(), &st) == 0;
    if (exists && S_ISDIR(st.st_mode))
        return fail(EISDIR);

    const auto slash = target.rfind('/');
    const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : target.substr(0, slash);
    const std::string base = slash == std::string::npos ? target : target.substr(slash + 1);

    // A unique temporary file beside the target, so that the rename stays on one file system.
    static std::atomic<unsigned> counter{0};
    std::string temp;
    int fd = -1;
    for (int attempt = 0; attempt < 100 && fd < 0; ++attempt) {
        temp = dir + "/." + base.substr(0, 100) + ".tmp-" + std::to_string(::getpid()) + "-" +
               std::to_string(counter.fetch_add(1));
        fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST)
            return fail(errno);
    }
    if (fd < 0)
        return fail(EEXIST);
    const auto abandon = [&](int e) {
        if (fd >= 0)
            ::close(fd);
        ::unlink(temp.c_str());
        return fail(e);
    };
    if (exists)
        (void)::fchmod(fd, st.st_mode & 07777); // keep the old file's permissions

    const char* data = content.data();
    std::size_t left = content.size();
    while (left > 0) {
        const ssize_t n = ::write(fd, data, left);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return abandon(errno);
        }
        data += n;
        left -= static_cast<std::size_t>(n);
    }
    if (::fsync(fd) != 0)
        return abandon(errno);
    const int closed = ::close(fd);
    fd = -1;
    if (closed != 0)
        return abandon(errno);
    if (::rename(temp.c_str(), target.c_str()) != 0)
        return abandon(errno);
    // Make the rename itself durable; a failure here does not undo the save.
    const int dirFd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dirFd >= 0) {
        (void)::fsync(dirFd);
        ::close(dirFd);
    }
    return {};
}

} // namespace lp::core
