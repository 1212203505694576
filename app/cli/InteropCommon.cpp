#include "app/cli/InteropCommon.h"

#include "core/estimate/Evaluate.h"
#include "core/estimate/Explain.h"
#include "core/estimate/PlanJson.h"
#include "core/io/Files.h"
#include "core/io/Presets.h"

#include <iostream>

namespace lp::cli {

std::expected<Evaluated, CliError> evaluateScenario(const core::Scenario& s,
                                                    const std::optional<std::string>& profileFile) {
    Evaluated out;
    if (profileFile) {
        auto profile = loadProfileArg(*profileFile);
        if (!profile)
            return std::unexpected(profile.error());
        if (!profile->gpuId.empty() && profile->gpuId != s.cluster.gpu.id)
            std::cerr << "warning: profile " << *profileFile << " describes " << profile->gpuId
                      << ", but the scenario's GPU is " << s.cluster.gpu.id << '\n';
        out.profile = std::move(*profile);
    } else {
        out.profile = core::builtinProfile(s.cluster.gpu);
    }
    out.plan = core::evaluate(s, out.profile);
    return out;
}

std::expected<void, CliError> writeOutput(const std::optional<std::string>& output, const std::string& text) {
    const std::string target = output && !output->empty() ? *output : "-";
    std::cout.flush(); // what was printed before comes first
    if (auto w = core::writeFileAtomically(target, text); !w)
        return std::unexpected(failure(target, "cannot write the file: " + w.error()));
    if (!core::isStreamPath(target))
        std::cerr << "wrote " << target << '\n';
    return {};
}

std::string invalidLayoutIds(const core::Plan& p) {
    std::string ids;
    for (const auto& d : p.diagnostics)
        if (d.severity == core::Severity::Error)
            ids += (ids.empty() ? "" : ", ") + std::string(core::diagnosticIdString(d.id));
    if (ids.empty() && !p.valid)
        ids = "invalid layout";
    return ids;
}

std::expected<EvaluatedScenario, CliError>
evaluateValidScenario(const std::optional<std::string>& file, const ScenarioOverrides& overrides,
                      const std::optional<std::string>& profileFile, const std::string& refusal) {
    auto scenario = buildScenario(file, overrides);
    if (!scenario)
        return std::unexpected(scenario.error());
    auto evaluated = evaluateScenario(*scenario, profileFile);
    if (!evaluated)
        return std::unexpected(evaluated.error());
    if (const std::string ids = invalidLayoutIds(evaluated->plan); !ids.empty())
        return std::unexpected(badValue("layout", "invalid layout (" + ids + "); " + refusal));
    return EvaluatedScenario{std::move(*scenario), std::move(evaluated->profile), std::move(evaluated->plan)};
}

nlohmann::json explanationsJson(const core::Scenario& s, const core::Plan& plan) {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& e : core::explainPlan(s, plan))
        list.push_back(core::explanationToJson(e));
    return list;
}

std::expected<bool, CliError> takeOutputFlag(ArgCursor& args, std::optional<std::string>& output) {
    const auto name = args.peekName();
    if (name != "-o" && name != "--output")
        return false;
    auto v = args.takeNonEmptyValue("a file name (or - for standard output)");
    if (!v)
        return std::unexpected(v.error());
    output = *v;
    return true;
}

} // namespace lp::cli
