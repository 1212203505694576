// layout-planner-cli: the scenario flags of the training options and the layout that change a plan in
// one specific way (gradient format, shard degree, loss kernel, pipeline split, expert TP). Part of
// test_cli (run in its evaluate_ group).
#include "CliRunner.h"

#include <cstdio>
#include <regex>
#include <string>
#include <vector>

using nlohmann::json;
using namespace lp::test::cli;

namespace {

// The CLI run on `base` followed by `extra` (a test's fixed flags, then the ones it varies).
Result runWith(const std::vector<std::string>& base, const std::vector<std::string>& extra) {
    std::vector<std::string> args = base;
    args.insert(args.end(), extra.begin(), extra.end());
    return run(args);
}

LP_TEST(evaluate_grad_precision_flag) {
    // 16-bit gradients (--grad-reduce-in-bf16) halve the default bf16 Megatron plan's fp32 gradient memory.
    const json a = run({"evaluate", "--json"}).parsed();
    const auto h = run({"evaluate", "--grad-precision", "half", "--json"});
    LP_CHECK_EQ(h.code, 0);
    const json b = h.parsed();
    const int worst = a.at("memory").at("worst_stage").get<int>();
    const double ga = a.at("memory").at("stages").at(worst).at("gradients_bytes").get<double>();
    const double gb = b.at("memory").at("stages").at(worst).at("gradients_bytes").get<double>();
    LP_CHECK_NEAR(gb, ga / 2.0, 1e-9);
    LP_CHECK(contains(run({"evaluate", "--grad-precision", "half"}).out, "16-bit gradients"));
    const auto bad = run({"evaluate", "--grad-precision", "double"});
    LP_CHECK_EQ(bad.code, 2);
    LP_CHECK(contains(bad.err, "--grad-precision"));
}

LP_TEST(evaluate_torch_compile_flag) {
    // The FSDP style runs eager; --torch-compile on fuses its elementwise kernels: a shorter step.
    const std::vector<std::string> fsdp = {"evaluate", "--zero", "3",  "--tp",    "1",    "--pp",
                                           "1",        "--dp",   "64", "--style", "fsdp", "--json"};
    const json eager = run(fsdp).parsed();
    std::vector<std::string> on = fsdp;
    on.insert(on.end() - 1, {"--torch-compile", "on"});
    const auto c = run(on);
    LP_CHECK_EQ(c.code, 0);
    const json compiled = c.parsed();
    LP_CHECK(compiled.at("time").at("compute_s").get<double>() <
             eager.at("time").at("compute_s").get<double>());
    LP_CHECK(compiled.at("time").at("step_s").get<double>() < eager.at("time").at("step_s").get<double>());
    on.pop_back();
    LP_CHECK(contains(run(on).out, "fsdp style, torch.compile"));
    const auto bad = run({"evaluate", "--torch-compile", "maybe"});
    LP_CHECK_EQ(bad.code, 2);
    LP_CHECK(contains(bad.err, "--torch-compile"));
}

LP_TEST(evaluate_fused_kernels_flag) {
    // --fused-kernels on: the FSDP style's norms, rotary and SwiGLU fused (TE, Liger), a shorter step.
    const std::vector<std::string> fsdp = {"evaluate", "--zero", "3",  "--tp",    "1",    "--pp",
                                           "1",        "--dp",   "64", "--style", "fsdp", "--json"};
    const json eager = run(fsdp).parsed();
    std::vector<std::string> on = fsdp;
    on.insert(on.end() - 1, {"--fused-kernels", "on"});
    const json fused = run(on).parsed();
    LP_CHECK(fused.at("time").at("compute_s").get<double>() < eager.at("time").at("compute_s").get<double>());
    on.pop_back();
    LP_CHECK(contains(run(on).out, "fsdp style, fused kernels"));
    const auto bad = run({"evaluate", "--fused-kernels", "sometimes"});
    LP_CHECK_EQ(bad.code, 2);
    LP_CHECK(contains(bad.err, "--fused-kernels"));
}

LP_TEST(evaluate_fp8_param_gather_flag) {
    // --fp8-param-gather on in fp8 FSDP training: the layer gathers move half the bytes, a shorter exposed
    // sharding traffic; the plan text says so. In bf16 it changes nothing.
    const std::vector<std::string> fsdp = {"evaluate", "--zero",      "3",    "--tp",  "1",
                                           "--pp",     "1",           "--dp", "64",    "--style",
                                           "fsdp",     "--precision", "fp8",  "--json"};
    const json off = run(fsdp).parsed();
    std::vector<std::string> on = fsdp;
    on.insert(on.end() - 1, {"--fp8-param-gather", "on"});
    const json gathered = run(on).parsed();
    LP_CHECK(gathered.at("time").at("dp_comm_exposed_s").get<double>() <
             off.at("time").at("dp_comm_exposed_s").get<double>());
    on.pop_back();
    LP_CHECK(contains(run(on).out, "fp8 weight gathers"));
    std::vector<std::string> bf16 = on;
    bf16[bf16.size() - 3] = "bf16"; // --precision bf16
    bf16.push_back("--json");
    std::vector<std::string> bf16Off = fsdp;
    bf16Off[bf16Off.size() - 2] = "bf16";
    LP_CHECK_NEAR(run(bf16).parsed().at("time").at("step_s").get<double>(),
                  run(bf16Off).parsed().at("time").at("step_s").get<double>(), 0.0);
    const auto bad = run({"evaluate", "--fp8-param-gather", "yes please"});
    LP_CHECK_EQ(bad.code, 2);
    LP_CHECK(contains(bad.err, "--fp8-param-gather"));
}

LP_TEST(evaluate_recompute_layers_flag) {
    // --recompute-layers N with full recompute: only N layers of each chunk re-run, a shorter step than all
    // of them and more activation memory; the plan text says so. A negative count is refused, naming the
    // flag.
    const std::vector<std::string> full = {"evaluate", "--recompute", "full", "--vpp", "1", "--json"};
    const json every = run(full).parsed();
    std::vector<std::string> some = full;
    some.insert(some.end() - 1, {"--recompute-layers", "5"});
    const json block = run(some).parsed();
    LP_CHECK(block.at("time").at("step_s").get<double>() < every.at("time").at("step_s").get<double>());
    some.pop_back();
    LP_CHECK(contains(run(some).out, "full recompute (block: 5 layers of each chunk)"));
    const auto bad = run({"evaluate", "--recompute-layers", "-1"});
    LP_CHECK_EQ(bad.code, 2);
    LP_CHECK(contains(bad.err, "--recompute-layers"));
}

LP_TEST(evaluate_recompute_modules_flag) {
    // --recompute-modules with selective recompute: the dense MLP recomputed costs time and frees memory; the
    // plan text and a written scenario name the modules. An unknown name is refused, naming flag and name.
    const std::vector<std::string> sel = {"evaluate", "--recompute", "selective", "--json"};
    const json plain = run(sel).parsed();
    std::vector<std::string> mlp = sel;
    mlp.insert(mlp.end() - 1, {"--recompute-modules", "core_attn, mlp"});
    const json with = run(mlp).parsed();
    LP_CHECK(with.at("time").at("step_s").get<double>() > plain.at("time").at("step_s").get<double>());
    const int worst = plain.at("memory").at("worst_stage").get<int>();
    LP_CHECK(with.at("memory").at("stages").at(worst).at("activations_bytes").get<double>() <
             plain.at("memory").at("stages").at(worst).at("activations_bytes").get<double>());
    mlp.pop_back();
    LP_CHECK(contains(run(mlp).out, "selective recompute (modules: core_attn, mlp)"));
    const auto bad = run({"evaluate", "--recompute-modules", "mlp,attn"});
    LP_CHECK_EQ(bad.code, 2);
    LP_CHECK(contains(bad.err, "--recompute-modules") && contains(bad.err, "unknown module 'attn'"));
    LP_CHECK_EQ(run({"evaluate", "--recompute-modules", ","}).code, 2);
}

LP_TEST(evaluate_shard_degree_and_cross_entropy_flags) {
    // Hybrid sharding: ZeRO-1 over DP 2 with a shard degree of 1 keeps the whole optimizer state.
    const json a = run({"evaluate", "--json"}).parsed();
    const auto h = run({"evaluate", "--shard-degree", "1", "--json"});
    LP_CHECK_EQ(h.code, 0);
    const json b = h.parsed();
    const int worst = a.at("memory").at("worst_stage").get<int>();
    const double oa = a.at("memory").at("stages").at(worst).at("optimizer_bytes").get<double>();
    const double ob = b.at("memory").at("stages").at(worst).at("optimizer_bytes").get<double>();
    LP_CHECK_NEAR(ob, 2.0 * oa, 1e-6 * oa);
    LP_CHECK(contains(run({"evaluate", "--shard-degree", "1"}).out,
                      "hybrid sharding over 1 DP rank x 2 replicas"));
    const auto bad =
        run({"evaluate", "--zero", "3", "--tp", "2", "--pp", "1", "--dp", "32", "--shard-degree", "3"});
    LP_CHECK_EQ(bad.code, 2);
    LP_CHECK(contains(bad.out + bad.err, "shard_degree_does_not_divide_dp"));
    // The loss kernel: the default Megatron plan's fused 6 bytes per logit become 12 unfused.
    const auto u = run({"evaluate", "--cross-entropy", "unfused", "--json"});
    LP_CHECK_EQ(u.code, 0);
    const json c = u.parsed();
    const int last = static_cast<int>(a.at("memory").at("stages").size()) - 1;
    const double la = a.at("memory").at("stages").at(last).at("activations_bytes").get<double>();
    const double lc = c.at("memory").at("stages").at(last).at("activations_bytes").get<double>();
    LP_CHECK(lc > la);
    LP_CHECK(
        contains(run({"evaluate", "--cross-entropy", "fused_linear"}).out, "fused_linear cross-entropy"));
    // The FSDP style compiles its loss with the model (torchtitan): the training line says so.
    LP_CHECK(contains(run({"evaluate", "--style", "fsdp", "--zero", "3", "--torch-compile", "on"}).out,
                      "torch.compile, loss compiled with the model"));
    LP_CHECK(!contains(run({"evaluate", "--style", "fsdp", "--zero", "3"}).out, "loss compiled"));
    const auto badLoss = run({"evaluate", "--cross-entropy", "magic"});
    LP_CHECK_EQ(badLoss.code, 2);
    LP_CHECK(contains(badLoss.err, "--cross-entropy"));
}

LP_TEST(evaluate_attention_kernel_flag) {
    // FlashAttention-3 on an H100 runs faster than the default; on an A100 it falls back with a warning.
    const json base = run({"evaluate", "--json"}).parsed();
    const auto fa3 = run({"evaluate", "--attention-kernel", "flash_attention_3", "--json"});
    LP_CHECK_EQ(fa3.code, 0);
    LP_CHECK(fa3.parsed().at("time").at("step_s").get<double>() < base.at("time").at("step_s").get<double>());
    LP_CHECK(contains(run({"evaluate", "--attention-kernel", "fa3"}).out, "flash_attention_3 attention"));
    const auto a100 = run({"evaluate", "--gpu", "a100-sxm-80gb", "--attention-kernel", "flash_attention_3"});
    LP_CHECK(contains(a100.out, "attention_kernel_not_supported"));
    const auto bad = run({"evaluate", "--attention-kernel", "flash_attention_4"});
    LP_CHECK_EQ(bad.code, 2);
    LP_CHECK(contains(bad.err, "--attention-kernel"));
}

LP_TEST(evaluate_fused_16bit_loss_and_logits_metric_passes_flags) {
    // flash-attn's 16-bit kernel holds less at the loss than Megatron's fused one; metric passes over the
    // logits cost time and are named on the training line; an out-of-range count is refused, naming the flag.
    const auto lastActivations = [](const json& j) {
        const json& stages = j.at("memory").at("stages");
        return stages.at(stages.size() - 1).at("activations_bytes").get<double>();
    };
    const json fused = run({"evaluate", "--cross-entropy", "fused", "--json"}).parsed();
    const json fused16 = run({"evaluate", "--cross-entropy", "fused_16bit", "--json"}).parsed();
    LP_CHECK(lastActivations(fused16) < lastActivations(fused));
    const json metrics =
        run({"evaluate", "--cross-entropy", "fused_16bit", "--logits-metric-passes", "2", "--json"}).parsed();
    LP_CHECK(metrics.at("time").at("step_s").get<double>() > fused16.at("time").at("step_s").get<double>());
    LP_CHECK(
        contains(run({"evaluate", "--logits-metric-passes", "2"}).out, "2 metric passes over the logits"));
    const auto bad = run({"evaluate", "--logits-metric-passes", "-1"});
    LP_CHECK_EQ(bad.code, 2);
    LP_CHECK(contains(bad.err, "--logits-metric-passes"));
}

LP_TEST(evaluate_optimizer_precision_flag) {
    // 16-bit moments shrink the optimizer state by a third (12 -> 8 bytes per parameter); a bad value is
    // refused.
    const auto optimizerBytes = [](const json& j) {
        return j.at("memory").at("stages").at(0).at("optimizer_bytes").get<double>();
    };
    const json fp32 = run({"evaluate", "--json"}).parsed();
    const json moments = run({"evaluate", "--optimizer-precision", "bf16_moments", "--json"}).parsed();
    LP_CHECK(std::abs(optimizerBytes(moments) / optimizerBytes(fp32) - 8.0 / 12.0) < 1e-9);
    const auto bad = run({"evaluate", "--optimizer-precision", "fp16"});
    LP_CHECK_EQ(bad.code, 2);
    LP_CHECK(contains(bad.err, "--optimizer-precision") && contains(bad.err, "bf16_moments"));
}

LP_TEST(evaluate_remat_policy_flag) {
    // MaxText's save_dot_with_context_except_mlp re-runs the MLP's up-projections: hardware FLOPs above the
    // model's, and the summary line names the policy; minimal_flash is its old name for minimal_with_context;
    // a bad name is refused, naming the flag and the choices.
    const json policy =
        run({"evaluate", "--remat-policy", "save_dot_with_context_except_mlp", "--json"}).parsed();
    LP_CHECK(policy.at("hardware_tflops_per_gpu").get<double>() >
             policy.at("model_tflops_per_gpu").get<double>());
    LP_CHECK(contains(run({"evaluate", "--remat-policy", "minimal_flash"}).out,
                      "selective recompute (remat policy minimal_with_context)"));
    const auto bad = run({"evaluate", "--remat-policy", "save_all"});
    LP_CHECK_EQ(bad.code, 2);
    LP_CHECK(contains(bad.err, "--remat-policy") && contains(bad.err, "save_qkv_proj"));
}

LP_TEST(evaluate_moe_dispatcher_flag) {
    // DeepSeek-V3 on 128 nodes of 8 H800: EP 64 spans 8 nodes, so the deduplicated dispatch moves fewer
    // bytes.
    const std::vector<std::string> base = {"evaluate",
                                           "--model",
                                           "deepseek-v3",
                                           "--gpu",
                                           "h800-sxm-80gb",
                                           "--nodes",
                                           "128",
                                           "--tp",
                                           "1",
                                           "--pp",
                                           "16",
                                           "--dp",
                                           "64",
                                           "--ep",
                                           "64",
                                           "--micro-batch",
                                           "1",
                                           "--accumulation",
                                           "16",
                                           "--zero",
                                           "1",
                                           "--precision",
                                           "fp8"};
    auto with = [&](const std::vector<std::string>& extra) { return runWith(base, extra); };
    const auto all = with({"--json"});
    const auto dedup = with({"--moe-dispatcher", "deepep", "--json"});
    LP_CHECK_EQ(all.code, 0);
    LP_CHECK_EQ(dedup.code, 0);
    const double a = all.parsed().at("time").at("ep_comm_s").get<double>();
    const double d = dedup.parsed().at("time").at("ep_comm_s").get<double>();
    LP_CHECK(d < 0.5 * a); // 3.5 of 7 copies, the dispatch in fp8
    LP_CHECK(contains(with({"--moe-dispatcher", "flex"}).out, "deepep MoE dispatch"));
    const auto bad = with({"--moe-dispatcher", "allgather"});
    LP_CHECK_EQ(bad.code, 2);
    LP_CHECK(contains(bad.err, "--moe-dispatcher"));
}

LP_TEST(evaluate_cp_exchange_flag) {
    // Llama 3.1 8B with CP 8 on one node in the FSDP style: torch's all-gather holds every rank's chunk,
    // a ring two of them; the frameworks' own names parse too.
    const std::vector<std::string> base = {
        "evaluate", "--model",        "llama3.1-8b", "--nodes", "1", "--tp",        "1",      "--pp",
        "1",        "--cp",           "8",           "--dp",    "1", "--seq-len",   "262144", "--micro-batch",
        "1",        "--accumulation", "1",           "--zero",  "3", "--recompute", "full",   "--style",
        "fsdp"};
    auto with = [&](const std::vector<std::string>& extra) { return runWith(base, extra); };
    const auto gather = with({"--json"});
    const auto ring = with({"--cp-exchange", "alltoall", "--json"});
    LP_CHECK_EQ(gather.code, 0);
    LP_CHECK_EQ(ring.code, 0);
    const double g = gather.parsed().at("memory").at("stages").at(0).at("activations_bytes").get<double>();
    const double r = ring.parsed().at("memory").at("stages").at(0).at("activations_bytes").get<double>();
    LP_CHECK(g > r);
    LP_CHECK(contains(with({"--cp-exchange", "ring"}).out, "CP exchange ring"));
    const auto bad = with({"--cp-exchange", "ulysses"});
    LP_CHECK_EQ(bad.code, 2);
    LP_CHECK(contains(bad.err, "--cp-exchange"));
}

LP_TEST(evaluate_pipeline_schedule_flag) {
    // The default scenario on PP 4 with 16 micro batches: ZB-H1 shrinks the bubble, GPipe holds more
    // activations; GPipe with virtual stages is an invalid layout naming the setting.
    const std::vector<std::string> base = {
        "evaluate", "--tp",           "2",  "--pp",        "4",   "--dp", "8", "--micro-batch",
        "1",        "--accumulation", "16", "--recompute", "none"};
    auto with = [&](const std::vector<std::string>& extra) { return runWith(base, extra); };
    const auto plain = with({"--json"});
    const auto zb = with({"--pipeline-schedule", "zb_h1", "--json"});
    const auto gpipe = with({"--pipeline-schedule", "GPipe", "--json"});
    LP_CHECK_EQ(plain.code, 0);
    LP_CHECK_EQ(zb.code, 0);
    LP_CHECK(zb.parsed().at("time").at("bubble_s").get<double>() <
             plain.parsed().at("time").at("bubble_s").get<double>());
    const auto activations = [](const auto& run) {
        return run.parsed().at("memory").at("stages").at(0).at("activations_bytes").template get<double>();
    };
    LP_CHECK(activations(gpipe) > activations(plain));
    LP_CHECK(contains(with({"--pipeline-schedule", "zb_h1"}).out, "zb_h1 pipeline schedule"));
    const auto interleaved = with({"--pipeline-schedule", "gpipe", "--vpp", "2"});
    LP_CHECK_EQ(interleaved.code, 2);
    LP_CHECK(contains(interleaved.out + interleaved.err, "gpipe_with_virtual_stages"));
    const auto bad = with({"--pipeline-schedule", "dualpipe"});
    LP_CHECK_EQ(bad.code, 2);
    LP_CHECK(contains(bad.err, "--pipeline-schedule"));
}

LP_TEST(evaluate_pipeline_split_flag) {
    // Llama 3.1 405B (126 layers) on PP 16 x 8 virtual stages = 128 chunks: valid only when the embedding and
    // the loss count as one layer each, which auto does.
    const std::vector<std::string> layout = {"evaluate",
                                             "--model",
                                             "llama3.1-405b",
                                             "--nodes",
                                             "32",
                                             "--tp",
                                             "4",
                                             "--pp",
                                             "16",
                                             "--vpp",
                                             "8",
                                             "--dp",
                                             "4",
                                             "--micro-batch",
                                             "1",
                                             "--accumulation",
                                             "32"};
    auto with = [&](const std::vector<std::string>& extra) { return runWith(layout, extra); };
    const auto a = with({"--json"});
    LP_CHECK_EQ(a.code, 0);
    const json j = a.parsed();
    LP_CHECK_EQ(j.at("memory").at("stages").at(0).at("layers").get<int>(), 7);
    LP_CHECK_EQ(j.at("memory").at("stages").at(1).at("layers").get<int>(), 8);
    LP_CHECK(contains(with({}).out, "embedding and loss counted in the pipeline split"));
    const auto layers = with({"--pipeline-split", "layers"});
    LP_CHECK_EQ(layers.code, 2);
    LP_CHECK(contains(layers.out + layers.err, "layers_not_divisible_by_pp"));
    LP_CHECK_EQ(with({"--pipeline-split", "embedding_and_loss"}).code, 0);
    const auto bad = with({"--pipeline-split", "stages"});
    LP_CHECK_EQ(bad.code, 2);
    LP_CHECK(contains(bad.err, "--pipeline-split"));
}

LP_TEST(evaluate_expert_tp_flag) {
    // Mixtral 8x7B on one 8-GPU node as TP 2 x DP 4 with EP 8: EP exceeds DP, so auto keeps the experts whole
    // (expert TP 1); expert TP 2 cannot fit 8 ranks and is refused with the rule that fails.
    const std::vector<std::string> layout = {"evaluate",
                                             "--model",
                                             "mixtral-8x7b",
                                             "--nodes",
                                             "1",
                                             "--tp",
                                             "2",
                                             "--pp",
                                             "1",
                                             "--dp",
                                             "4",
                                             "--ep",
                                             "8",
                                             "--seq-len",
                                             "4096",
                                             "--micro-batch",
                                             "1",
                                             "--accumulation",
                                             "8"};
    auto with = [&](const std::vector<std::string>& extra) { return runWith(layout, extra); };
    const auto a = with({});
    LP_CHECK_EQ(a.code, 0);
    LP_CHECK(contains(a.out, "EP 8, expert TP 1"));
    const auto j = with({"--json"});
    LP_CHECK_EQ(j.parsed().at("expert_tensor_parallel").get<int>(), 1);
    LP_CHECK_EQ(with({"--etp", "auto"}).code, 0);
    LP_CHECK_EQ(with({"--etp", "1"}).code, 0);
    const auto two = with({"--etp", "2"});
    LP_CHECK_EQ(two.code, 2);
    LP_CHECK(contains(two.out + two.err, "ep_does_not_divide_dp"));
    LP_CHECK(contains(two.out + two.err, "expert TP 2"));
    const auto bad = with({"--etp", "half"});
    LP_CHECK_EQ(bad.code, 2);
    LP_CHECK(contains(bad.err, "--etp") && contains(bad.err, "auto"));
    // The Megatron-LM launch settings carry it.
    std::vector<std::string> ex = layout;
    ex[0] = "export";
    ex.insert(ex.end(), {"--to", "megatron"});
    LP_CHECK(contains(run(ex).out, "--expert-tensor-parallel-size 1"));
}

LP_TEST(evaluate_cpu_offload_flags) {
    // --optimizer-offload on: no optimizer state on the GPU, the same bytes in host memory, a slower step.
    const json a = run({"evaluate", "--json"}).parsed();
    const auto o = run({"evaluate", "--optimizer-offload", "on", "--json"});
    LP_CHECK_EQ(o.code, 0);
    const json b = o.parsed();
    const json& stage = b.at("memory").at("stages").at(0);
    LP_CHECK_EQ(stage.at("optimizer_bytes").get<double>(), 0.0);
    LP_CHECK_NEAR(stage.at("host_bytes").get<double>(),
                  a.at("memory").at("stages").at(0).at("optimizer_bytes").get<double>(), 1.0);
    LP_CHECK(b.at("memory").at("host_bytes_per_gpu").get<double>() > 0);
    LP_CHECK(b.at("time").at("optimizer_s").get<double>() > a.at("time").at("optimizer_s").get<double>());
    LP_CHECK(contains(run({"evaluate", "--optimizer-offload", "on"}).out, "Host memory"));
    // --activation-offload-layers N: fewer activations on the GPU; the exposed copies in offload_s.
    const auto act = run({"evaluate", "--activation-offload-layers", "20", "--json"});
    LP_CHECK_EQ(act.code, 0);
    const json c = act.parsed();
    LP_CHECK(c.at("memory").at("stages").at(0).at("activations_bytes").get<double>() <
             a.at("memory").at("stages").at(0).at("activations_bytes").get<double>() / 2);
    LP_CHECK(c.at("time").at("offload_s").get<double>() >= 0);
    LP_CHECK_EQ(a.at("time").at("offload_s").get<double>(), 0.0);
    // Bad values name the flag; more layers than the model has makes the layout invalid, and says where.
    const auto negative = run({"evaluate", "--activation-offload-layers", "-1"});
    LP_CHECK_EQ(negative.code, 2);
    LP_CHECK(contains(negative.err, "--activation-offload-layers"));
    const auto tooMany = run({"evaluate", "--activation-offload-layers", "81"});
    LP_CHECK_EQ(tooMany.code, 2);
    LP_CHECK(contains(tooMany.out + tooMany.err, "offloaded activation layers"));
    const auto bad = run({"evaluate", "--optimizer-offload", "maybe"});
    LP_CHECK_EQ(bad.code, 2);
    LP_CHECK(contains(bad.err, "--optimizer-offload"));
    // The launch settings carry both.
    const auto megatron =
        run({"export", "--optimizer-offload", "on", "--activation-offload-layers", "20", "--to", "megatron"});
    LP_CHECK(contains(megatron.out, "--optimizer-cpu-offload"));
    LP_CHECK(contains(megatron.out, "--cpu-offloading-num-layers 20"));
    const auto deepspeed = run({"export", "--optimizer-offload", "on", "--to", "deepspeed"});
    LP_CHECK(contains(deepspeed.out, "\"offload_optimizer\""));
}

LP_TEST(evaluate_scenario_flags_at_their_limits_write_files_that_open_again) {
    // The command line takes what a scenario file holds (core/model/Limits.h), no more: a scenario written at
    // every flag's limit opens again, and one past the limit is refused naming the flag.
    const fs::path file = tempFile("limits-scenario");
    const std::vector<std::string> atLimits = {"scenario",   "--nodes",
                                               "1000000",    "--nvlink-domain",
                                               "1000000",    "--seq-len",
                                               "10000000",   "--micro-batch",
                                               "1000000",    "--accumulation",
                                               "1000",       "--dp",
                                               "1000000",    "-o",
                                               file.string()};
    LP_CHECK_EQ(run(atLimits).code, 0);
    const auto opened = run({"evaluate", file.string(), "--json"});
    CHECK_CLEAN(opened);
    LP_CHECK(opened.parsed().contains("layout")); // read back: a plan (valid or not), not a load error
    for (const auto& [flag, over] :
         std::vector<std::pair<std::string, std::string>>{{"--nodes", "1000001"},
                                                          {"--seq-len", "10000001"},
                                                          {"--micro-batch", "1000001"},
                                                          {"--accumulation", "1000001"},
                                                          {"--tp", "1000001"}}) {
        const auto r = run({"scenario", flag, over});
        LP_CHECK_EQ(r.code, 2);
        LP_CHECK(contains(r.err, flag));
    }
    fs::remove(file);
}

} // namespace

