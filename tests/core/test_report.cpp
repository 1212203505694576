// Layout reports (core/report/Report.h), their charts (core/report/SvgCharts.h), escaping
// (core/util/Markup.h) and the search-result export (core/search/SearchExport.h).
#include "TestHarness.h"
#include "core/estimate/Evaluate.h"
#include "core/estimate/Explain.h"
#include "core/estimate/KeyFigures.h"
#include "core/io/Presets.h"
#include "core/io/ScenarioJson.h"
#include "core/report/Report.h"
#include "core/report/ReportHtml.h"
#include "core/report/ReportMarkdown.h"
#include "core/report/RunFigures.h"
#include "core/report/SvgCharts.h"
#include "core/search/SearchExport.h"
#include "core/util/Markup.h"
#include "core/util/NumberFormat.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>

using namespace lp::core;

namespace {

const char* kScript = "<script>alert(1)</script>";

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

std::size_t countOf(const std::string& text, const std::string& part) {
    std::size_t n = 0;
    for (std::size_t pos = text.find(part); pos != std::string::npos;
         pos = text.find(part, pos + part.size()))
        ++n;
    return n;
}

ReportInput defaultReport() {
    ReportInput r = makeReport(defaultScenario());
    r.generatedAt = "2025-01-31T09:40:00Z";
    return r;
}

ReportInput hostileReport() {
    Scenario s = defaultScenario();
    s.name = std::string("Plan ") + kScript + " & \"friends\"";
    s.model.name = kScript;
    s.notes = "line one <b>bold?</b>\n| not | a | table |\n# not a heading\n[link](javascript:alert(1))";
    ReportInput r = makeReport(s);
    r.generatedAt = "2025-01-31T09:40:00Z";
    return r;
}

} // namespace

LP_TEST(html_has_every_section_and_is_self_contained) {
    const ReportInput r = defaultReport();
    const std::string html = reportToHtml(r);
    LP_CHECK(html.rfind("<!DOCTYPE html>", 0) == 0);
    for (const char* id :
         {"summary", "scenario", "layout", "memory", "precision", "time", "timeline", "utilisation", "run",
          "diagnostics", "explanations", "profile", "assumptions", "scenario-file"})
        LP_CHECK(contains(html, std::string("<section id=\"") + id + "\">"));
    LP_CHECK_EQ(countOf(html, "<section"), countOf(html, "</section>"));
    LP_CHECK_EQ(countOf(html, "<table"), countOf(html, "</table>"));
    // Memory, time, timeline, goodput and loss charts, inline.
    LP_CHECK_EQ(countOf(html, "<svg"), std::size_t{5});
    LP_CHECK_EQ(countOf(html, "</svg>"), std::size_t{5});
    LP_CHECK(contains(html, "<meta charset=\"utf-8\">"));
    LP_CHECK(contains(html, "@media print"));
    // No external resources of any kind.
    for (const char* banned : {"<script", "<link", "<iframe", "<img", "<object", "<embed", "src=", "url(",
                               "@import", "http://", "https://"})
        LP_CHECK(!contains(html, banned));
    // The title, date and version.
    LP_CHECK(contains(html, "<title>Layout report: Llama-2-70B-class on 64 H100 (seed example)</title>"));
    LP_CHECK(contains(html, "2025-01-31 09:40 UTC"));
    LP_CHECK(contains(html, std::string("Layout Planner ") + LP_VERSION));
}

LP_TEST(html_shows_the_plan_figures) {
    const ReportInput r = defaultReport();
    const std::string html = reportToHtml(r);
    const Plan p = evaluate(defaultScenario());
    LP_CHECK(contains(html, "Fits: the worst stage needs"));
    LP_CHECK(contains(html, "Step time"));
    LP_CHECK(contains(html, "MFU"));
    LP_CHECK(contains(html, "6ND"));
    LP_CHECK(contains(html, "pipeline_bubble")); // the default plan's diagnostic, with its suggestion
    LP_CHECK(contains(html, "Suggestion:"));
    LP_CHECK(contains(html, "Built-in profile"));
    LP_CHECK_EQ(countOf(html, "<dt>"), r.explanations.size());
    LP_CHECK(r.explanations.size() >= 10);
    // Memory table: one row per stage, the worst one emphasised.
    LP_CHECK_EQ(countOf(html, "<tr class=\"emph\">"), std::size_t{2}); // worst stage + the step total
    LP_CHECK(contains(html, std::to_string(p.memory.worstStage) + " (worst)"));
    // Its nine columns take the smaller headers (on A4 "Activations" would otherwise break mid-word);
    // the time table's fewer columns keep the body size.
    LP_CHECK_EQ(countOf(html, "<table class=\"wide\""), std::size_t{1});
    LP_CHECK(contains(html, "table.wide th { font-size"));
    // The scenario in full, readable back.
    LP_CHECK(contains(html, "&quot;schema&quot;: &quot;layout-planner/scenario&quot;"));
}

