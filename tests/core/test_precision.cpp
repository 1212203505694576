// The per-tensor precision table and the limits of context parallelism (docs/estimation.md: FP8 and long
// context).
#include "ScenarioFixtures.h"
#include "TestHarness.h"
#include "core/estimate/Evaluate.h"
#include "core/estimate/Precision.h"
#include "core/io/Presets.h"

#include <algorithm>
#include <string>

using namespace lp::core;

namespace {

const TensorPrecision* row(const std::vector<TensorPrecision>& rows, const std::string& prefix) {
    auto it = std::find_if(rows.begin(), rows.end(),
                           [&](const TensorPrecision& r) { return r.tensor.starts_with(prefix); });
    return it == rows.end() ? nullptr : &*it;
}

const Diagnostic* find(const Plan& p, DiagnosticId id) {
    for (const auto& d : p.diagnostics)
        if (d.id == id)
            return &d;
    return nullptr;
}

} // namespace

LP_TEST(bf16_table_keeps_optimizer_in_fp32_and_has_no_fp8_rows) {
    Scenario s = defaultScenario();
    const auto rows = precisionTable(s);
    LP_CHECK(row(rows, "Linear-layer GEMM inputs") != nullptr);
    LP_CHECK(row(rows, "Linear-layer GEMM inputs")->format == "bf16");
    LP_CHECK(row(rows, "FP8 weight copies") == nullptr);
    LP_CHECK(row(rows, "Scaling state") == nullptr);
    LP_CHECK(row(rows, "Master weights")->format == "fp32");
    LP_CHECK_NEAR(row(rows, "Adam moments")->bytes, 4.0, 0.0); // per stored value; two per parameter
    LP_CHECK(row(rows, "Adam moments")->format.find("two per parameter") != std::string::npos);
    LP_CHECK(row(rows, "Loss scale") == nullptr);
    LP_CHECK(row(rows, "MoE router") == nullptr); // dense model
    for (const auto& r : rows) {
        LP_CHECK(!r.tensor.empty());
        LP_CHECK(!r.format.empty());
        LP_CHECK(!r.note.empty());
    }
}

LP_TEST(fp8_tables_follow_the_execution_style) {
    Scenario s = defaultScenario();
    s.training.precision = Precision::Fp8;
    const auto te = precisionTable(s); // Megatron-LM with Transformer Engine
    LP_CHECK(row(te, "Linear-layer GEMM inputs, forward")->format == "fp8 e4m3");
    LP_CHECK(row(te, "Linear-layer GEMM inputs, backward")->format.find("e5m2") != std::string::npos);
    LP_CHECK_NEAR(row(te, "FP8 weight copies")->bytes, 2.0, 0.0);
    LP_CHECK(row(te, "Scaling state")->note.find("1024") != std::string::npos);
    LP_CHECK_NEAR(row(te, "Linear inputs saved")->bytes, 1.0, 0.0);
    // What fp8 never touches.
    LP_CHECK(row(te, "Attention core")->format.starts_with("bf16"));
    LP_CHECK(row(te, "Master weights")->format == "fp32");

    s.training.executionStyle = ExecutionStyle::Fsdp; // torchao Float8Linear
    const auto ao = precisionTable(s);
    LP_CHECK_NEAR(row(ao, "FP8 weight copies")->bytes, 0.0, 0.0);
    LP_CHECK_NEAR(row(ao, "Linear inputs saved")->bytes, 2.0, 0.0);
    LP_CHECK(row(ao, "Scaling state")->format.find("per step") != std::string::npos);
    LP_CHECK(row(ao, "Gradient reduction")->format == "fp32");

    // A GPU without fp8 tensor cores runs the GEMMs in 16 bits and says so.
    s.cluster.gpu = findGpuPreset("a100-sxm-80gb")->gpu;
    const auto a100 = precisionTable(s);
    LP_CHECK(row(a100, "FP8 weight copies") == nullptr);
    LP_CHECK(row(a100, "Linear-layer GEMM inputs")->note.find("no fp8") != std::string::npos);
}

