#include "app/cli/TextFormat.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace lp::cli {

std::size_t displayWidth(const std::string& s) {
    std::size_t n = 0;
    for (unsigned char ch : s)
        if ((ch & 0xC0) != 0x80)
            ++n;
    return n;
}

TextTable::TextTable(std::vector<std::string> headers, std::vector<Align> align)
    : m_headers(std::move(headers)), m_align(std::move(align)) {
    m_align.resize(m_headers.size(), Align::Right);
}

void TextTable::addRow(std::vector<std::string> cells) {
    cells.resize(m_headers.size());
    m_rows.push_back(std::move(cells));
}

std::string TextTable::render(int indent) const {
    std::vector<std::size_t> width(m_headers.size(), 0);
    for (std::size_t c = 0; c < m_headers.size(); ++c) {
        width[c] = displayWidth(m_headers[c]);
        for (const auto& row : m_rows)
            width[c] = std::max(width[c], displayWidth(row[c]));
    }
    const std::string pad(static_cast<std::size_t>(std::max(indent, 0)), ' ');
    auto line = [&](const std::vector<std::string>& cells) {
        std::string out = pad;
        for (std::size_t c = 0; c < cells.size(); ++c) {
            const std::size_t fill = width[c] - displayWidth(cells[c]);
            const bool last = c + 1 == cells.size();
            if (m_align[c] == Align::Right)
                out += std::string(fill, ' ') + cells[c];
            else
                out += cells[c] + (last ? std::string() : std::string(fill, ' '));
            if (!last)
                out += "  ";
        }
        while (out.ends_with(' '))
            out.pop_back();
        return out + "\n";
    };
    std::string out = line(m_headers);
    std::size_t total = 0;
    for (std::size_t c = 0; c < width.size(); ++c)
        total += width[c] + (c + 1 < width.size() ? 2 : 0);
    out += pad + std::string(total, '-') + "\n";
    for (const auto& row : m_rows)
        out += line(row);
    return out;
}

void KeyValues::add(std::string key, std::string value) {
    m_items.emplace_back(std::move(key), std::move(value));
}

std::string KeyValues::render(int indent) const {
    std::size_t w = 0;
    for (const auto& [k, v] : m_items)
        w = std::max(w, displayWidth(k));
    const std::string pad(static_cast<std::size_t>(std::max(indent, 0)), ' ');
    std::string out;
    for (const auto& [k, v] : m_items)
        out += pad + k + std::string(w - displayWidth(k) + 2, ' ') + v + "\n";
    return out;
}

} // namespace lp::cli
