// The guided tour as data: reading tour files, applying a step's scenario patch, checking its claims,
// and quoting live figures in its texts.
#include "core/teach/TourScript.h"

#include "core/estimate/Evaluate.h"
#include "core/estimate/PlanJson.h"
#include "core/io/Presets.h"
#include "core/util/NumberFormat.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <set>

namespace lp::core {
namespace {

using nlohmann::json;

std::string stepPath(std::size_t i) {
    return "$.steps[" + std::to_string(i) + "]";
}

std::optional<json> parse(std::string_view text, const std::string& what, InputErrors& errors) {
    try {
        return json::parse(text.begin(), text.end());
    } catch (const json::parse_error& e) {
        errors.push_back({what, std::string("not valid JSON: ") + e.what()});
    }
    return std::nullopt;
}

std::string readString(const json& obj, const char* key, const std::string& path, InputErrors& errors,
                       bool required) {
    const auto it = obj.find(key);
    if (it == obj.end()) {
        if (required)
            errors.push_back({path + "." + key, "missing"});
        return {};
    }
    if (!it->is_string()) {
        errors.push_back({path + "." + key, "wrong type: expected a string"});
        return {};
    }
    return it->get<std::string>();
}

void checkKeys(const json& obj, const std::string& path, std::initializer_list<const char*> known,
               InputErrors& errors) {
    const std::set<std::string> keys(known.begin(), known.end());
    for (const auto& [key, value] : obj.items())
        if (!keys.contains(key))
            errors.push_back({path + "." + key, "unknown key"});
}

std::optional<TourCheck> readCheck(const json& c, const std::string& path, InputErrors& errors) {
    if (!c.is_object()) {
        errors.push_back({path, "wrong type: expected an object"});
        return std::nullopt;
    }
    checkKeys(c, path, {"claim", "scenario", "plan", "diagnostic", "equals", "min", "max", "present"},
              errors);
    TourCheck check;
    check.claim = readString(c, "claim", path, errors, true);
    int sources = 0;
    for (const auto& [key, source] :
         {std::pair{"scenario", TourCheck::Source::Scenario}, std::pair{"plan", TourCheck::Source::Plan},
          std::pair{"diagnostic", TourCheck::Source::Diagnostic}}) {
        if (c.contains(key)) {
            ++sources;
            check.source = source;
            check.pointer = readString(c, key, path, errors, true);
        }
    }
    if (sources != 1) {
        errors.push_back({path, "needs exactly one of \"scenario\", \"plan\" or \"diagnostic\""});
        return std::nullopt;
    }
    if (check.source != TourCheck::Source::Diagnostic) {
        try {
            (void)json::json_pointer(check.pointer);
        } catch (const json::exception&) {
            errors.push_back({path, "not a JSON pointer: \"" + check.pointer + "\""});
        }
    }
    if (const auto it = c.find("equals"); it != c.end())
        check.equalsJson = it->dump();
    for (const auto& [key, slot] : {std::pair{"min", &check.min}, std::pair{"max", &check.max}}) {
        if (const auto it = c.find(key); it != c.end()) {
            if (!it->is_number())
                errors.push_back({path + "." + key, "wrong type: expected a number"});
            else
                *slot = it->get<double>();
        }
    }
    if (const auto it = c.find("present"); it != c.end()) {
        if (!it->is_boolean())
            errors.push_back({path + ".present", "wrong type: expected true or false"});
        else
            check.present = it->get<bool>();
    }
    if (check.source != TourCheck::Source::Diagnostic && check.equalsJson.empty() && !check.min && !check.max)
        errors.push_back({path, "claims nothing: give \"equals\", \"min\" or \"max\""});
    return check;
}

// A JSON value as short text: numbers to 4 significant digits.
std::string shortText(const json& v) {
    if (v.is_number_float()) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.4g", v.get<double>());
        return buf;
    }
    return v.dump();
}

bool jsonEquals(const json& actual, const json& expected) {
    if (actual.is_number() && expected.is_number()) {
        const double a = actual.get<double>();
        const double e = expected.get<double>();
        return a == e || std::fabs(a - e) <= 1e-9 * std::max(std::fabs(a), std::fabs(e));
    }
    return actual == expected;
}

std::string formatValue(const json& v, std::string_view format, MemoryUnit unit) {
    if (!v.is_number())
        return v.is_string() ? v.get<std::string>() : v.dump();
    const double d = v.get<double>();
    if (format == "percent")
        return fmt::percent(d, 1);
    if (format == "memory")
        return bytesIn(d, unit, 1);
    if (format == "bytes")
        return bytesBoth(d, unit);
    if (format == "gb")
        return fmt::fixed(d / 1e9, 0) + " GB";
    if (format == "tb")
        return fmt::fixed(d / 1e12, 2) + " TB";
    if (format == "count")
        return fmt::count(d);
    if (format == "seconds")
        return fmt::duration(d);
    if (format == "int")
        return fmt::fixed(d, 0);
    return fmt::sig(d, 4);
}

// The Plan as `evaluate --json` prints it, plus a few figures the tour quotes that it leaves implicit.
json teachingPlanJson(const Scenario& s, const Plan& p) {
    json j = planToJson(s, p);
    json derived = json::object();
    derived["weights_bytes"] = finiteOrNull(p.params.total * 2.0);
    derived["bytes_per_parameter"] = finiteOrNull(p.intermediates.bytesPerParamState);
    if (!p.memory.stages.empty()) {
        const StageMemory& w = p.memory.stages[static_cast<std::size_t>(p.memory.worstStage)];
        derived["worst_stage_bytes"] = finiteOrNull(w.totalBytes);
    }
    if (p.time.computeSeconds > 0)
        derived["recompute_share_of_compute"] = finiteOrNull(p.time.recomputeSeconds / p.time.computeSeconds);
    j["derived"] = std::move(derived);
    return j;
}

} // namespace