// The reports word every explained figure's value as the window's panel and the command line do
// (explanationValueText: the card's wording, memory in GB with GiB beside it).
LP_TEST(reports_word_explained_values_as_every_view_does) {
    const ReportInput r = defaultReport();
    const std::string html = reportToHtml(r);
    const std::string md = reportToMarkdown(r);
    const std::vector<KeyFigure> cards = report::figureCards(r.scenario, r.plan, MemoryUnit::GB);
    // The Run section's cards too: an explanation opened from one heads with the card's value.
    std::set<std::string> seen;
    for (const report::RunCard& c : report::runCards(r.plan)) {
        if (!seen.insert(c.key).second)
            continue; // the first card of a key is the one its explanation reads as
        const auto e = explainFigure(r.scenario, r.plan, c.key);
        LP_CHECK(e.has_value());
        if (e)
            LP_CHECK_EQ(explanationValueText(*e, cards, MemoryUnit::GB), c.value);
    }
    for (const Explanation& e : r.explanations) {
        const std::string value = explanationValueText(e, cards, MemoryUnit::GB);
        LP_CHECK(contains(html, "<dt>" + escapeHtml(e.label + " = " + value) + " <code>"));
        LP_CHECK(contains(md, "**" + escapeMarkdown(e.label) + " = " + escapeMarkdown(value) + "**"));
    }
    LP_CHECK(contains(html, "Model FLOPs utilization (MFU) = " + mfuText(r.plan.mfu)));
    // Counts take one set of tiers everywhere: the FLOPs per step as the MFU explanation substitutes them.
    LP_CHECK_EQ(fmt::count(1.1652e17), std::string("116.52 P"));
    LP_CHECK_EQ(fmt::count(2.5e18), std::string("2.50 E"));
    LP_CHECK_EQ(fmt::count(68976648192.0), std::string("68.98 B"));
    LP_CHECK(contains(md, "| Model FLOPs per step | " + fmt::count(r.plan.modelFlopsPerStep) + "FLOP |"));
    const auto mfu = explainFigure(r.scenario, r.plan, "mfu");
    LP_CHECK(mfu && contains(mfu->substituted, fmt::count(r.plan.modelFlopsPerStep) + " / "));
}

LP_TEST(user_strings_are_escaped_in_html) {
    const std::string html = reportToHtml(hostileReport());
    LP_CHECK(!contains(html, "<script"));
    LP_CHECK(!contains(html, "<b>bold?</b>"));
    LP_CHECK(contains(html, "&lt;script&gt;alert(1)&lt;/script&gt;"));
    LP_CHECK(contains(html, "&amp; &quot;friends&quot;"));
    LP_CHECK(contains(html, "line one &lt;b&gt;bold?&lt;/b&gt;<br>"));
    LP_CHECK(!contains(html, "href=\"javascript"));
}

LP_TEST(markdown_renders_tables_and_escapes) {
    const std::string md = reportToMarkdown(defaultReport());
    LP_CHECK(md.rfind("# Layout report: Llama-2-70B-class on 64 H100 (seed example)\n", 0) == 0);
    for (const char* h : {"## Summary", "## Scenario", "## Layout", "## Memory per GPU, by pipeline stage",
                          "## Number formats", "## Time per step", "## Utilisation and throughput",
                          "## Diagnostics", "## How the key figures are computed", "## Hardware profile",
                          "## Assumptions", "## Appendix: scenario file"})
        LP_CHECK(contains(md, std::string("\n") + h + "\n"));
    LP_CHECK(contains(md, "| Stage | Layers | Weights | Gradients | Optimizer | Activations | Overheads | "
                          "Total GiB | Total GB |"));
    LP_CHECK(contains(md, "|---:|---:|"));
    LP_CHECK(contains(md, "```json\n{"));

    // (The scenario file in the appendix is a fenced code block: shown literally, so left out here.)
    const std::string full = reportToMarkdown(hostileReport());
    const std::string evil = full.substr(0, full.find("## Appendix"));
    LP_CHECK(contains(full, "```json\n"));
    LP_CHECK(!contains(evil, "<script"));
    LP_CHECK(!contains(evil, "<b>"));
    LP_CHECK(contains(evil, "&lt;script&gt;alert(1)&lt;/script&gt;"));
    LP_CHECK(contains(evil, "\\| not \\| a \\| table \\|"));
    LP_CHECK(contains(evil, "\\# not a heading"));
    LP_CHECK(contains(evil, "\\[link\\](javascript:alert(1))"));
}

