// Why GPUs cannot be used and what to do (cuda/GpuDiagnosis.h): the device list of `nvidia-smi -L`, the
// driver against the build's CUDA runtime, the fabric manager hint, and when a missing GPU is a failure.
#include "TestHarness.h"
#include "cuda/Device.h"
#include "cuda/GpuDiagnosis.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

using namespace lp;

namespace {

bool contains(const std::string& text, const std::string& part) {
    if (text.find(part) != std::string::npos)
        return true;
    std::printf("  missing \"%s\" in: %s\n", part.c_str(), text.c_str());
    return false;
}

const char* const kEightH100 = "GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-0a1b)\n"
                               "GPU 1: NVIDIA H100 80GB HBM3 (UUID: GPU-0a1c)\n"
                               "GPU 2: NVIDIA H100 80GB HBM3 (UUID: GPU-0a1d)\n"
                               "GPU 3: NVIDIA H100 80GB HBM3 (UUID: GPU-0a1e)\n"
                               "GPU 4: NVIDIA H100 80GB HBM3 (UUID: GPU-0a1f)\n"
                               "GPU 5: NVIDIA H100 80GB HBM3 (UUID: GPU-0a20)\n"
                               "GPU 6: NVIDIA H100 80GB HBM3 (UUID: GPU-0a21)\n"
                               "GPU 7: NVIDIA H100 80GB HBM3 (UUID: GPU-0a22)\n";

LP_TEST(nvidia_smi_list_gives_the_gpu_names) {
    const auto gpus = calib::listedGpus("GPU 0: NVIDIA A100-SXM4-80GB (UUID: GPU-1234)\n"
                                        "  MIG 3g.40gb     Device  0: (UUID: MIG-5678)\n"
                                        "GPU 1: NVIDIA GH200 480GB (UUID: GPU-9abc)\n");
    LP_CHECK_EQ(gpus.size(), std::size_t{2});
    if (gpus.size() == 2) {
        LP_CHECK_EQ(gpus[0], std::string("NVIDIA A100-SXM4-80GB"));
        LP_CHECK_EQ(gpus[1], std::string("NVIDIA GH200 480GB"));
    }
    LP_CHECK(calib::listedGpus("").empty());
    LP_CHECK(
        calib::listedGpus("NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.")
            .empty());
    LP_CHECK_EQ(calib::listedGpus(kEightH100).size(), std::size_t{8});
}

LP_TEST(driver_version_and_the_driver_each_cuda_needs) {
    LP_CHECK_EQ(
        calib::driverVersionFromProc("NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.15  Tue Mar "
                                     " 5 22:23:56 UTC 2024\nGCC version:  gcc version 12.2.0\n"),
        std::string("550.54.15"));
    LP_CHECK_EQ(calib::driverVersionFromProc("NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  "
                                             "570.86.15  Release Build"),
                std::string("570.86.15"));
    LP_CHECK_EQ(calib::driverVersionFromProc(""), std::string(""));
    LP_CHECK_EQ(calib::minimumDriverFor(13000), std::string("580.65.06"));
    LP_CHECK_EQ(calib::minimumDriverFor(12040), std::string("525.60.13"));
    LP_CHECK_EQ(calib::minimumDriverFor(10020), std::string(""));
}

LP_TEST(an_old_driver_names_both_drivers_and_how_to_build_for_cuda_12) {
    calib::DriverFacts f;
    f.driverVersion = "550.54.15";
    f.driverCudaVersion = 12040;
    f.runtimeVersion = 13000;
    f.toolkitDirs = {"/usr/local/cuda-12.4"};
    const std::string advice = calib::insufficientDriverAdvice(f);
    LP_CHECK(contains(advice, "NVIDIA driver 550.54.15 (it runs CUDA up to 12.4)"));
    LP_CHECK(contains(advice, "CUDA runtime 13.0, which needs driver 580.65.06 or newer"));
    LP_CHECK(contains(advice, "-DCMAKE_CUDA_COMPILER=/usr/local/cuda-12.4/bin/nvcc"));
    LP_CHECK(contains(advice, "-DCUDAToolkit_ROOT=/usr/local/cuda-12.4"));
    LP_CHECK(contains(advice, "installed: cmake -S . -B build-cuda12 -DLP_BUILD_CUDA=ON"));
    f.toolkitDirs.clear();
    const std::string noToolkit = calib::insufficientDriverAdvice(f);
    LP_CHECK(contains(noToolkit, "install it, then cmake"));
    LP_CHECK(contains(noToolkit, "/usr/local/cuda-12.x/bin/nvcc"));
}

LP_TEST(system_not_ready_points_at_the_fabric_manager) {
    const std::string hint = calib::systemNotReadyAdvice();
    LP_CHECK(contains(hint, "fabric manager"));
    LP_CHECK(contains(hint, "nvidia-fabricmanager"));
}

LP_TEST(gpus_are_expected_when_listed_or_asked_for) {
    LP_CHECK(!calib::gpuExpectation(nullptr, "").expected);
    LP_CHECK(!calib::gpuExpectation("0", "").expected);
    const auto asked = calib::gpuExpectation("1", "");
    LP_CHECK(asked.expected);
    LP_CHECK(contains(asked.why, "LP_EXPECT_GPU=1"));
    const auto listed = calib::gpuExpectation(nullptr, kEightH100);
    LP_CHECK(listed.expected);
    LP_CHECK_EQ(listed.why, std::string("nvidia-smi -L lists 8 GPUs (NVIDIA H100 80GB HBM3)"));
    const std::string message = calib::unusableGpusMessage(listed, "the reason");
    LP_CHECK_EQ(message,
                std::string("nvidia-smi -L lists 8 GPUs (NVIDIA H100 80GB HBM3), but none can be used: "
                            "the reason"));
}

LP_TEST(a_fake_device_list_turns_no_gpu_into_a_failure_message) {
    const std::string file =
        (std::filesystem::temp_directory_path() / "lp_fake_nvidia_smi_list.txt").string();
    {
        std::ofstream out(file);
        out << "GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-0a1b)\n";
    }
    ::setenv("LP_NVIDIA_SMI_LIST_FILE", file.c_str(), 1);
    ::unsetenv("LP_EXPECT_GPU");
    LP_CHECK(calib::localGpuExpectation().expected);
    LP_CHECK(contains(calib::noGpuMessage("why"),
                      "lists 1 GPU (NVIDIA H100 80GB HBM3), but none can be used: why"));
    // With the GPUs hidden, detectGpus says both: what the driver lists and why none is usable.
    ::setenv("CUDA_VISIBLE_DEVICES", "-1", 1);
    std::string why;
    LP_CHECK(calib::detectGpus(&why).empty());
    LP_CHECK(contains(why, "but none can be used: "));
    // An empty list and no LP_EXPECT_GPU: a machine without GPUs, the reason alone.
    { std::ofstream out(file); }
    LP_CHECK(!calib::localGpuExpectation().expected);
    LP_CHECK_EQ(calib::noGpuMessage("why"), std::string("why"));
    ::setenv("LP_EXPECT_GPU", "1", 1);
    LP_CHECK(contains(calib::noGpuMessage("why"), "LP_EXPECT_GPU=1 is set, but none can be used: why"));
    ::unsetenv("LP_EXPECT_GPU");
    ::unsetenv("LP_NVIDIA_SMI_LIST_FILE");
    std::filesystem::remove(file);
}

} // namespace

LP_TEST_MAIN()
