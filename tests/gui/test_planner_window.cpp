// The real main window, driven like a user: sliders, spin boxes, actions. The charts must show what
// the core computes, and every problem must show inline.
#include "WindowTestSupport.h"
#include "core/estimate/Evaluate.h"
#include "core/estimate/KeyFigures.h"
#include "core/io/Presets.h"
#include "core/measured/TrustBand.h"
#include "core/measured/ValidationTrust.h"
#include "core/model/Units.h"
#include "core/report/ChartHeadlines.h"
#include "core/util/NumberFormat.h"
#include "ui/calibrate/CalibrateTab.h"
#include "ui/charts/MemoryChart.h"
#include "ui/charts/MfuGauge.h"
#include "ui/charts/TimeChart.h"
#include "ui/compare/CompareView.h"
#include "ui/document/BundledValidationGroups.h"
#include "ui/document/ScenarioDocument.h"
#include "ui/explore/AxisSweepView.h"
#include "ui/explore/ExploreTab.h"
#include "ui/measured/MeasuredRunPanel.h"
#include "ui/plan/DiagnosticsModel.h"
#include "ui/plan/DiagnosticsPanel.h"
#include "ui/plan/ExplanationPanel.h"
#include "ui/plan/KeyFigures.h"
#include "ui/plan/PlanView.h"
#include "ui/scenario/LayoutSliders.h"
#include "ui/scenario/ScenarioPanel.h"
#include "ui/shell/FileController.h"
#include "ui/shell/MainWindow.h"
#include "ui/shell/Settings.h"
#include "ui/shell/WindowMenus.h"
#include "ui/shell/WindowTabs.h"
#include "ui/timeline/TimelineView.h"
#include "ui/validate/ValidationTab.h"
#include "ui/widgets/FigureLabel.h"
#include "ui/widgets/InlineBanner.h"
#include "ui/widgets/Palette.h"
#include "ui/widgets/StepControl.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QSet>
#include <QSlider>
#include <QSpinBox>
#include <QTabWidget>
#include <QTextBrowser>
#include <QUndoStack>
#include <QtCharts/QBarSet>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>

#include <memory>

using namespace lp;
using core::LayoutAxis;

class TestPlannerWindow : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    std::unique_ptr<ui::MainWindow> m_window;
    test::ScriptedPrompter* m_prompter = nullptr;

    ui::ScenarioDocument* doc() const { return m_window->document(); }
    ui::LayoutSliders* sliders() const { return m_window->scenarioPanel()->layoutSliders(); }
    ui::StepControl* control(LayoutAxis a) const { return sliders()->control(a); }
    ui::MemoryChart* memory() const { return m_window->planView()->memoryChart(); }

    // The memory bars must hold exactly what the core computes for the scenario on screen.
    void verifyBarsMatchCore(const core::Scenario& s) {
        const core::Plan expected = core::evaluate(s, doc()->profile());
        QVERIFY(expected.valid);
        const double unit = ui::bytesPerUnit(memory()->unit());
        QCOMPARE(memory()->stageCount(), static_cast<int>(expected.memory.stages.size()));
        for (core::MemoryComponent c : ui::kMemoryComponents) {
            const QBarSet* set = memory()->barSet(c);
            for (int i = 0; i < set->count(); ++i)
                QCOMPARE(set->at(i),
                         ui::memoryBytes(expected.memory.stages[static_cast<std::size_t>(i)], c) / unit);
        }
        QCOMPARE(memory()->capacityShown(), expected.memory.capacityBytes / unit);
        QCOMPARE(memory()->markedWorstStage(), expected.memory.worstStage);
    }

    // Types a value into a spin box and presses Enter, as a user would.
    static void typeInto(QSpinBox* spin, int value) {
        spin->setFocus();
        spin->selectAll();
        QTest::keyClicks(spin, QString::number(value));
        QTest::keyClick(spin, Qt::Key_Return);
    }

