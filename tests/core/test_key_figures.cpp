// The Plan tab's key figures as the core words them: every card shows the value of the explanation it
// opens, the 6ND card names the parameters the figure counts (a mixture of experts' active ones), memory
// is in the unit asked for, and the MFU bands and fp8 figures say what the gauge and the number-format
// section show.
#include "TestHarness.h"
#include "core/estimate/Evaluate.h"
#include "core/estimate/Explain.h"
#include "core/estimate/KeyFigures.h"
#include "core/io/Presets.h"
#include "core/model/Units.h"
#include "core/util/NumberFormat.h"

#include <cctype>
#include <set>

using namespace lp::core;

namespace {

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

// DeepSeek-V3 (671 B parameters, 37.55 B active) on 64 GPUs as PP 8 x DP 8 with EP 8.
Scenario deepseekV3() {
    Scenario s = defaultScenario();
    s.model = findModelPreset("deepseek-v3")->model;
    s.layout = Layout{.pp = 8, .dp = 8, .ep = 8};
    return s;
}

const KeyFigure* card(const std::vector<KeyFigure>& cards, const std::string& id) {
    for (const KeyFigure& f : cards)
        if (f.id == id)
            return &f;
    return nullptr;
}

// Every card opens an explanation of the same figure, with the same value, and says something.
void checkCardsAgreeWithExplanations(const Scenario& s) {
    const Plan p = evaluate(s);
    LP_CHECK(p.valid);
    const std::vector<KeyFigure> cards = keyFigures(s, p, MemoryUnit::GiB);
    LP_CHECK_EQ(cards.size(), std::size_t{9});
    std::set<std::string> ids;
    for (const KeyFigure& f : cards) {
        ids.insert(f.id);
        const auto e = explainFigure(s, p, f.explainKey);
        LP_CHECK(e.has_value());
        if (e)
            LP_CHECK_EQ(e->value, f.value);
        LP_CHECK(!f.caption.empty() && !f.meaning.empty() && !f.valueText.empty() && !f.detail.empty());
        LP_CHECK(!contains(f.valueText, "n/a"));
    }
    LP_CHECK_EQ(ids.size(), cards.size());
}

} // namespace

LP_TEST(every_card_shows_its_explanations_value_dense) {
    checkCardsAgreeWithExplanations(defaultScenario());
}

LP_TEST(every_card_shows_its_explanations_value_moe) {
    checkCardsAgreeWithExplanations(deepseekV3());
}

// An explanation's value reads as the card of the same figure reads (one wording for the window's panel
// and glossary, the command line and the reports); memory shows both units, the chosen one first.
LP_TEST(an_explanations_value_is_worded_as_its_card) {
    const Scenario s = defaultScenario();
    const Plan p = evaluate(s);
    for (const MemoryUnit unit : {MemoryUnit::GiB, MemoryUnit::GB}) {
        const std::vector<KeyFigure> cards = keyFigures(s, p, unit);
        for (const KeyFigure& f : cards) {
            const auto e = explainFigure(s, p, f.explainKey);
            LP_CHECK(e.has_value());
            if (e && e->unit != "bytes")
                LP_CHECK_EQ(explanationValueText(*e, cards, unit), f.valueText);
        }
    }
    const std::vector<KeyFigure> gib = keyFigures(s, p, MemoryUnit::GiB);
    const std::vector<KeyFigure> gb = keyFigures(s, p, MemoryUnit::GB);
    const auto total = explainFigure(s, p, "memory.total");
    LP_CHECK(total.has_value());
    if (total) {
        const std::string inGiB = bytesIn(total->value, MemoryUnit::GiB, 2);
        const std::string inGB = bytesIn(total->value, MemoryUnit::GB, 2);
        LP_CHECK_EQ(explanationValueText(*total, gib, MemoryUnit::GiB), inGiB + " (" + inGB + ")");
        LP_CHECK_EQ(explanationValueText(*total, gb, MemoryUnit::GB), inGB + " (" + inGiB + ")");
    }
    const auto state = explainFigure(s, p, "training_state_bytes"); // 1.10 TB: in TB and TiB
    LP_CHECK(state.has_value());
    if (state)
        LP_CHECK_EQ(explanationValueText(*state, gb, MemoryUnit::GB), std::string("1.10 TB (1.00 TiB)"));
}

