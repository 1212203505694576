#pragma once
// Validation cases written as a validation-cases file holds them, for the tests of the case reader.
#include "TestHarness.h"
#include "core/measured/Validation.h"

#include <string>

namespace lp::core::fixtures {

// One Megatron-style case on `gpu` with the given layout, as a validation file would hold it.
inline std::string overlapCase(const std::string& gpu, int tp, int pp, int vpp, int dp, int zero, bool sp,
                               const std::string& mlp = "swiglu") {
    const int gpus = tp * pp * dp;
    return R"({"schema": "layout-planner/validation-cases@1", "cases": [{"id": "x",
        "model": {"name": "m", "layers": 32, "hidden": 4096, "heads": 32, "kv_heads": 8, "ffn_hidden": 14336,
                  "vocab": 128256, "seq_len": 4096, "mlp": ")" +
           mlp + R"(", "tied_embeddings": false},
        "hardware": {"gpu": ")" +
           gpu + R"(", "gpus": )" + std::to_string(gpus) + R"(, "gpus_per_node": 8},
        "layout": {"tp": )" +
           std::to_string(tp) + R"(, "pp": )" + std::to_string(pp) + R"(, "vpp": )" + std::to_string(vpp) +
           R"(, "dp": )" + std::to_string(dp) + R"(, "micro_batch": 1, "global_batch": )" +
           std::to_string(dp * 8) + R"(, "sequence_parallel": )" + (sp ? "true" : "false") +
           R"(, "recompute": "none", "zero_stage": )" + std::to_string(zero) + R"(, "precision": "bf16"},
        "measured": {"tokens_per_s_per_gpu": 1000}}]})";
}

// `json` with its first `from` replaced by `to` (a check fails when `from` is not there).
inline std::string replaced(std::string json, const std::string& from, const std::string& to) {
    const auto at = json.find(from);
    LP_CHECK(at != std::string::npos);
    if (at != std::string::npos)
        json.replace(at, from.size(), to);
    return json;
}

} // namespace lp::core::fixtures
