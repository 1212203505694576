// What the validation-case reader learns from a case's free-text source and notes (core/Validation.cpp).
#include "core/ValidationDetail.h"

#include <algorithm>
#include <array>
#include <string_view>

namespace lp::core {

int detail::latestStatedMonth(const std::string& text) {
    static constexpr std::array<std::string_view, 12> kMonths{"jan", "feb", "mar", "apr", "may", "jun",
                                                              "jul", "aug", "sep", "oct", "nov", "dec"};
    const auto digit = [&](std::size_t i) { return i < text.size() && text[i] >= '0' && text[i] <= '9'; };
    const auto number = [&](std::size_t from, std::size_t count) {
        int v = 0;
        for (std::size_t k = from; k < from + count; ++k)
            v = v * 10 + (text[k] - '0');
        return v;
    };
    int latest = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (!digit(i) || (i > 0 && digit(i - 1)))
            continue;
        std::size_t run = i;
        while (digit(run))
            ++run;
        const std::size_t length = run - i;
        if (length != 4 && length != 6)
            continue;
        const int year = number(i, 4);
        if (year < 2015 || year > 2039)
            continue;
        int month = length == 6 ? number(i + 4, 2) : 0;
        // "2025-06", "2024/12", "2024_12": a separator and two digits (not a third, as in "2024-123").
        if (length == 4 && run < text.size() &&
            std::string_view("-_/.").find(text[run]) != std::string_view::npos && digit(run + 1) &&
            digit(run + 2) && !digit(run + 3))
            month = number(run + 1, 2);
        // "June 2025", "dec. 2024": a month's name just before the year.
        if (length == 4 && month == 0) {
            std::size_t end = i;
            while (end > 0 && (text[end - 1] == ' ' || text[end - 1] == ',' || text[end - 1] == '.'))
                --end;
            std::size_t start = end;
            while (start > 0 && text[start - 1] >= 'a' && text[start - 1] <= 'z')
                --start;
            const std::string_view word(text.data() + start, end - start);
            for (std::size_t m = 0; m < kMonths.size() && word.size() >= 3; ++m)
                if (word.substr(0, 3) == kMonths[m])
                    month = static_cast<int>(m) + 1;
        }
        if (month < 1 || month > 12)
            month = length == 4 ? 12 : 0;
        if (month > 0)
            latest = std::max(latest, year * 100 + month);
    }
    return latest;
}

bool detail::notesLeaveOpen(const std::string& notes, std::string_view term) {
    for (std::size_t at = notes.find(term); at != std::string::npos; at = notes.find(term, at + 1)) {
        const std::size_t from = at + term.size();
        const std::string_view after(notes.data() + from, std::min<std::size_t>(notes.size() - from, 30));
        const std::size_t open = after.find("not stated");
        if (open != std::string_view::npos &&
            after.substr(0, open).find_first_of(".;,") == std::string_view::npos)
            return true;
    }
    return false;
}

std::optional<RematPolicy> detail::statedRematPolicy(const std::string& notes) {
    constexpr std::string_view kKey = "remat_policy";
    const auto nameChar = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'; };
    for (std::size_t at = notes.find(kKey); at != std::string::npos; at = notes.find(kKey, at + 1)) {
        std::size_t i = at + kKey.size();
        while (i < notes.size() && std::string_view(" =:'\"`").find(notes[i]) != std::string_view::npos)
            ++i;
        std::size_t end = i;
        while (end < notes.size() && nameChar(notes[end]))
            ++end;
        if (const auto policy = parseRematPolicy(std::string_view(notes).substr(i, end - i)))
            return policy;
    }
    return std::nullopt;
}

} // namespace lp::core