LP_TEST(number_formats_section_follows_the_precision) {
    // bf16: the table, no fp8 rows and no fp8 memory line.
    const ReportInput bf16 = defaultReport();
    const std::string plain = reportToHtml(bf16);
    LP_CHECK(contains(plain, "<h2>Number formats</h2>"));
    LP_CHECK(contains(plain, "<a href=\"#precision\">Number formats</a>"));
    LP_CHECK(contains(plain, "Adam moments (m, v)"));
    LP_CHECK(!contains(plain, "fp8 e4m3"));
    LP_CHECK(!contains(plain, "FP8 weight copies"));
    // Notes are escaped like everything else: "The model's working copy" has an apostrophe.
    LP_CHECK(contains(plain, "The model&#39;s working copy"));
    LP_CHECK(!contains(plain, "The model's working copy"));
    LP_CHECK(!contains(reportToMarkdown(bf16), "FP8 weight copies"));

    // FP8 under the Megatron style (Transformer Engine): fp8 rows and the copies and scaling state.
    Scenario s = defaultScenario();
    s.training.precision = Precision::Fp8;
    ReportInput r = makeReport(s);
    r.generatedAt = "2025-01-31T09:40:00Z";
    LP_CHECK(r.plan.intermediates.fp8WeightCopyBytes > 0 && r.plan.intermediates.fp8ScalingStateBytes > 0);
    const std::string html = reportToHtml(r);
    LP_CHECK(contains(html, "Number formats"));
    LP_CHECK(contains(html, "fp8 e4m3"));
    LP_CHECK(contains(html, "FP8 weight copies (linear layers)"));
    LP_CHECK(
        contains(html, "<p>FP8 weight copies " + fmt::bytesBoth(r.plan.intermediates.fp8WeightCopyBytes)));
    LP_CHECK(contains(html, "on the worst stage (" + std::to_string(r.plan.memory.worstStage) + ")"));
    LP_CHECK_EQ(countOf(html, "<table"), countOf(html, "</table>"));
    const std::string md = reportToMarkdown(r);
    LP_CHECK(contains(md, "\n## Number formats\n"));
    LP_CHECK(contains(md, "| Tensor | Format | Bytes per value | Note |"));
    LP_CHECK(contains(md, "\nFP8 weight copies " + fmt::bytesBoth(r.plan.intermediates.fp8WeightCopyBytes)));
    // The JSON report carries the plan's precision rows and fp8 figures (planToJson).
    const nlohmann::json j = reportToJsonValue(r);
    LP_CHECK(!j.at("plan").at("precision").empty());
    LP_CHECK(j.at("plan").at("fp8_weight_copy_bytes").get<double>() > 0);
    LP_CHECK(j.at("plan").at("fp8_scaling_state_bytes").get<double>() > 0);
    // The weights explanation names the fp8 extras.
    bool explained = false;
    for (const auto& e : r.explanations)
        if (e.key == "memory.weights")
            explained =
                contains(e.substituted, "fp8 weight copies") && contains(e.words, "Transformer Engine");
    LP_CHECK(explained);

    // FP8 under the FSDP style (torchao Float8Linear): no cached copies, no scaling state, no extras line.
    s.training.executionStyle = ExecutionStyle::Fsdp;
    const ReportInput f = makeReport(s);
    const std::string fsdp = reportToHtml(f);
    LP_CHECK(contains(fsdp, "fp8 e4m3"));
    LP_CHECK(contains(fsdp, "none kept"));
    LP_CHECK(!contains(fsdp, "<p>FP8 weight copies"));
}

LP_TEST(cp_explanation_names_the_hiding_chunk) {
    Scenario s = defaultScenario();
    s.layout.cp = 2;
    s.layout.dp = 1; // TP 8 x PP 4 x CP 2 = 64 GPUs
    const Plan p = evaluate(s);
    LP_CHECK(p.valid);
    LP_CHECK(p.intermediates.cpHidingTokens > 0 && p.intermediates.cpExchangeBytes > 0);
    const auto e = explainFigure(s, p, "time.cp_comm");
    LP_CHECK(e.has_value());
    if (e) {
        LP_CHECK(contains(e->substituted, "tokens of each sequence per rank"));
        LP_CHECK(contains(e->substituted, "hidden above about"));
        LP_CHECK(contains(e->formula, "attention time per token pair"));
    }
    // Without CP the explanation stays short, and the set of keys does not change.
    const Plan one = evaluate(defaultScenario());
    const auto plain = explainFigure(defaultScenario(), one, "time.cp_comm");
    LP_CHECK(plain && !contains(plain->substituted, "hidden above"));
    LP_CHECK_EQ(explainPlan(s, p).size(), explainPlan(defaultScenario(), one).size());
}

