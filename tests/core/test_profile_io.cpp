// Hardware-profile files: exact round trips and rejected inputs with their path and reason.
#include "IoTestSupport.h"
#include "core/io/Presets.h"

LP_TEST(profilesRoundTripExactly) {
    for (const GpuPreset& g : gpuPresets()) {
        const auto back = profileFromJson(profileToJson(g.profile));
        LP_CHECK(back.has_value());
        if (!back) {
            std::fprintf(stderr, "%s:\n%s", g.gpu.id.c_str(), allMessages(back.error()).c_str());
            continue;
        }
        LP_CHECK(*back == g.profile);
    }
    Random r(99);
    int bad = 0;
    for (int i = 0; i < 2000; ++i) {
        const HardwareProfile p = randomProfile(r);
        const auto back = profileFromJson(profileToJson(p));
        if (!back || !(*back == p)) {
            if (++bad == 1)
                std::fprintf(stderr, "%s\n%s", profileToJson(p).c_str(),
                             back ? "" : allMessages(back.error()).c_str());
        }
    }
    LP_CHECK_EQ(bad, 0);

    TempDir dir;
    const HardwareProfile p = randomProfile(r);
    LP_CHECK(saveProfileFile(dir.file("p.json"), p).has_value());
    const auto loaded = loadProfileFile(dir.file("p.json"));
    LP_CHECK(loaded.has_value() && *loaded == p);
}

LP_TEST(badProfilesAreRejectedWithPathAndReason) {
    const std::string head = R"({"schema": "layout-planner/hardware-profile", "version": 1, )";
    const std::string curves =
        R"("gemm_efficiency": [[1e6, 0.2], [1e12, 0.8]], "nvlink_bus_efficiency": [[1e3, 0.1], [1e9, 0.8]], "network_bus_efficiency": [[1e3, 0.1]])";
    const auto ok = profileFromJson(head + curves + "}");
    LP_CHECK(ok.has_value());
    if (ok) {
        LP_CHECK_EQ(ok->gemmEfficiency.points.size(), 2u);
        LP_CHECK(ok->gemmEfficiencyFp8.empty());
        LP_CHECK_EQ(ok->origin, std::string("built-in"));
    }
    struct Case {
        std::string text, path, words;
    };
    const std::vector<Case> cases = {
        {head +
             R"("gemm_efficiency": [[1e12, 0.8], [1e6, 0.2]], "nvlink_bus_efficiency": [[1, 0.5]], "network_bus_efficiency": [[1, 0.5]]})",
         "$.gemm_efficiency[1][0]", "out of order"},
        {head +
             R"("gemm_efficiency": [[1e6, 0.2], [1e6, 0.3]], "nvlink_bus_efficiency": [[1, 0.5]], "network_bus_efficiency": [[1, 0.5]]})",
         "$.gemm_efficiency[1][0]", "greater than the previous point's"},
        {head +
             R"("gemm_efficiency": [[0, 0.2]], "nvlink_bus_efficiency": [[1, 0.5]], "network_bus_efficiency": [[1, 0.5]]})",
         "$.gemm_efficiency[0][0]", "out of range: must be greater than 0"},
        {head +
             R"("gemm_efficiency": [[1, 1.6]], "nvlink_bus_efficiency": [[1, 0.5]], "network_bus_efficiency": [[1, 0.5]]})",
         "$.gemm_efficiency[0][1]", "at most 1.5"},
        {head +
             R"("gemm_efficiency": [[1, 0]], "nvlink_bus_efficiency": [[1, 0.5]], "network_bus_efficiency": [[1, 0.5]]})",
         "$.gemm_efficiency[0][1]", "out of range"},
        {head +
             R"("gemm_efficiency": [[1, 0.5, 3]], "nvlink_bus_efficiency": [[1, 0.5]], "network_bus_efficiency": [[1, 0.5]]})",
         "$.gemm_efficiency[0]", "expected a pair"},
        {head +
             R"("gemm_efficiency": [[1, "0.5"]], "nvlink_bus_efficiency": [[1, 0.5]], "network_bus_efficiency": [[1, 0.5]]})",
         "$.gemm_efficiency[0][1]", "wrong type"},
        {head +
             R"("gemm_efficiency": {"1": 0.5}, "nvlink_bus_efficiency": [[1, 0.5]], "network_bus_efficiency": [[1, 0.5]]})",
         "$.gemm_efficiency", "wrong type"},
        {head +
             R"("gemm_efficiency": [], "nvlink_bus_efficiency": [[1, 0.5]], "network_bus_efficiency": [[1, 0.5]]})",
         "$.gemm_efficiency", "at least one"},
        {head + R"("nvlink_bus_efficiency": [[1, 0.5]], "network_bus_efficiency": [[1, 0.5]]})",
         "$.gemm_efficiency", "missing required key"},
        {head + curves + R"(, "origin": "measurd"})", "$.origin", "did you mean \"measured\"?"},
        {head + curves + R"(, "hbm_efficiency": 2})", "$.hbm_efficiency", "out of range"},
        {head + curves + R"(, "nvlink_latency_s": -1e-6})", "$.nvlink_latency_s", "out of range"},
        {head + curves + R"(, "gpu": "h100"})", "$.gpu", "unknown key"},
        {R"({"schema": "layout-planner/hardware-profile", "version": 9})", "$.version", "newer version"},
        {scenarioToJson(defaultScenario()), "$.schema", "not a hardware-profile file"},
    };
    for (const auto& c : cases) {
        const auto r = profileFromJson(c.text);
        LP_CHECK(!r.has_value());
        if (r)
            continue;
        if (!hasError(r.error(), c.path, c.words)) {
            LP_CHECK(!"expected profile error");
            std::fprintf(stderr, "  wanted %s / %s, got:\n%s", c.path.c_str(), c.words.c_str(),
                         allMessages(r.error()).c_str());
        }
    }
    const auto missing = loadProfileFile("/nonexistent/profile.json");
    LP_CHECK(!missing.has_value() && missing.error()[0].message().find("No such file") != std::string::npos);
}

