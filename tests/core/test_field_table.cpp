// A type's JSON keys as one table that both its reader and its writer walk (core/io/detail/FieldTable.h).
#include "TestHarness.h"
#include "core/io/detail/FieldTable.h"
#include "core/model/Enums.h"

#include <string>

using namespace lp::core;
using namespace lp::core::json;

namespace {

struct Sample {
    std::string name = "a";
    int count = 2;
    int optionalCount = 0;
    double rate = 0.5;
    bool flag = false;
    MlpKind mlp = MlpKind::Gelu;
    bool operator==(const Sample&) const = default;
};

constexpr Field<Sample> kSampleFields[] = {
    {"name", &Sample::name},
    {"count", IntKey<Sample>{&Sample::count, 1, 10}},
    {"optional_count", IntKey<Sample>{&Sample::optionalCount, 0, 10}, true},
    {"rate", DoubleKey<Sample>{&Sample::rate, positive(1.0)}},
    {"flag", &Sample::flag},
    {"mlp", enumKey<&Sample::mlp, &parseMlpKind, MlpKind::Gelu, MlpKind::SwiGlu>()},
};

} // namespace

LP_TEST(write_fields_keeps_table_order_and_leaves_unset_optional_values_out) {
    Json j;
    writeFields(j, Sample{}, kSampleFields);
    LP_CHECK_EQ(j.dump(), std::string(R"({"name":"a","count":2,"rate":0.5,"flag":false,"mlp":"gelu"})"));
    Sample s;
    s.optionalCount = 3;
    Json withOptional;
    writeFields(withOptional, s, kSampleFields);
    LP_CHECK_EQ(
        withOptional.dump(),
        std::string(R"({"name":"a","count":2,"optional_count":3,"rate":0.5,"flag":false,"mlp":"gelu"})"));
}

LP_TEST(read_fields_reads_what_the_writer_wrote) {
    const Sample s{"b", 7, 4, 0.25, true, MlpKind::SwiGlu};
    Json j;
    writeFields(j, s, kSampleFields);
    InputErrors errors;
    ObjectReader r(j, "$", errors);
    Sample back;
    readFields(r, back, kSampleFields);
    LP_CHECK(errors.empty());
    LP_CHECK(back == s);
}

LP_TEST(read_fields_checks_each_key_against_its_limits_in_table_order) {
    const Json j = Json::parse(R"({"mlp": "swiglo", "count": 11, "rate": 0.75})");
    InputErrors errors;
    ObjectReader r(j, "$", errors);
    Sample s;
    readFields(r, s, kSampleFields);
    LP_CHECK_EQ(errors.size(), std::size_t(2));
    LP_CHECK_EQ(errors[0].path, std::string("$.count"));
    LP_CHECK_EQ(errors[1].path, std::string("$.mlp"));
    LP_CHECK_EQ(s.count, 2); // a bad value leaves the field as it was
    LP_CHECK_EQ(s.rate, 0.75);
    LP_CHECK(s.mlp == MlpKind::Gelu);
}

LP_TEST_MAIN()
