// Files through the window: Save As, Open, the round trip, recent files, a file given at start-up,
// and a malformed file that opens nothing and says what is wrong and where, in a banner.
#include "WindowTestSupport.h"
#include "core/io/Presets.h"
#include "core/io/ScenarioJson.h"
#include "ui/document/ScenarioDocument.h"
#include "ui/shell/FileController.h"
#include "ui/shell/MainWindow.h"
#include "ui/shell/Settings.h"
#include "ui/widgets/InlineBanner.h"

#include <QAction>
#include <QFile>
#include <QMenu>
#include <QUndoStack>

#include <memory>

using namespace lp;

class TestFiles : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    std::unique_ptr<ui::MainWindow> m_window;
    test::ScriptedPrompter* m_prompter = nullptr;

    ui::ScenarioDocument* doc() const { return m_window->document(); }

    void makeWindow(const QString& startupFile = {}) {
        ui::WindowOptions options;
        options.autosaveDirectory = m_dir.filePath(QStringLiteral("autosave"));
        m_window = std::make_unique<ui::MainWindow>(options);
        auto prompter = std::make_unique<test::ScriptedPrompter>();
        m_prompter = prompter.get();
        m_window->files()->setPrompter(std::move(prompter));
        m_window->startup(startupFile);
        m_window->show();
    }

    QString writeFile(const QString& name, const QByteArray& content) {
        const QString path = m_dir.filePath(name);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
            return {};
        f.write(content);
        return path;
    }

