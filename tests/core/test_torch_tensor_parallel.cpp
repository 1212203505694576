// Tensor parallelism as torch's DTensor plans run it (the FSDP style, torchtitan; docs/estimation.md,
// section 5): the column-parallel linears receive the sequence all-gathered and autograd saves it whole, and
// the eager loss runs under loss_parallel on vocabulary-sharded logits, holding 16 bytes per logit; under fp8
// the forward sequence all-gathers move the fp8 cast.
#include "ScenarioFixtures.h"
#include "TestHarness.h"
#include "core/estimate/Evaluate.h"
#include "core/estimate/ExecutionStyle.h"
#include "core/estimate/Precision.h"

using namespace lp::core;

namespace {

// Llama 3.1 8B on one node as TP t x DP 8/t with sequence parallel, no recompute, bf16.
Scenario llama8bWithTp(int tp, ExecutionStyle style) {
    Scenario s = fixtures::llama8bFsdpOnOneNode();
    s.layout.tp = tp;
    s.layout.dp = 8 / tp;
    s.layout.microBatch = 1;
    s.training.sequenceParallel = tp > 1;
    s.training.recompute = Recompute::None;
    s.training.executionStyle = style;
    return s;
}

// Evaluates with the FSDP style's torch TP habits switched off.
Plan evaluateWithoutTorchTp(const Scenario& s) {
    return fixtures::evaluateWithoutFsdpHabit(s, &StyleTraits::torchTensorParallel);
}

const TensorPrecision* row(const std::vector<TensorPrecision>& rows, const std::string& tensor) {
    for (const TensorPrecision& r : rows)
        if (r.tensor == tensor)
            return &r;
    return nullptr;
}

} // namespace

LP_TEST(loss_parallel_holds_sixteen_bytes_per_sharded_logit) {
    const Scenario fsdp = llama8bWithTp(2, ExecutionStyle::Fsdp);
    const double logitsPerGpu = 1.0 * fsdp.model.seqLen * fsdp.model.vocab / 2.0;
    const Plan p = evaluate(fsdp);
    LP_CHECK(p.valid);
    LP_CHECK_NEAR(p.intermediates.logitsBytes, 16.0 * logitsPerGpu, 1e-3);
    // Without TP the same eager loss is torch's fused log-softmax kernels: 12 bytes.
    const Scenario noTp = llama8bWithTp(1, ExecutionStyle::Fsdp);
    LP_CHECK_NEAR(evaluate(noTp).intermediates.logitsBytes, 12.0 * noTp.model.seqLen * noTp.model.vocab,
                  1e-3);
    // Megatron's vocab-parallel loss and an explicitly fused kernel are not loss_parallel.
    LP_CHECK_NEAR(evaluate(llama8bWithTp(2, ExecutionStyle::Megatron)).intermediates.logitsBytes,
                  6.0 * logitsPerGpu, 1e-3);
    Scenario fused = fsdp;
    fused.training.crossEntropy = CrossEntropy::Fused;
    LP_CHECK_NEAR(evaluate(fused).intermediates.logitsBytes, 6.0 * logitsPerGpu, 1e-3);
    // The decomposed log-softmax and its backward pass over the logits with 76 bytes of traffic.
    LP_CHECK_NEAR(lossTrafficBytesPerLogit(CrossEntropy::Auto, ExecutionStyle::Fsdp, 2), 76.0, 1e-12);
    LP_CHECK_NEAR(lossTrafficBytesPerLogit(CrossEntropy::Unfused, ExecutionStyle::Fsdp, 8), 76.0, 1e-12);
    LP_CHECK_NEAR(lossTrafficBytesPerLogit(CrossEntropy::Auto, ExecutionStyle::Fsdp, 1), 44.0, 1e-12);
    LP_CHECK_NEAR(lossTrafficBytesPerLogit(CrossEntropy::Auto, ExecutionStyle::Megatron, 8), 52.0, 1e-12);
    LP_CHECK(evaluateWithoutTorchTp(fsdp).time.computeSeconds < p.time.computeSeconds);
    // The precision table names it.
    const std::vector<TensorPrecision> table = precisionTable(fsdp);
    const TensorPrecision* loss = row(table, "Logits and loss");
    LP_CHECK(loss && loss->note.find("loss_parallel") != std::string::npos &&
             loss->note.find("16 bytes per logit") != std::string::npos);
}

