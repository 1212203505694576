// libFuzzer target: the hardware-profile loader, lp::core::profileFromJson (core/io/ScenarioJson.h).
// Properties: loading never crashes, a loaded profile writes and reads back exactly, and
// evaluating a scenario with it never crashes.
#include "FuzzCheck.h"
#include "core/estimate/Evaluate.h"
#include "core/estimate/PlanJson.h"
#include "core/io/Presets.h"
#include "core/io/ProfileJson.h"
#include "core/model/Scenario.h"

#include <nlohmann/json.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace lp;
    const auto loaded = core::profileFromJson(fuzz::asText(data, size));
    if (!loaded) {
        fuzz::check(!loaded.error().empty(), "a refused profile names at least one problem");
        for (const auto& e : loaded.error())
            (void)e.message();
        return 0;
    }
    const std::string written = core::profileToJson(*loaded);
    const auto again = core::profileFromJson(written);
    fuzz::check(again.has_value(), "a written profile loads again");
    fuzz::check(*again == *loaded, "a profile reads back equal to what was written");
    fuzz::check(core::profileToJson(*again) == written, "writing a re-read profile gives the same text");

    static const core::Scenario scenario = core::defaultScenario();
    const core::Plan plan = core::evaluate(scenario, *loaded);
    (void)core::planToJson(scenario, plan).dump();
    return 0;
}
