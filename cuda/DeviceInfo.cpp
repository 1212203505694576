#include "cuda/DeviceInfo.h"

namespace lp::calib {

std::string DeviceInfo::computeCapability() const {
    return std::to_string(ccMajor) + "." + std::to_string(ccMinor);
}

double DeviceInfo::nominalMemoryBandwidth() const {
    // Double data rate: two transfers per memory clock on each bit of the bus.
    if (memoryClockHz <= 0 || memoryBusWidthBits <= 0)
        return 0;
    return 2.0 * memoryClockHz * memoryBusWidthBits / 8.0;
}

std::string cudaVersionString(int version) {
    if (version <= 0)
        return "none";
    return std::to_string(version / 1000) + "." + std::to_string((version % 1000) / 10);
}

} // namespace lp::calib
