// `layout-planner-cli presets [models|gpus|clusters] [--json]`
#include "app/cli/Commands.h"
#include "app/cli/ScenarioFlags.h"
#include "app/cli/TextFormat.h"
#include "core/estimate/PlanJson.h"
#include "core/io/Presets.h"
#include "core/model/Enums.h"
#include "core/model/ModelSpec.h"

#include <nlohmann/json.hpp>

#include <iostream>

namespace lp::cli {
namespace {

using core::finiteOrNull;
using nlohmann::json;

enum class Kind { All, Models, Gpus, Clusters };

std::optional<Kind> parseKind(std::string_view s) {
    if (s == "models" || s == "model")
        return Kind::Models;
    if (s == "gpus" || s == "gpu")
        return Kind::Gpus;
    if (s == "clusters" || s == "cluster")
        return Kind::Clusters;
    if (s == "all")
        return Kind::All;
    return std::nullopt;
}

std::string gpuName(const std::string& id) {
    const auto* g = core::findGpuPreset(id);
    return g ? g->gpu.name : id;
}

json modelsJson() {
    json list = json::array();
    for (const auto& p : core::modelPresets()) {
        const auto& m = p.model;
        const auto count = core::countParameters(m);
        json item{{"id", p.id},
                  {"name", m.name},
                  {"parameters", finiteOrNull(count.total)},
                  {"active_parameters", finiteOrNull(count.active)},
                  {"published_parameters", finiteOrNull(p.publishedParameters)},
                  {"layers", m.layers},
                  {"hidden", m.hidden},
                  {"heads", m.heads},
                  {"kv_heads", m.kvHeads},
                  {"ffn_hidden", m.ffnHidden},
                  {"vocab", m.vocab},
                  {"seq_len", m.seqLen},
                  {"mlp", std::string(core::toString(m.mlp))},
                  {"tied_embeddings", m.tiedEmbeddings},
                  {"source", p.source}};
        if (m.isMoe())
            item["moe"] = json{{"experts", m.moe.experts},
                               {"top_k", m.moe.topK},
                               {"expert_ffn_hidden", m.moe.expertFfnHidden},
                               {"shared_experts", m.moe.sharedExperts},
                               {"moe_layers", m.moeLayerCount()}};
        else
            item["moe"] = nullptr;
        list.push_back(std::move(item));
    }
    return list;
}

json gpusJson() {
    json list = json::array();
    for (const auto& p : core::gpuPresets()) {
        const auto& g = p.gpu;
        list.push_back(json{{"id", g.id},
                            {"name", g.name},
                            {"peak_bf16_flops_per_s", finiteOrNull(g.peakFlops16)},
                            {"peak_fp8_flops_per_s", finiteOrNull(g.peakFlops8)},
                            {"hbm_bytes", finiteOrNull(g.hbmBytes)},
                            {"hbm_bandwidth_bytes_per_s", finiteOrNull(g.hbmBandwidth)},
                            {"nvlink_bandwidth_bytes_per_s", finiteOrNull(g.nvlinkBandwidth)},
                            {"network_bandwidth_bytes_per_s", finiteOrNull(g.networkBandwidth)},
                            {"host_link_bandwidth_bytes_per_s", finiteOrNull(g.hostLinkBandwidth)},
                            {"host_memory_bandwidth_bytes_per_s", finiteOrNull(g.hostMemoryBandwidth)},
                            {"host_memory_bytes", finiteOrNull(g.hostMemoryBytes)},
                            {"source", g.source}});
    }
    return list;
}

// A preset's cards as a scenario file's cluster.network states them.
json networkJson(const core::NetworkSpec& n) {
    return json{{"fabric", core::toString(n.fabric)},
                {"cards_per_node", n.cardsPerNode},
                {"card_gbps", n.cardGbps},
                {"rail_optimized", n.railOptimized}};
}

json clustersJson() {
    json list = json::array();
    for (const auto& c : core::clusterPresets()) {
        list.push_back(json{{"id", c.id},
                            {"name", c.name},
                            {"gpu", c.gpuId},
                            {"gpus_per_node", c.gpusPerNode},
                            {"nvlink_domain", c.nvlinkDomain},
                            {"network_bandwidth_bytes_per_s", finiteOrNull(core::presetNetworkBandwidth(c))},
                            {"network", c.network ? networkJson(*c.network) : json(nullptr)},
                            {"machine_names", c.machineNames},
                            {"source", c.source}});
    }
    return list;
}

std::string modelsText() {
    TextTable t({"ID", "Name", "Parameters", "Layers", "Hidden", "Heads/KV", "MLP", "Vocab", "Seq"},
                {Align::Left, Align::Left});
    for (const auto& p : core::modelPresets()) {
        const auto& m = p.model;
        const auto count = core::countParameters(m);
        std::string params = cli::count(count.total);
        if (m.isMoe())
            params += " (" + cli::count(count.active) + " active)";
        t.addRow({p.id, m.name, params, std::to_string(m.layers), std::to_string(m.hidden),
                  std::to_string(m.heads) + "/" + std::to_string(m.kvHeads),
                  std::to_string(m.ffnHidden) + " " + std::string(core::toString(m.mlp)),
                  std::to_string(m.vocab), std::to_string(m.seqLen)});
    }
    return "Models\n" + t.render();
}

std::string gpusText() {
    TextTable t({"ID", "Name", "BF16 TFLOP/s", "FP8 TFLOP/s", "HBM GB", "HBM TB/s", "NVLink GB/s",
                 "Network GB/s", "Host link GB/s", "Host mem GB/s", "Host GB"},
                {Align::Left, Align::Left});
    for (const auto& p : core::gpuPresets()) {
        const auto& g = p.gpu;
        t.addRow({g.id, g.name, fixed(g.peakFlops16 / 1e12, 0),
                  g.peakFlops8 > 0 ? fixed(g.peakFlops8 / 1e12, 0) : "-", fixed(g.hbmBytes / 1e9, 0),
                  fixed(g.hbmBandwidth / 1e12, 2), fixed(g.nvlinkBandwidth / 1e9, 0),
                  fixed(g.networkBandwidth / 1e9, 1), fixed(g.hostLinkBandwidth / 1e9, 0),
                  fixed(g.hostMemoryBandwidth / 1e9, 1), fixed(g.hostMemoryBytes / 1e9, 0)});
    }
    return "GPUs (dense peaks, bandwidths per GPU and direction)\n" + t.render();
}

std::string clustersText() {
    TextTable t({"ID", "Name", "GPU", "GPUs/node", "NVLink domain", "Network", "GB/s per GPU"},
                {Align::Left, Align::Left, Align::Left});
    for (const auto& c : core::clusterPresets()) {
        std::string network = "-";
        if (c.network)
            network = std::to_string(c.network->cardsPerNode) + " x " + fixed(c.network->cardGbps, 0) +
                      " Gb/s " + core::fabricPhysics(c.network->fabric).name;
        t.addRow({c.id, c.name, gpuName(c.gpuId), std::to_string(c.gpusPerNode),
                  std::to_string(c.nvlinkDomain), network, fixed(core::presetNetworkBandwidth(c) / 1e9, 1)});
    }
    return "Clusters (one node's shape; --nodes sets how many)\n" + t.render();
}

} // namespace

std::string presetsHelp() {
    return "Usage: layout-planner-cli presets [models|gpus|clusters] [--json]\n\nLists the presets built "
           "into the planner (resources/presets/*.json, each citing its source).\nTheir ids go to --model, "
           "--gpu and --cluster.\n\nOptions:\n  --json                      print {\"models\": [...], "
           "\"gpus\": [...], \"clusters\": [...]}\n                              (only the kind asked for, "
           "when one is given)\n  -h, --help                  this help\n\n" +
           exitCodesHelp();
}

int runPresets(const Args& argv) {
    const bool jsonOut = hasSwitch(argv, "--json");
    std::optional<Kind> kind;
    ArgCursor args(argv);
    while (!args.atEnd()) {
        const std::string name(args.peekName());
        if (name == "--json") {
            if (auto r = args.takeSwitch(); !r)
                return reportError(r.error(), jsonOut);
        } else if (args.isOption()) {
            return reportError(unknownOption("presets", name), jsonOut);
        } else {
            const std::string value = args.take();
            auto k = parseKind(value);
            if (!k)
                return reportError(
                    badValue(value, "unknown kind of preset (expected models, gpus or clusters)"), jsonOut);
            if (kind)
                return reportError(
                    badValue(value, "one kind of preset at a time (expected models, gpus or clusters)"),
                    jsonOut);
            kind = k;
        }
    }
    const Kind k = kind.value_or(Kind::All);
    const bool models = k == Kind::All || k == Kind::Models;
    const bool gpus = k == Kind::All || k == Kind::Gpus;
    const bool clusters = k == Kind::All || k == Kind::Clusters;
    if (jsonOut) {
        json j = json::object();
        if (models)
            j["models"] = modelsJson();
        if (gpus)
            j["gpus"] = gpusJson();
        if (clusters)
            j["clusters"] = clustersJson();
        core::sanitizeNonFinite(j);
        std::cout << j.dump(2) << '\n';
        return kExitOk;
    }
    std::string out;
    if (models)
        out += modelsText();
    if (gpus)
        out += (out.empty() ? "" : "\n") + gpusText();
    if (clusters)
        out += (out.empty() ? "" : "\n") + clustersText();
    std::cout << out;
    return kExitOk;
}

} // namespace lp::cli
