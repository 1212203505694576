#pragma once
// Shared by the CLI tests, which run the built layout-planner-cli through the shell.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

namespace lp::test {

// One shell word, single-quoted ('\'' for a quote inside).
inline std::string shellQuote(const std::string& s) {
    std::string out = "'";
    for (char c : s)
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

inline std::string readFile(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// A folder of this test process under LP_CLI_WORK_DIR (created), named prefix-PID.
inline std::filesystem::path cliWorkDir(const std::string& prefix) {
    std::filesystem::path dir =
        std::filesystem::path(LP_CLI_WORK_DIR) / (prefix + "-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    return dir;
}

} // namespace lp::test
