// Loading collects every problem (JSON path and reason) and never half-loads; saving is atomic. The format
// is documented in docs/formats.md: keep the two in step.
#include "core/io/ProfileJson.h"

#include "core/io/Files.h"
#include "core/io/JsonReader.h"
#include "core/io/detail/HardwareJson.h"
#include "core/io/detail/JsonWriter.h"

#include <utility>

namespace lp::core {

std::expected<HardwareProfile, InputErrors> profileFromJson(std::string_view text) {
    return json::guarded<HardwareProfile>([&]() -> std::expected<HardwareProfile, InputErrors> {
        InputErrors errors;
        const std::optional<json::Json> root = json::parseObject(text, errors);
        if (!root || !json::checkHeader(*root, errors, kProfileSchema, kProfileVersion, "hardware-profile"))
            return std::unexpected(json::capped(std::move(errors)));
        HardwareProfile p;
        json::ObjectReader r(*root, "$", errors, {"schema", "version"});
        readProfileKeys(r, p);
        r.reportUnknownKeys();
        if (!errors.empty())
            return std::unexpected(json::capped(std::move(errors)));
        return p;
    });
}

std::string profileToJson(const HardwareProfile& p) {
    json::Json j;
    j["schema"] = kProfileSchema;
    j["version"] = kProfileVersion;
    writeProfileKeys(j, p);
    return json::dumpPretty(j);
}

std::expected<HardwareProfile, InputErrors> loadProfileFile(const std::string& path) {
    auto text = readTextFile(path);
    if (!text)
        return std::unexpected(InputErrors{{"", text.error()}});
    return profileFromJson(*text);
}

std::expected<void, std::string> saveProfileFile(const std::string& path, const HardwareProfile& p) {
    return writeFileAtomically(path, profileToJson(p));
}

} // namespace lp::core
