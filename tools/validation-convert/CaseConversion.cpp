#include "tools/validation-convert/CaseConversion.h"

#include "core/io/SettingsJson.h"
#include "tools/validation-convert/ProseReading.h"

#include <optional>

namespace lp::tools {
namespace {

using namespace lp::core;
using json::Json;

constexpr const char* kVersion1 = "layout-planner/validation-cases@1";
constexpr const char* kVersion2 = "layout-planner/validation-cases@2";

// One case as core reads it from a file of the given version; nullopt when it cannot be read.
std::optional<ValidationCase> readOne(const Json& caseJson, const char* schema) {
    Json doc;
    doc["schema"] = schema;
    doc["cases"] = Json::array({caseJson});
    InputErrors skipped;
    auto cases = validationCasesFromJson(doc.dump(), &skipped);
    if (!cases || cases->empty())
        return std::nullopt;
    return std::move(cases->front());
}

// The case as core plans it without its words: no source, no notes, an id that names nothing.
std::optional<ValidationCase> readPlain(const Json& caseJson) {
    Json plain = caseJson;
    plain["source"] = "";
    plain["notes"] = "";
    plain["id"] = "case";
    auto vc = readOne(plain, kVersion1);
    if (vc) {
        vc->id = caseJson.value("id", std::string());
        vc->source = caseJson.contains("source") && caseJson.at("source").is_string()
                         ? caseJson.at("source").get<std::string>()
                         : "";
        vc->notes = caseJson.contains("notes") && caseJson.at("notes").is_string()
                        ? caseJson.at("notes").get<std::string>()
                        : "";
    }
    return vc;
}

// Whether two readings plan the same: the same model, cluster, training and layout, the same settings left to
// the search, the same global batch (names and notes are cosmetic, as is a recomputation left to the search).
bool samePlan(const ValidationCase& a, const ValidationCase& b) {
    Scenario sa = a.scenario;
    Scenario sb = b.scenario;
    sa.name = sb.name;
    sa.notes = sb.notes;
    sa.model.name = sb.model.name;
    sa.cluster.name = sb.cluster.name;
    if (!a.recomputeGiven && !b.recomputeGiven)
        sa.training.recompute = sb.training.recompute; // searched: the value written is no setting
    return sa == sb && a.microBatchGiven == b.microBatchGiven && a.recomputeGiven == b.recomputeGiven &&
           a.vppGiven == b.vppGiven && a.globalBatch == b.globalBatch;
}

// The @2 statements that make `plain` plan as `prose` did, added to the case object `out`.
void stateSettings(const ProseReading& prose, const ValidationCase& plain, Json& out) {
    const ValidationCase& planned = prose.planned;
    Json& layout = out["layout"];
    const Json was = trainingToJson(plain.scenario.training);
    const Json now = trainingToJson(planned.scenario.training);
    Json training = Json::object();
    for (auto it = now.begin(); it != now.end(); ++it)
        if (!was.contains(it.key()) ||
            was.at(it.key()) != it.value()) { // a switch left on auto is not written
            training[it.key()] = it.value();
            layout.erase(it.key()); // stated once, where @2 reads it last
        }
    if (!planned.recomputeGiven && plain.recomputeGiven)
        layout.erase("recompute");
    if (planned.vppGiven != plain.vppGiven || planned.scenario.layout.vpp != plain.scenario.layout.vpp)
        layout["vpp"] = planned.scenario.layout.vpp;
    if (planned.scenario.layout.etp != plain.scenario.layout.etp)
        layout["etp"] = planned.scenario.layout.etp;
    if (planned.scenario.model.dropout != plain.scenario.model.dropout)
        out["model"]["dropout"] = planned.scenario.model.dropout;
    const double network = planned.scenario.cluster.gpu.networkBandwidth;
    if (network != plain.scenario.cluster.gpu.networkBandwidth) {
        if (prose.machine && presetNetworkBandwidth(*prose.machine) == network)
            out["cluster"] = Json{{"preset", prose.machine->id}};
        else
            out["cluster"] = Json{{"gpu", Json{{"network_bandwidth_bytes_per_s", network}}}};
    }
    if (!training.empty())
        out["training"] = training;
    if (!prose.derived.empty())
        out["derived"] = prose.derived;
}

// The case's keys in the order a reader expects them: what it is and says, then what it ran on and how.
Json ordered(const Json& c) {
    Json out = Json::object();
    for (const char* key : {"id", "source", "confidence", "notes", "derived", "model", "hardware", "cluster",
                            "layout", "training", "measured"})
        if (c.contains(key))
            out[key] = c.at(key);
    for (auto it = c.begin(); it != c.end(); ++it)
        if (!out.contains(it.key()))
            out[it.key()] = it.value();
    return out;
}

} // namespace

std::vector<ValidationCase> readAsVersion1(const std::string& text) {
    std::vector<ValidationCase> out;
    const Json doc = Json::parse(text);
    for (const Json& c : doc.at("cases"))
        if (const auto plain = readPlain(c)) {
            ProseReading prose = readProse(c, *plain);
            // What the words changed, with what the reader changed so that the case can be planned.
            prose.planned.adjustments.insert(prose.planned.adjustments.end(), prose.derived.begin(),
                                             prose.derived.end());
            out.push_back(std::move(prose.planned));
        }
    return out;
}

std::string convertFile(const std::string& text, std::vector<std::string>& problems) {
    Json doc = Json::parse(text);
    doc["schema"] = kVersion2;
    for (Json& c : doc.at("cases")) {
        const auto plain = readPlain(c);
        if (!plain)
            continue; // unreadable either way: copied as it is
        const ProseReading prose = readProse(c, *plain);
        Json converted = c;
        stateSettings(prose, *plain, converted);
        const auto again = readOne(converted, kVersion2);
        if (!again || !samePlan(*again, prose.planned))
            problems.push_back(plain->id + ": its @2 statement does not plan as the @1 reader did");
        c = ordered(converted);
    }
    return doc.dump(1) + "\n";
}

} // namespace lp::tools