LP_TEST(overlap_switches_are_listed_and_explained) {
    // Default: all three off, listed in the training options; the explanations keep their plain formulas.
    const ReportInput off = defaultReport();
    const std::string offHtml = reportToHtml(off);
    const std::string offMd = reportToMarkdown(off);
    for (const char* row :
         {"TP communication overlap", "PP communication overlap", "DP communication overlap"}) {
        LP_CHECK(contains(offHtml, row));
        LP_CHECK(contains(offMd, std::string("| ") + row + " | off |"));
    }
    LP_CHECK(contains(offHtml, "gradient reduction after the backward pass (not overlapped)"));
    const Plan plain = evaluate(defaultScenario());
    const auto tpOff = explainFigure(defaultScenario(), plain, "time.tp_comm");
    const auto ppOff = explainFigure(defaultScenario(), plain, "time.pp_comm");
    const auto dpOff = explainFigure(defaultScenario(), plain, "time.dp_comm");
    LP_CHECK(tpOff && ppOff && dpOff);
    if (tpOff && ppOff && dpOff) {
        LP_CHECK(!contains(tpOff->formula, "GEMM time") && !contains(tpOff->words, "overlap is on"));
        LP_CHECK(!contains(ppOff->formula, "stage compute"));
        LP_CHECK(contains(dpOff->words, "after the backward pass"));
    }

    // All three on (TP 8 x PP 4 x DP 2, Megatron-LM style).
    Scenario s = defaultScenario();
    s.training.overlapTpComm = Toggle::On;
    s.training.overlapPpComm = true;
    s.training.overlapDpComm = Toggle::On;
    ReportInput on = makeReport(s);
    on.generatedAt = "2025-01-31T09:40:00Z";
    const std::string md = reportToMarkdown(on);
    for (const char* row :
         {"TP communication overlap", "PP communication overlap", "DP communication overlap"})
        LP_CHECK(contains(md, std::string("| ") + row + " | on |"));
    const std::string html = reportToHtml(on);
    LP_CHECK(contains(html, "overlapped with the backward pass (--overlap-grad-reduce)"));
    LP_CHECK(contains(html, "overlap the layer&#39;s GEMMs (--tp-comm-overlap, AsyncTP)"));
    LP_CHECK(contains(html, "overlaps the stage&#39;s compute (--overlap-p2p-communication)"));
    const nlohmann::json j = reportToJsonValue(on);
    LP_CHECK(j.at("scenario").at("training").at("overlap_tp_comm").get<bool>());
    auto find = [&](const std::string& key) {
        for (const auto& e : on.explanations)
            if (e.key == key)
                return e;
        return Explanation{};
    };
    const Explanation tp = find("time.tp_comm");
    LP_CHECK(contains(tp.formula, "max(0, TP - GEMM time of the layer) + 0.2 x min(TP, GEMM time)"));
    LP_CHECK(contains(tp.words, "--tp-comm-overlap"));
    LP_CHECK(contains(tp.words, "SMs and memory bandwidth"));
    LP_CHECK(contains(tp.substituted, "exposed with the overlap"));
    LP_CHECK_NEAR(tp.value, on.plan.time.tpCommSeconds, 1e-15);
    LP_CHECK(on.plan.time.tpCommSeconds < plain.time.tpCommSeconds);
    const Explanation pp = find("time.pp_comm");
    LP_CHECK(contains(pp.formula, "max(0, p2p - stage compute)"));
    LP_CHECK(contains(pp.words, "--overlap-p2p-communication"));
    LP_CHECK(on.plan.time.ppCommSeconds <= plain.time.ppCommSeconds);
    const Explanation dp = find("time.dp_comm");
    LP_CHECK(contains(dp.formula, "backward window"));
    LP_CHECK(contains(dp.formula, "as in the FSDP style"));
    LP_CHECK(contains(dp.words, "--overlap-grad-reduce"));
    LP_CHECK(on.plan.time.dpCommExposedSeconds < plain.time.dpCommExposedSeconds);
    LP_CHECK_EQ(on.explanations.size(), off.explanations.size());

    // The FSDP style overlaps the reduction anyway: the switch changes nothing, and both places say so.
    Scenario f = defaultScenario();
    f.training.executionStyle = ExecutionStyle::Fsdp;
    const std::string fsdpMd = reportToMarkdown(makeReport(f));
    LP_CHECK(contains(fsdpMd, "| DP communication overlap | off (the FSDP style overlaps anyway) |"));
    f.training.overlapDpComm = Toggle::On;
    const Plan fp = evaluate(f);
    const auto fe = explainFigure(f, fp, "time.dp_comm");
    LP_CHECK(fe && contains(fe->words, "overlaps the reduction with the backward pass anyway"));
}

LP_TEST(the_profile_section_and_assumptions_name_the_attention_kernel_the_style_runs) {
    // The default scenario (Megatron style on H100): fused attention at the profile's 40 %; the H100 profile
    // also lists FlashAttention-2's 34 %, which this plan does not use.
    const std::string megatron = reportToMarkdown(defaultReport());
    LP_CHECK(contains(megatron, "40 % (forward) and 31 % (backward) of peak"));
    LP_CHECK(contains(megatron, "| FlashAttention-2 forward (torch SDPA, FSDP style) | 34.0 % |"));
    // The FSDP style runs torch's SDPA: the assumptions say so, the profile section marks it as this plan's.
    Scenario s = defaultScenario();
    s.training.executionStyle = ExecutionStyle::Fsdp;
    ReportInput fsdp = makeReport(s);
    fsdp.generatedAt = "2025-01-31T09:40:00Z";
    const std::string md = reportToMarkdown(fsdp);
    LP_CHECK(contains(md, "34 % (forward: FlashAttention-2 through torch"));
    LP_CHECK(contains(md, "34.0 % (this plan)"));
}