std::expected<TourScript, InputErrors> tourFromJson(std::string_view text) {
    InputErrors errors;
    const auto root = parse(text, "", errors);
    if (!root)
        return std::unexpected(errors);
    if (!root->is_object())
        return std::unexpected(InputErrors{{"$", "wrong type: expected an object"}});
    checkKeys(*root, "$", {"schema", "version", "title", "steps"}, errors);
    if (root->value("schema", std::string()) != kTourSchema)
        errors.push_back({"$.schema", std::string("must be \"") + kTourSchema + "\""});
    if (!root->contains("version") || !(*root)["version"].is_number_integer() ||
        (*root)["version"].get<int>() > kTourVersion)
        errors.push_back({"$.version", "must be an integer up to " + std::to_string(kTourVersion)});
    TourScript tour;
    tour.title = readString(*root, "title", "$", errors, false);
    const auto steps = root->find("steps");
    if (steps == root->end() || !steps->is_array() || steps->empty()) {
        errors.push_back({"$.steps", "must be a non-empty array"});
        return std::unexpected(errors);
    }
    std::set<std::string> ids;
    const Scenario base = defaultScenario();
    for (std::size_t i = 0; i < steps->size(); ++i) {
        const json& s = (*steps)[i];
        const std::string path = stepPath(i);
        if (!s.is_object()) {
            errors.push_back({path, "wrong type: expected an object"});
            continue;
        }
        checkKeys(s, path, {"id", "title", "text", "target", "explain", "scenario", "checks"}, errors);
        TourStep step;
        step.id = readString(s, "id", path, errors, true);
        if (!step.id.empty() && !ids.insert(step.id).second)
            errors.push_back({path + ".id", "duplicate id \"" + step.id + "\""});
        step.title = readString(s, "title", path, errors, true);
        step.text = readString(s, "text", path, errors, true);
        step.target = readString(s, "target", path, errors, false);
        step.explain = readString(s, "explain", path, errors, false);
        if (const auto it = s.find("scenario"); it != s.end()) {
            if (!it->is_object())
                errors.push_back({path + ".scenario", "wrong type: expected an object (a merge patch)"});
            else
                step.patchJson = it->dump();
        } else {
            step.patchJson = "{}";
        }
        if (const auto checks = s.find("checks"); checks != s.end()) {
            if (!checks->is_array()) {
                errors.push_back({path + ".checks", "wrong type: expected an array"});
            } else {
                for (std::size_t k = 0; k < checks->size(); ++k)
                    if (auto c = readCheck((*checks)[k], path + ".checks[" + std::to_string(k) + "]", errors))
                        step.checks.push_back(std::move(*c));
            }
        }
        if (!step.patchJson.empty()) {
            if (auto scenario = applyScenarioPatch(base, step.patchJson); !scenario) {
                for (const InputError& e : scenario.error())
                    errors.push_back(
                        {path + ".scenario" + (e.path.size() > 1 ? e.path.substr(1) : std::string()),
                         e.reason});
            }
        }
        tour.steps.push_back(std::move(step));
    }
    if (!errors.empty())
        return std::unexpected(errors);
    return tour;
}

