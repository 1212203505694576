// Loading collects every problem (JSON path and reason) and never half-loads; saving is atomic. The format
// is documented in docs/formats.md: keep the two in step. The model and hardware parts are read and
// written by their own codecs (ModelJson.h, detail/HardwareJson.h); the training options and the layout,
// which only scenario files hold, here.
#include "core/io/ScenarioJson.h"

#include "core/io/Files.h"
#include "core/io/JsonReader.h"
#include "core/io/ModelJson.h"
#include "core/io/RunJson.h"
#include "core/io/SettingsJson.h"
#include "core/io/detail/FieldTable.h"
#include "core/io/detail/HardwareJson.h"
#include "core/io/detail/JsonWriter.h"
#include "core/model/Limits.h"

#include <algorithm>
#include <iterator>
#include <string>
#include <string_view>
#include <utility>

namespace lp::core {
namespace {

using json::describe;
using json::Field;
using json::IntKey;
using json::Json;
using json::ObjectReader;
using limits::kMaxCount;

TrainingOptions readTraining(const Json* j, const std::string& path, InputErrors& errors) {
    TrainingOptions t;
    if (!j)
        return t;
    if (!j->is_object()) {
        errors.push_back({path, "wrong type: expected an object, got " + describe(*j)});
        return t;
    }
    ObjectReader r(*j, path, errors);
    readTrainingKeys(r, t);
    r.reportUnknownKeys();
    return t;
}

constexpr Field<Layout> kLayoutFields[] = {
    {"tp", IntKey<Layout>{&Layout::tp, 1, kMaxCount}},
    {"pp", IntKey<Layout>{&Layout::pp, 1, kMaxCount}},
    {"dp", IntKey<Layout>{&Layout::dp, 1, kMaxCount}},
    {"cp", IntKey<Layout>{&Layout::cp, 1, kMaxCount}},
    {"ep", IntKey<Layout>{&Layout::ep, 1, kMaxCount}},
    {"etp", IntKey<Layout>{&Layout::etp, 0, kMaxCount}, true}, // 0 (the default) = auto, left unwritten
    {"vpp", IntKey<Layout>{&Layout::vpp, 1, kMaxCount}},
    {"micro_batch", IntKey<Layout>{&Layout::microBatch, 1, kMaxCount}},
    {"accumulation", IntKey<Layout>{&Layout::accumulation, 1, kMaxCount}},
};

Layout readLayout(const Json* j, const std::string& path, InputErrors& errors) {
    Layout l;
    if (!j)
        return l;
    if (!j->is_object()) {
        errors.push_back({path, "wrong type: expected an object, got " + describe(*j)});
        return l;
    }
    ObjectReader r(*j, path, errors,
                   {"tp", "pp", "dp", "cp", "ep", "etp", "vpp", "micro_batch", "accumulation"});
    json::readFields(r, l, kLayoutFields);
    r.reportUnknownKeys();
    return l;
}

// ------------------------------------------------------------------------------------------------
// Writing

Json layoutToJson(const Layout& l) {
    Json j;
    json::writeFields(j, l, kLayoutFields);
    return j;
}

// The name and notes earlier versions gave every scenario they started from (the seed example's, the
// untitled default) are not the user's: such a file names the scenario after its model and drops the notes.
void forgetNameAndNotesNotWritten(Scenario& s) {
    constexpr std::string_view kOldNames[] = {"Untitled scenario", "Llama-2-70B on 64 H100 (seed example)"};
    constexpr std::string_view kOldSeedNotes =
        "The worked example: a 70B model on 8 nodes x 8 H100 SXM as TP 8 x PP 4 x DP 2.";
    if (s.name && std::ranges::find(kOldNames, *s.name) != std::end(kOldNames))
        s.name.reset();
    if (s.notes == kOldSeedNotes)
        s.notes.clear();
}

} // namespace

std::expected<Scenario, InputErrors> scenarioFromJson(std::string_view text) {
    return json::guarded<Scenario>([&]() -> std::expected<Scenario, InputErrors> {
        InputErrors errors;
        const std::optional<Json> root = json::parseObject(text, errors);
        if (!root || !json::checkHeader(*root, errors, kScenarioSchema, kScenarioVersion, "scenario"))
            return std::unexpected(json::capped(std::move(errors)));
        Scenario s;
        ObjectReader r(
            *root, "$", errors,
            {"schema", "version", "name", "notes", "model", "cluster", "training", "layout", "run"});
        std::string name;
        r.readString("name", name);
        r.readString("notes", s.notes);
        s.model = readScenarioModel(r.find("model"), r.path("model"), errors);
        s.cluster = readScenarioCluster(r.find("cluster"), r.path("cluster"), errors);
        s.training = readTraining(r.find("training"), r.path("training"), errors);
        s.layout = readLayout(r.find("layout"), r.path("layout"), errors);
        s.run = readRunOptions(r.find("run"), r.path("run"), errors);
        if (s.training.activationOffloadLayers > s.model.layers && s.model.layers > 0)
            errors.push_back({"$.training.activation_offload_layers",
                              "out of range: must be an integer from 0 to the model's layers (" +
                                  std::to_string(s.model.layers) + "), got " +
                                  std::to_string(s.training.activationOffloadLayers)});
        r.reportUnknownKeys();
        if (!errors.empty())
            return std::unexpected(json::capped(std::move(errors)));
        setScenarioName(s, name);
        forgetNameAndNotesNotWritten(s);
        return s;
    });
}

std::string scenarioToJson(const Scenario& s) {
    Json j;
    j["schema"] = kScenarioSchema;
    j["version"] = kScenarioVersion;
    j["name"] = scenarioName(s);
    j["notes"] = s.notes;
    j["model"] = modelToJson(s.model);
    j["cluster"] = clusterToJson(s.cluster);
    j["training"] = trainingToJson(s.training);
    j["layout"] = layoutToJson(s.layout);
    if (s.run != RunOptions{}) // a file from before the run settings stays as it was
        j["run"] = runOptionsToJson(s.run);
    return json::dumpPretty(j);
}

std::expected<Scenario, InputErrors> loadScenarioFile(const std::string& path) {
    auto text = readTextFile(path);
    if (!text)
        return std::unexpected(InputErrors{{"", text.error()}});
    return scenarioFromJson(*text);
}

std::expected<void, std::string> saveScenarioFile(const std::string& path, const Scenario& s) {
    return writeFileAtomically(path, scenarioToJson(s));
}

} // namespace lp::core
