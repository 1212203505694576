// Habits of a desktop app, driven in the real window: Ctrl+Z after a committed edit, the Accumulation
// slider's track, the wheel over the scenario panel, the grouped model list, exports in the format chosen,
// file dialogs in the last folder, and a Hugging Face config opened as a scenario.
#include "WindowTestSupport.h"
#include "core/io/HfImport.h"
#include "core/io/Presets.h"
#include "core/report/Report.h"
#include "core/search/LayoutSteps.h"
#include "ui/scenario/LayoutSliders.h"
#include "ui/scenario/ScenarioPanel.h"
#include "ui/shell/Settings.h"
#include "ui/shell/WindowMenus.h"
#include "ui/widgets/InlineBanner.h"
#include "ui/widgets/RejectedInput.h"
#include "ui/widgets/StepControl.h"
#include "ui/widgets/WheelGuard.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QScrollBar>
#include <QSlider>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QStatusBar>
#include <QWheelEvent>

#include <memory>

using namespace lp;
using core::LayoutAxis;

class TestDesktopHabits : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    std::unique_ptr<ui::MainWindow> m_window;
    test::ScriptedPrompter* m_prompter = nullptr;

    ui::ScenarioDocument* doc() const { return m_window->document(); }
    ui::StepControl* control(LayoutAxis a) const {
        return m_window->scenarioPanel()->layoutSliders()->control(a);
    }
    QAction* fileAction(const QString& text) const {
        for (QAction* a : m_window->menus()->fileMenu()->actions())
            if (a->text() == text)
                return a;
        return nullptr;
    }
    QPushButton* bannerButton(const QString& text) const {
        for (QPushButton* b : m_window->fileBanner()->findChildren<QPushButton*>())
            if (b->text() == text && b->isVisible())
                return b;
        return nullptr;
    }
    static QString hfConfig() { return QStringLiteral(LP_TEST_DATA_DIR "/hf/llama-2-7b.json"); }

