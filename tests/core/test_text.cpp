// The ASCII text helpers that match what users type (ids, flags, log headers, notes).
#include "TestHarness.h"
#include "core/util/Text.h"

using namespace lp::core;

LP_TEST(equals_ignore_case_folds_ascii_letters_only) {
    LP_CHECK(equalsIgnoreCase("H100-SXM-80GB", "h100-sxm-80gb"));
    LP_CHECK(equalsIgnoreCase("", ""));
    LP_CHECK(!equalsIgnoreCase("h100", "h1000")); // lengths differ
    LP_CHECK(!equalsIgnoreCase("a_b", "a-b"));
    LP_CHECK(!equalsIgnoreCase("caf\xC3\xA9", "CAF\xC3\x89")); // bytes beyond ASCII compare as they are
}

LP_TEST(ascii_lower_keeps_other_bytes) {
    LP_CHECK_EQ(asciiLower("Megatron-LM, NeMo 2.0"), std::string("megatron-lm, nemo 2.0"));
    LP_CHECK_EQ(asciiLower("\xC3\x89T\xC3\x89"), std::string("\xC3\x89t\xC3\x89"));
    LP_CHECK_EQ(asciiLower(""), std::string());
}

LP_TEST_MAIN()