LP_TEST(a_profile_with_attention_half_lengths_says_so_in_the_report) {
    // The H200's measured attention (docs/calibration.md) as an imported profile: the assumptions give the
    // limits and what the plan's kernel length makes of them; the profile section lists the new figures.
    Scenario s = defaultScenario();
    HardwareProfile p = builtinProfile(s.cluster.gpu);
    p.kernels.attentionFwdEfficiency = 0.554;
    p.kernels.attentionBwdEfficiency = 0.533;
    p.kernels.fa2AttentionBwdEfficiency = 0.32;
    p.kernels.attentionFwdHalfTokens = 360;
    p.kernels.attentionBwdHalfTokens = 830;
    ReportInput in = makeReport(s, p);
    in.generatedAt = "2025-01-31T09:40:00Z";
    const std::string md = reportToMarkdown(in);
    LP_CHECK(contains(md, "55 % (forward) and 53 % (backward) of peak, long-sequence limits: at this plan's "
                          "4,096-token attention kernels"));
    LP_CHECK(contains(md, "| FlashAttention-2 backward | 32.0 % |"));
    LP_CHECK(contains(md, "| Attention at half its limit | 360 tokens forward, 830 backward"));
    // Without half lengths (the built-in profiles) neither appears.
    const std::string plain = reportToMarkdown(defaultReport());
    LP_CHECK(!contains(plain, "long-sequence limits") && !contains(plain, "half its limit"));
}

LP_TEST(heads_under_128_say_how_far_below_the_profile_figures_they_run) {
    // gpt-oss-like heads of 64 on H100 (Megatron style, fused attention): the assumptions give the share of
    // the heads-of-128 figures, the profile section the overhead and this plan's factors, the JSON the
    // overhead. At heads of 128 (the default scenario) the plan runs at the figures and says nothing of it.
    Scenario s = defaultScenario();
    s.model.heads = 128;
    ReportInput in = makeReport(s);
    in.generatedAt = "2025-01-31T09:40:00Z";
    const std::string md = reportToMarkdown(in);
    LP_CHECK(
        contains(md, "at this plan's heads of 64 75 % and 86 % of those (the figures are for heads of 128)"));
    LP_CHECK(contains(md, "| Attention per-score overhead | 0.50 of the MMA time at heads of 128"));
    LP_CHECK(contains(md, "this plan's heads of 64 run at 75 % and 86 % of them"));
    LP_CHECK_NEAR(reportToJsonValue(in).at("profile").at("attention_score_overhead").get<double>(), 0.5,
                  1e-12);
    const std::string plain = reportToMarkdown(defaultReport());
    LP_CHECK(!contains(plain, "at this plan's heads of") &&
             contains(plain, "| Attention per-score overhead |"));
}

LP_TEST(the_training_facts_name_the_loss_kernel_auto_resolves_to) {
    Scenario s = defaultScenario();
    LP_CHECK(contains(reportToMarkdown(makeReport(s)), "auto (Megatron's vocab-parallel loss)"));
    s.training.executionStyle = ExecutionStyle::Fsdp;
    LP_CHECK(contains(reportToMarkdown(makeReport(s)), "auto (unfused)"));
    // Compiling the model compiles the FSDP style's loss with it; the number formats give its bytes.
    s.training.torchCompile = true;
    const std::string md = reportToMarkdown(makeReport(s));
    LP_CHECK(contains(md, "auto (compiled with the model)"));
    LP_CHECK(contains(md, "4 bytes per logit"));
}

LP_TEST(an_mla_model_reports_its_own_head_sizes_not_hidden_over_heads) {
    // DeepSeek-V3: hidden 7168 over 128 heads is 56, but its q/k heads are 128 + 64 wide and its v heads 128.
    Scenario s = defaultScenario();
    s.model = findModelPreset("deepseek-v3")->model;
    const std::string md = reportToMarkdown(makeReport(s));
    LP_CHECK(contains(md, "q/k 192, v 128 (multi-head latent attention)"));
    LP_CHECK(!contains(md, "56 (hidden / heads)"));
    LP_CHECK(contains(reportToMarkdown(makeReport(defaultScenario())), "128 (hidden / heads)"));
}

LP_TEST(markdown_escaping_rules) {
    LP_CHECK_EQ(escapeMarkdown("a|b"), std::string("a\\|b"));
    LP_CHECK_EQ(escapeMarkdown("*x* _y_ `z`"), std::string("\\*x\\* \\_y\\_ \\`z\\`"));
    LP_CHECK_EQ(escapeMarkdown("- item"), std::string("\\- item"));
    LP_CHECK_EQ(escapeMarkdown("1. item"), std::string("1\\. item"));
    LP_CHECK_EQ(escapeMarkdown("see https://x.org"), std::string("see https\\://x.org"));
    LP_CHECK_EQ(escapeMarkdown("ratio 2:1"), std::string("ratio 2:1"));
    LP_CHECK_EQ(escapeMarkdown("47.77 GB (44.49 GiB)"),
                std::string("47.77 GB (44.49 GiB)")); // plain text stays plain
    LP_CHECK_EQ(escapeMarkdown("a\nb"), std::string("a b"));
    LP_CHECK_EQ(escapeHtml("<a href='x'>&</a>"), std::string("&lt;a href=&#39;x&#39;&gt;&amp;&lt;/a&gt;"));
    LP_CHECK_EQ(escapeHtml(std::string("bell\x07") + "\r\n"), std::string("bell\n"));
}

