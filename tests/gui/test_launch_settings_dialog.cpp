// File > Export launch settings (ui/LaunchSettingsDialog): one tab per framework showing core's
// output for the scenario, notes under it, Copy to the clipboard, Save as through a file chooser.
#include "GuiTestSupport.h"
#include "core/export/LaunchExport.h"
#include "core/io/Presets.h"
#include "ui/interop/LaunchSettingsDialog.h"

#include <QClipboard>
#include <QFile>
#include <QGuiApplication>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>

using namespace lp;

class TestLaunchSettingsDialog : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;

private slots:
    void initTestCase() { test::isolateUserFolders(m_dir); }

    void showsCoresSettingsPerTab() {
        const core::Scenario s = core::defaultScenario();
        ui::LaunchSettingsDialog dialog(s);
        QCOMPARE(dialog.tabs()->count(), 3);
        QCOMPARE(dialog.tabs()->tabText(0), QStringLiteral("Megatron-LM"));
        QCOMPARE(dialog.tabs()->tabText(1), QStringLiteral("DeepSpeed"));
        QCOMPARE(dialog.tabs()->tabText(2), QStringLiteral("torchtitan"));
        for (const auto t : core::kLaunchTargets) {
            const auto expected = core::exportLaunchSettings(s, t);
            QCOMPARE(dialog.text(t), QString::fromStdString(expected.text));
            dialog.setCurrentTarget(t);
            QVERIFY(dialog.currentTarget() == t);
            auto* edit = dialog.tabs()->currentWidget()->findChild<QPlainTextEdit*>();
            QVERIFY(edit && edit->isReadOnly());
            QCOMPARE(edit->toPlainText(), QString::fromStdString(expected.text));
        }
        QVERIFY(dialog.notes(core::LaunchTarget::DeepSpeed).contains(QStringLiteral("pipeline")));
    }

    void copyPutsTheCurrentTabOnTheClipboard() {
        ui::LaunchSettingsDialog dialog(core::defaultScenario());
        dialog.setCurrentTarget(core::LaunchTarget::Torchtitan);
        QSignalSpy copied(&dialog, &ui::LaunchSettingsDialog::copied);
        QTest::mouseClick(dialog.copyButton(), Qt::LeftButton);
        QCOMPARE(copied.count(), 1);
        QCOMPARE(QGuiApplication::clipboard()->text(), dialog.text(core::LaunchTarget::Torchtitan));
    }

    void followsTheScenario() {
        ui::LaunchSettingsDialog dialog(core::defaultScenario());
        core::Scenario s = core::defaultScenario();
        s.layout.tp = 4;
        s.layout.dp = 4;
        dialog.setScenario(s);
        QVERIFY(dialog.text(core::LaunchTarget::Megatron)
                    .contains(QStringLiteral("--tensor-model-parallel-size 4\n")));
        QVERIFY(dialog.text(core::LaunchTarget::Torchtitan)
                    .contains(QStringLiteral("tensor_parallel_degree = 4\n")));
        s.layout.tp = 3; // invalid: the dialog says so
        dialog.setScenario(s);
        const auto* status = dialog.findChild<QLabel*>(QStringLiteral("launchStatus"));
        QVERIFY(status && status->text().contains(QStringLiteral("heads_not_divisible_by_tp")));
    }

    void saveWritesTheFile() {
        ui::LaunchSettingsDialog dialog(core::defaultScenario());
        dialog.setCurrentTarget(core::LaunchTarget::DeepSpeed);
        const QString path = m_dir.filePath(QStringLiteral("ds_config.json"));
        QString suggested;
        dialog.setSaveFileChooser([&](QWidget*, const QString&, const QString& s, const QString&) {
            suggested = s;
            return path;
        });
        QVERIFY(dialog.saveCurrent());
        QVERIFY(suggested.endsWith(QStringLiteral("ds_config.json")));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(file.readAll()), dialog.text(core::LaunchTarget::DeepSpeed));
        dialog.setSaveFileChooser(
            [](QWidget*, const QString&, const QString&, const QString&) { return QString(); });
        QVERIFY(!dialog.saveCurrent()); // cancelled
    }
};

QTEST_MAIN(TestLaunchSettingsDialog)
#include "test_launch_settings_dialog.moc"
