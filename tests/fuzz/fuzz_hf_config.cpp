// libFuzzer target: the Hugging Face config.json importer, lp::core::importHfConfig (core/io/HfImport.h).
// Properties: importing never crashes, a refused file names a problem, and evaluating the default
// scenario with the imported model never crashes.
#include "FuzzCheck.h"
#include "core/estimate/Evaluate.h"
#include "core/estimate/PlanJson.h"
#include "core/io/HfImport.h"
#include "core/io/Presets.h"
#include "core/model/Scenario.h"

#include <nlohmann/json.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace lp;
    const auto imported = core::importHfConfig(fuzz::asText(data, size));
    if (!imported) {
        fuzz::check(!imported.error().empty(), "a refused config names at least one problem");
        for (const auto& e : imported.error())
            (void)e.message();
        return 0;
    }
    core::Scenario scenario = core::defaultScenario();
    scenario.model = imported->model;
    const core::Plan plan = core::evaluate(scenario);
    (void)core::planToJson(scenario, plan).dump();
    return 0;
}
