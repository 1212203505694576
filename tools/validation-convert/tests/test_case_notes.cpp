// What the validation-case reader learns from a case's notes: that a field's value is an assumption (then it
// is searched like a missing one), the dates they state, and the framework settings they name where the
// case's layout has no key for them (hybrid sharding, activation offloading, recompute modules).
#include "TestHarness.h"
#include "core/estimate/Evaluate.h"
#include "core/measured/ValidationRun.h"
#include "tools/validation-convert/CaseNotes.h"
#include "tools/validation-convert/tests/ProseFixtures.h"

#include <fstream>
#include <sstream>
#include <string>

using namespace lp::core;

// Whether a switch is stated on (auto and off plan without it where the converter leaves or sets them).
inline bool on(lp::core::Toggle t) {
    return t == lp::core::Toggle::On;
}
using namespace lp::tools;
using namespace lp::tools::testing;

namespace {

// One case of the validation format around the given model, hardware, layout and measured members.
std::string oneCase(const std::string& source, const std::string& notes, const std::string& members) {
    return R"({"schema": "layout-planner/validation-cases@1", "cases": [{"id": "x", "source": ")" + source +
           R"(", "confidence": "low", "notes": ")" + notes + R"(", )" + members + "}]}";
}

// A Llama-3-70B-shaped dense run on 64 H100 (TP 8 x PP 2 x DP 4, micro batch 4 of 8192 tokens) that cannot
// fit without recomputation, with the given recompute and notes.
std::string denseCase(const std::string& recompute, const std::string& notes) {
    return oneCase("s", notes,
                   R"(
        "model": {"name": "m", "layers": 80, "hidden": 8192, "heads": 64, "kv_heads": 8, "ffn_hidden": 28672,
                  "vocab": 128256, "seq_len": 8192, "mlp": "swiglu", "tied_embeddings": false, "moe": null},
        "hardware": {"gpu": "h100-sxm-80gb", "gpus": 64, "gpus_per_node": 8},
        "layout": {"tp": 8, "pp": 2, "dp": 4, "cp": 1, "ep": 1, "vpp": 1, "micro_batch": 4, "global_batch": 128,
                   "sequence_parallel": true, "recompute": ")" +
                       recompute + R"(", "zero_stage": 1, "precision": "bf16"},
        "measured": {"iteration_time_s": 10.0})");
}

// A Llama-2-7B-shaped FSDP run (ZeRO 3) on 16 H100 in two nodes, with the given notes and extra layout keys
// (",\"zero_shard_degree\": 4", say).
std::string fsdpCase(const std::string& notes, const std::string& extraLayout = "",
                     const std::string& source = "s") {
    return oneCase(source, notes,
                   R"(
        "model": {"name": "m", "layers": 32, "hidden": 4096, "heads": 32, "kv_heads": 32, "ffn_hidden": 11008,
                  "vocab": 32000, "seq_len": 4096, "mlp": "swiglu", "tied_embeddings": false, "moe": null},
        "hardware": {"gpu": "h100-sxm-80gb", "gpus": 16, "gpus_per_node": 8},
        "layout": {"tp": 1, "pp": 1, "dp": 16, "cp": 1, "ep": 1, "vpp": 1, "micro_batch": 2, "global_batch": 32,
                   "sequence_parallel": false, "recompute": "full", "zero_stage": 3, "precision": "bf16")" +
                       extraLayout + R"(},
        "measured": {"tokens_per_s_per_gpu": 3000})");
}

// A Mixtral-8x7B-shaped MoE run on 64 H100 (TP 4 x DP 16, EP 8), with the given notes and extra layout keys.
std::string moeCase(const std::string& notes, const std::string& extraLayout = "") {
    return oneCase("s", notes,
                   R"(
        "model": {"name": "m", "layers": 32, "hidden": 4096, "heads": 32, "kv_heads": 8, "ffn_hidden": 14336,
                  "vocab": 32000, "seq_len": 4096, "mlp": "swiglu", "tied_embeddings": false,
                  "moe": {"experts": 8, "top_k": 2, "expert_ffn_hidden": 14336}},
        "hardware": {"gpu": "h100-sxm-80gb", "gpus": 64, "gpus_per_node": 8},
        "layout": {"tp": 4, "pp": 1, "dp": 16, "cp": 1, "ep": 8, "vpp": 1, "micro_batch": 1, "global_batch": 256,
                   "sequence_parallel": true, "recompute": "selective", "zero_stage": 1, "precision": "bf16")" +
                       extraLayout + R"(},
        "measured": {"iteration_time_s": 10.0})");
}

