// The communication time's explanations: tensor, pipeline, context, expert and data parallelism.
#include "core/estimate/detail/ExplainCommunication.h"

#include "core/estimate/Collectives.h"
#include "core/estimate/ExecutionStyle.h"
#include "core/util/NumberFormat.h"

namespace lp::core::detail {

void explainTpComm(ExplanationList& list) {
    const auto [s, p, t, l, im, o] = inputsOf(list);
    std::string tpFormula = "per layer: 4 (+2 with full recompute) x all-reduce of s x b x h x 2 bytes; ring "
                            "2(n-1)/n S/B + 2(n-1)a (across nodes NCCL's tree where it is faster)";
    std::string tpWords = "Tensor parallelism all-reduces the activations twice per layer and pass: cheap on "
                          "NVLink, expensive across nodes.";
    if (p.intermediates.tpForwardGathersFp8) {
        tpFormula += "; the forward all-gathers carry the fp8 cast (1 byte)";
        tpWords += " Under fp8, torchao's Float8 TP plans cast the column-parallel linears' input to fp8 "
                   "before the sequence all-gather, so the forward passes' all-gathers move half the bytes.";
    }
    if (l.tp > s.cluster.nvlinkDomain)
        tpWords += lp::format(
            " This TP group spans {} NVLink domains of {} GPUs: NCCL runs a ring on each member's network "
            "card, so the group's collectives see {} cards' bandwidth (up to NVLink's) instead of NVLink.",
            static_cast<int>((l.tp + s.cluster.nvlinkDomain - 1) / s.cluster.nvlinkDomain),
            static_cast<int>(s.cluster.nvlinkDomain), static_cast<int>(s.cluster.nvlinkDomain));
    const bool tpOverlap = overlapsTpComm(s);
    if (tpOverlap) {
        tpFormula =
            lp::format("per layer: max(0, TP - GEMM time of the layer) + {:.1f} x min(TP, GEMM time), ",
                       kOverlapResidual) +
            "with TP = 4 (+2 with full recompute) x all-reduce of s x b x h x 2 bytes and the GEMM time of "
            "the forward, backward and any recomputed forward";
        tpWords +=
            " The TP communication overlap is on (Megatron-LM --tp-comm-overlap, torchtitan AsyncTP): the "
            "collectives run in chunks while the neighbouring GEMMs compute, so only what exceeds the "
            "layer's GEMM time is exposed; the hidden part still costs " +
            lp::format("{:.0f}%", 100.0 * kOverlapResidual) +
            " of its time, because the communication kernels take SMs and memory bandwidth from the GEMMs.";
        if (o.overlapTpComm == Toggle::Auto)
            tpWords += " It is on by default here: NVIDIA's Megatron-Core performance recipes overlap the TP "
                       "collectives on GPUs with fp8 tensor cores where sequence parallelism is on (set "
                       "overlap_tp_comm false to plan without it).";
    }
    list.add("time.tp_comm", "Tensor-parallel communication", t.tpCommSeconds, "s", std::move(tpFormula),
             lp::format("message {} at {:.0f} GB/s bus bandwidth{}", list.bytes(im.tpMessageBytes),
                        im.tpBusBandwidth / 1e9,
                        tpOverlap ? lp::format(": {} exposed with the overlap", secs(t.tpCommSeconds))
                                  : std::string()),
             kNarayananPaper, std::move(tpWords));
}

void explainPpComm(ExplanationList& list) {
    const auto [s, p, t, l, im, o] = inputsOf(list);
    std::string ppFormula = "per micro batch: send activations, receive gradients";
    std::string ppWords = "Neighbouring pipeline stages exchange activations and their gradients.";
    if (o.overlapPpComm) {
        ppFormula = "per micro batch: max(0, p2p - stage compute) + " +
                    lp::format("{:.1f}", kOverlapResidual) +
                    " x min(p2p, stage compute), with p2p = 2 x v x send(s x b x h x 2 bytes / TP) and the "
                    "stage compute = L/PP layers x (forward + backward + recompute)";
        ppWords += " The PP communication overlap is on (Megatron-LM --overlap-p2p-communication, the "
                   "default with virtual stages): sends and receives are posted ahead and finish behind the "
                   "stage's compute, so what exceeds it is exposed, plus a fifth of the hidden part "
                   "(overlapped communication kernels slow the compute down).";
    }
    list.add("time.pp_comm", "Pipeline communication", t.ppCommSeconds, "s", std::move(ppFormula),
             secs(t.ppCommSeconds) + (o.overlapPpComm ? " exposed with the overlap" : ""), kNarayananPaper,
             std::move(ppWords));
}

void explainCpComm(ExplanationList& list) {
    const auto [s, p, t, l, im, o] = inputsOf(list);
    std::string cpValues = secs(t.cpCommSeconds);
    std::string cpWords =
        "Context parallelism passes key/value chunks around a ring while attention computes.";
    if (l.cp > 1) {
        cpValues +=
            lp::format(" exposed; K/V chunk {} per ring step, {:.0f} tokens of each sequence per rank",
                       list.bytes(im.cpExchangeBytes), static_cast<double>(s.model.seqLen) / l.cp);
        if (im.cpHidingTokens > 0)
            cpValues += lp::format(", hidden above about {:.0f} tokens per rank", im.cpHidingTokens);
        cpWords +=
            " Attention work per ring step grows with the square of the chunk, the exchange only linearly: "
            "long chunks hide it, short ones (many CP ranks, or CP across the network) leave it exposed.";
        if (p.has(DiagnosticId::CpCrossesNodes))
            cpWords += " Here TP x CP is larger than the NVLink domain, so the ring crosses the network.";
    }
    const bool torchCp = styleTraits(p.style).cpTorchRingAttention;
    const bool gatherOnce = cpExchangeOf(s.training, p.style) == CpExchange::AllGather;
    if (l.cp > 1) {
        if (gatherOnce)
            cpWords += " The exchange is one all-gather of every rank's chunk (allgather), which only the "
                       "first (local) step's attention hides; a ring (Megatron's p2p, torchtitan's alltoall) "
                       "sends one chunk behind each step.";
        if (torchCp)
            cpWords += " torch's context_parallel (this style) receives K/V repeated to every query head, "
                       "passes dK/dV around the ring in fp32, and merges the steps' partial results in fp32 "
                       "(that memory traffic is counted in compute).";
        cpWords += " The chunks held while a layer runs" +
                   std::string(torchCp ? ", with the fp32 accumulators," : "") +
                   " are counted in activations: " + list.bytes(im.cpBufferBytes) + ".";
    }
    const std::string dkv = torchCp ? "send(2 x chunk, fp32 dK/dV)" : "send(dK/dV chunk)";
    const std::string residual = ", each + " + lp::format("{:.1f}", kOverlapResidual) + " x the hidden part";
    std::string cpFormula =
        gatherOnce ? "per layer and micro batch: max(0, all-gather(c chunks) - attention / c) forward; "
                     "backward the same + max(0, (c - 1) x " +
                         dkv + " - backward attention)" + residual
                   : "per layer and micro batch: max(0, (c - 1) x send(K/V chunk) - attention) forward, "
                     "max(0, (c - 1) x (send + " +
                         dkv + ") - backward attention) backward" + residual +
                         "; hides when tokens per rank > send time per token / attention time per token pair";
    if (torchCp)
        cpFormula += "; + the last " + dkv +
                     ", waited for at once; chunk = tokens per rank x (q + v width of all heads) x 2 bytes";
    list.add(
        "time.cp_comm", "Context-parallel communication", t.cpCommSeconds, "s", std::move(cpFormula),
        std::move(cpValues),
        torchCp
            ? "Liu et al. 2023, Ring Attention; PyTorch "
              "torch.distributed.tensor.experimental.context_parallel (repeat_kv before SDPA, "
              "convert_to_f32, rotate_method)"
            : "Liu et al. 2023, Ring Attention; NVIDIA Transformer Engine context parallelism (cp_comm_type)",
        std::move(cpWords));
}

void explainEpComm(ExplanationList& list) {
    const auto [s, p, t, l, im, o] = inputsOf(list);
    std::string epValues =
        lp::format("{} per dispatch, {} per step", list.bytes(im.epMessageBytes), secs(t.epCommSeconds));
    std::string epWords = "Mixture-of-experts layers send each token to its experts and back: cheap inside "
                          "an NVLink domain, costly across nodes.";
    if (s.model.isMoe() && l.ep > 1) {
        const int etp = expertTensorParallel(s);
        epValues += lp::format("; EP {} x expert TP {} = {} GPUs per group", l.ep, etp, l.ep * etp);
        epWords +=
            etp == l.tp
                ? " Each expert is split by TP like the dense layers (expert TP = TP), and the EP group is "
                  "EP TP groups."
                : lp::format(" The experts are split over {} GPU{} (expert TP {}, TP {}): the expert layers "
                             "regroup the stage's TP x CP x DP ranks, so EP also spans TP ranks; with whole "
                             "experts the MLP half of the layer needs no TP collective.",
                             etp, etp == 1 ? "" : "s", etp, l.tp);
    }
    std::string epFormula =
        "per MoE layer and pass: dispatch + combine all-to-all of tokens x top-k x h x 2 bytes";
    if (im.epRanksPerToken > 0 && im.epRemoteDomainsPerToken == 0) {
        epFormula = "per MoE layer and pass: NVLink: tokens x h x G x (n - 1)/n for the dispatch (1 byte per "
                    "value in fp8 training, else 2) and again for the combine (2 bytes)";
        epValues += lp::format("; G = {:.2f} GPUs per token", im.epRanksPerToken);
        epWords += " The dispatcher deduplicates (DeepEP-style): each token goes once to each other GPU that "
                   "holds one of its experts, and the combine sums there before sending one result back, "
                   "instead of once per expert copy.";
    }
    if (im.epRemoteDomainsPerToken > 0) {
        epFormula = "per MoE layer and pass: max(network: tokens x h x R other nodes, NVLink: tokens x h x G "
                    "x (g - 1)/g) for the dispatch (1 byte per value in fp8 training, else 2) and again for "
                    "the combine (2 bytes)";
        epValues += lp::format("; R = {:.2f} other nodes, G = {:.2f} GPUs per token",
                               im.epRemoteDomainsPerToken, im.epRanksPerToken);
        epWords += " The dispatcher deduplicates (DeepEP-style): each token crosses the network once per "
                   "other node that holds one of its experts and is forwarded there over NVLink, instead of "
                   "once per expert copy";
        epWords +=
            s.model.moe.groups > 0
                ? lp::format("; group-limited routing keeps each token's experts in at most {} of {} groups.",
                             s.model.moe.groupLimit, s.model.moe.groups)
                : std::string(".");
    }
    if (o.overlapEpComm && l.ep > 1) {
        epFormula += lp::format(
            "; with the overlap, per layer: max(0, EP - compute of the layer) + {:.1f} x min(EP, compute)",
            kOverlapResidual);
        epWords += " The EP communication overlap is on (Megatron-Core --overlap-moe-expert-parallel-comm): "
                   "one micro batch's all-to-alls run while another computes the same layer, so only what "
                   "exceeds the layer's compute is exposed.";
    }
    list.add("time.ep_comm", "Expert-parallel communication", t.epCommSeconds, "s", std::move(epFormula),
             std::move(epValues), "Lepikhin et al. 2020, GShard", std::move(epWords));
}

void explainDpComm(ExplanationList& list) {
    const auto [s, p, t, l, im, o] = inputsOf(list);
    const bool dpSwitch = overlapsDpComm(s);
    const bool dpOverlap = dpSwitch || styleTraits(p.style).overlapGradReduce;
    std::string dpFormula =
        "all-reduce (or reduce-scatter + all-gather) of the gradients, minus what overlaps the backward pass";
    std::string dpWords = std::string("Data-parallel replicas average their gradients once per step; ") +
                          (o.zero3Gather == Zero3Gather::Module
                               ? "with DeepSpeed ZeRO-3 weights are also gathered module by module."
                               : "with ZeRO-3/FSDP weights are also gathered per layer.");
    if (dpOverlap && o.zeroStage < 3)
        dpFormula = "max(0, reduction of the stage's gradients - backward window) + " +
                    lp::format("{:.1f}", kOverlapResidual) +
                    " x min(reduction, backward window), with the backward window = L/PP layers x (backward "
                    "+ recompute) of the last micro batch, as in the FSDP style";
    if (im.dpTreeHops > 0 || im.dpReplicaTreeHops > 0)
        dpFormula += "; an all-reduce across nodes takes the faster of NCCL's ring, 2(n-1)/n x S/B + 2(n-1) "
                     "a, and its tree, S/(0.46 B) + 2(ceil(log2 nodes) + ranks per node - 1) a";
    if (const double gathers = p.intermediates.zero3GathersPerLayer; gathers > 1) {
        dpFormula +=
            lp::format("; DeepSpeed ZeRO-3: {:.3g} all-gathers per layer pass, one per linear module, "
                       "each with the ring's (n-1) steps of latency; gradients reduced in buckets of "
                       "5e8 parameters",
                       gathers);
        dpWords +=
            " DeepSpeed ZeRO-3 (zero3_gather module) fetches each linear module's weights in its own "
            "all-gather, prefetched up to stage3_prefetch_bucket_size parameters ahead, so every module "
            "pays the ring's latency where FSDP pays it once per layer; it reduce-scatters gradients in "
            "reduce_bucket_size buckets.";
    }
    if (p.intermediates.gatherBytesPerParam < 2.0 && (o.zeroStage >= 1 && l.dp * l.cp > 1)) {
        dpFormula += "; the weight all-gathers carry the fp8 cast (1 byte per weight)";
        dpWords += " FP8 weight gathers are on (fp8_param_gather: torchao's float8 all-gather, Megatron-LM "
                   "--fp8-param-gather): each weight travels as its 1-byte fp8 cast, half the 16-bit bytes.";
    }
    if (const double bulk = p.intermediates.fsdpBulkReduceSeconds; bulk > 0)
        dpWords += lp::format(
            " Under the pipeline FSDP keeps each stage gathered across the micro batches: its weights are "
            "gathered once per step, and its gradients reduced once, after its last backward, with the "
            "compute waiting for them ({} of the exposed time; torch.distributed.pipelining's REDUCE_GRAD).",
            secs(bulk));
    if (dpSwitch && p.style == ExecutionStyle::Fsdp)
        dpWords += " The DP communication overlap is on, but the FSDP style overlaps the reduction with the "
                   "backward pass anyway.";
    else if (dpSwitch)
        dpWords +=
            std::string(" The DP communication overlap is on (Megatron-LM --overlap-grad-reduce, with "
                        "--overlap-param-gather for the distributed optimizer; DeepSpeed overlap_comm): "
                        "gradient buckets are reduced while the backward pass still runs, so what exceeds "
                        "the backward window is exposed, plus a fifth of the hidden part.") +
            (o.overlapDpComm == Toggle::Auto
                 ? " It is on by default here, as NVIDIA's Megatron-Core performance recipes run on GPUs "
                   "with fp8 tensor cores (set overlap_dp_comm false to plan without it)."
                 : "");
    else if (!dpOverlap)
        dpWords += " The Megatron-LM style reduces them after the backward pass (no --overlap-grad-reduce), "
                   "so all of it is exposed.";
    if (im.dpTreeHops > 0)
        dpWords += lp::format(
            " The all-reduce of the gradients crosses nodes over {} ranks, where NCCL's tree is faster than "
            "its ring: {} hops of latency (a chain through each node's ranks and a tree across the nodes, up "
            "and down) instead of the ring's {} steps, at a little less bandwidth (NCCL's tuning model picks "
            "the faster of the two for each size).",
            fmt::fixed(im.dpRingRanks, 0), im.dpTreeHops, fmt::fixed(2 * (im.dpRingRanks - 1), 0));
    if (im.expertDpRanks > 0) {
        dpFormula += "; the routed experts' gradients over their own expert-DP group, after the rest";
        dpWords += lp::format(
            " The routed experts' gradients ({} per GPU) are reduced apart from the rest: only the {} rank{} "
            "that hold the same experts (TP x CP x DP / (EP x ETP), Megatron-Core's expert data-parallel "
            "group) take part, at {:.0f} GB/s bus bandwidth{}: {} with their weights' all-gather.",
            list.bytes(im.expertDpMessageBytes), im.expertDpRanks, im.expertDpRanks == 1 ? "" : "s",
            im.expertDpBusBandwidth / 1e9,
            im.expertDpRanks > 1 && im.expertDpBusBandwidth < im.dpBusBandwidth
                ? " (EP fills the NVLink domain, so each domain holds few of them, each on its own network "
                  "card)"
                : "",
            secs(im.expertDpSeconds));
    }
    if (const int degree = effectiveShardDegree(s); degree < l.dp) {
        dpFormula += "; hybrid sharding: reduce-scatter and gather within the shard group, all-reduce of the "
                     "gradient shard across the replicas";
        dpWords += lp::format(
            " Hybrid sharding: the state is sharded over {} DP rank{} and replicated {} times, so the "
            "gathers stay within the group and only the gradient shards cross between replicas.",
            degree, degree == 1 ? "" : "s", l.dp / degree);
        if (im.dpReplicaTreeHops > 0)
            dpWords += lp::format(" Their all-reduce over {} replicas runs on NCCL's tree, faster there than "
                                  "its ring: {} hops of latency instead of {} steps.",
                                  fmt::fixed(im.dpReplicaRanks, 0), im.dpReplicaTreeHops,
                                  fmt::fixed(2 * (im.dpReplicaRanks - 1), 0));
    }
    list.add("time.dp_comm", "Exposed data-parallel / sharding communication", t.dpCommExposedSeconds, "s",
             std::move(dpFormula),
             lp::format("{} per GPU at {:.0f} GB/s bus bandwidth: {} exposed", list.bytes(im.dpMessageBytes),
                        im.dpBusBandwidth / 1e9, secs(t.dpCommExposedSeconds)),
             kZeroPaper, std::move(dpWords));
}

} // namespace lp::core::detail
