#pragma once
// A local GPU as the CUDA runtime describes it. Plain C++ (no CUDA types), used in every build.
#include <string>

namespace lp::calib {

// One local GPU as the CUDA runtime reports it.
struct DeviceInfo {
    int index = 0;
    std::string name; // "NVIDIA H100 80GB HBM3"
    int smCount = 0;
    double memoryBytes = 0;   // total device memory
    double smClockHz = 0;     // peak SM clock
    double memoryClockHz = 0; // peak memory clock
    int memoryBusWidthBits = 0;
    int ccMajor = 0; // compute capability
    int ccMinor = 0;
    int driverVersion = 0; // CUDA encoding: 13000 = 13.0
    int runtimeVersion = 0;

    std::string computeCapability() const; // "9.0"
    // Nominal memory bandwidth from the clocks and bus width (bytes/s; 0 when unknown).
    double nominalMemoryBandwidth() const;
};

// "13.0" from 13000.
std::string cudaVersionString(int version);

} // namespace lp::calib
