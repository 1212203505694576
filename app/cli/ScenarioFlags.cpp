#include "app/cli/ScenarioFlags.h"

#include "core/io/HfImport.h"
#include "core/io/Presets.h"
#include "core/io/ProfileJson.h"
#include "core/io/ScenarioJson.h"
#include "core/model/Enums.h"
#include "core/model/Limits.h"

#include <array>
#include <functional>
#include <iostream>
#include <string_view>

namespace lp::cli {
namespace {

using core::Scenario;

// The scenario file's limits (core/model/Limits.h), so that every scenario written here reads back.
constexpr int kMaxDegree =
    static_cast<int>(core::limits::kMaxCount); // TP, PP, DP, CP, EP, VPP, nodes, GPUs per node, NVLink domain
constexpr int kMaxCount = static_cast<int>(core::limits::kMaxCount); // micro batch, accumulation
constexpr int kMaxSeqLen = static_cast<int>(core::limits::kMaxWidth);
constexpr double kMaxGpus = 2147483647.0; // total GPUs the planner handles
constexpr double kMaxBatch = 1e15;        // sequences per step
// A network card's limits, as a scenario file's (core/io, "network").
constexpr int kMaxNetworkCards = 10000;
constexpr double kMinCardGbps = 1e-3;
constexpr double kMaxCardGbps = 1e6;

using Setter = std::function<std::expected<void, CliError>(ScenarioOverrides&, const std::string& flag,
                                                           const std::string& value)>;

struct FlagSpec {
    std::string_view name;
    std::string_view metavar;
    std::string_view help;
    Setter set;
};

Setter intSetter(std::optional<int> ScenarioOverrides::*field, int min, int max) {
    return [field, min, max](ScenarioOverrides& o, const std::string& flag,
                             const std::string& v) -> std::expected<void, CliError> {
        auto n = parseInt(flag, v, min, max);
        if (!n)
            return std::unexpected(n.error());
        o.*field = *n;
        return {};
    };
}

// A degree or "auto" (stored as 0).
Setter intOrAutoSetter(std::optional<int> ScenarioOverrides::*field, int max) {
    return [field, max](ScenarioOverrides& o, const std::string& flag,
                        const std::string& v) -> std::expected<void, CliError> {
        if (v == "auto") {
            o.*field = 0;
            return {};
        }
        auto n = parseInt(flag, v, 1, max);
        if (!n)
            return std::unexpected(badValue(flag, "expected auto or a whole number from 1 to " +
                                                      std::to_string(max) + ", got '" + v + "'"));
        o.*field = *n;
        return {};
    };
}

Setter stringSetter(std::optional<std::string> ScenarioOverrides::*field) {
    return [field](ScenarioOverrides& o, const std::string& flag,
                   const std::string& v) -> std::expected<void, CliError> {
        if (v.empty())
            return std::unexpected(badValue(flag, "needs a non-empty value"));
        o.*field = v;
        return {};
    };
}

Setter onOffSetter(std::optional<bool> ScenarioOverrides::*field) {
    return [field](ScenarioOverrides& o, const std::string& flag,
                   const std::string& v) -> std::expected<void, CliError> {
        auto b = parseOnOff(flag, v);
        if (!b)
            return std::unexpected(b.error());
        o.*field = *b;
        return {};
    };
}

template <typename E>
Setter enumSetter(std::optional<E> ScenarioOverrides::*field, std::optional<E> (*parse)(std::string_view),
                  std::string_view choices) {
    return [field, parse, choices](ScenarioOverrides& o, const std::string& flag,
                                   const std::string& v) -> std::expected<void, CliError> {
        auto e = parse(v);
        if (!e)
            return std::unexpected(
                badValue(flag, "expected one of " + std::string(choices) + ", got '" + v + "'"));
        o.*field = *e;
        return {};
    };
}

Setter numberSetter(std::optional<double> ScenarioOverrides::*field, double min, double max) {
    return [field, min, max](ScenarioOverrides& o, const std::string& flag,
                             const std::string& v) -> std::expected<void, CliError> {
        auto n = parseNumber(flag, v, min, max);
        if (!n)
            return std::unexpected(n.error());
        o.*field = *n;
        return {};
    };
}

// "none", or a comma-separated list of Megatron-Core recompute modules.
std::expected<void, CliError> setRecomputeModules(ScenarioOverrides& o, const std::string& flag,
                                                  const std::string& v) {
    if (v == "none") {
        o.recomputeModules = 0u;
        return {};
    }
    std::string bad;
    const auto bits = core::parseRecomputeModules(v, &bad);
    if (!bits || *bits == 0)
        return std::unexpected(badValue(
            flag, (bits ? std::string("names no module") : "unknown module '" + bad + "'") +
                      ": expected none or a comma-separated list of " +
                      core::recomputeModulesText(core::kRecomputeModulesAll, ", ") + ", got '" + v + "'"));
    o.recomputeModules = *bits;
    return {};
}

// "compute-optimal", or a number of tokens.
std::expected<void, CliError> setTokens(ScenarioOverrides& o, const std::string& flag, const std::string& v) {
    if (v == "compute-optimal" || v == "compute_optimal") {
        o.tokenRule = core::TokenRule::ComputeOptimal;
        return {};
    }
    auto n = parseNumber(flag, v, core::limits::kMinTokenBudget, core::limits::kMaxRate);
    if (!n)
        return std::unexpected(
            badValue(flag, "expected compute-optimal or a number of tokens from 1 to 1e18, got '" + v + "'"));
    o.tokenBudget = *n;
    o.tokenRule = core::TokenRule::Tokens;
    return {};
}

// A budget the tokens follow from: the number, and the rule it sets.
Setter budgetSetter(std::optional<double> ScenarioOverrides::*field, core::TokenRule rule, double max) {
    return [field, rule, max](ScenarioOverrides& o, const std::string& flag,
                              const std::string& v) -> std::expected<void, CliError> {
        auto n = parseNumber(flag, v, 1e-9, max);
        if (!n)
            return std::unexpected(n.error());
        o.*field = *n;
        o.tokenRule = rule;
        return {};
    };
}

using O = ScenarioOverrides;

// Every scenario flag, in the order the help lists them.
const FlagSpec kScenarioFlags[] = {
    {"--name", "TEXT", "scenario name", stringSetter(&O::name)},
    {"--model", "NAME", "model preset (see `presets models`)", stringSetter(&O::model)},
    {"--hf-config", "FILE", "model from a Hugging Face config.json (replaces --model)",
     stringSetter(&O::hfConfig)},
    {"--seq-len", "N", "sequence length in tokens", intSetter(&O::seqLen, 1, kMaxSeqLen)},
    {"--cluster", "NAME", "cluster preset (see `presets clusters`)", stringSetter(&O::cluster)},
    {"--gpu", "NAME", "GPU preset (see `presets gpus`)", stringSetter(&O::gpu)},
    {"--nodes", "N", "number of nodes", intSetter(&O::nodes, 1, kMaxDegree)},
    {"--gpus-per-node", "N", "GPUs per node", intSetter(&O::gpusPerNode, 1, kMaxDegree)},
    {"--nvlink-domain", "N", "GPUs joined by NVLink (default: a node)",
     intSetter(&O::nvlinkDomain, 1, kMaxDegree)},
    {"--fabric", "NAME",
     "network between nodes: infiniband, roce, efa, gpudirect-tcpx, omni-path or ethernet-tcp",
     enumSetter(&O::fabric, core::parseFabric,
                "infiniband, roce, efa, gpudirect-tcpx, omni-path, ethernet-tcp")},
    {"--network-cards", "N", "network cards per node", intSetter(&O::networkCards, 1, kMaxNetworkCards)},
    {"--network-gbps", "GBPS", "Gb/s per network card, one direction",
     numberSetter(&O::networkGbps, kMinCardGbps, kMaxCardGbps)},
    {"--rail-optimized", "on|off", "card i of every node on one leaf switch (DGX SuperPOD rails)",
     onOffSetter(&O::railOptimized)},
    {"--network-latency", "SECONDS", "per ring step across the network (default: the fabric's)",
     numberSetter(&O::networkLatency, 0.0, 1.0)},
    {"--tp", "N", "tensor-parallel size", intSetter(&O::tp, 1, kMaxDegree)},
    {"--pp", "N", "pipeline-parallel size", intSetter(&O::pp, 1, kMaxDegree)},
    {"--dp", "N", "data-parallel size", intSetter(&O::dp, 1, kMaxDegree)},
    {"--cp", "N", "context-parallel size", intSetter(&O::cp, 1, kMaxDegree)},
    {"--ep", "N", "expert-parallel size (MoE)", intSetter(&O::ep, 1, kMaxDegree)},
    {"--etp", "N|auto",
     "expert tensor-parallel size (MoE): auto = TP if EP divides DP x CP, else the largest that fits",
     intOrAutoSetter(&O::etp, kMaxDegree)},
    {"--vpp", "N", "virtual pipeline stages per rank (interleaving)", intSetter(&O::vpp, 1, kMaxDegree)},
    {"--micro-batch", "N", "sequences per micro batch", intSetter(&O::microBatch, 1, kMaxCount)},
    {"--accumulation", "N", "micro batches per step per pipeline", intSetter(&O::accumulation, 1, kMaxCount)},
    {"--zero", "N", "ZeRO stage 0-3 (1 = distributed optimizer, 3 = FSDP)", intSetter(&O::zeroStage, 0, 3)},
    {"--shard-degree", "N", "hybrid sharding: DP ranks one copy of the ZeRO state spans (0 = all)",
     intSetter(&O::zeroShardDegree, 0, kMaxDegree)},
    {"--recompute", "MODE", "activation recompute: none|selective|full",
     enumSetter(&O::recompute, &core::parseRecompute, "none, selective, full")},
    {"--recompute-layers", "N",
     "with full recompute: layers of each model chunk recomputed, the rest kept (block method; 0 = all)",
     intSetter(&O::recomputeLayers, 0, kMaxCount)},
    {"--recompute-modules", "LIST",
     "with selective recompute (Megatron style): modules recomputed, comma-separated core_attn, moe_act, "
     "layernorm, mla_up_proj, mlp, moe, shared_experts (Megatron-Core --recompute-modules; default "
     "core_attn; 'none' for none)",
     setRecomputeModules},
    {"--sequence-parallel", "on|off", "sequence parallelism", onOffSetter(&O::sequenceParallel)},
    {"--flash-attention", "on|off", "flash attention", onOffSetter(&O::flashAttention)},
    {"--torch-compile", "on|off",
     "model compiled with torch.compile (fused elementwise kernels; the FSDP style's loss too)",
     onOffSetter(&O::torchCompile)},
    {"--fused-kernels", "on|off",
     "fused norm, rotary and SwiGLU kernels in a PyTorch trainer (Transformer Engine, Liger; the loss "
     "unchanged)",
     onOffSetter(&O::fusedKernels)},
    {"--fp8-param-gather", "on|off",
     "in fp8 training, weights all-gathered as their fp8 casts (ZeRO-3/FSDP layers, the distributed "
     "optimizer's update; torchao float8 all-gather, Megatron --fp8-param-gather)",
     onOffSetter(&O::fp8ParamGather)},
    {"--precision", "P", "bf16|fp16|fp8",
     enumSetter(&O::precision, &core::parsePrecision, "bf16, fp16, fp8")},
    {"--optimizer", "NAME", "adam|sgd", enumSetter(&O::optimizer, &core::parseOptimizer, "adam, sgd")},
    {"--remat-policy", "NAME",
     "with selective recompute: a JAX/MaxText remat policy, the named tensors each layer saves: auto (the "
     "style's own), minimal_with_context (minimal_flash), minimal, save_dot_with_context_except_mlp, "
     "save_dot_except_mlpwi, save_dot_except_mlp, save_qkv_proj, save_out_proj",
     enumSetter(&O::rematPolicy, &core::parseRematPolicy,
                "auto, minimal_with_context, minimal, save_dot_with_context_except_mlp, "
                "save_dot_except_mlpwi, save_dot_except_mlp, save_qkv_proj, save_out_proj")},
    {"--optimizer-precision", "P",
     "optimizer state: fp32 (fp32 master and moments) | bf16_moments (fp32 master, bf16 moments) | bf16 "
     "(bf16 parameters, no master copy)",
     enumSetter(&O::optimizerPrecision, &core::parseOptimizerPrecision, "fp32, bf16_moments, bf16")},
    {"--loader-prefetch", "on|off", "data loader prefetching", onOffSetter(&O::loaderPrefetch)},
    {"--optimizer-offload", "on|off",
     "optimizer state in host memory, the step on the CPU (ZeRO-Offload, --optimizer-cpu-offload)",
     onOffSetter(&O::optimizerOffload)},
    {"--activation-offload-layers", "N",
     "layers of each pipeline stage whose activations wait in host memory (--cpu-offloading-num-layers)",
     intSetter(&O::activationOffloadLayers, 0, kMaxCount)},
    {"--tp-comm-overlap", "on|off|auto",
     "TP collectives overlapped with the GEMMs (AsyncTP); auto: on where NVIDIA's Megatron-Core recipes "
     "overlap them (Megatron style, fp8-capable GPU, sequence parallel)",
     enumSetter(&O::overlapTp, &core::parseToggle, "on, off, auto")},
    {"--pp-comm-overlap", "on|off", "pipeline send/receive overlapped with compute",
     onOffSetter(&O::overlapPp)},
    {"--dp-comm-overlap", "on|off|auto",
     "gradient reduction overlapped with backward; auto: on where NVIDIA's Megatron-Core recipes overlap it "
     "(Megatron style, fp8-capable GPU, distributed optimizer)",
     enumSetter(&O::overlapDp, &core::parseToggle, "on, off, auto")},
    {"--ep-comm-overlap", "on|off", "MoE all-to-alls overlapped with another micro batch's compute",
     onOffSetter(&O::overlapEp)},
    {"--straggler", "X", "slowest rank's extra time as a fraction (0.1 = 10%)",
     numberSetter(&O::straggler, 0.0, core::limits::kMaxStragglerSlowdown)},
    {"--style", "STYLE", "execution style: auto|megatron|fsdp",
     enumSetter(&O::style, &core::parseExecutionStyle, "auto, megatron, fsdp")},
    {"--grad-precision", "P", "gradient buffer and DP reduction: auto|fp32|half",
     enumSetter(&O::gradPrecision, &core::parseGradPrecision, "auto, fp32, half")},
    {"--cross-entropy", "K",
     "loss kernel: auto|unfused|fused|fused_linear|compiled|fused_16bit (logits memory)",
     enumSetter(&O::crossEntropy, &core::parseCrossEntropy,
                "auto, unfused, fused, fused_linear, compiled, fused_16bit")},
    {"--logits-metric-passes", "N",
     "training metrics computed from the logits after each backward, eager fp32 (Composer/llm-foundry: 2)",
     intSetter(&O::logitsMetricPasses, 0, static_cast<int>(core::limits::kMaxLogitsMetricPasses))},
    {"--cp-exchange", "E", "context-parallel K/V exchange: auto|ring|allgather",
     enumSetter(&O::cpExchange, &core::parseCpExchange,
                "auto, ring (alltoall, p2p), allgather (all_gather)")},
    {"--attention-kernel", "K", "attention kernel: auto|flash_attention_2|flash_attention_3|cudnn|unfused",
     enumSetter(&O::attentionKernel, &core::parseAttentionKernel,
                "auto, flash_attention_2 (fa2), flash_attention_3 (fa3), cudnn (te), unfused (math)")},
    {"--moe-dispatcher", "D", "MoE token dispatch across nodes: alltoall|deepep",
     enumSetter(&O::moeDispatcher, &core::parseMoeDispatcher, "alltoall, deepep (flex, hybridep)")},
    {"--pipeline-split", "S", "what the PP split divides: auto|layers|embedding_and_loss",
     enumSetter(&O::pipelineSplit, &core::parsePipelineSplit, "auto, layers, embedding_and_loss")},
    {"--pipeline-schedule", "S", "micro batch order on the pipeline: 1f1b|gpipe|zb_h1",
     enumSetter(&O::pipelineSchedule, &core::parsePipelineSchedule,
                "1f1b (interleaved1f1b), gpipe, zb_h1 (zerobubble)")},
    {"--zero3-gather", "G",
     "ZeRO-3 weight all-gathers: layer (FSDP/FSDP2, one per layer) | module (DeepSpeed ZeRO-3, one per "
     "linear module)",
     enumSetter(&O::zero3Gather, &core::parseZero3Gather, "layer, module")},
    {"--token-budget", "N", "tokens to train, for days and GPU-hours (e.g. 2e12)",
     numberSetter(&O::tokenBudget, core::limits::kMinTokenBudget, core::limits::kMaxRate)},
    {"--tokens", "N|compute-optimal", "tokens to train, or 20 per (active) parameter (Hoffmann et al. 2022)",
     setTokens},
    {"--tokens-per-parameter", "R", "tokens to train: R x the (active) parameters",
     budgetSetter(&O::tokensPerParameter, core::TokenRule::TokensPerParameter, 1e9)},
    {"--compute-budget", "FLOPS", "tokens to train from a compute budget, C = 6 x parameters x tokens",
     budgetSetter(&O::computeBudget, core::TokenRule::Compute, 1e35)},
    {"--days-budget", "D", "tokens to train: what this layout trains in D days of wall clock",
     budgetSetter(&O::daysBudget, core::TokenRule::Days, 1e6)},
    {"--usd-budget", "USD", "tokens to train: what USD buys at the price per GPU-hour",
     budgetSetter(&O::usdBudget, core::TokenRule::Money, 1e15)},
    {"--loss-fit", "FIT", "predicted loss: hoffmann2022|besiroglu2024",
     enumSetter(&O::lossFit, &core::parseLossFit, "hoffmann2022, besiroglu2024")},
    {"--price-per-gpu-hour", "USD", "price per GPU-hour (0 = the cluster or GPU preset's on-demand price)",
     numberSetter(&O::pricePerGpuHour, 0.0, 1e6)},
    {"--board-power", "W", "GPU board power under training load (0 = the GPU preset's)",
     numberSetter(&O::boardPower, 0.0, 1e5)},
    {"--node-overhead", "X", "hosts' power (CPUs, memory, network) as a fraction of the GPUs' (0.82)",
     numberSetter(&O::nodeOverhead, 0.0, 100.0)},
    {"--pue", "X", "data centre power usage effectiveness (1.1)", numberSetter(&O::pue, 1.0, 10.0)},
    {"--gpu-failure-rate", "X", "job interruptions per GPU-hour (Llama 3: 419 in 54 days on 16,384 GPUs)",
     numberSetter(&O::gpuFailureRate, 0.0, 1.0)},
    {"--checkpoint-bandwidth", "GB/s", "storage write bandwidth per node, GB/s (1)",
     numberSetter(&O::checkpointBandwidth, 1e-6, 1e9)},
    {"--restart-time", "S", "seconds from a failure to training again (600)",
     numberSetter(&O::restartSeconds, 0.0, 1e11)},
    {"--async-checkpoint", "on|off",
     "checkpoints written in the background; training pauses for the host copy",
     onOffSetter(&O::asyncCheckpoint)},
    {"--deadline-days", "D", "warn when the run's wall clock is longer (0 = none)",
     numberSetter(&O::deadlineDays, 0.0, 1e6)},
};

std::string unknownPreset(std::string_view kind, const std::string& name) {
    return "unknown " + std::string(kind) + " '" + name + "' (`layout-planner-cli presets " +
           std::string(kind) + "s` lists them)";
}

} // namespace

std::expected<bool, CliError> takeScenarioFlag(ArgCursor& args, ScenarioOverrides& o) {
    if (!args.isOption())
        return false;
    const std::string name(args.peekName());
    for (const auto& spec : kScenarioFlags) {
        if (spec.name != name)
            continue;
        auto value = args.takeValue();
        if (!value)
            return std::unexpected(value.error());
        if (auto r = spec.set(o, name, *value); !r)
            return std::unexpected(r.error());
        o.given.push_back(name);
        return true;
    }
    return false;
}

namespace {

template <typename T> void assign(T& field, const std::optional<T>& value) {
    if (value)
        field = *value;
}

// The model, then its sequence length.
std::expected<void, CliError> applyModel(const ScenarioOverrides& o, Scenario& s) {
    if (o.model) {
        const auto* preset = core::findModelPreset(*o.model);
        if (!preset)
            return std::unexpected(badValue("--model", unknownPreset("model", *o.model)));
        s.model = preset->model;
    }
    if (o.hfConfig) {
        core::HfImportOptions hf;
        hf.preferredSeqLen = o.seqLen.value_or(s.model.seqLen);
        auto imported = core::loadHfConfigFile(*o.hfConfig, hf);
        if (!imported)
            return std::unexpected(
                fileError(*o.hfConfig, "cannot import the Hugging Face config", imported.error()));
        for (const auto& note : imported->notes)
            std::cerr << "note: " << *o.hfConfig << ": " << note << '\n';
        s.model = imported->model;
    }
    assign(s.model.seqLen, o.seqLen);
    return {};
}

// The network flags over the cluster's cards (a preset's, or 8 x 400 Gb/s InfiniBand); without them the
// stated cards keep their per-node figures for the GPUs and node size now set.
void applyNetwork(const ScenarioOverrides& o, core::ClusterSpec& c) {
    if (o.fabric || o.networkCards || o.networkGbps || o.railOptimized) {
        core::NetworkSpec n = c.network.value_or(core::NetworkSpec{});
        assign(n.fabric, o.fabric);
        assign(n.cardsPerNode, o.networkCards);
        assign(n.cardGbps, o.networkGbps);
        assign(n.railOptimized, o.railOptimized);
        const double latency = c.networkLatencySeconds;
        const bool sameFabric = c.network && c.network->fabric == n.fabric;
        core::setNetwork(c, n);
        if (sameFabric)
            c.networkLatencySeconds = latency; // a latency stated before stays
    }
    core::refreshNetworkShare(c);
    assign(c.networkLatencySeconds, o.networkLatency);
}

// The preset's shape, then the GPU, then the counts.
std::expected<void, CliError> applyCluster(const ScenarioOverrides& o, core::ClusterSpec& c) {
    if (o.cluster) {
        const auto* preset = core::findClusterPreset(*o.cluster);
        if (!preset)
            return std::unexpected(badValue("--cluster", unknownPreset("cluster", *o.cluster)));
        c = core::makeCluster(*preset, o.nodes.value_or(c.nodes));
    }
    if (o.gpu) {
        const auto preset = core::resolveGpuPreset(*o.gpu);
        if (!preset)
            return std::unexpected(
                badValue("--gpu", preset.error() + " (`layout-planner-cli presets gpus` lists them)"));
        c.gpu = (*preset)->gpu;
        c.network.reset(); // the GPU's own figure, from its usual server's cards, as before cards were stated
    }
    assign(c.nodes, o.nodes);
    if (o.gpusPerNode) {
        if (!o.nvlinkDomain && c.nvlinkDomain == c.gpusPerNode)
            c.nvlinkDomain = *o.gpusPerNode; // the domain was "a node": keep it so
        c.gpusPerNode = *o.gpusPerNode;
    }
    assign(c.nvlinkDomain, o.nvlinkDomain);
    applyNetwork(o, c);
    if (static_cast<double>(c.nodes) * c.gpusPerNode > kMaxGpus)
        return std::unexpected(badValue(o.nodes ? "--nodes" : "--gpus-per-node",
                                        "the cluster would have " + std::to_string(c.gpus()) +
                                            " GPUs, more than the planner handles (2147483647)"));
    return {};
}

void applyTraining(const ScenarioOverrides& o, core::TrainingOptions& t) {
    assign(t.precision, o.precision);
    assign(t.optimizer, o.optimizer);
    assign(t.optimizerPrecision, o.optimizerPrecision);
    assign(t.zeroStage, o.zeroStage);
    assign(t.zeroShardDegree, o.zeroShardDegree);
    assign(t.recomputeLayers, o.recomputeLayers);
    assign(t.recompute, o.recompute);
    assign(t.recomputeModules, o.recomputeModules);
    assign(t.rematPolicy, o.rematPolicy);
    assign(t.sequenceParallel, o.sequenceParallel);
    assign(t.flashAttention, o.flashAttention);
    assign(t.torchCompile, o.torchCompile);
    assign(t.fusedKernels, o.fusedKernels);
    assign(t.fp8ParamGather, o.fp8ParamGather);
    assign(t.loaderPrefetch, o.loaderPrefetch);
    assign(t.optimizerOffload, o.optimizerOffload);
    assign(t.activationOffloadLayers, o.activationOffloadLayers);
    assign(t.overlapTpComm, o.overlapTp);
    assign(t.overlapPpComm, o.overlapPp);
    assign(t.overlapDpComm, o.overlapDp);
    assign(t.overlapEpComm, o.overlapEp);
    assign(t.stragglerSlowdown, o.straggler);
    assign(t.executionStyle, o.style);
    assign(t.gradPrecision, o.gradPrecision);
    assign(t.crossEntropy, o.crossEntropy);
    assign(t.logitsMetricPasses, o.logitsMetricPasses);
    assign(t.cpExchange, o.cpExchange);
    assign(t.attentionKernel, o.attentionKernel);
    assign(t.pipelineSplit, o.pipelineSplit);
    assign(t.pipelineSchedule, o.pipelineSchedule);
    assign(t.zero3Gather, o.zero3Gather);
    assign(t.moeDispatcher, o.moeDispatcher);
    assign(t.tokenBudget, o.tokenBudget);
}

void applyRun(const ScenarioOverrides& o, core::RunOptions& r) {
    if (o.tokenBudget && !o.tokenRule)
        r.tokenRule = core::TokenRule::Tokens; // --token-budget states the tokens
    assign(r.tokenRule, o.tokenRule);
    assign(r.lossFit, o.lossFit);
    assign(r.tokensPerParameter, o.tokensPerParameter);
    assign(r.computeBudgetFlops, o.computeBudget);
    assign(r.daysBudget, o.daysBudget);
    assign(r.moneyBudgetUsd, o.usdBudget);
    assign(r.pricePerGpuHourUsd, o.pricePerGpuHour);
    assign(r.boardPowerWatts, o.boardPower);
    assign(r.nodeOverheadFraction, o.nodeOverhead);
    assign(r.pue, o.pue);
    assign(r.gpuFailuresPerHour, o.gpuFailureRate);
    if (o.checkpointBandwidth)
        r.checkpointBandwidth = *o.checkpointBandwidth * 1e9;
    assign(r.restartSeconds, o.restartSeconds);
    assign(r.asyncCheckpoint, o.asyncCheckpoint);
    assign(r.deadlineDays, o.deadlineDays);
}

// The degrees and the batch; dp follows a changed cluster when not given.
std::expected<void, CliError> applyLayout(const ScenarioOverrides& o, Scenario& s) {
    auto& l = s.layout;
    assign(l.tp, o.tp);
    assign(l.pp, o.pp);
    assign(l.cp, o.cp);
    assign(l.ep, o.ep);
    assign(l.etp, o.etp);
    assign(l.vpp, o.vpp);
    assign(l.microBatch, o.microBatch);
    assign(l.accumulation, o.accumulation);
    if (o.dp) {
        l.dp = *o.dp;
    } else if (o.nodes || o.gpusPerNode || o.cluster) {
        const double perReplica = static_cast<double>(l.tp) * l.pp * l.cp;
        const long long gpus = s.cluster.gpus();
        if (perReplica >= 1 && perReplica <= static_cast<double>(gpus)) {
            const auto r = static_cast<long long>(perReplica);
            if (gpus % r == 0)
                l.dp = static_cast<int>(gpus / r);
        }
    }
    const double layoutGpus = static_cast<double>(l.tp) * l.pp * l.cp * l.dp;
    if (layoutGpus > kMaxGpus)
        return std::unexpected(
            badValue("layout", "tp x pp x cp x dp is more GPUs than the planner handles (2147483647)"));
    if (static_cast<double>(l.microBatch) * l.accumulation * l.dp > kMaxBatch)
        return std::unexpected(
            badValue("layout", "micro batch x accumulation x dp is larger than the planner handles (1e15)"));
    return {};
}

} // namespace

std::expected<void, CliError> applyOverrides(const ScenarioOverrides& o, Scenario& s) {
    if (auto r = applyModel(o, s); !r)
        return r;
    if (auto r = applyCluster(o, s.cluster); !r)
        return r;
    applyTraining(o, s.training);
    applyRun(o, s.run);
    // The file's rule (docs/formats.md): no more offloaded layers than the model has.
    if (s.training.activationOffloadLayers > s.model.layers)
        return std::unexpected(badValue(o.activationOffloadLayers ? "--activation-offload-layers"
                                        : o.hfConfig              ? "--hf-config"
                                                                  : "--model",
                                        "offloaded activation layers must be from 0 to the model's layers (" +
                                            std::to_string(s.model.layers) + "), got " +
                                            std::to_string(s.training.activationOffloadLayers)));
    if (o.name) // after the model and cluster, which the automatic name follows
        core::setScenarioName(s, *o.name);
    return applyLayout(o, s);
}

namespace {
// A Hugging Face config where a scenario was expected: the flag that reads it, not its missing scenario keys.
CliError hfConfigGiven(const std::string& file) {
    return badValue(file, core::hfConfigNotScenarioText("this file") +
                              "; read it with --hf-config: `layout-planner-cli evaluate --hf-config " + file +
                              "` plans it, `layout-planner-cli scenario --hf-config " + file +
                              " -o scenario.json` writes a scenario with its model");
}
} // namespace

std::expected<Scenario, CliError> buildScenario(const std::optional<std::string>& file,
                                                const ScenarioOverrides& o) {
    Scenario s = core::defaultScenario();
    if (file) {
        auto loaded = core::loadScenarioFile(*file);
        if (!loaded && core::isHfConfigFile(*file))
            return std::unexpected(hfConfigGiven(*file));
        if (!loaded)
            return std::unexpected(fileError(*file, "cannot load the scenario file", loaded.error()));
        s = std::move(*loaded);
    }
    if (auto r = applyOverrides(o, s); !r)
        return std::unexpected(r.error());
    return s;
}

std::expected<core::HardwareProfile, CliError> loadProfileArg(const std::string& file) {
    auto loaded = core::loadProfileFile(file);
    if (!loaded)
        return std::unexpected(fileError(file, "cannot load the hardware profile", loaded.error()));
    return std::move(*loaded);
}

CliError unknownOption(std::string_view command, std::string_view option) {
    return badValue(std::string(option), "unknown option for `" + std::string(command) +
                                             "` (see `layout-planner-cli " + std::string(command) +
                                             " --help`)");
}

std::expected<ScenarioArgs, CliError> parseScenarioArgs(std::string_view command,
                                                        const std::vector<std::string>& argv,
                                                        bool acceptProfile, const ExtraFlagReader& extra) {
    ScenarioArgs out;
    ArgCursor args(argv);
    while (!args.atEnd()) {
        auto took = takeScenarioFlag(args, out.overrides);
        if (!took)
            return std::unexpected(took.error());
        if (*took)
            continue;
        if (extra) {
            auto tookExtra = extra(args);
            if (!tookExtra)
                return std::unexpected(tookExtra.error());
            if (*tookExtra)
                continue;
        }
        const std::string name(args.peekName());
        if (name == "--json") {
            if (auto r = args.takeSwitch(); !r)
                return std::unexpected(r.error());
            out.json = true;
        } else if (name == "--profile" && acceptProfile) {
            auto v = args.takeNonEmptyValue();
            if (!v)
                return std::unexpected(v.error());
            out.profileFile = *v;
        } else if (args.isOption()) {
            return std::unexpected(unknownOption(command, name));
        } else {
            std::string positional = args.take();
            if (out.file)
                return std::unexpected(
                    badValue(positional, "unexpected argument: `" + std::string(command) +
                                             "` takes one scenario file (already given: " + *out.file + ")"));
            out.file = std::move(positional);
        }
    }
    return out;
}

std::expected<ScenarioInput, CliError> readScenario(std::string_view command,
                                                    const std::vector<std::string>& argv, bool acceptProfile,
                                                    const ExtraFlagReader& extra) {
    auto parsed = parseScenarioArgs(command, argv, acceptProfile, extra);
    if (!parsed)
        return std::unexpected(parsed.error());
    auto scenario = buildScenario(parsed->file, parsed->overrides);
    if (!scenario)
        return std::unexpected(scenario.error());
    return ScenarioInput{std::move(*parsed), std::move(*scenario)};
}

std::string scenarioFlagsHelp() {
    std::string out;
    for (const auto& spec : kScenarioFlags) {
        std::string left = "  " + std::string(spec.name) + " " + std::string(spec.metavar);
        if (left.size() < 30)
            left.append(30 - left.size(), ' ');
        else
            left += "  ";
        out += left + std::string(spec.help) + "\n";
    }
    return out;
}

} // namespace lp::cli