bool saysOne(const ValidationCase& c, const std::string& words) {
    for (const std::string& a : c.adjustments)
        if (a.find(words) != std::string::npos)
            return true;
    return false;
}

ValidationCase readOne(const std::string& json) {
    const auto cases = proseCasesFromJson(json);
    LP_CHECK(cases.has_value() && cases->size() == 1);
    return cases && !cases->empty() ? cases->front() : ValidationCase{};
}

} // namespace

LP_TEST(notes_that_call_a_field_unstated) {
    LP_CHECK(prose::notesLeaveOpen("activation recomputation not stated (none assumed).", "recomput"));
    LP_CHECK(prose::notesLeaveOpen("zero_stage 1; recomputation not stated (none).", "recomput"));
    LP_CHECK(prose::notesLeaveOpen("recompute: not stated", "recomput"));
    // Another field's "not stated" after the clause ends does not count, nor one before the term.
    LP_CHECK(!prose::notesLeaveOpen("recompute full. sequence parallel not stated", "recomput"));
    LP_CHECK(!prose::notesLeaveOpen("assumed (not stated in the files read): recompute none", "recomput"));
    LP_CHECK(!prose::notesLeaveOpen("selective recompute as the recipe sets it", "recomput"));
}

LP_TEST(an_assumed_no_recompute_is_searched_like_a_missing_one) {
    // The run ran, so it fitted: with "none" only assumed, the planner takes the fastest recomputation that
    // fits, and says so.
    const ValidationCase open =
        readOne(denseCase("none", "Activation recomputation not stated (none assumed)."));
    LP_CHECK(!open.recomputeGiven);
    bool said = false;
    for (const std::string& a : open.adjustments)
        said = said || a.find("recompute none assumed, the notes say it is not stated") != std::string::npos;
    LP_CHECK(said);
    const Scenario planned = resolveCase(open, nullptr);
    LP_CHECK(planned.training.recompute != Recompute::None);
    const Plan p = evaluate(planned); // within the memory model's 5%, which a guessed setting may use
    LP_CHECK(p.memory.headroomBytes >= -0.05 * p.memory.capacityBytes);
    Scenario none = planned;
    none.training.recompute = Recompute::None;
    LP_CHECK(evaluate(none).memory.headroomBytes < -0.05 * p.memory.capacityBytes);
    // Stated, or inferred by the notes from the source ("full (Eq. 3 FLOPs assume it)"), it stays as written.
    const ValidationCase stated =
        readOne(denseCase("none", "No activation checkpointing (the paper says so)."));
    LP_CHECK(stated.recomputeGiven);
    LP_CHECK(resolveCase(stated, nullptr).training.recompute == Recompute::None);
    const ValidationCase inferred = readOne(denseCase("full", "recompute not stated per row: full (Eq.3)"));
    LP_CHECK(inferred.recomputeGiven && inferred.scenario.training.recompute == Recompute::Full);
}

LP_TEST(the_latest_month_the_notes_state) {
    LP_CHECK_EQ(prose::latestStatedMonth("measured 2024-06, rerun june 2025"), 202506);
    LP_CHECK_EQ(prose::latestStatedMonth("container 24.07, 2024"), 202412);
    LP_CHECK_EQ(prose::latestStatedMonth("8192 gpus, 405b"), 0);
}

LP_TEST(numbers_the_notes_give_after_a_config_key) {
    LP_CHECK(prose::statedNumber("recipe: cpu_offloading_num_layers=40, fsdp",
                                 {"cpu_offloading_num_layers"}) == 40);
    LP_CHECK(prose::statedNumber("--data_parallel_shard_degree: 8 and", {"data_parallel_shard_degree"}) == 8);
    LP_CHECK(prose::statedNumber("(-> zero_shard_degree 8)", {"shard_degree", "zero_shard_degree"}) == 8);
    // Only as a whole word ("shard_degree" is not read inside "zero_shard_degree"), only a whole number.
    LP_CHECK(!prose::statedNumber("zero_shard_degree 8", {"shard_degree"}));
    LP_CHECK(!prose::statedNumber("shard_degree 40gb", {"shard_degree"}));
    LP_CHECK(!prose::statedNumber("shard_degree 2.5", {"shard_degree"}));
    LP_CHECK(!prose::statedNumber("shard_degree not stated", {"shard_degree"}));
    // A negative value is MaxText's "the rest of the devices", not a count.
    LP_CHECK(!prose::statedNumber("ici_fsdp_parallelism=-1", {"ici_fsdp_parallelism"}));
}

