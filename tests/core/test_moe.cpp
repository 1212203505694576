// Mixture of experts with expert parallelism, multi-head latent attention, FP8 and long context.
#include "ScenarioFixtures.h"
#include "TestHarness.h"
#include "core/estimate/Evaluate.h"
#include "core/estimate/ExecutionStyle.h"
#include "core/estimate/PlanJson.h"
#include "core/io/Presets.h"

#include <nlohmann/json.hpp>

#include <cmath>

using namespace lp::core;
using lp::core::fixtures::mixtral;

using lp::core::fixtures::findDiagnostic;

LP_TEST(moe_parameters_total_and_active) {
    const ModelSpec m = findModelPreset("mixtral-8x7b")->model;
    const ParameterCount c = countParameters(m);
    const double expert = 3.0 * m.hidden * m.moe.expertFfnHidden;
    LP_CHECK_NEAR(c.routedExpertsTotal, m.layers * m.moe.experts * expert, 1e-12);
    // Active: 2 of 8 experts, router included.
    LP_CHECK_NEAR(c.total - c.active, m.layers * (m.moe.experts - m.moe.topK) * expert, 1e-12);
    LP_CHECK_NEAR(c.total, 46.7e9, 0.01);
    LP_CHECK_NEAR(c.active, 12.9e9, 0.01);
}

LP_TEST(expert_parallel_memory_by_hand) {
    const Scenario s = mixtral(1, 8, 8);
    const Plan p = evaluate(s);
    LP_CHECK(p.valid);
    const ParameterCount& c = p.params;
    const double perGpu = (c.total - c.routedExpertsTotal) + c.routedExpertsTotal / 8.0;
    LP_CHECK_NEAR(p.memory.stages[0].weightsBytes, 2.0 * perGpu, 1e-12);
    LP_CHECK_NEAR(p.memory.stages[0].optimizerBytes, 12.0 * perGpu, 1e-12);
    // ZeRO-1: dense state over DP = 8, experts' state over the DP/EP = 1 ranks holding the same experts.
    Scenario z = s;
    z.training.zeroStage = 1;
    const Plan pz = evaluate(z);
    const double opt = 12.0 * ((c.total - c.routedExpertsTotal) / 8.0 + c.routedExpertsTotal / 8.0);
    LP_CHECK_NEAR(pz.memory.stages[0].optimizerBytes, opt, 1e-12);
    // EP 1 holds every expert: more memory.
    LP_CHECK(evaluate(mixtral(1, 1, 8)).memory.stages[0].weightsBytes >
             3.0 * p.memory.stages[0].weightsBytes);
}

LP_TEST(all_to_all_volume_by_hand) {
    const Scenario s = mixtral(1, 8, 8);
    const Plan p = evaluate(s);
    // Each token's hidden state (16-bit) goes to top-k = 2 experts: 2 B x 4096 tokens x 2 x 4096.
    LP_CHECK_NEAR(p.intermediates.epMessageBytes, 2.0 * 4096 * 2 * 4096, 1e-12);
    LP_CHECK(p.time.epCommSeconds > 0);
    LP_CHECK(!p.has(DiagnosticId::EpCrossesNodes));
    // Tokens per expert: 4096 tokens x top-2 x imbalance 1.1 x EP 8 / 8 experts.
    LP_CHECK_NEAR(p.intermediates.tokensPerExpert, 4096 * 2 * 1.1, 1e-12);
    // TP 2 x EP 8 = 16 GPUs: the group leaves the 8-GPU node.
    const Plan wide = evaluate(mixtral(2, 8, 8));
    LP_CHECK(wide.valid);
    LP_CHECK(wide.has(DiagnosticId::EpCrossesNodes));
    LP_CHECK(wide.time.epCommSeconds > p.time.epCommSeconds * 0.5 * 2.0);
    // No EP: no all-to-all.
    LP_CHECK_EQ(evaluate(mixtral(1, 1, 8)).time.epCommSeconds, 0.0);
}

