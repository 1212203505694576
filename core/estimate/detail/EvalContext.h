#pragma once
// The derived quantities of one evaluation, computed once and read by the memory and step-time models.
#include "core/estimate/Collectives.h"
#include "core/estimate/ExecutionStyle.h"
#include "core/estimate/Plan.h"
#include "core/estimate/Precision.h"
#include "core/model/Hardware.h"
#include "core/model/Scenario.h"

namespace lp::core::detail {

// CPU offloading (docs/estimation.md, "CPU offloading"): copies between pinned host memory and the GPU reach
// about 80% of the link's one-way bandwidth; the CPU's optimizer streams its state at about half of its GPU's
// share of the host's DRAM bandwidth.
inline constexpr double kHostLinkEfficiency = 0.8;
inline constexpr double kCpuOptimizerEfficiency = 0.5;

struct EvalContext {
    EvalContext(const Scenario& scenario, const HardwareProfile& profile, const Plan& plan);

    const Scenario& s;
    const HardwareProfile& prof;
    const StyleTraits& traits;
    ExecutionStyle style;

    // Layout and model as doubles, named as the formulas' symbols; each is defined in docs/estimation.md,
    // "Notation": t TP, p PP, dp DP (n_dp), c CP, v virtual stages, b micro batch, m accumulation steps; L
    // layers, Ls (L_s) layers on the busiest pipeline rank, h hidden, a heads, k KV heads, d head size, f MLP
    // hidden, V vocabulary, seq the sequence length s.
    double t, p, dp, c, v, b, m;
    double L, Ls, h, a, k, d, f, V, seq;
    bool splitCountsEmbedLoss = false; // the embedding and the loss count as one layer each in the split
    int splitUnits = 0;                // what the split divides: L, or L + 2 with the embedding and the loss
    bool unevenStages = false;         // the split's units (layers, + 2) do not divide into PP x VPP chunks
    double ad, kd;                     // a x d and k x d: query and key/value widths ("Notation")
    double aQk, aV, kQk, kV; // a_qk, a_v, k_qk, k_v: widths of Q, O-input, K and V tensors ("Notation")
    double T;                // tokens of one micro batch on one GPU, b x s / c ("Notation")
    double hRep;             // h_rep: 1/t with sequence parallel, else 1 ("Notation")
    bool sp, flash, dropout, fp8;
    AttentionKernel attentionKernel = AttentionKernel::Auto; // resolved: never Auto once set
    bool unfusedSoftmax = false; // no flash, and Megatron's fused softmax kernel does not fit the shape
    bool cpGatherOnce = false;   // CP K/V arrive in one all-gather (CpExchange::AllGather), not step by step
    double cpKvWidth = 0; // width of the K and V a CP rank passes on: the GQA heads, or every query head
                          // where the style's attention call gets them repeated (torch's ring attention)
    Fp8Habits fp8Habit;   // what fp8 adds to memory under this style (inactive unless fp8)
    double gatherBytesPerParam = 2; // weight all-gathers (ZeRO-3 layers, the distributed optimizer's update):
                                    // 16-bit, or the fp8 cast with fp8_param_gather in fp8 training
    GradientFormat grads;           // gradient buffer held and data-parallel reduction format
    Recompute recompute;
    // Selective recompute by module in the Megatron style (RecomputeModule bits); 0 in other cases. The FSDP
    // style's selective recompute is its own operator policy (StyleTraits::selectiveMatmulRecompute).
    unsigned recomputeModules = 0;
    // Selective recompute by a JAX/MaxText remat policy (TrainingOptions::rematPolicy); Auto in other cases.
    RematPolicy rematPolicy = RematPolicy::Auto;
    double recomputeShare = 0; // share of the layers re-run in backward: 1 with full recompute of every
                               // layer, block recompute's N / layers per chunk, 0 otherwise
    int zero;
    int shardGroup;   // ranks the ZeRO/FSDP state is sharded over (shard degree x CP; DP x CP unless hybrid)
    int replicas = 1; // copies of the sharded state across DP (hybrid sharding: DP / shard degree)
    bool fsdpStageGathered;        // FSDP with PP: the stage stays gathered across micro batches
    bool optimizerOffload = false; // optimizer state (and with ZeRO 2-3 the gradient shard) in host memory
    double offloadLayers = 0;      // layers per pipeline stage whose activations go to host memory

