#include "core/estimate/detail/ExplainMemory.h"

#include "core/estimate/ExecutionStyle.h"
#include "core/estimate/Precision.h"

namespace lp::core::detail {
namespace {

// `shardGroup`: the ranks the state is sharded over (DP x CP unless hybrid).
void explainWeights(ExplanationList& list, const StageMemory& w, int shardGroup) {
    const Scenario& s = list.scenario;
    const Plan& p = list.plan;
    const Intermediates& im = p.intermediates;
    const bool fp8Extra = im.fp8WeightCopyBytes > 0 || im.fp8ScalingStateBytes > 0;
    std::string formula = "stage parameters / TP x 2 bytes (/ shard group with ZeRO-3: DP x CP, or shard "
                          "degree x CP when hybrid)";
    std::string values =
        lp::format("stage {}: {}", w.stage, list.bytes(w.weightsBytes)) +
        (s.training.zeroStage >= 3 ? lp::format(" (sharded over {})", shardGroup) : std::string());
    std::string words =
        "TP splits every matrix, PP gives each stage L/PP layers (embedding on the first, head on the last).";
    if (fp8Extra) {
        const Fp8Habits f8 = fp8Habits(s, p.style);
        formula += lp::format(" + fp8 weight copies (linear weights on the GPU x {:.0f} bytes) + fp8 scaling "
                              "state (linear modules x 5 tensors x (amax history + 2) x 4 bytes)",
                              f8.weightCopyBytesPerParam);
        values += lp::format(", of which fp8 weight copies {} and scaling state {:.2f} MiB",
                             list.bytes(im.fp8WeightCopyBytes), im.fp8ScalingStateBytes / (1024.0 * 1024.0));
        words += lp::format(
            " With FP8, Transformer Engine also caches an fp8 copy and transpose of every linear weight "
            "({:.0f} bytes per parameter) and keeps delayed-scaling state ({} amax values per fp8 tensor).",
            f8.weightCopyBytesPerParam, f8.amaxHistoryLength);
    }
    list.add("memory.weights", "Weights on the worst stage", w.weightsBytes, "bytes", std::move(formula),
             std::move(values),
             std::string(kZeroPaper) +
                 (fp8Extra ? "; NVIDIA Transformer Engine (fp8 weight caching, delayed scaling)" : ""),
             std::move(words));
}

void explainGradients(ExplanationList& list, const StageMemory& w) {
    const GradientFormat g = gradientFormat(list.scenario, list.plan.style);
    const bool fp32Grads = g.heldBytes >= 4;
    list.add("memory.gradients", "Gradients", w.gradientsBytes, "bytes",
             lp::format("stage parameters / TP x {:.0f} bytes (/ shard group with ZeRO-2+)", g.heldBytes),
             lp::format("{}, {} gradients", list.bytes(w.gradientsBytes), g.held),
             fp32Grads ? std::string(kZeroPaper) +
                             "; Megatron-LM --accumulate-allreduce-grads-in-fp32 (forced on for bf16)"
                       : std::string(kZeroPaper),
             fp32Grads ? "One fp32 gradient per weight: Megatron accumulates gradients in an fp32 main_grad "
                         "buffer when training in bf16 or fp8, sharded from ZeRO stage 2 on."
                       : "One 16-bit gradient per weight, sharded from ZeRO stage 2 on.");
}

void explainOptimizerState(ExplanationList& list, const StageMemory& w, int shardGroup) {
    const TrainingOptions& t = list.scenario.training;
    list.add(
        "memory.optimizer", "Optimizer state", w.optimizerBytes, "bytes",
        lp::format(
            "stage parameters / TP x {:.0f} bytes (/ shard group with ZeRO-1+, the distributed optimizer)",
            optimizerBytesPerParam(t)),
        list.bytes(w.optimizerBytes) +
            (t.zeroStage >= 1 ? lp::format(", sharded over {} ranks", shardGroup) : std::string()),
        kZeroPaper,
        capitalised(optimizerStateWords(t)) +
            ": the largest part of the training state, and the first to shard.");
}

// The worst stage's activations with the values filled in: layers in flight, the logits on the last stage,
// context-parallel and torch pipeline buffers.
std::string activationValues(const ExplanationList& list, const StageMemory& w) {
    const Scenario& s = list.scenario;
    const Plan& p = list.plan;
    const Intermediates& im = p.intermediates;
    std::string values = lp::format("stage {}: {:.1f} layer-micro-batches x {}", w.stage,
                                    im.worstStageLayersInFlight, list.bytes(im.activationBytesPerLayer));
    if (w.stage == s.layout.pp - 1) {
        const CrossEntropy loss = lossKernel(s.training, p.style);
        values +=
            " + logits " + list.bytes(im.logitsBytes) +
            (loss == CrossEntropy::FusedLinear
                 ? std::string(" (fused linear cross-entropy: one fp32 chunk and its gradient)")
                 : lp::format(" ({:.0f} bytes per logit)", lossBytesPerLogit(loss, p.style, s.layout.tp)));
    }
    if (im.cpBufferBytes > 0)
        values += " + context-parallel buffers " + list.bytes(im.cpBufferBytes);
    if (im.pipelineBufferBytes > 0)
        values += " + torch pipeline buffers " + list.bytes(im.pipelineBufferBytes);
    if (im.logitsMetricPeak && w.stage == s.layout.pp - 1)
        values +=
            "; the peak comes after the backward, where the training metrics' fp32 copies of the logits (" +
            list.bytes(im.logitsMetricBytes) + ", 10 bytes per logit) replace the layers' tensors";
    return values;
}

void explainActivations(ExplanationList& list, const StageMemory& w) {
    const Scenario& s = list.scenario;
    const Plan& p = list.plan;
    std::string words =
        "Tensors saved in the forward pass for the backward pass. With 1F1B the first stage keeps up to PP "
        "micro batches in flight (interleaved, every rank also holds its warm-up chunks); recompute trades "
        "memory for extra forward work. At the loss the logits take 12 bytes each with an eager fp32 loss "
        "(16 under torch's loss_parallel with TP), 6 with a fused kernel, 4 with a compiled loss (the FSDP "
        "style's when the model is compiled), and almost nothing with a fused linear cross-entropy (the "
        "Cross-entropy choice).";
    if (s.training.pipelineSchedule == PipelineSchedule::GPipe && s.layout.pp > 1)
        words +=
            " GPipe runs every forward before any backward: every stage holds all m micro batches at once "
            "(Huang et al. 2019), where 1F1B holds at most PP.";
    if (styleTraits(p.style).torchTensorParallel && s.layout.tp > 1)
        words += " torch's tensor parallelism hands the QKV and MLP-input linears the all-gathered sequence, "
                 "and autograd saves it whole rather than the 1/TP shard Megatron keeps.";
    if (p.intermediates.pipelineBufferBytes > 0)
        words += " torch's pipelining allocates a receive buffer per micro batch for the activations coming "
                 "in and the gradients coming back, and keeps each in-flight micro batch's output until its "
                 "backward.";
    list.add("memory.activations", "Activations", w.activationsBytes, "bytes",
             "layers in flight x bytes per layer (+ logits on the last stage: tokens x vocab / TP x bytes "
             "per logit; + the context-parallel K/V chunks, and torch's fp32 gradient buffers, in the "
             "running layer; + torch pipelining's receive buffers and cached outputs)",
             activationValues(list, w), kKorthikantiPaper, std::move(words));
}

// Overheads, the worst stage's total and the headroom it leaves.
void explainTotals(ExplanationList& list, const StageMemory& w) {
    const MemoryPlan& mem = list.plan.memory;
    list.add("memory.overhead", "Overheads", w.overheadBytes, "bytes",
             "CUDA context + communication buffers + allocator reserve (+ ZeRO-3 gather buffers)",
             list.bytes(w.overheadBytes), kEstimationDoc,
             "Memory the framework needs besides the model: the CUDA context, NCCL buffers and allocator "
             "fragmentation.");
    list.add("memory.total", "Worst-stage memory", w.totalBytes, "bytes",
             "weights + gradients + optimizer + activations + overheads",
             lp::format("{} of {} capacity ({})", list.bytes(w.totalBytes), list.bytes(mem.capacityBytes),
                        mem.fits ? "fits" : "does not fit"),
             kEstimationDoc,
             "The pipeline stage that needs the most memory decides whether the layout fits.");
    list.add(
        "memory.headroom", "Headroom", mem.headroomBytes, "bytes", "capacity - worst-stage total",
        lp::format("{} - {} = {}", list.bytes(mem.capacityBytes), list.bytes(w.totalBytes),
                   list.bytes(mem.headroomBytes)),
        kEstimationDoc,
        "Free memory on the fullest GPU; negative means the layout runs out of memory. The capacity is the "
        "memory CUDA reports (PyTorch's \"total capacity\"): a data sheet's \"80 GB\" is about 80 GiB, of "
        "which an H100 exposes 79.2 GiB.");
}

void explainHostOffload(ExplanationList& list) {
    const MemoryPlan& mem = list.plan.memory;
    const Intermediates& im = list.plan.intermediates;
    std::string values;
    if (im.offloadedStateBytes > 0)
        values = "optimizer state " + list.bytes(im.offloadedStateBytes);
    if (im.offloadedGradientBytes > 0)
        values += " + gradient shard " + list.bytes(im.offloadedGradientBytes);
    if (im.offloadedActivationBytes > 0)
        values += (values.empty() ? "" : " + ") +
                  lp::format("{} layers x {:.1f} micro batches in flight x {}", im.offloadedLayers,
                             im.offloadMicroBatchesInFlight, list.bytes(im.offloadBytesPerLayer));
    list.add("memory.host_offload", "Host memory (CPU offloading)", mem.hostBytesPerGpu, "bytes",
             "optimizer state (+ the gradient shard with ZeRO 2-3) + offloaded layers x micro batches in "
             "flight x bytes per layer",
             values + " = " + list.bytes(mem.hostBytesPerGpu) + " per GPU, of its " +
                 list.bytes(mem.hostCapacityBytes) + " share of the host's memory",
             kEstimationDoc,
             "What CPU offloading keeps in the host's memory instead of the GPU's, for each GPU (a node "
             "needs its GPUs' worth, pinned; more than the GPU's share is flagged). The GPU keeps one "
             "offloaded layer's activations as the staging buffer.");
}

} // namespace

void explainMemory(ExplanationList& list) {
    const MemoryPlan& mem = list.plan.memory;
    if (mem.stages.empty())
        return;
    const StageMemory& w = mem.stages[static_cast<std::size_t>(mem.worstStage)];
    const int shardGroup = effectiveShardDegree(list.scenario) * list.scenario.layout.cp;
    explainWeights(list, w, shardGroup);
    explainGradients(list, w);
    explainOptimizerState(list, w, shardGroup);
    explainActivations(list, w);
    explainTotals(list, w);
    if (mem.hostBytesPerGpu > 0)
        explainHostOffload(list);
}

} // namespace lp::core::detail
