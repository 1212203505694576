#pragma once
// A type's JSON keys as a table: each key with the field it fills and the values it may hold. The type's
// reader and writer walk the same table, so each key is named once and the two stay in step.
#include "core/io/JsonReader.h"

#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>

namespace lp::core::json {

template <typename T> struct IntKey {
    int T::*member;
    long long lo;
    long long hi;
};
template <typename T> struct DoubleKey {
    double T::*member;
    DoubleRange range;
};
// Any other value (an enum, a list): how to read it into a T and how to write it out of one.
template <typename T> struct CustomKey {
    void (*read)(ObjectReader& r, std::string_view key, T& object);
    Json (*write)(const T& object);
};

template <typename T> struct Field {
    const char* key;
    std::variant<IntKey<T>, DoubleKey<T>, bool T::*, std::string T::*, CustomKey<T>> value;
    // 0 stands for "not set" (or "auto"): such a value is left out of the file rather than written.
    bool writtenOnlyWhenPositive = false;
};

namespace detail {
template <typename> struct MemberClass;
template <typename C, typename V> struct MemberClass<V C::*> { using type = C; };
} // namespace detail

// The key of an enum member, its values named by toString and parsed by Parse, Allowed the names listed in
// errors.
template <auto Member, auto Parse, auto... Allowed>
constexpr CustomKey<typename detail::MemberClass<decltype(Member)>::type> enumKey() {
    using T = typename detail::MemberClass<decltype(Member)>::type;
    return {[](ObjectReader& r, std::string_view key, T& object) {
                r.readEnum(key, object.*Member, Parse, {Allowed...});
            },
            [](const T& object) { return Json(toString(object.*Member)); }};
}

template <typename T> void readField(ObjectReader& r, const Field<T>& field, T& object) {
    std::visit(
        [&](const auto& key) {
            using Key = std::decay_t<decltype(key)>;
            if constexpr (std::is_same_v<Key, IntKey<T>>)
                r.readInt(field.key, object.*key.member, key.lo, key.hi);
            else if constexpr (std::is_same_v<Key, DoubleKey<T>>)
                r.readDouble(field.key, object.*key.member, key.range);
            else if constexpr (std::is_same_v<Key, bool T::*>)
                r.readBool(field.key, object.*key);
            else if constexpr (std::is_same_v<Key, std::string T::*>)
                r.readString(field.key, object.*key);
            else
                key.read(r, field.key, object);
        },
        field.value);
}

// The values a number key of `fields` may hold; nullptr for a key the table lacks or that holds no number.
template <typename T>
const DoubleRange* doubleRangeOf(std::span<const Field<std::type_identity_t<T>>> fields,
                                 std::string_view key) {
    for (const Field<T>& field : fields)
        if (key == field.key)
            if (const auto* number = std::get_if<DoubleKey<T>>(&field.value))
                return &number->range;
    return nullptr;
}

// Reads the keys of `fields` that r's object holds into object, in the table's order.
template <typename T>
void readFields(ObjectReader& r, T& object, std::span<const Field<std::type_identity_t<T>>> fields) {
    for (const Field<T>& field : fields)
        readField(r, field, object);
}

template <typename T> Json fieldValue(const Field<T>& field, const T& object) {
    return std::visit(
        [&object](const auto& key) -> Json {
            using Key = std::decay_t<decltype(key)>;
            if constexpr (std::is_same_v<Key, CustomKey<T>>)
                return key.write(object);
            else if constexpr (std::is_member_object_pointer_v<Key>)
                return object.*key;
            else
                return object.*key.member;
        },
        field.value);
}

// Adds the keys of `fields` to j, in the table's order.
template <typename T>
void writeFields(Json& j, const T& object, std::span<const Field<std::type_identity_t<T>>> fields) {
    for (const Field<T>& field : fields) {
        Json value = fieldValue(field, object);
        if (value.is_null() || (field.writtenOnlyWhenPositive && !(value.template get<double>() > 0)))
            continue; // a custom key's writer returns null for "leave it out"
        j[field.key] = std::move(value);
    }
}

} // namespace lp::core::json
