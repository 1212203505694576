// The communication-overlap switches of the scenario panel's training options: each box edits its
// TrainingOptions field through the undo stack, the plan follows (the exposed communication time drops),
// and the boxes follow the document when it changes elsewhere (undo, redo, another edit).
#include "WindowTestSupport.h"
#include "core/estimate/Evaluate.h"
#include "core/estimate/Explain.h"
#include "core/io/Presets.h"
#include "ui/document/ScenarioDocument.h"
#include "ui/scenario/ScenarioPanel.h"
#include "ui/scenario/TrainingEditor.h"
#include "ui/shell/FileController.h"
#include "ui/shell/MainWindow.h"
#include "ui/shell/Settings.h"
#include "ui/widgets/CollapsibleSection.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QMenu>
#include <QSpinBox>
#include <QToolButton>
#include <QUndoStack>

#include <cmath>
#include <memory>

using namespace lp;

class TestTrainingOptions : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    std::unique_ptr<ui::MainWindow> m_window;

    ui::ScenarioDocument* doc() const { return m_window->document(); }
    ui::TrainingEditor* editor() const { return m_window->scenarioPanel()->trainingEditor(); }

    // A box of the scenario panel found by its object name, as a test of the whole window would.
    QCheckBox* box(const char* name) const {
        return m_window->scenarioPanel()->findChild<QCheckBox*>(QString::fromLatin1(name));
    }

    // Toggles a box as a user does: the "More training options" section open, focus, space bar.
    void toggle(QCheckBox* b) {
        editor()->moreSection()->setExpanded(true);
        QVERIFY(b->isVisible());
        b->setFocus();
        QTest::keyClick(b, Qt::Key_Space);
    }