// The values an explanation substitutes into its formula print memory as its heading does: the chosen unit
// first, the other beside it. Nothing else about the explanation changes with the unit.
LP_TEST(an_explanations_substituted_memory_reads_in_the_chosen_unit) {
    const Scenario s = defaultScenario();
    const Plan p = evaluate(s);
    const auto total = [&](MemoryUnit unit) { return explainFigure(s, p, "memory.total", unit); };
    LP_CHECK(total(MemoryUnit::GiB).has_value() && total(MemoryUnit::GB).has_value());
    if (total(MemoryUnit::GiB) && total(MemoryUnit::GB)) {
        const double worst = total(MemoryUnit::GB)->value;
        LP_CHECK(contains(total(MemoryUnit::GiB)->substituted, bytesBoth(worst, MemoryUnit::GiB)));
        LP_CHECK(contains(total(MemoryUnit::GB)->substituted, bytesBoth(worst, MemoryUnit::GB)));
        LP_CHECK(bytesBoth(worst, MemoryUnit::GiB).ends_with(" GB)"));
    }
    const std::vector<Explanation> gib = explainPlan(s, p, MemoryUnit::GiB), gb = explainPlan(s, p);
    LP_CHECK_EQ(gib.size(), gb.size());
    std::size_t memoryFigures = 0;
    for (std::size_t i = 0; i < std::min(gib.size(), gb.size()); ++i) {
        LP_CHECK_EQ(gib[i].key, gb[i].key);
        LP_CHECK_EQ(gib[i].value, gb[i].value);
        LP_CHECK_EQ(gib[i].formula, gb[i].formula);
        // No figure is left GB-first in GiB, nor GiB-first in GB.
        LP_CHECK(!contains(gib[i].substituted, " GB (") && !contains(gib[i].substituted, " TB ("));
        LP_CHECK(!contains(gb[i].substituted, " GiB (") && !contains(gb[i].substituted, " TiB ("));
        memoryFigures += contains(gib[i].substituted, " GiB (") ? 1 : 0;
    }
    LP_CHECK(memoryFigures >= 5);
    // A bandwidth is not memory: decimal GB/s in either unit, never "1.00 GB (0.93 GiB)/s".
    for (const MemoryUnit unit : {MemoryUnit::GiB, MemoryUnit::GB}) {
        const auto write = explainFigure(s, p, "run.checkpoint_write", unit);
        LP_CHECK(write && contains(write->substituted, " x 1.0 GB/s) = ") &&
                 !contains(write->substituted, ")/s"));
    }
    // From a tebibyte up, TiB then TB; in GB, TB then TiB.
    LP_CHECK_EQ(bytesBoth(1.1e12, MemoryUnit::GiB), std::string("1.00 TiB (1.10 TB)"));
    LP_CHECK_EQ(bytesBoth(1.1e12, MemoryUnit::GB), std::string("1.10 TB (1.00 TiB)"));
    LP_CHECK_EQ(bytesBoth(5e10, MemoryUnit::GiB), std::string("46.57 GiB (50.00 GB)"));
    LP_CHECK_EQ(fmt::bytesBoth(5e10), std::string("50.00 GB (46.57 GiB)"));
}

// The Calibrate tab's before/after, worded as the cards word the same figures.
LP_TEST(a_plans_change_is_worded_as_its_cards) {
    const Scenario s = defaultScenario();
    const Plan before = evaluate(s);
    Scenario faster = s;
    faster.layout.microBatch = 1;
    faster.layout.accumulation = 32;
    const Plan after = evaluate(faster);
    const PlanChangeText change = planChangeText(before, after);
    LP_CHECK_EQ(change.mfuBefore, mfuText(before.mfu));
    LP_CHECK_EQ(change.mfuAfter, mfuText(after.mfu));
    LP_CHECK_EQ(change.rates, "Step time " + fmt::duration(before.time.stepSeconds) + " → " +
                                  fmt::duration(after.time.stepSeconds) + "; " +
                                  fmt::fixed(before.tokensPerSecondPerGpu, 1) + " → " +
                                  fmt::fixed(after.tokensPerSecondPerGpu, 1) + " tokens/s per GPU");
    LP_CHECK(contains(change.rates, "841.3 → "));
    const double points = 100.0 * (after.mfu - before.mfu);
    LP_CHECK_EQ(change.points, (points >= 0 ? "+" : "−") + fmt::fixed(std::fabs(points), 1));
    LP_CHECK_EQ(change.pointsValue, points);
    LP_CHECK(planChangeText(after, before).points.starts_with(points >= 0 ? "−" : "+"));
}

