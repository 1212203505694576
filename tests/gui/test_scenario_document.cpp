// ScenarioDocument: edits through the undo stack (slider drags merge), re-evaluation, the last valid
// plan kept for invalid layouts, and files (atomic save, open, malformed input).
#include "GuiTestSupport.h"
#include "core/estimate/Evaluate.h"
#include "core/io/Presets.h"
#include "core/io/ScenarioJson.h"
#include "ui/document/ScenarioDocument.h"

#include <QFile>
#include <QSignalSpy>
#include <QUndoStack>

using namespace lp;
using core::LayoutAxis;

class TestScenarioDocument : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;

private slots:
    void initTestCase() { test::isolateUserFolders(m_dir); }

    void startsOnTheDefaultScenario() {
        ui::ScenarioDocument doc;
        QVERIFY(doc.scenario() == core::defaultScenario());
        QVERIFY(doc.plan().valid);
        QVERIFY(!doc.isModified());
        QVERIFY(doc.evaluationMicroseconds() > 0);
        const core::Plan expected = core::evaluate(doc.scenario(), doc.profile());
        QCOMPARE(doc.plan().mfu, expected.mfu);
    }

    void everyEditIsUndoable() {
        ui::ScenarioDocument doc;
        QSignalSpy planSpy(&doc, &ui::ScenarioDocument::planChanged);
        doc.setLayoutValue(LayoutAxis::Tp, 4);
        QCOMPARE(doc.scenario().layout.tp, 4);
        QCOMPARE(doc.scenario().layout.dp, 4);
        QCOMPARE(planSpy.count(), 1);
        QVERIFY(doc.isModified());
        doc.setLayoutValue(LayoutAxis::MicroBatch, 1);
        core::Scenario renamed = doc.scenario();
        renamed.training.zeroStage = 3;
        doc.edit(renamed, QStringLiteral("ZeRO 3"));
        QCOMPARE(doc.undoStack()->count(), 3);

        doc.undoStack()->undo();
        QCOMPARE(doc.scenario().training.zeroStage, 1);
        doc.undoStack()->undo();
        QCOMPARE(doc.scenario().layout.microBatch, 2);
        doc.undoStack()->undo();
        QVERIFY(doc.scenario() == core::defaultScenario());
        QVERIFY(!doc.isModified());
        doc.undoStack()->redo();
        QCOMPARE(doc.scenario().layout.tp, 4);
        QCOMPARE(doc.scenario().layout.dp, 4);
        QCOMPARE(doc.plan().mfu, core::evaluate(doc.scenario(), doc.profile()).mfu);
    }

    void aDragIsOneUndoStep() {
        ui::ScenarioDocument doc;
        doc.setLayoutValue(LayoutAxis::Accumulation, 17, true);
        doc.setLayoutValue(LayoutAxis::Accumulation, 18, true);
        doc.setLayoutValue(LayoutAxis::Accumulation, 19, true);
        doc.endInteraction();
        QCOMPARE(doc.undoStack()->count(), 1);
        // A second drag of the same slider is a new step.
        doc.setLayoutValue(LayoutAxis::Accumulation, 20, true);
        doc.endInteraction();
        QCOMPARE(doc.undoStack()->count(), 2);
        doc.undoStack()->undo();
        QCOMPARE(doc.scenario().layout.accumulation, 19);
        doc.undoStack()->undo();
        QCOMPARE(doc.scenario().layout.accumulation, 16);
        // A drag that ends where it started leaves nothing to undo.
        doc.setLayoutValue(LayoutAxis::Accumulation, 17, true);
        doc.setLayoutValue(LayoutAxis::Accumulation, 16, true);
        doc.endInteraction();
        QCOMPARE(doc.undoStack()->count(), 0);
        QVERIFY(!doc.isModified());
    }

    void keyboardStepsAreSeparate() {
        ui::ScenarioDocument doc;
        doc.setLayoutValue(LayoutAxis::Accumulation, 17);
        doc.setLayoutValue(LayoutAxis::Accumulation, 18);
        QCOMPARE(doc.undoStack()->count(), 2);
    }

    void invalidLayoutKeepsTheLastValidPlan() {
        ui::ScenarioDocument doc;
        const double mfu = doc.plan().mfu;
        doc.setLayoutValue(LayoutAxis::Tp, 3);
        QVERIFY(!doc.plan().valid);
        QVERIFY(doc.plan().has(core::DiagnosticId::HeadsNotDivisibleByTp));
        QVERIFY(doc.isShowingStalePlan());
        QVERIFY(doc.shownPlan().valid);
        QCOMPARE(doc.shownPlan().mfu, mfu);
        QCOMPARE(doc.shownPlan().layout.tp, 8);
        doc.undoStack()->undo();
        QVERIFY(doc.plan().valid);
        QVERIFY(!doc.isShowingStalePlan());
    }

    void clusterEditsRebalanceDp() {
        ui::ScenarioDocument doc;
        core::ClusterSpec c = doc.scenario().cluster;
        c.nodes = 16;
        doc.editCluster(c, QStringLiteral("16 nodes"));
        QCOMPARE(doc.scenario().layout.dp, 4);
        QVERIFY(doc.plan().valid);
        doc.setKeepGpuCount(false);
        c.nodes = 4;
        doc.editCluster(c, QStringLiteral("4 nodes"));
        QCOMPARE(doc.scenario().layout.dp, 4); // unchanged: the core reports the mismatch
        QVERIFY(doc.plan().has(core::DiagnosticId::GpuCountMismatch));
    }

    void saveAndOpenRoundTrip() {
        ui::ScenarioDocument doc;
        QCOMPARE(doc.displayName(), QString::fromStdString(core::scenarioName(core::defaultScenario())));
        doc.setLayoutValue(LayoutAxis::Tp, 4);
        core::Scenario edited = doc.scenario();
        edited.name = "Round trip ✓";
        edited.model.seqLen = 8192;
        doc.edit(edited, QStringLiteral("edit"));
        // Before it has a file, the document goes by the scenario's name (title, save prompt).
        QCOMPARE(doc.displayName(), QStringLiteral("Round trip ✓"));
        const QString path = m_dir.filePath(QStringLiteral("round-trip.json"));
        QString error;
        QVERIFY2(doc.saveTo(path, &error), qPrintable(error));
        QVERIFY(!doc.isModified());
        QCOMPARE(doc.filePath(), path);

        ui::ScenarioDocument other;
        const ui::OpenResult result = other.openFile(path);
        QVERIFY(result.ok);
        QVERIFY(other.scenario() == doc.scenario());
        QVERIFY(!other.isModified());
        QCOMPARE(other.undoStack()->count(), 0);
        QCOMPARE(other.displayName(), QStringLiteral("round-trip.json"));
        QCOMPARE(other.plan().mfu, doc.plan().mfu);
    }

    void saveIsAtomic() {
        ui::ScenarioDocument doc;
        const QString path = m_dir.filePath(QStringLiteral("atomic.json"));
        QVERIFY(doc.saveTo(path));
        // Saving into a folder that does not exist fails and leaves the document unsaved-state alone.
        doc.setLayoutValue(LayoutAxis::Tp, 4);
        QString error;
        QVERIFY(!doc.saveTo(m_dir.filePath(QStringLiteral("missing/dir/x.json")), &error));
        QVERIFY(!error.isEmpty());
        QVERIFY(doc.isModified());
        QCOMPARE(doc.filePath(), path);
        auto reread = core::loadScenarioFile(path.toStdString());
        QVERIFY(reread.has_value());
        QVERIFY(*reread == core::defaultScenario());
    }

    void malformedFileOpensNothing() {
        ui::ScenarioDocument doc;
        doc.setLayoutValue(LayoutAxis::Tp, 4);
        const core::Scenario before = doc.scenario();
        const QString path = m_dir.filePath(QStringLiteral("bad.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray::fromStdString(core::scenarioToJson(core::defaultScenario()))
                    .replace("\"heads\": 64", "\"heads\": -3"));
        f.close();
        const ui::OpenResult result = doc.openFile(path);
        QVERIFY(!result.ok);
        QVERIFY(!result.problems.isEmpty());
        QVERIFY2(result.problems.join(QLatin1Char('\n')).contains(QStringLiteral("heads")),
                 qPrintable(result.problems.join(QLatin1Char('\n'))));
        QVERIFY(doc.scenario() == before);
        QVERIFY(doc.isModified());

        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write("{\n  \"schema\": \"layout-planner/scenario\",\n  \"model\": {\n");
        f.close();
        const ui::OpenResult syntax = doc.openFile(path);
        QVERIFY(!syntax.ok);
        QVERIFY2(syntax.problems.join(QLatin1Char('\n')).contains(QStringLiteral("line")),
                 qPrintable(syntax.problems.join(QLatin1Char('\n'))));
        QVERIFY(doc.scenario() == before);
    }
};

QTEST_GUILESS_MAIN(TestScenarioDocument)
#include "test_scenario_document.moc"