LP_TEST(backward_all_to_alls_move_the_forward_bytes_and_skip_the_network_inside_a_node) {
    // Forward: dispatch + combine; backward: the gradients of the same tokens, the same two all-to-alls;
    // full recompute repeats the forward ones. So full recompute adds half of the EP time.
    Scenario s = mixtral(1, 8, 8);
    const Plan none = evaluate(s);
    s.training.recompute = Recompute::Full;
    const Plan full = evaluate(s);
    LP_CHECK(none.valid && full.valid);
    LP_CHECK_NEAR(full.time.epCommSeconds / none.time.epCommSeconds, 1.5, 1e-9);
    // EP 16 on two 8-GPU nodes: half of each GPU's all-to-all bytes stay inside its node (NVLink), so it
    // takes far less than on 16 one-GPU nodes, where 15/16 of the bytes cross the network.
    Scenario paired = mixtral(1, 16, 16); // 16 GPUs: 2 nodes x 8
    paired.model.moe.experts = 16;
    Scenario spread = paired;
    spread.cluster.nodes = 16;
    spread.cluster.gpusPerNode = 1;
    spread.cluster.nvlinkDomain = 1;
    const Plan c = evaluate(paired), d = evaluate(spread);
    LP_CHECK(c.valid && d.valid);
    LP_CHECK(c.has(DiagnosticId::EpCrossesNodes) && d.has(DiagnosticId::EpCrossesNodes));
    // 15/16 vs 8/16 of the bytes on the same network card (latencies alike): close to 15/8.
    const double ratio = d.time.epCommSeconds / c.time.epCommSeconds;
    LP_CHECK(ratio > 1.6 && ratio < 1.9);
}

LP_TEST(the_expert_group_folds_over_the_context_parallel_ranks) {
    // TP 1 x CP 4 x DP 4 on 16 H100 with EP 8: the expert layers regroup the same ranks (Megatron-Core's
    // MoE parallel folding; torchtitan borrows EP from CP and FSDP), so an EP group is 8 consecutive GPUs:
    // one NVLink node, however far apart the CP ranks of one sequence are.
    Scenario s = mixtral(1, 8, 4);
    s.model.seqLen = 16384;
    s.layout.cp = 4;
    s.cluster.nodes = 2;
    const Plan p = evaluate(s);
    LP_CHECK(p.valid);
    LP_CHECK(!p.has(DiagnosticId::EpCrossesNodes));
    // TP 2 x EP 8 = 16 GPUs does cross the 8-GPU node.
    Scenario w = s;
    w.layout.tp = 2;
    w.layout.dp = 2;
    w.training.sequenceParallel = true;
    const Plan q = evaluate(w);
    LP_CHECK(q.valid);
    LP_CHECK(q.has(DiagnosticId::EpCrossesNodes));
    LP_CHECK(q.time.epCommSeconds > p.time.epCommSeconds);
}

LP_TEST(routed_copies_and_token_permutes_are_memory_traffic) {
    // Mixtral 8x7B, EP 8 (one local expert): per token and layer, besides what a dense layer moves, the
    // SwiGLU runs on top-k x imbalance copies and the dispatcher permutes the tokens into expert order and
    // back (read h + write k x h each way), all 16-bit.
    Scenario s = mixtral(1, 8, 8);
    const Plan p = evaluate(s);
    LP_CHECK(p.valid);
    const ModelSpec& m = s.model;
    const double T = static_cast<double>(s.layout.microBatch) * m.seqLen;
    const double copies = m.moe.topK * s.training.moeLoadImbalance;
    Scenario dense = s;
    dense.model.moe = MoeSpec{}; // the same shape without experts
    dense.layout.ep = 1;
    const Plan q = evaluate(dense);
    LP_CHECK(q.valid);
    const double extra =
        2.0 * T * (3.0 * m.moe.expertFfnHidden * (copies - 1.0) + 2.0 * (1.0 + copies) * m.hidden);
    LP_CHECK_NEAR(p.intermediates.memoryBoundBytesPerLayer - q.intermediates.memoryBoundBytesPerLayer, extra,
                  1e-9);
    // Two local experts (EP 4): the received rows are also sorted by expert, both ways.
    Scenario two = mixtral(1, 4, 8);
    const Plan r = evaluate(two);
    LP_CHECK(r.valid);
    LP_CHECK_NEAR(r.intermediates.memoryBoundBytesPerLayer - p.intermediates.memoryBoundBytesPerLayer,
                  2.0 * T * 4.0 * copies * m.hidden, 1e-9);
}

