// lp::format (core/util/Format.h): std::format or {fmt}, whichever the standard library allows, prints
// exactly what printf prints for the specs the explanations and diagnostics use.
#include "TestHarness.h"
#include "core/util/Format.h"

#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

namespace {

std::string printf1(const char* spec, double v) {
    char buf[128];
    std::snprintf(buf, sizeof buf, spec, v);
    return buf;
}

} // namespace

LP_TEST(fixed_and_general_specs_print_as_printf_does) {
    const double values[] = {0.0,     -0.0,    0.5,     1.5,   2.5,          0.125,    1.275,    3.75,
                             1e-5,    0.0549,  12.3456, 99.95, 123456789.0,  1e16,     1e20,     -2.5,
                             1.0 / 3, 2.0 / 3, 6.02e23, 79.21, std::nan(""), INFINITY, -INFINITY};
    for (double v : values) {
        LP_CHECK_EQ(lp::format("{:.0f}", v), printf1("%.0f", v));
        LP_CHECK_EQ(lp::format("{:.1f}", v), printf1("%.1f", v));
        LP_CHECK_EQ(lp::format("{:.2f}", v), printf1("%.2f", v));
        LP_CHECK_EQ(lp::format("{:.3f}", v), printf1("%.3f", v));
        LP_CHECK_EQ(lp::format("{:g}", v), printf1("%g", v));
        LP_CHECK_EQ(lp::format("{:.4g}", v), printf1("%.4g", v));
    }
}

LP_TEST(integers_strings_and_percent_signs) {
    LP_CHECK_EQ(lp::format("{} x {} = {}", 8, 4, 32LL), std::string("8 x 4 = 32"));
    LP_CHECK_EQ(lp::format("{} of {}", std::string("a"), "b"), std::string("a of b"));
    LP_CHECK_EQ(lp::format("{:.1f}%", 41.25), std::string("41.2%"));
    LP_CHECK_EQ(lp::format("{{braces}} {}", 1), std::string("{braces} 1"));
    // Long results have no fixed limit (the printf helper it replaces cut them at 1,024 bytes).
    LP_CHECK_EQ(lp::format("{}", std::string(5000, 'x')).size(), std::size_t{5000});
}

LP_TEST_MAIN()
