#pragma once
// What goes wrong on the command line, and how it is reported: a message naming the field and the
// reason on stderr, or {"error": {...}} on stdout with --json.
#include "core/io/InputError.h"

#include <string>
#include <vector>

namespace lp::cli {

// Exit codes, the same for every subcommand (docs/cli.md).
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;  // could not write an output file; internal error
inline constexpr int kExitBadInput = 2; // bad flag, bad file, invalid layout
inline constexpr int kExitNoGpu = 3;    // reserved: calibrate found no usable GPU

struct CliError {
    std::string field;                         // "--tp", a file path, "command"
    std::string reason;                        // "expected a whole number, got '8x'"
    std::vector<core::InputError> inputErrors; // a file's own problems (path, reason, line, column)
    int exitCode = kExitBadInput;

    std::string message() const; // one or more lines, no trailing newline
};

CliError badValue(std::string field, std::string reason);
// What failed that was no fault of the input (exit code 1): a file that could not be written, a run stopped.
CliError failure(std::string field, std::string reason);
// A file that could not be loaded: one CliError listing each of the file's problems.
CliError fileError(const std::string& file, std::string what, core::InputErrors errors);

// "FILE: line L, column C: model.heads: reason" for one problem of a file.
std::string describeInputError(const std::string& file, const core::InputError& e);

// Prints the error: as {"error": {...}} on stdout when json, otherwise "error: ..." on stderr.
// Returns the error's exit code.
int reportError(const CliError& e, bool json);

} // namespace lp::cli
