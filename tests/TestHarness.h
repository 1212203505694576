#pragma once
// A minimal test harness for the Qt-free tests: register cases with LP_TEST, check with LP_CHECK*.
// Prints one line per failure and a closing "N passed, N failed" line; exit code 1 on any failure.
#include <cmath>
#include <cstdio>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

namespace lp::test {

struct Case {
    const char* name;
    std::function<void()> fn;
};
inline std::vector<Case>& registry() {
    static std::vector<Case> cases;
    return cases;
}
inline int& failures() {
    static int n = 0;
    return n;
}
struct Registrar {
    Registrar(const char* name, std::function<void()> fn) { registry().push_back({name, std::move(fn)}); }
};
inline void fail(const char* file, int line, const std::string& what) {
    ++failures();
    std::fprintf(stderr, "%s:%d: FAILED: %s\n", file, line, what.c_str());
}
inline bool near(double a, double b, double relTol) {
    if (a == b)
        return true;
    const double scale = std::max(std::fabs(a), std::fabs(b));
    return std::fabs(a - b) <= relTol * scale;
}
inline int runAll(int argc, char** argv) {
    int passed = 0, failed = 0;
    const std::string filter = argc > 1 ? argv[1] : "";
    for (const auto& c : registry()) {
        if (!filter.empty() && std::string(c.name).find(filter) == std::string::npos)
            continue;
        const int before = failures();
        try {
            c.fn();
        } catch (const std::exception& e) {
            fail(c.name, 0, std::string("exception: ") + e.what());
        }
        if (failures() == before) {
            ++passed;
        } else {
            ++failed;
            std::fprintf(stderr, "  in test %s\n", c.name);
        }
    }
    std::printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}

} // namespace lp::test

#define LP_CONCAT2(a, b) a##b
#define LP_CONCAT(a, b) LP_CONCAT2(a, b)
#define LP_TEST(name)                                                                                        \
    static void name();                                                                                      \
    static ::lp::test::Registrar LP_CONCAT(reg_, name)(#name, &name);                                        \
    static void name()
#define LP_CHECK(cond)                                                                                       \
    do {                                                                                                     \
        if (!(cond))                                                                                         \
            ::lp::test::fail(__FILE__, __LINE__, #cond);                                                     \
    } while (0)
#define LP_CHECK_EQ(a, b)                                                                                    \
    do {                                                                                                     \
        const auto& lp_a = (a);                                                                              \
        const auto& lp_b = (b);                                                                              \
        if (!(lp_a == lp_b)) {                                                                               \
            std::ostringstream lp_os;                                                                        \
            lp_os << #a << " == " << #b << " (" << lp_a << " vs " << lp_b << ")";                            \
            ::lp::test::fail(__FILE__, __LINE__, lp_os.str());                                               \
        }                                                                                                    \
    } while (0)
#define LP_CHECK_NEAR(a, b, rel)                                                                             \
    do {                                                                                                     \
        const double lp_a = static_cast<double>(a);                                                          \
        const double lp_b = static_cast<double>(b);                                                          \
        if (!::lp::test::near(lp_a, lp_b, rel)) {                                                            \
            std::ostringstream lp_os;                                                                        \
            lp_os.precision(10);                                                                             \
            lp_os << #a << " ~= " << #b << " (" << lp_a << " vs " << lp_b << ", rel tol " << (rel) << ")";   \
            ::lp::test::fail(__FILE__, __LINE__, lp_os.str());                                               \
        }                                                                                                    \
    } while (0)
#define LP_TEST_MAIN()                                                                                       \
    int main(int argc, char** argv) {                                                                        \
        return ::lp::test::runAll(argc, argv);                                                               \
    }
