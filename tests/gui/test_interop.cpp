// The window's reports and interoperability entries (issue 6): File menu actions, Hugging Face
// import (menu and drop share importHfConfigInto), and the Measured run tab.
#include "GuiTestSupport.h"
#include "ui/document/ScenarioDocument.h"
#include "ui/shell/InteropWiring.h"
#include "ui/shell/MainWindow.h"
#include "ui/widgets/InlineBanner.h"

#include <QApplication>
#include <QFileDialog>
#include <QMenu>
#include <QMenuBar>
#include <QTabWidget>
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
        ui::installInterop(w, *w.document());
        QStringList texts;
        for (QAction* a : w.menuBar()->actions())
            if (a->menu() && a->text().remove(QLatin1Char('&')) == QStringLiteral("File"))
                for (QAction* item : a->menu()->actions())
                    texts << item->text().remove(QLatin1Char('&'));
        QVERIFY(texts.contains(QStringLiteral("Export report...")));
        QVERIFY(texts.contains(QStringLiteral("Export launch settings...")));
        QVERIFY(texts.contains(QStringLiteral("Import Hugging Face config...")));
        QVERIFY(w.acceptDrops());
        bool measured = false;
        for (QTabWidget* tabs : w.findChildren<QTabWidget*>())
            for (int i = 0; i < tabs->count(); ++i)
                measured |= tabs->tabText(i).remove(QLatin1Char('&')) == QStringLiteral("Measured run");
        QVERIFY(measured);
    }

    // The tool bar's Export (the design card's [Export]) opens the same "Export report" dialog as the menu.
    void theToolBarsExportOpensTheReportDialog() {
        ui::MainWindow w(quiet());
        ui::installInterop(w, *w.document());
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
        ui::installInterop(w, doc);
        const core::ModelSpec before = doc.scenario().model;
        QVERIFY(ui::importHfConfigInto(w, doc, data("llama-3.1-8b.json")));
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
        ui::installInterop(w, doc);
        const core::Scenario before = doc.scenario();
        QVERIFY(!ui::importHfConfigInto(w, doc, data("bad/no-model-type.json")));
        QVERIFY(doc.scenario() == before);
        QVERIFY(!w.layoutBanner()->isHidden());
    }
};

QTEST_MAIN(TestInterop)
#include "test_interop.moc"