LP_TEST(ep_validity) {
    Scenario s = mixtral(1, 3, 8);
    LP_CHECK(evaluate(s).has(DiagnosticId::ExpertsNotDivisibleByEp));
    s = mixtral(2, 8, 2); // EP 8 does not divide TP x CP x DP = 4: no expert TP fits
    s.cluster.nodes = 1;
    s.cluster.gpusPerNode = 4;
    s.cluster.nvlinkDomain = 4;
    LP_CHECK(evaluate(s).has(DiagnosticId::EpDoesNotDivideDp));
    const Plan invalid = evaluate(s);
    const Diagnostic* d = findDiagnostic(invalid, DiagnosticId::EpDoesNotDivideDp);
    LP_CHECK(d && diagnosticMessage(*d).find("TP x CP x DP = 4") != std::string::npos);
    Scenario dense = defaultScenario();
    dense.layout.ep = 2;
    LP_CHECK(evaluate(dense).has(DiagnosticId::ExpertsNotDivisibleByEp));
}

LP_TEST(expert_tensor_parallelism_resolves_like_megatron) {
    // EP divides DP x CP: Megatron-Core's default, experts split by TP like the dense layers.
    LP_CHECK_EQ(expertTensorParallel(mixtral(2, 4, 4)), 2);
    LP_CHECK_EQ(expertTensorParallel(mixtral(8, 4, 2)), 4); // EP 4 > DP 2: ETP 4 of TP 8 fits 16 ranks
    LP_CHECK_EQ(expertTensorParallel(mixtral(2, 8, 4)), 1); // EP 8 spans the TP pairs: whole experts
    Scenario s = mixtral(2, 8, 4);
    s.layout.etp = 2; // asked for, but EP 8 x ETP 2 = 16 does not divide 8 ranks
    LP_CHECK_EQ(expertTensorParallel(s), 0);
    const Plan bad = evaluate(s);
    LP_CHECK(!bad.valid);
    const Diagnostic* d = findDiagnostic(bad, DiagnosticId::EpDoesNotDivideDp);
    LP_CHECK(d && diagnosticMessage(*d).find("expert TP 2") != std::string::npos);
    s.layout.etp = 3; // does not divide TP
    LP_CHECK_EQ(expertTensorParallel(s), 0);
    Scenario dense = defaultScenario();
    LP_CHECK_EQ(expertTensorParallel(dense), dense.layout.tp);
}

LP_TEST(whole_experts_when_ep_spans_the_tp_ranks) {
    // TP 2 x DP 4 = 8 GPUs with EP 8 (Qwen3-235B-style recipes: TP 2, EP 32 > DP): ETP 1, each GPU holds
    // one whole expert per layer; the dense part stays split by TP.
    const Scenario s = mixtral(2, 8, 4);
    const Plan p = evaluate(s);
    LP_CHECK(p.valid);
    const ParameterCount& c = p.params;
    const double perGpu = (c.total - c.routedExpertsTotal) / 2.0 + c.routedExpertsTotal / 8.0;
    LP_CHECK_NEAR(p.memory.stages[0].weightsBytes, 2.0 * perGpu, 1e-12);
    // Tokens per expert: this GPU's sequence-parallel half of the 4096 tokens, top-2, imbalance 1.1.
    LP_CHECK_NEAR(p.intermediates.tokensPerExpert, 2048 * 2 * 1.1, 1e-12);
    LP_CHECK(!p.has(DiagnosticId::EpCrossesNodes)); // ETP 1 x EP 8 = one node
    const nlohmann::json j = planToJson(s, p);
    LP_CHECK_EQ(j.at("expert_tensor_parallel").get<int>(), 1);
}

