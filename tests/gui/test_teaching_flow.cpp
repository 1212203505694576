// The teaching flow as a class meets it in the real window: the guided tour gives the user's work back
// however it ends; Enter in the quiz shows the verdict before moving on; the glossary ranks a term's
// name above its definitions; the explanation keeps the figure last clicked while hovering previews.
#include "WindowTestSupport.h"
#include "core/estimate/Explain.h"
#include "core/estimate/KeyFigures.h"
#include "core/teach/TourScript.h"
#include "ui/charts/ChartLegend.h"
#include "ui/charts/MemoryChart.h"
#include "ui/document/ScenarioDocument.h"
#include "ui/plan/ExplanationPanel.h"
#include "ui/plan/KeyFigures.h"
#include "ui/plan/PlanView.h"
#include "ui/shell/Autosave.h"
#include "ui/shell/ExportImportActions.h"
#include "ui/shell/MainWindow.h"
#include "ui/shell/Settings.h"
#include "ui/shell/TeachingMode.h"
#include "ui/shell/WindowMenus.h"
#include "ui/teach/GlossaryDialog.h"
#include "ui/teach/QuizDialog.h"
#include "ui/teach/Tour.h"
#include "ui/teach/TourPanel.h"
#include "ui/widgets/FigureLabel.h"

#include <QAction>
#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QStatusBar>
#include <QTextBrowser>
#include <QUndoStack>

#include <memory>

using namespace lp;

class TestTeachingFlow : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    std::unique_ptr<ui::MainWindow> m_window;

    ui::ScenarioDocument* doc() const { return m_window->document(); }
    ui::TeachingMode* teaching() const { return ui::TeachingMode::of(*m_window); }
    ui::Tour* tour() const { return teaching()->tour(); }
    ui::ExplanationPanel* explanation() const { return m_window->explanationPanel(); }
    ui::FigureLabel* figure(const char* id) const {
        return m_window->planView()->keyFigures()->figure(QString::fromLatin1(id));
    }

    // The user's own work: an imported model, not saved anywhere.
    void importModel() {
        QVERIFY(ui::importHfConfig(*m_window, QStringLiteral(LP_TEST_DATA_DIR "/hf/llama-3.1-8b.json")));
        QVERIFY(doc()->isModified());
    }

    // Right arrow until the tour shows step `number` (1-based).
    void stepTo(int number) {
        while (tour()->current() + 1 < number)
            QTest::keyClick(m_window.get(), Qt::Key_Right);
        QCOMPARE(tour()->current() + 1, number);
    }

    struct Work {
        core::Scenario scenario;
        int undoIndex;
        int undoCount;
        bool modified;
        QString undoText;
    };
    Work work() const {
        QUndoStack* undo = doc()->undoStack();
        return {doc()->scenario(), undo->index(), undo->count(), doc()->isModified(), undo->undoText()};
    }
    void verifyWorkIs(const Work& before) {
        QVERIFY(!tour()->isActive());
        QVERIFY(doc()->scenario() == before.scenario);
        QCOMPARE(doc()->undoStack()->index(), before.undoIndex);
        QCOMPARE(doc()->undoStack()->count(), before.undoCount); // the tour's steps are not left to redo
        QCOMPARE(doc()->isModified(), before.modified);
        QCOMPARE(doc()->undoStack()->undoText(), before.undoText);
    }

