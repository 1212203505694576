// The report, export and analyze-log commands and the --hf-config flag of layout-planner-cli,
// run as users run them. Usage: test_cli_interop PATH/TO/layout-planner-cli [FILTER]
// (Registration, in tests/cli/CMakeLists.txt:
//    add_executable(test_cli_interop ${CMAKE_CURRENT_SOURCE_DIR}/test_cli_interop.cpp)
//    target_link_libraries(test_cli_interop PRIVATE lp_options nlohmann_json::nlohmann_json)
//    target_include_directories(test_cli_interop PRIVATE ${PROJECT_SOURCE_DIR}/tests)
//    target_compile_definitions(test_cli_interop PRIVATE LP_TEST_DATA_DIR="${PROJECT_SOURCE_DIR}/tests/data"
//                               LP_CLI_WORK_DIR="${CMAKE_CURRENT_BINARY_DIR}")
//    add_dependencies(test_cli_interop layout-planner-cli)
//    add_test(NAME cli_interop COMMAND test_cli_interop $<TARGET_FILE:layout-planner-cli>)
//    set_tests_properties(cli_interop PROPERTIES LABELS cli TIMEOUT 300))
#include "CliTestSupport.h"
#include "TestHarness.h"

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::string g_cli;
int g_counter = 0;

std::string quote(const std::string& s) {
    return lp::test::shellQuote(s);
}

std::string readAll(const fs::path& p) {
    return lp::test::readFile(p);
}

fs::path workDir() {
    return lp::test::cliWorkDir("interop");
}

std::string data(const std::string& rel) {
    return std::string(LP_TEST_DATA_DIR) + "/" + rel;
}

struct Result {
    int code = -1;
    std::string out, err;
};

Result run(const std::string& args, const std::string& stdinFile = {}) {
    const fs::path dir = workDir();
    const int n = ++g_counter;
    const fs::path out = dir / ("out-" + std::to_string(n)), err = dir / ("err-" + std::to_string(n));
    std::string cmd = "SOURCE_DATE_EPOCH=1738316400 " + quote(g_cli) + " " + args + " >" +
                      quote(out.string()) + " 2>" + quote(err.string());
    if (!stdinFile.empty())
        cmd += " <" + quote(stdinFile);
    const int status = std::system(cmd.c_str());
    Result r;
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = readAll(out);
    r.err = readAll(err);
    return r;
}

bool has(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

} // namespace

LP_TEST(report_html_to_a_file_and_formats_by_extension) {
    const fs::path html = workDir() / "plan.html";
    Result r = run("report -o " + quote(html.string()));
    LP_CHECK_EQ(r.code, 0);
    LP_CHECK(has(r.err, "wrote"));
    const std::string page = readAll(html);
    LP_CHECK(page.rfind("<!DOCTYPE html>", 0) == 0);
    LP_CHECK(has(page, "2025-01-31 09:40 UTC"));
    const fs::path md = workDir() / "plan.md";
    LP_CHECK_EQ(run("report " + quote(data("scenarios/default.json")) + " -o " + quote(md.string())).code, 0);
    LP_CHECK(readAll(md).rfind("# Layout report", 0) == 0);
    r = run("report --format json --tp 4 --dp 4");
    LP_CHECK_EQ(r.code, 0);
    const json j = json::parse(r.out);
    LP_CHECK_EQ(j.at("schema").get<std::string>(), std::string("layout-planner/report"));
    LP_CHECK_EQ(j.at("plan").at("layout").at("tp").get<int>(), 4);
    // Reproducible: the same input, the same bytes.
    LP_CHECK_EQ(run("report --format json --tp 4 --dp 4").out, r.out);
}

LP_TEST(report_escapes_and_refuses) {
    Result r = run("report --name " + quote("<script>alert(1)</script>"));
    LP_CHECK_EQ(r.code, 0);
    LP_CHECK(!has(r.out, "<script"));
    LP_CHECK(has(r.out, "&lt;script&gt;"));
    r = run("report --format pdf");
    LP_CHECK_EQ(r.code, 2);
    LP_CHECK(has(r.err, "layout-planner --export-pdf"));
    r = run("report --tp 3");
    LP_CHECK_EQ(r.code, 2);
    LP_CHECK(has(r.err, "heads_not_divisible_by_tp"));
    LP_CHECK(r.out.empty());
    LP_CHECK_EQ(run("report --format docx").code, 2);
    LP_CHECK_EQ(run("report -o /nonexistent-dir/r.html").code, 1);
    r = run("report --json --format docx");
    LP_CHECK(has(r.out, "\"error\""));
}