LP_TEST(expert_tp_trades_tp_collectives_for_memory) {
    // TP 2 x EP 4 x DP 4 fits both ways: auto = ETP 2 (split experts), or ETP 1 asked for (whole experts).
    Scenario split = mixtral(2, 4, 4);
    Scenario whole = split;
    whole.layout.etp = 1;
    const Plan ps = evaluate(split), pw = evaluate(whole);
    LP_CHECK(ps.valid && pw.valid);
    Scenario explicitSplit = split;
    explicitSplit.layout.etp = 2;
    LP_CHECK_NEAR(evaluate(explicitSplit).time.stepSeconds, ps.time.stepSeconds, 1e-12);
    // Whole experts: twice the expert weights per GPU...
    const ParameterCount& c = ps.params;
    LP_CHECK_NEAR(pw.memory.stages[0].weightsBytes - ps.memory.stages[0].weightsBytes,
                  2.0 * (c.routedExpertsTotal / 4.0 - c.routedExpertsTotal / 8.0), 1e-9);
    // ... half the tokens per expert GEMM (this GPU's own T/TP), and no TP collective in the MLP half:
    LP_CHECK_NEAR(pw.intermediates.tokensPerExpert, 0.5 * ps.intermediates.tokensPerExpert, 1e-12);
    LP_CHECK_NEAR(pw.time.tpCommSeconds, 0.5 * ps.time.tpCommSeconds, 1e-9);
    // EP 4 x ETP 2 = 8 GPUs in one node; EP 4 x ETP 1 = 4.
    Scenario wide = mixtral(2, 8, 8); // 16 GPUs, auto ETP 2: EP group of 16 crosses the node
    LP_CHECK(evaluate(wide).has(DiagnosticId::EpCrossesNodes));
    wide.layout.etp = 1;
    LP_CHECK(!evaluate(wide).has(DiagnosticId::EpCrossesNodes));
}

LP_TEST(small_expert_batches_are_flagged) {
    Scenario s = defaultScenario();
    s.model = findModelPreset("qwen3-30b-a3b")->model;
    s.model.seqLen = 256;
    s.layout = Layout{};
    s.layout.ep = 8;
    s.layout.dp = 64;
    s.layout.microBatch = 1;
    s.layout.accumulation = 1;
    s.training.zeroStage = 1;
    const Plan p = evaluate(s);
    LP_CHECK(p.valid);
    LP_CHECK(p.intermediates.tokensPerExpert < 256);
    LP_CHECK(p.has(DiagnosticId::SmallExpertBatches));
    // MFU counts active parameters: 6 x active is the 6ND yardstick's numerator.
    LP_CHECK(p.mfu6nd > 0 && p.params.active < 0.2 * p.params.total);
}

LP_TEST(mla_parameters_and_flops) {
    const ModelSpec m = findModelPreset("deepseek-v3")->model;
    LP_CHECK(m.attention == AttentionKind::Mla);
    const ParameterCount c = countParameters(m);
    const double h = m.hidden, a = m.heads;
    const MlaSpec& l = m.mla;
    const double attn = h * l.qLoraRank + l.qLoraRank * a * (l.qkNopeHeadDim + l.qkRopeHeadDim) +
                        h * (l.kvLoraRank + l.qkRopeHeadDim) +
                        l.kvLoraRank * a * (l.qkNopeHeadDim + l.vHeadDim) + a * l.vHeadDim * h;
    LP_CHECK_NEAR(c.attentionMatmulPerLayer, attn, 1e-12);
    LP_CHECK_NEAR(c.total, 671e9, 0.01);
    Scenario s = defaultScenario();
    s.model = m;
    s.layout = Layout{};
    s.layout.pp = 1;
    s.layout.tp = 8;
    s.layout.dp = 8;
    s.layout.ep = 8;
    const Plan p = evaluate(s);
    // Attention scores use the 192-wide q/k heads and 128-wide values: 6 L a (192 + 128) s per token.
    LP_CHECK_NEAR(p.intermediates.attentionFlopsPerToken, 6.0 * m.layers * a * (192 + 128) * m.seqLen, 1e-12);
}

