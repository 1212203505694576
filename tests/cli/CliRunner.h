#pragma once
// The runner the layout-planner-cli tests share: runs the CLI through the shell and keeps its exit code,
// stdout and stderr, plus checks on what it printed (no NaN or inf, no crash, a diagnostic present).
#include "CliTestSupport.h"
#include "TestHarness.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <regex>
#include <string>
#include <sys/wait.h>
#include <vector>

namespace lp::test::cli {

using nlohmann::json;
namespace fs = std::filesystem;

inline std::string g_cli; // the layout-planner-cli under test (main sets it)
inline int g_counter = 0;

inline std::string quote(const std::string& s) {
    return lp::test::shellQuote(s);
}

inline std::string readAll(const fs::path& p) {
    return lp::test::readFile(p);
}

inline fs::path workDir() {
    return lp::test::cliWorkDir("run");
}

inline fs::path tempFile(const std::string& stem) {
    return workDir() / (stem + "-" + std::to_string(++g_counter) + ".json");
}

struct Result {
    int code = -1;
    std::string out;
    std::string err;
    std::string all() const { return out + err; }
    json parsed() const {
        try {
            return json::parse(out);
        } catch (const std::exception& e) {
            ::lp::test::fail(__FILE__, __LINE__, std::string("stdout is not JSON: ") + e.what() + "\n" + out);
            return json();
        }
    }
};

inline Result run(const std::vector<std::string>& args) {
    const fs::path outFile = tempFile("stdout");
    const fs::path errFile = tempFile("stderr");
    std::string cmd = quote(g_cli);
    for (const auto& a : args)
        cmd += " " + quote(a);
    cmd += " >" + quote(outFile.string()) + " 2>" + quote(errFile.string());
    const int status = std::system(cmd.c_str());
    Result r;
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    r.out = readAll(outFile);
    r.err = readAll(errFile);
    fs::remove(outFile);
    fs::remove(errFile);
    return r;
}

inline bool contains(const std::string& hay, const std::string& needle) {
    return hay.find(needle) != std::string::npos;
}

// "nan" or "inf"/"infinity" printed as a number (a word on its own, maybe signed), any case.
inline bool hasNonFiniteToken(const std::string& text) {
    static const std::regex re(R"((^|[^A-Za-z0-9_])[-+]?(nan|inf|infinity)([^A-Za-z0-9_]|$))",
                               std::regex::icase);
    return std::regex_search(text, re);
}

inline bool jsonAllFinite(const json& j) {
    if (j.is_number_float())
        return std::isfinite(j.get<double>());
    if (j.is_object() || j.is_array()) {
        for (const auto& c : j)
            if (!jsonAllFinite(c))
                return false;
    }
    return true;
}

#define CHECK_CLEAN(r)                                                                                       \
    do {                                                                                                     \
        LP_CHECK(!hasNonFiniteToken((r).out));                                                               \
        LP_CHECK(!hasNonFiniteToken((r).err));                                                               \
        LP_CHECK((r).code < 128); /* no crash */                                                             \
    } while (0)

inline bool hasDiagnostic(const json& plan, const std::string& id) {
    if (!plan.contains("diagnostics"))
        return false;
    for (const auto& d : plan["diagnostics"])
        if (d.value("id", "") == id)
            return true;
    return false;
}

} // namespace lp::test::cli
