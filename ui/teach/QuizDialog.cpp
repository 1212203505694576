#include "ui/teach/QuizDialog.h"

#include "ui/document/ScenarioDocument.h"
#include "ui/teach/TeachingTexts.h"
#include "ui/widgets/Format.h"
#include "ui/widgets/Palette.h"

#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRandomGenerator>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <utility>

namespace lp::ui {
namespace {
constexpr int kQuestions = 2 + core::kQuestionKindCount; // the two seed questions and one of each varied kind
} // namespace

QuizDialog::QuizDialog(ScenarioDocument* doc, std::uint64_t seed, QWidget* parent)
    : QDialog(parent), m_doc(doc), m_counter(new QLabel(this)), m_badge(new QLabel(this)),
      m_question(new QLabel(this)), m_answer(new QLineEdit(this)), m_unit(new QLabel(this)),
      m_check(new QPushButton(tr("&Check"), this)), m_reveal(new QPushButton(tr("&Show Answer"), this)),
      m_next(new QPushButton(tr("&Next Question"), this)), m_feedback(new QLabel(this)),
      m_explanation(new QLabel(this)), m_score(new QLabel(this)) {
    setObjectName(QStringLiteral("quizDialog"));
    setWindowTitle(tr("Check Yourself"));
    const std::pair<QWidget*, const char*> names[] = {
        {m_question, "quizQuestion"}, {m_answer, "quizAnswer"},
        {m_check, "quizCheck"},       {m_reveal, "quizReveal"},
        {m_next, "quizNext"},         {m_feedback, "quizFeedback"},
        {m_score, "quizScore"},       {m_explanation, "quizExplanation"},
        {m_counter, "quizCounter"}};
    for (const auto& [widget, name] : names)
        widget->setObjectName(QLatin1String(name));

    const QByteArray raw = TeachingTexts::instance().raw();
    if (auto parsed = core::quizTextsFromJson(
            std::string_view(raw.constData(), static_cast<std::size_t>(raw.size())))) {
        m_texts = std::move(*parsed);
        m_textsOk = true;
    }
    setUpWidgets();
    layOut();
    connect(m_check, &QPushButton::clicked, this, [this] {
        if (m_checked)
            nextQuestion(); // Enter again goes on
        else
            submit(m_answer->text());
    });
    m_answer->installEventFilter(this);
    connect(m_reveal, &QPushButton::clicked, this, &QuizDialog::reveal);
    connect(m_next, &QPushButton::clicked, this, &QuizDialog::nextQuestion);
    newQuiz(seed);
}

// Enter in the answer box checks the answer, and only that: left to the line edit, the key would also
// reach the dialog, whose default button (Check, now Next) would skip the feedback.
bool QuizDialog::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_answer && event->type() == QEvent::KeyPress) {
        const int key = static_cast<QKeyEvent*>(event)->key();
        if (key == Qt::Key_Return || key == Qt::Key_Enter) {
            m_check->click();
            return true;
        }
    }
    return QDialog::eventFilter(watched, event);
}

void QuizDialog::setUpWidgets() {
    QFont big = m_question->font();
    big.setPointSizeF(big.pointSizeF() * 1.15);
    m_question->setFont(big);
    m_question->setWordWrap(true);
    m_question->setTextFormat(Qt::PlainText);
    m_question->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_question->setMinimumHeight(m_question->fontMetrics().lineSpacing() * 4);
    m_badge->setTextFormat(Qt::PlainText);
    m_counter->setTextFormat(Qt::PlainText);
    m_feedback->setTextFormat(Qt::RichText);
    m_feedback->setWordWrap(true);
    m_explanation->setTextFormat(Qt::PlainText);
    m_explanation->setWordWrap(true);
    m_explanation->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_explanation->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_score->setTextFormat(Qt::PlainText);
    m_check->setToolTip(teachingText("actions", "check"));
    m_reveal->setToolTip(teachingText("actions", "reveal"));
    m_next->setToolTip(teachingText("actions", "next_question"));
    m_check->setDefault(true);
    m_check->setAutoDefault(true);
}