// The band of comparable measured runs: time.step_s_band, mfu_band and tokens_per_s_band {low, high} around
// the plan's figures and trust {available, figures, runs, sentence}; null bands where no run is like the
// plan.
LP_TEST(evaluate_json_carries_the_trust_band) {
    const json j = run({"evaluate", "--json"}).parsed();
    LP_CHECK(j["trust"]["available"].get<bool>()); // the sets beside the build tree (tests/data/validation)
    LP_CHECK(j["trust"]["figures"].get<int>() >= 5);
    LP_CHECK(!j["trust"]["runs"].empty());
    LP_CHECK(
        j["trust"]["sentence"].get<std::string>().starts_with("Measured runs like this one ran between"));
    const json& step = j["time"]["step_s_band"];
    LP_CHECK(step["low"].get<double>() <= step["high"].get<double>());
    LP_CHECK(step["low"].get<double>() > 0);
    LP_CHECK(j["mfu_band"]["low"].get<double>() <= j["mfu_band"]["high"].get<double>());
    LP_CHECK(j["tokens_per_s_band"]["low"].get<double>() > 0);

    const json none = run({"evaluate", "--json", "--gpu", "mi300x", "--precision", "fp8"}).parsed();
    LP_CHECK(!none["trust"]["available"].get<bool>());
    LP_CHECK(none["time"]["step_s_band"].is_null());
    LP_CHECK(none["mfu_band"].is_null());
    LP_CHECK(none["trust"]["runs"].empty());
    LP_CHECK(none["trust"]["sentence"].get<std::string>().starts_with("No comparable published runs"));
    const auto text = run({"evaluate"});
    LP_CHECK(text.out.find("Measured runs like this one ran between") != std::string::npos);
    LP_CHECK(text.out.find("Runs like it") != std::string::npos);
}