// Figures without a card read as a person would write them: percentages with one decimal, long times in
// hours or days, separators from a thousand up, never six significant digits.
LP_TEST(an_explanations_value_without_a_card_is_rounded_for_reading) {
    const Scenario s = defaultScenario();
    const Plan p = evaluate(s);
    const std::vector<KeyFigure> cards = keyFigures(s, p, MemoryUnit::GB);
    const auto text = [&](const std::string& key) {
        const auto e = explainFigure(s, p, key);
        LP_CHECK(e.has_value());
        return e ? explanationValueText(*e, cards, MemoryUnit::GB) : std::string();
    };
    LP_CHECK_EQ(text("bubble_fraction"), fmt::percent(p.time.bubbleFraction));
    LP_CHECK_EQ(text("tokens_per_step"), std::string("262,144 tokens"));
    LP_CHECK_EQ(text("run.checkpoint_interval"), fmt::wallClock(p.run.checkpointIntervalSeconds));
    LP_CHECK(contains(text("run.checkpoint_interval"), " h"));
    LP_CHECK_EQ(text("time.tp_comm"), fmt::duration(p.time.tpCommSeconds));
    LP_CHECK_EQ(text("run.predicted_loss"), fmt::sig(p.run.predictedLoss, 4) + " nats/token");
    LP_CHECK_EQ(text("run.cost"), fmt::dollars(p.run.costUsd)); // "$2.66 M", as the Run section's card
    LP_CHECK(text("run.cost").starts_with("$"));
    LP_CHECK_EQ(text("run.wall_clock_days"), fmt::fixed(p.run.wallClockSeconds / 86400.0, 1) + " days");
    // Counts in the values carry separators, as the cards print them: "53,845 tokens/s", "666,580 GPU-hours".
    const auto throughput = explainFigure(s, p, "tokens_per_s");
    LP_CHECK(throughput && contains(throughput->substituted, fmt::fixed(p.tokensPerSecond, 0) + " tokens/s"));
    const auto billed = explainFigure(s, p, "run.gpu_hours");
    LP_CHECK(billed && contains(billed->substituted, "= " + fmt::fixed(p.run.gpuHours, 0) + " GPU-hours"));
    LP_CHECK(fmt::fixed(p.run.gpuHours, 0).find(',') != std::string::npos);
    for (const Explanation& e : explainPlan(s, p)) {
        const std::string v = explanationValueText(e, cards, MemoryUnit::GB);
        LP_CHECK(!v.empty() && !contains(v, "n/a") && !contains(v, "e+"));
        // A figure with a fraction part has at most five significant digits ("444.49 B", "4.869 s"), where
        // the old wording printed six ("373.962 TFLOP/s", "53844.8 tokens/s"). Memory keeps its two decimals.
        const std::size_t dot = v.find('.');
        if (e.unit == "bytes" || dot == std::string::npos)
            continue;
        std::size_t first = dot;
        while (first > 0 && (std::isdigit(static_cast<unsigned char>(v[first - 1])) || v[first - 1] == ','))
            --first;
        std::size_t significant = 0;
        bool leading = true;
        for (std::size_t i = first;
             i < v.size() && (std::isdigit(static_cast<unsigned char>(v[i])) || v[i] == ',' || v[i] == '.');
             ++i) {
            if (!std::isdigit(static_cast<unsigned char>(v[i])) || (leading && v[i] == '0'))
                continue;
            leading = false;
            ++significant;
        }
        LP_CHECK(significant <= 5);
    }
}

