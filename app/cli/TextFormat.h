#pragma once
// Number formatting and aligned tables for the text output. Non-finite numbers print as "n/a":
// the command line never shows NaN or infinity.
#include <string>
#include <vector>

namespace lp::cli {

std::string fixed(double v, int decimals);       // 12,345.67 (thousands separators)
std::string sig(double v, int digits = 4);       // 0.4123, 1.235e+12
std::string gib(double bytes, int decimals = 2); // "61.23 GiB"
std::string gb(double bytes, int decimals = 2);  // "65.75 GB"
// Decimal and binary side by side, in GB/GiB or, from 1 TB up, TB/TiB: "1.10 TB (1.00 TiB)".
std::string bytesBoth(double bytes);
std::string percent(double fraction, int decimals = 1); // "41.2 %"
std::string count(double v);                            // 68,976,648,192 -> "68.98 billion" style: "69.0 B"

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
