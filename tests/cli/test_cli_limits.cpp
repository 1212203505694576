// layout-planner-cli: one set of limits for the flags and the files. Every numeric scenario flag accepts
// exactly what the scenario file accepts (its largest value is written and read back; one step beyond is
// refused at the flag, naming it, as the file refuses it at its key); validate names each measured figure it
// leaves out; search refuses a space too large to try. Part of test_cli (its scenario_, validate_ and
// search_ groups).
#include "CliRunner.h"

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using nlohmann::json;
using namespace lp::test::cli;

namespace {

// A numeric flag, the scenario file key it writes (a JSON pointer) and the bounds both hold to.
struct FlagBounds {
    const char* flag;
    const char* pointer;
    double lo;
    double hi;
    bool integer;
};

// Every numeric scenario flag. The bounds are the file's (docs/formats.md, "Limits").
const FlagBounds kFlagBounds[] = {
    {"--seq-len", "/model/seq_len", 1, 10000000, true},
    {"--nodes", "/cluster/nodes", 1, 1000000, true},
    {"--gpus-per-node", "/cluster/gpus_per_node", 1, 1000000, true},
    {"--nvlink-domain", "/cluster/nvlink_domain", 1, 1000000, true},
    {"--tp", "/layout/tp", 1, 1000000, true},
    {"--pp", "/layout/pp", 1, 1000000, true},
    {"--dp", "/layout/dp", 1, 1000000, true},
    {"--cp", "/layout/cp", 1, 1000000, true},
    {"--ep", "/layout/ep", 1, 1000000, true},
    {"--vpp", "/layout/vpp", 1, 1000000, true},
    {"--micro-batch", "/layout/micro_batch", 1, 1000000, true},
    {"--accumulation", "/layout/accumulation", 1, 1000000, true},
    {"--zero", "/training/zero_stage", 0, 3, true},
    {"--shard-degree", "/training/zero_shard_degree", 0, 1000000, true},
    {"--recompute-layers", "/training/recompute_layers", 0, 1000000, true},
    {"--activation-offload-layers", "/training/activation_offload_layers", 0, 80, true}, // the model's layers
    {"--straggler", "/training/straggler_slowdown", 0, 10, false},
    {"--logits-metric-passes", "/training/logits_metric_passes", 0, 16, true},
    {"--token-budget", "/training/token_budget_tokens", 1, 1e18, false},
};

std::string numberText(double v, bool integer) {
    if (integer)
        return std::to_string(static_cast<long long>(v));
    std::ostringstream o;
    o.precision(17);
    o << v;
    return o.str();
}

// The default scenario with one key set, as a file.
fs::path scenarioWith(const char* pointer, const json& value) {
    json j = run({"scenario"}).parsed();
    j[json::json_pointer(pointer)] = value;
    const fs::path path = tempFile("limit");
    std::ofstream(path) << j.dump(1);
    return path;
}

} // namespace

LP_TEST(scenario_flags_hold_the_files_bounds) {
    for (const FlagBounds& b : kFlagBounds) {
        // The file: its bounds are accepted, one step beyond each is refused at its key.
        const double step = b.integer ? 1.0 : (b.hi >= 1e6 ? b.hi : 0.5);
        const json hiValue = b.integer ? json(static_cast<long long>(b.hi)) : json(b.hi);
        const json overValue = b.integer ? json(static_cast<long long>(b.hi + step)) : json(b.hi + step);
        const auto fileHi = run({"scenario", scenarioWith(b.pointer, hiValue).string()});
        LP_CHECK_EQ(fileHi.code, 0);
        const auto fileOver = run({"scenario", scenarioWith(b.pointer, overValue).string()});
        LP_CHECK_EQ(fileOver.code, 2);
        const auto flagOver = run({"scenario", b.flag, numberText(b.hi + step, b.integer)});
        LP_CHECK_EQ(flagOver.code, 2);
        LP_CHECK(contains(flagOver.err, b.flag));
        const auto flagUnder = run({"scenario", b.flag, numberText(b.lo - (b.integer ? 1 : 0.5), b.integer)});
        LP_CHECK_EQ(flagUnder.code, 2);
        LP_CHECK(contains(flagUnder.err, b.flag));
        // The flag at the file's largest value: what it writes reads back (the layout's product rules
        // aside, which both refuse alike).
        const fs::path written = tempFile("flag-at-limit");
        const auto flagHi = run({"scenario", b.flag, numberText(b.hi, b.integer), "-o", written.string()});
        if (flagHi.code == 0)
            LP_CHECK_EQ(run({"scenario", written.string()}).code, 0);
        else
            LP_CHECK(!contains(flagHi.err, "is too large"));
    }
}