LP_TEST(the_6nd_card_names_the_active_parameters_of_a_mixture_of_experts) {
    const Scenario s = deepseekV3();
    const Plan p = evaluate(s);
    LP_CHECK(p.params.active < 0.1 * p.params.total);
    const std::vector<KeyFigure> cards = keyFigures(s, p, MemoryUnit::GiB);
    const KeyFigure* yardstick = card(cards, "mfu_6nd");
    LP_CHECK(yardstick != nullptr);
    if (!yardstick)
        return;
    LP_CHECK_EQ(yardstick->detail, "N = " + fmt::count(p.params.active) + " active");
    LP_CHECK(!contains(yardstick->detail, fmt::count(p.params.total)));
    LP_CHECK(contains(yardstick->meaning, "active parameters"));
    // The explanation substitutes the same N.
    LP_CHECK(contains(explainFigure(s, p, "mfu_6nd")->substituted, fmt::count(p.params.active)));
    LP_CHECK_EQ(yardstick->value, p.mfu6nd);
    LP_CHECK_EQ(yardstick->valueText, fmt::percent(p.mfu6nd));
}

LP_TEST(the_6nd_card_of_a_dense_model_counts_every_parameter) {
    const Scenario s = defaultScenario();
    const Plan p = evaluate(s);
    const std::vector<KeyFigure> cards = keyFigures(s, p, MemoryUnit::GiB);
    const KeyFigure* yardstick = card(cards, "mfu_6nd");
    LP_CHECK(yardstick != nullptr);
    if (yardstick)
        LP_CHECK_EQ(yardstick->detail, "N = " + fmt::count(p.params.total));
}

LP_TEST(cards_of_the_default_plan_read_as_the_command_line_prints_them) {
    const Scenario s = defaultScenario();
    const Plan p = evaluate(s);
    const std::vector<KeyFigure> cards = keyFigures(s, p, MemoryUnit::GiB);
    LP_CHECK_EQ(card(cards, "effective_batch")->valueText, std::string("2 × 16 × 2 = 64"));
    LP_CHECK_EQ(card(cards, "effective_batch")->detail,
                "mb × acc × DP\n" + fmt::fixed(p.tokensPerStep, 0) + " tokens per step");
    LP_CHECK_EQ(card(cards, "hfu")->valueText, fmt::percent(p.hfu));
    LP_CHECK_EQ(card(cards, "time.step")->valueText, fmt::duration(p.time.stepSeconds));
    LP_CHECK_EQ(card(cards, "gpu_hours")->valueText, fmt::fixed(p.gpuHours, 0));
    LP_CHECK_EQ(card(cards, "tokens_per_s")->detail, fmt::fixed(p.tokensPerSecondPerGpu, 1) + " per GPU");
    LP_CHECK_EQ(card(cards, "model_tflops_per_gpu")->valueText,
                fmt::fixed(p.modelTflopsPerGpu, 1) + " TFLOP/s");
    // Days, as the command line's token budget line: "13.2 days".
    LP_CHECK_EQ(card(cards, "training_time")->valueText,
                fmt::fixed(p.trainingSeconds / 86400.0, 1) + " days");
    LP_CHECK_EQ(card(cards, "training_time")->detail,
                fmt::count(s.training.tokenBudget) + " tokens, 64 GPUs");
    // Ideal, as the Run section calls the time without checkpoints and failures (its billed figures add
    // them).
    LP_CHECK_EQ(card(cards, "training_time")->caption, std::string("Ideal time to train"));
    LP_CHECK_EQ(card(cards, "gpu_hours")->caption, std::string("Ideal GPU-hours"));
    LP_CHECK(p.run.gpuHours > p.gpuHours);
}

