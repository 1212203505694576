// The Plan tab's Run section: its figures are the core's run figures of the shown plan, the token rule and
// the fields edit the scenario through the document (undoable), and the charts follow the plan.
#include "core/estimate/Evaluate.h"
#include "core/estimate/Explain.h"
#include "core/io/ScenarioJson.h"
#include "core/report/RunFigures.h"
#include "core/util/NumberFormat.h"
#include "ui/document/ScenarioDocument.h"
#include "ui/run/RunView.h"
#include "ui/widgets/FigureLabel.h"
#include "ui/widgets/Format.h"

#include <QBarSet>
#include <QChart>
#include <QCheckBox>
#include <QComboBox>
#include <QHorizontalStackedBarSeries>
#include <QLineEdit>
#include <QLineSeries>
#include <QScatterSeries>
#include <QSignalSpy>
#include <QTest>
#include <QUndoStack>

using namespace lp;

namespace {

const char* const kFigureKeys[] = {"run.tokens",
                                   "run.wall_clock_days",
                                   "run.gpu_hours",
                                   "run.cost",
                                   "run.cost_per_million_tokens",
                                   "run.energy",
                                   "run.goodput",
                                   "run.interruptions_per_day",
                                   "run.checkpoint_interval",
                                   "run.checkpoint_write",
                                   "run.predicted_loss"};

void chooseRule(ui::RunView& view, core::TokenRule rule) {
    QComboBox* box = view.tokenRule();
    const int index = box->findData(static_cast<int>(rule));
    QVERIFY(index >= 0);
    box->setCurrentIndex(index);
    emit box->activated(index);
}

} // namespace

class TestRunView : public QObject {
    Q_OBJECT
private slots:
    // Every figure shows the core's value of the default scenario's plan, in the core's words.
    void showsTheRunFiguresOfTheDefaultScenario() {
        ui::ScenarioDocument doc;
        ui::RunView view(&doc);
        const core::Plan p = core::evaluate(doc.scenario(), doc.profile());
        QVERIFY(p.valid && p.run.tokens > 0);
        const auto cards = core::report::runCards(p);
        QCOMPARE(cards.size(), std::size_t{12});
        for (std::size_t i = 0; i < cards.size(); ++i) {
            auto* f = view.findChild<ui::FigureLabel*>(QStringLiteral("figure_run_%1").arg(i));
            QVERIFY(f);
            QCOMPARE(f->caption(), ui::qs(cards[i].caption));
            QCOMPARE(f->value(), ui::qs(cards[i].value));
            QCOMPARE(f->detail(), ui::qs(cards[i].detail));
            QCOMPARE(f->explainKey(), ui::qs(cards[i].key));
            QVERIFY2(core::explainFigure(doc.scenario(), p, cards[i].key), cards[i].key.c_str());
        }
        for (const char* key : kFigureKeys)
            QVERIFY2(view.figure(QString::fromLatin1(key)), key);
        QCOMPARE(view.figure(QStringLiteral("run.tokens"))->value(), ui::qs(core::fmt::count(p.run.tokens)));
        // Clicking a figure asks for its explanation.
        QSignalSpy explain(&view, &ui::RunView::explainRequested);
        QTest::mouseClick(view.figure(QStringLiteral("run.goodput")), Qt::LeftButton);
        QCOMPARE(explain.count(), 1);
        QCOMPARE(explain.first().first().toString(), QStringLiteral("run.goodput"));
        // The charts: the loss curve and the three parts of the goodput bar.
        auto* curve = qobject_cast<QLineSeries*>(view.lossChart()->series().front());
        QVERIFY(curve && curve->count() > 10);
        // In billions of tokens, as its axis says: the chosen budget's point is at 2,000.
        auto* chosen = qobject_cast<QScatterSeries*>(view.lossChart()->series().at(1));
        QVERIFY(chosen && chosen->count() == 1);
        QCOMPARE(chosen->at(0).x(), p.run.tokens / 1e9);
        QCOMPARE(view.lossChart()->axes(Qt::Horizontal).front()->titleText(),
                 QStringLiteral("Tokens (billions)"));
        auto* bar = qobject_cast<QHorizontalStackedBarSeries*>(view.goodputChart()->series().front());
        QVERIFY(bar && bar->count() == 3);
        const core::report::GoodputSplit g = core::report::goodputSplit(p.run);
        QCOMPARE(bar->barSets().front()->at(0), g.idealDays);
    }