LP_TEST(recompute_modules_the_notes_name) {
    LP_CHECK(prose::statedRecomputeModules("tp2 pp8, recompute_modules 'mla_up_proj' (selective).") ==
             unsigned{kRecomputeMlaUpProj});
    LP_CHECK(prose::statedRecomputeModules("--recompute-modules core_attn mlp --fp8") ==
             unsigned{kRecomputeCoreAttn | kRecomputeMlp});
    LP_CHECK(prose::statedRecomputeModules("recompute_modules=[layernorm, mla_up_proj]") ==
             unsigned{kRecomputeLayerNorm | kRecomputeMlaUpProj});
    LP_CHECK(prose::statedRecomputeModules("recompute_modules layernorm and moe_act") ==
             unsigned{kRecomputeLayerNorm | kRecomputeMoeAct});
    LP_CHECK(!prose::statedRecomputeModules("recompute_modules not stated"));
    LP_CHECK(!prose::statedRecomputeModules("selective recompute"));
}

LP_TEST(hybrid_sharding_the_notes_describe) {
    LP_CHECK(prose::statesHybridSharding("fsdp2 hsdp (sharded within a node)"));
    LP_CHECK(prose::statesHybridSharding("sharding strategy hybrid_shard"));
    LP_CHECK(!prose::statesHybridSharding("fsdp, no hsdp"));
    // A note that covers runs of both kinds names neither.
    LP_CHECK(!prose::statesHybridSharding("readme table: 7b/13b hsdp, 34b/70b fsdp full shard"));
    LP_CHECK(!prose::statesHybridSharding("fsdp over all 64 gpus"));
}

LP_TEST(the_shard_degree_the_notes_give_where_the_layout_has_none) {
    // Full sharding over the 16 DP ranks unless something says otherwise.
    LP_CHECK_EQ(readOne(fsdpCase("FSDP full shard")).scenario.training.zeroShardDegree, 0);
    // HSDP named: sharded within each node (8 GPUs), replicated across the two; the plan's memory shows it.
    const ValidationCase hsdp = readOne(fsdpCase("Trainer uses HSDP (HYBRID_SHARD)."));
    LP_CHECK_EQ(hsdp.scenario.training.zeroShardDegree, 8);
    LP_CHECK(
        saysOne(hsdp, "the notes name hybrid sharding (HSDP), within each node, planned sharded over 8"));
    const ValidationCase full = readOne(fsdpCase("FSDP full shard"));
    LP_CHECK(evaluate(hsdp.scenario).memory.stages.front().optimizerBytes >
             1.9 * evaluate(full.scenario).memory.stages.front().optimizerBytes);
    // A stated degree or replica count wins over the words, and the layout's key over the notes.
    LP_CHECK_EQ(readOne(fsdpCase("HSDP, data_parallel_shard_degree=4")).scenario.training.zeroShardDegree, 4);
    LP_CHECK_EQ(readOne(fsdpCase("HSDP with dp_replicate 4")).scenario.training.zeroShardDegree, 4);
    // Megatron's distributed optimizer instances are replicas too (at ZeRO 1, where no words alone count).
    std::string zero1 = fsdpCase("--num-distributed-optimizer-instances 2");
    zero1.replace(zero1.find("\"zero_stage\": 3"), 15, "\"zero_stage\": 1");
    LP_CHECK_EQ(readOne(zero1).scenario.training.zeroShardDegree, 8);
    std::string zero1Words = fsdpCase("HSDP");
    zero1Words.replace(zero1Words.find("\"zero_stage\": 3"), 15, "\"zero_stage\": 1");
    LP_CHECK_EQ(readOne(zero1Words).scenario.training.zeroShardDegree, 0);
    LP_CHECK_EQ(readOne(fsdpCase("MaxText ici_fsdp_parallelism 8, dcn_fsdp_parallelism 1"))
                    .scenario.training.zeroShardDegree,
                8);
    LP_CHECK_EQ(readOne(fsdpCase("HSDP", R"(, "zero_shard_degree": 2)")).scenario.training.zeroShardDegree,
                2);
    // A stated degree that is full sharding, or that does not divide DP, leaves full sharding.
    LP_CHECK_EQ(readOne(fsdpCase("HSDP? zero_shard_degree 16")).scenario.training.zeroShardDegree, 0);
    LP_CHECK_EQ(readOne(fsdpCase("zero_shard_degree 5")).scenario.training.zeroShardDegree, 0);
}

