#pragma once
// Number formatting and aligned tables for the text output. Non-finite numbers print as "n/a":
// the command line never shows NaN or infinity.
#include "core/util/NumberFormat.h"

#include <string>
#include <vector>

namespace lp::cli {

// Numbers: the same functions the reports use (core/util/NumberFormat.h).
using core::fmt::bytesBoth;
using core::fmt::count;
using core::fmt::fixed;
using core::fmt::gb;
using core::fmt::gib;
using core::fmt::percent;
using core::fmt::sig;

enum class Align { Left, Right };

class TextTable {
public:
    explicit TextTable(std::vector<std::string> headers, std::vector<Align> align = {});
    void addRow(std::vector<std::string> cells);
    // Rows indented by `indent` spaces, columns two spaces apart, a dashed rule under the header.
    std::string render(int indent = 2) const;

private:
    std::vector<std::string> m_headers;
    std::vector<Align> m_align;
    std::vector<std::vector<std::string>> m_rows;
};

// "label ......... value" lines: labels padded to the same width.
class KeyValues {
public:
    void add(std::string key, std::string value);
    std::string render(int indent = 2) const;

private:
    std::vector<std::pair<std::string, std::string>> m_items;
};

// Display width in columns of a UTF-8 string (counts code points).
std::size_t displayWidth(const std::string& s);

} // namespace lp::cli
