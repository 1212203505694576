// "Check yourself": the quiz's answers come from the core for every seed, the seed's two questions
// are there with the seed's numbers, and answers are read with their tolerance.
#include "TestHarness.h"
#include "core/estimate/Evaluate.h"
#include "core/io/Files.h"
#include "core/io/Presets.h"
#include "core/model/ModelSpec.h"
#include "core/teach/Quiz.h"
#include "core/util/NumberFormat.h"

#include <cmath>
#include <set>
#include <string>

using namespace lp::core;

namespace {

const QuizTexts& texts() {
    static const QuizTexts t = [] {
        const auto text =
            readTextFile(std::string(LP_TEST_DATA_DIR) + "/../../resources/teaching/texts.json");
        if (!text) {
            std::fprintf(stderr, "cannot read texts.json: %s\n", text.error().c_str());
            return QuizTexts{};
        }
        auto parsed = quizTextsFromJson(*text);
        if (!parsed) {
            std::fprintf(stderr, "texts.json: %s\n", parsed.error().c_str());
            return QuizTexts{};
        }
        return *parsed;
    }();
    return t;
}

// The answer recomputed independently from the question's scenario with the core.
double coreAnswer(const Question& q) {
    const Plan p = evaluate(q.scenario);
    switch (q.kind) {
    case QuestionKind::EffectiveBatch:
        return static_cast<double>(q.scenario.layout.microBatch) * q.scenario.layout.accumulation *
               q.scenario.layout.dp;
    case QuestionKind::TrainingState:
        return countParameters(q.scenario.model).total * p.intermediates.bytesPerParamState / 1e12;
    case QuestionKind::WeightsBytes:
        return countParameters(q.scenario.model).total * 2.0 / 1e9;
    case QuestionKind::GpuCount:
        return static_cast<double>(q.scenario.layout.gpus());
    case QuestionKind::BubbleFraction:
        return 100.0 * p.time.bubbleFraction;
    case QuestionKind::MfuFromStepTime: {
        // MFU at the measured step, recomputed from the value the question states.
        const double measured = std::stod(q.values.at("step"));
        return 100.0 * 6.0 * p.params.active * p.tokensPerStep /
               (measured * static_cast<double>(q.scenario.layout.gpus()) *
                q.scenario.cluster.gpu.peakFlops16);
    }
    case QuestionKind::DoesItFit:
        return p.memory.fits ? 1.0 : 0.0;
    case QuestionKind::Fp8WeightCopies:
        return p.intermediates.fp8WeightCopyBytes / 1e9;
    case QuestionKind::ShardedOptimizer:
        // Adam's 12 bytes for each of the GPU's 1/TP of the parameters, over the shard group.
        return countParameters(q.scenario.model).total / q.scenario.layout.tp * 12.0 /
               effectiveShardDegree(q.scenario) / 1e9;
    }
    return -1;
}

bool mentions(const std::string& text, const std::string& word) {
    return text.find(word) != std::string::npos;
}

} // namespace

LP_TEST(texts_file_has_every_template) {
    LP_CHECK(!texts().templates.empty());
    for (int k = 0; k < kQuestionKindCount; ++k)
        LP_CHECK(texts().templates.contains(std::string(questionKindId(static_cast<QuestionKind>(k)))));
    LP_CHECK(texts().templates.contains("seed_effective_batch"));
    LP_CHECK(texts().templates.contains("seed_training_state"));
    LP_CHECK(!quizTextsFromJson("{\"quiz\": {}}").has_value());
    LP_CHECK(!quizTextsFromJson("not json").has_value());
}