LP_TEST(the_training_state_is_in_the_unit_asked_for) {
    const Scenario s = defaultScenario();
    const Plan p = evaluate(s);
    const KeyFigure gib = *card(keyFigures(s, p, MemoryUnit::GiB), "training_state_bytes");
    const KeyFigure gb = *card(keyFigures(s, p, MemoryUnit::GB), "training_state_bytes");
    LP_CHECK_EQ(gib.valueText, fmt::fixed(p.trainingStateBytes / kGiB, 0) + " GiB");
    LP_CHECK_EQ(gb.valueText, fmt::fixed(p.trainingStateBytes / kGB, 0) + " GB");
    LP_CHECK_EQ(gib.value, gb.value);
    LP_CHECK_EQ(bytesIn(1.5e9, MemoryUnit::GB, 1), std::string("1.5 GB"));
    LP_CHECK_EQ(bytesIn(3.0 * kGiB, MemoryUnit::GiB, 0), std::string("3 GiB"));
    LP_CHECK_EQ(bytesIn(2048.0 * kGiB, MemoryUnit::GiB, 0), std::string("2,048 GiB"));
}

LP_TEST(an_invalid_plan_still_gives_every_card) {
    Scenario s = defaultScenario();
    s.layout.tp = 3; // 64 heads do not split over 3
    const Plan p = evaluate(s);
    LP_CHECK(!p.valid);
    LP_CHECK_EQ(keyFigures(s, p, MemoryUnit::GiB).size(), std::size_t{9});
}

LP_TEST(the_batch_card_says_what_the_batch_was_after_an_edit_changed_it) {
    const Scenario s = defaultScenario();
    const Plan before = evaluate(s);
    Scenario doubled = s;
    doubled.layout.dp *= 2;
    doubled.cluster.nodes *= 2;
    const Plan after = evaluate(doubled);
    const std::string was = "was " + std::to_string(before.effectiveBatchSequences);
    LP_CHECK_EQ(batchChangeText(before, after), was);
    LP_CHECK(batchChangeText(before, before).empty());
    const auto batchDetail = [&](const Plan* previous) {
        for (const KeyFigure& c : keyFigures(doubled, after, MemoryUnit::GiB, previous))
            if (c.id == "effective_batch")
                return c.detail;
        return std::string();
    };
    LP_CHECK(contains(batchDetail(&before), was));
    LP_CHECK(!contains(batchDetail(nullptr), "was"));
    LP_CHECK(!contains(batchDetail(&after), "was"));
}

LP_TEST(mfu_bands) {
    LP_CHECK_EQ(mfuBandText(0.12), std::string("under 20%: something is wrong"));
    LP_CHECK_EQ(mfuBandText(0.20), std::string("20-35%: below well-tuned"));
    LP_CHECK_EQ(mfuBandText(0.35), std::string("35-55%: well-tuned pretraining"));
    LP_CHECK_EQ(mfuBandText(0.55), std::string("35-55%: well-tuned pretraining"));
    LP_CHECK_EQ(mfuBandText(0.61), std::string("above 55%: check the assumptions"));
    LP_CHECK_EQ(mfuText(0.4123), std::string("41.2 %"));
}

LP_TEST(fp8_figures_only_in_fp8) {
    Scenario s = defaultScenario();
    LP_CHECK(fp8Figures(s, evaluate(s), MemoryUnit::GiB, false).empty());
    s.training.precision = Precision::Fp8;
    const Plan p = evaluate(s);
    const std::vector<KeyFigure> f = fp8Figures(s, p, MemoryUnit::GiB, false);
    LP_CHECK_EQ(f.size(), std::size_t{2});
    if (f.size() != 2)
        return;
    LP_CHECK(p.intermediates.fp8WeightCopyBytes > 0); // Megatron-LM with Transformer Engine caches them
    LP_CHECK_EQ(f[0].valueText, bytesIn(p.intermediates.fp8WeightCopyBytes, MemoryUnit::GiB, 2));
    LP_CHECK_EQ(f[0].detail, std::string("worst-stage GPU, in its weights"));
    LP_CHECK(contains(f[1].valueText, " MiB")); // a few MB: not 0.00 GiB
    LP_CHECK(contains(fp8Figures(s, p, MemoryUnit::GB, false)[1].valueText, " MB"));
    // The last valid plan was bf16: nothing to show for this fp8 scenario.
    const std::vector<KeyFigure> stale = fp8Figures(s, evaluate(defaultScenario()), MemoryUnit::GiB, true);
    LP_CHECK_EQ(stale[0].detail, std::string("no valid layout"));
}