LP_TEST(fp8_memory_accounting) {
    Scenario s = defaultScenario(); // Llama-2-70B shape, TP 8 x PP 4, SP, selective recompute, Megatron
    const Plan bf16 = evaluate(s);
    s.training.precision = Precision::Fp8;
    const Plan fp8 = evaluate(s);
    const ModelSpec& m = s.model;
    const double h = m.hidden, kv = m.kvHeads * m.headDim(), f = m.ffnHidden, t = 8, layers = 20;
    // Transformer Engine caches an fp8 copy and an fp8 transpose of every linear-layer weight (2 bytes per
    // parameter; norms, embedding and head stay 16-bit), and keeps delayed-scaling state: 5 tensors x
    // (1024 amax values + scale + inverse scale) x 4 bytes for each of the 4 linear modules of a layer.
    const double linear = h * h + 2.0 * h * kv + h * h + 3.0 * h * f;
    const double copies = layers * linear / t * 2.0;
    const double scaling = layers * 4.0 * 5.0 * (1024 + 2) * 4.0;
    LP_CHECK_NEAR(fp8.intermediates.fp8WeightCopyBytes, copies, 1e-12);
    LP_CHECK_NEAR(fp8.intermediates.fp8ScalingStateBytes, scaling, 1e-12);
    const StageMemory& a = bf16.memory.stages[1];
    const StageMemory& b = fp8.memory.stages[1];
    LP_CHECK_NEAR(b.weightsBytes, a.weightsBytes + copies + scaling, 1e-12);
    LP_CHECK_NEAR(b.optimizerBytes, a.optimizerBytes, 1e-12); // master weights and moments stay fp32
    LP_CHECK_NEAR(b.gradientsBytes, a.gradientsBytes, 1e-12);
    // TE saves the linear inputs (QKV and MLP inputs, replicated but split by SP; the projection and
    // down-projection inputs, split by TP) as 1-byte casts instead of 2 bytes.
    const double T = s.layout.microBatch * m.seqLen;
    const double saved = T * (2.0 * h / t + m.heads * m.headDim() / t + f / t);
    LP_CHECK_NEAR(bf16.intermediates.activationBytesPerLayer - fp8.intermediates.activationBytesPerLayer,
                  saved, 1e-9);
    LP_CHECK(fp8.time.computeSeconds < bf16.time.computeSeconds); // fp8 GEMMs run at the fp8 peak
    LP_CHECK_NEAR(fp8.modelFlopsPerStep, bf16.modelFlopsPerStep, 1e-12);

    // torchao Float8Linear (FSDP style) casts on the fly, saves 16-bit inputs and scales dynamically.
    Scenario fsdp = s;
    fsdp.training.executionStyle = ExecutionStyle::Fsdp;
    Scenario fsdp16 = fsdp;
    fsdp16.training.precision = Precision::Bf16;
    const Plan f8 = evaluate(fsdp), f16 = evaluate(fsdp16);
    LP_CHECK_NEAR(f8.intermediates.fp8WeightCopyBytes + f8.intermediates.fp8ScalingStateBytes, 0.0, 0.0);
    LP_CHECK_NEAR(f8.memory.stages[1].weightsBytes, f16.memory.stages[1].weightsBytes, 1e-12);
    // The only fp8 difference in memory: torch's TP all-gathers the QKV and MLP inputs in fp8 and the linears
    // save those gathered casts (1 byte instead of 2 per element of tokens x hidden; selective keeps half).
    LP_CHECK_NEAR(f16.intermediates.activationBytesPerLayer - f8.intermediates.activationBytesPerLayer,
                  styleTraits(ExecutionStyle::Fsdp).selectiveActivationKeep * 2.0 * T * h, 1e-6);

    // On a GPU without fp8 (A100) the precision falls back to 16-bit: no copies, same memory.
    Scenario a100 = s;
    a100.cluster.gpu = findGpuPreset("a100-sxm-80gb")->gpu;
    Scenario a100bf16 = a100;
    a100bf16.training.precision = Precision::Bf16;
    const Plan c = evaluate(a100);
    LP_CHECK(c.valid);
    LP_CHECK_NEAR(c.memory.stages[1].totalBytes, evaluate(a100bf16).memory.stages[1].totalBytes, 1e-12);
}