// The value of a "| Key | value |" row of a Markdown report; empty when there is none.
std::string markdownRow(const std::string& md, const std::string& key) {
    const std::string start = "| " + key + " | ";
    const auto at = md.find(start);
    if (at == std::string::npos)
        return {};
    const auto from = at + start.size();
    return md.substr(from, md.find(" |\n", from) - from);
}

// The value of a "Key   value" line of the command line's text; empty when there is none.
std::string textRow(const std::string& text, const std::string& key) {
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        const auto first = line.find_first_not_of(' ');
        if (first == std::string::npos || line.compare(first, key.size(), key) != 0)
            continue;
        const auto value = line.find_first_not_of(' ', first + key.size());
        if (value != std::string::npos && value >= first + key.size() + 2)
            return line.substr(value);
    }
    return {};
}

// The figures that the report and `evaluate` both show come from one place in core: a wording changed in
// one changes in the other (dense and MoE, pipelined and hybrid-sharded layouts).
LP_TEST(report_and_evaluate_word_shared_figures_alike) {
    for (const std::string flags : {"", "--model mixtral-8x7b --ep 4 --tp 2 --pp 1 --dp 32",
                                    "--vpp 2 --pipeline-split embedding_and_loss --precision fp8",
                                    "--zero 3 --tp 1 --pp 1 --dp 64 --shard-degree 8 --precision fp8"}) {
        const Result text = run("evaluate " + flags);
        const Result md = run("report --format md -o - " + flags);
        LP_CHECK_EQ(text.code, 0);
        LP_CHECK_EQ(md.code, 0);
        for (const char* key : {"Layout", "Effective batch", "Capacity", "Fits", "TFLOP/s per GPU",
                                "Tokens/s", "Token budget", "MFU"}) {
            const std::string figure = markdownRow(md.out, key);
            LP_CHECK(!figure.empty());
            LP_CHECK(
                textRow(text.out, key).starts_with(figure)); // the text adds the tokens per step to the batch
        }
        LP_CHECK_EQ(textRow(text.out, "Training state"), markdownRow(md.out, "Training state"));
        LP_CHECK(has(text.out, markdownRow(md.out, "Cluster")));
        LP_CHECK(has(md.out, "| " + textRow(text.out, "Headroom") + " |") ||
                 has(md.out, "| " + textRow(text.out, "Over by") + " |"));
        const std::string model = markdownRow(md.out, "Model");
        const auto paren = model.rfind(" (");
        LP_CHECK(paren != std::string::npos &&
                 has(text.out, model.substr(paren + 2, model.size() - paren - 3)));
        const std::string hybrid = markdownRow(md.out, "Shard group");
        if (hybrid.starts_with("hybrid"))
            LP_CHECK(has(textRow(text.out, "Training"), hybrid));
        // Section by section: the pipeline bubble, the fp8 extras and the first diagnostic's wording.
        const auto bubble = md.out.find("Pipeline bubble: ");
        LP_CHECK(bubble != std::string::npos &&
                 has(text.out, md.out.substr(bubble, md.out.find('\n', bubble) - bubble)));
        if (const auto fp8 = md.out.find("\nFP8 weight copies "); fp8 != std::string::npos)
            LP_CHECK(has(text.out, md.out.substr(fp8 + 1, md.out.find('\n', fp8 + 1) - fp8 - 1)));
    }
}

LP_TEST(export_writes_each_framework) {
    Result r = run("export --to megatron");
    LP_CHECK_EQ(r.code, 0);
    LP_CHECK_EQ(r.out, readAll(data("launch/default-megatron-args.sh")));
    LP_CHECK(has(r.err, "note: "));
    const fs::path ds = workDir() / "ds_config.json";
    LP_CHECK_EQ(
        run("export " + quote(data("scenarios/default.json")) + " --to deepspeed -o " + quote(ds.string()))
            .code,
        0);
    LP_CHECK_EQ(json::parse(readAll(ds)).at("train_batch_size").get<int>(), 64);
    r = run("export --to torchtitan --json");
    LP_CHECK_EQ(r.code, 0);
    const json j = json::parse(r.out);
    LP_CHECK_EQ(j.at("file_name").get<std::string>(), std::string("torchtitan.toml"));
    LP_CHECK_EQ(j.at("text").get<std::string>(), readAll(data("launch/default-torchtitan.toml")));
    LP_CHECK_EQ(run("export").code, 2);                      // no --to
    LP_CHECK_EQ(run("export --to fairseq").code, 2);         // unknown target
    LP_CHECK_EQ(run("export --to megatron --tp 3").code, 2); // invalid layout
}

