// The pipeline split (training option pipeline_split): the embedding and the loss counted as one layer
// each, as Megatron-LM's --account-for-embedding-in-pipeline-split / --account-for-loss-in-pipeline-split
// do, which lets Llama 3.1 405B (126 layers) run on PP 16 x VPP 8 = 128 chunks.
#include "TestHarness.h"
#include "core/estimate/Evaluate.h"
#include "core/export/LaunchExport.h"
#include "core/io/Presets.h"

#include <string>
#include <utility>

using namespace lp::core;

namespace {

// Llama 3.1 405B, Megatron style (distributed optimizer), TP 4 x PP pp x DP 4 with vpp virtual stages.
Scenario llama405b(int pp, int vpp) {
    Scenario s = defaultScenario();
    s.model = findModelPreset("llama3.1-405b")->model;
    s.training.zeroStage = 1;
    s.training.precision = Precision::Bf16;
    s.layout = Layout{};
    s.layout.tp = 4;
    s.layout.pp = pp;
    s.layout.vpp = vpp;
    s.layout.dp = 4;
    s.layout.microBatch = 1;
    s.layout.accumulation = 2 * pp; // interleaving needs a multiple of PP
    s.cluster.nodes = static_cast<int>(s.layout.gpus() / s.cluster.gpusPerNode);
    return s;
}

int layersOn(const Plan& p, int stage) {
    return p.memory.stages[static_cast<std::size_t>(stage)].layers;
}

int totalLayers(const Plan& p) {
    int n = 0;
    for (const StageMemory& st : p.memory.stages)
        n += st.layers;
    return n;
}

const Diagnostic* find(const Plan& p, DiagnosticId id) {
    for (const Diagnostic& d : p.diagnostics)
        if (d.id == id)
            return &d;
    return nullptr;
}

bool contains(const std::string& text, const std::string& what) {
    return text.find(what) != std::string::npos;
}

// The scenario is rejected for its pipeline chunks: the message and the suggestion of that error ("" if not).
std::pair<std::string, std::string> chunkError(const Scenario& s) {
    const Plan p = evaluate(s);
    const Diagnostic* e = p.valid ? nullptr : find(p, DiagnosticId::LayersNotDivisibleByPp);
    return e ? std::pair{diagnosticMessage(*e), diagnosticSuggestion(*e)}
             : std::pair{std::string(), std::string()};
}

} // namespace

LP_TEST(more_chunks_than_layers_run_when_the_embedding_and_the_loss_count_as_layers) {
    Scenario s = llama405b(16, 8); // 128 chunks for 126 layers
    LP_CHECK(pipelineSplitCountsEmbeddingAndLoss(s));
    LP_CHECK_EQ(pipelineSplitUnits(s), 128LL);
    const Plan p = evaluate(s);
    LP_CHECK(p.valid);
    LP_CHECK_EQ(static_cast<int>(p.memory.stages.size()), 16);
    // One unit per chunk, 8 chunks per rank: the first rank's first unit is the embedding, the last rank's
    // last unit the loss, so they hold 7 layers and the others 8.
    LP_CHECK_EQ(layersOn(p, 0), 7);
    LP_CHECK_EQ(layersOn(p, 15), 7);
    for (int i = 1; i < 15; ++i)
        LP_CHECK_EQ(layersOn(p, i), 8);
    LP_CHECK_EQ(totalLayers(p), 126);
    LP_CHECK_NEAR(p.intermediates.layersPerStage, 8.0, 0.0); // the busiest ranks are the middle ones
    LP_CHECK(!p.has(DiagnosticId::UnevenPipelineStages));
    const Diagnostic* d = find(p, DiagnosticId::EmbeddingAndLossInPipelineSplit);
    LP_CHECK(d != nullptr);
    if (d) {
        LP_CHECK(d->severity == Severity::Info);
        const std::string msg = diagnosticMessage(*d);
        LP_CHECK(contains(msg, "7 layers"));
        LP_CHECK(contains(msg, "the others 8"));
        LP_CHECK(contains(msg, "--account-for-embedding-in-pipeline-split"));
    }

    // Counting the layers alone, the same layout cannot be built.
    s.training.pipelineSplit = PipelineSplit::Layers;
    LP_CHECK(contains(chunkError(s).second, "embedding_and_loss"));
}

