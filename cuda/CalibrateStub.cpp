// The calibration entry points of a build without CUDA: they say so, and how to get it.
#include "cuda/Calibrate.h"

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
        *whyNot = kNoCudaBuildMessage;
    return {};
}

CalibrationResult runCalibration(const CalibrationRequest&, const ProgressCallback&) {
    CalibrationResult r;
    r.error = kNoCudaBuildMessage;
    return r;
}

} // namespace lp::calib
