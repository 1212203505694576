#include "cuda/CalibrationSummary.h"

#include "core/util/NumberFormat.h"

#include <algorithm>

namespace lp::calib {
namespace {

namespace fmt = core::fmt;

std::string percentText(double fraction) {
    return fmt::fixed(100.0 * fraction, 1) + "%";
}

std::string bandwidthText(double bytesPerSecond) {
    return fmt::fixed(bytesPerSecond / 1e9, 0) + " GB/s";
}

// "bf16 GEMM: up to ..." and the scenario's GEMMs on average.
void gemmLines(const CalibrationResult& r, const core::GpuSpec& gpu, std::vector<std::string>& lines) {
    double best16 = 0, best8 = 0;
    double scenarioFlops = 0, scenarioSeconds = 0;
    for (const GemmMeasurement& g : r.gemms) {
        if (!g.ok())
            continue;
        const bool bf16 = g.dtype == GemmDtype::Bf16;
        double& best = bf16 ? best16 : best8;
        best = std::max(best, g.flopsPerSecond);
        if (bf16 && !isSweepShape(g.shape)) {
            scenarioFlops += g.shape.flops();
            scenarioSeconds += g.seconds.median;
        }
    }
    if (best16 > 0)
        lines.push_back("bf16 GEMM: up to " + tflopsText(best16) + " (" +
                        percentText(best16 / gpu.peakFlops16) + " of " + peakTflopsText(gpu.peakFlops16) +
                        ")");
    if (scenarioSeconds > 0) {
        const double average = scenarioFlops / scenarioSeconds;
        lines.push_back("Scenario's GEMMs: " + tflopsText(average) + " on average (" +
                        percentText(average / gpu.peakFlops16) + " of peak)");
    }
    if (best8 > 0 && gpu.peakFlops8 > 0)
        lines.push_back("fp8 GEMM: up to " + tflopsText(best8) + " (" + percentText(best8 / gpu.peakFlops8) +
                        " of " + peakTflopsText(gpu.peakFlops8) + ")");
    for (const SustainedGemm& h : r.sustained)
        if (h.ok() && h.burstFlopsPerSecond > 0)
            lines.push_back(std::string(toString(h.dtype)) +
                            " GEMM held back to back: " + tflopsText(h.heldFlopsPerSecond) + ", " +
                            percentText(h.ratio()) + " of the short samples (the power limit)");
}

// The best HBM bandwidth and all-reduce bus bandwidth against the nominal ones.
void bandwidthLines(const CalibrationResult& r, const core::GpuSpec& gpu, std::vector<std::string>& lines) {
    double hbm = 0;
    for (const HbmMeasurement& h : r.hbm)
        if (h.ok())
            hbm = std::max(hbm, h.bytesPerSecond);
    if (hbm > 0)
        lines.push_back("HBM: up to " + bandwidthText(hbm) + " (" + percentText(hbm / gpu.hbmBandwidth) +
                        " of " + bandwidthText(gpu.hbmBandwidth) + ")");
    double bus = 0;
    for (const CommMeasurement& c : r.comm)
        if (c.ok() && c.op == Collective::AllReduce)
            bus = std::max(bus, c.busBytesPerSecond);
    if (bus > 0)
        lines.push_back("NCCL all-reduce on " + std::to_string(r.gpuCount) + " GPUs: up to " +
                        bandwidthText(bus) + " bus bandwidth (" + percentText(bus / gpu.nvlinkBandwidth) +
                        " of " + bandwidthText(gpu.nvlinkBandwidth) + " NVLink)");
}

} // namespace

bool isSweepShape(const GemmShape& shape) {
    return shape.label.starts_with("square") || shape.label.starts_with("skinny");
}

std::string tflopsText(double flopsPerSecond) {
    return fmt::fixed(flopsPerSecond / 1e12, 1) + " TFLOP/s";
}

std::string peakTflopsText(double flopsPerSecond) {
    return fmt::fixed(flopsPerSecond / 1e12, 0) + " TFLOP/s";
}

std::vector<std::string> measurementSummary(const CalibrationResult& result, const core::GpuSpec& reference) {
    std::vector<std::string> lines;
    if (!result.ok && result.gemms.empty())
        return lines;
    gemmLines(result, reference, lines);
    bandwidthLines(result, reference, lines);
    return lines;
}

AcceptanceBounds acceptanceBounds(const std::string& presetId) {
    AcceptanceBounds b;
    for (const char* hopper : {"h100-sxm", "h800-sxm", "h200-sxm"})
        if (presetId.starts_with(hopper)) {
            b = {0.60, 0.55, 0.75, 0.5, true};
            return b;
        }
    return b;
}

} // namespace lp::calib
