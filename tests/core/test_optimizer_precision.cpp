// The optimizer's precision (optimizer_precision): fp32 master weights and moments, fp32 master with 16-bit
// moments (Megatron-Core's precision-aware optimizer, DeepSeek-V3), or 16-bit parameters with no master copy
// (NeMo AutoModel's own models). Checked by hand on the seed scenario, and on the published runs that use
// them.
#include "TestHarness.h"
#include "core/estimate/Evaluate.h"
#include "core/estimate/Explain.h"
#include "core/estimate/Precision.h"
#include "core/export/LaunchExport.h"
#include "core/io/Presets.h"
#include "core/measured/ValidationRun.h"

#include <string>

using namespace lp::core;

namespace {

Scenario seedWith(OptimizerPrecision p, Optimizer o = Optimizer::Adam) {
    Scenario s = defaultScenario();
    s.training.optimizer = o;
    s.training.optimizerPrecision = p;
    return s;
}

double optimizerOnStage0(const Plan& p) {
    return p.memory.stages.front().optimizerBytes;
}

} // namespace

LP_TEST(state_bytes_per_parameter_by_hand) {
    // Adam: master 4 + moments 8; master 4 + moments 4; moments 4 only. SGD with momentum: 8, 6, 2.
    LP_CHECK_NEAR(optimizerBytesPerParam(seedWith(OptimizerPrecision::Fp32).training), 12.0, 1e-12);
    LP_CHECK_NEAR(optimizerBytesPerParam(seedWith(OptimizerPrecision::Bf16Moments).training), 8.0, 1e-12);
    LP_CHECK_NEAR(optimizerBytesPerParam(seedWith(OptimizerPrecision::Bf16).training), 4.0, 1e-12);
    LP_CHECK_NEAR(optimizerBytesPerParam(seedWith(OptimizerPrecision::Fp32, Optimizer::SgdMomentum).training),
                  8.0, 1e-12);
    LP_CHECK_NEAR(
        optimizerBytesPerParam(seedWith(OptimizerPrecision::Bf16Moments, Optimizer::SgdMomentum).training),
        6.0, 1e-12);
    LP_CHECK_NEAR(optimizerBytesPerParam(seedWith(OptimizerPrecision::Bf16, Optimizer::SgdMomentum).training),
                  2.0, 1e-12);
    // The step's traffic: the gradient read and the state read and written (28 bytes for Adam in fp32);
    // without a master copy the 16-bit weights are read and written in its place.
    LP_CHECK_NEAR(optimizerStepBytesPerParam(seedWith(OptimizerPrecision::Fp32).training), 28.0, 1e-12);
    LP_CHECK_NEAR(optimizerStepBytesPerParam(seedWith(OptimizerPrecision::Bf16Moments).training), 20.0,
                  1e-12);
    LP_CHECK_NEAR(optimizerStepBytesPerParam(seedWith(OptimizerPrecision::Bf16).training), 14.0, 1e-12);
    LP_CHECK_EQ(std::string(toString(OptimizerPrecision::Bf16Moments)), std::string("bf16_moments"));
    LP_CHECK(parseOptimizerPrecision("bf16") == OptimizerPrecision::Bf16);
    LP_CHECK(!parseOptimizerPrecision("fp16").has_value());
}