LP_TEST(seed_questions_have_the_seeds_numbers) {
    const std::vector<Question> seeds = seedQuestions(texts());
    LP_CHECK_EQ(seeds.size(), 2u);
    const Question& batch = seeds[0];
    LP_CHECK(batch.seed);
    LP_CHECK(batch.kind == QuestionKind::EffectiveBatch);
    LP_CHECK_EQ(batch.answer, 64.0); // 2 x 16 x 2
    LP_CHECK(mentions(batch.text, "TP 8 x PP 4 x DP 2"));
    LP_CHECK(mentions(batch.text, "micro batch 2"));
    LP_CHECK(mentions(batch.text, "accumulation 16"));
    LP_CHECK(mentions(batch.explanation, "2 x 16 x 2 = 64"));
    LP_CHECK(checkAnswer(batch, "64").correct);
    LP_CHECK(!checkAnswer(batch, "32").correct);
    LP_CHECK(!checkAnswer(batch, "512").correct); // 8 x 4 x 2 x 2 x 16 / 2: TP and PP do not count

    const Question& state = seeds[1];
    LP_CHECK(state.seed);
    LP_CHECK(state.kind == QuestionKind::TrainingState);
    LP_CHECK_EQ(state.unit, std::string("TB"));
    // 69.0e9 counted parameters x 16 bytes = 1.10 TB; the seed's 70e9 x 16 = 1.12 TB is accepted too.
    LP_CHECK_NEAR(state.answer, 1.104, 0.01);
    LP_CHECK(checkAnswer(state, "1.1 TB").correct);
    LP_CHECK(checkAnswer(state, "1.12").correct);
    LP_CHECK(checkAnswer(state, "1.12e12").correct); // raw bytes
    LP_CHECK(checkAnswer(state, "1,100 GB").correct);
    LP_CHECK(checkAnswer(state, "1,1 TB").correct);  // decimal comma
    LP_CHECK(!checkAnswer(state, "140 GB").correct); // the weights alone
    LP_CHECK(!checkAnswer(state, "0.28").correct);   // 4 bytes per parameter
    LP_CHECK(mentions(state.text, "70 billion"));
    LP_CHECK(mentions(state.text, "16 bytes"));
    LP_CHECK(mentions(state.explanation, "140 GB") || mentions(state.explanation, "138 GB"));
}

LP_TEST(quiz_contains_the_seed_questions_first) {
    const int count = 2 + kQuestionKindCount;
    const std::vector<Question> quiz = makeQuiz(defaultScenario(), {.seed = 7, .count = count}, texts());
    LP_CHECK_EQ(quiz.size(), static_cast<std::size_t>(count));
    LP_CHECK(quiz[0].seed && quiz[0].answer == 64.0);
    LP_CHECK(quiz[1].seed && quiz[1].kind == QuestionKind::TrainingState);
    std::set<QuestionKind> kinds;
    for (std::size_t i = 2; i < quiz.size(); ++i) {
        LP_CHECK(!quiz[i].seed);
        kinds.insert(quiz[i].kind);
    }
    LP_CHECK_EQ(kinds.size(), static_cast<std::size_t>(kQuestionKindCount)); // every kind once
    const std::vector<Question> noSeed =
        makeQuiz(defaultScenario(), {.seed = 7, .count = 3, .includeSeedQuestions = false}, texts());
    LP_CHECK_EQ(noSeed.size(), 3u);
    for (const Question& q : noSeed)
        LP_CHECK(!q.seed);
}