LP_TEST_MAIN()

namespace {
// Llama 3.1 405B on the default 64 H100 as TP 8 x PP 4 x DP 2: 278.6 GiB per GPU against 79.2.
Scenario largeModelThatDoesNotFit() {
    Scenario s = defaultScenario();
    s.model = findModelPreset("llama3.1-405b")->model;
    return s;
}
} // namespace

LP_TEST(the_gauge_of_a_plan_that_does_not_fit_is_greyed_and_says_so) {
    const Scenario s = largeModelThatDoesNotFit();
    const Plan p = evaluate(s);
    LP_CHECK(p.valid && !p.memory.fits && planDoesNotFit(p));
    const MfuGaugeState g = mfuGaugeState(p, MemoryUnit::GiB);
    LP_CHECK(g.greyed() && g.band == MfuBand::DoesNotFit);
    LP_CHECK_EQ(g.bandText, "does not fit: " + bytesIn(p.memory.worstTotalBytes(), MemoryUnit::GiB, 1) +
                                " per GPU of " + bytesIn(p.memory.capacityBytes, MemoryUnit::GiB, 1));
    LP_CHECK(!contains(g.bandText, "well-tuned"));
    LP_CHECK_EQ(g.valueText, mfuText(p.mfu));
    // The rates and times are greyed; the batch and the training state are the scenario's own.
    for (const KeyFigure& f : keyFigures(s, p, MemoryUnit::GiB)) {
        const bool scenarioFact = f.id == "effective_batch" || f.id == "training_state_bytes";
        LP_CHECK_EQ(f.greyed, !scenarioFact);
        LP_CHECK_EQ(contains(f.meaning, "does not fit"), !scenarioFact);
    }
}

LP_TEST(the_gauge_of_a_plan_that_fits_shows_its_band) {
    const Scenario s = defaultScenario();
    const Plan p = evaluate(s);
    const MfuGaugeState g = mfuGaugeState(p, MemoryUnit::GiB);
    LP_CHECK(!g.greyed() && !planDoesNotFit(p));
    LP_CHECK_EQ(g.bandText, mfuBandText(p.mfu));
    LP_CHECK(g.band != MfuBand::DoesNotFit);
    for (const KeyFigure& f : keyFigures(s, p, MemoryUnit::GiB))
        LP_CHECK(!f.greyed);
    // An invalid plan (no memory figures) is not called one that does not fit.
    LP_CHECK(!planDoesNotFit(Plan{}));
}

LP_TEST(gpu_counts_are_whole_and_singular_for_one) {
    LP_CHECK_EQ(gpuCountText(1), std::string("1 GPU"));
    LP_CHECK_EQ(gpuCountText(64), std::string("64 GPUs"));
    LP_CHECK_EQ(gpuCountText(2048), std::string("2,048 GPUs"));
    Scenario s = defaultScenario();
    s.cluster.nodes = 1;
    s.cluster.gpusPerNode = 1;
    s.layout = Layout{};
    const Plan p = evaluate(s);
    const std::vector<KeyFigure> cards = keyFigures(s, p, MemoryUnit::GiB);
    LP_CHECK(contains(card(cards, "training_time")->detail, " tokens, 1 GPU"));
    LP_CHECK(!contains(card(cards, "training_time")->detail, "GPUs"));
    const auto gpus = explainFigure(s, p, "gpus");
    LP_CHECK(gpus && gpus->unit == "GPU");
}

LP_TEST(the_training_state_card_says_whole_model_and_what_one_gpu_holds) {
    Scenario s = defaultScenario();
    for (const int stage : {1, 3}) {
        s.training.zeroStage = stage;
        const Plan p = evaluate(s);
        const std::vector<KeyFigure> cards = keyFigures(s, p, MemoryUnit::GiB);
        const KeyFigure state = *card(cards, "training_state_bytes");
        LP_CHECK(!contains(state.detail, "unsharded"));
        const StageMemory& w = *p.memory.worst();
        LP_CHECK_EQ(state.detail,
                    "whole, 16 B/param\nper GPU: " +
                        bytesIn(w.weightsBytes + w.gradientsBytes + w.optimizerBytes, MemoryUnit::GiB, 1));
    }
}

