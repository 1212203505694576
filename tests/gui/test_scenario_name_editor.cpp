// The scenario's name and notes in the window: the name follows the model and GPU until the user writes
// one (Save As suggests it, the report is titled by it), and the Name field and Notes dialog edit them
// through the undo stack.
#include "WindowTestSupport.h"
#include "core/model/Scenario.h"
#include "core/report/Report.h"

#include <QApplication>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTimer>
#include <QToolButton>

using namespace lp;

namespace {

// Records the file name Save As suggests, and cancels.
class SuggestionPrompter : public test::ScriptedPrompter {
public:
    QString suggested;
    QString askSaveFile(QWidget*, const QString& proposal) override {
        suggested = proposal;
        return {};
    }
};

void choose(QComboBox* combo, const QString& text) {
    const int index = combo->findText(text, Qt::MatchStartsWith);
    QVERIFY2(index >= 0, qPrintable(text));
    combo->setFocus();
    combo->setCurrentIndex(index);
    emit combo->activated(index);
}

} // namespace

class TestScenarioNameEditor : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    std::unique_ptr<ui::MainWindow> m_window;
    SuggestionPrompter* m_prompter = nullptr;

    ui::ScenarioDocument* doc() const { return m_window->document(); }
    template <typename T> T* find(const char* name) const {
        auto* w = m_window->findChild<T*>(QString::fromLatin1(name));
        if (!w)
            qFatal("no %s", name);
        return w;
    }
    QString suggestedSaveName() {
        m_window->files()->saveAs();
        return QFileInfo(m_prompter->suggested).fileName();
    }

private slots:
    void initTestCase() { test::isolateUserFolders(m_dir); }
    void init() {
        m_window = test::openTestWindow(m_dir);
        auto prompter = std::make_unique<SuggestionPrompter>();
        m_prompter = prompter.get();
        m_window->files()->setPrompter(std::move(prompter));
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    }
    void cleanup() { test::closeTestWindow(m_window); }

    void nameFollowsModelAndGpu() {
        choose(find<QComboBox>("modelPreset"), QStringLiteral("DeepSeek-V3"));
        choose(find<QComboBox>("gpuPreset"), QStringLiteral("NVIDIA H200"));
        QCOMPARE(suggestedSaveName(), QStringLiteral("DeepSeek-V3 on 64 H200.json"));
        const core::ReportInput report = core::makeReport(doc()->scenario());
        QCOMPARE(QString::fromStdString(report.title),
                 QStringLiteral("Layout report: DeepSeek-V3 on 64 H200"));
        const std::string html = core::renderReport(report, core::ReportFormat::Html);
        QVERIFY(html.find("<p><b>DeepSeek-V3 on 64 H200</b></p>") != std::string::npos);
        QVERIFY(html.find("on 64 H100") == std::string::npos);
        QVERIFY(find<QLineEdit>("scenarioName")->text().isEmpty());
        QCOMPARE(find<QLineEdit>("scenarioName")->placeholderText(),
                 QStringLiteral("DeepSeek-V3 on 64 H200"));
    }

    void typedNameIsKeptAndUndoable() {
        auto* name = find<QLineEdit>("scenarioName");
        name->setFocus();
        QTest::keyClicks(name, QStringLiteral("Capacity study"));
        QTest::keyClick(name, Qt::Key_Return);
        QCOMPARE(core::scenarioName(doc()->scenario()), std::string("Capacity study"));
        choose(find<QComboBox>("modelPreset"), QStringLiteral("DeepSeek-V3"));
        QCOMPARE(suggestedSaveName(), QStringLiteral("Capacity study.json"));
        QCOMPARE(name->text(), QStringLiteral("Capacity study"));
        doc()->undoStack()->undo(); // the model
        doc()->undoStack()->undo(); // the name
        QVERIFY(!doc()->scenario().name.has_value());
        QVERIFY(name->text().isEmpty());
        doc()->undoStack()->redo();
        QCOMPARE(name->text(), QStringLiteral("Capacity study"));
        // Clearing the field returns to the automatic name.
        name->setFocus();
        name->selectAll();
        QTest::keyClick(name, Qt::Key_Delete);
        QTest::keyClick(name, Qt::Key_Return);
        QVERIFY(!doc()->scenario().name.has_value());
    }

    void notesDialogEditsTheNotes() {
        bool answered = false;
        QTimer::singleShot(0, this, [&] {
            auto* dialog = qobject_cast<QDialog*>(QApplication::activeModalWidget());
            QVERIFY(dialog);
            auto* text = dialog->findChild<QPlainTextEdit*>(QStringLiteral("scenarioNotesText"));
            QVERIFY(text);
            QVERIFY(text->toPlainText().isEmpty()); // the seed's notes are not carried
            QTest::keyClicks(text, QStringLiteral("Budget: 2 weeks."));
            dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->click();
            answered = true;
        });
        QTest::mouseClick(find<QToolButton>("scenarioNotes"), Qt::LeftButton);
        QVERIFY(answered);
        QCOMPARE(doc()->scenario().notes, std::string("Budget: 2 weeks."));
        doc()->undoStack()->undo();
        QVERIFY(doc()->scenario().notes.empty());
    }
};

QTEST_MAIN(TestScenarioNameEditor)
#include "test_scenario_name_editor.moc"
