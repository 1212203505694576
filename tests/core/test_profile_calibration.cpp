// Calibration on the CPU: measurements -> hardware profile (cuda/ProfileBuilder), the workload built
// from a scenario (cuda/Workload), statistics, preset matching, interpolation, the profile's effect on
// predictions, and the no-GPU path of detectGpus / runCalibration. Runs in every build, without a GPU.
#include "TestHarness.h"
#include "core/estimate/Evaluate.h"
#include "core/io/Presets.h"
#include "core/io/ProfileJson.h"
#include "cuda/Calibrate.h"
#include "cuda/Device.h"
#include "cuda/ProfileBuilder.h"
#include "cuda/Workload.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

using namespace lp;

namespace {

constexpr double kMiB = 1024.0 * 1024.0;

bool sortedAndMonotone(const core::Curve& c) {
    for (std::size_t i = 1; i < c.points.size(); ++i)
        if (!(c.points[i].first > c.points[i - 1].first) || c.points[i].second < c.points[i - 1].second)
            return false;
    return !c.points.empty();
}

calib::Stats fixedStats(double seconds) {
    calib::Stats s;
    s.median = s.min = s.max = seconds;
    s.samples = 10;
    return s;
}

const core::GpuPreset& h100() {
    const core::GpuPreset* p = core::findGpuPreset("h100-sxm-80gb");
    if (!p)
        std::abort();
    return *p;
}

calib::DeviceInfo h100Device() {
    calib::DeviceInfo d;
    d.name = "NVIDIA H100 80GB HBM3";
    d.smCount = 132;
    d.memoryBytes = 85e9;
    d.smClockHz = 1.98e9;
    d.memoryClockHz = 2.619e9;
    d.memoryBusWidthBits = 5120;
    d.ccMajor = 9;
    d.ccMinor = 0;
    d.driverVersion = 13000;
    d.runtimeVersion = 13000;
    return d;
}

// GEMM efficiency of a fake GPU: max / (1 + F0 / F), with a wobble that breaks monotonicity.
double fakeGemmEfficiency(double flops, double maxEff) {
    return maxEff / (1.0 + 5e9 / flops) * (1.0 + 0.03 * std::sin(std::log(flops)));
}

// A calibration result as the GPU benchmarks would return it: an H100 reaching `maxEff` on large GEMMs,
// 2.8 TB/s in the read-write kernel, and NCCL on 8 GPUs with 2 us per ring step.
calib::CalibrationResult fakeResult(double maxEff) {
    calib::CalibrationResult r;
    r.ok = true;
    r.device = h100Device();
    r.date = "2025-01-31";
    r.gpuCount = 8;
    const double peak = h100().gpu.peakFlops16;
    for (long long n : {256LL, 512LL, 1024LL, 2048LL, 4096LL, 8192LL, 16384LL}) {
        for (auto dtype : {calib::GemmDtype::Bf16, calib::GemmDtype::Fp8}) {
            calib::GemmMeasurement g;
            g.shape = {"square " + std::to_string(n), n, n, n};
            g.dtype = dtype;
            const double eff =
                fakeGemmEfficiency(g.shape.flops(), dtype == calib::GemmDtype::Fp8 ? 0.6 : maxEff);
            g.flopsPerSecond = eff * (dtype == calib::GemmDtype::Fp8 ? h100().gpu.peakFlops8 : peak);
            g.seconds = fixedStats(g.shape.flops() / g.flopsPerSecond);
            r.gemms.push_back(g);
        }
    }
    calib::GemmMeasurement failed;
    failed.shape = {"too big", 1LL << 20, 1LL << 20, 1LL << 20};
    failed.error = "skipped: needs 6 TiB of GPU memory, 79 GiB free";
    r.gemms.push_back(failed);
    for (double bytes : {16 * kMiB, 256 * kMiB, 1024 * kMiB}) {
        for (auto method : {calib::HbmMethod::Memcpy, calib::HbmMethod::Kernel}) {
            calib::HbmMeasurement h;
            h.method = method;
            h.bufferBytes = bytes;
            h.bytesMoved = 2 * bytes;
            h.bytesPerSecond =
                bytes < 100 * kMiB ? 5e12 : (method == calib::HbmMethod::Kernel ? 2.8e12 : 2.6e12);
            h.seconds = fixedStats(h.bytesMoved / h.bytesPerSecond);
            r.hbm.push_back(h);
        }
    }
    const double a = 2e-6;
    for (double bytes : {64.0 * 1024, 1 * kMiB, 16 * kMiB, 256 * kMiB, 1024 * kMiB}) {
        for (auto op : {calib::Collective::AllReduce, calib::Collective::AllGather,
                        calib::Collective::ReduceScatter, calib::Collective::SendRecv}) {
            calib::CommMeasurement c;
            c.op = op;
            c.ranks = 8;
            c.bytes = bytes;
            const bool ar = op == calib::Collective::AllReduce;
            const double factor = ar ? 2.0 * 7 / 8 : op == calib::Collective::SendRecv ? 1.0 : 7.0 / 8;
            const double steps = ar ? 14.0 : op == calib::Collective::SendRecv ? 1.0 : 7.0;
            const double seconds = factor * bytes / 360e9 + steps * a; // 360 GB/s bus bandwidth + latency
            c.seconds = fixedStats(seconds);
            c.algBytesPerSecond = bytes / seconds;
            c.busBytesPerSecond = c.algBytesPerSecond * factor;
            r.comm.push_back(c);
        }
    }
    return r;
}

calib::Reference h100Reference() {
    auto ref = calib::chooseReference(h100Device(), nullptr);
    if (!ref)
        std::abort();
    return *ref;
}

// ------------------------------------------------------------------------------------------------

LP_TEST(monotone_curve_is_sorted_pooled_and_non_decreasing) {
    std::vector<std::pair<double, double>> samples{{1e12, 0.70}, {1e6, 0.02},  {1e9, 0.40}, {1.05e9, 0.44},
                                                   {1e10, 0.38}, {1e11, 0.65}, {1e8, 0.2}};
    const core::Curve c = calib::monotoneCurve(samples);
    LP_CHECK(sortedAndMonotone(c));
    // 1e9 and 1.05e9 fall in the same 1/8 decade: one point (median of the two y).
    LP_CHECK_EQ(c.points.size(), std::size_t{6});
    // The dip at 1e10 (0.38 after 0.42) is pooled with its predecessor: both get the mean.
    LP_CHECK_NEAR(c.at(1e10), (2 * 0.42 + 0.38) / 3.0, 1e-9);
    LP_CHECK_NEAR(c.at(5e9), (2 * 0.42 + 0.38) / 3.0, 1e-9); // between the two pooled points
    LP_CHECK_NEAR(c.at(1e12), 0.70, 1e-12);
    LP_CHECK_NEAR(c.at(1e6), 0.02, 1e-12);
}

LP_TEST(monotone_curve_drops_invalid_samples_and_clamps) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    const core::Curve c = calib::monotoneCurve(
        {{-1.0, 0.5}, {0.0, 0.5}, {nan, 0.5}, {inf, 0.5}, {1e3, nan}, {1e3, 0.0}, {1e6, 0.5}, {1e9, 3.0}});
    LP_CHECK_EQ(c.points.size(), std::size_t{3});
    LP_CHECK(sortedAndMonotone(c));
    LP_CHECK_NEAR(c.points.front().second, 1e-4, 1e-12); // efficiency must stay > 0 in a profile file
    LP_CHECK_NEAR(c.points.back().second, 1.5, 1e-12);
    LP_CHECK(calib::monotoneCurve({}).empty());
}