    // Choosing another token rule changes the tokens and the days, and undo brings them back.
    void changingTheTokenRuleChangesTokensAndDays() {
        ui::ScenarioDocument doc;
        ui::RunView view(&doc);
        const core::Plan before = doc.shownPlan();
        const QString tokens = view.figure(QStringLiteral("run.tokens"))->value();
        const QString days = view.figure(QStringLiteral("run.wall_clock_days"))->value();
        chooseRule(view, core::TokenRule::ComputeOptimal);
        QVERIFY(doc.scenario().run.tokenRule == core::TokenRule::ComputeOptimal);
        QCOMPARE(doc.shownPlan().run.tokens, 20 * doc.shownPlan().run.scalingParameters);
        QVERIFY(view.figure(QStringLiteral("run.tokens"))->value() != tokens);
        QVERIFY(view.figure(QStringLiteral("run.wall_clock_days"))->value() != days);
        QVERIFY(!view.ruleValue()->isEnabled());
        // Tokens per parameter with a typed value.
        chooseRule(view, core::TokenRule::TokensPerParameter);
        view.ruleValue()->setText(QStringLiteral("100"));
        emit view.ruleValue()->editingFinished();
        QCOMPARE(doc.shownPlan().run.tokens, 100 * doc.shownPlan().run.scalingParameters);
        doc.undoStack()->undo();
        doc.undoStack()->undo();
        doc.undoStack()->undo();
        QCOMPARE(doc.shownPlan().run.tokens, before.run.tokens);
        QCOMPARE(view.figure(QStringLiteral("run.tokens"))->value(), tokens);
        QCOMPARE(view.tokenRule()->currentData().toInt(), static_cast<int>(core::TokenRule::Tokens));
    }

    // A typed price edits the scenario and the cost follows; a negative one is refused.
    void thePriceFieldEditsTheScenario() {
        ui::ScenarioDocument doc;
        ui::RunView view(&doc);
        auto* price = view.findChild<QLineEdit*>(QStringLiteral("runPrice"));
        QVERIFY(price);
        price->setText(QStringLiteral("2.5"));
        emit price->editingFinished();
        QCOMPARE(doc.scenario().run.pricePerGpuHourUsd, 2.5);
        QCOMPARE(doc.shownPlan().run.costUsd, doc.shownPlan().run.gpuHours * 2.5);
        const int steps = doc.undoStack()->count();
        price->setText(QStringLiteral("-1"));
        emit price->editingFinished();
        QCOMPARE(doc.undoStack()->count(), steps);
        QCOMPARE(doc.scenario().run.pricePerGpuHourUsd, 2.5);
        // Refused with its reason, and the field shows the value it keeps.
        QCOMPARE(view.lastRefusal(),
                 QStringLiteral("Price per GPU-hour (USD): -1 is below 0; it stays 2.5."));
        QCOMPARE(price->text(), QStringLiteral("2.5"));
        price->setText(QStringLiteral("cheap"));
        emit price->editingFinished();
        QCOMPARE(view.lastRefusal(),
                 QStringLiteral("Price per GPU-hour (USD): \"cheap\" is not a number; it stays 2.5."));
        // Emptied, it takes the preset's price again, which it shows as its placeholder rather than a 0 the
        // cost does not use.
        price->clear();
        emit price->editingFinished();
        QCOMPARE(doc.scenario().run.pricePerGpuHourUsd, 0.0);
        QVERIFY(price->text().isEmpty());
        const double preset = doc.shownPlan().run.pricePerGpuHourUsd;
        QVERIFY(preset > 0);
        QVERIFY2(price->placeholderText().contains(QString::number(preset)),
                 qPrintable(price->placeholderText()));
        auto* deadline = view.findChild<QLineEdit*>(QStringLiteral("runDeadline"));
        QVERIFY(deadline && deadline->text().isEmpty());
        QCOMPARE(deadline->placeholderText(), QStringLiteral("none"));
        auto* restart = view.findChild<QLineEdit*>(QStringLiteral("runRestart"));
        restart->clear(); // an emptied field that has no meaning for 0 keeps its value, said nothing
        emit restart->editingFinished();
        QCOMPARE(restart->text(), QStringLiteral("600"));
    }