LP_TEST(long_context_with_context_parallel) {
    Scenario s = defaultScenario();
    s.model = findModelPreset("llama3.1-8b")->model;
    s.model.seqLen = 1048576; // 1M tokens
    s.training.recompute = Recompute::Full;
    s.training.zeroStage = 3;
    s.layout = Layout{};
    s.layout.cp = 32;
    s.layout.dp = 2;
    s.layout.microBatch = 1;
    s.layout.accumulation = 1;
    const Plan p = evaluate(s);
    LP_CHECK(p.valid);
    // Every per-token activation is divided by CP: a layer's input is 2 x (s / c) x h bytes.
    LP_CHECK_NEAR(p.intermediates.activationBytesPerLayer, 2.0 * (1048576.0 / 32) * 4096, 1e-12);
    Scenario half = s;
    half.layout.cp = 16;
    half.layout.dp = 4;
    const Plan ph = evaluate(half);
    LP_CHECK_NEAR(ph.intermediates.activationBytesPerLayer, 2.0 * p.intermediates.activationBytesPerLayer,
                  1e-12);
    // Attention dominates at 1M tokens: FLOPs per token are several times the 6N of the weights.
    LP_CHECK(p.intermediates.attentionFlopsPerToken > 5.0 * 6.0 * p.params.matmulActive);
    // Ring attention exchanges K/V between the 32 ranks (4 nodes): some of it may be exposed.
    LP_CHECK(p.time.cpCommSeconds >= 0);
    Scenario bad = s;
    bad.layout.cp = 3;
    bad.layout.dp = 64 / 3;
    LP_CHECK(!evaluate(bad).valid);
}

