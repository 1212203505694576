#pragma once
// Helpers shared by the libFuzzer targets: the input as text, and a check that stops the fuzzer
// (abort, so libFuzzer saves the input as crash-*) when a property fails.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace lp::fuzz {

inline std::string_view asText(const std::uint8_t* data, std::size_t size) {
    return {reinterpret_cast<const char*>(data), size};
}

[[noreturn]] inline void fail(const char* what) {
    std::fprintf(stderr, "fuzz property failed: %s\n", what);
    std::abort();
}

inline void check(bool ok, const char* what) {
    if (!ok)
        fail(what);
}

// Whether text prints a non-finite number: "inf", "nan" or "infinity" as a word of its own, any case.
inline bool printsNonFinite(std::string_view text) {
    auto isWordChar = [](char ch) {
        return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_';
    };
    std::size_t i = 0;
    while (i < text.size()) {
        if (!isWordChar(text[i])) {
            ++i;
            continue;
        }
        std::size_t end = i;
        std::string word;
        for (; end < text.size() && isWordChar(text[end]); ++end)
            word +=
                static_cast<char>(text[end] >= 'A' && text[end] <= 'Z' ? text[end] - 'A' + 'a' : text[end]);
        if (word == "inf" || word == "nan" || word == "infinity")
            return true;
        i = end;
    }
    return false;
}

} // namespace lp::fuzz
