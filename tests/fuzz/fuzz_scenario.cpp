// libFuzzer target: the scenario loader, lp::core::scenarioFromJson (core/io/ScenarioJson.h).
// Properties: loading never crashes (ASan/UBSan watch), every refusal says where (a path, or a line and
// column; too deep nesting both), a loaded scenario writes and reads back exactly (docs/formats.md: "bit for
// bit") and saves through a stream (core/io/Files.h), evaluating it never crashes, and its explanations and
// diagnostics never print inf or nan.
#include "FuzzCheck.h"
#include "core/estimate/Evaluate.h"
#include "core/estimate/Explain.h"
#include "core/estimate/PlanJson.h"
#include "core/io/Files.h"
#include "core/io/ScenarioJson.h"

#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace lp;
    const auto loaded = core::scenarioFromJson(fuzz::asText(data, size));
    if (!loaded) {
        fuzz::check(!loaded.error().empty(), "a refused scenario names at least one problem");
        for (const auto& e : loaded.error()) {
            fuzz::check(!e.message().empty(), "every problem has a message");
            fuzz::check((e.line > 0) == (e.column > 0), "a line comes with a column");
            if (e.reason.starts_with("the file is nested too deeply"))
                fuzz::check(e.path.starts_with("$") && e.line > 0, "too deep nesting says where");
        }
        return 0;
    }
    const std::string written = core::scenarioToJson(*loaded);
    const auto again = core::scenarioFromJson(written);
    fuzz::check(again.has_value(), "a written scenario loads again");
    fuzz::check(*again == *loaded, "a scenario reads back equal to what was written");
    fuzz::check(core::scenarioToJson(*again) == written, "writing a re-read scenario gives the same text");
    static const int devNull = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (devNull >= 0)
        fuzz::check(core::writeFileAtomically("/dev/fd/" + std::to_string(devNull), written).has_value(),
                    "a written scenario saves through an open stream");

    const core::Plan plan = core::evaluate(*loaded);
    (void)core::planToJson(*loaded, plan).dump();
    // Within the file's ranges (docs/formats.md, "Physical lower bounds") no sentence prints inf or nan.
    for (const core::Explanation& e : core::explainPlan(*loaded, plan))
        fuzz::check(!fuzz::printsNonFinite(e.substituted) && !fuzz::printsNonFinite(e.words),
                    "an explanation never prints inf or nan");
    for (const core::Diagnostic& d : plan.diagnostics)
        fuzz::check(!fuzz::printsNonFinite(core::diagnosticMessage(d)),
                    "a diagnostic never prints inf or nan");
    return 0;
}