void QuizDialog::layOut() {
    auto* head = new QHBoxLayout;
    head->addWidget(m_counter);
    head->addStretch(1);
    head->addWidget(m_badge);
    auto* answerRow = new QHBoxLayout;
    answerRow->addWidget(m_answer, 1);
    answerRow->addWidget(m_unit);
    answerRow->addWidget(m_check);
    answerRow->addWidget(m_reveal);
    auto* bottom = new QHBoxLayout;
    bottom->addWidget(m_score, 1);
    bottom->addWidget(m_next);
    auto* close = new QDialogButtonBox(QDialogButtonBox::Close, this);
    bottom->addWidget(close);
    connect(close, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(head);
    layout->addWidget(m_question);
    layout->addLayout(answerRow);
    layout->addWidget(m_feedback);
    layout->addWidget(m_explanation, 1);
    layout->addLayout(bottom);
    resize(720, 420);
}

void QuizDialog::newQuiz(std::uint64_t seed) {
    if (seed == 0)
        seed = QRandomGenerator::global()->generate64() | 1u;
    m_questions = core::makeQuiz(m_doc->shownScenario(), {.seed = seed, .count = kQuestions}, m_texts);
    m_index = 0;
    m_correct = 0;
    m_answered = 0;
    showQuestion();
}

const core::Question* QuizDialog::currentQuestion() const {
    return m_index >= 0 && m_index < static_cast<int>(m_questions.size())
               ? &m_questions[static_cast<std::size_t>(m_index)]
               : nullptr;
}

void QuizDialog::showQuestion() {
    const core::Question* q = currentQuestion();
    m_checked = false;
    m_counter->setText(teachingText("quiz_panel", "counter").arg(m_index + 1).arg(m_questions.size()));
    m_badge->setText(q && q->seed ? teachingText("quiz_panel", "seed_badge") : QString());
    m_question->setText(q ? qs(q->text) : QString());
    m_answer->clear();
    m_answer->setEnabled(true);
    if (q && q->type == core::AnswerType::YesNo) {
        m_answer->setPlaceholderText(teachingText("quiz_panel", "placeholder_yes_no"));
        m_unit->clear();
    } else if (q) {
        m_answer->setPlaceholderText(teachingText("quiz_panel", "placeholder_number").arg(qs(q->unit)));
        m_unit->setText(qs(q->unit));
    }
    m_check->setText(tr("&Check"));
    m_reveal->setEnabled(true);
    m_feedback->clear();
    m_explanation->clear();
    m_score->setText(teachingText("quiz_panel", "score").arg(m_correct).arg(m_answered));
    m_answer->setFocus();
}

bool QuizDialog::submit(const QString& answer) {
    const core::Question* q = currentQuestion();
    if (!q || m_checked)
        return false;
    const core::AnswerCheck check = core::checkAnswer(*q, answer.toStdString());
    if (!check.understood) {
        m_feedback->setText(teachingText("quiz_panel", "unreadable").toHtmlEscaped());
        return false;
    }
    ++m_answered;
    if (check.correct)
        ++m_correct;
    showVerdict(check, false);
    return check.correct;
}

void QuizDialog::reveal() {
    if (!currentQuestion() || m_checked)
        return;
    ++m_answered;
    showVerdict({}, true);
}

void QuizDialog::showVerdict(const core::AnswerCheck& check, bool revealed) {
    const core::Question& q = *currentQuestion();
    m_checked = true;
    QString answer = qs(core::formatAnswer(q));
    if (q.type == core::AnswerType::YesNo) {
        const auto word = m_texts.templates.find(q.answer != 0 ? "word.yes" : "word.no");
        if (word != m_texts.templates.end())
            answer = qs(word->second.question);
    } else if (!q.unit.empty())
        answer += QLatin1Char(' ') + qs(q.unit);
    QString verdict;
    if (!revealed && check.correct) {
        verdict = QStringLiteral("<b style=\"color:%1\">✓ %2</b>")
                      .arg(palette::bandGood().name(), teachingText("quiz_panel", "correct").toHtmlEscaped());
    } else if (revealed) {
        verdict = QStringLiteral("<b>%1</b>")
                      .arg(teachingText("quiz_panel", "revealed").arg(answer).toHtmlEscaped());
    } else {
        verdict = QStringLiteral("<b style=\"color:%1\">✗ %2</b>")
                      .arg(palette::error().name(),
                           teachingText("quiz_panel", "wrong").arg(answer).toHtmlEscaped());
    }
    if (q.type == core::AnswerType::Number && (q.relativeTolerance > 0 || q.absoluteTolerance > 0)) {
        const double tol = std::max(q.absoluteTolerance, q.relativeTolerance * std::abs(q.answer));
        verdict += QStringLiteral(" <small>%1</small>")
                       .arg(teachingText("quiz_panel", "tolerance")
                                .arg(QStringLiteral("± %1 %2").arg(QString::number(tol, 'g', 2), qs(q.unit)))
                                .toHtmlEscaped());
    }
    m_feedback->setText(verdict);
    // The figure's one-line meaning (texts.json "figures"), shared with the tour and the tooltips.
    QString explanation = qs(q.explanation);
    const QString meaning =
        TeachingTexts::instance().text(QStringLiteral("figures"), qs(q.explainKey), QStringLiteral("-"));
    if (meaning != QLatin1String("-"))
        explanation += QStringLiteral("\n\n") + meaning;
    m_explanation->setText(explanation);
    m_answer->setEnabled(false);
    m_reveal->setEnabled(false);
    m_check->setText(tr("&Next"));
    m_check->setFocus();
    m_score->setText(teachingText("quiz_panel", "score").arg(m_correct).arg(m_answered));
}

void QuizDialog::nextQuestion() {
    if (m_index + 1 >= static_cast<int>(m_questions.size())) {
        newQuiz(); // a fresh round over the scenario as it is now
        return;
    }
    ++m_index;
    showQuestion();
}

} // namespace lp::ui