LP_TEST(fp16_adds_the_loss_scale_and_moe_the_fp32_router) {
    Scenario s = defaultScenario();
    s.training.precision = Precision::Fp16;
    LP_CHECK(row(precisionTable(s), "Loss scale") != nullptr);
    s.model = findModelPreset("mixtral-8x7b")->model;
    LP_CHECK(row(precisionTable(s), "MoE router")->format == "fp32");
}

LP_TEST(fp8_scaling_state_grows_with_local_experts) {
    // An MoE layer has a scaling state per local expert GEMM: halving EP doubles the local experts.
    Scenario s = defaultScenario();
    s.model = findModelPreset("mixtral-8x7b")->model;
    s.training.precision = Precision::Fp8;
    s.layout = Layout{};
    s.layout.tp = 2;
    s.layout.pp = 4;
    s.layout.dp = 8;
    s.layout.ep = 8;
    s.layout.microBatch = 1;
    s.layout.accumulation = 8;
    const Plan ep8 = evaluate(s);
    s.layout.ep = 4;
    const Plan ep4 = evaluate(s);
    LP_CHECK(ep8.valid && ep4.valid);
    const double module = fp8ScalingBytesPerModule(fp8Habits(s, ExecutionStyle::Megatron));
    // 8 experts: EP 8 -> 1 local expert, EP 4 -> 2; two GEMM modules per expert, 8 layers per stage.
    LP_CHECK_NEAR(ep4.intermediates.fp8ScalingStateBytes - ep8.intermediates.fp8ScalingStateBytes,
                  8.0 * 2.0 * module, 1e-12);
}

LP_TEST(the_loss_kernel_sets_the_logits_memory) {
    // Llama 3.1 8B (vocab 128256) on 8 GPUs, FSDP: the logits are the largest loss-time tensor.
    Scenario s = fixtures::llama8bFsdpOnOneNode();
    s.training.sequenceParallel = false;
    const double tokensTimesVocab = 2.0 * s.model.seqLen * s.model.vocab;
    auto logitsOf = [&](CrossEntropy ce) {
        s.training.crossEntropy = ce;
        const Plan p = evaluate(s);
        LP_CHECK(p.valid);
        return p.intermediates.logitsBytes;
    };
    // Auto is the style's habit: the FSDP style's eager fp32 loss.
    LP_CHECK_NEAR(logitsOf(CrossEntropy::Auto), 12.0 * tokensTimesVocab, 1e-6);
    LP_CHECK_NEAR(logitsOf(CrossEntropy::Unfused), 12.0 * tokensTimesVocab, 1e-6);
    LP_CHECK_NEAR(logitsOf(CrossEntropy::Fused), 6.0 * tokensTimesVocab, 1e-6);
    // A fused linear cross-entropy holds one fp32 chunk and its gradient, tokens x hidden in size.
    LP_CHECK_NEAR(logitsOf(CrossEntropy::FusedLinear), 8.0 * 2.0 * s.model.seqLen * s.model.hidden, 1e-6);
    // The last stage's activations move by the same amount; the precision table follows the choice.
    s.training.crossEntropy = CrossEntropy::Unfused;
    const double unfused = evaluate(s).memory.stages[0].activationsBytes;
    s.training.crossEntropy = CrossEntropy::Fused;
    LP_CHECK_NEAR(unfused - evaluate(s).memory.stages[0].activationsBytes, 6.0 * tokensTimesVocab, 1e-3);
    const std::vector<TensorPrecision> fusedTable = precisionTable(s); // kept: row() points into it
    const TensorPrecision* loss = row(fusedTable, "Logits and loss");
    LP_CHECK(loss && loss->note.find("6 bytes per logit") != std::string::npos);
    s.training.crossEntropy = CrossEntropy::FusedLinear;
    const std::vector<TensorPrecision> chunkedTable = precisionTable(s);
    loss = row(chunkedTable, "Logits and loss");
    LP_CHECK(loss && loss->format == "fp32, in chunks");
    // A compiled loss keeps the 16-bit logits and writes a 16-bit gradient; the table says so.
    LP_CHECK_NEAR(logitsOf(CrossEntropy::Compiled), 4.0 * tokensTimesVocab, 1e-6);
    const std::vector<TensorPrecision> compiledTable = precisionTable(s);
    loss = row(compiledTable, "Logits and loss");
    LP_CHECK(loss && loss->note.find("4 bytes per logit") != std::string::npos);
    // Compiling the model compiles the FSDP style's loss with it (torchtitan), unless a kernel is chosen.
    s.training.torchCompile = true;
    LP_CHECK_NEAR(logitsOf(CrossEntropy::Auto), 4.0 * tokensTimesVocab, 1e-6);
    LP_CHECK_NEAR(logitsOf(CrossEntropy::Unfused), 12.0 * tokensTimesVocab, 1e-6);
    // The Megatron style's habit is the fused kernel, compiled or not.
    s.training.zeroStage = 1;
    LP_CHECK_NEAR(logitsOf(CrossEntropy::Auto), 6.0 * tokensTimesVocab, 1e-6);
    s.training.torchCompile = false;
    LP_CHECK_NEAR(logitsOf(CrossEntropy::Auto), 6.0 * tokensTimesVocab, 1e-6);
}

