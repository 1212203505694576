// Teaching mode in the real window: the guided tour visits every step, each step's scenario is what
// it claims and the widget it talks about is outlined; keys, resuming, undo and the command line;
// the glossary searches; the quiz checks answers.
// With LP_TOUR_SCREENSHOT_DIR set, also writes tour-<step id>.png there (docs/images).
#include "WindowTestSupport.h"
#include "core/estimate/Evaluate.h"
#include "core/teach/TourScript.h"
#include "ui/document/ScenarioDocument.h"
#include "ui/plan/ExplanationPanel.h"
#include "ui/shell/FileController.h"
#include "ui/shell/MainWindow.h"
#include "ui/shell/Settings.h"
#include "ui/shell/TeachingMode.h"
#include "ui/shell/WindowMenus.h"
#include "ui/teach/GlossaryDialog.h"
#include "ui/teach/PresentationMode.h"
#include "ui/teach/QuizDialog.h"
#include "ui/teach/Tour.h"
#include "ui/teach/TourPanel.h"
#include "ui/teach/WidgetOutline.h"

#include <QAction>
#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QDockWidget>
#include <QHash>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QPushButton>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTextBrowser>
#include <QUndoStack>

#include <algorithm>
#include <memory>

using namespace lp;

// The image for the docs: the window's 256 most frequent colours (flat UI colours, the palette's
// chart colours exact), so that the PNGs stay small.
QImage docsImage(const QImage& grabbed) {
    const QImage rgb = grabbed.convertToFormat(QImage::Format_RGB32);
    QHash<QRgb, int> counts;
    for (int y = 0; y < rgb.height(); ++y) {
        const auto* line = reinterpret_cast<const QRgb*>(rgb.constScanLine(y));
        for (int x = 0; x < rgb.width(); ++x)
            ++counts[line[x]];
    }
    QList<QPair<int, QRgb>> byCount;
    for (auto it = counts.cbegin(); it != counts.cend(); ++it)
        byCount.append({it.value(), it.key()});
    std::sort(byCount.begin(), byCount.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    QList<QRgb> table;
    for (int i = 0; i < byCount.size() && i < 256; ++i)
        table << byCount[i].second;
    return rgb.convertToFormat(QImage::Format_Indexed8, table, Qt::ThresholdDither);
}

class TestTour : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    std::unique_ptr<ui::MainWindow> m_window;

    ui::ScenarioDocument* doc() const { return m_window->document(); }
    ui::TeachingMode* teaching() const { return ui::TeachingMode::of(*m_window); }
    ui::Tour* tour() const { return teaching()->tour(); }

    void makeWindow() {
        m_window = test::makeFullQuietWindow(); // every tab and button: the screenshots show the real window
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    }

    // The scenario, Plan, outline, explanation and panel of the current step are what the step says.
    void verifyCurrentStep() {
        const core::TourStep* step = tour()->currentStep();
        QVERIFY(step);
        const QString id = QString::fromStdString(step->id);
        const auto expected = core::scenarioForStep(*step);
        QVERIFY2(expected.has_value(), qPrintable(id));
        QVERIFY2(doc()->scenario() == *expected, qPrintable(id));
        QVERIFY2(doc()->plan().valid, qPrintable(id));
        for (const core::CheckResult& r : tour()->currentChecks())
            QVERIFY2(r.ok, qPrintable(id + QStringLiteral(": ") + QString::fromStdString(r.claim) +
                                      QStringLiteral(" (found ") + QString::fromStdString(r.actual) +
                                      QLatin1Char(')')));
        // The checks the panel shows are the core's, all ticked.
        QVERIFY(!teaching()->panel()->checksLabel()->text().contains(QStringLiteral("✗")));
        QCOMPARE(teaching()->panel()->counterLabel()->text(),
                 QStringLiteral("Step %1 of %2").arg(tour()->current() + 1).arg(tour()->count()));
        QCOMPARE(teaching()->panel()->titleLabel()->text(), QString::fromStdString(step->title));
        const QString text = teaching()->panel()->textView()->toPlainText();
        QVERIFY2(!text.contains(QStringLiteral("{{")), qPrintable(id));
        // The fullest GPU's memory reads as the memory chart reads it, in the window's unit.
        if (step->text.find("worst_stage_bytes|memory") != std::string::npos)
            QVERIFY2(text.contains(ui::formatBytes(doc()->plan().memory.worstTotalBytes(),
                                                   m_window->settings()->memoryUnit(), 1)),
                     qPrintable(id));
        // The outline sits on the widget the step talks about, which is on screen.
        ui::WidgetOutline* outline = teaching()->outline();
        QCOMPARE(outline->targetName(), QString::fromStdString(step->target));
        QVERIFY2(outline->target() && outline->target()->isVisible(), qPrintable(id));
        QVERIFY2(!outline->outlineRect().isEmpty(), qPrintable(id));
        QVERIFY(outline->isVisible());
        if (!step->explain.empty())
            QCOMPARE(m_window->explanationPanel()->currentKey(), QString::fromStdString(step->explain));
    }

private slots:
    void initTestCase() { test::isolateUserFolders(m_dir); }

    void init() {
        QSettings().clear();
        makeWindow();
    }

    void cleanup() { test::closeTestWindow(m_window); }

    void theTourLoadsAndItsTargetsExist() {
        QVERIFY2(tour()->errors().isEmpty(), qPrintable(tour()->errors().join(QLatin1Char('\n'))));
        QVERIFY(tour()->count() >= 15);
        for (const core::TourStep& step : tour()->script().steps) {
            const QString target = QString::fromStdString(step.target);
            QVERIFY2(m_window->findChild<QWidget*>(target),
                     qPrintable(QStringLiteral("no widget named ") + target));
        }
        // The Learn menu carries the four entries.
        QMenu* learn = m_window->menus()->learnMenu();
        QVERIFY(learn->actions().contains(teaching()->tourAction()));
        QVERIFY(learn->actions().contains(teaching()->quizAction()));
        QVERIFY(learn->actions().contains(teaching()->glossaryAction()));
        QVERIFY(learn->actions().contains(teaching()->presentationAction()));
        QVERIFY(!teaching()->tourAction()->toolTip().isEmpty());
        QVERIFY(
            !teaching()->tourAction()->toolTip().startsWith(QStringLiteral("actions."))); // from texts.json
    }

    void theTourVisitsEveryStepWithTheKeyboard() {
        QSignalSpy steps(tour(), &ui::Tour::stepChanged);
        QSignalSpy finished(tour(), &ui::Tour::finished);
        teaching()->tourAction()->trigger();
        QVERIFY(tour()->isActive());
        QCOMPARE(tour()->current(), 0);
        QVERIFY(teaching()->dock()->isVisible());
        const QString shotDir = qEnvironmentVariable("LP_TOUR_SCREENSHOT_DIR");
        for (int i = 0; i < tour()->count(); ++i) {
            QCOMPARE(tour()->current(), i);
            verifyCurrentStep();
            if (!shotDir.isEmpty()) {
                teaching()->outline()->setAnimated(false);
                QTest::qWait(150); // the explanation panel follows the plan within 60 ms
                const QString id = QString::fromStdString(tour()->currentStep()->id);
                const QImage shot = docsImage(m_window->grab().toImage());
                QVERIFY(shot.save(QDir(shotDir).filePath(
                    QStringLiteral("tour-%1-%2.png").arg(i + 1, 2, 10, QLatin1Char('0')).arg(id))));
            }
            QTest::keyClick(m_window.get(), Qt::Key_Right);
        }
        QCOMPARE(steps.count(), tour()->count());
        QCOMPARE(finished.count(), 1);
        QVERIFY(!tour()->isActive());
        QVERIFY(!teaching()->dock()->isVisible());
        QVERIFY(!teaching()->outline()->isVisible());
        QCOMPARE(tour()->savedStep(), 0); // finished: the next tour starts over
    }

    // On a laptop the tour's panel takes room from the tabs: every step still scrolls its target into
    // view, and the outline covers only what is visible of it (never the panel below the tabs).
    void everyTargetIsInViewOnALaptop() {
        for (int i = 0; i < tour()->count(); ++i) {
            // As --tour-step does: the step is set before the window shows, the panel appears with it.
            doc()->undoStack()->setClean();
            m_window->close();
            m_window = test::makeFullQuietWindow();
            tour()->setPersistent(false);
            m_window->resize(1366, 768);
            tour()->start(i);
            m_window->show();
            QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
            for (int k = 0; k < 5; ++k)
                QApplication::processEvents();
            ui::WidgetOutline* outline = teaching()->outline();
            const QString id = QString::fromStdString(tour()->currentStep()->id);
            const QRect ring = outline->outlineRect();
            QVERIFY2(!ring.isEmpty(), qPrintable(id));
            const int shown = ring.height() - 12; // less the outline's margins
            QVERIFY2(shown >= std::min(outline->target()->height(), 100), qPrintable(id));
            QVERIFY2(!ring.intersects(teaching()->dock()->geometry().adjusted(8, 8, -8, -8)), qPrintable(id));
        }
    }

    // Under the plan on a laptop's 1280 x 720, the tour takes the height its text, claims and buttons need,
    // not its preferred size: every claim of the first step (five) shows, and the plan keeps the rest.
    void theTourTakesNoMoreHeightThanItNeeds() {
        m_window->resize(1280, 720);
        QApplication::processEvents();
        tour()->setPersistent(false);
        teaching()->startTour(0);
        for (int k = 0; k < 5; ++k)
            QApplication::processEvents();
        QDockWidget* dock = teaching()->dock();
        QVERIFY(dock->isVisible());
        QCOMPARE(tour()->currentChecks().size(), std::size_t{5});
        QVERIFY2(
            dock->height() <= dock->minimumSizeHint().height() + 8,
            qPrintable(QStringLiteral("%1 > %2").arg(dock->height()).arg(dock->minimumSizeHint().height())));
        QLabel* checks = teaching()->panel()->checksLabel();
        QVERIFY2(checks->height() >= checks->heightForWidth(checks->width()),
                 qPrintable(QStringLiteral("%1 < %2")
                                .arg(checks->height())
                                .arg(checks->heightForWidth(checks->width()))));
        QVERIFY(dock->height() < m_window->height() / 3);
    }

    // For the docs only: a tour step in presentation mode.
    void presentationScreenshot() {
        const QString shotDir = qEnvironmentVariable("LP_TOUR_SCREENSHOT_DIR");
        if (shotDir.isEmpty())
            QSKIP("LP_TOUR_SCREENSHOT_DIR is not set");
        ui::TeachingMode* t = teaching();
        ui::PresentationOptions o = t->presentation()->options();
        o.fullScreen = false;
        t->presentation()->setOptions(o);
        t->presentation()->setActive(true);
        m_window->resize(1920, 1080);
        t->outline()->setAnimated(false);
        t->startTour(11); // MFU
        QTest::qWait(100);
        QVERIFY(docsImage(m_window->grab().toImage())
                    .save(QDir(shotDir).filePath(QStringLiteral("tour-presentation.png"))));
        t->presentation()->setActive(false);
    }

    // For the docs only: the quiz after an answer, and the glossary on a term.
    void dialogScreenshots() {
        const QString shotDir = qEnvironmentVariable("LP_TOUR_SCREENSHOT_DIR");
        if (shotDir.isEmpty())
            QSKIP("LP_TOUR_SCREENSHOT_DIR is not set");
        ui::QuizDialog quiz(doc(), 3, m_window.get());
        quiz.resize(760, 440);
        quiz.show();
        quiz.nextQuestion();
        quiz.submit(QStringLiteral("1.1 TB"));
        QTest::qWait(50);
        QVERIFY(docsImage(quiz.grab().toImage())
                    .save(QDir(shotDir).filePath(QStringLiteral("teaching-quiz.png"))));
        ui::GlossaryDialog* g = teaching()->glossary();
        g->show();
        QTest::keyClicks(g->searchField(), QStringLiteral("bubble"));
        g->showTerm(QStringLiteral("bubble"));
        QTest::qWait(50);
        QVERIFY(docsImage(g->grab().toImage())
                    .save(QDir(shotDir).filePath(QStringLiteral("teaching-glossary.png"))));
        g->close();
    }

    void leftGoesBackHomeRestartsEscapeStops() {
        teaching()->startTour(0);
        QTest::keyClick(m_window.get(), Qt::Key_Right);
        QTest::keyClick(m_window.get(), Qt::Key_PageDown);
        QTest::keyClick(m_window.get(), Qt::Key_Right);
        QCOMPARE(tour()->current(), 3);
        QTest::keyClick(m_window.get(), Qt::Key_Left);
        QCOMPARE(tour()->current(), 2);
        verifyCurrentStep();
        QTest::keyClick(m_window.get(), Qt::Key_PageUp);
        QCOMPARE(tour()->current(), 1);
        QTest::keyClick(m_window.get(), Qt::Key_Home);
        QCOMPARE(tour()->current(), 0);
        QTest::keyClick(m_window.get(), Qt::Key_Left); // nothing before the first step
        QCOMPARE(tour()->current(), 0);
        QVERIFY(!teaching()->panel()->backButton()->isEnabled());
        QTest::mouseClick(teaching()->panel()->nextButton(), Qt::LeftButton);
        QCOMPARE(tour()->current(), 1);
        QTest::keyClick(m_window.get(), Qt::Key_Escape);
        QVERIFY(!tour()->isActive());
        QVERIFY(!teaching()->dock()->isVisible());
        // Arrow keys belong to the window again once the tour is over.
        QTest::keyClick(m_window.get(), Qt::Key_Right);
        QVERIFY(!tour()->isActive());
    }

    void theTourIsResumable() {
        tour()->setPersistent(true);
        teaching()->startTour(0);
        tour()->goTo(6);
        tour()->stop();
        QCOMPARE(tour()->savedStep(), 6);
        // A new window (a later session) resumes where the tour was left.
        cleanup();
        makeWindow();
        tour()->setPersistent(true);
        QCOMPARE(tour()->savedStep(), 6);
        teaching()->tourAction()->trigger();
        QCOMPARE(tour()->current(), 6);
        verifyCurrentStep();
        QVERIFY(teaching()->panel()->findChild<QLabel*>(QStringLiteral("tourResumed"))->isVisible());
        teaching()->restartTourAction()->trigger();
        QCOMPARE(tour()->current(), 0);
    }

    void eachStepIsOneUndoableEdit() {
        const core::Scenario before = doc()->scenario();
        teaching()->startTour(0);
        tour()->goTo(3); // one GPU
        QCOMPARE(doc()->scenario().layout.gpus(), 1LL);
        QVERIFY(!doc()->plan().memory.fits);
        tour()->stop();
        doc()->undoStack()->undo();
        QVERIFY(doc()->scenario() == before);
    }

    void theTextQuotesTheCurrentPlan() {
        teaching()->startTour(0);
        tour()->goTo(2); // training state
        QVERIFY(teaching()->panel()->textView()->toPlainText().contains(QStringLiteral("1.10 TB")));
        // Moving a slider under the same step re-quotes the figures (and re-checks the claims).
        teaching()->startTour(11); // MFU
        const QString before = teaching()->panel()->textView()->toPlainText();
        doc()->setLayoutValue(core::LayoutAxis::Accumulation, 2);
        const QString after = teaching()->panel()->textView()->toPlainText();
        QVERIFY(before != after);
        QVERIFY(teaching()->panel()->checksLabel()->text().contains(
            QStringLiteral("✗"))); // no longer in the band
        // Memory follows the unit chosen in the toolbar, as the memory chart does.
        teaching()->startTour(tour()->count() - 1); // the summary: the fullest GPU's memory
        const double worst = doc()->plan().memory.worstTotalBytes();
        for (const ui::MemoryUnit unit : {ui::MemoryUnit::GB, ui::MemoryUnit::GiB}) {
            m_window->settings()->setMemoryUnit(unit);
            QVERIFY(teaching()->panel()->textView()->toPlainText().contains(ui::formatBytes(worst, unit, 1)));
        }
    }

    void glossaryLinksOpenTheGlossary() {
        teaching()->startTour(0);
        emit teaching()->panel()->textView()->anchorClicked(QUrl(QStringLiteral("glossary:tp")));
        ui::GlossaryDialog* g = teaching()->glossary();
        QVERIFY(g->isVisible());
        QCOMPARE(g->currentTermId(), QStringLiteral("tp"));
        g->close();
    }

    void commandLineRendersAStep() {
        QCommandLineParser parser;
        parser.addOption(QCommandLineOption(QStringLiteral("screenshot"), QString(), QStringLiteral("FILE")));
        ui::TeachingMode::addCommandLineOptions(parser);
        QVERIFY(parser.parse({QStringLiteral("layout-planner"), QStringLiteral("--tour-step"),
                              QStringLiteral("5"), QStringLiteral("--screenshot"),
                              m_dir.filePath(QStringLiteral("x.png"))}));
        QVERIFY(ui::TeachingMode::of(*m_window)->applyCommandLine(parser));
        QCOMPARE(tour()->current(), 4);
        QVERIFY(!tour()->isPersistent());
        QVERIFY(!teaching()->outline()->isAnimated());
        QVERIFY(!doc()->isModified()); // closing after the grab asks nothing
        verifyCurrentStep();
        QVERIFY(m_window->renderScreenshot(m_dir.filePath(QStringLiteral("step5.png"))));
        QVERIFY(QImage(m_dir.filePath(QStringLiteral("step5.png"))).width() > 0);

        QCommandLineParser bad;
        ui::TeachingMode::addCommandLineOptions(bad);
        QVERIFY(bad.parse(
            {QStringLiteral("layout-planner"), QStringLiteral("--tour-step"), QStringLiteral("99")}));
        QVERIFY(!ui::TeachingMode::of(*m_window)->applyCommandLine(bad));
        QVERIFY(bad.parse(
            {QStringLiteral("layout-planner"), QStringLiteral("--tour-step"), QStringLiteral("zero")}));
        QVERIFY(!ui::TeachingMode::of(*m_window)->applyCommandLine(bad));
    }

    void glossarySearches() {
        teaching()->glossaryAction()->trigger();
        ui::GlossaryDialog* g = teaching()->glossary();
        QVERIFY(g->isVisible());
        QVERIFY(g->terms().size() >= 25);
        // Every term reads whole: no sideways scrolling in the list, however narrow the dialog.
        for (const QSize size : {QSize(860, 560), QSize(500, 400)}) {
            g->resize(size);
            QApplication::processEvents();
            QCOMPARE(g->list()->horizontalScrollBar()->maximum(), 0);
        }
        g->resize(860, 560);
        for (const char* id : {"tp", "pp", "dp", "cp", "zero", "fsdp", "bubble", "mfu", "hfu", "recompute"})
            QVERIFY2(!g->matching(QString::fromLatin1(id)).isEmpty(), id);
        QTest::keyClicks(g->searchField(), QStringLiteral("bubble"));
        const QStringList shown = g->matching(QStringLiteral("bubble"));
        QVERIFY(shown.contains(QStringLiteral("bubble")));
        int visible = 0;
        for (int i = 0; i < g->list()->count(); ++i)
            visible += g->list()->item(i)->isHidden() ? 0 : 1;
        QCOMPARE(visible, shown.size());
        QVERIFY(visible < g->list()->count());
        QTest::keyClick(g->searchField(), Qt::Key_Return);
        QVERIFY(shown.contains(g->currentTermId()));
        // A term that is a figure of the plan carries the core's explanation with this plan's values.
        QVERIFY(g->showTerm(QStringLiteral("mfu")));
        const QString html = g->details()->toPlainText();
        QVERIFY(html.contains(QStringLiteral("In the current plan")));
        QVERIFY(html.contains(QStringLiteral("MFU = model FLOPs per step")));
        QVERIFY(!g->showTerm(QStringLiteral("no-such-term")));
        QTest::keyClicks(g->searchField(), QStringLiteral("zzzz"));
        QVERIFY(g->details()->toPlainText().contains(QStringLiteral("No term matches")));
        g->close();
    }

    void quizChecksAnswers() {
        ui::QuizDialog quiz(doc(), 5, m_window.get());
        QVERIFY(quiz.textsLoaded());
        QCOMPARE(static_cast<int>(quiz.questions().size()),
                 2 + core::kQuestionKindCount); // seeds + each kind
        // The seed's two questions come first.
        const core::Question* q = quiz.currentQuestion();
        QVERIFY(q->seed);
        QCOMPARE(q->answer, 64.0);
        QVERIFY(quiz.questionLabel()->text().contains(QStringLiteral("TP 8 x PP 4 x DP 2")));
        QTest::keyClicks(quiz.answerEdit(), QStringLiteral("64"));
        QTest::keyClick(quiz.answerEdit(), Qt::Key_Return);
        QCOMPARE(quiz.correctCount(), 1);
        QVERIFY(quiz.feedbackLabel()->text().contains(QStringLiteral("Correct")));
        QVERIFY(quiz.explanationLabel()->text().contains(QStringLiteral("2 x 16 x 2 = 64")));
        QVERIFY(!quiz.answerEdit()->isEnabled());
        QTest::mouseClick(quiz.checkButton(), Qt::LeftButton); // Enter again: next question
        QCOMPARE(quiz.currentIndex(), 1);
        QVERIFY(quiz.currentQuestion()->seed);
        QVERIFY(!quiz.submit(QStringLiteral("140 GB"))); // the weights alone: wrong
        QVERIFY(quiz.feedbackLabel()->text().contains(QStringLiteral("Not quite")));
        QVERIFY(quiz.feedbackLabel()->text().contains(QStringLiteral("1.10 TB")));
        QCOMPARE(quiz.answeredCount(), 2);
        quiz.nextQuestion();
        // Unreadable text is not counted; the right answer is accepted for every question.
        QVERIFY(!quiz.submit(QStringLiteral("no idea")));
        QCOMPARE(quiz.answeredCount(), 2);
        while (quiz.currentIndex() + 1 < static_cast<int>(quiz.questions().size())) {
            const core::Question& current = *quiz.currentQuestion();
            QVERIFY2(quiz.submit(QString::fromStdString(core::formatAnswer(current))), current.text.c_str());
            quiz.nextQuestion();
        }
        quiz.reveal();
        QVERIFY(quiz.feedbackLabel()->text().contains(QStringLiteral("The answer is")));
        QCOMPARE(quiz.correctCount(), 1 + (core::kQuestionKindCount - 1)); // all but the revealed last
        // The questions follow the scenario on screen.
        core::Scenario renamed = doc()->scenario();
        renamed.model.name = "Classroom model";
        doc()->edit(renamed, QStringLiteral("rename"));
        quiz.nextQuestion(); // past the last: a new round
        QCOMPARE(quiz.currentIndex(), 0);
        int mentions = 0;
        for (const core::Question& question : quiz.questions())
            mentions += question.text.find("Classroom model") != std::string::npos ? 1 : 0;
        QVERIFY(mentions >= 2);
    }
};

QTEST_MAIN(TestTour)
#include "test_tour.moc"