    // Numbers read as people write them: the token budget with thousands separators, not "2e+12"; typed with
    // or without them, or as 3e12.
    void numbersReadAsPeopleWriteThem() {
        ui::ScenarioDocument doc;
        ui::RunView view(&doc);
        QCOMPARE(view.ruleValue()->text(), QStringLiteral("2,000,000,000,000"));
        for (const QString& typed : {QStringLiteral("3,000,000,000,000"), QStringLiteral("3e12")}) {
            view.ruleValue()->setText(QStringLiteral("1"));
            emit view.ruleValue()->editingFinished();
            view.ruleValue()->setText(typed);
            emit view.ruleValue()->editingFinished();
            QCOMPARE(doc.scenario().training.tokenBudget, 3e12);
            QCOMPARE(view.ruleValue()->text(), QStringLiteral("3,000,000,000,000"));
        }
        auto* failures = view.findChild<QLineEdit*>(QStringLiteral("runFailureRate"));
        QVERIFY(failures);
        QVERIFY2(!failures->text().contains(QStringLiteral("e-0")), qPrintable(failures->text()));
        const double rate = doc.scenario().run.gpuFailuresPerHour;
        QCOMPARE(QString::number(failures->text().toDouble(), 'g', 6), QString::number(rate, 'g', 6));
        // Leaving a field as it shows its value changes nothing: the rounded figure does not replace the
        // exact.
        const int steps = doc.undoStack()->count();
        emit failures->editingFinished();
        QCOMPARE(doc.scenario().run.gpuFailuresPerHour, rate);
        QCOMPARE(doc.undoStack()->count(), steps);
        view.ruleValue()->setText(QStringLiteral("0"));
        emit view.ruleValue()->editingFinished();
        QCOMPARE(view.lastRefusal(),
                 QStringLiteral("Token budget: 0 is below 1; it stays 3,000,000,000,000."));
    }

    // A field takes what the scenario file takes, no more: a value the file would refuse on opening is
    // refused as it is typed, with the limit (a saved scenario always opens again).
    void fieldsKeepTheFilesLimits() {
        ui::ScenarioDocument doc;
        ui::RunView view(&doc);
        const int steps = doc.undoStack()->count();
        auto* price = view.findChild<QLineEdit*>(QStringLiteral("runPrice"));
        price->setText(QStringLiteral("2,000,000"));
        emit price->editingFinished();
        QCOMPARE(
            view.lastRefusal(),
            QStringLiteral("Price per GPU-hour (USD): 2,000,000 is more than the most it takes, 1,000,000; "
                           "it stays the preset's: 3.99."));
        auto* failures = view.findChild<QLineEdit*>(QStringLiteral("runFailureRate"));
        failures->setText(QStringLiteral("2"));
        emit failures->editingFinished();
        QVERIFY(view.lastRefusal().startsWith(
            QStringLiteral("Failures per GPU-hour: 2 is more than the most it takes, 1;")));
        auto* bandwidth = view.findChild<QLineEdit*>(QStringLiteral("runCheckpointBandwidth"));
        bandwidth->setText(QStringLiteral("0"));
        emit bandwidth->editingFinished();
        QVERIFY(view.lastRefusal().startsWith(
            QStringLiteral("Checkpoint write (GB/s per node): 0 is not above 0;")));
        QCOMPARE(doc.undoStack()->count(), steps);
        // At the limit it is taken, and the scenario, written and read back, is the same.
        price->setText(QStringLiteral("1,000,000"));
        emit price->editingFinished();
        QCOMPARE(doc.scenario().run.pricePerGpuHourUsd, 1e6);
        const auto back = core::scenarioFromJson(core::scenarioToJson(doc.scenario()));
        QVERIFY(back.has_value());
        QCOMPARE(back->run.pricePerGpuHourUsd, 1e6);
    }

    void theAsyncCheckboxEditsTheScenarioAndRaisesGoodput() {
        ui::ScenarioDocument doc;
        ui::RunView view(&doc);
        QVERIFY(view.asyncCheckpoint() && !view.asyncCheckpoint()->isChecked());
        const double goodput = doc.shownPlan().run.goodput;
        view.asyncCheckpoint()->setChecked(true);
        QVERIFY(doc.scenario().run.asyncCheckpoint);
        QVERIFY(doc.shownPlan().run.goodput > goodput);
        doc.undoStack()->undo();
        QVERIFY(!doc.scenario().run.asyncCheckpoint);
        QVERIFY(!view.asyncCheckpoint()->isChecked()); // the box follows the document
    }
};

QTEST_MAIN(TestRunView)
#include "test_run_view.moc"