LP_TEST(markdown_leaves_no_live_autolink_in_user_text) {
    // GitHub Flavored Markdown links bare "www." and "scheme://" text; a report prints the user's text
    // literally.
    LP_CHECK_EQ(escapeMarkdown("visit www.evil.example"), std::string("visit www\\.evil.example"));
    LP_CHECK_EQ(escapeMarkdown("WWW.EVIL.EXAMPLE"), std::string("WWW\\.EVIL.EXAMPLE"));
    LP_CHECK_EQ(escapeMarkdown("http://evil.example"), std::string("http\\://evil.example"));
    LP_CHECK_EQ(escapeMarkdown("ww.x w.x"), std::string("ww.x w.x"));
    Scenario s = defaultScenario();
    s.model.name = "see www.evil.example and https://evil.example";
    s.notes = "www.evil.example\nhttp://evil.example";
    const std::string md = reportToMarkdown(makeReport(s));
    // The prose, before the scenario file in its fenced code block (where nothing is a link).
    const std::string prose = md.substr(0, md.find("```"));
    LP_CHECK(!contains(prose, "www.evil"));
    LP_CHECK(!contains(prose, "http://"));
    LP_CHECK(!contains(prose, "https://"));
    LP_CHECK(contains(prose, "www\\.evil.example"));
    LP_CHECK(contains(md.substr(md.find("```")), "www.evil.example")); // the file as written
}

LP_TEST(json_is_versioned_and_complete) {
    const ReportInput r = defaultReport();
    const nlohmann::json j = nlohmann::json::parse(reportToJson(r));
    LP_CHECK_EQ(j.at("schema").get<std::string>(), std::string("layout-planner/report"));
    LP_CHECK_EQ(j.at("version").get<int>(), 1);
    LP_CHECK_EQ(j.at("generated_at").get<std::string>(), std::string("2025-01-31T09:40:00Z"));
    LP_CHECK_EQ(j.at("tool").at("version").get<std::string>(), std::string(LP_VERSION));
    LP_CHECK(j.at("plan").at("valid").get<bool>());
    const Plan p = evaluate(defaultScenario());
    LP_CHECK_NEAR(j.at("plan").at("mfu").get<double>(), p.mfu, 1e-12);
    LP_CHECK_NEAR(j.at("plan").at("time").at("step_s").get<double>(), p.time.stepSeconds, 1e-12);
    LP_CHECK_EQ(j.at("plan").at("memory").at("stages").size(), p.memory.stages.size());
    LP_CHECK_EQ(j.at("explanations").size(), r.explanations.size());
    LP_CHECK(!j.at("assumptions").empty());
    LP_CHECK_EQ(j.at("profile").at("origin").get<std::string>(), std::string("built-in"));
    // The embedded scenario is a scenario file that reads back to the same scenario.
    auto back = scenarioFromJson(j.at("scenario").dump());
    LP_CHECK(back.has_value());
    if (back)
        LP_CHECK(*back == defaultScenario());
    LP_CHECK(!contains(j.dump(), "NaN"));
}

LP_TEST(invalid_layout_report_lists_the_errors) {
    Scenario s = defaultScenario();
    s.layout.tp = 3; // 64 heads are not divisible by 3, and the GPU count no longer matches
    ReportInput r = makeReport(s);
    const std::string html = reportToHtml(r);
    LP_CHECK(contains(html, "Invalid layout"));
    LP_CHECK(contains(html, "heads_not_divisible_by_tp"));
    LP_CHECK(contains(html, "Not available: the layout is invalid"));
    LP_CHECK_EQ(countOf(html, "<svg"), std::size_t{0});
    const nlohmann::json j = reportToJsonValue(r);
    LP_CHECK(!j.at("plan").at("valid").get<bool>());
    LP_CHECK(contains(reportToMarkdown(r), "Invalid layout"));
}

LP_TEST(measured_profile_origin_is_shown) {
    ReportInput r = defaultReport();
    r.profile.origin = "measured";
    r.profile.name = "lab H100 profile";
    r.profile.measuredOn = "NVIDIA H100 80GB HBM3";
    r.profile.date = "2025-01-30";
    const std::string html = reportToHtml(r);
    LP_CHECK(contains(html, "Measured profile &quot;lab H100 profile&quot;"));
    LP_CHECK(contains(html, "measured on NVIDIA H100 80GB HBM3 on 2025-01-30"));
    const nlohmann::json j = reportToJsonValue(r);
    LP_CHECK_EQ(j.at("profile").at("measured_on").get<std::string>(), std::string("NVIDIA H100 80GB HBM3"));
}

LP_TEST(memory_chart_marks_capacity_and_overflow) {
    const Plan p = evaluate(defaultScenario());
    const SvgChart c = memoryChartSvg(p);
    LP_CHECK(c.width > 0 && c.height > 0);
    LP_CHECK(contains(c.svg, "capacity 79.2 GiB"));
    LP_CHECK(contains(c.svg, ">worst<"));
    LP_CHECK(!contains(c.svg, std::string(kColorDoesNotFit)));
    for (auto comp : kMemoryComponentOrder)
        LP_CHECK(contains(c.svg, std::string(memoryComponentColor(comp))));

    Scenario big = defaultScenario();
    big.layout.pp = 1;
    big.layout.dp = 8;
    big.layout.accumulation = 4;
    big.training.zeroStage = 0;
    big.training.recompute = Recompute::None;
    const Plan over = evaluate(big);
    LP_CHECK(over.valid);
    LP_CHECK(!over.memory.fits);
    const SvgChart red = memoryChartSvg(over);
    LP_CHECK(contains(red.svg, std::string(kColorDoesNotFit)));
    LP_CHECK(contains(red.svg, "does not fit"));
}