LP_TEST(offloading_and_recompute_modules_the_notes_give) {
    const ValidationCase offload = readOne(fsdpCase("Megatron-FSDP recipe: cpu_offloading_num_layers=12."));
    LP_CHECK_EQ(offload.scenario.training.activationOffloadLayers, 12);
    LP_CHECK(saysOne(offload, "activation_offload_layers: the notes state 12"));
    LP_CHECK_EQ(readOne(fsdpCase("cpu_offloading_num_layers=12", R"(, "activation_offload_layers": 4)"))
                    .scenario.training.activationOffloadLayers,
                4);
    // More layers than the model has is not a reading.
    LP_CHECK_EQ(readOne(fsdpCase("cpu_offloading_num_layers=400")).scenario.training.activationOffloadLayers,
                0);
    // Modules named with a selective recompute, or with none stated, are a selective recompute of those.
    const ValidationCase modules =
        readOne(denseCase("selective", "Recipe: recompute_modules 'core_attn', 'mlp'."));
    LP_CHECK(modules.scenario.training.recompute == Recompute::Selective);
    LP_CHECK_EQ(modules.scenario.training.recomputeModules, unsigned{kRecomputeCoreAttn | kRecomputeMlp});
    LP_CHECK(saysOne(modules, "recompute_modules: the notes state core_attn, mlp"));
    const ValidationCase open =
        readOne(denseCase("none", "recomputation not stated (none assumed); recompute_modules mlp"));
    LP_CHECK(open.recomputeGiven && open.scenario.training.recompute == Recompute::Selective);
    LP_CHECK(!saysOne(open, "recompute none assumed"));
    // A stated full recompute stays.
    LP_CHECK(readOne(denseCase("full", "recompute_modules mlp")).scenario.training.recompute ==
             Recompute::Full);
}

LP_TEST(trainers_the_source_names) {
    // At ZeRO 1 a case is planned in the Megatron style unless its source names a PyTorch-native trainer.
    const auto styleOf = [](const std::string& source) {
        std::string json = fsdpCase("", "", source);
        json.replace(json.find("\"zero_stage\": 3"), 15, "\"zero_stage\": 1");
        return resolvedStyle(readOne(json).scenario.training);
    };
    LP_CHECK(styleOf("NVIDIA Megatron-LM README") == ExecutionStyle::Megatron);
    LP_CHECK(styleOf("Narayanan et al. 2021, Table 1") == ExecutionStyle::Megatron);
    LP_CHECK(styleOf("Hugging Face Accelerate with DeepSpeed ZeRO-1") == ExecutionStyle::Fsdp);
    LP_CHECK(styleOf("huggingface/nanotron benchmarks") == ExecutionStyle::Fsdp);
    LP_CHECK(styleOf("PyTorch blog: training with FSDP2") == ExecutionStyle::Fsdp);
    // Megatron-DeepSpeed and NeMo (built on PyTorch Lightning) run Megatron-Core's kernels; AutoModel does
    // not.
    LP_CHECK(styleOf("microsoft/Megatron-DeepSpeed examples") == ExecutionStyle::Megatron);
    LP_CHECK(styleOf("NVIDIA NeMo performance summary (PyTorch Lightning)") == ExecutionStyle::Megatron);
    LP_CHECK(styleOf("NVIDIA NeMo AutoModel performance table") == ExecutionStyle::Fsdp);
    LP_CHECK(styleOf("EleutherAI/gpt-neox (DeepSpeed) README") == ExecutionStyle::Megatron);
    LP_CHECK(styleOf("allenai/OLMo paper, Table 2") == ExecutionStyle::Fsdp);
}