LP_TEST(the_plan_holds_and_moves_that_state) {
    const Plan fp32 = evaluate(seedWith(OptimizerPrecision::Fp32));
    const Plan moments = evaluate(seedWith(OptimizerPrecision::Bf16Moments));
    const Plan bf16 = evaluate(seedWith(OptimizerPrecision::Bf16));
    LP_CHECK(fp32.valid && moments.valid && bf16.valid);
    // The sharded optimizer state scales with its bytes per parameter; weights and gradients do not move.
    LP_CHECK_NEAR(optimizerOnStage0(moments) / optimizerOnStage0(fp32), 8.0 / 12.0, 1e-12);
    LP_CHECK_NEAR(optimizerOnStage0(bf16) / optimizerOnStage0(fp32), 4.0 / 12.0, 1e-12);
    LP_CHECK_EQ(bf16.memory.stages.front().weightsBytes, fp32.memory.stages.front().weightsBytes);
    LP_CHECK_EQ(bf16.memory.stages.front().gradientsBytes, fp32.memory.stages.front().gradientsBytes);
    // The training state figure: 16, 12 and 8 bytes per parameter.
    LP_CHECK_NEAR(fp32.intermediates.bytesPerParamState, 16.0, 1e-12);
    LP_CHECK_NEAR(bf16.trainingStateBytes / fp32.trainingStateBytes, 8.0 / 16.0, 1e-12);
    // The optimizer step is memory-bound over the held parameters: 28, 20 and 14 bytes each.
    LP_CHECK_NEAR(moments.time.optimizerSeconds / fp32.time.optimizerSeconds, 20.0 / 28.0, 1e-9);
    LP_CHECK_NEAR(bf16.time.optimizerSeconds / fp32.time.optimizerSeconds, 14.0 / 28.0, 1e-9);
    // The explanations say the bytes the plan used.
    const auto opt = explainFigure(seedWith(OptimizerPrecision::Bf16Moments), moments, "memory.optimizer");
    LP_CHECK(opt.has_value() && opt->formula.find("x 8 bytes") != std::string::npos);
    LP_CHECK(opt.has_value() && opt->words.find("moments in bf16") != std::string::npos);
    const auto none = explainFigure(seedWith(OptimizerPrecision::Bf16), bf16, "memory.optimizer");
    LP_CHECK(none.has_value() && none->words.find("no master copy") != std::string::npos);
    // ... and so does the optimizer step's: 20 bytes of traffic with 16-bit moments, the state named.
    const auto step = explainFigure(seedWith(OptimizerPrecision::Bf16Moments), moments, "time.optimizer");
    LP_CHECK(step.has_value() && step->formula.find("x 20 bytes") != std::string::npos);
    LP_CHECK(step.has_value() && step->words.find("moments in bf16") != std::string::npos);
    Scenario offload = seedWith(OptimizerPrecision::Bf16);
    offload.training.optimizerOffload = true;
    const auto cpu = explainFigure(offload, evaluate(offload), "time.optimizer");
    LP_CHECK(cpu.has_value() && cpu->formula.find("x 14 bytes") != std::string::npos);
    LP_CHECK(cpu.has_value() && cpu->words.find("no master copy") != std::string::npos);
    // The number formats name the master copy and the moments.
    bool sawNoMaster = false, sawBf16Moments = false;
    for (const TensorPrecision& row : precisionTable(seedWith(OptimizerPrecision::Bf16))) {
        sawNoMaster = sawNoMaster || (row.tensor == "Master weights" && row.format == "none");
        sawBf16Moments = sawBf16Moments || (row.tensor == "Adam moments (m, v)" && row.bytes == 2);
    }
    LP_CHECK(sawNoMaster && sawBf16Moments);
}

LP_TEST(launch_settings_ask_for_bf16_moments_or_name_what_they_cannot_set) {
    const LaunchSettings moments =
        exportLaunchSettings(seedWith(OptimizerPrecision::Bf16Moments), LaunchTarget::Megatron);
    LP_CHECK(moments.text.find("--use-precision-aware-optimizer") != std::string::npos);
    LP_CHECK(moments.text.find("--exp-avg-sq-dtype bf16") != std::string::npos);
    const LaunchSettings bf16 =
        exportLaunchSettings(seedWith(OptimizerPrecision::Bf16), LaunchTarget::Megatron);
    bool noted = false;
    for (const std::string& n : bf16.notes)
        noted = noted || n.find("fp32 main parameters") != std::string::npos;
    LP_CHECK(noted);
    LP_CHECK(exportLaunchSettings(seedWith(OptimizerPrecision::Fp32), LaunchTarget::Megatron)
                 .text.find("exp-avg") == std::string::npos);
}

LP_TEST(published_runs_plan_their_optimizer_precision) {
    const auto cases =
        loadValidationCases(std::string(LP_TEST_DATA_DIR) + "/validation/more-published-runs.json");
    LP_CHECK(cases.has_value());
    int automodelMoe = 0, deepseek = 0, others = 0;
    for (const ValidationCase& c : cases ? *cases : std::vector<ValidationCase>{}) {
        const OptimizerPrecision p = c.scenario.training.optimizerPrecision;
        if (c.id.find("nemo_automodel") != std::string::npos && c.scenario.model.isMoe()) {
            LP_CHECK(p == OptimizerPrecision::Bf16);
            ++automodelMoe;
        } else if (c.id == "deepseek_v3_h800_2048gpu") {
            LP_CHECK(p == OptimizerPrecision::Bf16Moments);
            ++deepseek;
        } else {
            LP_CHECK(p == OptimizerPrecision::Fp32); // AutoModel's Llama 3 70B row among them
            ++others;
        }
    }
    LP_CHECK_EQ(automodelMoe, 6);
    LP_CHECK_EQ(deepseek, 1);
    LP_CHECK(others > 50);
    // AutoModel's six MoE rows planned 114-130% of their GPUs with fp32 state; two stay over, by under 8%.
    if (!cases)
        return;
    std::vector<ValidationCase> moe;
    for (const ValidationCase& c : *cases)
        if (c.id.find("nemo_automodel") != std::string::npos && c.scenario.model.isMoe())
            moe.push_back(c);
    const ValidationReport r = runValidation(moe, nullptr);
    LP_CHECK(r.overCapacity.size() <= 2);
    for (const OverCapacity& o : r.overCapacity)
        LP_CHECK(o.usedFraction < 1.08);
}

LP_TEST_MAIN()