LP_TEST(time_chart_leaves_out_zero_components) {
    const Plan p = evaluate(defaultScenario());
    const SvgChart c = timeChartSvg(p);
    LP_CHECK(contains(c.svg, "Compute (forward + backward)"));
    LP_CHECK(contains(c.svg, "Pipeline bubble"));
    LP_CHECK(!contains(c.svg, "EP communication")); // zero for a dense model
    double sum = 0;
    for (const auto& row : timeRows(p.time))
        sum += row.seconds;
    LP_CHECK_NEAR(sum, p.time.stepSeconds, 1e-9); // the rows add up to the step
}

// Every left-aligned label of the step-time chart ends inside the chart, at the chart's own estimate of a
// character's width: the footnote under the bars breaks between its clauses instead of running past the
// right edge, where a browser and the PDF cut it off.
LP_TEST(time_chart_text_stays_inside_the_chart) {
    const Plan p = evaluate(defaultScenario());
    const SvgChart c = timeChartSvg(p);
    int checked = 0;
    for (std::size_t at = c.svg.find("<text x=\""); at != std::string::npos;
         at = c.svg.find("<text x=\"", at + 1)) {
        const std::size_t close = c.svg.find('>', at);
        const std::string tag = c.svg.substr(at, close - at);
        if (contains(tag, "text-anchor"))
            continue; // anchored at their end or middle
        const double x = std::stod(tag.substr(9));
        const std::string content = c.svg.substr(close + 1, c.svg.find("</text>", close) - close - 1);
        if (x + 6.6 * static_cast<double>(content.size()) > c.width)
            std::fprintf(stderr, "  past the edge: %s\n", content.c_str());
        LP_CHECK(x + 6.6 * static_cast<double>(content.size()) <= c.width);
        ++checked;
    }
    LP_CHECK(checked >= 3);                            // the values beside the bars and the footnote's lines
    LP_CHECK(contains(c.svg, "of the step;</text>"));  // broken after a clause
    LP_CHECK(contains(c.svg, "pipeline time</text>")); // and nothing lost
}

// A report is offered under the scenario's name and its layout: two layouts' reports do not share a name, and
// a name the user typed with characters no file name may hold still gives one.
LP_TEST(a_reports_file_name_holds_the_scenario_and_its_layout) {
    Scenario s = defaultScenario();
    LP_CHECK_EQ(reportFileStem(s), std::string("Llama-2-70B-class on 64 H100 (seed example) TP8 PP4 DP2"));
    s.layout.tp = 4;
    s.layout.dp = 4;
    LP_CHECK(reportFileStem(s) != reportFileStem(defaultScenario()));
    s.layout.vpp = 2;
    s.layout.cp = 2;
    s.layout.dp = 2;
    s.layout.ep = 2;
    setScenarioName(s, "MoE/dense: \"A|B\" <v2>?*\\x");
    LP_CHECK_EQ(reportFileStem(s), std::string("MoE-dense- -A-B- -v2----x TP4 PP4 VPP2 CP2 DP2 EP2"));
}

LP_TEST(formats_timestamps_and_reproducible_dates) {
    LP_CHECK(parseReportFormat("HTML") == ReportFormat::Html);
    LP_CHECK(parseReportFormat("markdown") == ReportFormat::Markdown);
    LP_CHECK(parseReportFormat("pdf") == ReportFormat::Pdf);
    LP_CHECK(!parseReportFormat("docx"));
    LP_CHECK(reportFormatForPath("out/r.md") == ReportFormat::Markdown);
    LP_CHECK(reportFormatForPath("r.JSON") == ReportFormat::Json);
    LP_CHECK(!reportFormatForPath("dir.d/report"));
    LP_CHECK_EQ(displayTimestamp("2025-01-31T09:40:00Z"), std::string("2025-01-31 09:40 UTC"));
    setenv("SOURCE_DATE_EPOCH", "1738316400", 1);
    LP_CHECK_EQ(utcTimestampNow(), std::string("2025-01-31T09:40:00Z"));
    unsetenv("SOURCE_DATE_EPOCH");
    LP_CHECK(utcTimestampNow().size() == 20);
    LP_CHECK(renderReport(defaultReport(), ReportFormat::Pdf).empty());
}

