#pragma once
// Measured training runs (layout-planner/validation-cases@2, or @1 with its words ignored) as the planner
// reads them; how well it predicts them: core/measured/ValidationRun.h. A case's source and notes are shown,
// never read.
#include "core/estimate/Plan.h"
#include "core/io/InputError.h"
#include "core/model/Hardware.h"
#include "core/model/Scenario.h"

#include <expected>
#include <string>
#include <string_view>
#include <vector>

namespace lp::core {

struct MeasuredValue {
    std::string metric; // iteration_time_s, model_tflops_per_gpu, hardware_tflops_per_gpu, mfu, hfu,
                        // tokens_per_s_per_gpu, peak_memory_gib
    double value = 0;
};

struct ValidationCase {
    std::string id;
    std::string source;
    std::string confidence;
    std::string notes;
    // What the converter that wrote the case derived from which of its words (tools/validation-convert):
    // shown with the case, never read, as its source and notes.
    std::vector<std::string> derived;
    Scenario scenario;
    bool microBatchGiven = true; // false: pick the fastest micro batch that fits
    bool recomputeGiven = true;  // false: pick the fastest recomputation that fits
    bool vppGiven = true;        // false (a pipeline): pick the fastest interleaving that fits
    long long globalBatch = 0;
    std::vector<MeasuredValue> measured;
    // What the reader changed so that the case can be planned, in words ("global_batch 7 is not a multiple
    // of micro_batch x dp (8): planned with 8 sequences per step"); empty for a case planned as written.
    std::vector<std::string> adjustments;
    // The built-in model preset whose attention and layer details the case's shape matched and took (head
    // size, MLA, norm, biases: what the format has no field for); empty when none changed the model.
    std::string architectureFrom;
};

// Without `skipped`, any problem refuses the file. With it, a case that cannot be read is left out and its
// problems (each naming its case, "$.cases[3].layout.tp: ...") go to *skipped; the file is refused only when
// no case can be read (or it is no validation-cases file).
std::expected<std::vector<ValidationCase>, InputErrors>
validationCasesFromJson(std::string_view text, InputErrors* skipped = nullptr);
std::expected<std::vector<ValidationCase>, InputErrors> loadValidationCases(const std::string& path,
                                                                            InputErrors* skipped = nullptr);

} // namespace lp::core
