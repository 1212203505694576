#pragma once
// Strict argument reading: one cursor over argv, "--flag VALUE" and "--flag=VALUE", and number
// parsers that reject "8x", signs, zero where a size must be positive, and overflow.
#include "app/cli/CliError.h"

#include <expected>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lp::cli {

class ArgCursor {
public:
    explicit ArgCursor(std::vector<std::string> args) : m_args(std::move(args)) {}

    bool atEnd() const { return m_pos >= m_args.size(); }
    // The current argument's name part ("--tp" of "--tp=8" or "--tp"); the whole argument otherwise.
    std::string_view peekName() const;
    bool isOption() const; // starts with '-' and is not "-" itself (nor a negative number)
    std::string take();    // the current argument as is (a positional), advancing
    // For an option: its value (after '=' or the next argument), advancing past both.
    std::expected<std::string, CliError> takeValue();
    // Like takeValue, refusing an empty value: "--markdown: needs a file name" (`needs` says what it names).
    std::expected<std::string, CliError> takeNonEmptyValue(std::string_view needs = "a file name");
    // For an option without value ("--json"): advances; an "=value" is an error.
    std::expected<void, CliError> takeSwitch();

private:
    std::vector<std::string> m_args;
    std::size_t m_pos = 0;
};

// Whole numbers in [min, max]. Errors name the flag and the reason.
std::expected<long long, CliError> parseInteger(std::string_view flag, std::string_view text, long long min,
                                                long long max);
std::expected<int, CliError> parseInt(std::string_view flag, std::string_view text, int min, int max);
// Finite decimal numbers (scientific notation allowed) in [min, max].
std::expected<double, CliError> parseNumber(std::string_view flag, std::string_view text, double min,
                                            double max);
std::expected<bool, CliError> parseOnOff(std::string_view flag, std::string_view text);

// True when argv holds this exact switch (used to know --json before anything else is parsed).
bool hasSwitch(const std::vector<std::string>& args, std::string_view name);

} // namespace lp::cli