LP_TEST(search_results_export_as_csv_and_json) {
    const Scenario s = defaultScenario();
    SearchSpace sp;
    sp.tp = {4, 8};
    sp.pp = {4, 8};
    sp.cp = {1};
    sp.vpp = {1};
    sp.microBatch = {1, 2};
    sp.zeroStages = {1};
    sp.recompute = {Recompute::Selective};
    sp.sequenceParallel = {true};
    SearchOptions o;
    o.threads = 1;
    o.topN = 5;
    const SearchResult r = search(s, sp, {}, o);
    LP_CHECK(!r.top.empty());
    const std::string csv = searchResultToCsv(r);
    LP_CHECK(csv.rfind("rank,tp,pp,dp,cp,ep,vpp,micro_batch,accumulation,global_batch,zero_stage,recompute,",
                       0) == 0);
    const std::size_t rows = countOf(csv, "\n") - 1;
    LP_CHECK(rows >= r.top.size());
    LP_CHECK(rows <= r.top.size() + r.pareto.size());
    LP_CHECK(contains(csv, "\n1,"));
    const nlohmann::json j = nlohmann::json::parse(searchResultToJson(s, r));
    LP_CHECK_EQ(j.at("schema").get<std::string>(), std::string(kSearchResultsSchema));
    LP_CHECK_EQ(j.at("top").size(), r.top.size());
    LP_CHECK_EQ(j.at("pareto").size(), r.pareto.size());
    LP_CHECK_EQ(j.at("top")[0].at("rank").get<int>(), 1);
    LP_CHECK_NEAR(j.at("top")[0].at("step_s").get<double>(), r.top[0].stepSeconds, 1e-15);
    LP_CHECK_EQ(j.at("fitting").get<long long>(), r.fitting);
}

LP_TEST(message_sizes_in_decimal_units) {
    LP_CHECK_EQ(lp::core::fmt::messageBytes(512), std::string("512 B"));
    LP_CHECK_EQ(lp::core::fmt::messageBytes(394'531), std::string("395 KB"));
    LP_CHECK_EQ(lp::core::fmt::messageBytes(3.126e6), std::string("3.13 MB"));
    LP_CHECK_EQ(lp::core::fmt::messageBytes(12.34e6), std::string("12.3 MB"));
    LP_CHECK_EQ(lp::core::fmt::messageBytes(999.7e6), std::string("1.00 GB"));
    LP_CHECK_EQ(lp::core::fmt::messageBytes(-1), std::string("n/a"));
}

LP_TEST_MAIN()

// The Run section: the run's rows in the words every view shares, the goodput bar and the loss chart.
LP_TEST(reports_have_the_run_section) {
    const ReportInput r = defaultReport();
    const std::string html = reportToHtml(r);
    const std::string md = reportToMarkdown(r);
    LP_CHECK(contains(html, "<section id=\"run\">"));
    LP_CHECK(contains(md, "## Run"));
    for (const auto& [label, text] : report::runRows(r.plan)) {
        LP_CHECK(contains(html, escapeHtml(label)));
        LP_CHECK(contains(html, escapeHtml(text)));
        LP_CHECK(contains(md, label));
    }
    LP_CHECK(contains(html, "id=\"chart-goodput\"") && contains(html, "id=\"chart-loss\""));
    LP_CHECK(contains(md, std::string(report::kFailureTimeLabel)));
    // For the printed report the charts are images the renderer supplies.
    HtmlOptions paper;
    paper.inlineSvg = false;
    const std::string printed = reportToHtml(r, paper);
    LP_CHECK(contains(printed, "lp-chart:goodput") && contains(printed, "lp-chart:loss"));
}

// The goodput bar adds up to the wall clock, and the loss curve falls through the chosen budget's loss.
LP_TEST(run_charts_follow_the_run) {
    const Plan p = evaluate(defaultScenario());
    const report::GoodputSplit g = report::goodputSplit(p.run);
    LP_CHECK_NEAR(g.wallClockDays(), p.run.wallClockSeconds / 86400.0, 1e-9);
    LP_CHECK_NEAR(g.idealDays, p.run.idealSeconds / 86400.0, 1e-12);
    LP_CHECK(g.failureDays > 0 && g.checkpointDays > 0);
    const auto curve = report::lossCurve(p.run);
    LP_CHECK(curve.size() > 10);
    LP_CHECK(curve.front().tokens < p.run.tokens && curve.back().tokens > p.run.tokens);
    LP_CHECK(curve.front().tokens < report::computeOptimalTokensForModel(p.run));
    for (std::size_t i = 1; i < curve.size(); ++i)
        LP_CHECK(curve[i].loss < curve[i - 1].loss);
    const std::string svg = lossChartSvg(p).svg;
    LP_CHECK(contains(svg, "compute-optimal") && contains(svg, "chosen"));
    LP_CHECK(contains(goodputChartSvg(p).svg, std::string(report::kFailureTimeLabel)));
}

// The Run section's cards: every one explained by a run.* key, the values those of the plan's run.
LP_TEST(run_cards_quote_the_run) {
    Scenario s = defaultScenario();
    s.run.pricePerGpuHourUsd = 2;
    const Plan p = evaluate(s);
    const auto cards = report::runCards(p);
    LP_CHECK_EQ(cards.size(), std::size_t{12});
    for (const auto& c : cards) {
        LP_CHECK(c.key.rfind("run.", 0) == 0);
        LP_CHECK(explainFigure(s, p, c.key).has_value());
        LP_CHECK(!c.caption.empty() && !c.value.empty());
    }
    LP_CHECK_EQ(cards.front().value, fmt::count(p.run.tokens));
    const auto cost =
        std::find_if(cards.begin(), cards.end(), [](const auto& c) { return c.key == "run.cost"; });
    LP_CHECK(cost != cards.end() && cost->detail == "at $2.00 per GPU-hour");
    LP_CHECK(contains(cards[1].value, fmt::count(p.run.computeOptimal.parameters)));
}