std::expected<Scenario, InputErrors> applyScenarioPatch(const Scenario& base, std::string_view patchJson) {
    InputErrors errors;
    auto patch = parse(patchJson, "$", errors);
    if (!patch)
        return std::unexpected(errors);
    if (!patch->is_object())
        return std::unexpected(InputErrors{{"$", "a scenario patch must be an object"}});
    json doc = json::parse(scenarioToJson(base));
    doc.merge_patch(*patch);
    return scenarioFromJson(doc.dump());
}

std::expected<Scenario, InputErrors> scenarioForStep(const TourStep& step, const Scenario& base) {
    return applyScenarioPatch(base, step.patchJson.empty() ? std::string_view("{}")
                                                           : std::string_view(step.patchJson));
}

std::vector<CheckResult> checkStep(const TourStep& step, const Scenario& s, const Plan& p) {
    std::vector<CheckResult> out;
    if (step.checks.empty())
        return out;
    const json scenarioJson = json::parse(scenarioToJson(s));
    const json planJson = teachingPlanJson(s, p);
    for (const TourCheck& c : step.checks) {
        CheckResult r{c.claim, false, "missing"};
        if (c.source == TourCheck::Source::Diagnostic) {
            bool found = false;
            for (const Diagnostic& d : p.diagnostics)
                found = found || diagnosticIdString(d.id) == c.pointer;
            r.ok = found == c.present;
            r.actual = found ? "present" : "absent";
            out.push_back(std::move(r));
            continue;
        }
        const json& root = c.source == TourCheck::Source::Scenario ? scenarioJson : planJson;
        try {
            const json::json_pointer ptr(c.pointer);
            if (root.contains(ptr)) {
                const json& v = root.at(ptr);
                r.actual = shortText(v);
                bool ok = true;
                if (!c.equalsJson.empty())
                    ok = ok && jsonEquals(v, json::parse(c.equalsJson));
                if (c.min || c.max) {
                    ok = ok && v.is_number();
                    if (ok && c.min)
                        ok = v.get<double>() >= *c.min;
                    if (ok && c.max)
                        ok = v.get<double>() <= *c.max;
                }
                r.ok = ok;
            }
        } catch (const json::exception&) {
            r.ok = false;
        }
        out.push_back(std::move(r));
    }
    return out;
}

bool allChecksPass(const std::vector<CheckResult>& results) {
    for (const CheckResult& r : results)
        if (!r.ok)
            return false;
    return true;
}

std::string expandFigures(std::string_view text, const Scenario& s, const Plan& p, MemoryUnit unit) {
    std::string out;
    std::optional<json> scenarioJson;
    std::optional<json> planJson;
    std::size_t pos = 0;
    while (pos < text.size()) {
        const std::size_t open = text.find("{{", pos);
        if (open == std::string_view::npos) {
            out.append(text.substr(pos));
            break;
        }
        const std::size_t close = text.find("}}", open + 2);
        if (close == std::string_view::npos) {
            out.append(text.substr(pos));
            break;
        }
        out.append(text.substr(pos, open - pos));
        std::string_view field = text.substr(open + 2, close - open - 2);
        std::string_view format;
        if (const std::size_t bar = field.find('|'); bar != std::string_view::npos) {
            format = field.substr(bar + 1);
            field = field.substr(0, bar);
        }
        std::string value = "?";
        const json* root = nullptr;
        std::string_view pointer;
        if (field.starts_with("plan:")) {
            if (!planJson)
                planJson = teachingPlanJson(s, p);
            root = &*planJson;
            pointer = field.substr(5);
        } else if (field.starts_with("scenario:")) {
            if (!scenarioJson)
                scenarioJson = json::parse(scenarioToJson(s));
            root = &*scenarioJson;
            pointer = field.substr(9);
        }
        if (root) {
            try {
                const json::json_pointer ptr{std::string(pointer)};
                if (root->contains(ptr) && !root->at(ptr).is_null())
                    value = formatValue(root->at(ptr), format, unit);
            } catch (const json::exception&) {
            }
        }
        out += value;
        pos = close + 2;
    }
    return out;
}

} // namespace lp::core
