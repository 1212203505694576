// libFuzzer target: the validation-case loader, lp::core::validationCasesFromJson (core/Validation.h).
// Properties: loading never crashes, and predicting the loaded cases never crashes.
#include "FuzzCheck.h"

#include "core/Validation.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace lp;
    const auto loaded = core::validationCasesFromJson(fuzz::asText(data, size));
    if (!loaded) {
        fuzz::check(!loaded.error().empty(), "refused validation cases name at least one problem");
        for (const auto& e : loaded.error())
            (void)e.message();
        return 0;
    }
    // Predicting picks micro batches by evaluating each; keep an iteration short on large files.
    if (loaded->size() <= 8)
        (void)core::runValidation(*loaded, nullptr);
    return 0;
}
