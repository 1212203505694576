// The Plan tab's "Number formats" section follows the scenario like the other panels: the per-tensor
// table is the core's precisionTable, FP8 shows its weight copies and scaling state, and the
// diagnostics panel lists the context-parallel diagnostics of a ring over the network.
#include "WindowTestSupport.h"
#include "core/estimate/Evaluate.h"
#include "core/estimate/KeyFigures.h"
#include "core/estimate/Precision.h"
#include "core/io/Presets.h"
#include "ui/document/ScenarioDocument.h"
#include "ui/plan/DiagnosticsModel.h"
#include "ui/plan/DiagnosticsPanel.h"
#include "ui/plan/ExplanationPanel.h"
#include "ui/plan/PlanView.h"
#include "ui/plan/PrecisionSection.h"
#include "ui/scenario/ScenarioPanel.h"
#include "ui/shell/FileController.h"
#include "ui/shell/MainWindow.h"
#include "ui/shell/Settings.h"
#include "ui/widgets/CollapsibleSection.h"
#include "ui/widgets/FigureLabel.h"

#include <QComboBox>
#include <QDir>
#include <QTableWidget>
#include <QToolButton>
#include <QUndoStack>

#include <memory>

using namespace lp;

class TestPrecisionSection : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    std::unique_ptr<ui::MainWindow> m_window;

    ui::ScenarioDocument* doc() const { return m_window->document(); }
    ui::PrecisionSection* section() const { return m_window->planView()->precisionSection(); }

    // Every cell's text in one column of the table, as shown.
    QStringList column(int c) const {
        QStringList out;
        const QTableWidget* t = section()->table();
        for (int r = 0; r < t->rowCount(); ++r)
            out << (t->item(r, c) ? t->item(r, c)->text() : QString());
        return out;
    }

    // The table must hold exactly the core's rows for the scenario on screen, each note as a tooltip.
    void verifyTableMatchesCore() {
        const std::vector<core::TensorPrecision> expected = core::precisionTable(doc()->scenario());
        const QTableWidget* t = section()->table();
        QCOMPARE(t->rowCount(), static_cast<int>(expected.size()));
        for (int r = 0; r < t->rowCount(); ++r) {
            const core::TensorPrecision& e = expected[static_cast<std::size_t>(r)];
            QCOMPARE(t->item(r, 0)->text(), QString::fromStdString(e.tensor));
            QCOMPARE(t->item(r, 1)->text(), QString::fromStdString(e.format));
            QVERIFY2(t->item(r, 0)->toolTip().contains(QString::fromStdString(e.note).toHtmlEscaped()),
                     e.tensor.c_str());
        }
    }

    // The training precision, chosen as a user does: the Precision box of the scenario panel.
    QComboBox* precisionBox() const {
        for (QComboBox* box : m_window->scenarioPanel()->findChildren<QComboBox*>())
            if (box->findText(QStringLiteral("fp8")) >= 0 && box->findText(QStringLiteral("bf16")) >= 0)
                return box;
        return nullptr;
    }