LP_TEST(curve_interpolates_in_log_x_and_clamps) {
    const core::Curve c = calib::monotoneCurve({{1e6, 0.1}, {1e8, 0.5}, {1e10, 0.7}});
    LP_CHECK_NEAR(c.at(1e7), 0.3, 1e-9); // halfway in log(x)
    LP_CHECK_NEAR(c.at(1e9), 0.6, 1e-9);
    LP_CHECK_NEAR(c.at(1e3), 0.1, 1e-12);  // clamped below
    LP_CHECK_NEAR(c.at(1e15), 0.7, 1e-12); // and above
}

LP_TEST(summarize_gives_median_range_and_spread) {
    const calib::Stats s = calib::summarize({5, 1, 3, 2, 4, std::numeric_limits<double>::quiet_NaN()});
    LP_CHECK_EQ(s.samples, 5);
    LP_CHECK_NEAR(s.median, 3, 1e-12);
    LP_CHECK_NEAR(s.min, 1, 1e-12);
    LP_CHECK_NEAR(s.max, 5, 1e-12);
    LP_CHECK_NEAR(s.spread, (4.6 - 1.4) / 3.0, 1e-9); // p90 - p10 over the median
    LP_CHECK_EQ(calib::summarize({}).samples, 0);
}

LP_TEST(build_profile_from_fake_measurements) {
    const calib::CalibrationResult r = fakeResult(0.72);
    const calib::Reference ref = h100Reference();
    const core::HardwareProfile base = core::builtinProfile(ref.gpu);
    auto built = calib::buildProfile(r, ref, base);
    LP_CHECK(built.has_value());
    if (!built)
        return;
    const core::HardwareProfile& p = built->profile;
    LP_CHECK_EQ(p.origin, std::string("measured"));
    LP_CHECK_EQ(p.gpuId, std::string("h100-sxm-80gb"));
    LP_CHECK_EQ(p.measuredOn, std::string("NVIDIA H100 80GB HBM3"));
    LP_CHECK_EQ(p.date, std::string("2025-01-31"));
    LP_CHECK(p.name.find("NVIDIA H100 80GB HBM3") != std::string::npos);

    // GEMM curves: one point per square size, sorted, monotone, close to the fake GPU's efficiency.
    LP_CHECK(sortedAndMonotone(p.gemmEfficiency));
    LP_CHECK_EQ(p.gemmEfficiency.points.size(), std::size_t{7});
    const double big = 2.0 * 16384.0 * 16384.0 * 16384.0;
    LP_CHECK_NEAR(p.gemmEfficiency.at(big), fakeGemmEfficiency(big, 0.72), 0.03);
    LP_CHECK(p.gemmEfficiency.at(2.0 * 256 * 256 * 256) < 0.2);
    LP_CHECK(sortedAndMonotone(p.gemmEfficiencyFp8));
    LP_CHECK_NEAR(p.gemmEfficiencyFp8.at(big), fakeGemmEfficiency(big, 0.6), 0.03);

    // HBM: the read-write kernel over the large buffers (the 16 MiB one sits in L2 and is ignored).
    LP_CHECK_NEAR(p.kernels.hbmEfficiency, 2.8e12 / ref.gpu.hbmBandwidth, 1e-9);

    // NVLink: latency per ring step from the 64 KiB all-reduce; with it taken out, the curve gives back
    // the bus bandwidth of the large messages, and the core's ring model reproduces the measured time.
    const double latency = (2.0 * 7 / 8 * 64 * 1024 / 360e9 + 14 * 2e-6) / 14;
    LP_CHECK_NEAR(p.nvlinkLatencySeconds, latency, 1e-9);
    LP_CHECK(sortedAndMonotone(p.nvlinkBusEfficiency));
    LP_CHECK(p.nvlinkBusEfficiency.points.front().first >= kMiB * 0.99);
    LP_CHECK_NEAR(p.nvlinkBusEfficiency.at(1024 * kMiB), 360e9 / ref.gpu.nvlinkBandwidth, 0.02);

    // What was not measured comes from the base profile.
    LP_CHECK_EQ(p.kernels.attentionFwdEfficiency, base.kernels.attentionFwdEfficiency);
    LP_CHECK_EQ(p.kernels.attentionBwdEfficiency, base.kernels.attentionBwdEfficiency);
    LP_CHECK_EQ(p.kernels.attentionScoreOverhead, base.kernels.attentionScoreOverhead);
    LP_CHECK(p.kernels.attentionScoreOverhead > 0);
    LP_CHECK(p.networkBusEfficiency == base.networkBusEfficiency);
    LP_CHECK_EQ(p.networkLatencySeconds, base.networkLatencySeconds);
    LP_CHECK(!built->notes.empty());
}

