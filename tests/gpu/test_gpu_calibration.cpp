// GPU test (ctest label "gpu"): a short calibration on the local GPU with correct and sane results (the
// correctness checks pass; Hopper SXM parts reach acceptanceBounds), cancel, and errors that stay
// messages. Without a GPU it prints "SKIPPED: no GPU (reason)" and exits 77, which ctest shows as
// skipped - unless GPUs are expected here (the driver lists some, or LP_EXPECT_GPU=1): then it fails
// with the reason and what to do.
#include "TestHarness.h"
#include "core/estimate/Evaluate.h"
#include "core/io/Presets.h"
#include "core/io/ProfileJson.h"
#include "cuda/Calibrate.h"
#include "cuda/CalibrationSummary.h"
#include "cuda/Device.h"
#include "cuda/GpuDiagnosis.h"
#include "cuda/ProfileBuilder.h"

#include <algorithm>
#include <cstdio>

using namespace lp;

namespace {

calib::CalibrationRequest smallRequest() {
    calib::CalibrationRequest r;
    r.gemms = {{"square 4096", 4096, 4096, 4096},
               {"square 8192", 8192, 8192, 8192},
               {"skinny 64x8192x8192", 64, 8192, 8192},
               {"odd 1000x3000x777", 1000, 3000, 777}};
    r.hbmBytes = {256.0 * 1024 * 1024, 1024.0 * 1024 * 1024};
    r.commBytes = {64.0 * 1024, 1024.0 * 1024, 64.0 * 1024 * 1024};
    r.warmup = 2;
    r.repetitions = 5;
    r.maxSecondsPerItem = 0.5;
    r.sustainSeconds = 2.0;
    return r;
}

void checkStats(const calib::Stats& s) {
    LP_CHECK(s.samples >= 1);
    LP_CHECK(s.median > 0);
    LP_CHECK(s.min <= s.median && s.median <= s.max);
    LP_CHECK(s.spread >= 0);
}

const calib::GemmMeasurement* findGemm(const calib::CalibrationResult& r, long long n,
                                       calib::GemmDtype dtype) {
    for (const auto& g : r.gemms)
        if (g.shape.m == n && g.shape.n == n && g.shape.k == n && g.dtype == dtype)
            return &g;
    return nullptr;
}

std::vector<calib::DeviceInfo> g_gpus;

LP_TEST(quick_calibration_gives_sane_figures) {
    const calib::CalibrationResult r = calib::runCalibration(smallRequest());
    LP_CHECK(r.ok);
    if (!r.ok) {
        std::fprintf(stderr, "calibration failed: %s\n", r.error.c_str());
        return;
    }
    LP_CHECK(!r.date.empty());
    LP_CHECK(r.device.name == g_gpus.front().name);
    auto ref = calib::chooseReference(r.device, nullptr);
    LP_CHECK(ref.has_value());
    if (!ref)
        return;
    std::printf("device: %s (cc %s), reference: %s\n", r.device.name.c_str(),
                r.device.computeCapability().c_str(), ref->how.c_str());
    for (const auto& g : r.gemms) {
        std::printf("  GEMM %-5s %-24s %s\n", calib::toString(g.dtype), g.shape.label.c_str(),
                    g.ok() ? (std::to_string(g.flopsPerSecond / 1e12) + " TFLOP/s").c_str()
                           : g.error.c_str());
        if (g.ok())
            checkStats(g.seconds);
    }
    const bool fp8 = r.device.ccMajor > 8 || (r.device.ccMajor == 8 && r.device.ccMinor >= 9);
    // Correct before fast: a non-square transposed GEMM of each type against the host, and (with two or
    // more GPUs) an all-reduce of rank-valued buffers.
    const std::size_t checks = (fp8 ? 2u : 1u) + (g_gpus.size() >= 2 ? 1u : 0u);
    LP_CHECK_EQ(r.checks.size(), checks);
    for (const auto& c : r.checks) {
        std::printf("  check %s: %s (%s)\n", c.what.c_str(), c.passed ? "passed" : "FAILED",
                    c.detail.c_str());
        LP_CHECK(c.passed);
    }
    const calib::AcceptanceBounds bounds = calib::acceptanceBounds(ref->gpu.id);
    std::printf(
        "  bounds (%s): bf16 >= %.2f, fp8 >= %.2f, HBM >= %.2f, all-reduce 64 MiB >= %.2f of NVLink\n",
        bounds.strict ? "Hopper SXM" : "loose", bounds.bf16, bounds.fp8, bounds.hbm, bounds.allReduce64MiB);
    for (auto dtype : {calib::GemmDtype::Bf16, calib::GemmDtype::Fp8}) {
        const bool isFp8 = dtype == calib::GemmDtype::Fp8;
        if (isFp8 && !fp8)
            continue;
        const auto* big = findGemm(r, 8192, dtype);
        LP_CHECK(big && big->ok());
        const double peak = isFp8 ? ref->gpu.peakFlops8 : ref->gpu.peakFlops16;
        if (big && big->ok() && peak > 0) {
            const double eff = big->flopsPerSecond / peak;
            std::printf(
                "  %s 8192^3: %.1f TFLOP/s = %.1f%% of %.0f TFLOP/s (fastest of %d algorithms: #%d)\n",
                calib::toString(dtype), big->flopsPerSecond / 1e12, eff * 100, peak / 1e12,
                big->algorithmsTimed, big->algorithmRank + 1);
            LP_CHECK(eff >= (isFp8 ? bounds.fp8 : bounds.bf16) && eff < 1.1);
            LP_CHECK(big->algorithmsTimed >= 1);
        }
    }
    double bestHbm = 0;
    for (const auto& h : r.hbm) {
        std::printf("  HBM %-6s %6.0f MiB: %s\n", calib::toString(h.method), h.bufferBytes / 1048576.0,
                    h.ok() ? (std::to_string(h.bytesPerSecond / 1e9) + " GB/s").c_str() : h.error.c_str());
        LP_CHECK(h.ok());
        if (h.ok() && ref->gpu.hbmBandwidth > 0 && h.bufferBytes >= 1e9) {
            checkStats(h.seconds);
            LP_CHECK(h.bytesPerSecond / ref->gpu.hbmBandwidth < 1.1);
            bestHbm = std::max(bestHbm, h.bytesPerSecond / ref->gpu.hbmBandwidth);
        }
    }
    if (ref->gpu.hbmBandwidth > 0)
        LP_CHECK(bestHbm >= bounds.hbm);
    // The fastest GEMM of each type held back to back: sane, and no faster than a little over its short
    // samples (an H200 at its 700 W limit holds about 85% of them; docs/calibration.md).
    LP_CHECK_EQ(r.sustained.size(), std::size_t{fp8 ? 2u : 1u});
    for (const auto& h : r.sustained) {
        std::printf("  held %-5s %-22s %s\n", calib::toString(h.dtype), h.shape.label.c_str(),
                    h.ok() ? (std::to_string(h.heldFlopsPerSecond / 1e12) + " TFLOP/s, " +
                              std::to_string(100 * h.ratio()) + "% of the short samples, " +
                              std::to_string(h.windowFlops.size()) + " windows")
                                 .c_str()
                           : h.error.c_str());
        LP_CHECK(h.ok());
        LP_CHECK(h.windowFlops.size() >= 4);
        LP_CHECK(h.ratio() > 0.3 && h.ratio() < 1.2);
        for (const auto& g : r.gemms) // the fastest of its type was held
            if (g.dtype == h.dtype && g.ok())
                LP_CHECK(g.flopsPerSecond <= h.burstFlopsPerSecond);
    }

    if (g_gpus.size() >= 2) {
        LP_CHECK(r.gpuCount >= 2);
        for (const auto& c : r.comm) {
            std::printf("  NCCL %-14s %8.0f KiB: %s\n", calib::toString(c.op), c.bytes / 1024.0,
                        c.ok() ? (std::to_string(c.busBytesPerSecond / 1e9) + " GB/s bus").c_str()
                               : c.error.c_str());
            LP_CHECK(c.ok());
            if (c.ok())
                LP_CHECK(c.busBytesPerSecond > 0);
            LP_CHECK(!c.method.empty());
            if (c.ok() && c.op == calib::Collective::AllReduce && c.bytes >= 32.0 * 1024 * 1024 &&
                c.bytes <= 64.0 * 1024 * 1024 && ref->gpu.nvlinkBandwidth > 0) {
                std::printf("  all-reduce %.0f MiB (%s): %.1f%% of the %.0f GB/s NVLink figure\n",
                            c.bytes / 1048576.0, c.method.c_str(),
                            100 * c.busBytesPerSecond / ref->gpu.nvlinkBandwidth,
                            ref->gpu.nvlinkBandwidth / 1e9);
                LP_CHECK(c.busBytesPerSecond >= bounds.allReduce64MiB * ref->gpu.nvlinkBandwidth);
            }
        }
    } else {
        LP_CHECK(r.comm.empty());
        LP_CHECK(!r.notes.empty());
    }

    // The measurements make a valid profile that survives its file format and changes predictions.
    auto built = calib::buildProfile(r, *ref, core::builtinProfile(ref->gpu));
    LP_CHECK(built.has_value());
    if (!built)
        return;
    for (const auto& n : built->notes)
        std::printf("  note: %s\n", n.c_str());
    auto back = core::profileFromJson(core::profileToJson(built->profile));
    LP_CHECK(back.has_value());
    if (back) {
        LP_CHECK(back->origin == "measured");
        LP_CHECK(back->measuredOn == r.device.name);
        LP_CHECK(back->gemmEfficiency.points.size() == built->profile.gemmEfficiency.points.size());
    }
    core::Scenario s = core::defaultScenario();
    s.cluster.gpu = ref->gpu;
    const core::Plan plan = core::evaluate(s, built->profile);
    LP_CHECK(plan.valid);
    LP_CHECK(plan.mfu > 0 && plan.mfu < 1);
}

LP_TEST(errors_are_messages) {
    calib::CalibrationRequest r = smallRequest();
    r.gemms = {{"too big", 1LL << 20, 1LL << 20, 1LL << 20}};
    r.hbmBytes.clear();
    r.commBytes.clear();
    const calib::CalibrationResult res = calib::runCalibration(r);
    LP_CHECK(res.ok);
    LP_CHECK(!res.gemms.empty() && !res.gemms.front().ok());
    if (!res.gemms.empty())
        LP_CHECK(res.gemms.front().error.find("skipped") != std::string::npos);

    r.device = 999;
    const calib::CalibrationResult bad = calib::runCalibration(r);
    LP_CHECK(!bad.ok);
    LP_CHECK(bad.error.find("does not exist") != std::string::npos);
}

LP_TEST(cancel_stops_after_the_current_item) {
    int calls = 0;
    const calib::CalibrationResult r = calib::runCalibration(smallRequest(), [&](const calib::Progress& p) {
        LP_CHECK(p.total > 0);
        LP_CHECK(p.partial != nullptr);
        return ++calls < 2;
    });
    LP_CHECK(r.cancelled);
    LP_CHECK(!r.ok);
    LP_CHECK(r.gemms.size() == 1);
    // The GPU is still usable afterwards.
    calib::CalibrationRequest again = smallRequest();
    again.sustainSeconds = 0;
    again.gemms.resize(1);
    again.hbmBytes.clear();
    again.commBytes.clear();
    LP_CHECK(calib::runCalibration(again).ok);
}

LP_TEST(cancel_stops_a_held_gemm_between_windows) {
    calib::CalibrationRequest r = smallRequest();
    r.gemms = {{"square 4096", 4096, 4096, 4096}};
    r.fp8 = false;
    r.hbmBytes.clear();
    r.commBytes.clear();
    r.sustainSeconds = 60; // 240 windows if nothing stopped it
    int heldCalls = 0;
    const calib::CalibrationResult res = calib::runCalibration(r, [&](const calib::Progress& p) {
        if (p.item.find("held for") != std::string::npos)
            ++heldCalls;
        return heldCalls < 4; // the item's own report, then three windows
    });
    LP_CHECK(res.cancelled);
    LP_CHECK_EQ(res.sustained.size(), std::size_t{1});
    if (!res.sustained.empty())
        LP_CHECK_EQ(res.sustained.front().windowFlops.size(), std::size_t{3});
}

} // namespace

int main(int argc, char** argv) {
    std::string why;
    g_gpus = calib::detectGpus(&why);
    if (g_gpus.empty()) {
        // detectGpus has said what the driver lists and what to do; a missing GPU is then a failure.
        if (calib::localGpuExpectation().expected) {
            std::printf("FAILED: GPUs are expected here: %s\n", why.c_str());
            return 1;
        }
        std::printf("SKIPPED: no GPU (%s)\n", why.c_str());
        return 77;
    }
    for (const auto& d : g_gpus)
        std::printf("GPU %d: %s, %d SMs, %.0f GiB, compute capability %s, driver %s, runtime %s\n", d.index,
                    d.name.c_str(), d.smCount, d.memoryBytes / (1024.0 * 1024 * 1024),
                    d.computeCapability().c_str(), calib::cudaVersionString(d.driverVersion).c_str(),
                    calib::cudaVersionString(d.runtimeVersion).c_str());
    return lp::test::runAll(argc, argv);
}
