#pragma once
// GPUs, clusters and the hardware profile: the efficiencies every time estimate is scaled by
// (docs/estimation.md, sections 6 and 7).
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lp::core {

struct GpuSpec {
    std::string id = "h100-sxm-80gb";
    std::string name = "NVIDIA H100 SXM 80 GB";
    double peakFlops16 = 989e12;    // dense bf16/fp16 FLOP/s
    double peakFlops8 = 1979e12;    // dense fp8 FLOP/s (0 where unsupported)
    double hbmBytes = 85.05e9;      // memory capacity as CUDA reports it (79.21 GiB of an "80 GB" H100)
    double hbmBandwidth = 3.35e12;  // bytes/s
    double nvlinkBandwidth = 450e9; // bytes/s per GPU, one direction
    double networkBandwidth = 50e9; // bytes/s per GPU, one direction (its network card's share)
    double hostLinkBandwidth =
        64e9; // bytes/s per GPU, one direction, to host memory (PCIe Gen5 x16, NVLink-C2C)
    double hostMemoryBandwidth =
        76.8e9;                     // bytes/s: the GPU's share of its host's DRAM bandwidth (CPU offload)
    double hostMemoryBytes = 250e9; // bytes: the GPU's share of its host's memory (a DGX H100's 2 TB over 8)
    std::string source;             // data sheet the figures come from
    bool operator==(const GpuSpec&) const = default;
};

// The network between nodes (docs/estimation.md, "Network fabrics"): what carries NCCL's traffic across
// nodes.
enum class Fabric { InfiniBand, RoCE, Efa, GpuDirectTcpx, OmniPath, EthernetTcp };

// What NCCL achieves on a fabric, beside InfiniBand with GPUDirect RDMA, on which the profiles' network
// curves are measured. Each figure's source is in docs/estimation.md, "Network fabrics".
struct FabricPhysics {
    Fabric fabric;
    const char* id;   // as files and the command line write it: "infiniband"
    const char* name; // as a sentence names it: "InfiniBand"
    double
        busEfficiencyScale; // large-message bus bandwidth, as a share of InfiniBand's at the same line rate
    double stepLatencySeconds; // per ring step across the network
};
const FabricPhysics& fabricPhysics(Fabric fabric);
// Every fabric, in the enum's order.
const std::vector<FabricPhysics>& fabrics();
// The fabric an id or name names (case-insensitive); nullopt when none.
std::optional<Fabric> parseFabric(std::string_view id);
std::string toString(Fabric fabric); // its id

// A node's network cards as a user states them.
struct NetworkSpec {
    Fabric fabric = Fabric::InfiniBand;
    int cardsPerNode = 8;
    double cardGbps = 400;     // per card, one direction, Gb/s
    bool railOptimized = true; // card i of every node on the same leaf switch (NVIDIA's DGX SuperPOD design)
    bool operator==(const NetworkSpec&) const = default;
};

struct ClusterSpec {
    // The name the user wrote; without one the cluster is named after its system and nodes (clusterName,
    // core/io/Presets.h), so the name follows the GPU and the node count.
    std::optional<std::string> name;
    GpuSpec gpu;
    int nodes = 8;
    int gpusPerNode = 8;
    int nvlinkDomain = 8; // GPUs joined by NVLink (a node; 72 for an NVL72 rack)
    // Per ring step of an NVLink collective (2(n-1) steps per all-reduce). 1 us: with the efficiency curve
    // below it reproduces the all-reduce times nccl-tests measured on A100 NVSwitch nodes for 2-8 GPUs and
    // 1-256 MB (vTrain's trace/a100 tables, mean error 9%); 5 us overstated small messages by 40-80%.
    double nvlinkLatencySeconds = 1e-6;
    double networkLatencySeconds = 12e-6;
    // The network cards, when stated: they set gpu.networkBandwidth (their per-GPU share, setNetwork) and
    // the fabric's bus efficiency. Absent: the GPU's figure on InfiniBand's physics.
    std::optional<NetworkSpec> network;
    bool operator==(const ClusterSpec&) const = default;

    long long gpus() const { return static_cast<long long>(nodes) * gpusPerNode; }
};

// Bytes/s per GPU, one direction: the node's cards x their speed, shared by its GPUs.
double networkShareBytesPerSecond(const NetworkSpec& network, int gpusPerNode);
// Sets c's network, its GPUs' share of it and the fabric's per-step latency.
void setNetwork(ClusterSpec& c, const NetworkSpec& network);
// The stated cards, else what the GPUs' figure implies: one card per GPU at its share, on InfiniBand (a
// form's starting point when the user states one part of the network).
NetworkSpec statedOrImpliedNetwork(const ClusterSpec& c);
// After a change of the node size: the GPUs' share of the stated cards again (nothing without a network).
void refreshNetworkShare(ClusterSpec& c);
// The fabric's scale on the network curve: 1 without a stated network.
double networkEfficiencyScale(const ClusterSpec& c);
// "4 x 100 Gb/s Omni-Path per 8 GPUs"; empty without a stated network.
std::string networkDescription(const ClusterSpec& c);

// The GPU as people name it in a sentence: "H100" for "NVIDIA H100 SXM 80 GB", "MI300X" for "AMD
// Instinct MI300X" (the name's first word after the maker's).
std::string gpuShortName(const GpuSpec& gpu);

// A monotone table y(x), interpolated linearly in log(x) and clamped at both ends.
struct Curve {
    std::vector<std::pair<double, double>> points; // sorted by x, x > 0
    double at(double x) const;
    bool empty() const { return points.empty(); }
    // Stores each point's log(x), each interval's inverse width in log(x), and the step where the points are
    // evenly spaced in log(x) (the built-in curves are), so that at() takes one logarithm and no division
    // and, evenly spaced, finds its interval without a search: a look-up is on every GEMM and collective of
    // every plan. Called where a profile is made or read; at() gives the same values without it (to the
    // last bit or two: two logarithms, a division and a binary search), and ignores a stale index (a
    // different number of points).
    void index();
    bool operator==(const Curve& o) const { return points == o.points; } // the index follows the points
    std::vector<double> logX;                                            // log(x) of each point, from index()
    double logStep = 0;              // > 0: the points' log(x) are evenly spaced at this step
    double invLogStep = 0;           // 1 / logStep: the interval is estimated by a product, not a division
    std::vector<double> invLogWidth; // 1 / (logX[i + 1] - logX[i]) of each interval, from index()
};

// What memory-bound and attention kernels achieve, as fractions of the GPU's peaks: a built-in profile
// takes them from its preset (ProfileParams), a measured one from the micro-benchmarks.
struct KernelEfficiencies {
    double hbmEfficiency = 0.85;         // fraction of HBM bandwidth memory-bound kernels reach
    double attentionFwdEfficiency = 0.5; // fused (flash) attention forward, fraction of 16-bit peak
    double attentionBwdEfficiency = 0.4; // fused (flash) attention backward
    // FlashAttention-2 kernels' forward (torch SDPA's flash backend, the flash-attn package) where they trail
    // the GPU's own fused attention above (Hopper: no wgmma/TMA); 0: the same as attentionFwdEfficiency.
    double fa2AttentionFwdEfficiency = 0;
    double fa2AttentionBwdEfficiency = 0; // its backward; 0: the same as attentionBwdEfficiency
    // Attention kernels' tokens (queries, and keys, of one kernel: the sequence, or a ring step's chunk
    // under CP) at which they reach half the efficiencies above, which are then the long-sequence limit:
    // work per score grows as s^2, per-row work (softmax statistics, the causal diagonal's tiles, the
    // backward's dO.O products) as s, so efficiency = e x s / (s + half). 0: no length dependence.
    double attentionFwdHalfTokens = 0;
    double attentionBwdHalfTokens = 0;
    // The work of an attention score that does not grow with the head size d (the softmax's exponential, on
    // units far slower than the tensor cores), as a share of the forward's MMA time (4 x d FLOPs per score)
    // at heads of 128: the efficiencies above are for heads of 128, and at head size d the kernels run at
    // (1 + r) / (1 + r x 128 / d) of them (no more than 1: larger heads trade away tile size). The fused
    // kernels' backward does 10 x d MMA FLOPs per score, so its share is 0.4 r. 0: no head-size dependence.
    double attentionScoreOverhead = 0;
    double fa2AttentionScoreOverhead = 0; // the same for FlashAttention-2's kernels, forward and backward
    // FlashAttention-3's kernels (Hopper's wgmma and TMA, softmax overlapped with the MMAs): their
    // long-sequence limits, the lengths at which they reach half of them, and their score overhead (forward;
    // backward 0.4 of it). 0 efficiency: the GPU has no FlashAttention-3 kernels.
    double fa3AttentionFwdEfficiency = 0;
    double fa3AttentionBwdEfficiency = 0;
    double fa3AttentionFwdHalfTokens = 0;
    double fa3AttentionBwdHalfTokens = 0;
    double fa3AttentionScoreOverhead = 0;
    bool operator==(const KernelEfficiencies&) const = default;
};

// What a GPU type achieves in practice. The built-in profiles are derived from public
// measurements (see docs/estimation.md); a profile measured by the CUDA micro-benchmark replaces them.
struct HardwareProfile {
    std::string name = "built-in";
    std::string gpuId;               // GPU preset it describes
    std::string origin = "built-in"; // "built-in" or "measured"
    std::string measuredOn;          // device name when measured
    std::string date;                // ISO date when measured
    Curve gemmEfficiency;            // fraction of peak 16-bit FLOP/s vs FLOPs of one GEMM (2mnk)
    Curve gemmEfficiencyFp8;         // same for fp8 GEMMs against the fp8 peak (empty: derived)
    KernelEfficiencies kernels;      // HBM and attention kernels
    Curve nvlinkBusEfficiency;       // achieved bus bandwidth / nominal NVLink vs message bytes
    Curve networkBusEfficiency;      // achieved bus bandwidth / nominal network vs message bytes
    double nvlinkLatencySeconds = 0; // 0: take the cluster's figure
    double networkLatencySeconds = 0;
    bool operator==(const HardwareProfile&) const = default;
};

// The few numbers a built-in profile is generated from (stored per GPU in resources/presets/gpus.json).
struct ProfileParams {
    double gemmMaxEfficiency = 0.75;    // large GEMMs, fraction of the 16-bit peak
    double gemmFixedSeconds = 6e-6;     // per-GEMM fixed cost (launch, tail wave) that small GEMMs feel
    double fp8GemmMaxEfficiency = 0.55; // large fp8 GEMMs, fraction of the fp8 peak
    KernelEfficiencies kernels;         // copied into the profile as they are
    double nvlinkMaxEfficiency = 0.80;  // achieved NCCL bus bandwidth / nominal, large messages
    double nvlinkHalfBytes = 8e6;       // message size reaching half of that
    double networkMaxEfficiency = 0.85;
    double networkHalfBytes = 16e6;
    bool operator==(const ProfileParams&) const = default;
};

HardwareProfile makeProfile(const GpuSpec& gpu, const ProfileParams& params);

} // namespace lp::core