LP_TEST(build_profile_keeps_base_parts_that_were_not_measured) {
    calib::CalibrationResult r = fakeResult(0.7);
    r.comm.clear();
    r.hbm.clear();
    r.gpuCount = 0;
    std::erase_if(r.gemms, [](const calib::GemmMeasurement& g) { return g.dtype == calib::GemmDtype::Fp8; });
    const calib::Reference ref = h100Reference();
    const core::HardwareProfile base = core::builtinProfile(ref.gpu);
    auto built = calib::buildProfile(r, ref, base);
    LP_CHECK(built.has_value());
    if (!built)
        return;
    LP_CHECK(built->profile.nvlinkBusEfficiency == base.nvlinkBusEfficiency);
    LP_CHECK(built->profile.gemmEfficiencyFp8 == base.gemmEfficiencyFp8);
    LP_CHECK_EQ(built->profile.kernels.hbmEfficiency, base.kernels.hbmEfficiency);
    LP_CHECK_EQ(built->profile.nvlinkLatencySeconds, base.nvlinkLatencySeconds);
}

LP_TEST(build_profile_needs_a_gemm) {
    calib::CalibrationResult r = fakeResult(0.7);
    for (auto& g : r.gemms)
        g.error = "cuBLASLt offers no algorithm";
    auto built = calib::buildProfile(r, h100Reference(), core::builtinProfile(h100().gpu));
    LP_CHECK(!built.has_value());
    if (!built)
        LP_CHECK(built.error().find("no bf16 GEMM") != std::string::npos);
}

LP_TEST(measured_profile_survives_the_file_format) {
    auto built = calib::buildProfile(fakeResult(0.72), h100Reference(), core::builtinProfile(h100().gpu));
    LP_CHECK(built.has_value());
    if (!built)
        return;
    auto back = core::profileFromJson(core::profileToJson(built->profile));
    LP_CHECK(back.has_value());
    if (back)
        LP_CHECK(*back == built->profile);
}

// The fake result's fastest GEMM of a type, held at `ratio` of its short-sample throughput.
calib::SustainedGemm heldFastest(const calib::CalibrationResult& r, calib::GemmDtype dtype, double ratio) {
    const calib::GemmMeasurement* best = nullptr;
    for (const auto& g : r.gemms)
        if (g.dtype == dtype && g.ok() && (!best || g.flopsPerSecond > best->flopsPerSecond))
            best = &g;
    calib::SustainedGemm h;
    h.shape = best->shape;
    h.dtype = dtype;
    h.windowSeconds = 0.25;
    h.burstFlopsPerSecond = best->flopsPerSecond;
    h.heldFlopsPerSecond = ratio * best->flopsPerSecond;
    h.windowFlops.assign(60, h.heldFlopsPerSecond);
    return h;
}