// Where nothing fits (DeepSeek-V3 on the default 64 H100), the search's text names the nearest miss in its
// first line, then the reasons, and prints no empty table.
LP_TEST(search_where_nothing_fits_names_the_nearest_miss) {
    const auto none = run({"search", "--model", "deepseek-v3"});
    LP_CHECK_EQ(none.code, 0);
    LP_CHECK(none.out.find("0 fit. No layout fits. The nearest, TP ") != std::string::npos);
    LP_CHECK(none.out.find("GiB usable") != std::string::npos);
    LP_CHECK(none.out.find("\n\nRejected:\n  ") != std::string::npos);
    LP_CHECK(none.out.find("headroom GiB") == std::string::npos);
}

// `evaluate --explain` words the values as the Plan tab's cards: MFU with one decimal, the step in seconds
// with three (it printed "0.3781 (37.81 %)" and "4.86851 s").
LP_TEST(evaluate_explain_words_values_as_the_window) {
    const auto t = run({"evaluate", "--explain"});
    LP_CHECK_EQ(t.code, 0);
    const json j = run({"evaluate", "--explain", "--json"}).parsed();
    int checked = 0;
    for (const auto& e : j["explanations"]) {
        char expected[96] = {};
        if (e["key"] == "mfu")
            std::snprintf(expected, sizeof expected, "Model FLOPs utilization (MFU) = %.1f %%   [mfu]",
                          e["value"].get<double>() * 100.0);
        if (e["key"] == "time.step")
            std::snprintf(expected, sizeof expected, "Step time = %.3f s   [time.step]",
                          e["value"].get<double>());
        if (expected[0] == 0)
            continue;
        LP_CHECK(t.out.find(expected) != std::string::npos);
        ++checked;
    }
    LP_CHECK_EQ(checked, 2);
    LP_CHECK(!std::regex_search(t.out, std::regex(R"(= [1-9][0-9]*\.[0-9]{5,})")));
}