private slots:
    void initTestCase() { test::isolateUserFolders(m_dir); }
    void init() {
        QSettings().clear();
        makeWindow();
    }
    void cleanup() { test::closeTestWindow(m_window); }

    void saveAsThenOpenRoundTrip() {
        doc()->setLayoutValue(core::LayoutAxis::Tp, 4);
        doc()->setLayoutValue(core::LayoutAxis::MicroBatch, 1);
        // Before it has a file the window goes by the scenario's name, and follows a new one.
        QVERIFY(m_window->windowTitle().startsWith(
            QString::fromStdString(core::scenarioName(doc()->scenario()))));
        core::Scenario named = doc()->scenario();
        named.name = "My 70B plan";
        doc()->edit(named, QStringLiteral("name"));
        QVERIFY(m_window->windowTitle().startsWith(QStringLiteral("My 70B plan")));
        const core::Scenario edited = doc()->scenario();
        const QString path = m_dir.filePath(QStringLiteral("saved.json"));
        m_prompter->saveFiles = {path};
        QVERIFY(m_window->files()->save()); // no file yet: asks for one
        QCOMPARE(m_prompter->asked, QStringList{QStringLiteral("save-as")});
        QVERIFY(!doc()->isModified());
        QVERIFY(m_window->windowTitle().startsWith(QStringLiteral("saved.json")));
        QVERIFY(QFile::exists(path));
        QVERIFY(!QFile::exists(path + QStringLiteral(".tmp")));
        QCOMPARE(m_window->settings()->recentFiles().value(0), path);

        QVERIFY(m_window->files()->newScenario());
        QVERIFY(doc()->scenario() == core::defaultScenario());
        m_prompter->openFiles = {path};
        QVERIFY(m_window->files()->open());
        QVERIFY(doc()->scenario() == edited);
        QCOMPARE(doc()->filePath(), path);
        QVERIFY(!doc()->isModified());
        QVERIFY(!m_window->fileBanner()->isVisible());

        // Save again goes to the same file without asking.
        doc()->setLayoutValue(core::LayoutAxis::Accumulation, 8);
        m_prompter->asked.clear();
        QVERIFY(m_window->files()->save());
        QVERIFY(m_prompter->asked.isEmpty());
        auto reread = core::loadScenarioFile(path.toStdString());
        QVERIFY(reread.has_value());
        QCOMPARE(reread->layout.accumulation, 8);
    }

    void recentFilesMenuOpensTheFile() {
        const QString path = m_dir.filePath(QStringLiteral("recent.json"));
        doc()->setLayoutValue(core::LayoutAxis::Pp, 8);
        QVERIFY(m_window->files()->saveTo(path));
        QVERIFY(m_window->files()->newScenario());
        QMenu* recent = m_window->files()->recentMenu();
        QAction* first = recent->actions().value(0);
        QVERIFY(first);
        QVERIFY(first->text().contains(QStringLiteral("recent.json")));
        first->trigger();
        QCOMPARE(doc()->scenario().layout.pp, 8);
        QCOMPARE(doc()->filePath(), path);
    }

    void malformedFileOpensNothingAndSaysWhere() {
        doc()->setLayoutValue(core::LayoutAxis::Tp, 4);
        const core::Scenario before = doc()->scenario();
        QByteArray json = QByteArray::fromStdString(core::scenarioToJson(core::defaultScenario()));
        json.replace("\"layers\": 80", "\"layers\": \"eighty\"");
        const QString bad = writeFile(QStringLiteral("wrong-type.json"), json);
        m_prompter->saveChoices = {ui::Prompter::SaveChoice::Discard};
        m_prompter->openFiles = {bad};
        QVERIFY(!m_window->files()->open());
        QVERIFY(doc()->scenario() == before);
        QVERIFY(m_window->fileBanner()->isVisible());
        QCOMPARE(m_window->fileBanner()->kind(), ui::InlineBanner::Kind::Error);
        QVERIFY(m_window->fileBanner()->title().contains(QStringLiteral("wrong-type.json")));
        QVERIFY2(m_window->fileBanner()->details().contains(QStringLiteral("layers")),
                 qPrintable(m_window->fileBanner()->details()));

        const QString broken = writeFile(QStringLiteral("broken.json"),
                                         "{\n  \"schema\": \"layout-planner/scenario\",\n  oops\n}\n");
        QVERIFY(!m_window->files()->loadPath(broken));
        QVERIFY(m_window->fileBanner()->details().contains(QStringLiteral("line 3")));
        QVERIFY(doc()->scenario() == before);

        QVERIFY(!m_window->files()->loadPath(m_dir.filePath(QStringLiteral("missing.json"))));
        QVERIFY(m_window->fileBanner()->isVisible());
        QVERIFY(doc()->scenario() == before);
    }

    void badSettingsAreReportedAndReset() {
        cleanup();
        QSettings().setValue(QStringLiteral("view/memoryUnit"), QStringLiteral("furlongs"));
        makeWindow();
        QCOMPARE(m_window->settings()->memoryUnit(), ui::MemoryUnit::GiB);
        QVERIFY(m_window->fileBanner()->isVisible());
        QCOMPARE(m_window->fileBanner()->kind(), ui::InlineBanner::Kind::Warning);
        QVERIFY(m_window->fileBanner()->details().contains(QStringLiteral("furlongs")));
    }

    // The banner shows rich text: a value from the settings file reaches it escaped, never as markup.
    void badSettingValueReachesTheBannerEscaped() {
        cleanup();
        QSettings().setValue(QStringLiteral("view/memoryUnit"), QStringLiteral("<b>GB</b><img src=x>"));
        makeWindow();
        QCOMPARE(m_window->settings()->memoryUnit(), ui::MemoryUnit::GiB);
        const QString details = m_window->fileBanner()->details();
        QVERIFY(details.contains(QStringLiteral("&lt;b&gt;GB&lt;/b&gt;&lt;img src=x&gt;")));
        QVERIFY(!details.contains(QStringLiteral("<b>")));
        QVERIFY(!details.contains(QStringLiteral("<img")));
    }

    void fileGivenAtStartupIsOpened() {
        doc()->setLayoutValue(core::LayoutAxis::Tp, 2);
        const QString path = m_dir.filePath(QStringLiteral("startup.json"));
        QVERIFY(m_window->files()->saveTo(path));
        const core::Scenario saved = doc()->scenario();
        cleanup();
        makeWindow(path);
        QVERIFY(doc()->scenario() == saved);
        QCOMPARE(doc()->filePath(), path);
        cleanup();
        // Without a file, the last scenario is reopened.
        makeWindow();
        QCOMPARE(doc()->filePath(), path);
        cleanup();
        // A malformed start-up file leaves the default scenario and says so.
        const QString bad = writeFile(QStringLiteral("startup-bad.json"), "not json");
        makeWindow(bad);
        QVERIFY(doc()->scenario() == core::defaultScenario());
        QVERIFY(m_window->fileBanner()->isVisible());
    }
};

QTEST_MAIN(TestFiles)
#include "test_files.moc"