LP_TEST(torch_tp_saves_the_gathered_linear_inputs_whole) {
    // bf16, TP 4 with sequence parallel: the QKV and MLP-input linears' inputs are saved gathered (2 bytes
    // per element of tokens x hidden each) instead of as the 1/4 shard Megatron keeps.
    const Scenario s = llama8bWithTp(4, ExecutionStyle::Fsdp);
    const double tokensTimesHidden = 1.0 * s.model.seqLen * s.model.hidden;
    const Plan torchTp = evaluate(s), shard = evaluateWithoutTorchTp(s);
    LP_CHECK(torchTp.valid && shard.valid);
    LP_CHECK_NEAR(torchTp.intermediates.activationBytesPerLayer - shard.intermediates.activationBytesPerLayer,
                  2.0 * 2.0 * tokensTimesHidden * (1.0 - 1.0 / 4.0), 1e-3);
    // fp8: torchtitan all-gathers the fp8 cast, so the saved whole copies take 1 byte per element (in place
    // of the 2-byte shards of 1/4): one tokens x hidden more in all.
    Scenario f8 = s;
    f8.cluster.gpu = findGpuPreset("h100-sxm-80gb")->gpu;
    f8.training.precision = Precision::Fp8;
    const Plan torchF8 = evaluate(f8), shardF8 = evaluateWithoutTorchTp(f8);
    LP_CHECK(torchF8.valid && shardF8.valid);
    LP_CHECK_NEAR(torchF8.intermediates.activationBytesPerLayer -
                      shardF8.intermediates.activationBytesPerLayer,
                  2.0 * 1.0 * tokensTimesHidden - 2.0 * 2.0 * tokensTimesHidden / 4.0, 1e-3);
    // Without TP nothing is gathered: the habit changes nothing.
    const Scenario noTp = llama8bWithTp(1, ExecutionStyle::Fsdp);
    LP_CHECK_NEAR(evaluate(noTp).intermediates.activationBytesPerLayer,
                  evaluateWithoutTorchTp(noTp).intermediates.activationBytesPerLayer, 1e-6);
}

LP_TEST(torch_fp8_tp_gathers_the_fp8_cast_in_forward) {
    // TP 8 with sequence parallel, no recompute: per layer two forward all-gather + reduce-scatter pairs and
    // two backward ones, eight all-gathers' worth of the hidden state. torchao's Float8 TP plans gather the
    // fp8 cast in forward (half the bytes of those two all-gathers): 7 of 8 at large messages.
    Scenario s = llama8bWithTp(8, ExecutionStyle::Fsdp);
    s.cluster.gpu = findGpuPreset("h100-sxm-80gb")->gpu;
    s.training.precision = Precision::Fp8;
    s.layout.microBatch = 4;
    const Plan torchTp = evaluate(s), plain = evaluateWithoutTorchTp(s);
    LP_CHECK(torchTp.valid && plain.valid && plain.time.tpCommSeconds > 0);
    const double ratio = torchTp.time.tpCommSeconds / plain.time.tpCommSeconds;
    LP_CHECK(ratio >= 7.0 / 8.0 - 1e-9);
    LP_CHECK(ratio < 7.0 / 8.0 + 0.03);
    // bf16 gathers bf16 either way.
    s.training.precision = Precision::Bf16;
    LP_CHECK_NEAR(evaluate(s).time.tpCommSeconds, evaluateWithoutTorchTp(s).time.tpCommSeconds, 1e-12);
}

LP_TEST_MAIN()