// The search table's cells are the Explore table's words (core::searchFigureText): step times in the units a
// duration reads in, tokens/s with separators, hybrid sharding named, no SP to speak of where TP is 1.
LP_TEST(search_table_words_its_cells_as_the_explore_tab) {
    const auto t =
        run({"search", "--model", "llama2-7b", "--nodes", "1", "--tp", "1", "--pp", "1", "--dp", "8",
             "--micro-batch", "1", "--accumulation", "8", "--shard-degrees", "0,2", "--top", "40"});
    LP_CHECK_EQ(t.code, 0);
    LP_CHECK(contains(t.out, " (HSDP 2) "));
    LP_CHECK(!std::regex_search(t.out, std::regex(R"([0-9]/2 )"))); // the old "1/2"
    LP_CHECK(std::regex_search(
        t.out, std::regex(R"(\n +1 .* [0-9]+\.[0-9]{3} s +[0-9]+\.[0-9] % +[0-9]{1,3},[0-9]{3} )")));
    LP_CHECK(!std::regex_search(t.out, std::regex(R"( ms +[0-9]+\.[0-9] %)"))); // the old "2,705.1 ms"
    LP_CHECK(std::regex_search(t.out, std::regex(R"(\n +1 +1 +1 +8 .* – )")));  // TP 1: SP is "–"
}