    // Mixture of experts (zeros for dense models).
    bool moe = false;
    double ep = 1, experts = 0, topK = 0, fe = 0, sharedExperts = 0;
    double etp = 1; // expert tensor parallelism (MoE; 1 for dense): each GPU holds 1/ETP of an expert
    double expertTokens = 0;  // tokens one ETP group routes per micro batch: T x ETP / TP with SP, T without
    double moeFraction = 0;   // share of the layers that are MoE layers
    double imbalance = 1;     // busiest expert / mean
    int expertShardGroup = 1; // ranks an expert's state is sharded over (TP x DP x CP / (EP x ETP))

    // Parameters.
    double layerParams;       // one decoder layer, averaged over the layers (all experts included)
    double expertLayerParams; // routed-expert part of layerParams (held 1/(EP x ETP) per GPU)
    double embedParams, headParams, finalNormParams;
    double normParamsPerLayer;
    double linearModulesPerLayer; // linear modules per layer on one GPU (fp8 scaling, DeepSpeed fetches)
    double zero3GathersPerLayer;  // ZeRO-3 weight all-gathers per layer pass: 1, or per module (Zero3Gather)

    // Links.
    Link tpLink, cpLink, dpLink, ppLink, epLink; // dpLink: within a shard group (all DP x CP without hybrid)
    Link replicaLink; // hybrid sharding: the all-reduce of gradient shards across the replicas
    // MoE: the routed experts' gradient reduction and weight gathers, over the expert-DP ranks of the shard
    // group (expertShardGroup), ETP x EP ranks apart: as many per NVLink domain as fit in it.
    Link expertDpLink;
    bool epCrossesNodes = false;
    Link epIntraLink; // the NVLink part of an EP group that spans several NVLink domains
    double epMembersPerDomain =
        1; // EP group members in one NVLink domain (the group's share that skips the network)
    bool tpCrossesNodes = false;
    bool dpCrossesNodes = false;
    bool ppCrossesNodes = false;
    bool cpCrossesNodes = false;
    bool shardingSharesNicWithTp = false;

    double peak16, peakLinear; // peak for 16-bit and for the linear layers' precision
    const Curve* linearCurve;

    // Layers on pipeline rank i: chunk j of the PP x VPP chunks holds floor(U / chunks) units, one more
    // for the first U mod chunks, and rank i holds chunks i, i + PP, ... The units U are the L layers, or
    // with splitCountsEmbedLoss the embedding (the first unit of chunk 0), the L layers and the loss (the
    // last unit of the last chunk). Without it rank 0 holds the most layers.
    double layersOfRank(int i) const;
    // Norms per layer that are modules of their own, which Megatron-Core's layernorm recompute can discard:
    // Transformer Engine fuses a dense layer's input norm into the QKV linear; MLA's input norm and a MoE
    // layer's pre-MLP norm (the router needs its output) stand alone.
    double separateNormsPerLayer() const {
        return (s.model.attention == AttentionKind::Mla ? 1.0 : 0.0) + moeFraction;
    }

    // One layer's parameters on one GPU, averaged over the layers: the dense part split by TP, the routed
    // experts by ETP x EP.
    double layerParamsOnGpu() const {
        return (layerParams - expertLayerParams) / t + expertLayerParams / (etp * ep);
    }

    // Its routed experts' part (MoE; 0 for dense models): 1/(ETP x EP) of each layer's experts.
    double expertLayerParamsOnGpu() const { return moe ? expertLayerParams / (etp * ep) : 0.0; }

    double gemmSeconds(double flops) const;     // linear-layer GEMM at the scenario's precision
    double gemm16Seconds(double flops) const;   // 16-bit GEMM (attention core, head)
    double memSeconds(double bytes) const;      // memory-bound kernel
    double hostCopySeconds(double bytes) const; // between the GPU and pinned host memory, one way
};

} // namespace lp::core::detail
