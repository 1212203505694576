// The device entry points of a build without CUDA: they say so, and how to get it.
#include "cuda/Device.h"
#include "cuda/GpuDiagnosis.h"

namespace lp::calib {

bool hasCudaSupport() {
    return false;
}

std::string buildDescription() {
    return kNoCudaBuildMessage;
}

std::string runtimeLibraries() {
    return kNoCudaBuildMessage;
}

std::vector<DeviceInfo> detectGpus(std::string* whyNot) {
    if (whyNot)
        *whyNot = noGpuMessage(kNoCudaBuildMessage);
    return {};
}

} // namespace lp::calib
