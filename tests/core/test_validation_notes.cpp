// What the validation-case reader learns from a case's notes: that a field's value is an assumption (then it
// is searched like a missing one), and the dates they state.
#include "TestHarness.h"
#include "core/Evaluate.h"
#include "core/Validation.h"
#include "core/ValidationDetail.h"

#include <string>

using namespace lp::core;

namespace {

// A Llama-3-70B-shaped dense run on 64 H100 (TP 8 x PP 2 x DP 4, micro batch 4 of 8192 tokens) that cannot
// fit without recomputation, with the given recompute and notes.
std::string denseCase(const std::string& recompute, const std::string& notes) {
    return R"({"schema": "layout-planner/validation-cases@1", "cases": [{"id": "x", "source": "s",
        "confidence": "low", "notes": ")" +
           notes + R"(",
        "model": {"name": "m", "layers": 80, "hidden": 8192, "heads": 64, "kv_heads": 8, "ffn_hidden": 28672,
                  "vocab": 128256, "seq_len": 8192, "mlp": "swiglu", "tied_embeddings": false, "moe": null},
        "hardware": {"gpu": "h100-sxm-80gb", "gpus": 64, "gpus_per_node": 8},
        "layout": {"tp": 8, "pp": 2, "dp": 4, "cp": 1, "ep": 1, "vpp": 1, "micro_batch": 4, "global_batch": 128,
                   "sequence_parallel": true, "recompute": ")" +
           recompute + R"(", "zero_stage": 1, "precision": "bf16"},
        "measured": {"iteration_time_s": 10.0}}]})";
}

ValidationCase readOne(const std::string& json) {
    const auto cases = validationCasesFromJson(json);
    LP_CHECK(cases.has_value() && cases->size() == 1);
    return cases && !cases->empty() ? cases->front() : ValidationCase{};
}

} // namespace

LP_TEST(notes_that_call_a_field_unstated) {
    LP_CHECK(detail::notesLeaveOpen("activation recomputation not stated (none assumed).", "recomput"));
    LP_CHECK(detail::notesLeaveOpen("zero_stage 1; recomputation not stated (none).", "recomput"));
    LP_CHECK(detail::notesLeaveOpen("recompute: not stated", "recomput"));
    // Another field's "not stated" after the clause ends does not count, nor one before the term.
    LP_CHECK(!detail::notesLeaveOpen("recompute full. sequence parallel not stated", "recomput"));
    LP_CHECK(!detail::notesLeaveOpen("assumed (not stated in the files read): recompute none", "recomput"));
    LP_CHECK(!detail::notesLeaveOpen("selective recompute as the recipe sets it", "recomput"));
}

LP_TEST(an_assumed_no_recompute_is_searched_like_a_missing_one) {
    // The run ran, so it fitted: with "none" only assumed, the planner takes the fastest recomputation that
    // fits, and says so.
    const ValidationCase open =
        readOne(denseCase("none", "Activation recomputation not stated (none assumed)."));
    LP_CHECK(!open.recomputeGiven);
    bool said = false;
    for (const std::string& a : open.adjustments)
        said = said || a.find("recompute none assumed, the notes say it is not stated") != std::string::npos;
    LP_CHECK(said);
    const Scenario planned = resolveCase(open, nullptr);
    LP_CHECK(planned.training.recompute != Recompute::None);
    const Plan p = evaluate(planned); // within the memory model's 5%, which a guessed setting may use
    LP_CHECK(p.memory.headroomBytes >= -0.05 * p.memory.capacityBytes);
    Scenario none = planned;
    none.training.recompute = Recompute::None;
    LP_CHECK(evaluate(none).memory.headroomBytes < -0.05 * p.memory.capacityBytes);
    // Stated, or inferred by the notes from the source ("full (Eq. 3 FLOPs assume it)"), it stays as written.
    const ValidationCase stated =
        readOne(denseCase("none", "No activation checkpointing (the paper says so)."));
    LP_CHECK(stated.recomputeGiven);
    LP_CHECK(resolveCase(stated, nullptr).training.recompute == Recompute::None);
    const ValidationCase inferred = readOne(denseCase("full", "recompute not stated per row: full (Eq.3)"));
    LP_CHECK(inferred.recomputeGiven && inferred.scenario.training.recompute == Recompute::Full);
}

LP_TEST(the_latest_month_the_notes_state) {
    LP_CHECK_EQ(detail::latestStatedMonth("measured 2024-06, rerun june 2025"), 202506);
    LP_CHECK_EQ(detail::latestStatedMonth("container 24.07, 2024"), 202412);
    LP_CHECK_EQ(detail::latestStatedMonth("8192 gpus, 405b"), 0);
}

LP_TEST_MAIN()