LP_TEST(scenario_straggler_beyond_the_files_limit_is_refused_at_the_flag) {
    const fs::path path = tempFile("straggler");
    const auto r = run({"scenario", "--straggler", "50", "-o", path.string()});
    LP_CHECK_EQ(r.code, 2);
    LP_CHECK(contains(r.err, "--straggler"));
    LP_CHECK(!fs::exists(path));
}

LP_TEST(scenario_offloaded_layers_beyond_the_model_are_refused_at_the_flag) {
    for (const char* command : {"scenario", "evaluate"}) {
        const auto r = run({command, "--activation-offload-layers", "81"});
        LP_CHECK_EQ(r.code, 2);
        LP_CHECK(contains(r.err, "--activation-offload-layers"));
        LP_CHECK(contains(r.err, "80"));
        LP_CHECK(!contains(r.err, "invalid_value"));
    }
    LP_CHECK_EQ(run({"evaluate", "--activation-offload-layers", "80"}).code, 0);
}

LP_TEST(validate_names_each_measured_figure_it_leaves_out) {
    json file = json::parse(readAll(std::string(LP_TEST_DATA_DIR) + "/validation/more-published-runs.json"));
    json kept = json::array();
    for (const auto& c : file["cases"])
        if (c["id"] == "nemo_2407_llama2_7b_8gpu")
            kept.push_back(c);
    LP_CHECK_EQ(kept.size(), 1u);
    if (kept.empty())
        return;
    json& measured = kept[0]["measured"];
    measured["iteration_time_s"] = -829;
    measured["mfu"] = 0;
    measured["peak_memory_gib"] = 1e-320;
    file["cases"] = kept;
    const fs::path path = tempFile("bad-measured");
    std::ofstream(path) << file.dump(1);
    const auto t = run({"validate", path.string()});
    LP_CHECK_EQ(t.code, 0);
    LP_CHECK(contains(t.out, "measured iteration_time_s -829 left out"));
    LP_CHECK(contains(t.out, "measured mfu 0 left out"));
    LP_CHECK(contains(t.out, "measured peak_memory_gib 1e-320 left out"));
    LP_CHECK(!hasNonFiniteToken(t.out));
    const json j = run({"validate", path.string(), "--json"}).parsed();
    int leftOut = 0;
    for (const json& a : j["cases"][0]["adjustments"])
        leftOut += contains(a.get<std::string>(), " left out: ") ? 1 : 0;
    LP_CHECK_EQ(leftOut, 3);
    for (const json& row : j["cases"]) // one row per case and metric: none for the figures left out
        LP_CHECK(row["metric"] != "mfu" && row["metric"] != "iteration_time_s" &&
                 row["metric"] != "peak_memory_gib");
    LP_CHECK(!j["cases"].empty());
}

LP_TEST(search_refuses_a_range_too_large_to_try) {
    const auto r = run({"search", "--global-batch-range", "1:1000000"});
    LP_CHECK_EQ(r.code, 2);
    LP_CHECK(contains(r.err, "--global-batch-range"));
    LP_CHECK(contains(r.err, "narrow the range"));
    // Not a terminal: no progress line in what a script captures.
    const auto ok = run({"search", "--global-batch-range", "64:66", "--top", "1"});
    LP_CHECK_EQ(ok.code, 0);
    LP_CHECK(!contains(ok.err, "searching"));
}
