// `layout-planner-cli calibrate [--scenario FILE] [--quick] -o PROFILE.json` (docs/calibration.md)
#include "app/cli/Commands.h"
#include "app/cli/ScenarioFlags.h"
#include "app/cli/TextFormat.h"
#include "core/io/Presets.h"
#include "core/io/ProfileJson.h"
#include "cuda/Calibrate.h"
#include "cuda/Device.h"
#include "cuda/ProfileBuilder.h"
#include "cuda/Workload.h"

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <iostream>
#include <optional>

namespace lp::cli {
namespace {

volatile std::sig_atomic_t g_interrupted = 0;
extern "C" void onInterrupt(int) {
    g_interrupted = 1;
}

struct CalibrateArgs {
    std::optional<std::string> output;
    bool quick = false;
    int device = 0;
    int maxGpus = 0;
    bool scenarioGiven = false;
};

std::string deviceLine(const calib::DeviceInfo& d) {
    return "GPU " + std::to_string(d.index) + ": " + d.name + " (" + gib(d.memoryBytes, 0) + ", " +
           std::to_string(d.smCount) + " SMs at " + fixed(d.smClockHz / 1e6, 0) +
           " MHz, compute capability " + d.computeCapability() + ", driver " +
           calib::cudaVersionString(d.driverVersion) + ", runtime " +
           calib::cudaVersionString(d.runtimeVersion) + ")";
}

// Prints each measurement the run has added since the last call (progress goes to stderr).
class ProgressPrinter {
public:
    explicit ProgressPrinter(const calib::Reference& ref) : m_ref(ref) {}

    bool operator()(const calib::Progress& p) {
        if (p.partial)
            printNew(*p.partial);
        // A long item (a GEMM held for seconds) reports again while it runs: its line is printed once.
        if (p.done < p.total && (p.done != m_lastDone || p.item != m_lastItem))
            std::cerr << "[" << pad(p.done + 1, p.total) << "/" << p.total << "] " << p.phase << " " << p.item
                      << std::endl;
        m_lastDone = p.done;
        m_lastItem = p.item;
        return g_interrupted == 0;
    }

    // Prints the measurements not printed yet (also the last ones of a run that stopped early).
    void printNew(const calib::CalibrationResult& r) {
        for (; m_gemms < r.gemms.size(); ++m_gemms) {
            const auto& g = r.gemms[m_gemms];
            if (!g.ok()) {
                std::cerr << "      not measured: " << g.error << '\n';
                continue;
            }
            const double peak =
                g.dtype == calib::GemmDtype::Fp8 ? m_ref.gpu.peakFlops8 : m_ref.gpu.peakFlops16;
            std::cerr << "      " << fixed(g.flopsPerSecond / 1e12, 1) << " TFLOP/s";
            if (peak > 0)
                std::cerr << ", " << percent(g.flopsPerSecond / peak) << " of " << fixed(peak / 1e12, 0)
                          << " TFLOP/s";
            std::cerr << spread(g.seconds) << '\n';
        }
        for (; m_held < r.sustained.size(); ++m_held) {
            const auto& h = r.sustained[m_held];
            if (!h.ok()) {
                std::cerr << "      not held: " << h.error << '\n';
                continue;
            }
            const double peak =
                h.dtype == calib::GemmDtype::Fp8 ? m_ref.gpu.peakFlops8 : m_ref.gpu.peakFlops16;
            std::cerr << "      " << fixed(h.heldFlopsPerSecond / 1e12, 1) << " TFLOP/s held";
            if (peak > 0)
                std::cerr << ", " << percent(h.heldFlopsPerSecond / peak) << " of peak";
            if (h.burstFlopsPerSecond > 0)
                std::cerr << ", " << percent(h.ratio()) << " of the short samples' "
                          << fixed(h.burstFlopsPerSecond / 1e12, 1) << " TFLOP/s";
            std::cerr << " (" << h.windowFlops.size() << " windows of " << fixed(h.windowSeconds, 2)
                      << " s, first " << fixed(h.windowFlops.front() / 1e12, 0) << ", last "
                      << fixed(h.windowFlops.back() / 1e12, 0) << " TFLOP/s)\n";
        }
        for (; m_hbm < r.hbm.size(); ++m_hbm) {
            const auto& h = r.hbm[m_hbm];
            if (!h.ok()) {
                std::cerr << "      not measured: " << h.error << '\n';
                continue;
            }
            std::cerr << "      " << fixed(h.bytesPerSecond / 1e9, 0) << " GB/s";
            if (m_ref.gpu.hbmBandwidth > 0)
                std::cerr << ", " << percent(h.bytesPerSecond / m_ref.gpu.hbmBandwidth) << " of "
                          << fixed(m_ref.gpu.hbmBandwidth / 1e9, 0) << " GB/s";
            std::cerr << spread(h.seconds) << '\n';
        }
        for (; m_comm < r.comm.size(); ++m_comm) {
            const auto& c = r.comm[m_comm];
            if (!c.ok()) {
                std::cerr << "      not measured: " << c.error << '\n';
                continue;
            }
            std::cerr << "      bus " << fixed(c.busBytesPerSecond / 1e9, 1) << " GB/s, algorithm "
                      << fixed(c.algBytesPerSecond / 1e9, 1) << " GB/s, " << sig(c.seconds.median * 1e6, 4)
                      << " us" << spread(c.seconds) << '\n';
        }
    }

private:
    const calib::Reference& m_ref;
    std::size_t m_gemms = 0, m_held = 0, m_hbm = 0, m_comm = 0;
    int m_lastDone = -1;
    std::string m_lastItem;

