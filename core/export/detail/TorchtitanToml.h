#pragma once
// The layout as torchtitan's [training], [parallelism], [compile] and [activation_checkpoint] TOML tables,
// with notes on what torchtitan does differently (FSDP2 has no ZeRO-1 or ZeRO-2).
#include "core/export/LaunchExport.h"

namespace lp::core::detail {

LaunchSettings torchtitanToml(const Scenario& s);

} // namespace lp::core::detail