LP_TEST(a_deduplicating_dispatcher_sends_each_token_once_per_other_node) {
    // 64 fine-grained experts, top-8, EP 64 over eight 8-GPU nodes (H100: one network card per GPU).
    Scenario s = mixtral(1, 64, 64);
    s.model.moe.experts = 64;
    s.model.moe.topK = 8;
    s.model.moe.expertFfnHidden = 1024;
    const Plan all = evaluate(s);
    LP_CHECK(all.valid && all.has(DiagnosticId::EpCrossesNodes));
    LP_CHECK_EQ(all.intermediates.epRemoteDomainsPerToken, 0.0);
    // DeepEP-style: a token goes once to each other node holding one of its 8 experts, on average
    // 8 x (1 - (7/8)^8) x 7/8 = 4.59 nodes, instead of 7 of its 8 copies crossing the network.
    s.training.moeDispatcher = MoeDispatcher::Deduplicated;
    const Plan dedup = evaluate(s);
    LP_CHECK(dedup.valid);
    const double reached = 8.0 * (1.0 - std::pow(7.0 / 8.0, 8.0)) * 7.0 / 8.0;
    LP_CHECK_NEAR(dedup.intermediates.epRemoteDomainsPerToken, reached, 1e-12);
    const double ratio = dedup.time.epCommSeconds / all.time.epCommSeconds;
    // Network-bound: the bytes on the card, plus the per-peer latencies, which both dispatchers pay alike.
    LP_CHECK(ratio > reached / 7.0 && ratio < reached / 7.0 + 0.08);
    // Group-limited routing (DeepSeek-V3's 4 of 8 groups, one group per node): at most 4 nodes, 3.5 others.
    s.model.moe.groups = 8;
    s.model.moe.groupLimit = 4;
    const Plan grouped = evaluate(s);
    LP_CHECK_NEAR(grouped.intermediates.epRemoteDomainsPerToken, 3.5, 1e-12);
    LP_CHECK(grouped.time.epCommSeconds < dedup.time.epCommSeconds);
    // fp8 training dispatches fp8 tokens: the dispatch's bytes halve, the combine's stay 16-bit.
    Scenario f = s;
    f.training.precision = Precision::Fp8;
    f.cluster.gpu = findGpuPreset("h100-sxm-80gb")->gpu;
    const Plan fp8 = evaluate(f);
    const double fp8Ratio = fp8.time.epCommSeconds / grouped.time.epCommSeconds;
    LP_CHECK(fp8Ratio > 0.75 && fp8Ratio < 0.85); // (1 + 2) / (2 + 2) of the bytes, and the same latencies
    // Inside one NVLink domain a token goes once to each GPU holding one of its experts. Mixtral's top-2 of 8
    // experts on EP 8 are always on two GPUs: the same bytes either way.
    Scenario one = mixtral(1, 8, 8);
    const Plan a = evaluate(one);
    one.training.moeDispatcher = MoeDispatcher::Deduplicated;
    const Plan b = evaluate(one);
    LP_CHECK_NEAR(b.time.epCommSeconds, a.time.epCommSeconds, 1e-9 * a.time.epCommSeconds);
    LP_CHECK_EQ(b.intermediates.epRemoteDomainsPerToken, 0.0);
    // Qwen3-30B-A3B's top-8 of 128 experts on EP 8 (16 per GPU) fall on 8 x (1 - C(112, 8) / C(128, 8))
    // = 5.34 GPUs, 4.67 of them others, where the all-to-all sends 7 of the 8 copies away.
    Scenario fine = one;
    fine.model.moe.experts = 128;
    fine.model.moe.topK = 8;
    fine.model.moe.expertFfnHidden = 768;
    const Plan deduplicated = evaluate(fine);
    fine.training.moeDispatcher = MoeDispatcher::AllToAll;
    const Plan copies = evaluate(fine);
    double missed = 1.0;
    for (int i = 0; i < 8; ++i)
        missed *= (112.0 - i) / (128.0 - i);
    const double others = 8.0 * (1.0 - missed) * 7.0 / 8.0;
    LP_CHECK_NEAR(others, 4.67, 0.01);
    const double inNode = deduplicated.time.epCommSeconds / copies.time.epCommSeconds;
    LP_CHECK(inNode > others / 7.0 - 0.02 &&
             inNode < others / 7.0 + 0.08); // NVLink-bound, the same latencies
    // Spellings of the frameworks.
    LP_CHECK(parseMoeDispatcher("deepep") == MoeDispatcher::Deduplicated);
    LP_CHECK(parseMoeDispatcher("flex") == MoeDispatcher::Deduplicated);
    LP_CHECK(parseMoeDispatcher("HybridEP") == MoeDispatcher::Deduplicated);
    LP_CHECK(parseMoeDispatcher("alltoall") == MoeDispatcher::AllToAll);
    LP_CHECK(!parseMoeDispatcher("allgather").has_value());
    LP_CHECK(toString(MoeDispatcher::Deduplicated) == "deepep");
}

LP_TEST(routing_groups_must_split_the_experts_and_hold_the_top_k) {
    Scenario s = mixtral(1, 8, 8); // 8 experts, top-2
    s.model.moe.groups = 4;
    s.model.moe.groupLimit = 1; // 1 group of 2 experts holds the top-2
    LP_CHECK(evaluate(s).valid);
    s.model.moe.groups = 3; // does not divide 8 experts
    LP_CHECK(!evaluate(s).valid);
    s.model.moe.groups = 8;
    s.model.moe.groupLimit = 1; // 1 expert per group: fewer than top-2
    LP_CHECK(!evaluate(s).valid);
    s.model.moe.groupLimit = 9; // more than the groups
    LP_CHECK(!evaluate(s).valid);
    // DeepSeek-V3's preset and its Hugging Face config carry n_group 8, topk_group 4.
    const ModelSpec& v3 = findModelPreset("deepseek-v3")->model;
    LP_CHECK_EQ(v3.moe.groups, 8);
    LP_CHECK_EQ(v3.moe.groupLimit, 4);
}