private slots:
    void initTestCase() { test::isolateUserFolders(m_dir); }

    void init() {
        m_window = test::openTestWindow(m_dir);
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    }

    void cleanup() { test::closeTestWindow(m_window); }

    void boxesStartOffWithTooltipsNamingTheFlags() {
        QCheckBox* tp = box("overlapTpComm");
        QCheckBox* pp = box("overlapPpComm");
        QCheckBox* dp = box("overlapDpComm");
        QVERIFY(tp && pp && dp);
        QCOMPARE(tp, editor()->overlapTpBox());
        QCOMPARE(pp, editor()->overlapPpBox());
        QCOMPARE(dp, editor()->overlapDpBox());
        for (QCheckBox* b : {tp, pp, dp}) {
            QVERIFY(!b->isChecked());
            QVERIFY(b->focusPolicy() != Qt::NoFocus);
        }
        QVERIFY(tp->toolTip().contains(QStringLiteral("--tp-comm-overlap")));
        QVERIFY(tp->toolTip().contains(QStringLiteral("enable_async_tensor_parallel")));
        QVERIFY(pp->toolTip().contains(QStringLiteral("--overlap-p2p-communication")));
        QVERIFY(dp->toolTip().contains(QStringLiteral("--overlap-grad-reduce")));
        QVERIFY(dp->toolTip().contains(QStringLiteral("overlap_comm")));
        // Inside the folded "More training options" section.
        QVERIFY(!editor()->moreSection()->isExpanded());
        QVERIFY(editor()->moreSection()->isAncestorOf(tp));
    }

    void tpOverlapEditsTheScenarioAndUndoRestoresIt() {
        const core::Scenario before = doc()->scenario();
        QVERIFY(before.layout.tp > 1);
        QVERIFY(before.training.overlapTpComm == core::Toggle::Off); // the worked example states it
        const double tpBefore = doc()->plan().time.tpCommSeconds;
        QVERIFY(tpBefore > 0);
        const int steps = doc()->undoStack()->count();

        QCheckBox* tp = box("overlapTpComm");
        QVERIFY(tp);
        toggle(tp);
        QVERIFY(tp->isChecked());
        QVERIFY(doc()->scenario().training.overlapTpComm == core::Toggle::On);
        QVERIFY(doc()->isModified());
        QCOMPARE(doc()->undoStack()->count(), steps + 1);
        // Only the switch changed; the plan is the core's for the new scenario, with less TP time.
        core::Scenario expected = before;
        expected.training.overlapTpComm = core::Toggle::On;
        QVERIFY(doc()->scenario() == expected);
        const core::Plan plan = core::evaluate(doc()->scenario(), doc()->profile());
        QCOMPARE(doc()->plan().time.tpCommSeconds, plan.time.tpCommSeconds);
        QVERIFY2(doc()->plan().time.tpCommSeconds < tpBefore,
                 qPrintable(QStringLiteral("%1 -> %2").arg(tpBefore).arg(doc()->plan().time.tpCommSeconds)));
        QVERIFY(doc()->plan().time.tpCommSeconds > 0); // a fifth of the hidden part is still paid
        QVERIFY(doc()->plan().time.stepSeconds < core::evaluate(before, doc()->profile()).time.stepSeconds);
        // The explanation of the figure says the overlap is on.
        const auto e = core::explainFigure(doc()->scenario(), doc()->plan(), "time.tp_comm");
        QVERIFY(e.has_value());
        QVERIFY2(QString::fromStdString(e->formula).contains(QStringLiteral("GEMM")), e->formula.c_str());

        // Undo: the scenario, the plan and the box are as before.
        doc()->undoStack()->undo();
        QVERIFY(doc()->scenario() == before);
        QVERIFY(!tp->isChecked());
        QCOMPARE(doc()->plan().time.tpCommSeconds, tpBefore);
        QVERIFY(!doc()->isModified());
        // Redo brings it back.
        doc()->undoStack()->redo();
        QVERIFY(doc()->scenario().training.overlapTpComm == core::Toggle::On);
        QVERIFY(tp->isChecked());
        QVERIFY(doc()->plan().time.tpCommSeconds < tpBefore);
    }

    void torchCompileSpeedsUpTheFsdpStyleOnly() {
        QCheckBox* compile = box("torchCompile");
        QVERIFY(!compile->isChecked());
        const double megatron = doc()->plan().time.computeSeconds; // the default scenario: Megatron style
        toggle(compile);
        QVERIFY(doc()->scenario().training.torchCompile);
        QCOMPARE(doc()->plan().time.computeSeconds, megatron); // fused kernels already
        doc()->undoStack()->undo();
        QVERIFY(!compile->isChecked());
        core::Scenario s = doc()->scenario();
        s.training.executionStyle = core::ExecutionStyle::Fsdp;
        doc()->edit(s, QStringLiteral("fsdp style"));
        const double eager = doc()->plan().time.computeSeconds;
        toggle(compile);
        QVERIFY(doc()->plan().time.computeSeconds < eager);
        doc()->undoStack()->undo();
        QCOMPARE(doc()->plan().time.computeSeconds, eager);
    }

    void fusedKernelsSpeedUpTheFsdpStyleOnly() {
        QCheckBox* fused = box("fusedKernels");
        QVERIFY(!fused->isChecked());
        const double megatron = doc()->plan().time.computeSeconds;
        toggle(fused);
        QVERIFY(doc()->scenario().training.fusedKernels);
        QCOMPARE(doc()->plan().time.computeSeconds, megatron); // fused kernels already
        doc()->undoStack()->undo();
        core::Scenario s = doc()->scenario();
        s.training.executionStyle = core::ExecutionStyle::Fsdp;
        doc()->edit(s, QStringLiteral("fsdp style"));
        const double eager = doc()->plan().time.computeSeconds;
        toggle(fused);
        QVERIFY(doc()->plan().time.computeSeconds < eager);
        doc()->undoStack()->undo();
        QCOMPARE(doc()->plan().time.computeSeconds, eager);
        doc()->undoStack()->undo();
    }

    void fp8WeightGathersShortenTheWeightAllGatherInFp8Only() {
        QCheckBox* gathers = box("fp8ParamGather");
        QVERIFY(!gathers->isChecked());
        // bf16 (the default scenario): no effect.
        const double bf16 = doc()->plan().time.stepSeconds;
        toggle(gathers);
        QVERIFY(doc()->scenario().training.fp8ParamGather);
        QCOMPARE(doc()->plan().time.stepSeconds, bf16);
        doc()->undoStack()->undo();
        // fp8 with the distributed optimizer: the all-gather of the updated weights moves half the bytes.
        core::Scenario s = doc()->scenario();
        s.training.precision = core::Precision::Fp8;
        s.training.zeroStage = 1;
        doc()->edit(s, QStringLiteral("fp8, ZeRO 1"));
        const double whole = doc()->plan().time.dpCommExposedSeconds;
        toggle(gathers);
        QVERIFY(doc()->plan().time.dpCommExposedSeconds < whole);
        QCOMPARE(doc()->plan().intermediates.gatherBytesPerParam, 1.0);
        doc()->undoStack()->undo();
        QCOMPARE(doc()->plan().time.dpCommExposedSeconds, whole);
        doc()->undoStack()->undo();
    }

    void recomputeLayersTakePartOfFullRecompute() {
        auto* layers = m_window->scenarioPanel()->findChild<QSpinBox*>(QStringLiteral("recomputeLayers"));
        QVERIFY(layers);
        QCOMPARE(layers->value(), 0);
        QCOMPARE(layers->text(), QStringLiteral("every layer"));
        core::Scenario s = doc()->scenario();
        s.training.recompute = core::Recompute::Full;
        doc()->edit(s, QStringLiteral("full recompute"));
        const core::Plan every = doc()->plan();
        layers->setValue(2);
        QCOMPARE(doc()->scenario().training.recomputeLayers, 2);
        QVERIFY(doc()->plan().time.recomputeSeconds < every.time.recomputeSeconds);
        QVERIFY(doc()->plan().memory.stages[0].activationsBytes > every.memory.stages[0].activationsBytes);
        doc()->undoStack()->undo();
        QCOMPARE(doc()->plan().time.recomputeSeconds, every.time.recomputeSeconds);
        doc()->undoStack()->undo();
    }

    void recomputeModulesMenuChoosesWhatSelectiveRecomputes() {
        auto* button = m_window->scenarioPanel()->findChild<QToolButton*>(QStringLiteral("recomputeModules"));
        QVERIFY(button && button->menu());
        QCOMPARE(button->text(), QStringLiteral("core_attn"));
        QVERIFY(button->toolTip().contains(QStringLiteral("--recompute-modules")));
        QAction* mlp = nullptr;
        for (QAction* a : button->menu()->actions())
            if (a->text() == QStringLiteral("mlp"))
                mlp = a;
        QVERIFY(mlp && mlp->isCheckable() && !mlp->isChecked());
        const core::Plan before = doc()->plan(); // the default: selective, flash attention
        mlp->trigger();
        editor()->moreSection()->setExpanded(true);
        QVERIFY(button->isVisible());
        if (const QString dir = qEnvironmentVariable("LP_SCREENSHOT_DIR"); !dir.isEmpty()) {
            QTest::qWait(50);
            QVERIFY(m_window->grab().save(QDir(dir).filePath(QStringLiteral("recompute-modules.png"))));
            button->menu()->popup(button->mapToGlobal(QPoint(0, button->height())));
            QTest::qWait(50);
            QVERIFY(button->menu()->grab().save(
                QDir(dir).filePath(QStringLiteral("recompute-modules-menu.png"))));
            button->menu()->hide();
        }
        QCOMPARE(doc()->scenario().training.recomputeModules,
                 static_cast<unsigned>(core::kRecomputeCoreAttn | core::kRecomputeMlp));
        QCOMPARE(button->text(), QStringLiteral("core_attn, mlp"));
        QVERIFY(doc()->plan().time.recomputeSeconds > before.time.recomputeSeconds);
        QVERIFY(doc()->plan().memory.stages[0].activationsBytes < before.memory.stages[0].activationsBytes);
        doc()->undoStack()->undo();
        QVERIFY(!mlp->isChecked());
        QCOMPARE(button->text(), QStringLiteral("core_attn"));
        QCOMPARE(doc()->plan().time.recomputeSeconds, before.time.recomputeSeconds);
        // Nothing chosen reads "none".
        core::Scenario s = doc()->scenario();
        s.training.recomputeModules = 0;
        doc()->edit(s, QStringLiteral("no modules"));
        QCOMPARE(button->text(), QStringLiteral("none"));
        doc()->undoStack()->undo();
    }

    void cpuOffloadControlsMoveTheBarsToTheHostAndUndo() {
        auto* optimizer = box("optimizerOffload");
        auto* layers =
            m_window->scenarioPanel()->findChild<QSpinBox*>(QStringLiteral("activationOffloadLayers"));
        QVERIFY(optimizer && layers);
        QVERIFY(!optimizer->isChecked());
        QVERIFY(optimizer->toolTip().contains(QStringLiteral("offload_optimizer")));
        QCOMPARE(layers->value(), 0);
        QCOMPARE(layers->text(), QStringLiteral("none"));
        QVERIFY(layers->toolTip().contains(QStringLiteral("--cpu-offloading-num-layers")));
        const core::Plan before = doc()->plan();
        toggle(optimizer);
        QVERIFY(doc()->scenario().training.optimizerOffload);
        QCOMPARE(doc()->plan().memory.stages[0].optimizerBytes, 0.0);
        QVERIFY(doc()->plan().memory.hostBytesPerGpu > 0);
        layers->setValue(10);
        QCOMPARE(doc()->scenario().training.activationOffloadLayers, 10);
        QVERIFY(doc()->plan().memory.stages[0].activationsBytes < before.memory.stages[0].activationsBytes);
        doc()->undoStack()->undo();
        doc()->undoStack()->undo();
        QVERIFY(!doc()->scenario().training.optimizerOffload);
        QVERIFY(!optimizer->isChecked());
        QCOMPARE(layers->value(), 0);
        QCOMPARE(doc()->plan().memory.hostBytesPerGpu, 0.0);
    }

    void ppAndDpOverlapLowerTheirExposedTime() {
        const core::Plan before = doc()->plan();
        QVERIFY(doc()->scenario().layout.pp > 1 && before.time.ppCommSeconds > 0);
        QVERIFY(before.time.dpCommExposedSeconds > 0); // Megatron-LM style, reduction after the backward pass

        toggle(box("overlapPpComm"));
        QVERIFY(doc()->scenario().training.overlapPpComm);
        QVERIFY(doc()->plan().time.ppCommSeconds < before.time.ppCommSeconds);
        toggle(box("overlapDpComm"));
        QVERIFY(doc()->scenario().training.overlapDpComm == core::Toggle::On);
        QVERIFY(doc()->plan().time.dpCommExposedSeconds < before.time.dpCommExposedSeconds);
        // Two separate undo steps.
        doc()->undoStack()->undo();
        QVERIFY(doc()->scenario().training.overlapDpComm == core::Toggle::Off);
        QVERIFY(doc()->scenario().training.overlapPpComm);
        QVERIFY(!box("overlapDpComm")->isChecked());
        doc()->undoStack()->undo();
        QVERIFY(!doc()->scenario().training.overlapPpComm);
        QVERIFY(!box("overlapPpComm")->isChecked());
        QCOMPARE(doc()->plan().time.ppCommSeconds, before.time.ppCommSeconds);
    }

    void gradientChoiceMovesTheGradientBarAndUndoes() {
        auto* grads = m_window->scenarioPanel()->findChild<QComboBox*>(QStringLiteral("gradPrecision"));
        QVERIFY(grads);
        QVERIFY(grads->toolTip().contains(QStringLiteral("--grad-reduce-in-bf16")));
        // The default plan states fp32 main grads (the worked example is plain Megatron-LM in bf16).
        QCOMPARE(grads->currentData().toInt(), static_cast<int>(core::GradPrecision::Fp32));
        const int worst = doc()->plan().memory.worstStage;
        const double fp32Grads = doc()->plan().memory.stages[static_cast<std::size_t>(worst)].gradientsBytes;
        editor()->moreSection()->setExpanded(true);
        // As a user picks it: the combo's activation, not a programmatic index change.
        const int half = grads->findData(static_cast<int>(core::GradPrecision::Half));
        QVERIFY(half >= 0);
        grads->setCurrentIndex(half);
        emit grads->activated(half);
        QVERIFY(doc()->scenario().training.gradPrecision == core::GradPrecision::Half);
        const double halfGrads = doc()->plan().memory.stages[static_cast<std::size_t>(worst)].gradientsBytes;
        QVERIFY2(std::abs(halfGrads - fp32Grads / 2.0) < 1e-6 * fp32Grads,
                 qPrintable(QStringLiteral("%1 -> %2").arg(fp32Grads).arg(halfGrads)));
        doc()->undoStack()->undo();
        QVERIFY(doc()->scenario().training.gradPrecision == core::GradPrecision::Fp32);
        QCOMPARE(grads->currentData().toInt(), static_cast<int>(core::GradPrecision::Fp32));
    }

    void shardGroupSpinReplicatesTheOptimizerStateAndUndoes() {
        auto* shard = m_window->scenarioPanel()->findChild<QSpinBox*>(QStringLiteral("zeroShardDegree"));
        QVERIFY(shard);
        QCOMPARE(shard->value(), 0);
        QCOMPARE(shard->text(), QStringLiteral("all DP ranks"));
        QVERIFY(shard->toolTip().contains(QStringLiteral("HYBRID_SHARD")));
        // The default plan: ZeRO-1 over DP 2, so each GPU holds half of the optimizer state.
        const int worst = doc()->plan().memory.worstStage;
        const double sharded = doc()->plan().memory.stages[static_cast<std::size_t>(worst)].optimizerBytes;
        editor()->moreSection()->setExpanded(true);
        shard->setValue(1); // one DP rank per group: every rank keeps the whole optimizer state
        QCOMPARE(doc()->scenario().training.zeroShardDegree, 1);
        QVERIFY(doc()->plan().valid);
        const double replicated = doc()->plan().memory.stages[static_cast<std::size_t>(worst)].optimizerBytes;
        QVERIFY2(std::abs(replicated - 2.0 * sharded) < 1e-6 * sharded,
                 qPrintable(QStringLiteral("%1 -> %2").arg(sharded).arg(replicated)));
        doc()->undoStack()->undo();
        QCOMPARE(doc()->scenario().training.zeroShardDegree, 0);
        QCOMPARE(shard->value(), 0);
    }

    void crossEntropyChoiceMovesTheLastStagesActivationsAndUndoes() {
        auto* loss = m_window->scenarioPanel()->findChild<QComboBox*>(QStringLiteral("crossEntropy"));
        QVERIFY(loss);
        QVERIFY(loss->toolTip().contains(QStringLiteral("--cross-entropy-loss-fusion")));
        QCOMPARE(loss->currentData().toInt(), static_cast<int>(core::CrossEntropy::Auto));
        const core::Plan before = doc()->plan();
        const std::size_t last = before.memory.stages.size() - 1;
        editor()->moreSection()->setExpanded(true);
        const int fusedLinear = loss->findData(static_cast<int>(core::CrossEntropy::FusedLinear));
        QVERIFY(fusedLinear >= 0);
        loss->setCurrentIndex(fusedLinear);
        emit loss->activated(fusedLinear);
        QVERIFY(doc()->scenario().training.crossEntropy == core::CrossEntropy::FusedLinear);
        // The default plan (Megatron style) held 6 bytes per logit on the last stage; now only a chunk.
        const core::Plan after = doc()->plan();
        QVERIFY(after.intermediates.logitsBytes < before.intermediates.logitsBytes / 2.0);
        QVERIFY(after.memory.stages[last].activationsBytes < before.memory.stages[last].activationsBytes);
        QCOMPARE(after.memory.stages[0].activationsBytes, before.memory.stages[0].activationsBytes);
        doc()->undoStack()->undo();
        QVERIFY(doc()->scenario().training.crossEntropy == core::CrossEntropy::Auto);
        QCOMPARE(loss->currentData().toInt(), static_cast<int>(core::CrossEntropy::Auto));
    }

    void fused16bitLossAndMetricPassesReachThePlanAndUndo() {
        auto* loss = m_window->scenarioPanel()->findChild<QComboBox*>(QStringLiteral("crossEntropy"));
        auto* passes = m_window->scenarioPanel()->findChild<QSpinBox*>(QStringLiteral("logitsMetricPasses"));
        QVERIFY(loss && passes);
        QCOMPARE(passes->text(), QStringLiteral("none"));
        QVERIFY(passes->toolTip().contains(QStringLiteral("LanguagePerplexity")));
        editor()->moreSection()->setExpanded(true);
        const core::Plan before = doc()->plan();
        const int fused16 = loss->findData(static_cast<int>(core::CrossEntropy::Fused16));
        QVERIFY(fused16 >= 0);
        loss->setCurrentIndex(fused16);
        emit loss->activated(fused16);
        QVERIFY(doc()->scenario().training.crossEntropy == core::CrossEntropy::Fused16);
        // 4 bytes per logit where the default plan's Megatron kernel held 6.
        QVERIFY(std::abs(doc()->plan().intermediates.logitsBytes / before.intermediates.logitsBytes -
                         4.0 / 6.0) < 1e-9);
        const double loss16Step = doc()->plan().time.stepSeconds;
        passes->setValue(2);
        QCOMPARE(doc()->scenario().training.logitsMetricPasses, 2);
        QVERIFY(doc()->plan().time.stepSeconds > loss16Step);
        if (const QString dir = qEnvironmentVariable("LP_SCREENSHOT_DIR"); !dir.isEmpty()) {
            QTest::qWait(50);
            QVERIFY(m_window->grab().save(QDir(dir).filePath(QStringLiteral("logits-metric-passes.png"))));
        }
        doc()->undoStack()->undo();
        QCOMPARE(doc()->scenario().training.logitsMetricPasses, 0);
        QCOMPARE(passes->value(), 0);
        doc()->undoStack()->undo();
        QVERIFY(doc()->scenario().training.crossEntropy == core::CrossEntropy::Auto);
    }

    void optimizerStateChoiceShrinksTheOptimizerBarAndUndoes() {
        auto* state = m_window->scenarioPanel()->findChild<QComboBox*>(QStringLiteral("optimizerPrecision"));
        QVERIFY(state);
        QVERIFY(state->toolTip().contains(QStringLiteral("--exp-avg-dtype")));
        editor()->moreSection()->setExpanded(true);
        const double before = doc()->plan().memory.stages[0].optimizerBytes;
        const int bf16 = state->findData(static_cast<int>(core::OptimizerPrecision::Bf16));
        QVERIFY(bf16 >= 0);
        state->setCurrentIndex(bf16);
        emit state->activated(bf16);
        QVERIFY(doc()->scenario().training.optimizerPrecision == core::OptimizerPrecision::Bf16);
        QVERIFY(std::abs(doc()->plan().memory.stages[0].optimizerBytes / before - 4.0 / 12.0) < 1e-9);
        doc()->undoStack()->undo();
        QVERIFY(doc()->scenario().training.optimizerPrecision == core::OptimizerPrecision::Fp32);
        QCOMPARE(state->currentData().toInt(), static_cast<int>(core::OptimizerPrecision::Fp32));
    }

    void rematPolicyChoiceRerunsTheMlpAndUndoes() {
        auto* policy = m_window->scenarioPanel()->findChild<QComboBox*>(QStringLiteral("rematPolicy"));
        QVERIFY(policy);
        QVERIFY(policy->toolTip().contains(QStringLiteral("minimal_flash")));
        QCOMPARE(policy->currentData().toInt(), static_cast<int>(core::RematPolicy::Auto));
        editor()->moreSection()->setExpanded(true);
        // Opening the section widens the panel to its widest row, and the long policy names do not widen
        // that row (the horizontal scroll bar is off: too narrow a view cuts off the fields' right edges).
        auto* panel = m_window->scenarioPanel();
        QTest::qWait(20);
        QVERIFY(panel->widget()->minimumSizeHint().width() <= panel->viewport()->width());
        QVERIFY(policy->minimumSizeHint().width() <
                policy->fontMetrics().horizontalAdvance(QStringLiteral("save_dot_with_context_except_mlp")));
        const core::Plan before = doc()->plan();
        const int mlp = policy->findData(static_cast<int>(core::RematPolicy::SaveDotWithContextExceptMlp));
        QVERIFY(mlp >= 0);
        policy->setCurrentIndex(mlp);
        emit policy->activated(mlp);
        QVERIFY(doc()->scenario().training.rematPolicy == core::RematPolicy::SaveDotWithContextExceptMlp);
        // The seed's selective recompute re-ran nothing with flash attention; the policy re-runs the MLP's
        // up-projections and keeps fewer activations.
        QVERIFY(doc()->plan().time.recomputeSeconds > before.time.recomputeSeconds);
        QVERIFY(doc()->plan().memory.stages[0].activationsBytes < before.memory.stages[0].activationsBytes);
        if (const QString dir = qEnvironmentVariable("LP_SCREENSHOT_DIR"); !dir.isEmpty()) {
            QTest::qWait(50);
            QVERIFY(m_window->grab().save(QDir(dir).filePath(QStringLiteral("remat-policy.png"))));
        }
        doc()->undoStack()->undo();
        QVERIFY(doc()->scenario().training.rematPolicy == core::RematPolicy::Auto);
        QCOMPARE(policy->currentData().toInt(), static_cast<int>(core::RematPolicy::Auto));
    }

    void everySectionOpenClipsNoField() {
        // Model architecture, interconnect and GPU figures, more training options, number formats: all open,
        // the scenario panel still shows every field whole (its horizontal scroll bar is off).
        auto* panel = m_window->scenarioPanel();
        const auto sections = panel->findChildren<ui::CollapsibleSection*>();
        QVERIFY(sections.size() >= 3);
        for (ui::CollapsibleSection* section : sections)
            section->setExpanded(true);
        QTest::qWait(50);
        QVERIFY(panel->widget()->minimumSizeHint().width() <= panel->viewport()->width());
        // The seed's head size is derived (0): the box says how, not "0".
        auto* headSize = panel->findChild<QSpinBox*>(QStringLiteral("headSize"));
        QVERIFY(headSize && headSize->value() == 0);
        QCOMPARE(headSize->text(), QStringLiteral("h / heads"));
        if (const QString dir = qEnvironmentVariable("LP_SCREENSHOT_DIR"); !dir.isEmpty())
            QVERIFY(m_window->grab().save(QDir(dir).filePath(QStringLiteral("all-sections-open.png"))));
    }

    void cpExchangeChoiceReachesTheScenarioAndUndoes() {
        auto* exchange = m_window->scenarioPanel()->findChild<QComboBox*>(QStringLiteral("cpExchange"));
        QVERIFY(exchange);
        QVERIFY(exchange->toolTip().contains(QStringLiteral("context_parallel_rotate_method")));
        QVERIFY(exchange->toolTip().contains(QStringLiteral("--cp-comm-type")));
        QCOMPARE(exchange->currentData().toInt(), static_cast<int>(core::CpExchange::Auto));
        const core::Plan before = doc()->plan();
        editor()->moreSection()->setExpanded(true);
        const int gather = exchange->findData(static_cast<int>(core::CpExchange::AllGather));
        QVERIFY(gather >= 0);
        exchange->setCurrentIndex(gather);
        emit exchange->activated(gather);
        QVERIFY(doc()->scenario().training.cpExchange == core::CpExchange::AllGather);
        // The default layout has no CP: the exchange changes nothing there.
        QCOMPARE(doc()->plan().time.stepSeconds, before.time.stepSeconds);
        QCOMPARE(doc()->plan().intermediates.cpBufferBytes, 0.0);
        doc()->undoStack()->undo();
        QVERIFY(doc()->scenario().training.cpExchange == core::CpExchange::Auto);
        QCOMPARE(exchange->currentData().toInt(), static_cast<int>(core::CpExchange::Auto));
    }

    void pipelineScheduleChoiceReachesTheScenarioAndUndoes() {
        auto* schedule = m_window->scenarioPanel()->findChild<QComboBox*>(QStringLiteral("pipelineSchedule"));
        QVERIFY(schedule);
        QVERIFY(schedule->toolTip().contains(QStringLiteral("InterleavedZeroBubble")));
        QCOMPARE(schedule->currentData().toInt(), static_cast<int>(core::PipelineSchedule::OneFOneB));
        QVERIFY(doc()->scenario().layout.pp > 1 && schedule->isEnabled());
        const core::Plan before = doc()->plan();
        QVERIFY(before.time.bubbleSeconds > 0);
        editor()->moreSection()->setExpanded(true);
        const int zeroBubble = schedule->findData(static_cast<int>(core::PipelineSchedule::ZeroBubbleH1));
        QVERIFY(zeroBubble >= 0);
        schedule->setCurrentIndex(zeroBubble);
        emit schedule->activated(zeroBubble);
        QVERIFY(doc()->scenario().training.pipelineSchedule == core::PipelineSchedule::ZeroBubbleH1);
        QVERIFY(doc()->plan().time.bubbleSeconds < before.time.bubbleSeconds);
        doc()->undoStack()->undo();
        QVERIFY(doc()->scenario().training.pipelineSchedule == core::PipelineSchedule::OneFOneB);
        QCOMPARE(schedule->currentData().toInt(), static_cast<int>(core::PipelineSchedule::OneFOneB));
        QCOMPARE(doc()->plan().time.bubbleSeconds, before.time.bubbleSeconds);
        // Without a pipeline the box is disabled and says why.
        core::Scenario s = doc()->scenario();
        s.layout.dp *= s.layout.pp;
        s.layout.pp = 1;
        s.layout.vpp = 1;
        doc()->edit(s, QStringLiteral("no pipeline"));
        QVERIFY(!schedule->isEnabled());
        QVERIFY(schedule->toolTip().contains(QStringLiteral("PP 1")));
        doc()->undoStack()->undo();
        QVERIFY(schedule->isEnabled());
    }

    void zero3GatherChoiceFollowsTheZeroStageAndChangesThePlan() {
        auto* gather = m_window->scenarioPanel()->findChild<QComboBox*>(QStringLiteral("zero3Gather"));
        QVERIFY(gather);
        QVERIFY(gather->toolTip().contains(QStringLiteral("DeepSpeed")));
        // The default scenario uses ZeRO-1: nothing is gathered layer by layer, and the box says so.
        QVERIFY(doc()->scenario().training.zeroStage < 3);
        QVERIFY(!gather->isEnabled());
        QVERIFY(gather->toolTip().contains(QStringLiteral("Not ZeRO stage 3")));
        core::Scenario s = doc()->scenario();
        s.training.zeroStage = 3;
        doc()->edit(s, QStringLiteral("ZeRO-3"));
        QVERIFY(gather->isEnabled());
        QVERIFY(!gather->toolTip().contains(QStringLiteral("Not ZeRO stage 3")));
        const core::Plan layer = doc()->plan();
        editor()->moreSection()->setExpanded(true);
        const int module = gather->findData(static_cast<int>(core::Zero3Gather::Module));
        QVERIFY(module >= 0);
        gather->setCurrentIndex(module);
        emit gather->activated(module);
        QVERIFY(doc()->scenario().training.zero3Gather == core::Zero3Gather::Module);
        QVERIFY(doc()->plan().time.dpCommExposedSeconds > layer.time.dpCommExposedSeconds);
        doc()->undoStack()->undo();
        QVERIFY(doc()->scenario().training.zero3Gather == core::Zero3Gather::Layer);
        QCOMPARE(gather->currentData().toInt(), static_cast<int>(core::Zero3Gather::Layer));
        doc()->undoStack()->undo();
        QVERIFY(!gather->isEnabled());
    }

    void moeDispatcherChoiceReachesTheScenarioAndUndoes() {
        auto* dispatcher = m_window->scenarioPanel()->findChild<QComboBox*>(QStringLiteral("moeDispatcher"));
        QVERIFY(dispatcher);
        QVERIFY(dispatcher->toolTip().contains(QStringLiteral("DeepEP")));
        QCOMPARE(dispatcher->currentData().toInt(), static_cast<int>(core::MoeDispatcher::AllToAll));
        editor()->moreSection()->setExpanded(true);
        const int deepep = dispatcher->findData(static_cast<int>(core::MoeDispatcher::Deduplicated));
        QVERIFY(deepep >= 0);
        dispatcher->setCurrentIndex(deepep);
        emit dispatcher->activated(deepep);
        QVERIFY(doc()->scenario().training.moeDispatcher == core::MoeDispatcher::Deduplicated);
        // The default (dense) model has no experts: nothing to dispatch.
        QCOMPARE(doc()->plan().time.epCommSeconds, 0.0);
        doc()->undoStack()->undo();
        QVERIFY(doc()->scenario().training.moeDispatcher == core::MoeDispatcher::AllToAll);
        QCOMPARE(dispatcher->currentData().toInt(), static_cast<int>(core::MoeDispatcher::AllToAll));
    }

    void pipelineSplitChoiceMovesALayerOffTheFirstStageAndUndoes() {
        auto* split = m_window->scenarioPanel()->findChild<QComboBox*>(QStringLiteral("pipelineSplit"));
        QVERIFY(split);
        QVERIFY(split->toolTip().contains(QStringLiteral("--account-for-embedding-in-pipeline-split")));
        QCOMPARE(split->currentData().toInt(), static_cast<int>(core::PipelineSplit::Auto));
        // The default plan: 80 layers on PP 4, an even split that auto leaves alone.
        const core::Plan before = doc()->plan();
        QCOMPARE(before.memory.stages[0].layers, 20);
        editor()->moreSection()->setExpanded(true);
        const int counted = split->findData(static_cast<int>(core::PipelineSplit::EmbeddingAndLoss));
        QVERIFY(counted >= 0);
        split->setCurrentIndex(counted);
        emit split->activated(counted);
        QVERIFY(doc()->scenario().training.pipelineSplit == core::PipelineSplit::EmbeddingAndLoss);
        // 82 units over 4 ranks: 21, 21, 20, 20, less the embedding's unit on the first rank and the loss's
        // on the last.
        const core::Plan after = doc()->plan();
        QVERIFY(after.valid);
        QCOMPARE(after.memory.stages[0].layers, 20);
        QCOMPARE(after.memory.stages[1].layers, 21);
        QCOMPARE(after.memory.stages[3].layers, 19);
        doc()->undoStack()->undo();
        QVERIFY(doc()->scenario().training.pipelineSplit == core::PipelineSplit::Auto);
        QCOMPARE(split->currentData().toInt(), static_cast<int>(core::PipelineSplit::Auto));
    }

    void expertTpChoiceOffersWhatFitsAndUndoes() {
        auto* etp = m_window->scenarioPanel()->findChild<QComboBox*>(QStringLiteral("expertTp"));
        QVERIFY(etp);
        QVERIFY(etp->toolTip().contains(QStringLiteral("--expert-tensor-parallel-size")));
        QVERIFY(!etp->isEnabled()); // the default model is dense
        // Mixtral 8x7B on 8 GPUs as TP 2 x DP 4 with EP 4: auto = expert TP 2 (Megatron's default).
        core::Scenario s = doc()->scenario();
        s.model = core::findModelPreset("mixtral-8x7b")->model;
        s.cluster.nodes = 1;
        s.layout = core::Layout{};
        s.layout.tp = 2;
        s.layout.dp = 4;
        s.layout.ep = 4;
        s.layout.accumulation = 8;
        s.training.zeroStage = 1;
        doc()->edit(s, QStringLiteral("mixtral"));
        QVERIFY(doc()->plan().valid);
        QVERIFY(etp->isEnabled());
        QCOMPARE(etp->itemText(0), QStringLiteral("Auto (2)"));
        QCOMPARE(etp->count(), 3); // auto, 2, 1
        const double tpBefore = doc()->plan().time.tpCommSeconds;
        const int whole = etp->findData(1);
        QVERIFY(whole > 0);
        etp->setCurrentIndex(whole);
        emit etp->activated(whole);
        QCOMPARE(doc()->scenario().layout.etp, 1);
        QVERIFY(doc()->plan().valid);
        QVERIFY(doc()->plan().time.tpCommSeconds < tpBefore); // no TP collective in the MLP half
        doc()->undoStack()->undo();
        QCOMPARE(doc()->scenario().layout.etp, 0);
        QCOMPARE(etp->currentData().toInt(), 0);
        // EP 8 > DP 4: only whole experts fit, and auto says so.
        s.layout.ep = 8;
        doc()->edit(s, QStringLiteral("ep 8"));
        QVERIFY(doc()->plan().valid);
        QCOMPARE(etp->itemText(0), QStringLiteral("Auto (1)"));
        QCOMPARE(etp->findData(2), -1);
        // The EP overlap box hides the all-to-alls behind another micro batch's compute.
        const double epBefore = doc()->plan().time.epCommSeconds;
        QVERIFY(epBefore > 0);
        toggle(box("overlapEpComm"));
        QVERIFY(doc()->scenario().training.overlapEpComm);
        QVERIFY(doc()->plan().time.epCommSeconds < epBefore);
        doc()->undoStack()->undo();
        QVERIFY(!box("overlapEpComm")->isChecked());
        doc()->undoStack()->undo();
        doc()->undoStack()->undo();
    }

    void boxesFollowEditsMadeElsewhere() {
        core::Scenario s = doc()->scenario();
        s.training.overlapTpComm = core::Toggle::On;
        s.training.overlapPpComm = true;
        s.training.overlapDpComm = core::Toggle::On;
        doc()->edit(s, QStringLiteral("all overlaps on"));
        QVERIFY(box("overlapTpComm")->isChecked());
        QVERIFY(box("overlapPpComm")->isChecked());
        QVERIFY(box("overlapDpComm")->isChecked());
        doc()->undoStack()->undo();
        QVERIFY(!box("overlapTpComm")->isChecked());
        QVERIFY(!box("overlapPpComm")->isChecked());
        QVERIFY(!box("overlapDpComm")->isChecked());
    }

    void autoSwitchesShowTheHabitOfTheGpu() {
        // Left on auto, the TP and DP boxes show what the plan uses: on in the Megatron style on H100
        // (NVIDIA's Megatron-Core recipes' habit), off on A100; a click states the switch.
        core::Scenario s = doc()->scenario();
        s.training.overlapTpComm = core::Toggle::Auto;
        s.training.overlapDpComm = core::Toggle::Auto;
        doc()->edit(s, QStringLiteral("overlaps on auto"));
        QVERIFY(box("overlapTpComm")->isChecked());
        QVERIFY(box("overlapDpComm")->isChecked());
        QVERIFY(box("overlapTpComm")->toolTip().contains(QStringLiteral("Until set")));
        const double tpAuto = doc()->plan().time.tpCommSeconds;
        s.cluster.gpu = core::findGpuPreset("a100-sxm-80gb")->gpu;
        doc()->edit(s, QStringLiteral("A100"));
        QVERIFY(!box("overlapTpComm")->isChecked());
        QVERIFY(!box("overlapDpComm")->isChecked());
        doc()->undoStack()->undo();
        QVERIFY(box("overlapTpComm")->isChecked());
        toggle(box("overlapTpComm"));
        QVERIFY(doc()->scenario().training.overlapTpComm == core::Toggle::Off);
        QVERIFY(doc()->plan().time.tpCommSeconds > tpAuto);
        doc()->undoStack()->undo();
        QVERIFY(doc()->scenario().training.overlapTpComm == core::Toggle::Auto);
        doc()->undoStack()->undo();
    }
};

QTEST_MAIN(TestTrainingOptions)
#include "test_training_options.moc"
