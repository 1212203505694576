// libFuzzer target: the validation-case loader, lp::core::validationCasesFromJson
// (core/measured/Validation.h). Properties: loading never crashes, strict and lenient loading agree, and
// predicting the loaded cases never crashes.
#include "FuzzCheck.h"
#include "core/measured/ValidationRun.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace lp;
    const auto loaded = core::validationCasesFromJson(fuzz::asText(data, size));
    // Lenient reading keeps what strict reading keeps, and names what it leaves out.
    core::InputErrors skipped;
    const auto lenient = core::validationCasesFromJson(fuzz::asText(data, size), &skipped);
    if (loaded)
        fuzz::check(lenient && lenient->size() == loaded->size() && skipped.empty(),
                    "a file read strictly reads the same leniently");
    else if (lenient)
        fuzz::check(!skipped.empty() && !lenient->empty(), "lenient reading names the cases it leaves out");
    if (!loaded) {
        fuzz::check(!loaded.error().empty(), "refused validation cases name at least one problem");
        for (const auto& e : loaded.error())
            (void)e.message();
        return 0;
    }
    // A measured figure left out is named with its value, which is never printed as inf or nan.
    for (const core::ValidationCase& c : *loaded)
        for (const std::string& a : c.adjustments)
            fuzz::check(!fuzz::printsNonFinite(a), "an adjustment never prints inf or nan");
    // Predicting picks micro batches by evaluating each; keep an iteration short on large files.
    if (loaded->size() <= 8)
        (void)core::runValidation(*loaded, nullptr);
    return 0;
}