private slots:
    void initTestCase() { test::isolateUserFolders(m_dir); }

    void init() {
        m_window = test::openExploreWindow();
        m_prompter = static_cast<test::ScriptedPrompter*>(m_window->files()->prompter());
        m_window->settings()->setLastDirectory(m_dir.path());
        m_window->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
    }

    void cleanup() { test::closeTestWindow(m_window); }

    void ctrlZAfterEnterInASpinBoxUndoesTheEdit() {
        QSpinBox* spin = control(LayoutAxis::Accumulation)->spinBox();
        const int before = spin->value();
        spin->setFocus();
        spin->selectAll();
        QTest::keyClicks(spin, QStringLiteral("4"));
        QTest::keyClick(spin, Qt::Key_Return);
        QCOMPARE(doc()->scenario().layout.accumulation, 4);
        QTest::keySequence(spin, QKeySequence::Undo);
        QCOMPARE(doc()->scenario().layout.accumulation, before);
        QCOMPARE(spin->value(), before);
        QTest::keySequence(spin, QKeySequence::Redo);
        QCOMPARE(doc()->scenario().layout.accumulation, 4);
    }

    void ctrlZWhileTypingStaysInTheField() {
        QSpinBox* spin = control(LayoutAxis::Accumulation)->spinBox();
        const int before = spin->value();
        const int undoIndex = doc()->undoStack()->index();
        spin->setFocus();
        spin->selectAll();
        QTest::keyClicks(spin, QStringLiteral("3"));
        QTest::keySequence(spin, QKeySequence::Undo); // the typing, not the scenario
        QCOMPARE(doc()->undoStack()->index(), undoIndex);
        QCOMPARE(spin->text(), QString::number(before));
    }

    // A typed value a field refuses (beyond its range) keeps the field's value and says so: the field, what
    // was typed, what it takes and what it keeps, in the status bar.
    void aRefusedTypedValueIsExplained() {
        QDoubleSpinBox* budget = nullptr;
        for (QDoubleSpinBox* spin : m_window->findChildren<QDoubleSpinBox*>())
            if (spin->accessibleName() == QStringLiteral("Token budget"))
                budget = spin;
        QVERIFY(budget);
        const double before = doc()->scenario().training.tokenBudget;
        budget->setFocus();
        budget->selectAll();
        QTest::keyClicks(budget, QStringLiteral("0"));
        QTest::keyClick(budget, Qt::Key_Return);
        QCOMPARE(doc()->scenario().training.tokenBudget, before);
        QCOMPARE(
            m_window->statusBar()->currentMessage(),
            QStringLiteral("Token budget: 0 is outside 1 to 1,000,000 B tokens; it stays 2,000 B tokens."));
        // The message is on screen: the profile's label, which fills the bar, gives way to it.
        QVERIFY(!m_window->statusLabel(0)->isVisible());

        QSpinBox* acc = control(LayoutAxis::Accumulation)->spinBox();
        const int accBefore = acc->value();
        acc->setFocus();
        acc->selectAll();
        QTest::keyClicks(acc, QStringLiteral("0"));
        QTest::keyClick(acc, Qt::Key_Return);
        QCOMPARE(acc->value(), accBefore);
        QCOMPARE(m_window->statusBar()->currentMessage(),
                 QStringLiteral("Accumulation: 0 is outside 1 to 4,096; it stays 16."));

        // An accepted value says nothing new.
        m_window->statusBar()->clearMessage();
        acc->selectAll();
        QTest::keyClicks(acc, QStringLiteral("8"));
        QTest::keyClick(acc, Qt::Key_Return);
        QCOMPARE(doc()->scenario().layout.accumulation, 8);
        QVERIFY(m_window->statusBar()->currentMessage().isEmpty());
        QVERIFY(m_window->statusLabel(0)->isVisible());
        QCOMPARE(ui::rejectedInputMessage(QStringLiteral("Nodes"), QStringLiteral("x"), false,
                                          QStringLiteral("1"), QStringLiteral("100,000"),
                                          QStringLiteral("8")),
                 QStringLiteral("Nodes: \"x\" is not a number; it stays 8."));
    }

    // A long name set from elsewhere (a preset, a file, undo) shows its beginning in its field, not its end.
    void aLongNameShowsItsBeginning() {
        core::Scenario s = doc()->scenario();
        s.name = "A scenario whose name is far longer than its field is wide, so only a part of it shows";
        s.model.name = "A model whose name is far longer than its field is wide, so only a part of it shows";
        doc()->edit(s, QStringLiteral("names"));
        int checked = 0;
        for (QLineEdit* edit : m_window->scenarioPanel()->findChildren<QLineEdit*>()) {
            if (edit->text() != QString::fromStdString(*s.name) &&
                edit->text() != QString::fromStdString(s.model.name))
                continue;
            QVERIFY(!edit->hasFocus());
            QCOMPARE(edit->cursorPosition(), 0);
            ++checked;
        }
        QCOMPARE(checked, 2);
    }

    void aClickOnTheAccumulationTrackMovesOneNotch() {
        ui::StepControl* acc = control(LayoutAxis::Accumulation);
        core::Scenario s = doc()->scenario();
        s.layout.accumulation = 1;
        doc()->edit(s, QStringLiteral("accumulation 1"));
        QSlider* slider = acc->slider();
        QCOMPARE(slider->value(), 0);
        QTest::mouseClick(slider, Qt::LeftButton, {}, QPoint(slider->width() - 4, slider->height() / 2));
        QCOMPARE(slider->value(), 1);
        QCOMPARE(doc()->scenario().layout.accumulation, acc->steps().at(1));
    }

    // A wheel notch over a field the pointer passes while scrolling the scenario panel scrolls the panel and
    // leaves the field alone; once the field has the focus, the wheel steps it as before.
    void theWheelScrollsThePanelPastItsFields() {
        m_window->resize(1280, 720);
        ui::ScenarioPanel* panel = m_window->scenarioPanel();
        QScrollBar* bar = panel->verticalScrollBar();
        QTRY_VERIFY(bar->maximum() > 0); // the panel scrolls at laptop size
        bar->setValue(0);
        auto* combo = panel->findChild<QComboBox*>(QStringLiteral("modelPreset"));
        QVERIFY(combo);
        QVERIFY(!combo->hasFocus());
        QCOMPARE(combo->focusPolicy(), Qt::StrongFocus); // a wheel does not hand it the focus
        const int index = combo->currentIndex();
        const std::string model = doc()->scenario().model.name;
        auto notchDown = [](QWidget* w) {
            const QPoint at(w->width() / 2, w->height() / 2);
            QWheelEvent wheel(at, w->mapToGlobal(at), QPoint(), QPoint(0, -120), Qt::NoButton, Qt::NoModifier,
                              Qt::NoScrollPhase, false);
            QApplication::sendEvent(w, &wheel);
        };
        notchDown(combo);
        QCOMPARE(combo->currentIndex(), index);
        QCOMPARE(doc()->scenario().model.name, model);
        QVERIFY(bar->value() > 0);

        QSpinBox* spin = control(LayoutAxis::Accumulation)->spinBox();
        const int accumulation = doc()->scenario().layout.accumulation;
        notchDown(spin);
        QCOMPARE(doc()->scenario().layout.accumulation, accumulation);

        QSlider* slider = control(LayoutAxis::Accumulation)->slider();
        QVERIFY(ui::isWheelGuarded(slider));
        QVERIFY(!ui::isWheelGuarded(bar)); // the panel's own scroll bar keeps the wheel

        spin->setFocus();
        QTRY_VERIFY(spin->hasFocus());
        notchDown(spin);
        QVERIFY(spin->value() != accumulation); // a focused field steps
    }

    void theModelListIsGroupedAndSortedWithSizes() {
        auto* combo = m_window->scenarioPanel()->findChild<QComboBox*>(QStringLiteral("modelPreset"));
        QVERIFY(combo);
        auto* items = qobject_cast<QStandardItemModel*>(combo->model());
        QVERIFY(items);
        QStringList expected;
        for (const core::ModelPresetGroup& group : core::modelPresetGroups()) {
            expected << QString::fromStdString(group.title);
            for (const core::ModelPreset* p : group.presets)
                expected << QString::fromStdString(core::modelPresetLabel(*p));
        }
        expected << QStringLiteral("Custom");
        QStringList shown;
        for (int i = 0; i < combo->count(); ++i)
            shown << combo->itemText(i);
        QCOMPARE(shown, expected);
        QVERIFY(!(items->item(0)->flags() & Qt::ItemIsEnabled)); // "Dense models" is a heading
        QVERIFY(shown.contains(QStringLiteral("Llama-3.1-8B \u00b7 8.0 B")));
        QCOMPARE(combo->currentData().toString(), QStringLiteral("seed-70b"));
    }

    void exportWritesTheFormatChosenAndOffersToOpenIt() {
        QAction* exportReport = fileAction(QStringLiteral("&Export report..."));
        QVERIFY(exportReport);
        // Typed "plan.html" with PDF chosen: a PDF named plan.pdf.
        m_prompter->exportFiles = {{m_dir.filePath(QStringLiteral("plan.html")), 0}};
        exportReport->trigger();
        QCOMPARE(m_prompter->asked.last(),
                 QStringLiteral("export:%1 as PDF (*.pdf)")
                     .arg(m_dir.filePath(
                         QString::fromStdString(core::reportFileStem(m_window->document()->scenario())) +
                         QStringLiteral(".pdf"))));
        QFile pdf(m_dir.filePath(QStringLiteral("plan.pdf")));
        QVERIFY(pdf.open(QIODevice::ReadOnly));
        QVERIFY(pdf.read(5).startsWith("%PDF"));
        QVERIFY(!QFile::exists(m_dir.filePath(QStringLiteral("plan.html"))));
        QVERIFY(m_window->fileBanner()->isVisible());
        QVERIFY(m_window->fileBanner()->title().contains(QStringLiteral("plan.pdf")));
        QTRY_VERIFY(bannerButton(QStringLiteral("&Open")));
        QVERIFY(bannerButton(QStringLiteral("Open &folder")));
        QVERIFY(m_window->statusBar()->currentMessage().contains(QStringLiteral("plan.pdf")));
        // Markdown, no extension typed.
        m_prompter->exportFiles = {{m_dir.filePath(QStringLiteral("notes")), 2}};
        exportReport->trigger();
        QFile md(m_dir.filePath(QStringLiteral("notes.md")));
        QVERIFY(md.open(QIODevice::ReadOnly));
        QVERIFY(md.read(1) == "#");
    }

    void importStartsInTheLastFolderAndRemembersIt() {
        QAction* import = fileAction(QStringLiteral("&Import Hugging Face config..."));
        QVERIFY(import);
        m_prompter->importFiles = {hfConfig()};
        import->trigger();
        QCOMPARE(m_prompter->asked.last(), QStringLiteral("import:") + m_dir.path());
        QCOMPARE(m_window->settings()->lastDirectory(), QFileInfo(hfConfig()).absolutePath());
        import->trigger(); // cancelled
        QCOMPARE(m_prompter->asked.last(), QStringLiteral("import:") + QFileInfo(hfConfig()).absolutePath());
    }

    void openingAHuggingFaceConfigOffersToImportIt() {
        m_prompter->openFiles = {hfConfig()};
        QVERIFY(!m_window->files()->open());
        ui::InlineBanner* banner = m_window->fileBanner();
        QVERIFY(banner->isVisible());
        QCOMPARE(banner->kind(), ui::InlineBanner::Kind::Info);
        QCOMPARE(banner->title(), QString::fromStdString(core::hfConfigNotScenarioText("llama-2-7b.json")));
        QTRY_VERIFY(bannerButton(QStringLiteral("&Import model")));
        QPushButton* import = bannerButton(QStringLiteral("&Import model"));
        QTest::mouseClick(import, Qt::LeftButton);
        QCOMPARE(doc()->scenario().model.hidden, 4096);
        QCOMPARE(doc()->scenario().model.layers, 32);
    }
};

QTEST_MAIN(TestDesktopHabits)
#include "test_desktop_habits.moc"