LP_TEST(gemm_curves_are_scaled_to_the_throughput_held_at_the_power_limit) {
    const calib::Reference ref = h100Reference();
    const core::HardwareProfile base = core::builtinProfile(ref.gpu);
    const calib::CalibrationResult shortOnly = fakeResult(0.8);
    calib::CalibrationResult held = shortOnly;
    held.sustained = {heldFastest(held, calib::GemmDtype::Bf16, 0.85),
                      heldFastest(held, calib::GemmDtype::Fp8, 0.8)};
    auto a = calib::buildProfile(shortOnly, ref, base);
    auto b = calib::buildProfile(held, ref, base);
    LP_CHECK(a.has_value() && b.has_value());
    if (!a || !b)
        return;
    // Every point of each curve scales by its own type's ratio; the curves stay valid.
    LP_CHECK_EQ(a->profile.gemmEfficiency.points.size(), b->profile.gemmEfficiency.points.size());
    for (std::size_t i = 0; i < a->profile.gemmEfficiency.points.size(); ++i)
        LP_CHECK_NEAR(b->profile.gemmEfficiency.points[i].second,
                      0.85 * a->profile.gemmEfficiency.points[i].second, 1e-12);
    for (std::size_t i = 0; i < a->profile.gemmEfficiencyFp8.points.size(); ++i)
        LP_CHECK_NEAR(b->profile.gemmEfficiencyFp8.points[i].second,
                      0.8 * a->profile.gemmEfficiencyFp8.points[i].second, 1e-12);
    LP_CHECK(sortedAndMonotone(b->profile.gemmEfficiency));
    LP_CHECK_EQ(b->profile.kernels.hbmEfficiency,
                a->profile.kernels.hbmEfficiency); // memory clocks do not throttle
    const auto noted = [](const calib::BuiltProfile& p, const char* text) {
        return std::any_of(p.notes.begin(), p.notes.end(),
                           [&](const std::string& n) { return n.find(text) != std::string::npos; });
    };
    LP_CHECK(noted(*b, "bf16 curve is scaled by 0.85"));
    LP_CHECK(noted(*b, "fp8 curve is scaled by 0.80"));
    LP_CHECK(noted(*a, "bf16 GEMMs were not held back to back"));
    // The held profile predicts a slower step, the same model FLOPs per step.
    core::Scenario s = core::defaultScenario();
    s.cluster.gpu = ref.gpu;
    const core::Plan pa = core::evaluate(s, a->profile);
    const core::Plan pb = core::evaluate(s, b->profile);
    LP_CHECK(pb.time.stepSeconds > pa.time.stepSeconds);
    LP_CHECK(pb.mfu < pa.mfu);

    // A hold as fast as the short samples (no power limit reached) leaves the curve; a failed one too.
    calib::CalibrationResult same = shortOnly;
    same.sustained = {heldFastest(same, calib::GemmDtype::Bf16, 1.02)};
    auto c = calib::buildProfile(same, ref, base);
    LP_CHECK(c.has_value());
    if (c) {
        LP_CHECK(c->profile.gemmEfficiency == a->profile.gemmEfficiency);
        LP_CHECK(noted(*c, "no power limit reached"));
    }
    same.sustained.front().error = "cublasLtMatmul: CUBLAS_STATUS_EXECUTION_FAILED";
    auto d = calib::buildProfile(same, ref, base);
    LP_CHECK(d.has_value());
    if (d) {
        LP_CHECK(d->profile.gemmEfficiency == a->profile.gemmEfficiency);
        LP_CHECK(noted(*d, "hold failed (cublasLtMatmul"));
    }
}

LP_TEST(the_profile_measured_on_an_h200_agrees_with_the_built_in_one_on_the_default_scenario) {
    // What `calibrate` wrote on an H200 (2026-12-04, docs/calibration.md), its GEMMs held at the 700 W limit.
    // The built-in H200 figures were set on published training runs, with no GPU at hand: on the default
    // scenario both must give the same MFU within 5%. A built-in GEMM figure changed without measuring, or a
    // calibration that forgets the power limit (42% MFU instead of 38%), fails here.
    const auto p =
        core::loadProfileFile(std::string(LP_TEST_DATA_DIR) + "/profiles/h200-measured-2026-12-04.json");
    LP_CHECK(p.has_value());
    if (!p)
        return;
    LP_CHECK_EQ(p->origin, std::string("measured"));
    LP_CHECK_EQ(p->gpuId, std::string("h200-sxm-141gb"));
    LP_CHECK(sortedAndMonotone(p->gemmEfficiency));
    const double bf16Max = p->gemmEfficiency.points.back().second;
    LP_CHECK(bf16Max > 0.62 && bf16Max < 0.72);                                   // 664-672 TFLOP/s held
    LP_CHECK(p->gemmEfficiencyFp8.points.back().second > 0.6);                    // fp8 held at 0.65
    LP_CHECK(p->kernels.hbmEfficiency > 0.75 && p->kernels.hbmEfficiency < 0.85); // 3,885 GB/s of 4,800
    core::Scenario s = core::defaultScenario();
    s.cluster.gpu = core::findGpuPreset("h200-sxm-141gb")->gpu;
    const core::Plan builtin = core::evaluate(s);
    const core::Plan measured = core::evaluate(s, *p);
    LP_CHECK(builtin.valid && measured.valid);
    LP_CHECK(std::abs(measured.mfu / builtin.mfu - 1.0) < 0.05);
    LP_CHECK_EQ(measured.profileName, std::string("measured on NVIDIA H200"));
}

