#pragma once
// Escaping of user-supplied text (scenario and model names, notes) for HTML, SVG and Markdown.
// Everything a report shows that a user typed goes through these: a model named
// <script>alert(1)</script> shows as text, never as markup.
#include <string>
#include <string_view>

namespace lp::core {

// &, <, >, " and ' as entities; control characters other than tab and newline dropped. Valid in
// element content and in quoted attribute values of HTML and XML (SVG).
std::string escapeHtml(std::string_view text);
// The same, with newlines as <br>: multi-line notes inside a paragraph.
std::string escapeHtmlMultiline(std::string_view text);

// Inline Markdown (CommonMark / GitHub Flavored Markdown): the characters of inline markup
// (\ ` * _ [ ] | ~ $ #) are backslash-escaped wherever they stand, list markers at the start
// ("- ", "+ ", "1. "), the colon of "scheme://" and the dot of "www." (GitHub's autolinks) too, and <, >, &
// become entities,
// so the text renders literally and raw HTML cannot get through. Newlines become spaces.
std::string escapeMarkdown(std::string_view text);
// For a table cell: escapeMarkdown, which also escapes '|'.
inline std::string escapeMarkdownCell(std::string_view text) {
    return escapeMarkdown(text);
}
// Multi-line text as Markdown paragraphs (each line escaped, line breaks kept with a trailing backslash).
std::string escapeMarkdownBlock(std::string_view text);

} // namespace lp::core