LP_TEST(answers_match_the_core_for_many_seeds) {
    int fits = 0, doesNot = 0;
    std::set<double> batches;
    for (std::uint64_t seed = 1; seed <= 60; ++seed) {
        for (int k = 0; k < kQuestionKindCount; ++k) {
            const auto kind = static_cast<QuestionKind>(k);
            const Question q = makeQuestion(kind, defaultScenario(), seed, texts());
            LP_CHECK(q.kind == kind);
            const double expected = coreAnswer(q);
            LP_CHECK(std::isfinite(q.answer));
            if (kind == QuestionKind::MfuFromStepTime)
                LP_CHECK_NEAR(q.answer, expected, 0.002); // the stated step is rounded to 3 digits
            else
                LP_CHECK_NEAR(q.answer, expected, 1e-9);
            // Kinds that need a plan are asked about valid layouts only.
            if (kind == QuestionKind::BubbleFraction || kind == QuestionKind::MfuFromStepTime ||
                kind == QuestionKind::DoesItFit || kind == QuestionKind::Fp8WeightCopies ||
                kind == QuestionKind::ShardedOptimizer)
                LP_CHECK(evaluate(q.scenario).valid);
            if (kind == QuestionKind::BubbleFraction) {
                LP_CHECK(q.scenario.layout.pp >= 2);
                // The textbook formula is within the tolerance of the core's figure.
                const Layout& l = q.scenario.layout;
                const double textbook = 100.0 * (l.pp - 1.0) / (l.vpp * l.accumulation);
                LP_CHECK(checkAnswer(q, std::to_string(textbook)).correct);
            }
            if (kind == QuestionKind::DoesItFit)
                (q.answer != 0 ? fits : doesNot)++;
            if (kind == QuestionKind::EffectiveBatch)
                batches.insert(q.answer);
            // Every placeholder was filled; the right answer, written as shown, is accepted.
            LP_CHECK(!mentions(q.text, "{"));
            LP_CHECK(!mentions(q.explanation, "{"));
            LP_CHECK(!q.text.empty() && !q.explanation.empty());
            const AnswerCheck own = checkAnswer(q, formatAnswer(q));
            LP_CHECK(own.understood && own.correct);
            if (!own.correct)
                std::fprintf(stderr, "  seed %llu kind %s: \"%s\" for %g\n",
                             static_cast<unsigned long long>(seed), std::string(questionKindId(kind)).c_str(),
                             formatAnswer(q).c_str(), q.answer);
        }
    }
    LP_CHECK(fits >= 10); // both outcomes come up
    LP_CHECK(doesNot >= 10);
    LP_CHECK(batches.size() >= 10); // the numbers vary
}

LP_TEST(same_seed_same_quiz) {
    const auto a = makeQuiz(defaultScenario(), {.seed = 42, .count = 8}, texts());
    const auto b = makeQuiz(defaultScenario(), {.seed = 42, .count = 8}, texts());
    const auto c = makeQuiz(defaultScenario(), {.seed = 43, .count = 8}, texts());
    LP_CHECK_EQ(a.size(), b.size());
    bool allSame = true, anyDifferent = false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        allSame = allSame && a[i].text == b[i].text && a[i].answer == b[i].answer;
        anyDifferent = anyDifferent || a[i].text != c[i].text;
    }
    LP_CHECK(allSame);
    LP_CHECK(anyDifferent);
}

LP_TEST(questions_follow_the_current_scenario) {
    Scenario s = defaultScenario();
    s.model.layers = 40; // a smaller model: the varied questions use it
    s.model.name = "Half-depth model";
    bool sawIt = false;
    for (std::uint64_t seed = 1; seed <= 10; ++seed) {
        const Question q = makeQuestion(QuestionKind::MfuFromStepTime, s, seed, texts());
        sawIt = sawIt || q.scenario.model.name == "Half-depth model";
        LP_CHECK(mentions(q.text, "Half-depth model"));
    }
    LP_CHECK(sawIt);
    // A scenario without a valid layout still gets questions (about the worked example).
    Scenario broken = defaultScenario();
    broken.layout.tp = 3;
    const Question q = makeQuestion(QuestionKind::BubbleFraction, broken, 1, texts());
    LP_CHECK(evaluate(q.scenario).valid);
}

// Every model preset (dense and MoE) on the worked example's cluster: questions are well-formed.
LP_TEST(quiz_over_every_model_preset) {
    for (const ModelPreset& preset : modelPresets()) {
        Scenario s = defaultScenario();
        s.model = preset.model;
        for (std::uint64_t seed = 1; seed <= 3; ++seed) {
            for (const Question& q : makeQuiz(s, {.seed = seed, .count = 2 + kQuestionKindCount}, texts())) {
                LP_CHECK(std::isfinite(q.answer));
                LP_CHECK(!mentions(q.text, "{"));
                const AnswerCheck own = checkAnswer(q, formatAnswer(q));
                LP_CHECK(own.correct);
                if (!own.correct)
                    std::fprintf(stderr, "  %s seed %llu: %s -> \"%s\"\n", preset.id.c_str(),
                                 static_cast<unsigned long long>(seed),
                                 std::string(questionKindId(q.kind)).c_str(), formatAnswer(q).c_str());
            }
        }
    }
}

