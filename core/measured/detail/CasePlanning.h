#pragma once
// What the validation-case reader and the comparison both assume about how a case was run.
#include "core/model/Scenario.h"

namespace lp::core::detail {

// How many units of `per` sequences make up `total` (the nearest whole number, at least one).
long long perReplicaUnits(long long total, long long per);

// A Megatron-Core recipe's overlaps are inferred for the case: Megatron style on Hopper or newer, no ZeRO 3.
bool megatronCoreRecipeApplies(const Scenario& s);

} // namespace lp::core::detail