LP_TEST(the_bubble_is_worded_as_a_share_of_the_step_and_the_ratio_named) {
    TimeBreakdown t;
    t.stepSeconds = 2.0;
    t.bubbleSeconds = 0.94;
    t.bubbleFraction = 0.887;
    LP_CHECK_NEAR(bubbleShareOfStep(t), 0.47, 1e-12);
    LP_CHECK_EQ(
        bubbleText(t),
        std::string(
            "47.0 % of the step; bubble / (m x slowest stage) = 88.7 % of the bubble-free pipeline time"));
    LP_CHECK_EQ(bubbleShareOfStep(TimeBreakdown{}), 0.0);
    // The diagnostic and the explanation of a plan agree with its breakdown.
    const Scenario s = defaultScenario();
    const Plan p = evaluate(s);
    const double share = p.time.bubbleSeconds / p.time.stepSeconds;
    for (const Diagnostic& d : p.diagnostics)
        if (d.id == DiagnosticId::PipelineBubble)
            LP_CHECK(contains(diagnosticMessage(d), "is " + fmt::fixed(100.0 * share, 1) + "% of the step"));
    LP_CHECK(p.has(DiagnosticId::PipelineBubble));
    LP_CHECK(contains(explainFigure(s, p, "bubble_fraction")->words,
                      "the bubble is " + fmt::fixed(100.0 * share, 1) + "% of this step"));
    // Every number explains itself: the worked example's stages are uneven (the first holds the embedding,
    // the last the output layer and the loss), so its bubble is the other stages' time, not (p - 1) x t_mb,
    // and its fraction is not (p - 1)/(v x m). The substituted values are the ones that compute.
    const Intermediates& im = p.intermediates;
    LP_CHECK_NEAR(p.time.bubbleSeconds, im.otherStagesSeconds / s.layout.vpp, 1e-12);
    LP_CHECK(im.otherStagesSeconds < (s.layout.pp - 1) * im.microbatchStageSeconds);
    LP_CHECK_NEAR(p.time.bubbleFraction,
                  p.time.bubbleSeconds / (s.layout.accumulation * im.microbatchStageSeconds), 1e-12);
    const auto bubble = explainFigure(s, p, "time.bubble");
    LP_CHECK(bubble && bubble->substituted ==
                           "735.18 ms/1 = 735.18 ms; 735.18 ms is the 3 other stages' t_mb "
                           "summed (even stages: 3 x 248.08 ms = 744.24 ms)");
    const auto fraction = explainFigure(s, p, "bubble_fraction");
    LP_CHECK(fraction &&
             contains(fraction->substituted, "735.18 ms / (16 x 248.08 ms) = 18.5%; with even "
                                             "stages (p - 1)/(v x m) = (4 - 1)/(1 x 16) = 18.8%"));
}

LP_TEST(the_6nd_yardstick_names_active_parameters_in_the_explanation) {
    LP_CHECK_EQ(yardstickParameters(deepseekV3().model), std::string("active parameters"));
    LP_CHECK_EQ(yardstickParameters(defaultScenario().model), std::string("parameters"));
    const Scenario s = deepseekV3();
    LP_CHECK(contains(explainFigure(s, evaluate(s), "mfu_6nd")->formula, "6 x active parameters x tokens"));
}

LP_TEST(the_ep_warning_quotes_the_expert_tp_in_effect) {
    Scenario s = deepseekV3();
    s.cluster.nodes = 32;
    s.layout = Layout{.tp = 8, .pp = 8, .dp = 4, .ep = 16, .etp = 1};
    const Plan p = evaluate(s);
    bool found = false;
    for (const Diagnostic& d : p.diagnostics)
        if (d.id == DiagnosticId::EpCrossesNodes) {
            found = true;
            LP_CHECK(contains(diagnosticMessage(d), "(expert TP 1 x EP 16 = 16 GPUs)"));
        }
    LP_CHECK(found);
}
