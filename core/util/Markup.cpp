#include "core/util/Markup.h"

namespace lp::core {
namespace {

bool droppedControl(unsigned char c) {
    return (c < 0x20 && c != '\t' && c != '\n') || c == 0x7F;
}

// &, < and > as entities (HTML and Markdown alike); false for any other character.
bool appendEntity(std::string& out, char ch) {
    switch (ch) {
    case '&':
        out += "&amp;";
        return true;
    case '<':
        out += "&lt;";
        return true;
    case '>':
        out += "&gt;";
        return true;
    default:
        return false;
    }
}

// "www" in any case: the start of an extended www autolink when a dot follows.
bool isWww(std::string_view three) {
    for (const char ch : three)
        if (ch != 'w' && ch != 'W')
            return false;
    return true;
}

} // namespace

std::string escapeHtml(std::string_view text) {
    std::string out;
    out.reserve(text.size() + text.size() / 8);
    for (const char ch : text) {
        if (appendEntity(out, ch))
            continue;
        const auto c = static_cast<unsigned char>(ch);
        switch (ch) {
        case '"':
            out += "&quot;";
            break;
        case '\'':
            out += "&#39;";
            break;
        default:
            if (!droppedControl(c))
                out += ch;
        }
    }
    return out;
}

std::string escapeHtmlMultiline(std::string_view text) {
    const std::string escaped = escapeHtml(text);
    std::string out;
    out.reserve(escaped.size());
    for (const char ch : escaped) {
        if (ch == '\n')
            out += "<br>";
        else
            out += ch;
    }
    return out;
}

std::string escapeMarkdown(std::string_view text) {
    std::string out;
    out.reserve(text.size() + text.size() / 4);
    // Block markers only count at the start of a line: "- item", "+ item", "1. item", "= underline".
    std::size_t lead = 0;
    while (lead < text.size() && text[lead] == ' ')
        ++lead;
    std::size_t digitsEnd = lead;
    while (digitsEnd < text.size() && text[digitsEnd] >= '0' && text[digitsEnd] <= '9')
        ++digitsEnd;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char ch = text[i];
        const auto c = static_cast<unsigned char>(ch);
        const bool atStart = i == lead && (ch == '-' || ch == '+' || ch == '=');
        const bool listNumber = digitsEnd > lead && i == digitsEnd && (ch == '.' || ch == ')') &&
                                (i + 1 == text.size() || text[i + 1] == ' ');
        // "scheme://" and "www." would become autolinks (GitHub Flavored Markdown's extended autolinks).
        const bool schemeColon = ch == ':' && text.substr(i + 1, 2) == "//";
        const bool wwwDot = ch == '.' && i >= 3 && isWww(text.substr(i - 3, 3));
        if (atStart || listNumber || schemeColon || wwwDot) {
            out += '\\';
            out += ch;
            continue;
        }
        if (appendEntity(out, ch))
            continue;
        switch (ch) {
        case '\n':
        case '\t':
            out += ' ';
            break;
        // Inline markup (emphasis, code, links, tables, strikethrough, math, headings' closing
        // sequence, autolinks): escaped wherever it stands.
        case '\\':
        case '`':
        case '*':
        case '_':
        case '[':
        case ']':
        case '|':
        case '~':
        case '$':
        case '#':
            out += '\\';
            out += ch;
            break;
        default:
            if (!droppedControl(c))
                out += ch;
        }
    }
    return out;
}

std::string escapeMarkdownBlock(std::string_view text) {
    std::string out;
    std::size_t start = 0;
    bool first = true;
    while (start <= text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos)
            end = text.size();
        std::string_view line = text.substr(start, end - start);
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        if (!first)
            out += "\\\n";
        out += escapeMarkdown(line);
        first = false;
        start = end + 1;
    }
    return out;
}

} // namespace lp::core