private slots:
    void initTestCase() { test::isolateUserFolders(m_dir); }

    void init() {
        m_window = test::openTestWindow(m_dir);
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    }

    void cleanup() { test::closeTestWindow(m_window); }

    void bf16HasNoFp8Rows() {
        QVERIFY(section());
        QVERIFY(!section()->isExpanded()); // folded: the charts keep their room
        QVERIFY(section()->header()->isVisible());
        verifyTableMatchesCore();
        QVERIFY(!column(0).contains(QStringLiteral("FP8 weight copies (linear layers)")));
        QCOMPARE(section()->rowOf(QStringLiteral("FP8 weight copies")), -1);
        QCOMPARE(section()->rowOf(QStringLiteral("Scaling state")), -1);
        QVERIFY(!column(1).join(QLatin1Char('|')).contains(QStringLiteral("fp8")));
        QVERIFY(column(1).contains(QStringLiteral("bf16")));
        QVERIFY(column(1).contains(QStringLiteral("fp32")));
        QVERIFY(!section()->fp8FiguresShown());
        section()->setExpanded(true);
        QVERIFY(section()->table()->isVisible());
        QVERIFY(!section()->fp8WeightCopies()->isVisible());
    }

    void fp8ShowsTheFormatsAndItsExtraMemory() {
        QComboBox* box = precisionBox();
        QVERIFY(box);
        box->setFocus();
        QTest::keyClick(box, Qt::Key_End); // bf16, fp16, fp8: the last one
        QVERIFY(doc()->scenario().training.precision == core::Precision::Fp8);
        verifyTableMatchesCore();
        QVERIFY(column(1).contains(QStringLiteral("fp8 e4m3")));
        const int copies = section()->rowOf(QStringLiteral("FP8 weight copies"));
        QVERIFY(copies >= 0);
        QVERIFY(
            section()->table()->item(copies, 0)->toolTip().contains(QStringLiteral("Transformer Engine")));
        QVERIFY(section()->rowOf(QStringLiteral("Scaling state")) >= 0);
        // The two figures fp8 adds to the weights bar, as the core computes them, in the window's unit.
        const core::Plan plan = core::evaluate(doc()->scenario(), doc()->profile());
        QVERIFY(plan.intermediates.fp8WeightCopyBytes > 0);
        QVERIFY(plan.intermediates.fp8ScalingStateBytes > 0);
        QVERIFY(section()->fp8FiguresShown());
        const ui::MemoryUnit unit = m_window->settings()->memoryUnit();
        QCOMPARE(section()->fp8WeightCopies()->value(),
                 ui::qs(core::bytesIn(plan.intermediates.fp8WeightCopyBytes, unit, 2)));
        // Both cards word what the core words.
        const std::vector<core::KeyFigure> cards = core::fp8Figures(doc()->scenario(), plan, unit, false);
        QCOMPARE(cards.size(), std::size_t{2});
        for (const auto& [card, shown] : {std::pair{cards[0], section()->fp8WeightCopies()},
                                          std::pair{cards[1], section()->fp8ScalingState()}}) {
            QCOMPARE(shown->caption(), ui::qs(card.caption));
            QCOMPARE(shown->value(), ui::qs(card.valueText));
            QCOMPARE(shown->detail(), ui::qs(card.detail));
            QCOMPARE(shown->toolTip(), ui::qs(card.meaning));
        }
        QVERIFY(!section()->fp8ScalingState()->value().isEmpty());
        QVERIFY(section()->fp8ScalingState()->value() != QStringLiteral("none kept"));
        // Folded, the summary still says what changed.
        QVERIFY(!section()->isExpanded());
        section()->setExpanded(true);
        QVERIFY(section()->fp8WeightCopies()->isVisible());
        // The figures explain themselves with the weights' explanation (which counts the fp8 copies).
        QTest::mouseClick(section()->fp8WeightCopies(), Qt::LeftButton);
        QCOMPARE(m_window->explanationPanel()->currentKey(), QStringLiteral("memory.weights"));

        // Back to bf16 with undo: the fp8 rows and figures go away.
        doc()->undoStack()->undo();
        QVERIFY(doc()->scenario().training.precision == core::Precision::Bf16);
        verifyTableMatchesCore();
        QCOMPARE(section()->rowOf(QStringLiteral("FP8 weight copies")), -1);
        QVERIFY(!column(1).contains(QStringLiteral("fp8 e4m3")));
        QVERIFY(!section()->fp8FiguresShown());
        QVERIFY(!section()->fp8WeightCopies()->isVisible());

        // torchao's Float8Linear (FSDP style) keeps no weight copies, and the section says so.
        core::Scenario fsdp = doc()->scenario();
        fsdp.training.precision = core::Precision::Fp8;
        fsdp.training.executionStyle = core::ExecutionStyle::Fsdp;
        doc()->edit(fsdp, QStringLiteral("fp8, FSDP style"));
        QVERIFY(section()->fp8FiguresShown());
        QCOMPARE(section()->fp8WeightCopies()->value(), QStringLiteral("none kept"));
        verifyTableMatchesCore();

        const QString shotDir = qEnvironmentVariable("LP_PLAN_SCREENSHOT_DIR");
        if (!shotDir.isEmpty()) { // for a visual check only
            doc()->undoStack()->undo();
            QTest::keyClick(box, Qt::Key_End);
            QTest::qWait(100);
            QVERIFY(m_window->grab().save(QDir(shotDir).filePath(QStringLiteral("plan-number-formats.png"))));
        }
    }

    void unitsFollowTheSettings() {
        core::Scenario s = doc()->scenario();
        s.training.precision = core::Precision::Fp8;
        doc()->edit(s, QStringLiteral("fp8"));
        const core::Plan plan = core::evaluate(doc()->scenario(), doc()->profile());
        m_window->settings()->setMemoryUnit(ui::MemoryUnit::GB);
        QCOMPARE(section()->fp8WeightCopies()->value(),
                 ui::qs(core::bytesIn(plan.intermediates.fp8WeightCopyBytes, ui::MemoryUnit::GB, 2)));
        QVERIFY(section()->fp8ScalingState()->value().endsWith(QStringLiteral("MB")));
        m_window->settings()->setMemoryUnit(ui::MemoryUnit::GiB);
        QCOMPARE(section()->fp8WeightCopies()->value(),
                 ui::qs(core::bytesIn(plan.intermediates.fp8WeightCopyBytes, ui::MemoryUnit::GiB, 2)));
        QVERIFY(section()->fp8ScalingState()->value().endsWith(QStringLiteral("MiB")));
    }

    void contextParallelOverTheNetworkIsDiagnosed() {
        // 16 CP ranks of 8-GPU nodes: the key/value ring crosses the network, 2K tokens per rank.
        core::Scenario s = core::defaultScenario();
        s.model = core::findModelPreset("llama3.1-8b")->model;
        s.model.seqLen = 16 * 2048;
        s.training.recompute = core::Recompute::Full;
        s.layout = core::Layout{};
        s.layout.tp = 1;
        s.layout.cp = 16;
        s.layout.dp = 4;
        doc()->edit(s, QStringLiteral("CP 16"));
        QVERIFY(doc()->plan().valid);
        QVERIFY(doc()->plan().has(core::DiagnosticId::CpCrossesNodes));
        const ui::DiagnosticsModel* model = m_window->diagnosticsPanel()->model();
        QVERIFY2(model->ids().contains(QStringLiteral("cp_crosses_nodes")),
                 qPrintable(model->ids().join(u',')));
        QVERIFY(model->ids().contains(QStringLiteral("cp_exchange_exposed")));
        for (int r = 0; r < model->rowCount(); ++r) {
            const QModelIndex i = model->index(r);
            const QString id = i.data(ui::DiagnosticsModel::IdRole).toString();
            if (!id.startsWith(QLatin1String("cp_")))
                continue;
            QVERIFY(i.data(Qt::DisplayRole).toString().contains(QStringLiteral("context-parallel")));
            QVERIFY(!i.data(ui::DiagnosticsModel::SuggestionRole).toString().isEmpty());
            QCOMPARE(i.data(ui::DiagnosticsModel::ExplainKeyRole).toString(), QStringLiteral("time.cp_comm"));
        }
        // Within one node the ring stays on NVLink: no cp_crosses_nodes.
        s.layout.cp = 8;
        s.layout.dp = 8;
        doc()->edit(s, QStringLiteral("CP 8"));
        QVERIFY(!model->ids().contains(QStringLiteral("cp_crosses_nodes")));
    }
};

QTEST_MAIN(TestPrecisionSection)
#include "test_precision_section.moc"