LP_TEST(lower_gemm_efficiency_predicts_a_longer_step) {
    core::Scenario s = core::defaultScenario();
    s.cluster.gpu = h100().gpu;
    const calib::Reference ref = h100Reference();
    const core::HardwareProfile base = core::builtinProfile(ref.gpu);
    auto fast = calib::buildProfile(fakeResult(0.8), ref, base);
    auto slow = calib::buildProfile(fakeResult(0.4), ref, base);
    LP_CHECK(fast.has_value() && slow.has_value());
    if (!fast || !slow)
        return;
    const core::Plan pf = core::evaluate(s, fast->profile);
    const core::Plan ps = core::evaluate(s, slow->profile);
    LP_CHECK(pf.valid && ps.valid);
    LP_CHECK(ps.time.stepSeconds > pf.time.stepSeconds * 1.2);
    LP_CHECK(ps.mfu < pf.mfu);
    LP_CHECK_EQ(ps.profileName, slow->profile.name);
}

LP_TEST(devices_match_gpu_presets_by_name_and_memory) {
    const auto id = [](std::string name, double memory) {
        calib::DeviceInfo d;
        d.name = std::move(name);
        d.memoryBytes = memory;
        const core::GpuPreset* p = calib::matchGpuPreset(d);
        return p ? p->gpu.id : std::string("none");
    };
    LP_CHECK_EQ(id("NVIDIA H100 80GB HBM3", 85e9), std::string("h100-sxm-80gb"));
    LP_CHECK_EQ(id("NVIDIA H100 PCIe", 85e9), std::string("h100-pcie-80gb"));
    LP_CHECK_EQ(id("NVIDIA H100 NVL", 100e9), std::string("none"));
    LP_CHECK_EQ(id("NVIDIA H200", 150e9), std::string("h200-sxm-141gb"));
    LP_CHECK_EQ(id("NVIDIA A100-SXM4-40GB", 42.5e9), std::string("a100-sxm-40gb"));
    LP_CHECK_EQ(id("NVIDIA A100-SXM4-80GB", 85e9), std::string("a100-sxm-80gb"));
    LP_CHECK_EQ(id("NVIDIA A100 80GB PCIe", 85e9), std::string("none"));
    LP_CHECK_EQ(id("NVIDIA B200", 190e9), std::string("b200"));
    LP_CHECK_EQ(id("NVIDIA L40S", 48e9), std::string("l40s"));
    LP_CHECK_EQ(id("NVIDIA GeForce RTX 4090", 25e9), std::string("none"));
    // Whole words: a GH200 is not an H200 (its HBM differs), an H20 is not an H200 (a fraction of its peak).
    LP_CHECK_EQ(id("NVIDIA GH200 480GB", 102e9), std::string("none"));
    LP_CHECK_EQ(id("NVIDIA GH200 144G HBM3e", 150e9), std::string("none"));
    LP_CHECK_EQ(id("NVIDIA H20", 102e9), std::string("none"));
    LP_CHECK_EQ(id("NVIDIA H200 NVL", 150e9), std::string("none"));
    LP_CHECK_EQ(id("NVIDIA H100 SXM5 80GB", 85e9), std::string("h100-sxm-80gb"));
    LP_CHECK_EQ(id("NVIDIA H800", 85e9), std::string("h800-sxm-80gb"));
    LP_CHECK_EQ(id("NVIDIA GB200", 190e9), std::string("gb200"));
}

LP_TEST(unknown_gpus_say_so_plainly) {
    for (const char* name : {"NVIDIA GH200 480GB", "NVIDIA H20", "NVIDIA H100 NVL"}) {
        calib::DeviceInfo d = h100Device();
        d.name = name;
        auto ref = calib::chooseReference(d, nullptr);
        LP_CHECK(ref.has_value() && ref->estimated && ref->gpu.id.empty());
        if (ref)
            LP_CHECK(ref->how.find("unknown GPU \"" + std::string(name) + "\": no GPU preset") !=
                     std::string::npos);
    }
}

