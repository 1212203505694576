// The Plan tab's MFU gauge and key figures agree with the memory chart: a layout that does not fit greys
// the gauge ("does not fit", no band) and the rate and time cards, and a layout that fits shows its band
// again. The words are the core's (core::mfuGaugeState, core::keyFigures).
#include "WindowTestSupport.h"
#include "core/estimate/Evaluate.h"
#include "core/estimate/KeyFigures.h"
#include "ui/charts/MfuGauge.h"
#include "ui/document/ScenarioDocument.h"
#include "ui/plan/KeyFigures.h"
#include "ui/plan/PlanView.h"
#include "ui/scenario/ScenarioPanel.h"
#include "ui/shell/MainWindow.h"
#include "ui/shell/Settings.h"
#include "ui/widgets/FigureLabel.h"

#include <QComboBox>
#include <QLabel>

#include <memory>

using namespace lp;

class TestPlanFigures : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    std::unique_ptr<ui::MainWindow> m_window;

    ui::ScenarioDocument* doc() const { return m_window->document(); }
    ui::PlanView* plan() const { return m_window->planView(); }

    // Picks a model preset in the scenario panel's list, as a user does.
    void chooseModel(const QString& name) {
        auto* box = m_window->scenarioPanel()->findChild<QComboBox*>(QStringLiteral("modelPreset"));
        QVERIFY(box);
        const int index = box->findText(name, Qt::MatchStartsWith);
        QVERIFY2(index >= 0, qPrintable(name));
        box->setCurrentIndex(index);
        emit box->activated(index);
        QCoreApplication::processEvents();
    }

    // The gauge, the line under it and every card show the core's state of the plan on screen.
    void verifyGaugeAndCardsMatchCore() {
        const core::Plan p = core::evaluate(doc()->shownScenario(), doc()->profile());
        const ui::MemoryUnit unit = m_window->settings()->memoryUnit();
        const core::MfuGaugeState state = core::mfuGaugeState(p, unit);
        QCOMPARE(plan()->gauge()->isGreyed(), state.greyed());
        QCOMPARE(plan()->gauge()->bandText(), ui::qs(state.bandText));
        QVERIFY(plan()->mfuLabel()->text().contains(ui::qs(state.bandText)));
        for (const core::KeyFigure& card : core::keyFigures(doc()->shownScenario(), p, unit)) {
            ui::FigureLabel* shown = plan()->keyFigures()->figure(ui::qs(card.id));
            QVERIFY(shown);
            QCOMPARE(shown->isGreyed(), card.greyed);
            // The core's meaning, then (step time and throughput) the sentence of the trust band.
            QVERIFY2(shown->toolTip().startsWith(ui::qs(card.meaning)), qPrintable(shown->toolTip()));
        }
    }

private slots:
    void initTestCase() { test::isolateUserFolders(m_dir); }

    void init() {
        m_window = test::openTestWindow(m_dir);
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    }

    void cleanup() { test::closeTestWindow(m_window); }

    void aPlanThatDoesNotFitGreysTheGaugeAndTheCards() {
        QVERIFY(!plan()->gauge()->isGreyed()); // the seed fits
        QVERIFY(plan()->gauge()->bandText().contains(QStringLiteral("well-tuned")));
        verifyGaugeAndCardsMatchCore();

        chooseModel(QStringLiteral("Llama-3.1-405B")); // 278.6 GiB per GPU on 64 H100
        QVERIFY(doc()->shownPlan().valid && !doc()->shownPlan().memory.fits);
        QVERIFY(plan()->gauge()->isGreyed());
        QVERIFY(plan()->gauge()->bandText().startsWith(QStringLiteral("does not fit: ")));
        QVERIFY(!plan()->mfuLabel()->text().contains(QStringLiteral("well-tuned")));
        QVERIFY(plan()->keyFigures()->figure(QStringLiteral("time.step"))->isGreyed());
        QVERIFY(plan()->keyFigures()->figure(QStringLiteral("hfu"))->isGreyed());
        QVERIFY(!plan()->keyFigures()->figure(QStringLiteral("effective_batch"))->isGreyed());
        verifyGaugeAndCardsMatchCore();
        plan()->gauge()->repaint(); // the greyed dial paints

        // Back to a model that fits: the band and the colours return.
        chooseModel(QStringLiteral("Llama-2-70B"));
        QVERIFY(doc()->shownPlan().memory.fits);
        QVERIFY(!plan()->gauge()->isGreyed());
        QVERIFY(!plan()->keyFigures()->figure(QStringLiteral("time.step"))->isGreyed());
        verifyGaugeAndCardsMatchCore();
    }

    // One GPU, as the tour's one-GPU step: the status bar counts it in the singular, and the plan (1,500%
    // of the memory) greys the gauge rather than showing a green band.
    void oneGpuIsSingularAndDoesNotFit() {
        core::Scenario s = doc()->scenario();
        s.cluster.nodes = 1;
        s.cluster.gpusPerNode = 1;
        s.cluster.nvlinkDomain = 1;
        s.layout = core::Layout{};
        doc()->edit(s, QStringLiteral("one GPU"));
        QCoreApplication::processEvents();
        QTRY_COMPARE(m_window->statusLabel(1)->text(), QStringLiteral("1 GPU"));
        QVERIFY(plan()->gauge()->isGreyed());
        QVERIFY(plan()
                    ->keyFigures()
                    ->figure(QStringLiteral("training_time"))
                    ->detail()
                    .endsWith(QStringLiteral(" tokens, 1 GPU")));
        verifyGaugeAndCardsMatchCore();
    }
};

QTEST_MAIN(TestPlanFigures)
#include "test_plan_figures.moc"
