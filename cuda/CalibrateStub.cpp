// runCalibration in a build without CUDA: it says so, and how to get it.
#include "cuda/Calibrate.h"
#include "cuda/Device.h"

namespace lp::calib {

CalibrationResult runCalibration(const CalibrationRequest&, const ProgressCallback&) {
    CalibrationResult r;
    r.error = kNoCudaBuildMessage;
    return r;
}

} // namespace lp::calib