LP_TEST(estimated_peak_uses_the_data_sheet_clock) {
    // H100 SXM: 132 SMs reporting a 1,980 MHz boost clock; NVIDIA quotes 989 TFLOP/s dense bf16 at 1,830.
    calib::DeviceInfo h100 = h100Device();
    LP_CHECK_NEAR(calib::dataSheetClockHz(h100), 1.83e9, 1.0);
    LP_CHECK_NEAR(calib::estimateGpuSpec(h100).peakFlops16 / 1e12, 989.4, 0.1);
    // A100 SXM: 108 SMs at 1,410 MHz, 312 TFLOP/s (311.9).
    calib::DeviceInfo a100;
    a100.name = "NVIDIA A100-SXM4-80GB";
    a100.smCount = 108;
    a100.smClockHz = 1.41e9;
    a100.ccMajor = 8;
    a100.ccMinor = 0;
    LP_CHECK_NEAR(calib::estimateGpuSpec(a100).peakFlops16 / 1e12, 311.9, 0.1);
    LP_CHECK_EQ(calib::estimateGpuSpec(a100).peakFlops8, 0.0);
    // A device clocked below the quoted clock (a power-capped part) keeps its own clock.
    calib::DeviceInfo slow = h100;
    slow.smClockHz = 1.6e9;
    LP_CHECK_NEAR(calib::dataSheetClockHz(slow), 1.6e9, 1.0);
    // Architectures without a quoted clock here: the device's.
    calib::DeviceInfo ada = h100;
    ada.ccMajor = 8;
    ada.ccMinor = 9;
    ada.smClockHz = 2.52e9;
    LP_CHECK_NEAR(calib::dataSheetClockHz(ada), 2.52e9, 1.0);
}

LP_TEST(skinny_and_square_gemms_of_equal_flops_stay_apart) {
    // 16x8192x8192 and 1024^3 have the same FLOPs (2^31); so have 1024x8192x8192 and 4096^3.
    calib::CalibrationResult r = fakeResult(0.7);
    const double peak = h100().gpu.peakFlops16;
    for (long long rows : {16LL, 1024LL}) {
        calib::GemmMeasurement g;
        g.shape = {"skinny " + std::to_string(rows) + "x8192x8192", rows, 8192, 8192};
        g.flopsPerSecond = 0.03 * peak;
        g.seconds = fixedStats(g.shape.flops() / g.flopsPerSecond);
        r.gemms.push_back(g);
    }
    LP_CHECK(calib::isSkinnySweepShape(r.gemms.back().shape));
    LP_CHECK(!calib::isSkinnySweepShape({"square 1024", 1024, 1024, 1024}));
    const calib::Reference ref = h100Reference();
    auto withSkinny = calib::buildProfile(r, ref, core::builtinProfile(ref.gpu));
    auto without = calib::buildProfile(fakeResult(0.7), ref, core::builtinProfile(ref.gpu));
    LP_CHECK(withSkinny.has_value() && without.has_value());
    if (!withSkinny || !without)
        return;
    LP_CHECK(withSkinny->profile.gemmEfficiency.points == without->profile.gemmEfficiency.points);
    const double flops = 2.0 * 1024 * 1024 * 1024;
    LP_CHECK(withSkinny->profile.gemmEfficiency.at(flops) > 0.2);
    bool noted = false;
    for (const auto& n : withSkinny->notes)
        noted |= n.find("skinny sweep GEMMs kept out") != std::string::npos &&
                 n.find("bf16 16x8192x8192 3.0%") != std::string::npos;
    LP_CHECK(noted);
}

LP_TEST(hbm_efficiency_is_the_better_of_kernel_and_copy) {
    calib::CalibrationResult r = fakeResult(0.7);
    for (auto& h : r.hbm) // the copy faster than the kernel, as on the H200 (88% against 81%)
        if (h.bufferBytes >= 256 * kMiB)
            h.bytesPerSecond = h.method == calib::HbmMethod::Memcpy ? 3.0e12 : 2.7e12;
    const calib::Reference ref = h100Reference();
    auto built = calib::buildProfile(r, ref, core::builtinProfile(ref.gpu));
    LP_CHECK(built.has_value());
    if (!built)
        return;
    LP_CHECK_NEAR(built->profile.kernels.hbmEfficiency, 3.0e12 / ref.gpu.hbmBandwidth, 1e-9);
    bool noted = false;
    for (const auto& n : built->notes)
        noted |=
            n.find("device-to-device copy, the better of the kernel (2700 GB/s) and the copy (3000 GB/s)") !=
            std::string::npos;
    LP_CHECK(noted);
}

