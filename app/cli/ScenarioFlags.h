#pragma once
// The flags that describe a scenario (shared by evaluate, scenario and every later subcommand that
// takes a scenario): an optional SCENARIO.json, then overrides such as --tp 8 --model llama2-70b.
#include "app/cli/Args.h"
#include "core/model/Hardware.h"
#include "core/model/Scenario.h"

#include <expected>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lp::cli {

struct ScenarioOverrides {
    std::optional<std::string> name, model, gpu, cluster, hfConfig;
    std::optional<int> nodes, gpusPerNode, nvlinkDomain, seqLen;
    std::optional<int> tp, pp, dp, cp, ep, etp, vpp, microBatch, accumulation, zeroStage, zeroShardDegree,
        recomputeLayers, activationOffloadLayers, logitsMetricPasses;
    std::optional<core::Recompute> recompute;
    std::optional<unsigned> recomputeModules;
    std::optional<core::RematPolicy> rematPolicy;
    std::optional<bool> sequenceParallel, flashAttention, torchCompile, fusedKernels, fp8ParamGather,
        loaderPrefetch, optimizerOffload;
    std::optional<core::Toggle> overlapTp, overlapDp; // on, off or auto (the style's habit for the GPU)
    std::optional<bool> overlapPp, overlapEp;
    std::optional<core::Precision> precision;
    std::optional<core::Optimizer> optimizer;
    std::optional<core::OptimizerPrecision> optimizerPrecision;
    std::optional<core::ExecutionStyle> style;
    std::optional<core::GradPrecision> gradPrecision;
    std::optional<core::CrossEntropy> crossEntropy;
    std::optional<core::CpExchange> cpExchange;
    std::optional<core::AttentionKernel> attentionKernel;
    std::optional<core::PipelineSplit> pipelineSplit;
    std::optional<core::PipelineSchedule> pipelineSchedule;
    std::optional<core::Zero3Gather> zero3Gather;
    std::optional<core::MoeDispatcher> moeDispatcher;
    std::optional<double> straggler, tokenBudget;
    // The network cards (core::NetworkSpec): any of them states the cluster's network.
    std::optional<core::Fabric> fabric;
    std::optional<int> networkCards;
    std::optional<double> networkGbps, networkLatency;
    std::optional<bool> railOptimized;
    // The run (core/model/RunOptions.h).
    std::optional<core::TokenRule> tokenRule;
    std::optional<core::LossFit> lossFit;
    std::optional<double> tokensPerParameter, computeBudget, daysBudget, usdBudget, pricePerGpuHour,
        boardPower, nodeOverhead, pue, gpuFailureRate, checkpointBandwidth, restartSeconds, deadlineDays;
    std::optional<bool> asyncCheckpoint;
    std::vector<std::string> given; // flags seen, in order (for messages)
};

// If the cursor is at a scenario flag, reads it (and its value) into `o` and returns true;
// returns false, consuming nothing, for any other argument.
std::expected<bool, CliError> takeScenarioFlag(ArgCursor& args, ScenarioOverrides& o);

// Applies the overrides to a scenario in a fixed order (model, cluster, training, layout; not the
// order given). When --nodes, --gpus-per-node or --cluster change the cluster but --dp is not given,
// dp becomes gpus / (tp x pp x cp) where that divides (otherwise evaluate reports gpu_count_mismatch).
std::expected<void, CliError> applyOverrides(const ScenarioOverrides& o, core::Scenario& s);

// The base scenario (the file, or the default scenario without one) with the overrides applied.
std::expected<core::Scenario, CliError> buildScenario(const std::optional<std::string>& file,
                                                      const ScenarioOverrides& o);

// A hardware profile file (--profile), its problems reported with the file's name.
std::expected<core::HardwareProfile, CliError> loadProfileArg(const std::string& file);

// The arguments of a command that takes a scenario: [SCENARIO.json] [scenario flags] [--profile FILE]
// [--json] plus the command's own flags, which `extra` reads (returning true when it took one).
struct ScenarioArgs {
    std::optional<std::string> file;
    std::optional<std::string> profileFile;
    ScenarioOverrides overrides;
    bool json = false;
};
using ExtraFlagReader = std::function<std::expected<bool, CliError>(ArgCursor&)>;
std::expected<ScenarioArgs, CliError> parseScenarioArgs(std::string_view command,
                                                        const std::vector<std::string>& argv,
                                                        bool acceptProfile, const ExtraFlagReader& extra);
// parseScenarioArgs, then buildScenario: for a command that checks nothing of its own in between.
struct ScenarioInput {
    ScenarioArgs args;
    core::Scenario scenario;
};
std::expected<ScenarioInput, CliError> readScenario(std::string_view command,
                                                    const std::vector<std::string>& argv, bool acceptProfile,
                                                    const ExtraFlagReader& extra);
CliError unknownOption(std::string_view command, std::string_view option);

// Help lines for the scenario flags ("  --tp N            tensor-parallel size").
std::string scenarioFlagsHelp();

} // namespace lp::cli