LP_TEST(the_units_still_have_to_fill_every_chunk) {
    Scenario s = llama405b(16, 8);
    s.model.layers = 125; // 127 units for 128 chunks
    s.training.pipelineSplit = PipelineSplit::EmbeddingAndLoss;
    LP_CHECK(contains(chunkError(s).first, "127 units"));
    s.training.pipelineSplit = PipelineSplit::Auto; // auto cannot do better
    LP_CHECK(!chunkError(s).first.empty());
}

LP_TEST(megatron_counts_them_where_that_makes_the_split_even_and_fsdp_splits_layers) {
    // 126 layers on PP 8 x VPP 8 = 64 chunks: 128 units divide evenly, the layers do not.
    Scenario s = llama405b(8, 8);
    LP_CHECK(pipelineSplitCountsEmbeddingAndLoss(s));
    const Plan counted = evaluate(s);
    LP_CHECK(counted.valid);
    LP_CHECK_EQ(layersOn(counted, 0), 15);
    LP_CHECK_EQ(layersOn(counted, 3), 16);
    LP_CHECK_EQ(layersOn(counted, 7), 15);
    LP_CHECK_EQ(totalLayers(counted), 126);

    s.training.pipelineSplit = PipelineSplit::Layers;
    const Plan layers = evaluate(s);
    LP_CHECK(layers.valid);
    // Layers only: chunks of 2 but the last two of 1, so ranks 0-5 hold 16 layers and 6-7 hold 15; the
    // first rank also runs the embedding and sets the pace.
    LP_CHECK_EQ(layersOn(layers, 0), 16);
    LP_CHECK_EQ(layersOn(layers, 7), 15);
    LP_CHECK(layers.has(DiagnosticId::UnevenPipelineStages));
    LP_CHECK(layers.intermediates.microbatchStageSeconds >= counted.intermediates.microbatchStageSeconds);

    // torchtitan's even-as-possible split (FSDP style) keeps counting layers where they fill the chunks.
    Scenario f = llama405b(8, 8);
    f.training.zeroStage = 3;
    LP_CHECK(!pipelineSplitCountsEmbeddingAndLoss(f));
    LP_CHECK_EQ(layersOn(evaluate(f), 0), 16);
    // An even split of the layers is left alone in either style.
    Scenario even = llama405b(2, 1); // 63 layers per rank
    LP_CHECK(!pipelineSplitCountsEmbeddingAndLoss(even));
}

LP_TEST(without_a_pipeline_the_split_changes_nothing) {
    Scenario s = defaultScenario();
    s.layout.tp = 8;
    s.layout.pp = 1;
    s.layout.dp = 8;
    s.training.pipelineSplit = PipelineSplit::EmbeddingAndLoss;
    LP_CHECK(!pipelineSplitCountsEmbeddingAndLoss(s));
    const Plan a = evaluate(s);
    s.training.pipelineSplit = PipelineSplit::Layers;
    const Plan b = evaluate(s);
    LP_CHECK(a.valid && b.valid);
    LP_CHECK_NEAR(a.time.stepSeconds, b.time.stepSeconds, 0.0);
    LP_CHECK_NEAR(a.memory.stages[0].totalBytes, b.memory.stages[0].totalBytes, 0.0);
}

LP_TEST(the_stage_memory_and_the_launch_settings_follow_the_split) {
    const Scenario s = llama405b(16, 8);
    const Plan p = evaluate(s);
    LP_CHECK(p.valid);
    // The first stage holds the embedding beside its 7 layers; a middle stage 8 layers and nothing else.
    const double layerWeights = p.memory.stages[1].weightsBytes / 8.0;
    LP_CHECK(p.memory.stages[0].weightsBytes > 7.0 * layerWeights);
    LP_CHECK(p.memory.stages[0].weightsBytes < 8.0 * layerWeights);
    const LaunchSettings m = exportLaunchSettings(s, LaunchTarget::Megatron);
    LP_CHECK(contains(m.text, "--account-for-embedding-in-pipeline-split"));
    LP_CHECK(contains(m.text, "--account-for-loss-in-pipeline-split"));
    LP_CHECK(contains(m.text, "--num-virtual-stages-per-pipeline-rank 8"));
    LP_CHECK(!contains(m.text, "--num-layers-per-virtual-pipeline-stage"));
    Scenario plain = llama405b(2, 1);
    LP_CHECK(!contains(exportLaunchSettings(plain, LaunchTarget::Megatron).text, "account-for"));
}

LP_TEST_MAIN()
