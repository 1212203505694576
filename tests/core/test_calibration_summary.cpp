// What the Calibrate tab says a calibration measured (cuda/CalibrationSummary.h): each finding against the
// reference GPU's data-sheet figures, the scenario's GEMMs apart from the sweep's, nothing from a run that
// measured nothing.
#include "TestHarness.h"
#include "cuda/CalibrationSummary.h"

#include <string>
#include <vector>

using namespace lp;

namespace {

calib::GemmMeasurement gemm(const std::string& label, long long size, calib::GemmDtype dtype, double flops) {
    calib::GemmMeasurement g;
    g.shape = {label, size, size, size};
    g.dtype = dtype;
    g.flopsPerSecond = flops;
    g.seconds.samples = 5;
    g.seconds.median = g.shape.flops() / flops;
    return g;
}

bool has(const std::vector<std::string>& lines, const std::string& line) {
    for (const std::string& l : lines)
        if (l == line)
            return true;
    return false;
}

} // namespace

LP_TEST(sweep_shapes_are_told_from_the_scenarios) {
    LP_CHECK(calib::isSweepShape({"square 4096", 4096, 4096, 4096}));
    LP_CHECK(calib::isSweepShape({"skinny 16x8192x8192", 16, 8192, 8192}));
    LP_CHECK(!calib::isSweepShape({"qkv fwd", 8192, 1280, 8192}));
}

LP_TEST(each_finding_is_set_against_the_data_sheet) {
    core::GpuSpec h100; // 989 TFLOP/s bf16, 1979 fp8, 3.35 TB/s HBM, 450 GB/s NVLink
    calib::CalibrationResult r;
    r.ok = true;
    r.gpuCount = 8;
    r.gemms = {gemm("square 8192", 8192, calib::GemmDtype::Bf16, 700e12),
               gemm("qkv fwd", 4096, calib::GemmDtype::Bf16, 500e12),
               gemm("mlp up fwd", 4096, calib::GemmDtype::Bf16, 600e12),
               gemm("square 8192", 8192, calib::GemmDtype::Fp8, 1200e12)};
    r.gemms.push_back(gemm("square 16384", 16384, calib::GemmDtype::Bf16, 900e12));
    r.gemms.back().error = "out of memory"; // not measured: left out
    calib::SustainedGemm held;
    held.shape = r.gemms[0].shape;
    held.heldFlopsPerSecond = 630e12;
    held.burstFlopsPerSecond = 700e12;
    r.sustained = {held};
    calib::HbmMeasurement hbm;
    hbm.bytesPerSecond = 2.9e12;
    hbm.seconds.samples = 5;
    r.hbm = {hbm};
    calib::CommMeasurement ar;
    ar.op = calib::Collective::AllReduce;
    ar.busBytesPerSecond = 360e9;
    ar.seconds.samples = 5;
    calib::CommMeasurement ag = ar;
    ag.op = calib::Collective::AllGather; // only all-reduce is summarised
    ag.busBytesPerSecond = 400e9;
    r.comm = {ar, ag};

    const std::vector<std::string> lines = calib::measurementSummary(r, h100);
    LP_CHECK(has(lines, "bf16 GEMM: up to 700.0 TFLOP/s (70.8% of 989 TFLOP/s)"));
    // Equal FLOPs at 500 and 600 TFLOP/s: 545.5 on average, by time.
    LP_CHECK(has(lines, "Scenario's GEMMs: 545.5 TFLOP/s on average (55.2% of peak)"));
    LP_CHECK(has(lines, "fp8 GEMM: up to 1,200.0 TFLOP/s (60.6% of 1,979 TFLOP/s)"));
    LP_CHECK(has(lines,
                 "bf16 GEMM held back to back: 630.0 TFLOP/s, 90.0% of the short samples (the power limit)"));
    LP_CHECK(has(lines, "HBM: up to 2,900 GB/s (86.6% of 3,350 GB/s)"));
    LP_CHECK(
        has(lines, "NCCL all-reduce on 8 GPUs: up to 360 GB/s bus bandwidth (80.0% of 450 GB/s NVLink)"));
    LP_CHECK_EQ(lines.size(), std::size_t{6});
}

LP_TEST(a_run_that_measured_nothing_says_nothing) {
    calib::CalibrationResult failed;
    failed.error = "no GPU";
    LP_CHECK(calib::measurementSummary(failed, core::GpuSpec{}).empty());
    calib::CalibrationResult cancelled = failed; // stopped after its first GEMM: that one is summarised
    cancelled.gemms = {gemm("square 4096", 4096, calib::GemmDtype::Bf16, 500e12)};
    LP_CHECK_EQ(calib::measurementSummary(cancelled, core::GpuSpec{}).size(), std::size_t{1});
}

LP_TEST(hopper_sxm_parts_have_strict_acceptance_bounds) {
    for (const char* id : {"h100-sxm-80gb", "h100-sxm-96gb", "h200-sxm-141gb", "h800-sxm-80gb"}) {
        const calib::AcceptanceBounds b = calib::acceptanceBounds(id);
        LP_CHECK(b.strict);
        LP_CHECK_EQ(b.bf16, 0.60);
        LP_CHECK_EQ(b.fp8, 0.55);
        LP_CHECK_EQ(b.hbm, 0.75);
        LP_CHECK_EQ(b.allReduce64MiB, 0.5);
    }
    for (const char* id : {"a100-sxm-80gb", "h100-pcie-80gb", "", "b200"}) {
        const calib::AcceptanceBounds b = calib::acceptanceBounds(id);
        LP_CHECK(!b.strict);
        LP_CHECK_EQ(b.bf16, 0.2);
        LP_CHECK_EQ(b.hbm, 0.3);
        LP_CHECK_EQ(b.fp8, 0.0);
        LP_CHECK_EQ(b.allReduce64MiB, 0.0);
    }
}

LP_TEST_MAIN()
