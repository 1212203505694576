// The scenario's and the cluster's names: written by the user and kept, or derived from the model, GPU and
// GPU count and following them (core/model/Scenario.h scenarioName, core/io/Presets.h clusterName), and
// what scenario files say of them.
#include "TestHarness.h"
#include "core/io/Presets.h"
#include "core/io/ScenarioJson.h"
#include "core/model/Hardware.h"
#include "core/model/Scenario.h"

#include <string>

using namespace lp::core;

namespace {

Scenario onPresets(const char* model, const char* cluster, int nodes) {
    Scenario s = defaultScenario();
    s.model = findModelPreset(model)->model;
    s.cluster = makeCluster(*findClusterPreset(cluster), nodes);
    return s;
}

Scenario reloaded(const Scenario& s) {
    const auto back = scenarioFromJson(scenarioToJson(s));
    LP_CHECK(back.has_value());
    return back ? *back : Scenario{};
}

} // namespace

LP_TEST(gpuShortNameDropsTheMaker) {
    LP_CHECK_EQ(gpuShortName(findGpuPreset("h100-sxm-80gb")->gpu), std::string("H100"));
    LP_CHECK_EQ(gpuShortName(findGpuPreset("h200-sxm-141gb")->gpu), std::string("H200"));
    LP_CHECK_EQ(gpuShortName(findGpuPreset("b200")->gpu), std::string("B200"));
    LP_CHECK_EQ(gpuShortName(findGpuPreset("mi300x")->gpu), std::string("MI300X"));
    GpuSpec custom;
    custom.name = "My accelerator";
    LP_CHECK_EQ(gpuShortName(custom), std::string("My"));
    custom.name = "NVIDIA";
    LP_CHECK_EQ(gpuShortName(custom), std::string("NVIDIA"));
}

LP_TEST(nameFollowsModelGpuAndGpuCount) {
    Scenario s = defaultScenario();
    LP_CHECK(!s.name.has_value());
    LP_CHECK(s.notes.empty());
    // The model name's closing remark stays at the end.
    LP_CHECK_EQ(s.model.name, std::string("Llama-2-70B-class (seed example)"));
    LP_CHECK_EQ(scenarioName(s), std::string("Llama-2-70B-class on 64 H100 (seed example)"));
    s = onPresets("deepseek-v3", "hgx-h200", 32);
    LP_CHECK_EQ(scenarioName(s), std::string("DeepSeek-V3 on 256 H200"));
    s.cluster.nodes = 4;
    LP_CHECK_EQ(scenarioName(s), std::string("DeepSeek-V3 on 32 H200"));
}

LP_TEST(nameTheUserWroteIsKept) {
    Scenario s = defaultScenario();
    setScenarioName(s, "  My 70B run \n");
    LP_CHECK_EQ(scenarioName(s), std::string("My 70B run"));
    s.model = findModelPreset("llama3.1-8b")->model;
    s.cluster.nodes = 2;
    LP_CHECK_EQ(scenarioName(s), std::string("My 70B run"));
    LP_CHECK_EQ(scenarioName(reloaded(s)), std::string("My 70B run"));
    // Clearing the name, or typing the automatic one, returns to the automatic name.
    setScenarioName(s, " ");
    LP_CHECK(!s.name.has_value());
    setScenarioName(s, automaticScenarioName(s));
    LP_CHECK(!s.name.has_value());
}

LP_TEST(automaticNameRoundTripsAsAutomatic) {
    Scenario s = onPresets("llama3.1-8b", "dgx-h100", 8);
    const std::string text = scenarioToJson(s);
    LP_CHECK(text.find("\"name\": \"Llama-3.1-8B on 64 H100\"") != std::string::npos);
    LP_CHECK(text.find("\"name\": \"8 x DGX H100\"") != std::string::npos);
    Scenario back = reloaded(s);
    LP_CHECK(back == s);
    LP_CHECK(!back.name && !back.cluster.name);
    back.cluster = makeCluster(*findClusterPreset("hgx-h200"), 2);
    LP_CHECK_EQ(scenarioName(back), std::string("Llama-3.1-8B on 16 H200"));
}

LP_TEST(clusterNameFollowsItsSystemAndNodes) {
    ClusterSpec c = makeCluster(*findClusterPreset("dgx-h100"), 8);
    LP_CHECK_EQ(clusterName(c), std::string("8 x DGX H100"));
    c.nodes = 32;
    LP_CHECK_EQ(clusterName(c), std::string("32 x DGX H100"));
    c.gpu = findGpuPreset("h200-sxm-141gb")->gpu; // the GPU switched in the window: the system follows
    LP_CHECK(clusterName(c).find("H200") != std::string::npos);
    LP_CHECK(clusterName(c).find("H100") == std::string::npos);
    c.gpusPerNode = 3; // no system has that shape
    LP_CHECK_EQ(clusterName(c), std::string("32 nodes x 3 H200"));
    c.name = "Our lab";
    LP_CHECK_EQ(clusterName(c), std::string("Our lab"));
}

LP_TEST(olderFilesForgetTheSeedsNameAndNotes) {
    // Files written before names were derived carry the seed example's name, notes and cluster name
    // whatever their model: those follow the scenario now; a name the user wrote stays.
    Scenario s = onPresets("deepseek-v3", "hgx-h200", 32);
    std::string text = scenarioToJson(s);
    const auto replace = [&](const std::string& from, const std::string& to) {
        text.replace(text.find(from), from.size(), to);
    };
    replace("\"name\": \"DeepSeek-V3 on 256 H200\"", "\"name\": \"Llama-2-70B on 64 H100 (seed example)\"");
    replace("\"notes\": \"\"",
            "\"notes\": \"The worked example: a 70B model on 8 nodes x 8 H100 SXM as TP 8 x "
            "PP 4 x DP 2.\"");
    replace("\"name\": \"32 x HGX H200\"", "\"name\": \"32 x DGX H100\"");
    const auto old = scenarioFromJson(text);
    LP_CHECK(old.has_value());
    if (!old)
        return;
    LP_CHECK_EQ(scenarioName(*old), std::string("DeepSeek-V3 on 256 H200"));
    LP_CHECK(old->notes.empty());
    LP_CHECK_EQ(clusterName(old->cluster), std::string("32 x HGX H200"));
    replace("\"name\": \"Llama-2-70B on 64 H100 (seed example)\"", "\"name\": \"V3 trial\"");
    replace("\"name\": \"32 x DGX H100\"", "\"name\": \"Cluster B\"");
    const auto written = scenarioFromJson(text);
    LP_CHECK(written.has_value());
    if (written) {
        LP_CHECK_EQ(scenarioName(*written), std::string("V3 trial"));
        LP_CHECK_EQ(clusterName(written->cluster), std::string("Cluster B"));
    }
}

LP_TEST_MAIN()
