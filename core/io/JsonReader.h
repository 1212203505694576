#pragma once
// The error-collecting JSON reader behind every file io reads, and behind measured/'s validation cases:
// parsing reports syntax errors with line and column and duplicate keys with their path; typed reads report
// the JSON path, the expected type or range and the value found; unknown keys and values get a "did you
// mean". The per-type codecs (ModelJson.h, detail/HardwareJson.h) are built on it.
#include "core/io/InputError.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <exception>
#include <expected>
#include <initializer_list>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lp::core::json {

using Json = nlohmann::ordered_json;

// ------------------------------------------------------------------------------------------------
// Describing values and places in error messages

// Text that is valid UTF-8: bytes of ill-formed sequences are written as <0xE9>.
std::string sanitizeUtf8(std::string_view in);
// A JSON string literal of s, cut to 60 characters ("...").
std::string quoteJson(std::string_view s);
// What a value is, for "got ...": null, true, 42, a string ("x"), an object, ...
std::string describe(const Json& v);
// "$.model" + "heads" -> "$.model.heads"; keys that are not plain words are quoted: $["a b"].
std::string childPath(const std::string& parent, std::string_view key);
// "$.points" + 2 -> "$.points[2]".
std::string indexPath(const std::string& parent, std::size_t i);
// "a, b, c".
std::string joinList(const std::vector<std::string>& items);

// Megatron-Core's recompute modules (RecomputeModule bits) from an array of their names, or why not: the
// reason, and in `where` the bad element's index ("[1]") when it is one element.
std::optional<unsigned> recomputeModulesFromJson(const Json& v, std::string& where, std::string& reason);
// The array of names, in Megatron's order.
Json recomputeModulesJson(unsigned modules);

// "Did you mean": the closest candidate by optimal-string-alignment distance, case-insensitive.
std::optional<std::string> closest(std::string_view word, const std::vector<std::string>& candidates);
// " (did you mean \"x\"?)", or empty when nothing is close.
std::string didYouMean(std::string_view word, const std::vector<std::string>& candidates);

// ------------------------------------------------------------------------------------------------
// Parsing

// Parses `text` into an object; on failure appends to errors and returns nullopt. Duplicate keys are
// appended to errors too, but the object is still returned.
std::optional<Json> parseObject(std::string_view text, InputErrors& errors);

// Header: schema and version. Returns false when the rest of the file must not be interpreted.
bool checkHeader(const Json& root, InputErrors& errors, const char* schema, int version,
                 std::string_view what);

// A hostile file can hold millions of problems; a person needs the first hundred.
InputErrors capped(InputErrors errors);

// Runs read(), turning an escaped exception into an error rather than a crash.
template <typename T, typename ReadFn> std::expected<T, InputErrors> guarded(ReadFn read) {
    try {
        return read();
    } catch (const std::exception& e) {
        return std::unexpected(InputErrors{{"", std::string("internal error while reading: ") + e.what()}});
    } catch (...) {
        return std::unexpected(InputErrors{{"", "internal error while reading"}});
    }
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
    std::string text() const; // "must be greater than 0 and at most 1e18"
};
constexpr DoubleRange positive(double hi) {
    return {0.0, false, hi, true};
}
constexpr DoubleRange nonNegative(double hi) {
    return {0.0, true, hi, true};
}

// How strictly a format is read. Strict (scenario and profile files, the presets): a null is a value of the
// wrong type and reportUnknownKeys names every key not allowed. Lenient (validation cases, Hugging Face
// configs): a null means "not stated", as if the key were absent, and keys of other tools pass.
enum class Strictness { Strict, Lenient };

class ObjectReader {
public:
    // `keys` are the keys the object may hold (reportUnknownKeys names the others); more with allow().
    ObjectReader(const Json& obj, std::string path, InputErrors& errors,
                 std::initializer_list<const char*> keys = {}, Strictness strictness = Strictness::Strict)
        : m_obj(obj), m_path(std::move(path)), m_errors(errors), m_keys(keys.begin(), keys.end()),
          m_strictness(strictness) {}
    // A reader of the object `obj` found at `key`, as strict as this one, sharing its errors.
    ObjectReader nested(const Json& obj, std::string_view key) const {
        return ObjectReader(obj, path(key), m_errors, {}, m_strictness);
    }

    void allow(std::span<const char* const> keys) { m_keys.insert(m_keys.end(), keys.begin(), keys.end()); }
    void allow(std::initializer_list<const char*> keys) {
        m_keys.insert(m_keys.end(), keys.begin(), keys.end());
    }

    const std::string& path() const { return m_path; }
    std::string path(std::string_view key) const { return childPath(m_path, key); }
    InputErrors& errors() { return m_errors; }
    // Records a problem at the key (a relation between values, a value the format refuses).
    void error(std::string_view key, std::string reason) {
        m_errors.push_back({path(key), std::move(reason)});
    }
    // Whether a read of the key found its value bad: relations between keys are checked only between values
    // that were read.
    bool bad(std::string_view key) const { return m_bad.contains(key); }

    // The key's value; nullptr when absent (or null, when lenient).
    const Json* find(std::string_view key) const;
    bool has(std::string_view key) const { return find(key) != nullptr; }
    // Reports a missing required key; returns whether it is there.
    bool require(std::string_view key);

    // Each reader leaves `out` untouched when the key is absent or its value is bad; returns false when bad.
    bool readInt(std::string_view key, int& out, long long lo, long long hi);
    bool readDouble(std::string_view key, double& out, DoubleRange range);
    bool readBool(std::string_view key, bool& out);
    bool readString(std::string_view key, std::string& out);

    // `toString(E)` names the allowed values (found by argument-dependent lookup).
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
            invalid(key, "wrong type: expected one of " + joinList(names) + ", got " + describe(*v));
            return false;
        }
        const std::string& s = v->get_ref<const std::string&>();
        if (auto e = parse(s)) {
            out = *e;
            return true;
        }
        invalid(key, "unknown value " + quoteJson(s) + didYouMean(s, names) + ": expected one of " +
                         joinList(names));
        return false;
    }

    // Reports every key not in the allowed list (when strict).
    void reportUnknownKeys();

    // "recompute_modules": an array of Megatron-Core's module names (core_attn, mla_up_proj, ...).
    bool readRecomputeModules(std::string_view key, unsigned& out);

private:
    // error(), and bad(key) from then on.
    void invalid(std::string_view key, std::string reason);

    const Json& m_obj;
    std::string m_path;
    InputErrors& m_errors;
    std::vector<std::string> m_keys;
    Strictness m_strictness;
    std::set<std::string, std::less<>> m_bad;
};

} // namespace lp::core::json
