#pragma once
// Layout reports: one scenario, its plan and everything needed to review it, as a self-contained HTML page
// (core/report/ReportHtml.h), Markdown for a code forge (core/report/ReportMarkdown.h), or versioned JSON.
// The PDF is the HTML printed by Qt (ui/interop/ReportWriter.h); the command line, being Qt-free, writes
// HTML, Markdown and JSON. Formats: docs/reports.md.
#include "core/estimate/Explain.h"
#include "core/estimate/Plan.h"
#include "core/model/Hardware.h"
#include "core/model/Scenario.h"

#include <nlohmann/json_fwd.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lp::core {

inline constexpr const char* kReportSchema = "layout-planner/report";
inline constexpr int kReportVersion = 1;

enum class ReportFormat { Html, Markdown, Json, Pdf };
std::string_view toString(ReportFormat f);                         // "html", "md", "json", "pdf"
std::optional<ReportFormat> parseReportFormat(std::string_view s); // also "markdown", "htm"
// From a file name's extension (.html/.htm, .md/.markdown, .json, .pdf); nullopt otherwise.
std::optional<ReportFormat> reportFormatForPath(std::string_view path);
// The name a report's file is offered under, without extension: the scenario's name and its layout, so that
// reports of two layouts do not take each other's name ("Llama-2-70B-class on 64 H100 (seed example) TP8 PP4
// DP2"; CP, EP and virtual stages where above 1). Characters that a file name cannot hold on some system
// (/ \ : * ? " < > |, control characters) become "-".
std::string reportFileStem(const Scenario& s);

// How far measured runs like this one ran from their plans (core/measured/TrustBand.h, which this folder does
// not use: the caller words it): the step time and MFU ranges ("4.66–5.35 s", "34.4–39.5 %"; empty without a
// band) and the sentence saying where they come from, or that no comparable runs exist. All empty: not shown.
struct ReportTrust {
    std::string stepRange;
    std::string mfuRange;
    std::string sentence;
    // The band's figures, as JSON outputs carry them (addTrustJson).
    bool available = false;
    double stepLow = 0, stepHigh = 0;     // seconds per step
    double mfuLow = 0, mfuHigh = 0;       // fractions
    double tokensLow = 0, tokensHigh = 0; // tokens per second, whole cluster
    int figures = 0;
    std::vector<std::string> runs; // the runs' ids
    bool scaleRelaxed = false;
};

// Adds the band to a plan's JSON object (planToJson): time.step_s_band, mfu_band and tokens_per_s_band ({low,
// high}, null without a band) and trust {available, figures, runs, scale_relaxed, sentence}. Nothing when the
// trust is unset (no sentence).
void addTrustJson(nlohmann::json& plan, const ReportTrust& trust);

// What a report shows. makeReport() fills it; callers may change the title or the date.
struct ReportInput {
    Scenario scenario;
    HardwareProfile profile;
    Plan plan;
    std::vector<Explanation> explanations; // explainPlan(scenario, plan) for a valid plan
    std::string title;                     // "Layout report: <scenario name>"
    std::string generatedAt;               // ISO 8601 UTC, "2025-01-31T09:30:00Z"
    std::string toolVersion;               // LP_VERSION
    ReportTrust trust;                     // set by the caller that has the validated runs
};

// Evaluates the scenario with the profile (or the GPU's built-in profile) and fills everything.
ReportInput makeReport(const Scenario& s, const HardwareProfile& profile);
ReportInput makeReport(const Scenario& s);
// For a plan already evaluated (the window's current plan).
ReportInput makeReport(const Scenario& s, const HardwareProfile& profile, const Plan& plan);

// The current time as "YYYY-MM-DDThh:mm:ssZ"; SOURCE_DATE_EPOCH (seconds) overrides it, for
// reproducible output.
std::string utcTimestampNow();
// "2025-01-31T09:30:00Z" -> "2025-01-31 09:30 UTC" (other strings unchanged).
std::string displayTimestamp(std::string_view iso);

// The assumptions behind the figures, as plain sentences.
std::vector<std::string> reportAssumptions(const Scenario& s, const HardwareProfile& profile, const Plan& p);
// "built-in profile for NVIDIA H100 SXM 80 GB" / "measured on NVIDIA H100 ... on 2025-01-30".
std::string profileDescription(const HardwareProfile& profile, const Scenario& s);

nlohmann::json reportToJsonValue(const ReportInput& r);
std::string reportToJson(const ReportInput& r); // pretty-printed, ends with a newline
// HTML, Markdown or JSON; Pdf gives an empty string (it needs Qt: ui/interop/ReportWriter.h).
std::string renderReport(const ReportInput& r, ReportFormat f);

} // namespace lp::core