LP_TEST(the_experts_gradients_are_reduced_over_their_own_group_and_cards) {
    // Mixtral on 8 nodes x 8 GPUs, EP 8 inside each node, ZeRO-1: the dense weights' gradients are
    // reduced over all 64 ranks, 8 in each node on 8 cards; the experts' over the 8 ranks that hold the
    // same experts, one per node, so each such group has one card per node.
    Scenario s = mixtral(1, 8, 64);
    s.training.zeroStage = 1;
    s.training.overlapDpComm = Toggle::Off;
    s.training.gradPrecision = GradPrecision::Half;
    const Plan p = evaluate(s);
    LP_CHECK(p.valid);
    const Intermediates& im = p.intermediates;
    LP_CHECK_EQ(im.expertDpRanks, 8);
    const double expertParams = p.params.routedExpertsTotal / 8.0;    // every layer on the one stage
    LP_CHECK_NEAR(im.expertDpMessageBytes, expertParams * 2.0, 1e-9); // 16-bit gradients
    const double card = s.cluster.gpu.networkBandwidth;
    LP_CHECK(im.expertDpBusBandwidth <= card);
    LP_CHECK(im.dpBusBandwidth > 4.0 * im.expertDpBusBandwidth);
    // Reduce-scatter and all-gather of the experts' shard through one card each: at least 2 x 7/8 x bytes
    // over the card's speed, and all of it exposed without the overlap.
    LP_CHECK(im.expertDpSeconds >= 2.0 * 7.0 / 8.0 * im.expertDpMessageBytes / card);
    LP_CHECK(p.time.dpCommExposedSeconds >= im.expertDpSeconds);
    // One NVLink domain of 64 (a GB200 NVL72 rack): the same group on NVLink, several times faster.
    Scenario rack = s;
    rack.cluster.nvlinkDomain = 64;
    const Plan r = evaluate(rack);
    LP_CHECK(r.intermediates.expertDpSeconds < 0.25 * im.expertDpSeconds);
    // EP 64 = DP: every rank holds its own experts; only the dense gradients are reduced.
    const Plan whole = evaluate(mixtral(1, 64, 64));
    LP_CHECK_EQ(whole.intermediates.expertDpRanks, 0);
}

LP_TEST(fsdp_gathers_a_moe_layers_experts_over_the_expert_data_parallel_ranks) {
    // FSDP2 with EP = DP (torchtitan): every rank holds whole experts of its own, so a layer's gather
    // fetches its dense weights only.
    Scenario s = mixtral(1, 8, 8);
    s.training.zeroStage = 3;
    s.training.executionStyle = ExecutionStyle::Fsdp;
    const Plan p = evaluate(s);
    LP_CHECK(p.valid);
    const ParameterCount& c = p.params;
    const double denseLayer = (c.layersTotal - c.routedExpertsTotal) / s.model.layers;
    LP_CHECK_NEAR(p.intermediates.dpMessageBytes, 2.0 * denseLayer, 1e-9);
    // EP 4 on DP 8: each expert is sharded over two ranks and gathered as well: more traffic.
    Scenario half = s;
    half.layout.ep = 4;
    const Plan h = evaluate(half);
    LP_CHECK(h.valid);
    LP_CHECK_NEAR(h.intermediates.dpMessageBytes, 2.0 * denseLayer, 1e-9);
    LP_CHECK(h.time.dpCommExposedSeconds > p.time.dpCommExposedSeconds);
}

LP_TEST_MAIN()
