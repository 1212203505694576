#include "cuda/GpuDiagnosis.h"

#include "cuda/DeviceInfo.h"

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace lp::calib {
namespace {

std::string readFile(const std::string& path) {
    std::ifstream in(path);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

std::string commandOutput(const char* command) {
    std::string out;
    if (FILE* pipe = ::popen(command, "r")) {
        char buf[4096];
        while (std::size_t n = std::fread(buf, 1, sizeof buf, pipe))
            out.append(buf, n);
        (void)::pclose(pipe);
    }
    return out;
}

// "12.4" in "/usr/local/cuda-12.4" -> 12040; 0 when the name has no version.
int toolkitVersion(const std::string& dirName) {
    int major = 0;
    int minor = 0;
    if (std::sscanf(dirName.c_str(), "cuda-%d.%d", &major, &minor) != 2)
        return 0;
    return major * 1000 + minor * 10;
}

} // namespace

std::vector<std::string> listedGpus(std::string_view text) {
    std::vector<std::string> out;
    std::istringstream lines{std::string(text)};
    for (std::string line; std::getline(lines, line);) {
        if (!line.starts_with("GPU "))
            continue;
        const auto colon = line.find(": ");
        if (colon == std::string::npos)
            continue;
        std::string name = line.substr(colon + 2);
        if (const auto uuid = name.find(" (UUID"); uuid != std::string::npos)
            name.resize(uuid);
        out.push_back(name);
    }
    return out;
}

std::string driverVersionFromProc(std::string_view procText) {
    const auto module = procText.find("Kernel Module");
    if (module == std::string_view::npos)
        return {};
    // "Kernel Module  550.54.15", "Open Kernel Module for x86_64  570.86.15": the first version-like word.
    std::istringstream words{std::string(procText.substr(module, procText.find('\n', module) - module))};
    for (std::string word; words >> word;)
        if (std::isdigit(static_cast<unsigned char>(word.front())) && word.find('.') != std::string::npos)
            return word;
    return {};
}

std::string minimumDriverFor(int cudaRuntimeVersion) {
    switch (cudaRuntimeVersion / 1000) {
    case 11:
        return "450.80.02";
    case 12:
        return "525.60.13";
    case 13:
        return "580.65.06";
    default:
        return {};
    }
}

DriverFacts localDriverFacts(int driverCudaVersion, int runtimeVersion) {
    DriverFacts f;
    f.driverVersion = driverVersionFromProc(readFile("/proc/driver/nvidia/version"));
    f.driverCudaVersion = driverCudaVersion;
    f.runtimeVersion = runtimeVersion;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator("/usr/local", ec)) {
        const int version = toolkitVersion(entry.path().filename().string());
        if (version > 0 && version / 1000 < runtimeVersion / 1000 &&
            (driverCudaVersion <= 0 || version / 1000 <= driverCudaVersion / 1000) &&
            std::filesystem::exists(entry.path() / "bin" / "nvcc", ec))
            f.toolkitDirs.push_back(entry.path().string());
    }
    return f;
}

std::string insufficientDriverAdvice(const DriverFacts& f) {
    std::string out = "the NVIDIA driver";
    if (!f.driverVersion.empty())
        out += " " + f.driverVersion;
    if (f.driverCudaVersion > 0)
        out += " (it runs CUDA up to " + cudaVersionString(f.driverCudaVersion) + ")";
    out +=
        " is older than this build's CUDA runtime " + cudaVersionString(f.runtimeVersion) + ", which needs";
    const std::string needed = minimumDriverFor(f.runtimeVersion);
    out += needed.empty() ? " a newer driver" : " driver " + needed + " or newer";
    const int runnable = f.driverCudaVersion > 0 ? f.driverCudaVersion / 1000 : 12;
    const std::string toolkit =
        f.toolkitDirs.empty() ? "/usr/local/cuda-" + std::to_string(runnable) + ".x" : f.toolkitDirs.back();
    out += ". Update the driver, or build against the CUDA " + std::to_string(runnable) +
           ".x toolkit the driver runs (" + (f.toolkitDirs.empty() ? "install it, then " : "installed: ") +
           "cmake -S . -B build-cuda" + std::to_string(runnable) +
           " -DLP_BUILD_CUDA=ON -DCMAKE_CUDA_COMPILER=" + toolkit +
           "/bin/nvcc -DCUDAToolkit_ROOT=" + toolkit + "; docs/calibration.md, 'First run on your node')";
    return out;
}

std::string systemNotReadyAdvice() {
    return "on an NVSwitch node (HGX or DGX) this means the NVIDIA fabric manager is not running: start it "
           "(systemctl start nvidia-fabricmanager; its version must be the driver's) and check `nvidia-smi "
           "-q | grep -A2 Fabric` says the fabric is completed";
}

GpuExpectation gpuExpectation(const char* expectGpuEnv, std::string_view nvidiaSmiList) {
    GpuExpectation e;
    if (expectGpuEnv && std::string_view(expectGpuEnv) == "1") {
        e.expected = true;
        e.why = "LP_EXPECT_GPU=1 is set";
    }
    const std::vector<std::string> gpus = listedGpus(nvidiaSmiList);
    if (!gpus.empty()) {
        e.expected = true;
        std::string names;
        for (const auto& name : gpus)
            if (names.find(name) == std::string::npos)
                names += (names.empty() ? "" : ", ") + name;
        e.why = "nvidia-smi -L lists " + std::to_string(gpus.size()) +
                (gpus.size() == 1 ? " GPU (" : " GPUs (") + names + ")" +
                (e.why.empty() ? std::string() : " and " + e.why);
    }
    return e;
}

GpuExpectation localGpuExpectation() {
    const char* fake = std::getenv("LP_NVIDIA_SMI_LIST_FILE");
    const std::string list = fake ? readFile(fake) : commandOutput("nvidia-smi -L 2>/dev/null");
    return gpuExpectation(std::getenv("LP_EXPECT_GPU"), list);
}

std::string unusableGpusMessage(const GpuExpectation& expectation, const std::string& why) {
    return expectation.why + ", but none can be used: " + why;
}

std::string noGpuMessage(const std::string& why) {
    const GpuExpectation e = localGpuExpectation();
    return e.expected ? unusableGpusMessage(e, why) : why;
}

} // namespace lp::calib