LP_TEST(reference_is_the_named_or_matched_preset_or_an_estimate) {
    const calib::DeviceInfo dev = h100Device();
    auto matched = calib::chooseReference(dev, nullptr);
    LP_CHECK(matched.has_value() && matched->gpu.id == "h100-sxm-80gb" && !matched->estimated);
    auto named = calib::chooseReference(dev, nullptr, "h800-sxm-80gb");
    LP_CHECK(named.has_value() && named->gpu.id == "h800-sxm-80gb");
    auto unknown = calib::chooseReference(dev, nullptr, "no-such-gpu");
    LP_CHECK(!unknown.has_value());

    calib::DeviceInfo odd = dev;
    odd.name = "NVIDIA Hypothetical 9000";
    auto estimated = calib::chooseReference(odd, nullptr);
    LP_CHECK(estimated.has_value() && estimated->estimated);
    if (estimated) {
        // At the data sheet's 1,830 MHz, not the reported 1,980 MHz boost clock (989 TFLOP/s, not 1,070).
        LP_CHECK_NEAR(estimated->gpu.peakFlops16, 132 * 1.83e9 * 4096, 1e-9);
        LP_CHECK_NEAR(estimated->gpu.peakFlops8, 2 * 132 * 1.83e9 * 4096, 1e-9);
        LP_CHECK(estimated->how.find("unknown GPU \"NVIDIA Hypothetical 9000\"") != std::string::npos);
        LP_CHECK_NEAR(estimated->gpu.hbmBandwidth, 2 * 2.619e9 * 5120 / 8, 1e-9);
        LP_CHECK(estimated->gpu.id.empty());
        // A profile normalised against an estimate names no GPU preset.
        auto built = calib::buildProfile(fakeResult(0.7), *estimated, core::builtinProfile(estimated->gpu));
        LP_CHECK(built.has_value() && built->profile.gpuId.empty());
    }
    // With a scenario whose GPU is close to the estimate, the scenario's GPU is the reference.
    core::Scenario s = core::defaultScenario();
    s.cluster.gpu = h100().gpu;
    auto fromScenario = calib::chooseReference(odd, &s);
    LP_CHECK(fromScenario.has_value() && fromScenario->gpu.id == "h100-sxm-80gb" && !fromScenario->estimated);
    calib::DeviceInfo unknownArch = odd;
    unknownArch.ccMajor = 42;
    auto noPeak = calib::chooseReference(unknownArch, nullptr);
    LP_CHECK(noPeak.has_value());
    if (noPeak) {
        auto built = calib::buildProfile(fakeResult(0.7), *noPeak, core::builtinProfile(noPeak->gpu));
        LP_CHECK(!built.has_value());
    }
}

LP_TEST(scenario_gemm_shapes_follow_tp_and_micro_batch) {
    core::Scenario s = core::defaultScenario(); // Llama-2-70B-class, TP 8, micro batch 2, sequence 4096
    s.layout.tp = 8;
    s.layout.cp = 1;
    s.layout.microBatch = 2;
    const auto shapes = calib::scenarioGemms(s);
    const auto find = [&](const std::string& prefix) -> const calib::GemmShape* {
        for (const auto& g : shapes)
            if (g.label.rfind(prefix, 0) == 0)
                return &g;
        return nullptr;
    };
    const long long T = 2 * 4096;
    const auto* qkv = find("qkv fwd");
    LP_CHECK(qkv && qkv->m == T && qkv->n == (8192 + 2 * 8 * 128) / 8 && qkv->k == 8192);
    const auto* qkvData = find("qkv bwd-data");
    LP_CHECK(qkvData && qkvData->m == T && qkvData->n == 8192 && qkvData->k == 1280);
    const auto* out = find("attn-out fwd");
    LP_CHECK(out && out->n == 8192 && out->k == 1024);
    const auto* up = find("mlp-up fwd");
    LP_CHECK(up && up->n == 2 * 28672 / 8 && up->k == 8192); // SwiGLU: gate and up together
    const auto* down = find("mlp-down fwd");
    LP_CHECK(down && down->n == 8192 && down->k == 28672 / 8);
    const auto* head = find("lm-head fwd");
    LP_CHECK(head && head->n == 32000 / 8);
    // The head's weight gradient (m = hidden, n = vocab / TP, k = tokens) is the forward shape here (T == h),
    // so it is listed once.
    LP_CHECK(find("lm-head bwd-weight") == nullptr);
    LP_CHECK(find("lm-head bwd-data") != nullptr);
    // The forward GEMMs carry the FLOPs the core's time model charges for a layer.
    const double layerFlops = qkv->flops() + out->flops() + up->flops() + down->flops();
    LP_CHECK_NEAR(layerFlops, 2.0 * T * 8192 * (8192 + 2 * 1024 + 8192 + 3 * 28672) / 8, 1e-12);
    // No duplicates; tensor parallelism shrinks the shards.
    for (std::size_t i = 0; i < shapes.size(); ++i)
        for (std::size_t j = i + 1; j < shapes.size(); ++j)
            LP_CHECK(
                !(shapes[i].m == shapes[j].m && shapes[i].n == shapes[j].n && shapes[i].k == shapes[j].k));
    s.layout.tp = 4;
    const auto wider = calib::scenarioGemms(s);
    LP_CHECK(!wider.empty() && wider.front().n == 2 * qkv->n);
}

