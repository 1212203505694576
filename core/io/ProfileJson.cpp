// Hardware-profile files (layout-planner/hardware-profile, documented in docs/formats.md; keep the two
// in step). Loading collects every problem (JSON path and reason) and never half-loads; saving is atomic.
#include "core/io/JsonReader.h"
#include "core/io/JsonWriter.h"
#include "core/io/ScenarioJson.h"

#include <utility>

namespace lp::core {
namespace {

using namespace detail;

constexpr DoubleRange kEfficiency{0.0, false, 1.5, true};
constexpr DoubleRange kCurveX{0.0, false, 1e30, true};

void readCurve(ObjectReader& r, std::string_view key, Curve& out, bool required) {
    const Json* v = r.find(key);
    if (!v) {
        if (required)
            r.error(key, "missing required key " + quoteJson(key) + " (a list of [x, efficiency] points)");
        return;
    }
    if (!v->is_array()) {
        r.error(key, "wrong type: expected an array of [x, efficiency] points, got " + describe(*v));
        return;
    }
    if (v->empty() && required) {
        r.error(key, "out of range: needs at least one [x, efficiency] point, got an empty array");
        return;
    }
    const std::string path = r.path(key);
    Curve curve;
    bool ok = true;
    double previousX = 0;
    for (std::size_t i = 0; i < v->size(); ++i) {
        const Json& p = (*v)[i];
        const std::string pp = indexPath(path, i);
        if (!p.is_array() || p.size() != 2) {
            r.errors().push_back(
                {pp,
                 "wrong type: expected a pair [x, efficiency], got " +
                     (p.is_array() ? "an array of " + std::to_string(p.size()) + " values" : describe(p))});
            ok = false;
            continue;
        }
        bool pointOk = true;
        for (std::size_t k = 0; k < 2; ++k) {
            if (!p[k].is_number()) {
                r.errors().push_back(
                    {indexPath(pp, k), "wrong type: expected a number, got " + describe(p[k])});
                pointOk = false;
                continue;
            }
            const DoubleRange& range = k == 0 ? kCurveX : kEfficiency;
            const double d = p[k].get<double>();
            if (!range.contains(d)) {
                r.errors().push_back(
                    {indexPath(pp, k), "out of range: " + range.text() + ", got " + fmtNumber(d)});
                pointOk = false;
            }
        }
        if (!pointOk) {
            ok = false;
            continue;
        }
        const double x = p[0].get<double>();
        if (!curve.points.empty() && !(x > previousX)) {
            r.errors().push_back(
                {indexPath(pp, 0), "out of order: x must be greater than the previous point's (" +
                                       fmtNumber(previousX) + "), got " + fmtNumber(x)});
            ok = false;
        }
        previousX = x;
        curve.points.emplace_back(x, p[1].get<double>());
    }
    if (ok)
        out = std::move(curve);
}

Json curveToJson(const Curve& c) {
    Json j = Json::array();
    for (const auto& [x, y] : c.points)
        j.push_back(Json::array({x, y}));
    return j;
}

} // namespace

std::expected<HardwareProfile, InputErrors> profileFromJson(std::string_view text) {
    return guarded<HardwareProfile>([&]() -> std::expected<HardwareProfile, InputErrors> {
        InputErrors errors;
        const std::optional<Json> root = parseObject(text, errors);
        if (!root || !checkHeader(*root, errors, kProfileSchema, kProfileVersion, "hardware-profile"))
            return std::unexpected(capped(std::move(errors)));
        HardwareProfile p;
        // clang-format off
        ObjectReader r(*root, "$", errors,
                       {"schema", "version", "name", "gpu_id", "origin", "measured_on", "date",
                        "gemm_efficiency", "gemm_efficiency_fp8", "hbm_efficiency",
                        "attention_fwd_efficiency", "attention_bwd_efficiency", "fa2_attention_fwd_efficiency",
                        "fa2_attention_bwd_efficiency", "attention_fwd_half_tokens", "attention_bwd_half_tokens",
                        "attention_score_overhead", "fa2_attention_score_overhead",
                        "nvlink_bus_efficiency", "network_bus_efficiency", "nvlink_latency_s", "network_latency_s"});
        // clang-format on
        r.readString("name", p.name);
        r.readString("gpu_id", p.gpuId);
        if (r.readString("origin", p.origin) && p.origin != "built-in" && p.origin != "measured")
            r.error("origin", "unknown value " + quoteJson(p.origin) +
                                  didYouMean(p.origin, {"built-in", "measured"}) +
                                  ": expected one of built-in, measured");
        r.readString("measured_on", p.measuredOn);
        r.readString("date", p.date);
        readCurve(r, "gemm_efficiency", p.gemmEfficiency, true);
        readCurve(r, "gemm_efficiency_fp8", p.gemmEfficiencyFp8, false);
        r.readDouble("hbm_efficiency", p.kernels.hbmEfficiency, kEfficiency);
        r.readDouble("attention_fwd_efficiency", p.kernels.attentionFwdEfficiency, kEfficiency);
        r.readDouble("attention_bwd_efficiency", p.kernels.attentionBwdEfficiency, kEfficiency);
        r.readDouble("fa2_attention_fwd_efficiency", p.kernels.fa2AttentionFwdEfficiency,
                     kEfficiency); // optional
        r.readDouble("fa2_attention_bwd_efficiency", p.kernels.fa2AttentionBwdEfficiency,
                     kEfficiency); // optional
        r.readDouble("attention_fwd_half_tokens", p.kernels.attentionFwdHalfTokens,
                     nonNegative(1e7)); // optional
        r.readDouble("attention_bwd_half_tokens", p.kernels.attentionBwdHalfTokens,
                     nonNegative(1e7)); // optional
        r.readDouble("attention_score_overhead", p.kernels.attentionScoreOverhead,
                     nonNegative(10.0)); // optional
        r.readDouble("fa2_attention_score_overhead", p.kernels.fa2AttentionScoreOverhead, nonNegative(10.0));
        readCurve(r, "nvlink_bus_efficiency", p.nvlinkBusEfficiency, true);
        readCurve(r, "network_bus_efficiency", p.networkBusEfficiency, true);
        r.readDouble("nvlink_latency_s", p.nvlinkLatencySeconds, nonNegative(1.0));
        r.readDouble("network_latency_s", p.networkLatencySeconds, nonNegative(1.0));
        r.reportUnknownKeys();
        if (!errors.empty())
            return std::unexpected(capped(std::move(errors)));
        return p;
    });
}

std::string profileToJson(const HardwareProfile& p) {
    Json j;
    j["schema"] = kProfileSchema;
    j["version"] = kProfileVersion;
    j["name"] = p.name;
    j["gpu_id"] = p.gpuId;
    j["origin"] = p.origin;
    j["measured_on"] = p.measuredOn;
    j["date"] = p.date;
    j["gemm_efficiency"] = curveToJson(p.gemmEfficiency);
    j["gemm_efficiency_fp8"] = curveToJson(p.gemmEfficiencyFp8);
    j["hbm_efficiency"] = p.kernels.hbmEfficiency;
    j["attention_fwd_efficiency"] = p.kernels.attentionFwdEfficiency;
    j["attention_bwd_efficiency"] = p.kernels.attentionBwdEfficiency;
    // The optional figures are written only when set (0 means absent).
    const auto writeIfSet = [&j](const char* key, double value) {
        if (value > 0)
            j[key] = value;
    };
    writeIfSet("fa2_attention_fwd_efficiency", p.kernels.fa2AttentionFwdEfficiency);
    writeIfSet("fa2_attention_bwd_efficiency", p.kernels.fa2AttentionBwdEfficiency);
    writeIfSet("attention_fwd_half_tokens", p.kernels.attentionFwdHalfTokens);
    writeIfSet("attention_bwd_half_tokens", p.kernels.attentionBwdHalfTokens);
    writeIfSet("attention_score_overhead", p.kernels.attentionScoreOverhead);
    writeIfSet("fa2_attention_score_overhead", p.kernels.fa2AttentionScoreOverhead);
    j["nvlink_bus_efficiency"] = curveToJson(p.nvlinkBusEfficiency);
    j["network_bus_efficiency"] = curveToJson(p.networkBusEfficiency);
    j["nvlink_latency_s"] = p.nvlinkLatencySeconds;
    j["network_latency_s"] = p.networkLatencySeconds;
    return dumpPretty(j);
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
