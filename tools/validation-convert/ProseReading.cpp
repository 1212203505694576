// The @1 reader's readings of a case's words, step by step in its order, over the case as core plans it
// without them. Each step changes only what the @1 reader changed, and says so in `derived`.
#include "tools/validation-convert/ProseReading.h"

#include "core/io/SettingsJson.h"
#include "core/util/NumberFormat.h"
#include "core/util/Text.h"
#include "tools/validation-convert/CaseHabits.h"
#include "tools/validation-convert/CaseNetwork.h"
#include "tools/validation-convert/CaseNotes.h"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <string_view>

namespace lp::tools {
namespace {

using namespace lp::core;
using json::Json;
using prose::CaseSource;

std::string caseText(const Json& c, const char* key) {
    return c.is_object() && c.contains(key) && c.at(key).is_string() ? c.at(key).get<std::string>() : "";
}

// Whether the case's object `part` states `key` (null is "not stated").
bool states(const Json& c, const char* part, const char* key) {
    return c.contains(part) && c.at(part).is_object() && c.at(part).contains(key) &&
           !c.at(part).at(key).is_null();
}

// The words of `terms` that the (lower-cased) source, notes or id hold, quoted: what a derivation rests on.
std::string wordsFound(const CaseSource& origin, const std::string& id,
                       std::initializer_list<const char*> terms) {
    const std::string all = origin.source + " | " + origin.notes + " | " + asciiLower(id);
    std::string found;
    for (const char* term : terms)
        if (all.find(term) != std::string::npos)
            found += (found.empty() ? "" : ", ") + json::quoteJson(term);
    return found.empty() ? "the trainer the source names and the run's layout" : "the words " + found;
}

// The words each setting that the habits below derive rests on.
std::string evidence(std::string_view key, const CaseSource& origin, const std::string& id) {
    if (key == "torch_compile")
        return wordsFound(origin, id,
                          {"torch.compile", "compile=true", "compile: true", "compile_model",
                           "--training.compile", "--compile", "use_torch_compile", "not compiled",
                           "uncompiled", "compile"});
    if (key == "fused_kernels")
        return wordsFound(origin, id, {"transformer engine", "liger", "te +", "+ te", "te"});
    if (key == "fp8_param_gather")
        return wordsFound(origin, id,
                          {"fp8 all-gather", "float8 all-gather", "fp8 fsdp all-gather", "fp8_param_gather",
                           "fp8-param-gather", "fp8_params", "enable_fsdp_float8_all_gather"});
    if (key == "attention_flops")
        return wordsFound(origin, id, {"megatron-bridge", "automodel"});
    if (key == "cross_entropy" || key == "logits_metric_passes")
        return wordsFound(origin, id, {"llm-foundry", "llmfoundry", "torchtitan", "2023", "2024"});
    if (key == "optimizer_precision")
        return wordsFound(
            origin, id,
            {"automodel", "bf16 moments", "moments in bf16", "exp-avg-dtype bf16", "exp_avg_dtype bf16"});
    if (key == "overlap_dp_comm" || key == "overlap_tp_comm" || key == "grad_precision")
        return wordsFound(origin, id,
                          {"nemo", "megatron-bridge", "dgxc", "mlperf", "mlcommons", "nvidia/megatron-lm",
                           "overlap-grad-reduce", "overlap_grad_reduce", "tp-comm-overlap", "tp_comm_overlap",
                           "grad-reduce-in-bf16", "grad_reduce_in_bf16", "asynctp", "async tp", "async-tp",
                           "async_tp", "enable_async_tensor_parallel"});
    if (key == "overlap_ep_comm" || key == "moe_dispatcher")
        return wordsFound(origin, id,
                          {"moe_a2a_overlap", "overlap_moe_expert_parallel_comm", "ep overlap", "a2a overlap",
                           "dualpipe", "deepep", "hybridep", "flex dispatcher", "technical report"});
    if (key == "remat_policy")
        return wordsFound(origin, id, {"maxtext", "remat_policy"});
    return wordsFound(origin, id,
                      {"torchtitan", "llm-foundry",  "mosaicml",    "composer",  "fms-fsdp",  "automodel",
                       "olmo",       "torchtune",    "litgpt",      "lightning", "tinyllama", "nanogpt",
                       "accelerate", "hugging face", "huggingface", "axolotl",   "nanotron",  "picotron",
                       "openlm",     "deepspeed",    "fsdp",        "pytorch",   "megatron"});
}

// The training keys whose values `after` changed from `before`, each with the words it rests on.
void sayChanges(const TrainingOptions& before, const TrainingOptions& after, const CaseSource& origin,
                const std::string& id, std::vector<std::string>& derived) {
    const Json was = trainingToJson(before);
    const Json now = trainingToJson(after);
    for (auto it = now.begin(); it != now.end(); ++it)
        if (!was.contains(it.key()) || was.at(it.key()) != it.value())
            derived.push_back(it.key() + " " + it.value().dump() + ": from " +
                              evidence(it.key(), origin, id));
}

// The network the notes state, or the machine they name (the @1 reader's applyStatedNetwork).
void readNetwork(const Json& c, ProseReading& out) {
    ClusterSpec& cluster = out.planned.scenario.cluster;
    if (cluster.gpus() <= cluster.gpusPerNode || !(cluster.gpu.networkBandwidth > 0))
        return;
    const Json& hardware = c.at("hardware");
    int statedPerNode = 0;
    if (states(c, "hardware", "gpus_per_node") && hardware.at("gpus_per_node").is_number_integer() &&
        hardware.at("gpus_per_node").get<long long>() >= 1)
        statedPerNode = hardware.at("gpus_per_node").get<int>();
    const int perNode = statedPerNode > 0 ? statedPerNode : cluster.gpusPerNode;
    const std::string family = cluster.gpu.id.substr(0, cluster.gpu.id.find('-'));
    const std::string notes = caseText(c, "notes");
    std::string stated;
    double perGpu = 0;
    const ClusterPreset* machine = nullptr;
    if (const auto net = prose::statedNetwork(notes, perNode, family)) {
        stated =
            "the notes state " + json::quoteJson(net->statement) + (net->perNode ? " per node" : " per GPU");
        perGpu = net->bytesPerSecondPerGpu;
    } else if (const auto named = prose::namedMachine(notes + " " + caseText(c, "source"), family, perNode)) {
        stated = "the notes name the " + named->preset->name + " (" + json::quoteJson(named->asWritten) + ")";
        perGpu = presetNetworkBandwidth(*named->preset);
        machine = named->preset;
    }
    if (!(perGpu > 0) || std::abs(perGpu / cluster.gpu.networkBandwidth - 1) < 0.01)
        return;
    out.derived.push_back("network: " + stated + ", planned with " + fmt::fixed(perGpu / 1e9, 1) +
                          " GB/s per GPU (the " + cluster.gpu.id +
                          " preset's card: " + fmt::fixed(cluster.gpu.networkBandwidth / 1e9, 1) + ")");
    cluster.gpu.networkBandwidth = perGpu;
    out.machine = machine;
    // A named machine is a statement of its whole network: its cards' fabric too, as the preset reads.
    if (machine && machine->network)
        setNetwork(cluster, *machine->network);
}

// The interleaving a pipelined case's notes give where its layout leaves it open.
void readInterleaving(const CaseSource& origin, ProseReading& out) {
    ValidationCase& vc = out.planned;
    if (vc.vppGiven)
        return;
    if (const auto vpp =
            prose::notedVirtualStages(origin.notes, vc.scenario.model.layers, vc.scenario.layout.pp)) {
        vc.scenario.layout.vpp = vpp->first;
        vc.vppGiven = true;
        out.derived.push_back("vpp: " + vpp->second + ", planned with " + std::to_string(vpp->first));
    }
}

// The experts' tensor parallelism the notes give where the layout is silent: without it core takes
// Megatron's default (the experts split as the dense layers, ETP = TP, where that fits), which a recipe that
// sets ETP 1 (whole experts per rank) does not run.
void readExpertTensorParallel(const Json& c, const CaseSource& origin, ProseReading& out) {
    Scenario& s = out.planned.scenario;
    if (states(c, "layout", "etp") || !s.model.isMoe() || s.layout.ep <= 1)
        return;
    const auto etp = prose::notedExpertTensorParallel(origin.notes);
    if (!etp || *etp < 1 || *etp > s.layout.tp || !expertTensorParallelFits(s, static_cast<int>(*etp)))
        return;
    const int otherwise = expertTensorParallel(s);
    s.layout.etp = static_cast<int>(*etp);
    out.derived.push_back("etp " + std::to_string(*etp) +
                          ": the notes state the experts' tensor parallelism (ETP) as " +
                          std::to_string(*etp) + "; without it, planned with " + std::to_string(otherwise));
}

// A trainer's defaults where the layout is silent: sequence parallelism with TP, and full sharding.
void readTrainerDefaults(const Json& c, const CaseSource& origin, ProseReading& out) {
    Scenario& s = out.planned.scenario;
    if (!origin.torchTrainer)
        return;
    if (!states(c, "layout", "sequence_parallel") && s.layout.tp > 1 && !s.training.sequenceParallel) {
        s.training.sequenceParallel = true;
        out.derived.push_back("sequence_parallel true: the source names a PyTorch trainer (" +
                              evidence("", origin, "") + "), whose TP plan shards the sequence");
    }
    if (!states(c, "layout", "zero_stage") && s.training.zeroStage != 3) {
        s.training.zeroStage = 3;
        out.derived.push_back("zero_stage 3: the source names a PyTorch FSDP trainer (" +
                              evidence("", origin, "") + ")");
    }
}

// Recomputation: a "none" the notes call an assumption is searched; the block method's layers and the
// modules the notes name.
void readRecomputation(const Json& c, const CaseSource& origin, ProseReading& out) {
    ValidationCase& vc = out.planned;
    TrainingOptions& t = vc.scenario.training;
    if (vc.recomputeGiven && t.recompute == Recompute::None &&
        prose::notesLeaveOpen(origin.notes, "recomput")) {
        vc.recomputeGiven = false;
        out.derived.push_back(
            "recompute none assumed, the notes say it is not stated: the fastest that fits");
    }
    if (!states(c, "layout", "recompute_layers") && t.recompute == Recompute::Full)
        if (const auto n = prose::notedBlockRecomputeLayers(origin.notes);
            n && *n > 0 && *n < vc.scenario.model.layers) {
            t.recomputeLayers = static_cast<int>(*n);
            out.derived.push_back("recompute_layers: the notes state the block method over " +
                                  std::to_string(*n) + " layers per chunk");
        }
    if (states(c, "layout", "recompute_modules"))
        return;
    const auto modules = prose::statedRecomputeModules(origin.notes);
    if (!modules || (vc.recomputeGiven && t.recompute != Recompute::Selective))
        return;
    // The recipe's recompute_modules mean selective recompute: nothing about recompute is left to the search.
    const auto aboutRecompute = [](const std::string& a) { return a.starts_with("recompute "); };
    if (!vc.recomputeGiven) {
        std::erase_if(vc.adjustments, aboutRecompute);
        std::erase_if(out.derived, aboutRecompute);
    }
    vc.recomputeGiven = true;
    t.recompute = Recompute::Selective;
    t.recomputeModules = *modules;
    out.derived.push_back("recompute_modules: the notes state " + recomputeModulesText(*modules, ", ") +
                          " (selective)");
}

// Hybrid sharding, CPU offloading and a MaxText run's remat policy, where the layout is silent.
void readShardingAndOffload(const Json& c, const CaseSource& origin, ProseReading& out) {
    Scenario& s = out.planned.scenario;
    TrainingOptions& t = s.training;
    if (!states(c, "layout", "zero_shard_degree"))
        if (const auto degree = prose::notedShardDegree(s, origin.notes); degree.first > 0) {
            t.zeroShardDegree = degree.first;
            out.derived.push_back("zero_shard_degree: " + degree.second + ", planned sharded over " +
                                  std::to_string(degree.first) + " of the " + std::to_string(s.layout.dp) +
                                  " DP ranks");
        }
    if (!states(c, "layout", "activation_offload_layers"))
        if (const auto n =
                prose::statedNumber(origin.notes, {"activation_offload_layers", "cpu_offloading_num_layers",
                                                   "cpu-offloading-num-layers"});
            n && *n > 0 && *n <= s.model.layers) {
            t.activationOffloadLayers = static_cast<int>(*n);
            out.derived.push_back("activation_offload_layers: the notes state " + std::to_string(*n) +
                                  " (cpu_offloading_num_layers)");
        }
    if (!states(c, "layout", "optimizer_offload") && prose::statesOptimizerOffload(origin.notes)) {
        t.optimizerOffload = true;
        out.derived.push_back("optimizer_offload: the notes state the optimizer ran on the CPU");
    }
    if (!states(c, "layout", "remat_policy") && origin.names("maxtext")) {
        const TrainingOptions before = t;
        t.rematPolicy = prose::statedRematPolicy(origin.notes).value_or(RematPolicy::Auto);
        sayChanges(before, t, origin, "", out.derived);
    }
}

} // namespace

ProseReading readProse(const Json& caseJson, const ValidationCase& plain) {
    ProseReading out;
    out.planned = plain;
    const std::string id = plain.id;
    const CaseSource origin(caseText(caseJson, "source"), caseText(caseJson, "notes"));
    readNetwork(caseJson, out);
    readInterleaving(origin, out);
    readExpertTensorParallel(caseJson, origin, out);
    readTrainerDefaults(caseJson, origin, out);
    readRecomputation(caseJson, origin, out);
    readShardingAndOffload(caseJson, origin, out);
    // The framework's habits: kernels, loss, optimizer state and communication, as the @1 reader inferred
    // them after the layout (the overlaps start from their defaults, as there).
    Scenario& s = out.planned.scenario;
    const TrainingOptions before = s.training;
    const bool dropout = s.model.dropout;
    s.training.overlapPpComm = false;
    s.training.overlapDpComm = Toggle::Auto;
    s.training.overlapTpComm = Toggle::Auto;
    prose::inferKernels(s, id, origin);
    prose::inferLossAndOptimizer(s, origin);
    prose::inferCommunication(s, origin);
    sayChanges(before, s.training, origin, id, out.derived);
    if (s.model.dropout != dropout)
        out.derived.push_back(
            "model dropout false: the source names llm-foundry, whose MPT trains without it");
    return out;
}

} // namespace lp::tools
