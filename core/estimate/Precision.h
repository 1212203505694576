#pragma once
// Which tensors a run keeps in which number format: the per-tensor precision table shown by
// `evaluate`, the reports and the window, and the FP8 bookkeeping (extra weight copies, scaling
// state, fp8-saved activations) that the memory model charges. Follows the documented habits of the
// execution style: Megatron-LM with Transformer Engine, or FSDP trainers with torchao Float8Linear.
#include "core/model/Enums.h"
#include "core/model/Scenario.h"

#include <string>
#include <vector>

namespace lp::core {

struct TensorPrecision {
    std::string tensor; // e.g. "Linear-layer GEMM inputs (forward)"
    std::string format; // e.g. "fp8 e4m3", "bf16", "fp32"
    double bytes = 0;   // bytes per stored value (0 where nothing is stored)
    std::string note;   // why, and where the behaviour is documented
};

// What FP8 training adds to (or saves from) memory under an execution style. Zeros unless the
// scenario trains in fp8 on a GPU with an fp8 peak.
struct Fp8Habits {
    bool active = false;
    double weightCopyBytesPerParam = 0;  // extra bytes per linear-layer parameter (fp8 weight + transpose)
    bool savesLinearInputsInFp8 = false; // activations saved for backward as 1-byte casts
    int amaxHistoryLength = 0;           // delayed scaling: amax values kept per fp8 tensor (0: dynamic)
    int scaledTensorsPerGemm = 0;        // fp8 tensors per linear module with scaling state
};

Fp8Habits fp8Habits(const Scenario& s, ExecutionStyle resolved);

// The gradient buffer a GPU holds and the format the data-parallel reduction sends: Megatron-LM's fp32
// main_grad in bf16 and fp8, FSDP trainers' bf16 gradients reduced in fp32 (docs/estimation.md, "Model
// state").
struct GradientFormat {
    double heldBytes = 2;   // bytes per parameter of the gradient buffer (before ZeRO-2+ sharding)
    double reduceBytes = 2; // bytes per parameter sent by the data-parallel reduction
    std::string held;       // "fp32", "bf16", "fp16"
    std::string reduced;
};

// The gradient buffer and reduction format: grad_precision as stated; Auto takes the style's habit (the
// Megatron style's fp32 main_grad for bf16/fp8, 16-bit where megatronRecipeHabits holds; fp32 reduction in
// the FSDP style).
GradientFormat gradientFormat(const Scenario& s, ExecutionStyle resolved);

// Scaling-state bytes of one fp8 linear module: amax history, scale and inverse scale (fp32) per tensor.
double fp8ScalingBytesPerModule(const Fp8Habits& h);

// The table, in the order a reader meets the tensors: weights, activations, attention, communication,
// optimizer. Rows that do not apply (router without MoE, loss scale without fp16) are left out.
std::vector<TensorPrecision> precisionTable(const Scenario& s);

// Optimizer state per parameter: the master copy and the moments, by TrainingOptions::optimizerPrecision
// (Adam: 12 bytes in fp32, 8 with 16-bit moments, 4 without a master copy; SGD with momentum: 8, 6, 2).
double optimizerBytesPerParam(const TrainingOptions& t);
// Memory traffic of the optimizer step per parameter it updates: the gradient read, the state read and
// written, and without a master copy the 16-bit weights read and written (Adam in fp32: 28 bytes).
double optimizerStepBytesPerParam(const TrainingOptions& t);

} // namespace lp::core
