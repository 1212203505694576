#pragma once
// A scenario: what the user plans (model, cluster, training options, layout).
#include "core/model/Enums.h"
#include "core/model/Hardware.h"
#include "core/model/ModelSpec.h"
#include "core/model/RunOptions.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lp::core {

struct TrainingOptions {
    Precision precision = Precision::Bf16;
    Optimizer optimizer = Optimizer::Adam;
    OptimizerPrecision optimizerPrecision = OptimizerPrecision::Fp32; // master copy and moments
    int zeroStage = 1; // 0-3; 1 = Megatron distributed optimizer, 3 = FSDP
    // Hybrid sharding: the data-parallel ranks one copy of the ZeRO/FSDP state is sharded over (FSDP
    // HYBRID_SHARD / torchtitan data_parallel_shard_degree / Megatron distributed-optimizer instances);
    // the state is replicated across DP / this many groups. 0 (or DP and more): shard over all DP ranks.
    int zeroShardDegree = 0;
    Recompute recompute = Recompute::Selective;
    // With full recompute: the layers of each model chunk (a pipeline stage, or a virtual stage when
    // interleaved) that are recomputed, the rest keeping their activations (Megatron-LM --recompute-method
    // block --recompute-num-layers N; NeMo activations_checkpoint_num_layers). 0: every layer.
    int recomputeLayers = 0;
    // With selective recompute in the Megatron style: which modules of each layer are recomputed
    // (Megatron-Core --recompute-modules; RecomputeModule bits). The default is the attention core alone.
    unsigned recomputeModules = kRecomputeModulesDefault;
    // With selective recompute: a JAX/MaxText rematerialization policy (remat_policy), which says which of
    // each layer's named tensors are saved, the rest re-run in the backward. Auto: the execution style's
    // own selective recompute (Megatron's modules above, or the FSDP style's operator policy). A policy
    // takes the place of both.
    RematPolicy rematPolicy = RematPolicy::Auto;
    bool sequenceParallel = true;
    bool flashAttention = true;
    bool loaderPrefetch = true;
    // CPU offloading (docs/estimation.md section "CPU offloading"). The optimizer: the fp32 master weights
    // and moments this GPU holds live in host memory and the step runs on the CPU (DeepSpeed ZeRO-Offload
    // "offload_optimizer", Megatron-LM --optimizer-cpu-offload); with ZeRO 2-3 the held gradient shard goes
    // too.
    bool optimizerOffload = false;
    // Activations: the saved tensors of this many layers of each pipeline stage move to host memory after the
    // layer's forward and come back before its backward, overlapped with compute (Megatron-LM
    // --cpu-offloading
    // --cpu-offloading-num-layers N, Transformer Engine's CPU offload). 0: none.
    int activationOffloadLayers = 0;
    // The model compiled with torch.compile (FSDP style): Inductor fuses the eager elementwise chains
    // (the norm's fp32 upcast, SiLU x mul, rotary, residual adds) as Megatron's fused kernels do.
    bool torchCompile = false;
    // Fused kernels in a PyTorch trainer (FSDP style): Transformer Engine's or Liger's norm, rotary and
    // SwiGLU kernels (NeMo AutoModel's TE backend) move a fused kernel's traffic without compiling the model
    // (the loss stays as it was). The Megatron style's kernels are fused already.
    bool fusedKernels = false;
    // FP8 training gathers its weights in fp8: the ZeRO-3/FSDP layer all-gathers and the distributed
    // optimizer's all-gather of the updated weights carry each weight's fp8 cast (1 byte) instead of its
    // 16-bit copy (torchao's enable_fsdp_float8_all_gather, torchtitan
    // --float8.enable_fsdp_float8_all_gather; Megatron-LM
    // --fp8-param-gather, NeMo fp8_params). No effect without fp8.
    bool fp8ParamGather = false;
    // Communication overlap switches. TP and DP: Auto takes the style's habit for the GPU (overlapsTpComm,
    // overlapsDpComm); PP and EP: off = the execution style's own habit.
    Toggle overlapTpComm =
        Toggle::Auto;           // TP collectives overlapped with the GEMMs (--tp-comm-overlap, AsyncTP)
    bool overlapPpComm = false; // pipeline send/receive overlapped with compute (--overlap-p2p-communication)
    Toggle overlapDpComm =
        Toggle::Auto;                   // gradient reduction overlapped with backward (--overlap-grad-reduce)
    bool overlapEpComm = false;         // MoE all-to-alls overlapped with another micro batch's compute
                                        // (Megatron-Core --overlap-moe-expert-parallel-comm)
    double loaderTokensPerSecond = 2e6; // one data-parallel rank's loader throughput
    double stragglerSlowdown = 0.0;     // slowest rank's extra time, as a fraction (0.1 = 10%)
    double allocatorReserveFraction = 0.05; // caching-allocator fragmentation, of the GPU memory
    double moeLoadImbalance = 1.1;          // busiest expert's tokens / the mean (MoE only)
    MoeDispatcher moeDispatcher = MoeDispatcher::AllToAll; // how tokens reach experts across NVLink domains
    ExecutionStyle executionStyle = ExecutionStyle::Auto;
    GradPrecision gradPrecision = GradPrecision::Auto; // gradient buffer / DP reduction format
    CrossEntropy crossEntropy = CrossEntropy::Auto;    // loss kernel: the logits' memory at the loss
    // Eager passes over each micro batch's logits after its backward, for training metrics computed from
    // them (Composer's LanguageCrossEntropy and LanguagePerplexity in llm-foundry: 2): each an fp32
    // log-softmax without gradient. 0: the trainer computes none (Megatron-LM, torchtitan, NeMo).
    int logitsMetricPasses = 0;
    CpExchange cpExchange = CpExchange::Auto;          // context parallel: ring or one all-gather of K/V
    PipelineSplit pipelineSplit = PipelineSplit::Auto; // whether the embedding and loss count in the PP split
    AttentionFlops attentionFlops = AttentionFlops::Full;
    AttentionKernel attentionKernel = AttentionKernel::Auto;        // which fused attention kernel, or none
    PipelineSchedule pipelineSchedule = PipelineSchedule::OneFOneB; // micro batch order on the pipeline
    Zero3Gather zero3Gather =
        Zero3Gather::Layer;    // ZeRO-3: a layer per all-gather (FSDP) or a module (DeepSpeed)
    double tokenBudget = 2e12; // tokens to train, for time and GPU-hours
    bool operator==(const TrainingOptions&) const = default;
};

