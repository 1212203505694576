// Hybrid sharding (TrainingOptions::zeroShardDegree): the ZeRO/FSDP state sharded within groups of DP
// ranks and replicated across them, with the gradient shards all-reduced across the replicas.
#include "TestHarness.h"
#include "core/estimate/Evaluate.h"
#include "core/export/LaunchExport.h"
#include "core/io/Presets.h"

#include <string>

using namespace lp::core;

namespace {

// Llama-2-7B on 16 x 8 H100, TP 1, PP 1, DP 128: the fms-fsdp shape, where hybrid sharding is common.
Scenario dataParallel(int zero, int shardDegree) {
    Scenario s = defaultScenario();
    s.model.layers = 32;
    s.model.hidden = 4096;
    s.model.heads = 32;
    s.model.kvHeads = 32;
    s.model.ffnHidden = 11008;
    s.cluster.nodes = 16;
    s.layout = Layout{};
    s.layout.dp = 128;
    s.layout.microBatch = 2;
    s.layout.accumulation = 1;
    s.training.sequenceParallel = false;
    s.training.zeroStage = zero;
    s.training.zeroShardDegree = shardDegree;
    return s;
}

bool contains(const std::string& text, const std::string& what) {
    return text.find(what) != std::string::npos;
}

} // namespace

LP_TEST(a_shard_degree_of_dp_or_more_or_zero_is_plain_sharding) {
    for (int zero : {1, 3}) {
        const Plan full = evaluate(dataParallel(zero, 0));
        LP_CHECK(full.valid);
        for (int degree : {128, 256}) {
            const Plan same = evaluate(dataParallel(zero, degree));
            LP_CHECK(same.valid);
            LP_CHECK_EQ(same.memory.stages[0].totalBytes, full.memory.stages[0].totalBytes);
            LP_CHECK_EQ(same.time.stepSeconds, full.time.stepSeconds);
        }
    }
    // ZeRO-0 shards nothing: a shard degree changes nothing there.
    const Plan ddp = evaluate(dataParallel(0, 0));
    const Plan ddpHybrid = evaluate(dataParallel(0, 8));
    LP_CHECK(ddpHybrid.valid);
    LP_CHECK_EQ(ddpHybrid.time.stepSeconds, ddp.time.stepSeconds);
    LP_CHECK_EQ(ddpHybrid.memory.stages[0].totalBytes, ddp.memory.stages[0].totalBytes);
}

LP_TEST(each_gpu_holds_one_shard_of_its_group) {
    const Plan full = evaluate(dataParallel(3, 0));
    const Plan node = evaluate(dataParallel(3, 8));
    LP_CHECK(node.valid);
    const StageMemory& f = full.memory.stages[0];
    const StageMemory& n = node.memory.stages[0];
    // Sharded over 8 ranks instead of 128: 16 times the weights, gradients and optimizer state.
    LP_CHECK_NEAR(n.weightsBytes / f.weightsBytes, 16.0, 1e-9);
    LP_CHECK_NEAR(n.gradientsBytes / f.gradientsBytes, 16.0, 1e-9);
    LP_CHECK_NEAR(n.optimizerBytes / f.optimizerBytes, 16.0, 1e-9);
    LP_CHECK_EQ(n.activationsBytes, f.activationsBytes);
    // The optimizer step updates the larger shard.
    LP_CHECK_NEAR(node.time.optimizerSeconds / full.time.optimizerSeconds, 16.0, 1e-9);
}

LP_TEST(one_rank_per_group_is_an_all_reduce_of_everything) {
    // ZeRO-1 with a shard degree of 1 keeps the whole optimizer state on every rank and all-reduces the
    // gradients across DP: exactly ZeRO-0's memory and communication.
    Scenario ddp = dataParallel(0, 0);
    Scenario degreeOne = dataParallel(1, 1);
    ddp.training.executionStyle = degreeOne.training.executionStyle = ExecutionStyle::Megatron;
    const Plan a = evaluate(ddp);
    const Plan b = evaluate(degreeOne);
    LP_CHECK(b.valid);
    LP_CHECK_NEAR(b.memory.stages[0].optimizerBytes, a.memory.stages[0].optimizerBytes, 1e-6);
    LP_CHECK_NEAR(b.time.dpCommExposedSeconds, a.time.dpCommExposedSeconds, 1e-12);
}

