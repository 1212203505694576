// Autosave: unsaved changes are written to the data folder; a session that ends without closing
// (a crash, simulated by never closing the window) leaves the file, and the next start offers to
// restore it in a banner. A clean close or a save removes it.
#include "GuiTestSupport.h"
#include "core/io/Presets.h"
#include "core/io/ScenarioJson.h"
#include "ui/document/ScenarioDocument.h"
#include "ui/shell/Autosave.h"
#include "ui/shell/FileController.h"
#include "ui/shell/MainWindow.h"
#include "ui/widgets/InlineBanner.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QPushButton>
#include <QUndoStack>

#include <memory>

using namespace lp;

class TestAutosave : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;

    std::unique_ptr<ui::MainWindow> makeWindow() {
        ui::WindowOptions options;
        options.autosaveDirectory = m_dir.filePath(QStringLiteral("autosave"));
        auto w = std::make_unique<ui::MainWindow>(options);
        w->files()->setPrompter(std::make_unique<test::ScriptedPrompter>());
        w->autosave()->setIntervalMs(50);
        w->startup();
        return w;
    }

    // Simulates a crash: the window goes away without closeEvent (no clean-up of the autosave).
    static void crash(std::unique_ptr<ui::MainWindow>& w) { w.reset(); }

private slots:
    void initTestCase() { test::isolateUserFolders(m_dir); }
    void init() {
        QSettings().clear();
        QFile::remove(m_dir.filePath(QStringLiteral("autosave/autosave.json")));
    }

    void restoreAfterACrash() {
        auto w = makeWindow();
        QVERIFY(!w->restoreBanner()->isVisible());
        w->document()->setLayoutValue(core::LayoutAxis::Tp, 4);
        w->document()->setLayoutValue(core::LayoutAxis::Accumulation, 32);
        const core::Scenario edited = w->document()->scenario();
        const QString file = w->autosave()->filePath();
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(file), 3000); // the timer wrote it
        crash(w);

        auto next = makeWindow();
        QVERIFY(next->restoreBanner()->isVisibleTo(next.get()));
        QVERIFY(next->restoreBanner()->title().contains(QStringLiteral("did not close normally")));
        QVERIFY(next->document()->scenario() == core::defaultScenario());
        // Edits before answering do not overwrite the old autosave.
        next->document()->setLayoutValue(core::LayoutAxis::Pp, 8);
        QTest::qWait(150);
        auto* restore = next->restoreBanner()->findChild<QPushButton*>(QStringLiteral("restore"));
        QVERIFY(restore);
        restore->click();
        QVERIFY(next->document()->scenario() == edited);
        QVERIFY(next->document()->isModified());
        // No file yet: the window is titled by the scenario's name.
        QVERIFY(next->windowTitle().startsWith(QString::fromStdString(core::scenarioName(edited))));
        QVERIFY(!next->restoreBanner()->isVisible());
        QVERIFY(QFile::exists(file)); // still protected until saved or closed cleanly

        // A clean close (changes discarded when asked) removes it, and the next start offers nothing.
        auto* prompter = static_cast<test::ScriptedPrompter*>(next->files()->prompter());
        prompter->saveChoices = {ui::Prompter::SaveChoice::Discard};
        QVERIFY(next->close());
        QCOMPARE(prompter->asked.size(), 1);
        QVERIFY(!QFile::exists(file));
        next.reset();
        auto third = makeWindow();
        QVERIFY(!third->restoreBanner()->isVisibleTo(third.get()));
    }

    void discardRemovesTheAutosave() {
        auto w = makeWindow();
        w->document()->setLayoutValue(core::LayoutAxis::Tp, 2);
        QVERIFY(w->autosave()->saveNow());
        const QString file = w->autosave()->filePath();
        crash(w);
        auto next = makeWindow();
        auto* discard = next->restoreBanner()->findChild<QPushButton*>(QStringLiteral("discard"));
        QVERIFY(discard);
        discard->click();
        QVERIFY(!QFile::exists(file));
        QVERIFY(next->document()->scenario() == core::defaultScenario());
    }

    void savingRemovesTheAutosave() {
        auto w = makeWindow();
        w->document()->setLayoutValue(core::LayoutAxis::Tp, 2);
        QVERIFY(w->autosave()->saveNow());
        QVERIFY(QFile::exists(w->autosave()->filePath()));
        QVERIFY(w->files()->saveTo(m_dir.filePath(QStringLiteral("saved.json"))));
        QVERIFY(!QFile::exists(w->autosave()->filePath()));
        crash(w);
        auto next = makeWindow();
        QVERIFY(!next->restoreBanner()->isVisibleTo(next.get()));
    }

    void aSecondWindowDoesNotTakeTheFirstOnesAutosave() {
        auto first = makeWindow();
        QVERIFY(first->autosave()->isPrimary());
        first->document()->setLayoutValue(core::LayoutAxis::Tp, 4);
        QVERIFY(first->autosave()->saveNow());
        auto second = makeWindow(); // while the first one runs
        QVERIFY(!second->autosave()->isPrimary());
        QVERIFY(!second->restoreBanner()->isVisibleTo(second.get()));
        QVERIFY(second->autosave()->filePath() != first->autosave()->filePath());
        second->document()->setLayoutValue(core::LayoutAxis::Tp, 2);
        QVERIFY(second->autosave()->saveNow());
        QVERIFY(QFile::exists(first->autosave()->filePath()));
        second->autosave()->discard();
        second.reset();
        crash(first);
        auto third = makeWindow();
        QVERIFY(third->autosave()->isPrimary());
        QVERIFY(third->restoreBanner()->isVisibleTo(third.get()));
        third->autosave()->discard();
    }

    void aKilledProcessLeavesTheAutosaveToRestore() {
#ifdef LP_APP_PATH
        // A real window process holds the autosave lock; kill -9 leaves it behind, stale.
        const QString dataHome = m_dir.filePath(QStringLiteral("xdg-data"));
        const QString appData = dataHome + QStringLiteral("/LayoutPlanner/layout-planner");
        QProcess app;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_DATA_HOME"), dataHome);
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_dir.filePath(QStringLiteral("xdg-config")));
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        app.setProcessEnvironment(env);
        app.start(QStringLiteral(LP_APP_PATH), {});
        QVERIFY(app.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(appData + QStringLiteral("/autosave.lock")), 10000);
        {
            // While it runs, a second window is not the primary one.
            ui::ScenarioDocument doc;
            ui::Autosave running(&doc, appData);
            QVERIFY(!running.isPrimary());
        }
        // What the killed session had autosaved.
        {
            ui::ScenarioDocument doc;
            doc.setLayoutValue(core::LayoutAxis::Pp, 8);
            QJsonObject envelope;
            envelope.insert(QStringLiteral("scenario"),
                            QString::fromStdString(core::scenarioToJson(doc.scenario())));
            QFile f(appData + QStringLiteral("/autosave.json"));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QJsonDocument(envelope).toJson());
        }
        app.kill();
        QVERIFY(app.waitForFinished());
        QVERIFY(QFile::exists(appData + QStringLiteral("/autosave.lock")));
        ui::ScenarioDocument doc;
        ui::Autosave next(&doc, appData);
        QVERIFY(next.isPrimary());
        const auto snapshot = next.pending();
        QVERIFY(snapshot.has_value());
        QCOMPARE(snapshot->scenario.layout.pp, 8);
        next.discard();
#else
        QSKIP("built without the layout-planner executable");
#endif
    }

    void unreadableAutosaveIsIgnored() {
        QDir().mkpath(m_dir.filePath(QStringLiteral("autosave")));
        QFile f(m_dir.filePath(QStringLiteral("autosave/autosave.json")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("garbage");
        f.close();
        auto w = makeWindow();
        QVERIFY(!w->restoreBanner()->isVisibleTo(w.get()));
        QVERIFY(!QFile::exists(f.fileName()));
    }
};

QTEST_MAIN(TestAutosave)
#include "test_autosave.moc"
