#pragma once
// What is wrong with an input (a scenario, profile, validation-case or run-log file, a Hugging Face config):
// every reader collects these and hands them back instead of half-loading.
#include <string>
#include <vector>

namespace lp::core {

// One problem found in an input: where (a JSON path like "model.heads", or the file) and why.
struct InputError {
    std::string path;   // "$.model.heads"; empty for whole-file problems
    std::string reason; // "must be a positive integer, got -3"
    int line = 0;       // 1-based, for parse errors
    int column = 0;
    std::string message() const; // "$.model.heads: must be a positive integer, got -3"
};
using InputErrors = std::vector<InputError>;

} // namespace lp::core
