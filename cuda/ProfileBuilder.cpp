#include "cuda/ProfileBuilder.h"

#include "core/util/NumberFormat.h"
#include "core/util/Statistics.h"
#include "core/util/Text.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <string_view>

namespace lp::calib {
namespace {

constexpr double kMiB = 1024.0 * 1024.0;
constexpr double kHbmPlateauBytes = 256.0 * kMiB; // buffers well beyond any L2 cache
constexpr double kMinHoldFactor = 0.3;            // a hold far slower than this is not a power limit
constexpr double kLatencyProbeBytes = 1.0 * kMiB; // smaller all-reduces are latency probes

// "72.4%".
std::string percentText(double fraction) {
    return core::fmt::fixed(fraction * 100.0, 1) + "%";
}

std::string tflopsText(double flopsPerSecond) {
    return std::to_string(std::llround(flopsPerSecond / 1e12)) + " TFLOP/s";
}

// Scales a GEMM curve by the held-over-short-sample throughput of its type (never up); the note says how.
std::string applyHold(const CalibrationResult& r, GemmDtype dtype, core::Curve& curve) {
    const std::string type = toString(dtype);
    const char* unscaled = ": the curve is short samples at boost clock, faster than a GPU kept busy at its "
                           "power limit, as in training";
    const auto it = std::find_if(r.sustained.begin(), r.sustained.end(),
                                 [&](const SustainedGemm& h) { return h.dtype == dtype; });
    if (it == r.sustained.end())
        return type + " GEMMs were not held back to back" + unscaled;
    if (!it->ok() || !(it->burstFlopsPerSecond > 0))
        return type + " GEMM hold failed (" + (it->error.empty() ? "no figure" : it->error) + ")" + unscaled;
    const double ratio = it->ratio();
    const std::string what =
        type + " " + it->shape.label + " held back to back: " + tflopsText(it->heldFlopsPerSecond) + ", " +
        percentText(ratio) + " of the short samples' " + tflopsText(it->burstFlopsPerSecond);
    if (ratio >= 1.0)
        return what + " (no power limit reached): the " + type + " curve is kept";
    const double factor = std::max(ratio, kMinHoldFactor);
    for (auto& point : curve.points)
        point.second *= factor;
    return what + ": the " + type + " curve is scaled by " + core::fmt::fixed(factor, 2) +
           " (the power limit, as in training)";
}
} // namespace

namespace {

// The lower-case words of a device name: "NVIDIA A100-SXM4-80GB" -> nvidia, a100, sxm4, 80gb.
std::vector<std::string> nameWords(const std::string& name) {
    std::vector<std::string> words;
    std::string word;
    for (char c : core::asciiLower(name)) {
        if (c == ' ' || c == '-' || c == '_') {
            if (!word.empty())
                words.push_back(std::move(word));
            word.clear();
        } else {
            word += c;
        }
    }
    if (!word.empty())
        words.push_back(std::move(word));
    return words;
}

// The preset id of a device's model word, or "" for a model without a preset of its own.
std::string presetIdOf(const std::string& model, bool pcie, bool nvl, double memoryBytes) {
    if (model == "gb300" || model == "gb200" || model == "b200" || model == "l40s")
        return model;
    if (pcie || nvl) // "H100 NVL", "H200 NVL": PCIe cards with their own figures
        return model == "h100" && pcie ? "h100-pcie-80gb" : "";
    if (model == "h200")
        return "h200-sxm-141gb";
    if (model == "h800")
        return "h800-sxm-80gb";
    if (model == "h100")
        return memoryBytes > 90e9 ? "h100-sxm-96gb" : "h100-sxm-80gb";
    if (model == "a100")
        return memoryBytes > 60e9 ? "a100-sxm-80gb" : "a100-sxm-40gb";
    return ""; // gh200, h20, b100, ...: their data-sheet figures differ from every preset's
}

} // namespace

const core::GpuPreset* matchGpuPreset(const DeviceInfo& device) {
    if (const core::GpuPreset* exact = core::findGpuPreset(device.name))
        return exact;
    // Whole words, so that "GH200" is not an H200 nor "H20" an H200.
    const std::vector<std::string> words = nameWords(device.name);
    const auto has = [&](std::string_view w) {
        return std::find(words.begin(), words.end(), w) != words.end();
    };
    static const char* const kModels[] = {"gb300", "gb200", "b200", "gh200", "h200", "h800",
                                          "h100",  "h20",   "a100", "l40s",  "b100"};
    for (const char* model : kModels)
        if (has(model)) {
            const std::string id = presetIdOf(model, has("pcie"), has("nvl"), device.memoryBytes);
            return id.empty() ? nullptr : core::findGpuPreset(id);
        }
    return nullptr;
}

double dataSheetClockHz(const DeviceInfo& d) {
    // The clock NVIDIA quotes the tensor peak at: A100 312 TFLOP/s = 108 SMs x 1,410 MHz x 2048; H100 SXM
    // 989 = 132 x 1,830 MHz x 4096 (the H100 reports a 1,980 MHz maximum boost clock, 8% above it).
    double quoted = 0;
    if (d.ccMajor == 8 && d.ccMinor == 0)
        quoted = 1.41e9;
    else if (d.ccMajor == 9)
        quoted = 1.83e9;
    if (quoted > 0 && (d.smClockHz <= 0 || d.smClockHz > quoted))
        return quoted;
    return d.smClockHz;
}

double flopsPerClockPerSm(int ccMajor, int ccMinor) {
    // Dense bf16 tensor-core FLOPs per clock per SM (2 x FMAs), from the data sheets: A100 312 TFLOP/s
    // = 108 SMs x 1.41 GHz x 2048; H100 SXM 989 = 132 x 1.83 GHz x 4096; L40S 362 = 142 x 2.52 GHz x 1024.
    if (ccMajor == 8 && ccMinor == 0)
        return 2048;
    if (ccMajor == 7 || ccMajor == 8 || ccMajor == 12)
        return 1024;
    if (ccMajor == 9)
        return 4096;
    if (ccMajor == 10 || ccMajor == 11)
        return 8192;
    return 0;
}

core::GpuSpec estimateGpuSpec(const DeviceInfo& d) {
    core::GpuSpec g;
    g.id.clear();
    g.name = d.name;
    g.peakFlops16 = d.smCount * dataSheetClockHz(d) * flopsPerClockPerSm(d.ccMajor, d.ccMinor);
    const bool fp8 = d.ccMajor > 8 || (d.ccMajor == 8 && d.ccMinor >= 9);
    g.peakFlops8 = fp8 ? 2.0 * g.peakFlops16 : 0.0;
    g.hbmBytes = d.memoryBytes;
    g.hbmBandwidth = d.nominalMemoryBandwidth();
    // NVLink per GPU and direction of the SXM parts of each generation; PCIe Gen4 x16 otherwise.
    if (d.ccMajor == 8 && d.ccMinor == 0)
        g.nvlinkBandwidth = 300e9;
    else if (d.ccMajor == 9)
        g.nvlinkBandwidth = 450e9;
    else if (d.ccMajor == 10)
        g.nvlinkBandwidth = 900e9;
    else
        g.nvlinkBandwidth = 32e9;
    g.source = "estimated by the calibration from the device's SM count, clocks and memory bus";
    return g;
}

bool isSkinnySweepShape(const GemmShape& shape) {
    return shape.label.starts_with("skinny");
}

std::string unknownGpuText(const DeviceInfo& device) {
    return "unknown GPU \"" + device.name + "\": no GPU preset has its data-sheet figures";
}

std::expected<Reference, std::string>
chooseReference(const DeviceInfo& device, const core::Scenario* scenario, const std::string& gpuId) {
    Reference ref;
    const auto fromPreset = [&](const core::GpuPreset& p, const std::string& why) {
        ref.gpu = p.gpu;
        ref.how = "GPU preset " + p.gpu.id + " (" + why + ")";
        if (scenario && scenario->cluster.gpu.id == p.gpu.id) {
            ref.gpu = scenario->cluster.gpu;
            ref.how += ", with the scenario's figures for it";
        }
    };
    if (!gpuId.empty()) {
        const core::GpuPreset* p = core::findGpuPreset(gpuId);
        if (!p)
            return std::unexpected("unknown GPU preset '" + gpuId +
                                   "' (`layout-planner-cli presets` lists them)");
        fromPreset(*p, "chosen by name");
        return ref;
    }
    if (const core::GpuPreset* p = matchGpuPreset(device)) {
        fromPreset(*p, "matched by the device name \"" + device.name + "\"");
        return ref;
    }
    const core::GpuSpec estimate = estimateGpuSpec(device);
    if (scenario && estimate.peakFlops16 > 0 && scenario->cluster.gpu.peakFlops16 > 0 &&
        std::abs(scenario->cluster.gpu.peakFlops16 / estimate.peakFlops16 - 1.0) <= 0.35) {
        ref.gpu = scenario->cluster.gpu;
        ref.how = "the scenario's GPU " + ref.gpu.id + " (" + unknownGpuText(device) +
                  "; the scenario's peak is within 35% of the device's estimate)";
        return ref;
    }
    ref.gpu = estimate;
    ref.estimated = true;
    ref.how = "figures estimated from the device's SM count and clocks (" + unknownGpuText(device) +
              "; the estimate can be far off, e.g. for export-limited parts: name a preset with --gpu "
              "only when its data-sheet figures are this GPU's)";
    return ref;
}

core::Curve monotoneCurve(std::vector<std::pair<double, double>> samples, double minY, double maxY) {
    std::erase_if(samples, [](const auto& s) {
        return !(s.first > 0) || !std::isfinite(s.first) || !std::isfinite(s.second);
    });
    std::sort(samples.begin(), samples.end());
    struct Group {
        double x = 0;
        double y = 0;
        double weight = 0;
    };
    // Pool samples within 1/8 decade: geometric mean of x, median of y.
    std::vector<Group> groups;
    for (std::size_t i = 0; i < samples.size();) {
        const auto bin = std::floor(std::log10(samples[i].first) * 8.0);
        std::size_t j = i;
        double logSum = 0;
        std::vector<double> ys;
        while (j < samples.size() && std::floor(std::log10(samples[j].first) * 8.0) == bin) {
            logSum += std::log(samples[j].first);
            ys.push_back(samples[j].second);
            ++j;
        }
        const double n = static_cast<double>(j - i);
        groups.push_back({std::exp(logSum / n), core::median(ys, 0.0), n});
        i = j;
    }
    // Pool adjacent violators: blocks of groups sharing the weighted mean, non-decreasing from block to
    // block.
    struct Block {
        double sumWy = 0;
        double sumW = 0;
        std::size_t count = 0;
        double mean() const { return sumWy / sumW; }
    };
    std::vector<Block> blocks;
    for (const Group& g : groups) {
        blocks.push_back({g.weight * g.y, g.weight, 1});
        while (blocks.size() > 1 && blocks[blocks.size() - 2].mean() > blocks.back().mean()) {
            Block last = blocks.back();
            blocks.pop_back();
            blocks.back().sumWy += last.sumWy;
            blocks.back().sumW += last.sumW;
            blocks.back().count += last.count;
        }
    }
    core::Curve c;
    std::size_t gi = 0;
    for (const Block& b : blocks) {
        const double y = std::clamp(b.mean(), minY, maxY);
        for (std::size_t k = 0; k < b.count; ++k, ++gi) {
            const double x = groups[gi].x;
            if (!c.points.empty() && !(x > c.points.back().first))
                continue; // cannot happen with disjoint bins, kept for safety
            c.points.emplace_back(x, y);
        }
    }
    c.index();
    return c;
}

double estimateCommLatency(const CalibrationResult& r) {
    const CommMeasurement* smallest = nullptr;
    for (const auto& m : r.comm)
        if (m.op == Collective::AllReduce && m.ok() && m.ranks >= 2 && m.bytes < kLatencyProbeBytes &&
            (!smallest || m.bytes < smallest->bytes))
            smallest = &m;
    if (!smallest)
        return 0;
    return smallest->seconds.median / (2.0 * (smallest->ranks - 1));
}

namespace {

// One GEMM type's curve from its samples (efficiency by FLOPs of one GEMM), scaled by its hold; the notes
// say how many shapes, the best efficiency and how the hold scaled it.
void addGemmCurve(const CalibrationResult& r, GemmDtype dtype,
                  const std::vector<std::pair<double, double>>& samples, double peak, core::Curve& curve,
                  std::vector<std::string>& notes) {
    curve = monotoneCurve(samples);
    const std::string held = applyHold(r, dtype, curve);
    notes.push_back(std::string(toString(dtype)) + " GEMM efficiency from " + std::to_string(samples.size()) +
                    " shapes, up to " + percentText(curve.points.back().second) + " of the " +
                    std::to_string(std::llround(peak / 1e12)) + " TFLOP/s peak");
    notes.push_back(held);
}

// GEMMs: bf16 against the 16-bit peak, fp8 against the fp8 peak. An error when no bf16 GEMM was measured.
std::expected<void, std::string> addGemmCurves(const CalibrationResult& r, const core::GpuSpec& gpu,
                                               const core::HardwareProfile& base, BuiltProfile& out) {
    std::vector<std::pair<double, double>> bf16, fp8;
    std::string firstGemmError;
    std::string skinny;
    for (const auto& g : r.gemms) {
        if (!g.ok() || !(g.flopsPerSecond > 0)) {
            if (firstGemmError.empty() && !g.error.empty())
                firstGemmError = g.shape.label + ": " + g.error;
            continue;
        }
        if (isSkinnySweepShape(g.shape)) {
            const double peak = g.dtype == GemmDtype::Bf16 ? gpu.peakFlops16 : gpu.peakFlops8;
            if (peak > 0)
                skinny += (skinny.empty() ? "" : ", ") + std::string(toString(g.dtype)) + " " +
                          std::to_string(g.shape.m) + "x" + std::to_string(g.shape.n) + "x" +
                          std::to_string(g.shape.k) + " " + percentText(g.flopsPerSecond / peak);
            continue;
        }
        if (g.dtype == GemmDtype::Bf16)
            bf16.emplace_back(g.shape.flops(), g.flopsPerSecond / gpu.peakFlops16);
        else if (gpu.peakFlops8 > 0)
            fp8.emplace_back(g.shape.flops(), g.flopsPerSecond / gpu.peakFlops8);
    }
    if (bf16.empty())
        return std::unexpected("no bf16 GEMM was measured, so there is no profile to write" +
                               (firstGemmError.empty() ? std::string() : " (" + firstGemmError + ")"));
    if (!skinny.empty())
        out.notes.push_back(
            "skinny sweep GEMMs kept out of the curves, which are looked up by FLOPs for the "
            "layers' shapes (a skinny shape is memory-bound where a square one of equal FLOPs "
            "is not): " +
            skinny);
    core::HardwareProfile& p = out.profile;
    addGemmCurve(r, GemmDtype::Bf16, bf16, gpu.peakFlops16, p.gemmEfficiency, out.notes);
    if (!fp8.empty())
        addGemmCurve(r, GemmDtype::Fp8, fp8, gpu.peakFlops8, p.gemmEfficiencyFp8, out.notes);
    else
        out.notes.push_back(gpu.peakFlops8 > 0 ? "fp8 GEMM efficiency: not measured, kept from " + base.name
                                               : "fp8 GEMMs: the GPU has no fp8 peak");
    return {};
}

// The bandwidth one HBM method reached: the median over buffers beyond any cache, else the largest buffer's.
double hbmBandwidth(const CalibrationResult& r, HbmMethod method) {
    std::vector<double> plateau;
    double largestBytes = 0;
    double largestBandwidth = 0;
    for (const auto& h : r.hbm) {
        if (h.method != method || !h.ok() || !(h.bytesPerSecond > 0))
            continue;
        if (h.bufferBytes >= kHbmPlateauBytes)
            plateau.push_back(h.bytesPerSecond);
        if (h.bufferBytes > largestBytes) {
            largestBytes = h.bufferBytes;
            largestBandwidth = h.bytesPerSecond;
        }
    }
    return plateau.empty() ? largestBandwidth : core::median(plateau, 0.0);
}

// HBM: the better of the read-write kernel and the device-to-device copy. Training's memory-bound kernels
// (fused elementwise, norms, optimizer steps) are tuned to stream as fast as the GPU allows, so the slower
// method is a limit of that benchmark, not of the memory.
void addHbmEfficiency(const CalibrationResult& r, const core::GpuSpec& gpu, const core::HardwareProfile& base,
                      BuiltProfile& out) {
    const double kernel = hbmBandwidth(r, HbmMethod::Kernel);
    const double copy = hbmBandwidth(r, HbmMethod::Memcpy);
    const double hbm = std::max(kernel, copy);
    if (!(hbm > 0 && gpu.hbmBandwidth > 0)) {
        out.notes.push_back("HBM efficiency: not measured, kept from " + base.name);
        return;
    }
    const auto gbs = [](double bytesPerSecond) { return std::to_string(std::llround(bytesPerSecond / 1e9)); };
    std::string source;
    if (kernel > 0 && copy > 0)
        source = std::string(kernel >= copy ? "read-write kernel" : "device-to-device copy") +
                 ", the better of the kernel (" + gbs(kernel) + " GB/s) and the copy (" + gbs(copy) +
                 " GB/s): a tuned memory-bound kernel reaches the faster one";
    else
        source = kernel > 0 ? "read-write kernel (the copy was not measured)"
                            : "device-to-device copy (the kernel was not measured)";
    double& efficiency = out.profile.kernels.hbmEfficiency;
    efficiency = std::clamp(hbm / gpu.hbmBandwidth, 1e-3, 1.5);
    out.notes.push_back("HBM efficiency from the " + source + ": " + gbs(hbm) + " GB/s, " +
                        percentText(efficiency) + " of " + gbs(gpu.hbmBandwidth) + " GB/s");
}

// NVLink collectives: bus bandwidth over the nominal NVLink bandwidth by message size, the ring model's
// latency term `latency` (per step) taken out of each time first.
std::vector<std::pair<double, double>> busSamples(const CalibrationResult& r, const core::GpuSpec& gpu,
                                                  double latency) {
    std::vector<std::pair<double, double>> bus;
    if (!(gpu.nvlinkBandwidth > 0))
        return bus;
    for (const auto& m : r.comm) {
        if (!m.ok() || m.ranks < 2 || m.bytes < kLatencyProbeBytes || m.op == Collective::SendRecv)
            continue;
        const double n = m.ranks;
        const bool allReduce = m.op == Collective::AllReduce;
        const double factor = (allReduce ? 2.0 : 1.0) * (n - 1.0) / n;
        const double steps = (allReduce ? 2.0 : 1.0) * (n - 1.0);
        // The core adds the latency term back; keep at least a quarter of the time for bandwidth.
        const double t = std::max(m.seconds.median - steps * latency, 0.25 * m.seconds.median);
        if (t > 0)
            bus.emplace_back(m.bytes, factor * m.bytes / t / gpu.nvlinkBandwidth);
    }
    return bus;
}

void addNvlinkCurve(const CalibrationResult& r, const core::GpuSpec& gpu, const core::HardwareProfile& base,
                    BuiltProfile& out) {
    const double latency = estimateCommLatency(r);
    const std::vector<std::pair<double, double>> bus = busSamples(r, gpu, latency);
    if (bus.empty()) {
        out.notes.push_back("NVLink bus efficiency: not measured (needs two or more GPUs), kept from " +
                            base.name);
        return;
    }
    core::HardwareProfile& p = out.profile;
    p.nvlinkBusEfficiency = monotoneCurve(bus);
    if (latency > 0)
        p.nvlinkLatencySeconds = latency;
    out.notes.push_back("NVLink bus efficiency from NCCL collectives on " + std::to_string(r.gpuCount) +
                        " GPUs, up to " + percentText(p.nvlinkBusEfficiency.points.back().second) + " of " +
                        std::to_string(std::llround(gpu.nvlinkBandwidth / 1e9)) + " GB/s" +
                        (latency > 0 ? "; latency " + core::fmt::fixed(latency * 1e6, 1) + " us per ring step"
                                     : std::string()));
}

} // namespace

std::expected<BuiltProfile, std::string> buildProfile(const CalibrationResult& r, const Reference& ref,
                                                      const core::HardwareProfile& base) {
    const core::GpuSpec& gpu = ref.gpu;
    if (!(gpu.peakFlops16 > 0))
        return std::unexpected(
            "the peak FLOP/s of \"" + r.device.name +
            "\" is unknown, so efficiencies cannot be computed: name its GPU preset (--gpu)");
    BuiltProfile out;
    core::HardwareProfile& p = out.profile;
    p = base;
    p.origin = "measured";
    p.measuredOn = r.device.name;
    p.date = r.date.empty() ? todayIso() : r.date;
    p.gpuId = ref.estimated ? std::string() : gpu.id;
    p.name = "measured on " + (r.device.name.empty() ? std::string("a GPU") : r.device.name);
    out.notes.push_back("reference figures: " + ref.how);
    if (auto gemms = addGemmCurves(r, gpu, base, out); !gemms)
        return std::unexpected(gemms.error());
    addHbmEfficiency(r, gpu, base, out);
    addNvlinkCurve(r, gpu, base, out);
    out.notes.push_back("attention efficiencies and the network curve: kept from " + base.name);
    return out;
}

std::string todayIso() {
    const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    std::tm local{};
    localtime_r(&now, &local);
    char buf[16];
    std::strftime(buf, sizeof buf, "%Y-%m-%d", &local);
    return buf;
}

} // namespace lp::calib
