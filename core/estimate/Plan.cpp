#include "core/estimate/Plan.h"

#include "core/model/Units.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <string>

namespace lp::core {
namespace {

constexpr std::array<std::string_view, kDiagnosticCount> kIds = {
    "tp_over_slow_links",
    "pipeline_bubble",
    "loader_not_prefetching",
    "stragglers",
    "sharding_traffic_contends_with_tp",
    "mfu_below_20",
    "does_not_fit",
    "exposed_dp_comm",
    "ep_crosses_nodes",
    "small_expert_batches",
    "cp_exchange_exposed",
    "cp_crosses_nodes",
    "uneven_pipeline_stages",
    "little_memory_headroom",
    "embedding_and_loss_in_pipeline_split",
    "unfused_softmax",
    "fp8_not_supported",
    "cpu_offload_cost",
    "host_memory_exceeded",
    "heads_not_divisible_by_tp",
    "kv_heads_not_divisible_by_tp",
    "layers_not_divisible_by_pp",
    "gpu_count_mismatch",
    "batch_not_divisible",
    "seq_not_divisible_by_cp",
    "experts_not_divisible_by_ep",
    "ep_does_not_divide_dp",
    "shard_degree_does_not_divide_dp",
    "invalid_value",
};

std::string fmt(const char* f, double a = 0, double b = 0, double c = 0) {
    char buf[512];
    std::snprintf(buf, sizeof buf, f, a, b, c);
    return buf;
}

std::string pct(double x) {
    return fmt("%.0f%%", 100.0 * x);
}

constexpr std::array<const char*, 5> kComponentNames = {"weights", "gradients", "optimizer state",
                                                        "activations", "overheads"};

} // namespace

std::string_view diagnosticIdString(DiagnosticId id) {
    return kIds[static_cast<std::size_t>(id)];
}

bool isInvalidLayoutId(DiagnosticId id) {
    return static_cast<int>(id) >= static_cast<int>(DiagnosticId::HeadsNotDivisibleByTp);
}

bool Plan::has(DiagnosticId id) const {
    for (const auto& d : diagnostics)
        if (d.id == id)
            return true;
    return false;
}

const StageMemory* MemoryPlan::worst() const {
    if (stages.empty())
        return nullptr;
    const int last = static_cast<int>(stages.size()) - 1;
    return &stages[static_cast<std::size_t>(std::clamp(worstStage, 0, last))];
}

double MemoryPlan::worstTotalBytes() const {
    const StageMemory* w = worst();
    return w ? w->totalBytes : 0.0;
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

std::string diagnosticMessage(const Diagnostic& d) {
    const double ms = d.costSeconds * 1e3;
    switch (d.id) {
    case DiagnosticId::TpOverSlowLinks:
        return fmt("The tensor-parallel group (TP %.0f) is larger than the NVLink domain (%.0f GPUs): its "
                   "all-reduces cross the network and cost %.1f ms per step.",
                   d.a, d.b, ms);
    case DiagnosticId::PipelineBubble:
        return fmt(
            "The pipeline bubble is %.1f%% of the pipeline time ((p-1)/(v*m) with %.0f micro batches): "
            "%.1f ms per step with idle GPUs.",
            100.0 * d.a, d.b, ms);
    case DiagnosticId::LoaderNotPrefetching:
        return fmt("The data loader does not prefetch: loading the next batch stalls every step for %.1f ms.",
                   ms);
    case DiagnosticId::Stragglers:
        return fmt("The slowest rank is %.0f%% slower than the rest and sets the pace: %.1f ms per step.",
                   100.0 * d.a, ms);
    case DiagnosticId::ShardingTrafficContendsWithTp:
        return fmt(
            "ZeRO/FSDP sharding traffic and tensor-parallel collectives share the same network cards; each "
            "gets a share of the bandwidth (%.1f ms per step of exposed sharding traffic).",
            ms);
    case DiagnosticId::MfuBelow20:
        return "MFU is " + pct(d.a) +
               ", under 20%: something is wrong with this layout or setup (well-tuned "
               "pretraining reaches 35-55%).";
    case DiagnosticId::DoesNotFit:
        return fmt("Does not fit: pipeline stage %.0f needs %.1f GiB of the GPU's %.1f GiB", d.a, d.b / kGiB,
                   d.c / kGiB) +
               "; its largest part is the " +
               kComponentNames[static_cast<std::size_t>(d.component) % kComponentNames.size()] + ".";
    case DiagnosticId::ExposedDpComm:
        return fmt(
            "Data-parallel gradient communication is not hidden behind the backward pass: %.1f ms per step "
            "(%.0f%% of the step).",
            ms, 100.0 * d.a);
    case DiagnosticId::EpCrossesNodes:
        return fmt(
            "The expert-parallel group (TP %.0f x EP %.0f GPUs) is larger than the NVLink domain: token "
            "all-to-alls cross the network and cost %.1f ms per step.",
            d.a, d.b, ms);
    case DiagnosticId::SmallExpertBatches:
        return fmt("Each expert sees only about %.0f tokens per micro batch: its GEMMs are small and run far "
                   "from peak.",
                   d.a);
    case DiagnosticId::CpExchangeExposed:
        return fmt("The context-parallel exchange of keys and values is not hidden behind attention: %.1f ms "
                   "per step (%.0f%% of the step). Each rank holds %.0f tokens",
                   ms, 100.0 * d.a, d.b) +
               (d.c > 0 ? fmt("; the exchange hides only above about %.0f tokens per rank.", d.c)
                        : std::string("."));
    case DiagnosticId::CpCrossesNodes:
        return fmt("The context-parallel group (TP %.0f x CP %.0f GPUs) is larger than the NVLink domain: "
                   "the key/value "
                   "exchange crosses the network (%.1f ms per step exposed).",
                   d.a, d.b, ms);
    case DiagnosticId::UnevenPipelineStages:
        return fmt("The %.0f layers do not split evenly into %.0f pipeline chunks: the busiest rank holds "
                   "%.0f layers ",
                   d.a, d.b, d.c) +
               fmt("and sets the pace for the others (about %.1f ms per step).", ms);
    case DiagnosticId::EmbeddingAndLossInPipelineSplit:
        return fmt("The pipeline split counts the embedding and the loss as one layer each (%.0f layers + 2 "
                   "over PP "
                   "%.0f): the first and the last rank hold %.0f layers beside the embedding and the output "
                   "layer",
                   d.a, d.b, d.c) +
               (d.b > 2 ? fmt(", the others %.0f.", d.c + 1.0) : std::string(".")) +
               " Megatron-LM: --account-for-embedding-in-pipeline-split "
               "--account-for-loss-in-pipeline-split.";
    case DiagnosticId::UnfusedSoftmax:
        return fmt(
            "Megatron's fused softmax kernel does not take this shape (micro batch x heads per TP rank = "
            "%.0f, "
            "sequence %.0f): the attention softmax falls back to PyTorch's in fp32, with four more kernels "
            "per layer and pass and about ten times the memory traffic: %.1f ms per step.",
            d.a, d.b, ms);
    case DiagnosticId::CpuOffloadCost:
        return fmt("CPU offloading costs %.1f ms per step (%.0f%% of the step): ", ms, 100.0 * d.a) +
               fmt("%.1f ms of activation copies the compute does not hide and %.1f ms for the optimizer on "
                   "the CPU with its copies over the host link.",
                   1e3 * d.b, 1e3 * d.c);
    case DiagnosticId::HostMemoryExceeded:
        return fmt("CPU offloading keeps %.1f GiB per GPU in host memory, more than the GPU's share of its "
                   "host's memory (%.1f GiB): ",
                   d.a / kGiB, d.b / kGiB) +
               fmt("a node of %.0f GPUs would need %.1f GiB of pinned host memory.", d.c, d.a * d.c / kGiB);
    case DiagnosticId::Fp8NotSupported:
        return "FP8 training asked for, but this GPU has no FP8 tensor cores (FP8 needs Hopper, Ada or "
               "Blackwell): "
               "planned in bf16, as Transformer Engine falls back to it.";
    case DiagnosticId::LittleMemoryHeadroom:
        return fmt(
            "Only %.1f GiB (%.1f%%) of the GPU's memory is left on pipeline stage %.0f: near the limit "
            "PyTorch's "
            "caching allocator frees its cache and retries allocations, each retry synchronising the GPU, "
            "which can slow the step far beyond this plan (whose memory is accurate to about 5%%).",
            d.b / kGiB, 100.0 * d.c, d.a);
    case DiagnosticId::ExpertsNotDivisibleByEp:
        if (d.b <= 0)
            return fmt("EP %.0f needs a mixture-of-experts model; this model is dense.", d.a);
        return fmt("EP %.0f does not divide the %.0f experts.", d.a, d.b);
    case DiagnosticId::EpDoesNotDivideDp:
        if (d.c > 0)
            return fmt(
                "EP %.0f x expert TP %.0f must divide TP x CP x DP = %.0f, and the expert TP must divide TP "
                "(the expert layers regroup a stage's TP x CP x DP ranks as expert TP x EP x expert DP).",
                d.a, d.c, d.b);
        return fmt(
            "EP %.0f must divide TP x CP x DP = %.0f (the expert layers regroup a stage's TP x CP x DP ranks "
            "as expert TP x EP x expert DP).",
            d.a, d.b);
    case DiagnosticId::ShardDegreeDoesNotDivideDp:
        return fmt(
            "The ZeRO shard degree %.0f does not divide DP %.0f: hybrid sharding needs whole replicas of the "
            "shard group.",
            d.a, d.b);
    case DiagnosticId::HeadsNotDivisibleByTp:
        return fmt("TP %.0f does not divide the %.0f attention heads.", d.a, d.b);
    case DiagnosticId::KvHeadsNotDivisibleByTp:
        return fmt("TP %.0f does not divide the %.0f key/value heads.", d.a, d.b);
    case DiagnosticId::LayersNotDivisibleByPp:
        if (d.c > 0)
            return fmt(
                "%.0f layers, with the embedding and the loss counted as one layer each (%.0f units), cannot "
                "fill PP x virtual stages = %.0f chunks: every chunk needs at least one unit.",
                d.b, d.b + 2.0, d.a);
        return fmt("%.0f layers cannot fill PP x virtual stages = %.0f chunks: every chunk needs at least "
                   "one layer.",
                   d.b, d.a);
    case DiagnosticId::GpuCountMismatch:
        return fmt("TP x PP x CP x DP = %.0f GPUs, but the cluster has %.0f.", d.a, d.b);
    case DiagnosticId::BatchNotDivisible:
        return fmt(
            "Interleaved stages need the accumulation steps (micro batches per step) to be a multiple of PP: "
            "%.0f micro batches on PP %.0f.",
            d.a, d.b);
    case DiagnosticId::SeqNotDivisibleByCp:
        return fmt("The sequence length %.0f is not divisible by 2 x CP = %.0f (causal load balancing).", d.a,
                   d.b);
    case DiagnosticId::InvalidValue: {
        static constexpr const char* kWhere[] = {
            "",
            "the model's sizes (layers, hidden, heads, KV heads, MLP, vocabulary, sequence length, head "
            "size)",
            "the layout (TP, PP, DP, CP, EP, virtual stages, micro batch, accumulation)",
            "the cluster (nodes, GPUs per node, NVLink domain, the GPU's peak, memory and bandwidths, host "
            "link and host memory bandwidth, latencies)",
            "the training options (ZeRO stage 0-3, shard degree, loader throughput, straggler slowdown, "
            "allocator "
            "reserve, MoE load imbalance, token budget, offloaded activation layers 0 to the model's layers)",
            "the mixture-of-experts settings (experts, top-k, expert MLP size, MoE layers, capacity factor)",
            "the latent-attention (MLA) settings or the head size"};
        const int code = static_cast<int>(d.a);
        const char* where = code >= 1 && code <= 6 ? kWhere[code] : "the scenario";
        return std::string("A size is zero, negative, not a number or out of range in ") + where +
               fmt(" (code %.0f).", d.a);
    }
    }
    return "unknown diagnostic";
}

std::string diagnosticSuggestion(const Diagnostic& d) {
    switch (d.id) {
    case DiagnosticId::TpOverSlowLinks:
        return fmt("Keep TP within a node: use TP <= %.0f and move the rest into PP or DP.", d.b);
    case DiagnosticId::PipelineBubble:
        return "Raise gradient accumulation (more micro batches), use interleaved stages (virtual stages > "
               "1), or lower PP.";
    case DiagnosticId::LoaderNotPrefetching:
        return "Turn on prefetching (more loader workers, pin_memory, prefetch_factor) so loading overlaps "
               "compute.";
    case DiagnosticId::Stragglers:
        return "Find the slow rank (thermal throttling, a bad link, a noisy neighbour) and replace or fix "
               "it.";
    case DiagnosticId::ShardingTrafficContendsWithTp:
        return "Keep TP inside the NVLink domain, or use a lower ZeRO stage / hybrid sharding within a node.";
    case DiagnosticId::MfuBelow20:
        return "Look at the largest non-compute items in the step-time breakdown and the other diagnostics.";
    case DiagnosticId::DoesNotFit:
        return "Raise TP or PP, shard with ZeRO (higher stage), use more recompute or a smaller micro batch.";
    case DiagnosticId::ExposedDpComm:
        return d.b > 0
                   ? fmt("Overlap gradient reduction with the backward pass, use fewer, larger micro "
                         "batches, or "
                         "shard within a node (hybrid sharding: shard degree %.0f, --shard-degree).",
                         d.b)
                   : "Overlap gradient reduction with the backward pass, or use fewer, larger micro batches.";
    case DiagnosticId::EpCrossesNodes:
        return "Keep TP x EP within the NVLink domain (lower EP or TP), or accept the cost for the memory it "
               "saves.";
    case DiagnosticId::SmallExpertBatches:
        return "Raise the micro batch or lower EP so that each expert gets more tokens per GEMM.";
    case DiagnosticId::CpExchangeExposed:
        return "Use fewer CP ranks (longer chunks per rank), keep CP inside the NVLink domain, or raise the "
               "micro batch.";
    case DiagnosticId::CpCrossesNodes:
        return "Keep TP x CP within the NVLink domain: lower TP, or place CP inside a node and DP across "
               "nodes.";
    case DiagnosticId::UnevenPipelineStages:
        return "Choose PP (x virtual stages) that divides the layers, or give the first and last stages "
               "fewer layers "
               "(they also hold the embedding and the head).";
    case DiagnosticId::EmbeddingAndLossInPipelineSplit:
        return "Nothing to change: this balances the first and last stages, which also run the embedding and "
               "the "
               "output layer. Set the pipeline split to 'layers' to plan without it.";
    case DiagnosticId::UnfusedSoftmax:
        return "Make micro batch x heads per TP rank a multiple of 4 (an even micro batch, or a smaller TP) "
               "with a "
               "sequence of 17 to 4096 tokens, or use flash attention.";
    case DiagnosticId::CpuOffloadCost:
        return "Offload less: fewer activation layers, or keep the optimizer on the GPU with more ZeRO "
               "sharding (a higher stage or more DP ranks); or spend the memory on recompute instead.";
    case DiagnosticId::HostMemoryExceeded:
        return "Offload fewer activation layers, or keep the optimizer on the GPU; or, if the hosts have "
               "more memory than the preset's, set the GPU's Host memory to their share.";
    case DiagnosticId::Fp8NotSupported:
        return "Choose bf16 for this GPU, or a GPU with FP8 tensor cores (H100, H200, B200, GB200).";
    case DiagnosticId::LittleMemoryHeadroom:
        return "Keep 5-10% of the memory free: more recompute, a smaller micro batch or more sharding; "
               "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True also reduces fragmentation.";
    case DiagnosticId::ExpertsNotDivisibleByEp:
        return "Choose an EP that divides the number of experts (EP 1 for dense models).";
    case DiagnosticId::EpDoesNotDivideDp:
        return "Choose an EP that divides DP x CP (experts split by TP), or TP x CP x DP with expert TP 1 "
               "(whole "
               "experts); leave the expert TP on auto to get the largest that fits.";
    case DiagnosticId::ShardDegreeDoesNotDivideDp:
        return "Choose a shard degree that divides DP (for example the GPUs of one node / TP), or 0 to shard "
               "over all "
               "DP ranks.";
    case DiagnosticId::HeadsNotDivisibleByTp:
    case DiagnosticId::KvHeadsNotDivisibleByTp:
        return "Choose a TP that divides the number of heads (usually a power of two up to 8).";
    case DiagnosticId::LayersNotDivisibleByPp:
        return "Choose PP x virtual stages no larger than the number of layers (ideally a divisor of it), or "
               "up to "
               "2 more with the pipeline split 'embedding_and_loss'.";
    case DiagnosticId::GpuCountMismatch:
        return "Adjust DP (or the node count) so that TP x PP x CP x DP equals the GPUs in the cluster.";
    case DiagnosticId::BatchNotDivisible:
        return "Raise the accumulation steps to a multiple of PP, or turn interleaving off (1 virtual "
               "stage).";
    case DiagnosticId::SeqNotDivisibleByCp:
        return "Choose CP so that 2 x CP divides the sequence length.";
    case DiagnosticId::InvalidValue:
        return "Correct the value in the scenario.";
    }
    return {};
}

} // namespace lp::core
