// The File menu's exchanges with other tools: the export and import entries, the tool bar's Export,
// and the Hugging Face import (menu and drop share importHfConfig).
#include "GuiTestSupport.h"
#include "ui/document/ScenarioDocument.h"
#include "ui/shell/ExportImportActions.h"
#include "ui/shell/MainWindow.h"
#include "ui/shell/WindowMenus.h"
#include "ui/widgets/InlineBanner.h"

#include <QApplication>
#include <QFileDialog>
#include <QMenu>
#include <QTimer>
#include <QToolBar>
#include <QUndoStack>
#include <QtTest>

using namespace lp;

class TestInterop : public QObject {
    Q_OBJECT

private:
    static ui::WindowOptions quiet() {
        ui::WindowOptions options;
        options.persistentSettings = false;
        options.autosave = false;
        return options;
    }
    static QString data(const char* name) {
        return QStringLiteral(LP_TEST_DATA_DIR "/hf/") + QLatin1String(name);
    }

private slots:
    void fileMenuHasTheExportAndImportEntries() {
        ui::MainWindow w(quiet());
        ui::installExportImportActions(w);
        QStringList texts;
        for (QAction* item : w.menus()->fileMenu()->actions())
            texts << item->text().remove(QLatin1Char('&'));
        QCOMPARE(texts.last(), QStringLiteral("Quit")); // Quit stays last, after a separator
        QCOMPARE(texts.mid(texts.size() - 5, 3),
                 QStringList({QStringLiteral("Export report..."), QStringLiteral("Export launch settings..."),
                              QStringLiteral("Import Hugging Face config...")}));
        QVERIFY(w.acceptDrops());
    }

    // The tool bar's Export opens the same "Export report" dialog as the menu.
    void theToolBarsExportOpensTheReportDialog() {
        ui::MainWindow w(quiet());
        ui::installExportImportActions(w);
        w.show();
        auto* bar = w.findChild<QToolBar*>(QStringLiteral("mainToolBar"));
        QVERIFY(bar);
        QAction* exportButton = nullptr;
        for (QAction* a : bar->actions())
            if (a->objectName() == QLatin1String("exportAction"))
                exportButton = a;
        QVERIFY(exportButton);
        QVERIFY(bar->widgetForAction(exportButton)->isVisible());
        QString seen;
        QTimer closer; // polls until the modal dialog is up (a loaded machine may take a while to show it)
        closer.setInterval(50);
        connect(&closer, &QTimer::timeout, this, [&seen, &closer] {
            if (auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget())) {
                seen = dialog->windowTitle();
                closer.stop();
                dialog->reject(); // the export is cancelled: nothing is written
            }
        });
        closer.start();
        exportButton->trigger();
        QCOMPARE(seen, QStringLiteral("Export report"));
    }

    void importingAConfigReplacesTheModelAndCanBeUndone() {
        ui::MainWindow w(quiet());
        ui::ScenarioDocument& doc = *w.document();
        ui::installExportImportActions(w);
        const core::ModelSpec before = doc.scenario().model;
        QVERIFY(ui::importHfConfig(w, data("llama-3.1-8b.json")));
        QCOMPARE(doc.scenario().model.layers, 32);
        QCOMPARE(doc.scenario().model.hidden, 4096);
        QCOMPARE(doc.scenario().model.kvHeads, 8);
        QCOMPARE(doc.scenario().model.vocab, 128256);
        doc.undoStack()->undo();
        QVERIFY(doc.scenario().model == before);
    }

    void aBadConfigChangesNothingAndSaysWhy() {
        ui::MainWindow w(quiet());
        ui::ScenarioDocument& doc = *w.document();
        ui::installExportImportActions(w);
        const core::Scenario before = doc.scenario();
        QVERIFY(!ui::importHfConfig(w, data("bad/no-model-type.json")));
        QVERIFY(doc.scenario() == before);
        QVERIFY(!w.layoutBanner()->isHidden());
    }
};

QTEST_MAIN(TestInterop)
#include "test_interop.moc"