LP_TEST(sharding_within_a_node_keeps_the_gathers_on_nvlink) {
    const Plan full = evaluate(dataParallel(3, 0));
    const Plan node = evaluate(dataParallel(3, 8));
    // The gathers and reduce-scatters run inside the NVLink domain (at NVLink's bus bandwidth) ...
    LP_CHECK(node.intermediates.dpBusBandwidth > full.intermediates.dpBusBandwidth);
    // ... and no GPU takes the warning that sharding traffic crosses the network with TP.
    LP_CHECK(!node.has(DiagnosticId::ShardingTrafficContendsWithTp));
    // The replicas' all-reduce is real traffic: over a network ten times slower it costs more.
    Scenario slow = dataParallel(3, 8);
    slow.cluster.gpu.networkBandwidth /= 10.0;
    LP_CHECK(evaluate(slow).time.dpCommExposedSeconds > node.time.dpCommExposedSeconds);
}

LP_TEST(exposed_sharding_traffic_suggests_the_node_local_degree) {
    // A network ten times slower: FSDP over all 128 GPUs exposes its traffic, and the advice names the
    // degree that keeps the group inside a node (8 GPUs / TP 1).
    Scenario s = dataParallel(3, 0);
    s.cluster.gpu.networkBandwidth /= 10.0;
    auto suggestionOf = [](const Plan& p) {
        for (const Diagnostic& d : p.diagnostics)
            if (d.id == DiagnosticId::ExposedDpComm)
                return diagnosticSuggestion(d);
        return std::string("(no exposed_dp_comm)");
    };
    const Plan full = evaluate(s);
    LP_CHECK(contains(suggestionOf(full), "shard degree 8"));
    // Already sharded within the node: the advice no longer says so.
    s.training.zeroShardDegree = 8;
    const std::string hybrid = suggestionOf(evaluate(s));
    LP_CHECK(!contains(hybrid, "shard degree"));
}

LP_TEST(a_shard_degree_that_does_not_divide_dp_is_an_invalid_layout) {
    const Plan p = evaluate(dataParallel(3, 12));
    LP_CHECK(!p.valid);
    LP_CHECK(p.has(DiagnosticId::ShardDegreeDoesNotDivideDp));
    for (const Diagnostic& d : p.diagnostics)
        if (d.id == DiagnosticId::ShardDegreeDoesNotDivideDp) {
            LP_CHECK(contains(diagnosticMessage(d), "shard degree 12 does not divide DP 128"));
            LP_CHECK(!diagnosticSuggestion(d).empty());
        }
    Scenario negative = dataParallel(3, 0);
    negative.training.zeroShardDegree = -8;
    const Plan bad = evaluate(negative);
    LP_CHECK(bad.has(DiagnosticId::InvalidValue));
    for (const Diagnostic& d : bad.diagnostics) // the message says where to look
        if (d.id == DiagnosticId::InvalidValue)
            LP_CHECK(contains(diagnosticMessage(d), "the training options (ZeRO stage 0-3, shard degree"));
}

LP_TEST(launch_settings_name_the_hybrid_layout) {
    const Scenario fsdp = dataParallel(3, 8);
    const std::string titan = exportLaunchSettings(fsdp, LaunchTarget::Torchtitan).text;
    LP_CHECK(contains(titan, "data_parallel_replicate_degree = 16"));
    LP_CHECK(contains(titan, "data_parallel_shard_degree = 8"));
    const std::string ds = exportLaunchSettings(fsdp, LaunchTarget::DeepSpeed).text;
    LP_CHECK(contains(ds, "\"mics_shard_size\": 8"));
    const std::string megatron = exportLaunchSettings(dataParallel(1, 8), LaunchTarget::Megatron).text;
    LP_CHECK(contains(megatron, "--num-distributed-optimizer-instances 16"));
    // Plain sharding writes none of them.
    LP_CHECK(!contains(exportLaunchSettings(dataParallel(1, 0), LaunchTarget::Megatron).text,
                       "optimizer-instances"));
    LP_CHECK(!contains(exportLaunchSettings(dataParallel(3, 0), LaunchTarget::DeepSpeed).text, "mics"));
    // DeepSpeed has no partial sharding at stages 1-2: the settings say so.
    bool noted = false;
    for (const std::string& n : exportLaunchSettings(dataParallel(1, 8), LaunchTarget::DeepSpeed).notes)
        noted = noted || contains(n, "hybrid sharding");
    LP_CHECK(noted);
}

LP_TEST_MAIN()