// FP8 under Transformer Engine: the answer is the core's fp8 weight copies per GPU, which are the
// GPU's share of the layers x 2 bytes (weight + transpose); the usual misreadings are rejected.
LP_TEST(fp8_weight_copies_question) {
    Scenario a100Moe = defaultScenario(); // neither fp8-capable nor dense: the question picks both
    a100Moe.model = findModelPreset("mixtral-8x7b")->model;
    a100Moe.cluster.gpu = findGpuPreset("a100-sxm-80gb")->gpu;
    a100Moe.training.zeroStage = 3;
    std::vector<Scenario> bases = {defaultScenario(), a100Moe};
    for (const ModelPreset& preset : modelPresets()) { // every layer count, uneven ones included
        bases.push_back(defaultScenario());
        bases.back().model = preset.model;
    }
    for (const Scenario& base : bases) {
        for (std::uint64_t seed = 1; seed <= 6; ++seed) {
            const Question q = makeQuestion(QuestionKind::Fp8WeightCopies, base, seed, texts());
            LP_CHECK(q.kind == QuestionKind::Fp8WeightCopies);
            LP_CHECK(q.scenario.training.precision == Precision::Fp8);
            LP_CHECK(!q.scenario.model.isMoe());
            LP_CHECK(q.scenario.training.zeroStage <= 2);
            const Plan p = evaluate(q.scenario);
            LP_CHECK(p.valid && p.style == ExecutionStyle::Megatron);
            LP_CHECK(q.answer > 0);
            LP_CHECK_NEAR(q.answer, p.intermediates.fp8WeightCopyBytes / 1e9, 1e-12);
            // The textbook reading: the decoder layers over PP x TP, 2 bytes each (norms are not fp8).
            const Layout& l = q.scenario.layout;
            const double textbook = countParameters(q.scenario.model).layersTotal / (l.pp * l.tp) * 2.0 / 1e9;
            LP_CHECK_NEAR(q.answer / textbook, 1.0, 0.01);
            LP_CHECK(checkAnswer(q, formatAnswer(q)).correct);
            LP_CHECK(checkAnswer(q, fmt::fixed(textbook, 3) + " GB").correct);
            LP_CHECK(checkAnswer(q, std::to_string(p.intermediates.fp8WeightCopyBytes)).correct); // raw bytes
            // Wrong: one byte per parameter (no transpose), nothing at all, and the whole model's layers.
            LP_CHECK(!checkAnswer(q, std::to_string(q.answer / 2)).correct);
            LP_CHECK(checkAnswer(q, "0").understood && !checkAnswer(q, "0").correct);
            if (l.pp * l.tp > 1)
                LP_CHECK(!checkAnswer(q, std::to_string(q.answer * l.pp * l.tp)).correct);
            LP_CHECK(mentions(q.text, "Transformer Engine"));
            LP_CHECK(mentions(q.text, q.scenario.model.name));
            LP_CHECK(mentions(q.explanation, formatAnswer(q) + " GB"));
            LP_CHECK(!mentions(q.text, "{") && !mentions(q.explanation, "{"));
        }
    }
    // Small per-GPU figures keep three significant digits, so the shown answer is itself accepted.
    Question small;
    small.unit = "GB";
    small.answer = 1.734;
    small.relativeTolerance = 0.05;
    LP_CHECK_EQ(formatAnswer(small), std::string("1.73"));
    LP_CHECK(checkAnswer(small, "1.73").correct);
    LP_CHECK(!checkAnswer(small, "2").correct);
}

