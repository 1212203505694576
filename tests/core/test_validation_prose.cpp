// A case's source and notes are shown, never read: the same case with other words plans the same, to the last
// digit (docs/estimation.md, section 12). Checked over every case of every set the repository keeps, in both
// formats, and the reference set beside the checkout.
#include "TestHarness.h"
#include "core/io/Files.h"
#include "core/io/JsonReader.h"
#include "core/measured/ValidationRun.h"

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

using namespace lp::core;

namespace {

// Words the @1 reader would have read as settings: trainers, switches, networks, machines, dates.
constexpr const char* kOtherSource = "pytorch/torchtitan, MosaicML llm-foundry, NeMo AutoModel, "
                                     "Megatron-Bridge, MaxText, DeepSeek-V3 technical "
                                     "report, 2024-06";
constexpr const char* kOtherNotes =
    "recomputation not stated. torch.compile, AsyncTP, TE + DeepEP, fp8_param_gather, moe_a2a_overlap=True, "
    "tp_comm_overlap, overlap_grad_reduce, grad_reduce_in_bf16, HSDP, zero_shard_degree 2, "
    "cpu_offloading_num_layers=2, ZeRO-Offload, recompute_modules core_attn, "
    "--virtual-pipeline-model-parallel-size 2, remat_policy=minimal_flash, bf16 moments. Network: RoCE, 100 "
    "Gbps "
    "per GPU, on a3-highgpu-8g VMs";

// The file's text with every case's source and notes replaced by `source` and `notes`.
std::string withWords(const std::string& text, const std::string& source, const std::string& notes) {
    json::Json doc = json::Json::parse(text);
    for (json::Json& c : doc.at("cases")) {
        c["source"] = source;
        c["notes"] = notes;
    }
    return doc.dump();
}

// Every prediction of a file's readable cases, in order.
std::vector<double> predictions(const std::string& text, std::size_t& cases) {
    InputErrors skipped;
    const auto read = validationCasesFromJson(text, &skipped);
    LP_CHECK(read.has_value());
    std::vector<double> out;
    if (!read)
        return out;
    cases = read->size();
    for (const ValidationRow& row : runValidation(*read, nullptr).rows)
        out.push_back(row.predicted);
    return out;
}

std::vector<std::string> repositorySets() {
    std::vector<std::string> out;
    const std::string dir = std::string(LP_TEST_DATA_DIR) + "/validation";
    for (const std::string& folder : {dir, dir + "/v1"})
        for (const auto& entry : std::filesystem::directory_iterator(folder))
            if (entry.path().extension() == ".json")
                out.push_back(entry.path().string());
    const std::string reference = std::string(LP_SHARED_DIR) + "/reference/published-runs.json";
    if (std::filesystem::exists(reference))
        out.push_back(reference);
    return out;
}

} // namespace

LP_TEST(other_words_in_source_and_notes_plan_every_case_the_same) {
    int sets = 0;
    for (const std::string& path : repositorySets()) {
        const auto text = readTextFile(path);
        LP_CHECK(text.has_value());
        if (!text)
            continue;
        ++sets;
        std::size_t cases = 0;
        std::size_t otherCases = 0;
        const std::vector<double> as = predictions(*text, cases);
        const std::vector<double> other =
            predictions(withWords(*text, kOtherSource, kOtherNotes), otherCases);
        const std::vector<double> none = predictions(withWords(*text, "", ""), otherCases);
        LP_CHECK(cases > 0 && !as.empty());
        LP_CHECK(as == other);
        LP_CHECK(as == none);
        std::printf("%s: %zu cases, %zu predictions the same with other words\n", path.c_str(), cases,
                    as.size());
    }
    LP_CHECK(sets >= 16);
}

LP_TEST_MAIN()