LP_TEST(the_trainers_compile_switch_in_the_notes) {
    // Besides "torch.compile", the switch as the trainers' configs and flags write it.
    const auto compiled = [](const std::string& notes) {
        return readOne(fsdpCase(notes, "", "torchtitan")).scenario.training.torchCompile;
    };
    LP_CHECK(compiled("script: rank_microbatch_size=1*4096, compile_model=True, hsdp"));
    LP_CHECK(compiled("launched with --training.compile and FSDP"));
    LP_CHECK(compiled("config: compile: true"));
    LP_CHECK(!compiled("config: compile: false"));
    LP_CHECK(!compiled("eager (not compiled); --training.compile was added later"));
    LP_CHECK(!compiled("FSDP, SDPA flash attention"));
}

LP_TEST(asynctp_as_the_notes_spell_it) {
    // torchtitan's AsyncTP (TP > 1): the name, its flag, or the words; a negation keeps it off.
    const auto overlapped = [](const std::string& notes) {
        std::string json = fsdpCase(notes, "", "torchtitan");
        const std::string oneByOne = R"("tp": 1, "pp": 1, "dp": 16)";
        json.replace(json.find(oneByOne), oneByOne.size(), R"("tp": 8, "pp": 1, "dp": 2)");
        return on(readOne(json).scenario.training.overlapTpComm);
    };
    LP_CHECK(overlapped("FSDP 2 x TP 8 with AsyncTP"));
    LP_CHECK(overlapped("--parallelism.enable_async_tensor_parallel"));
    LP_CHECK(overlapped("async TP on"));
    LP_CHECK(!overlapped("FSDP 2 x TP 8, without async TP"));
    LP_CHECK(!overlapped("FSDP 2 x TP 8"));
}

LP_TEST(an_optimizer_on_the_cpu_the_notes_state) {
    LP_CHECK(prose::statesOptimizerOffload("deepspeed zero-offload (zero 2), one v100"));
    LP_CHECK(prose::statesOptimizerOffload("config: \"offload_optimizer\": {\"device\": \"cpu\"}"));
    LP_CHECK(prose::statesOptimizerOffload("megatron --optimizer-cpu-offload with hybrid device optimizer"));
    LP_CHECK(!prose::statesOptimizerOffload("\"offload_optimizer\": {\"device\": \"none\"}"));
    LP_CHECK(!prose::statesOptimizerOffload("fsdp, no optimizer offload"));
    LP_CHECK(!prose::statesOptimizerOffload("activation cpuoffload false"));
    const ValidationCase offloaded = readOne(fsdpCase("ZeRO-Offload to the host"));
    LP_CHECK(offloaded.scenario.training.optimizerOffload);
    LP_CHECK(saysOne(offloaded, "optimizer_offload: the notes state"));
    LP_CHECK(!readOne(fsdpCase("ZeRO-Offload", R"(, "optimizer_offload": false)"))
                  .scenario.training.optimizerOffload);
}

