#include "core/estimate/Diagnostic.h"

#include "core/estimate/Plan.h"
#include "core/util/Format.h"
#include "core/util/NumberFormat.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>

namespace lp::core {
namespace {

// The figures' structs stand in the variant in the order of DiagnosticId.
template <std::size_t... I> constexpr bool figuresInIdOrder(std::index_sequence<I...>) {
    return ((std::variant_alternative_t<I, DiagnosticFigures>::kId == static_cast<DiagnosticId>(I)) && ...);
}
static_assert(std::variant_size_v<DiagnosticFigures> == kDiagnosticCount &&
              figuresInIdOrder(std::make_index_sequence<kDiagnosticCount>{}));

struct DiagnosticText {
    std::string_view id;         // stable, in the JSON and the CLI
    std::string_view suggestion; // the change to make (empty: worded from the figures, below)
};

constexpr std::array<DiagnosticText, kDiagnosticCount> kTexts = {{
    {"tp_over_slow_links", ""},
    {"pipeline_bubble", "Raise gradient accumulation (more micro batches), use interleaved stages (virtual "
                        "stages > 1), or lower PP."},
    {"loader_not_prefetching",
     "Turn on prefetching (more loader workers, pin_memory, prefetch_factor) so loading overlaps compute."},
    {"stragglers",
     "Find the slow rank (thermal throttling, a bad link, a noisy neighbour) and replace or fix it."},
    {"sharding_traffic_contends_with_tp",
     "Keep TP inside the NVLink domain, or use a lower ZeRO stage / hybrid sharding within a node."},
    {"mfu_below_20",
     "Look at the largest non-compute items in the step-time breakdown and the other diagnostics."},
    {"does_not_fit",
     "Raise TP or PP, shard with ZeRO (higher stage), use more recompute or a smaller micro batch."},
    {"exposed_dp_comm", ""},
    {"ep_crosses_nodes",
     "Keep TP x EP within the NVLink domain (lower EP or TP), or accept the cost for the memory it saves."},
    {"small_expert_batches",
     "Raise the micro batch or lower EP so that each expert gets more tokens per GEMM."},
    {"cp_exchange_exposed", "Use fewer CP ranks (longer chunks per rank), keep CP inside the NVLink domain, "
                            "or raise the micro batch."},
    {"cp_crosses_nodes",
     "Keep TP x CP within the NVLink domain: lower TP, or place CP inside a node and DP across nodes."},
    {"uneven_pipeline_stages", "Choose PP (x virtual stages) that divides the layers, or give the first and "
                               "last stages fewer layers (they also hold the embedding and the head)."},
    {"little_memory_headroom",
     "Keep 5-10% of the memory free: more recompute, a smaller micro batch or more sharding; "
     "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True also reduces fragmentation."},
    {"embedding_and_loss_in_pipeline_split",
     "Nothing to change: this balances the first and last stages, which also run the embedding and the "
     "output layer. Set the pipeline split to 'layers' to plan without it."},
    {"unfused_softmax", "Make micro batch x heads per TP rank a multiple of 4 (an even micro batch, or a "
                        "smaller TP) with a sequence of 17 to 4096 tokens, or use flash attention."},
    {"fp8_not_supported",
     "Choose bf16 for this GPU, or a GPU with FP8 tensor cores (H100, H200, B200, GB200)."},
    {"attention_kernel_not_supported",
     "Set attention_kernel to flash_attention_2 or cudnn for this GPU, or choose a Hopper GPU (H100, H200, "
     "H800) for FlashAttention-3."},
    {"cpu_offload_cost",
     "Offload less: fewer activation layers, or keep the optimizer on the GPU with more ZeRO sharding (a "
     "higher stage or more DP ranks); or spend the memory on recompute instead."},
    {"host_memory_exceeded",
     "Offload fewer activation layers, or keep the optimizer on the GPU; or, if the hosts have more memory "
     "than the preset's, set the GPU's Host memory to their share."},
    {"fsdp_stage_kept_gathered", ""},
    {"gpipe_holds_all_micro_batches",
     "Use the 1F1B schedule (pipeline_schedule 1f1b): the same bubble at the memory of min(p, m) micro "
     "batches; or fewer, larger micro batches."},
    {"schedule_not_in_framework",
     "Plan with pipeline_schedule 1f1b for Megatron-LM, or run the plan with torchtitan "
     "(torch.distributed.pipelining), which has the schedule."},
    {"long_checkpoint_write", "Write checkpoints asynchronously (torch.distributed.checkpoint async_save, "
                              "Megatron-LM --async-save) or "
                              "to host memory first, or raise the storage bandwidth per node."},
    {"low_goodput", "Shorten the time lost per failure: asynchronous or in-memory checkpoints (a shorter "
                    "interval for the same overhead) and a faster restart (hot spares, a warm job)."},
    {"past_deadline", "Use more GPUs (higher DP), a faster layout, fewer tokens, or a later deadline."},
    {"heads_not_divisible_by_tp",
     "Choose a TP that divides the number of heads (usually a power of two up to 8)."},
    {"kv_heads_not_divisible_by_tp",
     "Choose a TP that divides the number of heads (usually a power of two up to 8)."},
    {"layers_not_divisible_by_pp",
     "Choose PP x virtual stages no larger than the number of layers (ideally a divisor of it), or up to 2 "
     "more with the pipeline split 'embedding_and_loss'."},
    {"gpu_count_mismatch",
     "Adjust DP (or the node count) so that TP x PP x CP x DP equals the GPUs in the cluster."},
    {"batch_not_divisible",
     "Raise the accumulation steps to a multiple of PP, or turn interleaving off (1 virtual stage)."},
    {"seq_not_divisible_by_cp", "Choose CP so that 2 x CP divides the sequence length."},
    {"experts_not_divisible_by_ep",
     "Choose an EP that divides the number of experts (EP 1 for dense models)."},
    {"ep_does_not_divide_dp",
     "Choose an EP that divides DP x CP (experts split by TP), or TP x CP x DP with expert TP 1 (whole "
     "experts); leave the expert TP on auto to get the largest that fits."},
    {"shard_degree_does_not_divide_dp", "Choose a shard degree that divides DP (for example the GPUs of one "
                                        "node / TP), or 0 to shard over all DP ranks."},
    {"gpipe_with_virtual_stages",
     "Set virtual stages (vpp) to 1 for GPipe, or choose pipeline_schedule 1f1b or zb_h1 for interleaving."},
    {"invalid_value", "Correct the value in the scenario."},
}};

const DiagnosticText& textOf(DiagnosticId id) {
    return kTexts[static_cast<std::size_t>(id)];
}

constexpr std::array<const char*, 5> kComponentNames = {"weights", "gradients", "optimizer state",
                                                        "activations", "overheads"};

// "The <group> is larger than the NVLink domain<what follows>": the TP, EP and CP groups' messages.
std::string largerThanNvlink(const std::string& group, const std::string& consequence) {
    return "The " + group + " is larger than the NVLink domain" + consequence;
}

// "the network", naming its cards where the cluster states them.
std::string theNetwork(const std::string& network) {
    return network.empty() ? "the network" : "the network (" + network + ")";
}

// One message per kind of diagnostic; `ms` is its cost per step in milliseconds.
std::string message(const diagnostic::TpOverSlowLinks& f, double ms, MemoryUnit) {
    return largerThanNvlink(lp::format("tensor-parallel group (TP {})", f.tp),
                            lp::format(" ({} GPUs): its all-reduces cross {} and cost {:.1f} ms per step.",
                                       f.nvlinkDomain, theNetwork(f.network), ms));
}
std::string message(const diagnostic::PipelineBubble& f, double ms, MemoryUnit) {
    if (f.schedule == PipelineSchedule::ZeroBubbleH1)
        return lp::format("The pipeline bubble is {:.1f}% of the step: {:.1f} ms per step with idle GPUs "
                          "(ZB-H1: (p-1)(T_F + T_B - T_W) over v, {:.1f}% of the bubble-free pipeline time, "
                          "with {} micro batches).",
                          100.0 * f.shareOfStep, ms, 100.0 * f.bubbleFraction, f.microBatches);
    return lp::format(
        "The pipeline bubble is {:.1f}% of the step: {:.1f} ms per step with idle GPUs "
        "({:.1f}% of the bubble-free pipeline time: {} micro batches through the slowest stage).",
        100.0 * f.shareOfStep, ms, 100.0 * f.bubbleFraction, f.microBatches);
}
std::string message(const diagnostic::LoaderNotPrefetching&, double ms, MemoryUnit) {
    return lp::format(
        "The data loader does not prefetch: loading the next batch stalls every step for {:.1f} ms.", ms);
}
std::string message(const diagnostic::Stragglers& f, double ms, MemoryUnit) {
    return lp::format(
        "The slowest rank is {:.0f}% slower than the rest and sets the pace: {:.1f} ms per step.",
        100.0 * f.slowdown, ms);
}
std::string message(const diagnostic::ShardingTrafficContendsWithTp& f, double ms, MemoryUnit) {
    return lp::format("ZeRO/FSDP sharding traffic and tensor-parallel collectives share the same network "
                      "cards{}; each gets "
                      "a share of the bandwidth ({:.1f} ms per step of exposed sharding traffic).",
                      f.network.empty() ? "" : " (" + f.network + ")", ms);
}
std::string message(const diagnostic::MfuBelow20& f, double, MemoryUnit) {
    return lp::format("MFU is {:.0f}%, under 20%: something is wrong with this layout or setup (well-tuned "
                      "pretraining reaches 35-55%).",
                      100.0 * f.mfu);
}
std::string message(const diagnostic::DoesNotFit& f, double, MemoryUnit unit) {
    const auto component = static_cast<std::size_t>(f.largestComponent) % kComponentNames.size();
    return lp::format("Does not fit: pipeline stage {} needs {} of the GPU's {}; its largest part is the {}.",
                      f.stage, bytesIn(f.totalBytes, unit, 1), bytesIn(f.capacityBytes, unit, 1),
                      kComponentNames[component]);
}
std::string message(const diagnostic::ExposedDpComm& f, double ms, MemoryUnit) {
    std::string text =
        lp::format("Data-parallel gradient communication is not hidden behind the backward pass: "
                   "{:.1f} ms per step ({:.0f}% of the step).",
                   ms, 100.0 * f.shareOfStep);
    if (!f.network.empty())
        text += " Across nodes it runs on " + f.network + ".";
    const diagnostic::DpRing& r = f.ring;
    if (r.ranks < 2)
        return text;
    std::string perModule;
    if (r.gathersPerLayer > 1)
        perModule = lp::format(", {:.3g} of them per layer pass (DeepSpeed ZeRO-3 gathers module by module)",
                               r.gathersPerLayer);
    if (r.treeHops > 0)
        text +=
            lp::format(" Each collective is an all-reduce over {} ranks on NCCL's tree, faster there than "
                       "its ring, at {:.0f}% of the link's bandwidth, with {} hops of latency ({:.2f} ms "
                       "per collective, where the ring has {} steps): ",
                       fmt::fixed(r.ranks, 0), 100.0 * r.efficiency, r.treeHops, 1e3 * r.latencySeconds,
                       fmt::fixed(2 * (r.ranks - 1), 0));
    else
        text += lp::format(" Each collective is a ring over {} ranks moving {} per step at {:.0f}% of the "
                           "link's bandwidth, with {} steps of latency ({:.2f} ms per collective){}: ",
                           fmt::fixed(r.ranks, 0), fmt::messageBytes(r.chunkBytes), 100.0 * r.efficiency,
                           fmt::fixed(r.ranks - 1, 0), 1e3 * r.latencySeconds, perModule);
    switch (diagnostic::ringCostDriver(r)) {
    case diagnostic::RingCostDriver::Latency:
        return text + (r.treeHops > 0 ? "the tree's latency dominates." : "the ring's latency dominates.");
    case diagnostic::RingCostDriver::SmallChunks:
        return text + (r.treeHops > 0 ? "its messages are too small to use the bandwidth."
                                      : "its chunks are too small to use the bandwidth.");
    case diagnostic::RingCostDriver::Bandwidth:
        break;
    }
    return text + "the bandwidth dominates.";
}
std::string message(const diagnostic::EpCrossesNodes& f, double ms, MemoryUnit) {
    return largerThanNvlink(
        lp::format("expert-parallel group (expert TP {} x EP {} = {} GPUs)", f.expertTp, f.ep,
                   f.expertTp * f.ep),
        lp::format(": token all-to-alls cross {} and cost {:.1f} ms per step.", theNetwork(f.network), ms));
}
std::string message(const diagnostic::SmallExpertBatches& f, double, MemoryUnit) {
    return lp::format("Each expert sees only about {:.0f} tokens per micro batch: its GEMMs are small and "
                      "run far from peak.",
                      f.tokensPerExpert);
}
std::string message(const diagnostic::CpExchangeExposed& f, double ms, MemoryUnit) {
    return lp::format("The context-parallel exchange of keys and values is not hidden behind attention: "
                      "{:.1f} ms per step ({:.0f}% of the step). Each rank holds {:.0f} tokens",
                      ms, 100.0 * f.shareOfStep, f.tokensPerRank) +
           (f.hidingTokens > 0
                ? lp::format("; the exchange hides only above about {:.0f} tokens per rank.", f.hidingTokens)
                : std::string("."));
}
std::string message(const diagnostic::CpCrossesNodes& f, double ms, MemoryUnit) {
    return largerThanNvlink(lp::format("context-parallel group (TP {} x CP {} GPUs)", f.tp, f.cp),
                            lp::format(": the key/value exchange crosses {} ({:.1f} ms per step exposed).",
                                       theNetwork(f.network), ms));
}
std::string message(const diagnostic::UnevenPipelineStages& f, double ms, MemoryUnit) {
    return lp::format("The {} layers do not split evenly into {} pipeline chunks: the busiest rank holds {} "
                      "layers and sets the pace for the others (about {:.1f} ms per step).",
                      f.layers, f.chunks, f.busiestRankLayers, ms);
}
std::string message(const diagnostic::LittleMemoryHeadroom& f, double, MemoryUnit unit) {
    return lp::format(
        "Only {} ({:.1f}%) of the GPU's memory is left on pipeline stage {}: near the limit "
        "PyTorch's caching allocator frees its cache and retries allocations, each retry synchronising the "
        "GPU, which can slow the step far beyond this plan (whose memory is accurate to about 5%).",
        bytesIn(f.headroomBytes, unit, 1), 100.0 * f.headroomShare, f.stage);
}
std::string message(const diagnostic::EmbeddingAndLossInPipelineSplit& f, double, MemoryUnit) {
    return lp::format(
               "The pipeline split counts the embedding and the loss as one layer each ({} layers + 2 over "
               "PP {}): the first and the last rank hold {} layers beside the embedding and the output layer",
               f.layers, f.pp, f.firstRankLayers) +
           (f.pp > 2 ? lp::format(", the others {}.", f.firstRankLayers + 1) : std::string(".")) +
           " Megatron-LM: --account-for-embedding-in-pipeline-split --account-for-loss-in-pipeline-split.";
}
std::string message(const diagnostic::UnfusedSoftmax& f, double ms, MemoryUnit) {
    return lp::format(
        "Megatron's fused softmax kernel does not take this shape (micro batch x heads per TP rank = {:.0f}, "
        "sequence {}): the attention softmax falls back to PyTorch's in fp32, with four more kernels per "
        "layer and pass and about ten times the memory traffic: {:.1f} ms per step.",
        f.rows, f.seqLen, ms);
}
std::string message(const diagnostic::Fp8NotSupported&, double, MemoryUnit) {
    return "FP8 training asked for, but this GPU has no FP8 tensor cores (FP8 needs Hopper, Ada or "
           "Blackwell): planned in bf16, as Transformer Engine falls back to it.";
}
std::string message(const diagnostic::AttentionKernelNotSupported& f, double, MemoryUnit) {
    return lp::format("attention_kernel {} asked for, but this GPU's profile has no figures for it "
                      "(FlashAttention-3 runs on Hopper only): planned with {}, this GPU's fused attention.",
                      toString(f.asked), toString(f.timed));
}
std::string message(const diagnostic::CpuOffloadCost& f, double ms, MemoryUnit) {
    return lp::format("CPU offloading costs {:.1f} ms per step ({:.0f}% of the step): {:.1f} ms of "
                      "activation copies the compute does not hide and {:.1f} ms for the optimizer on the "
                      "CPU with its copies over the host link.",
                      ms, 100.0 * f.shareOfStep, 1e3 * f.activationCopySeconds, 1e3 * f.cpuOptimizerSeconds);
}
std::string message(const diagnostic::HostMemoryExceeded& f, double, MemoryUnit unit) {
    return lp::format(
        "CPU offloading keeps {} per GPU in host memory, more than the GPU's share of its host's memory "
        "({}): a node of {} GPUs would need {} of pinned host memory.",
        bytesIn(f.hostBytesPerGpu, unit, 1), bytesIn(f.hostShareBytes, unit, 1), f.gpusPerNode,
        bytesIn(f.hostBytesPerGpu * f.gpusPerNode, unit, 1));
}
std::string message(const diagnostic::FsdpStageKeptGathered& f, double ms, MemoryUnit unit) {
    std::string text = lp::format("FSDP under the pipeline keeps stage {}'s weights gathered ({}) and its "
                                  "gradients unsharded in {}-byte values ({}) across the micro batches: "
                                  "{:.0f}% of the stage's {}.",
                                  f.stage, bytesIn(f.weightsBytes, unit, 1),
                                  fmt::fixed(f.gradientBytesPerParam, 0), bytesIn(f.gradientsBytes, unit, 1),
                                  100.0 * (f.weightsBytes + f.gradientsBytes) / std::max(f.totalBytes, 1.0),
                                  bytesIn(f.totalBytes, unit, 1));
    if (ms > 0)
        text += lp::format(" Its gradients are reduced after its last backward, with no compute left to hide "
                           "behind: {:.1f} ms per step ({:.0f}% of the step).",
                           ms, 100.0 * f.reduceShareOfStep);
    return text;
}
std::string message(const diagnostic::GpipeHoldsAllMicroBatches& f, double, MemoryUnit unit) {
    return lp::format("GPipe holds all {} micro batches' activations on every stage; 1F1B would hold at most "
                      "{} (PP) on the first stage: {} more there.",
                      f.microBatches, f.pp, bytesIn(f.extraBytes, unit, 1));
}
std::string message(const diagnostic::ScheduleNotInFramework& f, double, MemoryUnit) {
    return lp::format(
        "Megatron-LM has no {} pipeline schedule (it runs 1F1B, interleaved with virtual "
        "stages); torchtitan (torch.distributed.pipelining) has it. The plan times {} as asked.",
        f.schedule == PipelineSchedule::GPipe ? "GPipe" : "zero-bubble (ZB-H1)", toString(f.schedule));
}
std::string message(const diagnostic::LongCheckpointWrite& f, double, MemoryUnit) {
    return lp::format(
        "Writing a checkpoint takes {:.0f} s, {:.0f}% of the {:.0f}-minute checkpoint interval: "
        "training waits for it every time.",
        f.writeSeconds, 100.0 * f.share, f.intervalSeconds / 60.0);
}
std::string message(const diagnostic::LowGoodput& f, double, MemoryUnit) {
    return lp::format("Goodput is {:.0f}%: about {:.1f} interruptions a day, each losing {:.0f} minutes "
                      "(half a checkpoint interval and the restart), and the checkpoints' own time.",
                      100.0 * f.goodput, f.interruptionsPerDay, f.lostPerFailureSeconds / 60.0);
}
std::string message(const diagnostic::PastDeadline& f, double, MemoryUnit) {
    return lp::format("The run takes {:.1f} days of wall clock, past the deadline of {:.1f} days.",
                      f.wallClockDays, f.deadlineDays);
}
std::string message(const diagnostic::HeadsNotDivisibleByTp& f, double, MemoryUnit) {
    return lp::format("TP {} does not divide the {} attention heads.", f.tp, f.heads);
}
std::string message(const diagnostic::KvHeadsNotDivisibleByTp& f, double, MemoryUnit) {
    return lp::format("TP {} does not divide the {} key/value heads.", f.tp, f.kvHeads);
}
std::string message(const diagnostic::LayersNotDivisibleByPp& f, double, MemoryUnit) {
    if (f.countsEmbeddingAndLoss)
        return lp::format("{} layers, with the embedding and the loss counted as one layer each ({} units), "
                          "cannot fill PP x virtual stages = {} chunks: every chunk needs at least one unit.",
                          f.layers, f.layers + 2, f.chunks);
    return lp::format(
        "{} layers cannot fill PP x virtual stages = {} chunks: every chunk needs at least one layer.",
        f.layers, f.chunks);
}
std::string message(const diagnostic::GpuCountMismatch& f, double, MemoryUnit) {
    return "TP x PP x CP x DP = " + fmt::fixed(static_cast<double>(f.layoutGpus), 0) +
           " GPUs, but the cluster has " + fmt::fixed(static_cast<double>(f.clusterGpus), 0) + ".";
}
std::string message(const diagnostic::BatchNotDivisible& f, double, MemoryUnit) {
    return lp::format("Interleaved stages need the accumulation steps (micro batches per step) to be a "
                      "multiple of PP: {} micro batches on PP {}.",
                      f.microBatches, f.pp);
}
std::string message(const diagnostic::SeqNotDivisibleByCp& f, double, MemoryUnit) {
    return lp::format("The sequence length {} is not divisible by 2 x CP = {} (causal load balancing).",
                      f.seqLen, f.twiceCp);
}
std::string message(const diagnostic::ExpertsNotDivisibleByEp& f, double, MemoryUnit) {
    if (f.experts <= 0)
        return lp::format("EP {} needs a mixture-of-experts model; this model is dense.", f.ep);
    return lp::format("EP {} does not divide the {} experts.", f.ep, f.experts);
}
std::string message(const diagnostic::EpDoesNotDivideDp& f, double, MemoryUnit) {
    if (f.expertTp > 0)
        return lp::format(
            "EP {} x expert TP {} must divide TP x CP x DP = {}, and the expert TP must divide TP (the "
            "expert layers regroup a stage's TP x CP x DP ranks as expert TP x EP x expert DP).",
            f.ep, f.expertTp, f.tpCpDp);
    return lp::format("EP {} must divide TP x CP x DP = {} (the expert layers regroup a stage's TP x CP x DP "
                      "ranks as expert TP x EP x expert DP).",
                      f.ep, f.tpCpDp);
}
std::string message(const diagnostic::ShardDegreeDoesNotDivideDp& f, double, MemoryUnit) {
    return lp::format("The ZeRO shard degree {} does not divide DP {}: hybrid sharding needs whole replicas "
                      "of the shard group.",
                      f.shardDegree, f.dp);
}
std::string message(const diagnostic::GpipeWithVirtualStages& f, double, MemoryUnit) {
    return lp::format("pipeline_schedule gpipe runs one stage per rank, but vpp (virtual stages) is {}: "
                      "torch's ScheduleGPipe is a single-stage schedule.",
                      f.vpp);
}
std::string message(const diagnostic::InvalidValue& f, double, MemoryUnit) {
    using diagnostic::InvalidPart;
    const auto where = [](InvalidPart part) -> std::string_view {
        switch (part) {
        case InvalidPart::Model:
            return "the model's sizes (layers, hidden, heads, KV heads, MLP, vocabulary, sequence length, "
                   "head size)";
        case InvalidPart::Layout:
            return "the layout (TP, PP, DP, CP, EP, virtual stages, micro batch, accumulation)";
        case InvalidPart::Cluster:
            return "the cluster (nodes, GPUs per node, NVLink domain, the GPU's peak, memory and bandwidths, "
                   "host link and host memory bandwidth, latencies)";
        case InvalidPart::Training:
            return "the training options (ZeRO stage 0-3, shard degree, loader throughput, straggler "
                   "slowdown, allocator reserve, MoE load imbalance, token budget, offloaded activation "
                   "layers 0 to the model's layers)";
        case InvalidPart::Moe:
            return "the mixture-of-experts settings (experts, top-k, expert MLP size, MoE layers, capacity "
                   "factor)";
        case InvalidPart::Mla:
            return "the latent-attention (MLA) settings or the head size";
        }
        return "the scenario";
    };
    return lp::format("A size is zero, negative, not a number or out of range in {} (code {}).",
                      where(f.part), static_cast<int>(f.part));
}

// Suggestions worded from the figures; the others are the fixed texts above.
template <typename Figures> std::string suggestion(const Figures&) {
    return std::string(textOf(Figures::kId).suggestion);
}
std::string suggestion(const diagnostic::FsdpStageKeptGathered& f) {
    std::string text = "Spread the weights over more GPUs (more PP or TP: fewer parameters per stage)";
    if (f.gradientBytesPerParam >= 4)
        text += ", reduce gradients in bf16 (FSDP2's reduce_dtype, Gradients 'half': 2 bytes instead of 4)";
    return text + ", or shard without the pipeline (FSDP alone reshards each layer after use); hybrid "
                  "sharding within a node shortens the reduction after the last backward.";
}
std::string suggestion(const diagnostic::TpOverSlowLinks& f) {
    return lp::format("Keep TP within a node: use TP <= {} and move the rest into PP or DP.", f.nvlinkDomain);
}
} // namespace

diagnostic::RingCostDriver diagnostic::ringCostDriver(const DpRing& ring) {
    if (ring.latencySeconds > ring.bandwidthSeconds)
        return RingCostDriver::Latency;
    // Under half the link's bandwidth: the chunks sit well below the curve's half-efficiency size.
    if (ring.efficiency < 0.5)
        return RingCostDriver::SmallChunks;
    return RingCostDriver::Bandwidth;
}

namespace {

std::string suggestion(const diagnostic::ExposedDpComm& f) {
    std::string text =
        "Overlap gradient reduction with the backward pass, or use fewer, larger micro batches.";
    if (f.hybridShardDegree > 0)
        text = lp::format(
            "Overlap gradient reduction with the backward pass, use fewer, larger micro batches, or "
            "shard within a node (hybrid sharding: shard degree {}, --shard-degree).",
            f.hybridShardDegree);
    if (f.ring.gathersPerLayer > 1)
        text +=
            " A trainer that gathers whole layers (FSDP/FSDP2: zero3_gather layer) pays the ring's latency "
            "once per layer instead of once per module.";
    return text;
}

} // namespace

std::string_view diagnosticIdString(DiagnosticId id) {
    return textOf(id).id;
}

bool isInvalidLayoutId(DiagnosticId id) {
    return static_cast<int>(id) >= static_cast<int>(DiagnosticId::HeadsNotDivisibleByTp);
}

std::string diagnosticMessage(const Diagnostic& d, MemoryUnit unit) {
    const double ms = d.costSeconds * 1e3;
    return std::visit([ms, unit](const auto& figures) { return message(figures, ms, unit); }, d.figures);
}

std::string diagnosticSuggestion(const Diagnostic& d) {
    return std::visit([](const auto& figures) { return suggestion(figures); }, d.figures);
}

Severity shownSeverity(const Diagnostic& d) {
    return d.id == DiagnosticId::DoesNotFit ? Severity::Error : d.severity;
}

std::vector<const Diagnostic*> orderedDiagnostics(const std::vector<Diagnostic>& diagnostics) {
    std::vector<const Diagnostic*> out;
    out.reserve(diagnostics.size());
    for (const Diagnostic& d : diagnostics)
        out.push_back(&d);
    const auto cost = [](const Diagnostic* d) {
        return std::isfinite(d->costSeconds) ? d->costSeconds : 0.0;
    };
    std::stable_sort(out.begin(), out.end(), [&cost](const Diagnostic* a, const Diagnostic* b) {
        const Severity sa = shownSeverity(*a), sb = shownSeverity(*b);
        if (sa != sb)
            return static_cast<int>(sa) > static_cast<int>(sb);
        return cost(a) > cost(b);
    });
    return out;
}

} // namespace lp::core