// A curve's index (log(x) per point, each interval's inverse width; the step where evenly spaced) changes how
// at() finds its values, not the values (beyond the last bit or two): against the plain look-up on evenly and
// unevenly spaced curves, at and between the points and past both ends. A profile read from a file is indexed
// as a built-in one is, and a stale index is ignored.
LP_TEST(indexedCurvesLookUpWhatPlainOnesDo) {
    Curve uneven;
    uneven.points = {{1e3, 0.05}, {2.5e4, 0.2}, {1e6, 0.45}, {3e6, 0.5}, {8e9, 0.8}};
    const Curve& even = findGpuPreset("h100-sxm-80gb")->profile.gemmEfficiency;
    LP_CHECK(even.logStep > 0 && even.logX.size() == even.points.size());
    LP_CHECK(even.invLogWidth.size() + 1 == even.points.size() &&
             std::abs(even.invLogStep * even.logStep - 1.0) < 1e-15);
    for (const Curve* indexed : std::initializer_list<const Curve*>{&uneven, &even}) {
        Curve plain;
        plain.points = indexed->points;
        Curve fast = plain;
        fast.index();
        LP_CHECK(fast == plain);
        const double lo = plain.points.front().first, hi = plain.points.back().first;
        for (double x = lo / 10; x < hi * 10; x *= 1.0371) {
            const double want = plain.at(x);
            LP_CHECK(std::abs(fast.at(x) - want) <= 1e-12 * want);
        }
        for (const auto& [x, y] : plain.points)
            LP_CHECK(std::abs(fast.at(x) - y) <= 1e-12 * y);
    }
    LP_CHECK(uneven.logStep == 0); // unevenly spaced: a search over the stored logarithms
    Curve indexedUneven = uneven;
    indexedUneven.index();
    LP_CHECK(indexedUneven.logStep == 0 && indexedUneven.logX.size() == uneven.points.size());
    // Read from a file: indexed.
    const auto read = profileFromJson(profileToJson(findGpuPreset("a100-sxm-80gb")->profile));
    LP_CHECK(read.has_value() &&
             read->networkBusEfficiency.logX.size() == read->networkBusEfficiency.points.size());
    // Points added after the index: the index no longer counts.
    Curve stale = indexedUneven;
    stale.points.emplace_back(1e11, 0.9);
    LP_CHECK(std::abs(stale.at(5e10) - (0.8 + 0.1 * std::log(5e10 / 8e9) / std::log(1e11 / 8e9))) < 1e-12);
}

LP_TEST_MAIN()
