#pragma once
// "Check yourself": questions generated from a scenario with varied numbers (a seeded RNG, so a quiz
// can be replayed), each with its answer computed by the core (evaluate, countParameters), a
// tolerance and an explanation. The two questions of the seed (effective batch 2 x 16 x 2 = 64; about
// 16 bytes per parameter of training state, 1.1 TB for 70B) are among them. The wording comes from
// resources/teaching/texts.json ("quiz"), read with quizTextsFromJson; the core holds no prose.
#include "core/io/Presets.h"
#include "core/model/Scenario.h"

#include <cstdint>
#include <expected>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace lp::core {

enum class QuestionKind {
    EffectiveBatch,   // micro batch x accumulation x DP
    TrainingState,    // parameters x bytes per parameter of training state
    WeightsBytes,     // parameters x 2 bytes
    GpuCount,         // TP x PP x CP x DP
    BubbleFraction,   // (p - 1) / (v x m), as the core computes it
    MfuFromStepTime,  // 6 N D / (measured step x GPUs x peak)
    DoesItFit,        // the worst stage against the GPU's usable memory
    Fp8WeightCopies,  // FP8 under Transformer Engine: cached fp8 weight + transpose per GPU
    ShardedOptimizer, // ZeRO-1 optimizer state per GPU, sharded over a (hybrid) shard group
};
inline constexpr int kQuestionKindCount = static_cast<int>(QuestionKind::ShardedOptimizer) + 1;
std::string_view questionKindId(QuestionKind k); // "effective_batch", ... (keys of texts.json "quiz")

enum class AnswerType { Number, YesNo };

// Templates for one kind: "question" and "explanation", with {placeholders}.
struct QuestionTemplate {
    std::string question;
    std::string explanation;
};
struct QuizTexts {
    std::map<std::string, QuestionTemplate> templates; // by questionKindId(), plus "seed_effective_batch"
                                                       // and "seed_training_state"
};
// Reads the "quiz" object of texts.json (or a file holding only that object). Every kind must have
// both templates.
std::expected<QuizTexts, std::string> quizTextsFromJson(std::string_view text);

struct Question {
    QuestionKind kind = QuestionKind::EffectiveBatch;
    bool seed = false; // one of the seed's two questions
    std::string text;  // the question, plain text
    AnswerType type = AnswerType::Number;
    double answer = 0;            // in `unit`; YesNo: 1 = yes, 0 = no
    std::string unit;             // "sequences", "GPUs", "TB", "GB", "%" (empty for YesNo)
    double relativeTolerance = 0; // accepted: |given - answer| <= max(absolute, relative x |answer|)
    double absoluteTolerance = 0;
    std::string explanation; // how the answer comes about, with the numbers
    std::string explainKey;  // core explanation key of the figure (explainFigure), for the UI
    Scenario scenario;       // the scenario the question is about (varied from the input)
    std::map<std::string, std::string> values; // what the placeholders were filled with
};

struct QuizOptions {
    std::uint64_t seed = 1;
    int count = 8; // questions in all (at least the seed questions when included)
    bool includeSeedQuestions = true;
};

// The two seed questions, on the worked example (defaultScenario()).
std::vector<Question> seedQuestions(const QuizTexts& texts);
// One question of a kind, varied from `s` with `seed`. Kinds that need a valid plan fall back to the
// worked example when `s` has no valid layout to vary.
Question makeQuestion(QuestionKind kind, const Scenario& s, std::uint64_t seed, const QuizTexts& texts);
// A quiz: the seed questions first (when included), then varied questions cycling through the kinds
// in an order the seed shuffles.
std::vector<Question> makeQuiz(const Scenario& s, const QuizOptions& options, const QuizTexts& texts);

struct AnswerCheck {
    bool understood = false; // a number (or yes/no) could be read from the text
    bool correct = false;
    double value = 0; // the value read, in the question's unit (the interpretation that matched)
};
// Reads numbers the way people type them: "64", "1.1 TB", "1,100 GB", "1.12e12", "1,1" (decimal
// comma), "18.75%", "0.1875" for a percentage, "70 B", "yes"/"no"/"fits". Byte units convert to the
// question's unit.
AnswerCheck checkAnswer(const Question& q, std::string_view text);
// The answer as it should be written: "64", "1.10", "18.6", "yes".
std::string formatAnswer(const Question& q);

// Replaces {name} in `pattern` with values[name]; unknown names stay as they are.
std::string fillTemplate(std::string_view pattern, const std::map<std::string, std::string>& values);

} // namespace lp::core