private slots:
    void initTestCase() { test::isolateUserFolders(m_dir); }

    void init() {
        m_window = test::openTestWindow(m_dir, &m_prompter);
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    }

    void cleanup() { test::closeTestWindow(m_window); }

    void opensOnTheDefaultScenario() {
        QVERIFY(doc()->scenario() == core::defaultScenario());
        QCOMPARE(control(LayoutAxis::Tp)->value(), 8);
        QCOMPARE(control(LayoutAxis::Pp)->value(), 4);
        QCOMPARE(control(LayoutAxis::Dp)->value(), 2);
        QVERIFY(sliders()->keepGpuCountBox()->isChecked());
        verifyBarsMatchCore(core::defaultScenario());
        QVERIFY(!memory()->isOverflow());
        QVERIFY(!m_window->layoutBanner()->isVisible());
        QCOMPARE(m_window->statusLabel(1)->text(), QStringLiteral("64 GPUs"));
        QVERIFY(m_window->statusLabel(2)->text().contains(QStringLiteral("µs")));
        QCOMPARE(m_window->statusLabel(3)->text(), QStringLiteral("saved"));
        const ui::FigureLabel* batch =
            m_window->planView()->keyFigures()->figure(QStringLiteral("effective_batch"));
        QCOMPARE(batch->value(), QStringLiteral("2 × 16 × 2 = 64"));
    }

    void tpSliderFromEightToFourKeepsTheGpuCount() {
        const QString mfuBefore = m_window->planView()->mfuLabel()->text();
        QSlider* tp = control(LayoutAxis::Tp)->slider();
        tp->setFocus();
        QTest::keyClick(tp, Qt::Key_Left); // the steps are 1, 2, 4, 8: one step left is 4
        QCOMPARE(doc()->scenario().layout.tp, 4);
        QCOMPARE(doc()->scenario().layout.dp, 4);
        QCOMPARE(control(LayoutAxis::Dp)->value(), 4);
        QCOMPARE(control(LayoutAxis::Dp)->spinBox()->value(), 4);
        QCOMPARE(doc()->scenario().cluster.gpus(), 64LL);
        verifyBarsMatchCore(doc()->scenario());
        const core::Plan expected = core::evaluate(doc()->scenario(), doc()->profile());
        const QString mfuAfter = m_window->planView()->mfuLabel()->text();
        QVERIFY(mfuAfter != mfuBefore);
        QVERIFY2(mfuAfter.contains(ui::qs(core::mfuText(expected.mfu))), qPrintable(mfuAfter));
        QCOMPARE(m_window->planView()->gauge()->mfu(), expected.mfu);
        QTRY_COMPARE(m_window->statusLabel(3)->text(), QStringLiteral("unsaved"));
        QVERIFY(m_window->isWindowModified());
        const ui::FigureLabel* batch =
            m_window->planView()->keyFigures()->figure(QStringLiteral("effective_batch"));
        QCOMPARE(batch->value(), QStringLiteral("2 × 16 × 4 = 128"));
    }

    void holdingTheGlobalBatchMakesAccumulationFollowTp() {
        const ui::FigureLabel* batch =
            m_window->planView()->keyFigures()->figure(QStringLiteral("effective_batch"));
        QVERIFY(!batch->detail().contains(QStringLiteral("was")));
        QVERIFY(!sliders()->holdGlobalBatchBox()->isChecked());
        QTest::mouseClick(sliders()->holdGlobalBatchBox(), Qt::LeftButton, {}, QPoint(8, 8));
        QVERIFY(doc()->holdGlobalBatch());
        QVERIFY(m_window->settings()->holdGlobalBatch());
        QSlider* tp = control(LayoutAxis::Tp)->slider();
        tp->setFocus();
        QTest::keyClick(tp, Qt::Key_Left); // TP 8 -> 4 doubles DP; accumulation halves
        QCOMPARE(doc()->scenario().layout.dp, 4);
        QCOMPARE(doc()->scenario().layout.accumulation, 8);
        QCOMPARE(batch->value(), QStringLiteral("2 × 8 × 4 = 64"));
        QVERIFY2(!batch->detail().contains(QStringLiteral("was")), qPrintable(batch->detail()));
        // Without the hold the batch doubles with DP, and the card says what it was.
        QTest::mouseClick(sliders()->holdGlobalBatchBox(), Qt::LeftButton, {}, QPoint(8, 8));
        QVERIFY(!doc()->holdGlobalBatch());
        tp->setFocus();
        QTest::keyClick(tp, Qt::Key_Left); // TP 4 -> 2: DP 8
        QCOMPARE(batch->value(), QStringLiteral("2 × 8 × 8 = 128"));
        QVERIFY2(batch->detail().contains(QStringLiteral("was 64")), qPrintable(batch->detail()));
        // A new document has no earlier batch to compare with.
        doc()->newScenario();
        QVERIFY2(!batch->detail().contains(QStringLiteral("was")), qPrintable(batch->detail()));
    }

    void withoutKeepingGpusTheClusterFollows() {
        QTest::mouseClick(sliders()->keepGpuCountBox(), Qt::LeftButton, {}, QPoint(8, 8));
        QVERIFY(!doc()->keepGpuCount());
        QVERIFY(control(LayoutAxis::Dp)->slider()->isEnabled());
        QSlider* tp = control(LayoutAxis::Tp)->slider();
        tp->setFocus();
        QTest::keyClick(tp, Qt::Key_Left);
        QCOMPARE(doc()->scenario().layout.tp, 4);
        QCOMPARE(doc()->scenario().layout.dp, 2);
        QCOMPARE(doc()->scenario().cluster.gpus(), 32LL);
        QTRY_COMPARE(m_window->statusLabel(1)->text(), QStringLiteral("32 GPUs"));
        verifyBarsMatchCore(doc()->scenario());
        // The choice persists.
        QCOMPARE(QSettings().value(QStringLiteral("layout/keepGpuCount")).toBool(), false);
    }

    void aPresetTrainedAtAnotherSequenceLengthKeepsItsName() {
        auto* model = m_window->scenarioPanel()->findChild<QComboBox*>(QStringLiteral("modelPreset"));
        QVERIFY(model);
        QCOMPARE(model->currentData().toString(), QStringLiteral("seed-70b"));
        core::Scenario s = doc()->scenario();
        s.model.seqLen = 2048; // a training choice, not the architecture
        doc()->edit(s, QStringLiteral("2K tokens"));
        QCOMPARE(model->currentData().toString(), QStringLiteral("seed-70b"));
        s.model.layers = 40; // another architecture
        s.layout.pp = 2;
        doc()->edit(s, QStringLiteral("40 layers"));
        QCOMPARE(model->currentText(), QStringLiteral("Custom"));
        doc()->undoStack()->undo();
        doc()->undoStack()->undo();
        QCOMPARE(model->currentData().toString(), QStringLiteral("seed-70b"));
    }

    void valuesBeyondWhatTheFieldsOfferAreShownNotClamped() {
        // A scenario file holds more than the fields offer for typing (2,000 layers; DP 100,000): the
        // fields show the scenario's numbers, not their own maxima.
        core::Scenario s = doc()->scenario();
        s.model.layers = 2000;
        s.cluster.nodes = 50000;
        s.layout = core::Layout{};
        s.layout.tp = 1;
        s.layout.pp = 4;
        s.layout.dp = 100000;
        doc()->edit(s, QStringLiteral("huge"));
        QSpinBox* layers = nullptr;
        for (auto* spin : m_window->scenarioPanel()->findChildren<QSpinBox*>())
            if (spin->accessibleName() == QStringLiteral("Layers"))
                layers = spin;
        QVERIFY(layers);
        QCOMPARE(layers->value(), 2000);
        QCOMPARE(control(LayoutAxis::Dp)->value(), 100000);
        QCOMPARE(control(LayoutAxis::Dp)->spinBox()->value(), 100000);
        const auto nodes = m_window->scenarioPanel()->findChildren<QSpinBox*>();
        QVERIFY(std::any_of(nodes.begin(), nodes.end(), [](QSpinBox* n) {
            return n->accessibleName() == QStringLiteral("Nodes") && n->value() == 50000;
        }));
        QCOMPARE(doc()->scenario().model.layers, 2000); // showing it changed nothing
        const ui::FigureLabel* batch =
            m_window->planView()->keyFigures()->figure(QStringLiteral("effective_batch"));
        QCOMPARE(batch->value(), QStringLiteral("1 × 1 × 100,000 = 100,000"));
        doc()->undoStack()->undo();
    }

    void aFigureTooWideForItsCardEndsInAnEllipsisNotACutDigit() {
        ui::FigureLabel figure(QStringLiteral("GPU-hours"), QStringLiteral("gpu_hours"),
                               QStringLiteral("gpu_hours"), QString());
        figure.resize(150, 80);
        figure.show();
        QVERIFY(QTest::qWaitForWindowExposed(&figure));
        figure.setValue(QStringLiteral("64"), QStringLiteral("for the token budget"));
        QCOMPARE(figure.shownValue(), QStringLiteral("64")); // fits: as it is
        figure.setValue(QStringLiteral("393,777,438,855,123,456"));
        QVERIFY(figure.shownValue().endsWith(QChar(0x2026)));
        QVERIFY(figure.shownValue().startsWith(QStringLiteral("393,777")));
        // An equation wraps before its result, which reads whole; a left side still too wide gives way.
        figure.setValue(QStringLiteral("2 × 16 × 100,000 = 3,200,000"));
        QVERIFY(figure.shownValue().endsWith(QStringLiteral("\n= 3,200,000")));
        figure.setValue(QStringLiteral("2 × 16 × 100,000,000,000 = 3,200,000,000,000"));
        QVERIFY(figure.shownValue().startsWith(QChar(0x2026)));
        // Long runs in years rather than five-digit days; under two years, days.
        QCOMPARE(ui::formatDuration(430.7 * 86400), QStringLiteral("430.7 days"));
        QCOMPARE(ui::formatDuration(15647.3 * 86400), QStringLiteral("42.8 years"));
    }

    void aCloudSystemBringsItsNetworkAndStaysChosen() {
        auto* system = m_window->scenarioPanel()->findChild<QComboBox*>(QStringLiteral("clusterPreset"));
        QVERIFY(system);
        QCOMPARE(system->currentData().toString(), QStringLiteral("dgx-h100"));
        const int a3 = system->findData(QStringLiteral("gcp-a3-high"));
        QVERIFY(a3 > 0);
        const QString exposedBefore = m_window->planView()->mfuLabel()->text();
        system->setCurrentIndex(a3);
        emit system->activated(a3);
        // Same GPU and node as the DGX H100, a quarter of its network per GPU: the picker must not fall back
        // to the first H100 system, and the plan must feel the slower network.
        QCOMPARE(doc()->scenario().cluster.gpu.networkBandwidth, 12.5e9);
        QCOMPARE(doc()->scenario().cluster.nodes, 8);
        QCOMPARE(system->currentData().toString(), QStringLiteral("gcp-a3-high"));
        const core::Plan plan = core::evaluate(doc()->scenario(), doc()->profile());
        QVERIFY(plan.valid);
        QVERIFY(m_window->planView()->mfuLabel()->text() != exposedBefore);
        doc()->undoStack()->undo();
        QCOMPARE(doc()->scenario().cluster.gpu.networkBandwidth, 50e9);
        QCOMPARE(system->currentData().toString(), QStringLiteral("dgx-h100"));
    }

    void aLayoutThatDoesNotFitTurnsTheChartRed() {
        core::Scenario s = doc()->scenario();
        s.training.zeroStage = 0;
        doc()->edit(s, QStringLiteral("ZeRO 0"));
        typeInto(control(LayoutAxis::Tp)->spinBox(), 1);
        typeInto(control(LayoutAxis::Pp)->spinBox(), 1);
        QCOMPARE(doc()->scenario().layout.dp, 64);
        QVERIFY(doc()->plan().valid);
        QVERIFY(!doc()->plan().memory.fits);
        QVERIFY(memory()->isOverflow());
        QVERIFY(memory()->property("overflow").toBool());
        QVERIFY(memory()->headline().contains(QStringLiteral("Does not fit")));
        QCOMPARE(memory()->headlineColor(), ui::palette::error());
        QCOMPARE(memory()->stageCount(), 1);
        verifyBarsMatchCore(doc()->scenario());
        QVERIFY(m_window->diagnosticsPanel()->model()->ids().contains(QStringLiteral("does_not_fit")));
        QVERIFY(!m_window->layoutBanner()->isVisible()); // valid, just too big
        // The diagnostic words its memory in the unit the chart beside it reads.
        ui::DiagnosticsModel* diagnostics = m_window->diagnosticsPanel()->model();
        const int row = static_cast<int>(diagnostics->ids().indexOf(QStringLiteral("does_not_fit")));
        const double worst = doc()->plan().memory.worstTotalBytes();
        for (const ui::MemoryUnit unit : {ui::MemoryUnit::GB, ui::MemoryUnit::GiB}) {
            m_window->settings()->setMemoryUnit(unit);
            QVERIFY(diagnostics->index(row).data().toString().contains(ui::formatBytes(worst, unit, 1)));
            QVERIFY(memory()->headline().contains(ui::formatBytes(worst, unit, 1)));
        }
    }

    void anInvalidLayoutShowsTheBannerAndKeepsTheLastValidPlan() {
        const core::Plan before = doc()->plan();
        const QString mfuBefore = m_window->planView()->mfuLabel()->text();
        typeInto(control(LayoutAxis::Tp)->spinBox(), 3);
        QCOMPARE(doc()->scenario().layout.tp, 3);
        QVERIFY(!doc()->plan().valid);
        QVERIFY(m_window->layoutBanner()->isVisible());
        QCOMPARE(m_window->layoutBanner()->kind(), ui::InlineBanner::Kind::Error);
        QVERIFY(m_window->layoutBanner()->title().contains(QStringLiteral("invalid")));
        QVERIFY2(m_window->layoutBanner()->details().contains(QStringLiteral("64 attention heads")),
                 qPrintable(m_window->layoutBanner()->details()));
        // The charts and figures still show the last valid plan.
        verifyBarsMatchCore(core::defaultScenario());
        QCOMPARE(m_window->planView()->gauge()->mfu(), before.mfu);
        QVERIFY(m_window->planView()->mfuLabel()->text().contains(ui::qs(core::mfuText(before.mfu))));
        QVERIFY(mfuBefore.contains(ui::qs(core::mfuText(before.mfu))));
        QVERIFY(memory()->headline().contains(QStringLiteral("last valid")));
        QVERIFY(m_window->diagnosticsPanel()->model()->ids().contains(
            QStringLiteral("heads_not_divisible_by_tp")));
        // The slider shows the typed value; stepping with the arrows goes back to valid values.
        QSpinBox* spin = control(LayoutAxis::Tp)->spinBox();
        spin->setFocus();
        QTest::keyClick(spin, Qt::Key_Up);
        QCOMPARE(doc()->scenario().layout.tp, 4);
        QVERIFY(doc()->plan().valid);
        QVERIFY(!m_window->layoutBanner()->isVisible());
    }

    // The tab bar is WindowTabs' list in its order, titles with their mnemonics, each tab the page that
    // WindowTabs created for it: no placeholder waits to be replaced.
    void theTabsAreWindowTabsInItsOrder() {
        const auto window = test::makeFullQuietWindow(); // as the program builds it
        const QStringList titles = {QStringLiteral("&Plan"),     QStringLiteral("T&imeline"),
                                    QStringLiteral("&Explore"),  QStringLiteral("One a&xis"),
                                    QStringLiteral("&Compare"),  QStringLiteral("C&alibrate"),
                                    QStringLiteral("&Validate"), QStringLiteral("&Measured run")};
        QVERIFY(!ui::WindowTabs::of(*m_window)); // the bare window has Plan alone
        QCOMPARE(m_window->tabs()->count(), 1);
        QTabWidget* tabs = window->tabs();
        const ui::WindowTabs* installed = ui::WindowTabs::of(*window);
        QVERIFY(installed);
        QCOMPARE(tabs->count(), ui::kWindowTabCount);
        for (int i = 0; i < tabs->count(); ++i) {
            const auto tab = static_cast<ui::WindowTab>(i);
            QCOMPARE(tabs->tabText(i), ui::WindowTabs::title(tab));
            QCOMPARE(tabs->tabText(i), titles[i]);
            QCOMPARE(tabs->tabToolTip(i), ui::WindowTabs::toolTip(tab));
            QVERIFY(!tabs->tabToolTip(i).isEmpty());
            QCOMPARE(tabs->widget(i), installed->page(tab));
        }
        QCOMPARE(tabs->widget(0), static_cast<QWidget*>(window->planView()));
        QVERIFY(qobject_cast<ui::TimelineView*>(tabs->widget(1)));
        QVERIFY(qobject_cast<ui::ExploreTab*>(tabs->widget(2)));
        QVERIFY(qobject_cast<ui::AxisSweepView*>(tabs->widget(3)));
        QVERIFY(qobject_cast<ui::CompareView*>(tabs->widget(4)));
        QVERIFY(qobject_cast<ui::CalibrateTab*>(tabs->widget(5)));
        QVERIFY(qobject_cast<ui::ValidationTab*>(tabs->widget(6)));
        QVERIFY(qobject_cast<ui::MeasuredRunPanel*>(tabs->widget(7)));
        // Every title's mnemonic is a letter of its own: Alt with it reaches exactly one tab.
        QSet<QChar> mnemonics;
        for (const QString& title : titles)
            mnemonics.insert(title.at(title.indexOf(QLatin1Char('&')) + 1).toLower());
        QCOMPARE(mnemonics.size(), titles.size());
        // Installing again adds nothing.
        QCOMPARE(&ui::WindowTabs::install(*window), installed);
        QCOMPARE(tabs->count(), ui::kWindowTabCount);
    }

    // The names the command line's --tab takes: the titles without their &, in any case.
    void tabsAreFoundByTheirNames() {
        QCOMPARE(
            ui::WindowTabs::names(),
            QStringList({QStringLiteral("Plan"), QStringLiteral("Timeline"), QStringLiteral("Explore"),
                         QStringLiteral("One axis"), QStringLiteral("Compare"), QStringLiteral("Calibrate"),
                         QStringLiteral("Validate"), QStringLiteral("Measured run")}));
        QCOMPARE(ui::WindowTabs::fromName(QStringLiteral("one AXIS")), ui::WindowTab::OneAxis);
        QCOMPARE(ui::WindowTabs::fromName(QStringLiteral("measured run")), ui::WindowTab::MeasuredRun);
        QCOMPARE(ui::WindowTabs::fromName(QStringLiteral("timeline")), ui::WindowTab::Timeline);
        QVERIFY(!ui::WindowTabs::fromName(QStringLiteral("One a&xis")));
        QVERIFY(!ui::WindowTabs::fromName(QStringLiteral("Tools")));
    }

    void undoAndRedoThroughTheActions() {
        QSlider* pp = control(LayoutAxis::Pp)->slider();
        pp->setFocus();
        QTest::keyClick(pp, Qt::Key_Right); // PP 4 -> 8, DP 2 -> 1
        QCOMPARE(doc()->scenario().layout.pp, 8);
        QCOMPARE(doc()->scenario().layout.dp, 1);
        QVERIFY(m_window->menus()->undoAction()->isEnabled());
        m_window->menus()->undoAction()->trigger();
        QCOMPARE(doc()->scenario().layout.pp, 4);
        QCOMPARE(doc()->scenario().layout.dp, 2);
        QCOMPARE(control(LayoutAxis::Pp)->value(), 4);
        QCOMPARE(control(LayoutAxis::Pp)->slider()->value(), 2);
        verifyBarsMatchCore(doc()->scenario());
        QVERIFY(!m_window->isWindowModified());
        m_window->menus()->redoAction()->trigger();
        QCOMPARE(control(LayoutAxis::Pp)->value(), 8);
        QCOMPARE(memory()->stageCount(), 8);
        verifyBarsMatchCore(doc()->scenario());
    }

    void aSliderDragIsOneUndoStep() {
        QSlider* acc = control(LayoutAxis::Accumulation)->slider();
        const int start = acc->value();
        acc->setSliderDown(true);
        for (int index = start + 1; index <= start + 8; ++index)
            acc->setSliderPosition(index);
        acc->setSliderDown(false);
        QCOMPARE(doc()->scenario().layout.accumulation, 24);
        QCOMPARE(doc()->undoStack()->count(), 1);
        m_window->menus()->undoAction()->trigger();
        QCOMPARE(doc()->scenario().layout.accumulation, 16);
    }

    void unsavedChangesAreAskedAbout() {
        QTest::keyClick(control(LayoutAxis::MicroBatch)->spinBox(), Qt::Key_Up);
        QVERIFY(doc()->isModified());
        m_prompter->saveChoices = {ui::Prompter::SaveChoice::Cancel};
        QVERIFY(!m_window->files()->newScenario());
        QCOMPARE(m_prompter->asked.size(), 1);
        QCOMPARE(doc()->scenario().layout.microBatch, 3);
        m_prompter->saveChoices = {ui::Prompter::SaveChoice::Discard};
        QVERIFY(m_window->files()->newScenario());
        QVERIFY(doc()->scenario() == core::defaultScenario());
        QVERIFY(!doc()->isModified());
        // Closing with changes asks too; Cancel keeps the window open.
        QTest::keyClick(control(LayoutAxis::MicroBatch)->spinBox(), Qt::Key_Up);
        m_prompter->saveChoices = {ui::Prompter::SaveChoice::Cancel};
        QVERIFY(!m_window->close());
        QVERIFY(m_window->isVisible());
    }

    void unitsSwitchAndPersist() {
        QCOMPARE(memory()->unit(), ui::MemoryUnit::GiB);
        const double gib = memory()->capacityShown();
        const auto actions = m_window->findChildren<QAction*>();
        QAction* gb = nullptr;
        for (QAction* a : actions)
            if (a->text() == QStringLiteral("Memory in &GB"))
                gb = a;
        QVERIFY(gb);
        gb->trigger();
        QCOMPARE(memory()->unit(), ui::MemoryUnit::GB);
        QCOMPARE(memory()->capacityShown(), gib * core::kGiB / core::kGB);
        QVERIFY(memory()->headline().contains(QStringLiteral("GB")));
        QVERIFY(!memory()->headline().contains(QStringLiteral("GiB")));
        QCOMPARE(QSettings().value(QStringLiteral("view/memoryUnit")).toString(), QStringLiteral("GB"));
        verifyBarsMatchCore(doc()->scenario());
        ui::Settings reread;
        QCOMPARE(reread.memoryUnit(), ui::MemoryUnit::GB);
    }

    void figuresExplainThemselves() {
        ui::FigureLabel* hfu = m_window->planView()->keyFigures()->figure(QStringLiteral("hfu"));
        QTest::mouseClick(hfu, Qt::LeftButton);
        QCOMPARE(m_window->explanationPanel()->currentKey(), QStringLiteral("hfu"));
        const auto e = core::explainFigure(doc()->scenario(), doc()->plan(), "hfu");
        QVERIFY(e.has_value());
        const QString text = m_window->explanationPanel()->browser()->toPlainText();
        QVERIFY2(text.contains(QString::fromStdString(e->substituted)), qPrintable(text));
        QVERIFY(text.contains(QString::fromStdString(e->source)));
        // Keyboard: focusing a figure explains it too.
        ui::FigureLabel* batch =
            m_window->planView()->keyFigures()->figure(QStringLiteral("effective_batch"));
        batch->setFocus();
        QCOMPARE(m_window->explanationPanel()->currentKey(), QStringLiteral("effective_batch"));
        QVERIFY(m_window->explanationPanel()->browser()->toPlainText().contains(
            QStringLiteral("2 x 16 x 2 = 64")));
        // Every figure's key is one the core explains.
        for (const ui::FigureLabel* f : m_window->planView()->keyFigures()->figures())
            QVERIFY2(core::explainFigure(doc()->scenario(), doc()->plan(), f->explainKey().toStdString())
                         .has_value(),
                     qPrintable(f->explainKey()));
        for (core::MemoryComponent c : ui::kMemoryComponents)
            QVERIFY(
                core::explainFigure(doc()->scenario(), doc()->plan(), ui::memoryExplainKey(c).toStdString()));
    }

    // A throughput figure's explanation says how far the planner was off on the published runs that share the
    // plan's GPU, style and precision; a GPU no published run used says so; other figures say nothing of it.
    void throughputFiguresSayHowFarToTrustThem() {
        ui::ExplanationPanel* panel = m_window->explanationPanel();
        panel->showKey(QStringLiteral("mfu"));
        QTRY_VERIFY(panel->browser()->toPlainText().contains(QStringLiteral("How far to trust it")));
        const QString text = panel->browser()->toPlainText();
        const core::GroupSummary* g =
            core::validationGroupFor(doc()->scenario(), ui::bundledValidationGroups());
        if (g && g->count >= 3) { // the sets are found beside the checkout (tests/data/validation)
            QCOMPARE(g->gpu, std::string("h100-sxm-80gb"));
            QCOMPARE(g->style, std::string("megatron"));
            QCOMPARE(g->precision, std::string("bf16"));
            QVERIFY2(text.contains(ui::formatNumber(g->count, 0) +
                                   QStringLiteral(" published throughput figures")),
                     qPrintable(text));
            QVERIFY(text.contains(ui::formatPercent(g->medianAbsError, 1)));
            QVERIFY(text.contains(g->medianSpeedError >= 0 ? QStringLiteral("faster")
                                                           : QStringLiteral("slower")));
        }
        QVERIFY(!text.contains(QStringLiteral("measured profile now active")));
        // With a measured hardware profile active, it says the published runs were not predicted with it.
        core::HardwareProfile measured = doc()->profile();
        measured.origin = "measured";
        doc()->setProfileOverride(measured);
        panel->showKey(QStringLiteral("tokens_per_s"));
        QTRY_VERIFY(panel->browser()->toPlainText().contains(QStringLiteral("measured profile now active")));
        doc()->setProfileOverride(std::nullopt);
        panel->showKey(QStringLiteral("effective_batch"));
        QVERIFY(!panel->browser()->toPlainText().contains(QStringLiteral("How far to trust it")));

        core::Scenario onL40s = doc()->scenario();
        onL40s.cluster.gpu = core::findGpuPreset("l40s")->gpu;
        doc()->edit(onL40s, QStringLiteral("GPU"));
        panel->showKey(QStringLiteral("time.step"));
        QTRY_VERIFY(
            panel->browser()->toPlainText().contains(QStringLiteral("No published run on NVIDIA L40S")));
    }

    void everyControlHasATooltipAndTakesFocus() {
        QStringList missing;
        const QList<QWidget*> widgets = m_window->scenarioPanel()->findChildren<QWidget*>();
        for (QWidget* w : widgets) {
            const bool control = qobject_cast<QAbstractSpinBox*>(w) || qobject_cast<QComboBox*>(w) ||
                                 qobject_cast<QAbstractButton*>(w) || qobject_cast<QSlider*>(w) ||
                                 qobject_cast<QLineEdit*>(w);
            if (!control || qobject_cast<QLineEdit*>(w->parentWidget()) ||
                qobject_cast<QAbstractSpinBox*>(w->parentWidget()))
                continue;
            if (w->toolTip().isEmpty())
                missing << QStringLiteral("%1 '%2'").arg(QString::fromLatin1(w->metaObject()->className()),
                                                         w->objectName());
            if (w->focusPolicy() == Qt::NoFocus)
                missing << QStringLiteral("no focus: %1").arg(w->objectName());
        }
        QVERIFY2(missing.isEmpty(), qPrintable(missing.join(QStringLiteral(", "))));
    }

    void diagnosticsModelPassesTheTester() {
        QAbstractItemModelTester tester(m_window->diagnosticsPanel()->model(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        for (int tp : {4, 3, 2, 1})
            typeInto(control(LayoutAxis::Tp)->spinBox(), tp);
        QVERIFY(m_window->diagnosticsPanel()->model()->rowCount() >= 0);
    }

    void followsADarkPalette() {
        const QPalette light = QApplication::palette();
        QPalette dark;
        dark.setColor(QPalette::Window, QColor(37, 39, 43));
        dark.setColor(QPalette::WindowText, QColor(225, 225, 225));
        dark.setColor(QPalette::Base, QColor(28, 30, 33));
        dark.setColor(QPalette::AlternateBase, QColor(45, 47, 52));
        dark.setColor(QPalette::Text, QColor(225, 225, 225));
        dark.setColor(QPalette::Button, QColor(50, 52, 57));
        dark.setColor(QPalette::ButtonText, QColor(225, 225, 225));
        dark.setColor(QPalette::Highlight, QColor(61, 142, 224));
        dark.setColor(QPalette::PlaceholderText, QColor(150, 150, 150));
        QApplication::setPalette(dark);
        QApplication::processEvents();
        const QChart* chart = memory()->chartView()->chart();
        QVERIFY(chart->backgroundBrush().color().lightness() < 80);
        QVERIFY(memory()->headlineColor().lightness() > 150);
        // Component colours stay the same in both themes.
        QCOMPARE(memory()->barSet(core::MemoryComponent::Weights)->color(),
                 ui::palette::memory(core::MemoryComponent::Weights));
        const QString shots = qEnvironmentVariable("LP_TEST_SCREENSHOTS");
        if (!shots.isEmpty()) {
            QVERIFY(m_window->renderScreenshot(QDir(shots).filePath(QStringLiteral("planner-dark.png"))));
            doc()->setLayoutValue(LayoutAxis::Tp, 3); // with the banner
            QVERIFY(
                m_window->renderScreenshot(QDir(shots).filePath(QStringLiteral("planner-dark-invalid.png"))));
        }
        QApplication::setPalette(light);
        QApplication::processEvents();
        QVERIFY(chart->backgroundBrush().color().lightness() > 170);
    }

    void timeChartShowsTheCoreBreakdown() {
        const core::Plan expected = core::evaluate(doc()->scenario(), doc()->profile());
        const ui::TimeChart* chart = m_window->planView()->timeChart();
        for (ui::TimeComponent c : chart->shownComponents())
            QCOMPARE(chart->shownMilliseconds(c), ui::timeSeconds(expected.time, c) * 1e3);
        // The core's headline, then (once the published runs are predicted) the band of runs like it.
        QVERIFY2(chart->headline().startsWith(ui::qs(core::stepTimeHeadline(expected.time))),
                 qPrintable(chart->headline()));
    }

    void keyFiguresAreTheCoresWords_data() {
        QTest::addColumn<QString>("model");
        QTest::newRow("dense") << QStringLiteral("seed-70b");
        QTest::newRow("moe") << QStringLiteral("deepseek-v3");
    }

    // Every card of the Plan tab shows the core's caption, value, detail and meaning for the plan on
    // screen, and the value of the explanation it opens; the 6ND card names the parameters the figure
    // counts (a mixture of experts' active ones, not its 671 B).
    void keyFiguresAreTheCoresWords() {
        QFETCH(QString, model);
        core::Scenario s = doc()->scenario();
        s.model = core::findModelPreset(model.toStdString())->model;
        if (s.model.isMoe()) // 61 layers: PP 8 with EP 8 over the 64 GPUs
            s.layout = core::Layout{.pp = 8, .dp = 8, .ep = 8};
        const core::Plan before = doc()->plan(); // the batch card says what the batch was where it changed
        doc()->edit(s, QStringLiteral("model"));
        QVERIFY(!doc()->isShowingStalePlan());
        ui::bundledTrustData(); // the step-time and throughput cards carry the band once it is there
        QTRY_VERIFY(m_window->planView()
                        ->keyFigures()
                        ->figure(QStringLiteral("time.step"))
                        ->detail()
                        .contains(QStringLiteral(" published runs")) ||
                    m_window->planView()
                        ->keyFigures()
                        ->figure(QStringLiteral("time.step"))
                        ->detail()
                        .contains(QStringLiteral("runs like it")));
        for (const ui::MemoryUnit unit : {ui::MemoryUnit::GiB, ui::MemoryUnit::GB}) {
            m_window->settings()->setMemoryUnit(unit);
            const core::Plan& plan = doc()->plan();
            std::vector<core::KeyFigure> expected = core::keyFigures(doc()->scenario(), plan, unit, &before);
            core::addTrustBand(expected, *ui::bundledTrustBand(doc()->scenario(), plan));
            const std::vector<ui::FigureLabel*>& shown = m_window->planView()->keyFigures()->figures();
            QCOMPARE(shown.size(), expected.size());
            for (std::size_t i = 0; i < shown.size(); ++i) {
                const core::KeyFigure& e = expected[i];
                QCOMPARE(shown[i]->id(), ui::qs(e.id));
                QCOMPARE(shown[i]->explainKey(), ui::qs(e.explainKey));
                QCOMPARE(shown[i]->caption(), ui::qs(e.caption));
                QCOMPARE(shown[i]->value(), ui::qs(e.valueText));
                QCOMPARE(shown[i]->detail(), ui::qs(e.detail));
                QCOMPARE(shown[i]->toolTip(), ui::qs(e.meaning));
                const auto explanation = core::explainFigure(doc()->scenario(), plan, e.explainKey, unit);
                QVERIFY2(explanation.has_value(), e.explainKey.c_str());
                QCOMPARE(explanation->value, e.value);
                // The explanation panel heads the explanation with the card's value (memory with the other
                // unit beside it), and its values substituted read memory in the chosen unit too.
                m_window->explanationPanel()->showKey(ui::qs(e.explainKey));
                const QString heading = ui::qs(core::explanationValueText(*explanation, expected, unit));
                const QString panel = m_window->explanationPanel()->browser()->toPlainText();
                QVERIFY(panel.contains(heading));
                QVERIFY2(panel.contains(ui::qs(explanation->substituted)), e.explainKey.c_str());
                if (explanation->unit != "bytes")
                    QCOMPARE(heading, ui::qs(e.valueText));
            }
            // In a 1280x720 window every card reads whole: no value or detail ends in "…".
            m_window->resize(1280, 720);
            for (int i = 0; i < 5; ++i)
                QApplication::processEvents();
            for (const ui::FigureLabel* f : shown) {
                QCOMPARE(f->shownValue(), f->value());
                QCOMPARE(f->shownDetail(), f->detail());
            }
            const QString yardstick =
                m_window->planView()->keyFigures()->figure(QStringLiteral("mfu_6nd"))->detail();
            QVERIFY2(yardstick.contains(ui::qs(core::fmt::count(plan.params.active))), qPrintable(yardstick));
            QCOMPARE(yardstick.contains(ui::qs(core::fmt::count(plan.params.total))), !s.model.isMoe());
        }
        m_window->settings()->setMemoryUnit(ui::MemoryUnit::GiB); // as the other tests expect it
    }
};

QTEST_MAIN(TestPlannerWindow)
#include "test_planner_window.moc"