struct Layout {
    int tp = 1;
    int pp = 1;
    int dp = 1;
    int cp = 1;
    int ep = 1;
    int etp = 0;          // expert tensor parallelism (MoE layers): 0 = auto, else the TP of the experts
    int vpp = 1;          // virtual pipeline stages per rank (interleaving)
    int microBatch = 1;   // sequences per micro batch
    int accumulation = 1; // micro batches per optimizer step per pipeline
    bool operator==(const Layout&) const = default;

    long long gpus() const { return static_cast<long long>(tp) * pp * cp * dp; }
    long long effectiveBatch() const { return static_cast<long long>(microBatch) * accumulation * dp; }
};

struct Scenario {
    // The name the user wrote; without one the scenario is named after its model, GPU and GPU count
    // (scenarioName), so the name follows what the user changes.
    std::optional<std::string> name;
    std::string notes; // the user's notes; empty: none

    ModelSpec model;
    ClusterSpec cluster;
    TrainingOptions training;
    Layout layout;
    RunOptions run; // run length, cost, energy and failures
    bool operator==(const Scenario&) const = default;
};

// The scenario's name: the one the user wrote, else "<model> on <GPUs> <GPU>" ("Llama-3-8B on 64 H100").
// Every view, file name and report title reads it.
std::string scenarioName(const Scenario& s);
// The name a scenario has when the user wrote none.
std::string automaticScenarioName(const Scenario& s);
// The name the user typed: blank, or the automatic name itself, returns to the automatic name.
void setScenarioName(Scenario& s, std::string_view typed);