LP_TEST(analyze_log_text_json_and_stdin) {
    Result r =
        run("analyze-log " + quote(data("logs/megatron.log")) + " " + quote(data("scenarios/default.json")));
    LP_CHECK_EQ(r.code, 0);
    LP_CHECK(has(r.out, "Warmup      3 dropped (steps 1-3)"));
    LP_CHECK(has(r.out, "within"));
    r = run("analyze-log " + quote(data("logs/megatron.log")) + " --warmup 0 --json --tp 8");
    LP_CHECK_EQ(r.code, 0);
    const json j = json::parse(r.out);
    LP_CHECK_EQ(j.at("warmup").at("dropped").get<int>(), 0);
    LP_CHECK(j.at("predicted").is_object());
    r = run("analyze-log - --json", data("logs/pasted.txt"));
    LP_CHECK_EQ(r.code, 0);
    LP_CHECK_EQ(json::parse(r.out).at("samples").get<int>(), 13);
    r = run("analyze-log " + quote(data("logs/malformed.csv")));
    LP_CHECK_EQ(r.code, 0);
    LP_CHECK(has(r.out, "Skipped lines (3)"));
    LP_CHECK_EQ(run("analyze-log " + quote(data("logs/no-steps.log"))).code, 2);
    LP_CHECK_EQ(run("analyze-log").code, 2);
    LP_CHECK_EQ(run("analyze-log x.log --warmup -1").code, 2);
    LP_CHECK_EQ(run("analyze-log x.log --format xml").code, 2);
}

LP_TEST(hf_config_flag) {
    Result r =
        run("evaluate --json --hf-config " + quote(data("hf/llama-2-7b.json")) + " --tp 1 --pp 1 --dp 64");
    LP_CHECK_EQ(r.code, 0);
    const json j = json::parse(r.out);
    LP_CHECK_EQ(j.at("parameters").get<double>(), 6738415616.0);
    r = run("evaluate --hf-config " + quote(data("hf/bad/unknown-type.json")));
    LP_CHECK_EQ(r.code, 2);
    LP_CHECK(has(r.err, "$.model_type: unsupported model type \"bert\""));
    r = run("evaluate --hf-config " + quote(data("hf/bad/missing-hidden-size.json")));
    LP_CHECK_EQ(r.code, 2);
    LP_CHECK(has(r.err, "$.hidden_size: missing required key"));
}

// A Hugging Face config given where a scenario goes says what it is and which flag reads it, not the
// scenario keys it lacks.
LP_TEST(hf_config_given_as_scenario) {
    const std::string config = data("hf/llama-2-7b.json");
    for (const std::string command : {"evaluate ", "scenario ", "report "}) {
        const Result r = run(command + quote(config));
        LP_CHECK_EQ(r.code, 2);
        LP_CHECK(has(r.err, config + ": this file is a Hugging Face model config, not a scenario"));
        LP_CHECK(has(r.err, "evaluate --hf-config " + config));
        LP_CHECK(has(r.err, "scenario --hf-config " + config + " -o scenario.json"));
        LP_CHECK(!has(r.err, "missing required key"));
    }
    const Result j = run("evaluate --json " + quote(config));
    LP_CHECK_EQ(j.code, 2);
    LP_CHECK(has(j.out, "is a Hugging Face model config"));
    // A scenario that is broken, not a config, still lists its problems.
    const Result broken = run("evaluate " + quote(data("malformed/fractional_tp.json")));
    LP_CHECK_EQ(broken.code, 2);
    LP_CHECK(!has(broken.err, "Hugging Face"));
}

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: test_cli_interop PATH/TO/layout-planner-cli [FILTER]\n");
        return 2;
    }
    g_cli = argv[1];
    return ::lp::test::runAll(argc - 1, argv + 1);
}