LP_TEST(cp_exchange_hides_above_the_crossover_chunk_and_not_below) {
    Scenario s = defaultScenario();
    s.model = findModelPreset("llama3.1-8b")->model;
    s.training.recompute = Recompute::Full;
    s.training.zeroStage = 1;
    s.layout = Layout{};
    s.layout.tp = 1;
    s.layout.cp = 8;
    s.layout.dp = 8;
    s.layout.microBatch = 1;
    s.layout.accumulation = 1;
    s.model.seqLen = 8 * 1024; // 1K tokens per rank: far below the crossover over NVLink
    const Plan shortChunks = evaluate(s);
    LP_CHECK(shortChunks.valid);
    const double crossover = shortChunks.intermediates.cpHidingTokens;
    LP_CHECK(crossover > 0);
    LP_CHECK(shortChunks.intermediates.cpExchangeBytes > 0);
    if (1024 < crossover / 2) {
        LP_CHECK(shortChunks.time.cpCommSeconds > 0);
    }
    s.model.seqLen = 8 * 131072; // 128K tokens per rank: attention work hides the ring
    const Plan longChunks = evaluate(s);
    LP_CHECK(131072 > 2 * longChunks.intermediates.cpHidingTokens);
    // Hidden: only the overlap residual (a fifth of the exchange) is paid, a sliver of the step.
    LP_CHECK(longChunks.time.cpCommSeconds < 0.01 * longChunks.time.stepSeconds);
    LP_CHECK(!longChunks.has(DiagnosticId::CpExchangeExposed));
    LP_CHECK(!longChunks.has(DiagnosticId::CpCrossesNodes)); // 8 ranks inside one 8-GPU node
}

LP_TEST(cp_over_the_network_is_flagged_with_its_cost) {
    Scenario s = defaultScenario();
    s.model = findModelPreset("llama3.1-8b")->model;
    s.model.seqLen = 16 * 2048; // 2K tokens per rank, ring over the network
    s.training.recompute = Recompute::Full;
    s.layout = Layout{};
    s.layout.tp = 1;
    s.layout.cp = 16;
    s.layout.dp = 4;
    s.layout.microBatch = 1;
    s.layout.accumulation = 1;
    const Plan p = evaluate(s);
    LP_CHECK(p.valid);
    const Diagnostic* crosses = find(p, DiagnosticId::CpCrossesNodes);
    LP_CHECK(crosses != nullptr);
    LP_CHECK(std::get<diagnostic::CpCrossesNodes>(crosses->figures).cp == 16);
    const Diagnostic* exposed = find(p, DiagnosticId::CpExchangeExposed);
    LP_CHECK(exposed != nullptr);
    LP_CHECK_NEAR(exposed->costSeconds, p.time.cpCommSeconds, 1e-12);
    LP_CHECK_NEAR(std::get<diagnostic::CpExchangeExposed>(exposed->figures).tokensPerRank, 2048.0, 0.0);
    LP_CHECK(diagnosticMessage(*exposed).find("2048 tokens") != std::string::npos);
    LP_CHECK(!diagnosticSuggestion(*exposed).empty());
    LP_CHECK(diagnosticIdString(DiagnosticId::CpExchangeExposed) == "cp_exchange_exposed");
}

