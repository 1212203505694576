#pragma once
// The layout as a DeepSpeed config (ds_config.json), with notes on what its keys cannot express (TP, PP, CP
// and EP live in the model code).
#include "core/export/LaunchExport.h"

namespace lp::core::detail {

LaunchSettings deepSpeedConfig(const Scenario& s);

} // namespace lp::core::detail