// The data-parallel ranks one shard group spans: the ZeRO shard degree where it is set (1..DP), DP
// otherwise (and always with ZeRO-0, which shards nothing). The group also spans the CP ranks.
int effectiveShardDegree(const Scenario& s);

// The communication-overlap switches that are on, by name: "TP", "PP", "DP", "EP" (TP and DP resolved).
std::vector<std::string_view> overlapsOn(const Scenario& s);

// Whether the scenario runs with the habits of NVIDIA's Megatron-Core performance recipes (NeMo,
// Megatron-Bridge, the MLPerf and DGX Cloud benchmarks built on them): the Megatron style on a GPU with fp8
// tensor cores (Hopper and newer), where those recipes are how such runs are launched. Their habits, taken
// by the switches left on Auto: TP communication overlapped with the GEMMs where sequence parallelism is on,
// the gradient reduce-scatter overlapped with the backward pass (distributed optimizer, DP > 1), gradients
// reduced in 16 bits (grad_reduce_in_fp32 = False). docs/estimation.md, "Communication overlap".
bool megatronRecipeHabits(const Scenario& s);
// The TP and DP overlap switches resolved: On and Off as stated, Auto as megatronRecipeHabits says.
bool overlapsTpComm(const Scenario& s);
bool overlapsDpComm(const Scenario& s);
// "on", "off", or "auto (on)" / "auto (off)" with what Auto resolves to, as the views name a switch.
std::string toggleText(Toggle stated, bool resolved);

// The execution style actually used (Auto resolved).
ExecutionStyle resolvedStyle(const TrainingOptions& t);

// Whether the pipeline split counts the embedding and the loss as one layer each (PipelineSplit
// resolved; never with PP 1). Auto counts them when the layers alone cannot fill the PP x VPP chunks but
// the layers + 2 can (the only way such a run exists), and in the Megatron style when that makes an
// uneven split even (Megatron-LM requires an even split; Megatron-Bridge's Llama 3.1 405B recipes, 126
// layers on PP 8 x VPP 8 or PP 16 x VPP 8, set both flags).
bool pipelineSplitCountsEmbeddingAndLoss(const Scenario& s);

// The tensor parallelism of the routed experts (Megatron-Core's --expert-tensor-parallel-size,
// torchtitan's expert_tensor_parallel_degree), resolved: with MoE parallel folding the expert layers
// regroup the TP x CP x DP ranks of a stage as ETP x EP x expert-DP, so EP x ETP must divide TP x CP x DP
// and ETP must divide TP. Auto (layout.etp 0) takes Megatron's default ETP = TP when EP divides DP x CP,
// else the largest ETP that fits (ETP 1, whole experts, when EP also spans the TP ranks). TP for dense
// models; 0 when no ETP fits (an invalid layout).
int expertTensorParallel(const Scenario& s);

// Whether expert TP `etp` fits the layout: it divides TP, and EP x etp divides TP x CP x DP.
bool expertTensorParallelFits(const Scenario& s, int etp);

// Pipeline units the split divides among the PP x VPP chunks: the layers, plus 2 when the embedding and
// the loss count as layers.
long long pipelineSplitUnits(const Scenario& s);

// " (block: N layers of each chunk)" for full recompute of part of the layers, " (remat policy minimal)"
// for selective recompute by a remat policy, " (modules: core_attn, mla_up_proj)" for selective recompute
// of other modules than the attention core alone, else empty.
std::string recomputeDetailText(const TrainingOptions& t);
// "1 metric pass", "2 metric passes": TrainingOptions::logitsMetricPasses in words.
std::string logitsMetricPassesText(int passes);

// The ZeRO stage as every view names it ("ZeRO-1 (sharded optimizer)") and what it shards, in a sentence
// ("ZeRO-1 (the distributed optimizer): optimizer state sharded over the data-parallel ranks").
std::string zeroStageName(int stage);
std::string zeroStageDescription(int stage);
// What one ZeRO-3 weight all-gather fetches, as every view names it: "per layer (FSDP/FSDP2)", "per linear
// module (DeepSpeed ZeRO-3)".
std::string zero3GatherText(Zero3Gather gather);

} // namespace lp::core