LP_TEST(fp8_weight_gathers_move_one_byte_per_weight_in_fp8_training_only) {
    // Llama 3.1 8B with FSDP over 64 GPUs of 8 nodes, fp8: torchao's float8 all-gather.
    Scenario s = fixtures::llama8bFsdpOnOneNode();
    s.cluster.nodes = 8;
    s.layout.dp = 64;
    s.training.precision = Precision::Fp8;
    const Plan off = evaluate(s);
    s.training.fp8ParamGather = true;
    const Plan on = evaluate(s);
    LP_CHECK(on.valid && off.valid);
    LP_CHECK_NEAR(off.intermediates.gatherBytesPerParam, 2.0, 0.0);
    LP_CHECK_NEAR(on.intermediates.gatherBytesPerParam, 1.0, 0.0);
    LP_CHECK_NEAR(on.intermediates.dpMessageBytes, off.intermediates.dpMessageBytes / 2, 1e-9);
    LP_CHECK(on.time.dpCommExposedSeconds < off.time.dpCommExposedSeconds);
    LP_CHECK(on.time.stepSeconds < off.time.stepSeconds);
    LP_CHECK(on.memory.stages[0].overheadBytes < off.memory.stages[0].overheadBytes); // fp8 layers in flight
    LP_CHECK(row(precisionTable(s), "Weight all-gathers")->format.starts_with("fp8"));
    // Without fp8 the switch changes nothing.
    s.training.precision = Precision::Bf16;
    const Plan bf16On = evaluate(s);
    s.training.fp8ParamGather = false;
    LP_CHECK_NEAR(bf16On.time.stepSeconds, evaluate(s).time.stepSeconds, 0.0);
    LP_CHECK(row(precisionTable(s), "Weight all-gathers")->format == "bf16");
    // The distributed optimizer's all-gather of the updated weights (Megatron-LM --fp8-param-gather), not
    // overlapped.
    Scenario m = defaultScenario();
    m.training.precision = Precision::Fp8;
    m.training.zeroStage = 1;
    const Plan mOff = evaluate(m);
    m.training.fp8ParamGather = true;
    const Plan mOn = evaluate(m);
    LP_CHECK(mOn.time.dpCommExposedSeconds < mOff.time.dpCommExposedSeconds);
    LP_CHECK(row(precisionTable(m), "Weight all-gather (after the step)")->format.starts_with("fp8"));
}

LP_TEST(fp8_on_a_gpu_without_fp8_tensor_cores_is_planned_in_bf16_and_said) {
    Scenario s = defaultScenario();
    s.cluster.gpu = findGpuPreset("a100-sxm-80gb")->gpu;
    s.training.precision = Precision::Bf16;
    const Plan bf16 = evaluate(s);
    s.training.precision = Precision::Fp8;
    const Plan fp8 = evaluate(s);
    LP_CHECK(fp8.valid && fp8.has(DiagnosticId::Fp8NotSupported));
    LP_CHECK(!bf16.has(DiagnosticId::Fp8NotSupported));
    LP_CHECK_NEAR(fp8.time.stepSeconds, bf16.time.stepSeconds, 1e-12 * bf16.time.stepSeconds);
    for (const Diagnostic& d : fp8.diagnostics)
        if (d.id == DiagnosticId::Fp8NotSupported) {
            LP_CHECK(d.severity == Severity::Warning);
            LP_CHECK(diagnosticMessage(d).find("no FP8 tensor cores") != std::string::npos);
            LP_CHECK(!diagnosticSuggestion(d).empty());
            LP_CHECK(diagnosticIdString(d.id) == "fp8_not_supported");
        }
    // On Hopper fp8 is real: no such warning.
    s.cluster.gpu = findGpuPreset("h100-sxm-80gb")->gpu;
    LP_CHECK(!evaluate(s).has(DiagnosticId::Fp8NotSupported));
}

LP_TEST_MAIN()