LP_TEST(request_holds_the_sweep_sizes_and_the_scenario_messages) {
    const calib::CalibrationRequest quick = calib::makeRequest(nullptr, true);
    const calib::CalibrationRequest full = calib::makeRequest(nullptr, false);
    LP_CHECK(!quick.gemms.empty() && quick.gemms.size() < full.gemms.size());
    LP_CHECK(quick.repetitions < full.repetitions);
    LP_CHECK(quick.sustainSeconds > 0 && quick.sustainSeconds < full.sustainSeconds);
    for (const auto* r : {&quick, &full}) {
        LP_CHECK(std::find(r->commBytes.begin(), r->commBytes.end(), kMiB) != r->commBytes.end());
        LP_CHECK(std::find(r->commBytes.begin(), r->commBytes.end(), 1024 * kMiB) != r->commBytes.end());
        LP_CHECK(std::is_sorted(r->commBytes.begin(), r->commBytes.end()));
        LP_CHECK(!r->hbmBytes.empty());
    }
    const core::Scenario s = core::defaultScenario();
    const calib::CalibrationRequest withScenario = calib::makeRequest(&s, true);
    LP_CHECK(withScenario.gemms.size() > quick.gemms.size());
    LP_CHECK(withScenario.gemms.front().label.rfind("qkv fwd", 0) == 0);
    const core::Plan plan = core::evaluate(s);
    LP_CHECK(plan.intermediates.dpMessageBytes > 0);
    bool hasDp = false;
    const double dpBytes = std::min(plan.intermediates.dpMessageBytes, 1024 * kMiB); // capped at 1 GiB
    for (double b : withScenario.commBytes)
        hasDp = hasDp || std::abs(b - dpBytes) <= 4096;
    LP_CHECK(withScenario.commBytes.back() <= 1024 * kMiB);
    // A different micro batch gives the head's weight gradient its own shape.
    core::Scenario one = s;
    one.layout.microBatch = 1;
    bool headWeight = false;
    for (const auto& g : calib::scenarioGemms(one))
        headWeight = headWeight || (g.label.rfind("lm-head bwd-weight", 0) == 0 && g.m == 8192 &&
                                    g.n == 4000 && g.k == 4096);
    LP_CHECK(headWeight);
    LP_CHECK(hasDp);
}

LP_TEST(latency_comes_from_the_smallest_all_reduce) {
    calib::CalibrationResult r;
    LP_CHECK_EQ(calib::estimateCommLatency(r), 0.0);
    calib::CommMeasurement c;
    c.op = calib::Collective::AllReduce;
    c.ranks = 4;
    c.bytes = 8192;
    c.seconds = fixedStats(12e-6);
    r.comm.push_back(c);
    c.bytes = 65536;
    c.seconds = fixedStats(20e-6);
    r.comm.push_back(c);
    LP_CHECK_NEAR(calib::estimateCommLatency(r), 12e-6 / 6, 1e-12);
}

// The no-GPU path: with every GPU hidden from the CUDA runtime, detectGpus returns nothing and says why,
// and runCalibration fails with a message - in a build with or without CUDA, on any machine.
LP_TEST(no_gpu_is_a_message_not_a_crash) {
    ::setenv("CUDA_VISIBLE_DEVICES", "-1", 1);
    std::string why;
    const auto gpus = calib::detectGpus(&why);
    LP_CHECK(gpus.empty());
    LP_CHECK(!why.empty());
    std::printf("detectGpus: %s\n", why.c_str());
    if (calib::hasCudaSupport()) {
        // Normally "no CUDA-capable device is detected (cudaErrorNoDevice)", or a driver problem on
        // machines without one; always the runtime's own error name.
        LP_CHECK(why.find("(cudaError") != std::string::npos);
    } else {
        LP_CHECK(why.find(calib::kNoCudaBuildMessage) != std::string::npos);
        LP_CHECK_EQ(calib::buildDescription(), std::string(calib::kNoCudaBuildMessage));
    }
    LP_CHECK(calib::detectGpus(nullptr).empty()); // no reason wanted: still no crash
    // cuBLASLt and NCCL load without a GPU (or say why they cannot).
    const std::string libs = calib::runtimeLibraries();
    std::printf("runtimeLibraries: %s\n", libs.c_str());
    LP_CHECK(!libs.empty());
    if (calib::hasCudaSupport())
        LP_CHECK(libs.find("cuBLASLt") != std::string::npos);
    int calls = 0;
    const calib::CalibrationResult r =
        calib::runCalibration(calib::makeRequest(nullptr, true), [&](const calib::Progress&) {
            ++calls;
            return true;
        });
    LP_CHECK(!r.ok);
    LP_CHECK(!r.cancelled);
    LP_CHECK(!r.error.empty());
    LP_CHECK(r.gemms.empty());
    LP_CHECK_EQ(calls, 0);
}

} // namespace

LP_TEST_MAIN()