LP_TEST(interleaving_and_block_recompute_as_megatron_writes_them) {
    // denseCase: 80 layers on PP 2, vpp stated 1 there; here without it.
    const auto withoutVpp = [](const std::string& recompute, const std::string& notes) {
        std::string json = denseCase(recompute, notes);
        json.erase(json.find(R"("vpp": 1, )"), std::string(R"("vpp": 1, )").size());
        return readOne(json);
    };
    const ValidationCase perStage = withoutVpp("full", "--num-layers-per-virtual-pipeline-stage 5");
    LP_CHECK(perStage.vppGiven);
    LP_CHECK_EQ(perStage.scenario.layout.vpp, 8); // 80 / (2 x 5)
    LP_CHECK(saysOne(perStage, "vpp: the notes state 5 layers per virtual pipeline stage, planned with 8"));
    LP_CHECK_EQ(withoutVpp("full", "virtual_pipeline_model_parallel_size=4").scenario.layout.vpp, 4);
    // Not a whole number of chunks: searched as before.
    LP_CHECK(!withoutVpp("full", "--num-layers-per-virtual-pipeline-stage 3").vppGiven);
    // The block method's layers, only with full recompute and the method named.
    LP_CHECK_EQ(readOne(denseCase("full", "--recompute-method block --recompute-num-layers 4"))
                    .scenario.training.recomputeLayers,
                4);
    LP_CHECK_EQ(readOne(denseCase("full", "--recompute-method uniform --recompute-num-layers 1"))
                    .scenario.training.recomputeLayers,
                0);
    LP_CHECK_EQ(readOne(denseCase("selective", "--recompute-method block --recompute-num-layers 4"))
                    .scenario.training.recomputeLayers,
                0);
}
LP_TEST(the_experts_tensor_parallelism_as_recipes_write_it) {
    // Without words, Megatron's default: the experts split as the dense layers (ETP = TP 4; EP 8 divides DP).
    const ValidationCase plain = readOne(moeCase("Recipe: TP4 EP8."));
    LP_CHECK_EQ(plain.scenario.layout.etp, 0);
    LP_CHECK_EQ(expertTensorParallel(plain.scenario), 4);
    // A recipe's ETP 1 (whole experts per rank), as its config tables and flags write it.
    for (const char* notes : {"Layout TP4 PP1 EP8 ETP1 VP1.", "expert tensor parallel 1",
                              "--expert-tensor-parallel-size 1", "expert_tensor_parallel_size=1", "ETP=1"}) {
        const ValidationCase stated = readOne(moeCase(notes));
        LP_CHECK_EQ(stated.scenario.layout.etp, 1);
        LP_CHECK_EQ(expertTensorParallel(stated.scenario), 1);
        LP_CHECK(saysOne(stated, "etp 1: the notes state the experts' tensor parallelism (ETP) as 1; without "
                                 "it, planned with 4"));
    }
    LP_CHECK_EQ(readOne(moeCase("ETP2")).scenario.layout.etp, 2);
    // One that does not divide TP, a word that only ends in "etp", and the layout's own key are not readings.
    LP_CHECK_EQ(readOne(moeCase("ETP3")).scenario.layout.etp, 0);
    LP_CHECK_EQ(readOne(moeCase("setp1")).scenario.layout.etp, 0);
    LP_CHECK_EQ(readOne(moeCase("ETP1", R"(, "etp": 2)")).scenario.layout.etp, 2);
    // A dense model has no experts to split.
    LP_CHECK_EQ(readOne(denseCase("full", "ETP1")).scenario.layout.etp, 0);
}

LP_TEST(the_notes_carry_what_the_optional_layout_keys_record) {
    // (The @1 originals, as the @1 reader read them.)
    // The shared format has no keys for hybrid sharding, activation offloading or Megatron's recompute
    // modules; our files add them, a held-out run recorded by someone else states them in its notes. Read
    // with those keys taken out, every case of these files is planned with the same settings (the notes say
    // them in the frameworks' words), but DeepSeek-V3's, whose notes name its modules in prose.
    for (const char* file :
         {"dgxc-benchmarking-runs.json", "landmark-runs.json", "more-published-runs.json"}) {
        std::ifstream in(std::string(LP_TEST_DATA_DIR) + "/validation/v1/" + file);
        std::stringstream text;
        text << in.rdbuf();
        nlohmann::json stripped = nlohmann::json::parse(text.str());
        int keyed = 0;
        for (auto& c : stripped["cases"])
            for (const char* key : {"zero_shard_degree", "activation_offload_layers", "recompute_modules"})
                keyed += static_cast<int>(c["layout"].erase(key));
        const auto withKeys = proseCasesFromJson(text.str());
        const auto withoutKeys = proseCasesFromJson(stripped.dump());
        LP_CHECK(withKeys.has_value() && withoutKeys.has_value() && withKeys->size() == withoutKeys->size());
        if (!withKeys || !withoutKeys || withKeys->size() != withoutKeys->size())
            continue;
        int differ = 0;
        for (std::size_t i = 0; i < withKeys->size(); ++i) {
            const Scenario& sa = (*withKeys)[i].scenario;
            const Scenario& sb = (*withoutKeys)[i].scenario;
            const TrainingOptions& a = sa.training;
            const TrainingOptions& b = sb.training;
            if (effectiveShardDegree(sa) != effectiveShardDegree(sb) ||
                a.activationOffloadLayers != b.activationOffloadLayers || a.recompute != b.recompute ||
                a.recomputeModules != b.recomputeModules) {
                ++differ;
                LP_CHECK((*withKeys)[i].id == "deepseek_v3_h800_2048gpu");
            }
        }
        std::printf("%s: %d optional keys taken out, %d cases planned otherwise\n", file, keyed, differ);
        LP_CHECK(keyed > 0);
    }
}

LP_TEST_MAIN()