private slots:
    void initTestCase() { test::isolateUserFolders(m_dir); }

    void init() {
        QSettings().clear();
        m_window = test::makeFullQuietWindow();
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    }

    void cleanup() { test::closeTestWindow(m_window); }

    // Escape at step 19 (the 30% straggler slowdown) gives back the imported model, unsaved, with its
    // undo history.
    void escapeMidTourRestoresTheImportedModel() {
        importModel();
        QVERIFY(doc()->filePath().isEmpty());
        const Work before = work();
        QTest::keyClick(m_window.get(), Qt::Key_F2); // Learn > Guided Tour
        QVERIFY(tour()->isActive());
        QVERIFY(doc()->scenario() != before.scenario);
        stepTo(19);
        QCOMPARE(doc()->scenario().training.stragglerSlowdown, 0.3);
        QTest::keyClick(m_window.get(), Qt::Key_Escape);
        verifyWorkIs(before);
        QCOMPARE(doc()->scenario().training.stragglerSlowdown, 0.0);
        QVERIFY(!teaching()->dock()->isVisible());
        // Undo goes on with the user's own history: before the import.
        doc()->undoStack()->undo();
        QVERIFY(doc()->scenario().model.name != before.scenario.model.name);
    }

    // On a fresh start (no history of the user's), the tour leaves nothing to undo or redo.
    void aTourOnAFreshStartLeavesNoHistory() {
        const Work before = work();
        QCOMPARE(before.undoCount, 0);
        QTest::keyClick(m_window.get(), Qt::Key_F2);
        stepTo(4);
        QTest::keyClick(m_window.get(), Qt::Key_Escape);
        verifyWorkIs(before);
        QVERIFY(!doc()->undoStack()->canRedo());
        QVERIFY(!doc()->undoStack()->canUndo());
        // The Edit menu says so too: no "Redo Tour step 4" left over.
        QVERIFY(!m_window->menus()->redoAction()->isEnabled());
        QVERIFY(!m_window->menus()->undoAction()->isEnabled());
    }

    // Finishing with the Next button, and closing the tour's panel, restore a saved file unmodified.
    void finishingOrClosingRestoresASavedFile() {
        importModel();
        const QString path = m_dir.filePath(QStringLiteral("mine.json"));
        QVERIFY(doc()->saveTo(path));
        const Work before = work();
        QVERIFY(!before.modified);

        teaching()->tourAction()->trigger();
        tour()->goTo(tour()->count() - 1);
        QVERIFY(doc()->isModified());
        QTest::mouseClick(teaching()->panel()->nextButton(), Qt::LeftButton); // Finish
        verifyWorkIs(before);

        teaching()->restartTourAction()->trigger();
        stepTo(5);
        teaching()->dock()->close(); // the panel's close button
        verifyWorkIs(before);

        // Closing the window asks about the user's scenario, not the tour's.
        teaching()->startTour(3);
        QVERIFY(doc()->isModified());
        m_window->close(); // the scripted prompter would cancel a "Save changes?"
        verifyWorkIs(before);
    }

    // The user's redo steps, and a saved state among them, come back after the tour.
    void redoStepsAndTheSavedStateSurviveTheTour() {
        const QString path = m_dir.filePath(QStringLiteral("redo.json"));
        doc()->setLayoutValue(core::LayoutAxis::Pp, 8);
        doc()->setLayoutValue(core::LayoutAxis::Accumulation, 32);
        const core::Scenario saved = doc()->scenario();
        QVERIFY(doc()->saveTo(path));
        doc()->undoStack()->undo();
        doc()->undoStack()->undo(); // two steps to redo; the saved state is the second of them
        const Work before = work();
        QVERIFY(before.modified);
        QCOMPARE(doc()->undoStack()->redoText(), QStringLiteral("Set PP to 8"));

        teaching()->startTour(4);
        doc()->setLayoutValue(core::LayoutAxis::Tp, 2); // trying something during the tour
        QTest::keyClick(m_window.get(), Qt::Key_Escape);
        verifyWorkIs(before);
        QCOMPARE(doc()->undoStack()->redoText(), QStringLiteral("Set PP to 8"));
        doc()->undoStack()->redo();
        doc()->undoStack()->redo();
        QVERIFY(doc()->scenario() == saved);
        QVERIFY(!doc()->isModified()); // the file on disk is this scenario
    }

    // Autosave keeps the user's work while the tour shows its own scenarios: a crash mid-tour restores
    // the user's scenario, not a tour step.
    void autosaveKeepsTheUsersWorkDuringTheTour() {
        test::closeTestWindow(m_window);
        ui::WindowOptions options = test::quietOptions();
        options.autosave = true;
        options.autosaveDirectory = m_dir.filePath(QStringLiteral("autosave-tour"));
        m_window = ui::makePlannerWindow(options);
        test::startTestWindow(*m_window);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
        m_window->autosave()->setIntervalMs(20);
        const QString file = m_window->autosave()->filePath();
        QFile::remove(file);

        teaching()->startTour(2); // over a clean document: nothing to keep
        QTest::qWait(150);
        QVERIFY(!QFile::exists(file));
        QTest::keyClick(m_window.get(), Qt::Key_Escape);

        doc()->setLayoutValue(core::LayoutAxis::Pp, 8);
        const core::Scenario mine = doc()->scenario();
        teaching()->startTour(5); // at once: before the autosave timer has fired
        QVERIFY(QFile::exists(file));
        stepTo(9);
        QTest::qWait(150);
        const auto pending = m_window->autosave()->pending();
        QVERIFY(pending.has_value());
        QVERIFY(pending->scenario == mine);
        QTest::keyClick(m_window.get(), Qt::Key_Escape);
        QVERIFY(doc()->scenario() == mine);
        QTRY_VERIFY(m_window->autosave()->pending().has_value());
        QVERIFY(m_window->autosave()->pending()->scenario == mine);
    }

    // Opening another file during the tour ends it and keeps the file opened.
    void openingAFileEndsTheTour() {
        const QString path = m_dir.filePath(QStringLiteral("other.json"));
        QVERIFY(doc()->saveTo(path));
        importModel();
        teaching()->startTour(6);
        QVERIFY(doc()->openFile(path).ok);
        QVERIFY(!tour()->isActive());
        QCOMPARE(doc()->filePath(), QFileInfo(path).absoluteFilePath());
        QVERIFY(!doc()->isModified());
    }

    // Enter checks and shows the verdict; Enter again (or Next) goes on.
    void quizEnterShowsTheFeedbackFirst() {
        teaching()->quizAction()->trigger();
        ui::QuizDialog* quiz = teaching()->quiz();
        QVERIFY(QTest::qWaitForWindowExposed(quiz));
        quiz->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(quiz));
        const auto answer = [quiz] {
            return QString::fromStdString(core::formatAnswer(*quiz->currentQuestion()));
        };

        QTest::keyClicks(quiz->answerEdit(), answer());
        QTest::keyClick(quiz->answerEdit(), Qt::Key_Return);
        QCOMPARE(quiz->currentIndex(), 0);
        QVERIFY(quiz->feedbackLabel()->text().contains(QStringLiteral("✓ Correct")));
        QVERIFY(!quiz->explanationLabel()->text().isEmpty());
        QCOMPARE(quiz->correctCount(), 1);
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Return); // Enter again: the next question
        QCOMPARE(quiz->currentIndex(), 1);
        QVERIFY(quiz->feedbackLabel()->text().isEmpty());

        QTest::keyClicks(quiz->answerEdit(), answer());
        QTest::keyClick(quiz->answerEdit(), Qt::Key_Enter); // the keypad's Enter too
        QCOMPARE(quiz->currentIndex(), 1);
        QVERIFY(quiz->feedbackLabel()->text().contains(QStringLiteral("✓ Correct")));
        QTest::mouseClick(quiz->nextButton(), Qt::LeftButton);
        QCOMPARE(quiz->currentIndex(), 2);
        quiz->close();
    }

    // The glossary's "in the current plan" figure reads as the Explanation panel's heading of the same
    // figure, memory in the unit the window shows (it printed "20.96 GiB" in GB, and fractions with two
    // decimals where the panel has one).
    void glossaryWordsTheCurrentFigureAsThePanelDoes() {
        teaching()->glossaryAction()->trigger();
        ui::GlossaryDialog* g = teaching()->glossary();
        QVERIFY(QTest::qWaitForWindowExposed(g));
        for (const ui::MemoryUnit unit : {ui::MemoryUnit::GB, ui::MemoryUnit::GiB}) {
            m_window->settings()->setMemoryUnit(unit);
            const std::vector<core::KeyFigure> cards =
                core::keyFigures(doc()->scenario(), doc()->plan(), unit);
            for (const char* term : {"zero", "bubble"}) {
                QVERIFY(g->showTerm(QString::fromLatin1(term)));
                const ui::GlossaryTerm* t = nullptr;
                for (const ui::GlossaryTerm& candidate : g->terms())
                    if (candidate.id == QLatin1String(term))
                        t = &candidate;
                QVERIFY(t);
                const auto e =
                    core::explainFigure(doc()->scenario(), doc()->plan(), t->explainKey.toStdString());
                QVERIFY(e.has_value());
                const QString value = ui::qs(core::explanationValueText(*e, cards, unit));
                QVERIFY2(g->details()->toPlainText().contains(value), qPrintable(value));
                m_window->explanationPanel()->showKey(t->explainKey);
                QVERIFY(m_window->explanationPanel()->browser()->toPlainText().contains(value));
            }
        }
        g->close();
    }

    // "bubble" is the name of "Pipeline bubble" and only in the definition of "PP".
    void glossarySearchRanksNamesFirst() {
        teaching()->glossaryAction()->trigger();
        ui::GlossaryDialog* g = teaching()->glossary();
        QVERIFY(QTest::qWaitForWindowExposed(g));
        QTest::keyClicks(g->searchField(), QStringLiteral("bubble"));
        QCOMPARE(g->currentTermId(), QStringLiteral("bubble"));
        QCOMPARE(g->list()->item(0)->data(Qt::UserRole).toString(), QStringLiteral("bubble"));
        const QStringList shown = g->matching(QStringLiteral("bubble"));
        QCOMPARE(shown.first(), QStringLiteral("bubble"));
        QVERIFY(shown.indexOf(QStringLiteral("pp")) > 0);
        QTest::keyClick(g->searchField(), Qt::Key_Return);
        QCOMPARE(g->currentTermId(), QStringLiteral("bubble"));
        QVERIFY(g->details()->toPlainText().startsWith(QStringLiteral("Pipeline bubble")));
        // Cleared, the list is in glossary order again, every term shown.
        g->searchField()->clear();
        QCOMPARE(g->list()->item(0)->data(Qt::UserRole).toString(), g->terms().front().id);
        for (int i = 0; i < g->list()->count(); ++i)
            QVERIFY(!g->list()->item(i)->isHidden());
        QCOMPARE(g->currentTermId(), QStringLiteral("bubble"));
        g->close();
    }

    // On launch the headline figure is explained, even with the pointer resting on another card.
    void launchExplainsMfu() {
        cleanup();
        m_window = test::makeFullQuietWindow();
        QCursor::setPos(QPoint(-100, -100));
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
        m_window->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
        QCOMPARE(explanation()->currentKey(), QStringLiteral("mfu"));
        // The window appearing under a still pointer previews nothing either.
        QEnterEvent enter(QPointF(5, 5), QPointF(5, 5), QPointF(5, 5));
        QApplication::sendEvent(figure("hfu"), &enter);
        QCOMPARE(explanation()->currentKey(), QStringLiteral("mfu"));
    }

    // Hovering previews; leaving returns to the figure last clicked, which stays until another is.
    void hoverPreviewsAndClickChooses() {
        ui::FigureLabel* batch = figure("effective_batch");
        ui::FigureLabel* hfu = figure("hfu");
        // The Plan page lays out its wrapped sections over a few passes after it is shown; a person's pointer
        // arrives after that, so the cards are where they will stay.
        QRect was;
        QVERIFY(QTest::qWaitFor(
            [&] {
                const QRect now(hfu->mapTo(m_window.get(), QPoint(0, 0)), hfu->size());
                const bool settled = now == was;
                was = now;
                QTest::qWait(50);
                return settled;
            },
            3000));
        QTest::mouseClick(batch, Qt::LeftButton);
        QCOMPARE(explanation()->currentKey(), QStringLiteral("effective_batch"));
        QTest::mouseMove(hfu);
        QTest::mouseMove(hfu, hfu->rect().center() + QPoint(3, 1));
        QCOMPARE(explanation()->currentKey(), QStringLiteral("hfu"));
        QCOMPARE(explanation()->chosenKey(), QStringLiteral("effective_batch"));
        QTest::mouseMove(m_window->statusBar());
        QCOMPARE(explanation()->currentKey(), QStringLiteral("effective_batch"));
        // A legend entry of the memory chart previews the same way.
        ui::ChartLegend* legend = m_window->planView()->memoryChart()->findChild<ui::ChartLegend*>();
        QVERIFY(legend && legend->count() > 0);
        QWidget* entry = legend->entry(0);
        QTest::mouseMove(entry);
        QTest::mouseMove(entry, entry->rect().center() + QPoint(1, 0));
        QVERIFY(explanation()->currentKey() != QStringLiteral("effective_batch"));
        QTest::mouseMove(m_window->statusBar());
        QCOMPARE(explanation()->currentKey(), QStringLiteral("effective_batch"));
        // A click chooses the hovered figure.
        QTest::mouseMove(hfu);
        QTest::mouseClick(hfu, Qt::LeftButton);
        QTest::mouseMove(m_window->statusBar());
        QCOMPARE(explanation()->currentKey(), QStringLiteral("hfu"));
    }
};

QTEST_MAIN(TestTeachingFlow)
#include "test_teaching_flow.moc"