    static std::string pad(int v, int total) {
        std::string s = std::to_string(v);
        const std::size_t width = std::to_string(total).size();
        return std::string(width > s.size() ? width - s.size() : 0, ' ') + s;
    }
    static std::string spread(const calib::Stats& s) {
        return " (median of " + std::to_string(s.samples) + ", spread " + percent(s.spread) + ")";
    }
};

CliError noGpu(std::string reason) {
    CliError e = badValue("calibrate", std::move(reason));
    e.exitCode = kExitNoGpu;
    return e;
}

} // namespace

std::string calibrateHelp() {
    return "Usage: layout-planner-cli calibrate [--scenario FILE] [FLAGS] [--quick] -o "
           "PROFILE.json\n\nMeasures what the local GPUs achieve and writes a hardware profile "
           "(docs/formats.md) that\n`evaluate --profile PROFILE.json` and the window use instead of the "
           "built-in figures:\n  - GEMM throughput with cuBLASLt in bf16 (and fp8 from compute capability "
           "8.9): the scenario's\n    layer shapes under its TP and micro batch (forward and backward), and "
           "a sweep of square and\n    skinny sizes; then the fastest one back to back for 15 s (4 s with "
           "--quick): a GPU kept\n    busy settles at its power limit, and the curve is scaled to that held "
           "throughput;\n  - HBM bandwidth (device-to-device copy and a read-write kernel);\n  - with two or "
           "more GPUs, NCCL all-reduce, all-gather, reduce-scatter and send/recv from 1 MiB\n    to 1 GiB "
           "(and the scenario's message sizes).\nEfficiencies are fractions of the data-sheet figures of the "
           "GPU preset the device matches\n(--gpu names it when the name does not match). Progress goes to "
           "standard error; Ctrl-C stops\nafter the current item without writing a profile. A full run takes "
           "a few minutes, --quick\nunder a minute. docs/calibration.md explains what is measured and "
           "how.\n\nOptions:\n  -o, --output FILE           where to write the profile (required)\n  "
           "--scenario FILE             measure this scenario's GEMM shapes (a scenario file; scenario\n     "
           "                         flags such as --model and --tp adjust it)\n  --quick                    "
           " fewer sizes and repetitions\n  --device N                  the GPU for the GEMM and HBM "
           "benchmarks (default 0)\n  --gpus N                    at most N GPUs for the collectives "
           "(default: all)\n  --json                      report errors as JSON\n  -h, --help                "
           "  this help\n\nScenario flags:\n" +
           scenarioFlagsHelp() + "\n" + exitCodesHelp() +
           "  3  no usable GPU: no CUDA in this build, no NVIDIA driver, no GPU, or the GPU failed\n";
}

namespace {

// What calibrate was asked for: its own options and the scenario whose shapes it measures.
struct CalibrateSetup {
    CalibrateArgs args;
    core::Scenario scenario;
    std::string gpuId; // --gpu: the reference GPU preset; empty to match the device's name
};

// Reads calibrate's own flags at the cursor (true when it took one).
std::expected<bool, CliError> takeCalibrateFlag(ArgCursor& args, CalibrateArgs& ca,
                                                std::optional<std::string>& scenarioFile) {
    const std::string name(args.peekName());
    if (name == "--quick") {
        if (auto r = args.takeSwitch(); !r)
            return std::unexpected(r.error());
        ca.quick = true;
        return true;
    }
    if (name == "--device" || name == "--gpus") {
        auto v = args.takeValue();
        if (!v)
            return std::unexpected(v.error());
        auto n = parseInt(name, *v, name == "--device" ? 0 : 1, 1024);
        if (!n)
            return std::unexpected(n.error());
        (name == "--device" ? ca.device : ca.maxGpus) = *n;
        return true;
    }
    if (name != "-o" && name != "--output" && name != "--scenario")
        return false;
    auto v = args.takeNonEmptyValue();
    if (!v)
        return std::unexpected(v.error());
    (name == "--scenario" ? scenarioFile : ca.output) = *v;
    return true;
}

// The profile file must go to a folder that exists: found out before minutes of measuring, not after.
std::expected<void, CliError> checkOutput(const std::optional<std::string>& output) {
    if (!output)
        return std::unexpected(badValue("-o", "missing: name the profile file to write (-o PROFILE.json)"));
    if (*output == "-")
        return std::unexpected(badValue("-o", "the profile must go to a file, not standard output"));
    const std::filesystem::path parent = std::filesystem::path(*output).parent_path();
    std::error_code ec;
    if (!parent.empty() && !std::filesystem::is_directory(parent, ec))
        return std::unexpected(
            badValue(*output, "cannot write the profile: folder " + parent.string() + " does not exist"));
    return {};
}

std::expected<CalibrateSetup, CliError> parseCalibrateArgs(const Args& argv) {
    CalibrateSetup setup;
    std::optional<std::string> scenarioFile;
    auto parsed = parseScenarioArgs("calibrate", argv, false, [&](ArgCursor& args) {
        return takeCalibrateFlag(args, setup.args, scenarioFile);
    });
    if (!parsed)
        return std::unexpected(parsed.error());
    if (scenarioFile && parsed->file)
        return std::unexpected(
            badValue(*parsed->file,
                     "unexpected argument: the scenario is already given with --scenario " + *scenarioFile));
    if (!scenarioFile)
        scenarioFile = parsed->file;
    if (auto ok = checkOutput(setup.args.output); !ok)
        return std::unexpected(ok.error());
    auto scenario = buildScenario(scenarioFile, parsed->overrides);
    if (!scenario)
        return std::unexpected(scenario.error());
    setup.scenario = std::move(*scenario);
    // --gpu alone names the reference GPU; any other scenario flag (or a file) asks for the scenario's
    // shapes.
    const auto& given = parsed->overrides.given;
    setup.args.scenarioGiven =
        scenarioFile.has_value() ||
        std::any_of(given.begin(), given.end(), [](const std::string& f) { return f != "--gpu"; });
    setup.gpuId = parsed->overrides.gpu ? setup.scenario.cluster.gpu.id : std::string();
    return setup;
}

// The GPUs of this machine, and the one the benchmarks run on.
std::expected<std::vector<calib::DeviceInfo>, CliError> detectDevices(int device) {
    std::string why;
    std::vector<calib::DeviceInfo> gpus = calib::detectGpus(&why); // says so in a build without CUDA
    if (gpus.empty())
        return std::unexpected(noGpu("no usable GPU: " + why));
    // --device is the CUDA device number (as in nvidia-smi and CUDA_VISIBLE_DEVICES), not a list position:
    // a GPU that failed its query leaves a gap.
    if (!std::any_of(gpus.begin(), gpus.end(),
                     [&](const calib::DeviceInfo& d) { return d.index == device; })) {
        std::string usable;
        for (const auto& d : gpus)
            usable += (usable.empty() ? "" : ", ") + std::to_string(d.index);
        return std::unexpected(
            badValue("--device", "GPU " + std::to_string(device) +
                                     " does not exist or cannot be used (usable GPUs: " + usable + ")"));
    }
    return gpus;
}

// Measures, with Ctrl-C stopping after the current item.
calib::CalibrationResult measure(const CalibrateArgs& ca, const calib::Reference& ref,
                                 const core::Scenario* scenario, int device) {
    calib::CalibrationRequest request = calib::makeRequest(scenario, ca.quick);
    request.device = device;
    request.maxGpus = ca.maxGpus;
    g_interrupted = 0;
    const auto previous = std::signal(SIGINT, onInterrupt);
    ProgressPrinter printer(ref);
    const calib::CalibrationResult result =
        calib::runCalibration(request, [&](const calib::Progress& p) { return printer(p); });
    std::signal(SIGINT, previous == SIG_ERR ? SIG_DFL : previous);
    printer.printNew(result);
    for (const auto& note : result.notes)
        std::cerr << "note: " << note << '\n';
    return result;
}

} // namespace

int runCalibrate(const Args& argv) {
    const bool jsonOut = hasSwitch(argv, "--json");
    auto setup = parseCalibrateArgs(argv);
    if (!setup)
        return reportError(setup.error(), jsonOut);
    const CalibrateArgs& ca = setup->args;
    const auto gpus = detectDevices(ca.device);
    if (!gpus)
        return reportError(gpus.error(), jsonOut);
    const calib::DeviceInfo& device = *std::find_if(
        gpus->begin(), gpus->end(), [&](const calib::DeviceInfo& d) { return d.index == ca.device; });
    const core::Scenario* scenario = ca.scenarioGiven ? &setup->scenario : nullptr;
    auto ref = calib::chooseReference(device, scenario, setup->gpuId);
    if (!ref)
        return reportError(badValue("--gpu", ref.error()), jsonOut);

    for (const auto& d : *gpus)
        std::cerr << deviceLine(d) << '\n';
    std::cerr << "Build: " << calib::buildDescription() << '\n'
              << "Libraries: " << calib::runtimeLibraries() << '\n'
              << "Reference figures: " << ref->how << '\n'
              << "Benchmarks on GPU " << device.index
              << (scenario ? ", with the shapes of " + core::scenarioName(*scenario) : "")
              << (ca.quick ? " (quick)" : "") << "\n";
    const calib::CalibrationResult result = measure(ca, *ref, scenario, device.index);
    if (result.cancelled)
        return reportError(failure("calibrate", "interrupted: no profile written"), jsonOut);
    if (!result.ok)
        return reportError(noGpu("the calibration failed on GPU " + std::to_string(device.index) + " (" +
                                 device.name + "): " + result.error),
                           jsonOut);

    const core::HardwareProfile base = core::builtinProfile(ref->gpu);
    auto built = calib::buildProfile(result, *ref, base);
    if (!built)
        return reportError(noGpu(built.error()), jsonOut);
    if (auto saved = core::saveProfileFile(*ca.output, built->profile); !saved)
        return reportError(failure(*ca.output, "cannot write the profile: " + saved.error()), jsonOut);
    std::cout << "Wrote " << *ca.output << ": \"" << built->profile.name << "\""
              << (built->profile.gpuId.empty() ? std::string() : " for GPU preset " + built->profile.gpuId)
              << ", " << result.date << ", " << fixed(result.elapsedSeconds, 0) << " s\n";
    for (const auto& note : built->notes)
        std::cout << "  " << note << '\n';
    std::cout << "Use it with: layout-planner-cli evaluate SCENARIO.json --profile " << *ca.output << '\n';
    return kExitOk;
}

} // namespace lp::cli
