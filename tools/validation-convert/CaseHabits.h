#pragma once
// What the @1 validation-case reader inferred from a case's source and notes about how the run was trained:
// the framework's habits, which @1 had no field for. Kept to convert @1 files to @2.
#include "core/model/Scenario.h"

#include <string>
#include <string_view>

namespace lp::tools::prose {

// A case's source and notes, lower-cased, and the kind of trainer the source names. The format does not name
// the framework; the source does. ZeRO 3 from a Megatron-family source (Megatron-LM, Megatron-Bridge,
// Megatron-DeepSpeed) is Megatron-FSDP or DeepSpeed's ZeRO 3 under Megatron's fused kernels and Transformer
// Engine, not a PyTorch FSDP trainer's eager habits, which "auto" assumes. A PyTorch-native trainer keeps its
// eager habits at every ZeRO stage (DDP, FSDP's SHARD_GRAD_OP).
struct CaseSource {
    std::string source;
    std::string notes;
    bool megatron = false;
    bool torchTrainer = false;

    CaseSource(std::string_view caseSource, std::string_view caseNotes);
    // Whether the (lower-cased) source names `term` ("torchtitan", "megatron-bridge").
    bool names(std::string_view term) const { return source.find(term) != std::string::npos; }
};

// The execution style, the attention kernels, torch.compile, fused kernels and fp8 weight gathers.
void inferKernels(core::Scenario& s, const std::string& caseId, const CaseSource& origin);
// How the source counts model FLOPs, computes its loss and keeps its optimizer state.
void inferLossAndOptimizer(core::Scenario& s, const CaseSource& origin);
// The communication overlaps and the MoE dispatcher (after the layout and ZeRO stage are read).
void inferCommunication(core::Scenario& s, const CaseSource& origin);

} // namespace lp::tools::prose
