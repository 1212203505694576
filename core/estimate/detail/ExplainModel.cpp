#include "core/estimate/detail/ExplainModel.h"

#include "core/estimate/Precision.h"

namespace lp::core::detail {

void explainModel(ExplanationList& list) {
    const Scenario& s = list.scenario;
    const Plan& p = list.plan;
    const ModelSpec& m = s.model;
    const ParameterCount& pc = p.params;
    const Layout& l = s.layout;
    list.add("parameters", "Parameters", pc.total, "parameters",
             "P = L x (attention + MLP + norms) + V x h (embedding) + V x h (output head, unless tied)",
             lp::format("P = {} x ({} + {} + {}) + {} + {} = {}", m.layers, count(pc.attentionPerLayer),
                        count(m.isMoe() ? pc.moePerLayer : pc.mlpPerLayer), count(pc.normsPerLayer),
                        count(pc.embedding), count(pc.head), count(pc.total)),
             "docs/estimation.md section 1 (Llama-2-70B: about 69.0e9)",
             "Every weight matrix of the model counted from its architecture: attention projections, MLP and "
             "norms in each layer, plus the embedding table and the output head.");
    list.add("weights_bytes", "Weights (16-bit, whole model)", pc.total * 2.0, "bytes",
             "weights = P x 2 bytes",
             lp::format("{} x 2 B = {}", count(pc.total), list.bytes(pc.total * 2.0)), kZeroPaper,
             "Just holding the 16-bit weights of the whole model takes this much memory - more than one GPU "
             "has for a 70B model.");
    list.add("training_state_bytes", "Training state (whole model)", p.trainingStateBytes, "bytes",
             lp::format("state = P x (2 weights + 2 gradients + {:.0f} optimizer) bytes",
                        optimizerBytesPerParam(s.training)),
             lp::format("{} x {:.0f} B = {}", count(pc.total), p.intermediates.bytesPerParamState,
                        list.bytes(p.trainingStateBytes)),
             kZeroPaper,
             "Mixed-precision Adam keeps 16-bit weights and gradients plus an fp32 master copy and two fp32 "
             "moments: about 16 bytes per parameter before any activation (the ZeRO paper's count; "
             "Megatron's fp32 gradient buffer in bf16 makes it 18, as the per-GPU memory shows). This is why "
             "the model must be split over many GPUs." +
                 std::string(s.training.optimizerPrecision == OptimizerPrecision::Fp32
                                 ? ""
                                 : " This plan's optimizer keeps less: " +
                                       std::string(optimizerStateWords(s.training)) + "."));
    list.add("gpus", "GPUs", static_cast<double>(l.gpus()), l.gpus() == 1 ? "GPU" : "GPUs",
             "GPUs = TP x PP x CP x DP",
             lp::format("{} x {} x {} x {} = {}", l.tp, l.pp, l.cp, l.dp, l.gpus()),
             "docs/estimation.md, Notation",
             "Each GPU holds one tensor-parallel slice of one pipeline stage of one data-parallel replica.");
    list.add("effective_batch", "Effective batch", static_cast<double>(p.effectiveBatchSequences),
             "sequences", "batch = micro batch x accumulation x DP",
             lp::format("{} x {} x {} = {}", l.microBatch, l.accumulation, l.dp, p.effectiveBatchSequences),
             "the seed's formula",
             "Sequences that contribute to one optimizer step: each replica runs several micro batches and "
             "the DP replicas average their gradients.");
    list.add("tokens_per_step", "Tokens per step", p.tokensPerStep, "tokens",
             "tokens = batch x sequence length",
             lp::format("{} x {} = {}", p.effectiveBatchSequences, m.seqLen, count(p.tokensPerStep)),
             "definition", "How many tokens the model learns from in one optimizer step.");
}

} // namespace lp::core::detail