LP_TEST(sharded_optimizer_question_asks_about_hybrid_and_full_groups) {
    int hybrid = 0, full = 0;
    for (std::uint64_t seed = 1; seed <= 40; ++seed) {
        const Question q = makeQuestion(QuestionKind::ShardedOptimizer, defaultScenario(), seed, texts());
        LP_CHECK(q.scenario.training.zeroStage == 1 && q.scenario.layout.pp == 1);
        const int degree = effectiveShardDegree(q.scenario);
        (degree < q.scenario.layout.dp ? hybrid : full)++;
        LP_CHECK(mentions(q.text, degree < q.scenario.layout.dp ? "hybrid sharding" : "all "));
        LP_CHECK(mentions(q.explanation, "x 12 / " + std::to_string(degree)));
    }
    LP_CHECK(hybrid >= 5 && full >= 3); // both kinds of group come up
}

LP_TEST(tolerance_works) {
    Question q;
    q.unit = "%";
    q.answer = 18.6;
    q.relativeTolerance = 0.05;
    q.absoluteTolerance = 0.5;
    LP_CHECK(checkAnswer(q, "18.6").correct);
    LP_CHECK(checkAnswer(q, "18.75 %").correct);
    LP_CHECK(checkAnswer(q, "19.5%").correct);     // within 5 %
    LP_CHECK(!checkAnswer(q, "20%").correct);      // 7.5 % off
    LP_CHECK(checkAnswer(q, "0.1875").correct);    // written as a fraction
    LP_CHECK(!checkAnswer(q, "0.1875 %").correct); // explicitly a percent: wrong
    LP_CHECK(checkAnswer(q, "18,75").correct);     // decimal comma
    const AnswerCheck garbage = checkAnswer(q, "about a fifth");
    LP_CHECK(!garbage.understood && !garbage.correct);

    Question small; // absolute tolerance dominates near zero
    small.unit = "%";
    small.answer = 0.3;
    small.relativeTolerance = 0.05;
    small.absoluteTolerance = 0.5;
    LP_CHECK(checkAnswer(small, "0.7").correct);
    LP_CHECK(!checkAnswer(small, "1.0 %").correct);

    Question exact;
    exact.unit = "sequences";
    exact.answer = 2048;
    LP_CHECK(checkAnswer(exact, "2048").correct);
    LP_CHECK(checkAnswer(exact, "2,048").correct);
    LP_CHECK(checkAnswer(exact, "2048 sequences").correct);
    LP_CHECK(!checkAnswer(exact, "2049").correct);
    LP_CHECK(!checkAnswer(exact, "").understood);

    Question gb;
    gb.unit = "GB";
    gb.answer = 137.96;
    gb.relativeTolerance = 0.05;
    LP_CHECK(checkAnswer(gb, "140").correct);
    LP_CHECK(checkAnswer(gb, "140 GB").correct);
    LP_CHECK(checkAnswer(gb, "0.14 TB").correct);
    LP_CHECK(checkAnswer(gb, "128.5 GiB").correct); // 137.97 GB
    LP_CHECK(checkAnswer(gb, "1.38e11").correct);   // bytes
    LP_CHECK(!checkAnswer(gb, "70").correct);

    Question fit;
    fit.type = AnswerType::YesNo;
    fit.answer = 0;
    LP_CHECK(checkAnswer(fit, "no").correct);
    LP_CHECK(checkAnswer(fit, "No.").correct);
    LP_CHECK(checkAnswer(fit, "does not fit").correct);
    LP_CHECK(!checkAnswer(fit, "yes").correct);
    LP_CHECK(checkAnswer(fit, "yes").understood);
    LP_CHECK(!checkAnswer(fit, "maybe").understood);
}

LP_TEST(fill_template_leaves_unknown_names) {
    LP_CHECK_EQ(fillTemplate("{a} x {b} = {c}", {{"a", "2"}, {"b", "16"}}), std::string("2 x 16 = {c}"));
    LP_CHECK_EQ(fillTemplate("no braces", {}), std::string("no braces"));
    LP_CHECK_EQ(fillTemplate("open { only", {}), std::string("open { only"));
}

LP_TEST_MAIN()
