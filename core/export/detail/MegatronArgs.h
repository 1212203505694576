#pragma once
// The layout as Megatron-LM command-line arguments (a bash array for pretrain_gpt.py), with notes on what
// the plan assumes that the arguments cannot say.
#include "core/export/LaunchExport.h"

namespace lp::core::detail {

LaunchSettings megatronArgs(const Scenario& s);

} // namespace lp::core::detail
