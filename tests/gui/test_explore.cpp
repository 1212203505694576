// The Explore tab and the one-axis sweep: the search runs in a worker thread and fills the table and
// the scatter with exactly what core::search returns; sorting and filtering; a row or a point selects
// the layout in both; applying a row changes the document (and the planner's sliders); cancel stops
// early; results go stale when the scenario changes. The sweep shows core::evaluate's numbers.
#include "WindowTestSupport.h"
#include "core/estimate/Evaluate.h"
#include "core/io/Presets.h"
#include "core/model/Units.h"
#include "core/search/Search.h"
#include "core/search/SearchText.h"
#include "core/search/Sweep.h"
#include "ui/document/ScenarioDocument.h"
#include "ui/explore/AxisSweepView.h"
#include "ui/explore/ExploreTab.h"
#include "ui/explore/ParetoChart.h"
#include "ui/explore/SearchFilterProxy.h"
#include "ui/explore/SearchResultModel.h"
#include "ui/scenario/LayoutSliders.h"
#include "ui/scenario/ScenarioPanel.h"
#include "ui/shell/FileController.h"
#include "ui/shell/MainWindow.h"
#include "ui/widgets/StepControl.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableView>
#include <QToolBar>
#include <QUndoStack>
#include <QtCharts/QChartView>
#include <QtCharts/QLineSeries>
#include <QtCharts/QScatterSeries>

#include <memory>
#include <utility>

using namespace lp;
using core::LayoutAxis;
using ui::SearchResultModel;

namespace {

// 70B on 2,048 nodes: a space large enough that a search takes a while (for cancelling).
core::Scenario bigScenario() {
    core::Scenario s = core::defaultScenario();
    s.cluster.nodes = 2048;
    s.layout.dp = static_cast<int>(s.cluster.gpus() / (s.layout.tp * s.layout.pp * s.layout.cp));
    s.layout.accumulation = 1;
    s.layout.microBatch = 1;
    return s;
}

bool runSearch(ui::ExploreTab& tab, int timeoutMs = 60000) {
    QSignalSpy finished(&tab, &ui::ExploreTab::searchFinished);
    tab.startSearch();
    return finished.wait(timeoutMs);
}

// The sweep's point for an axis value, or null.
const core::SweepPoint* pointAt(const ui::AxisSweepView& view, int value) {
    for (const core::SweepPoint& p : view.points())
        if (p.value == value)
            return &p;
    return nullptr;
}

} // namespace

class TestExplore : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;

private slots:
    void initTestCase() { test::isolateUserFolders(m_dir); }

    void searchFillsTheTableAndTheScatter() {
        ui::ScenarioDocument doc;
        ui::ExploreTab tab(&doc);
        QAbstractItemModelTester modelTester(tab.model(),
                                             QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester proxyTester(tab.proxy(),
                                             QAbstractItemModelTester::FailureReportingMode::QtTest);
        tab.resize(1100, 900);
        tab.show();
        QVERIFY(QTest::qWaitForWindowExposed(&tab));
        QCOMPARE(tab.model()->rowCount(), 0);
        QVERIFY(!tab.cancelButton()->isEnabled());
        QCOMPARE(tab.batchSpin()->value(), 64); // follows the scenario's effective batch

        QSignalSpy progress(&tab, &ui::ExploreTab::progressChanged);
        QVERIFY(runSearch(tab));
        QVERIFY(!tab.isRunning());
        QVERIFY(tab.hasResult());
        QVERIFY(!tab.isStale());
        QVERIFY(!progress.isEmpty());
        QCOMPARE(tab.progressBar()->value(), 1000);

        // Exactly what the core finds with the same settings (deterministic whatever the threads).
        core::SearchSpace space = core::defaultSearchSpace(doc.scenario());
        space.globalBatchMin = 64;
        core::SearchOptions options;
        options.topN = tab.topSpin()->value();
        const core::SearchResult expected = core::search(doc.scenario(), doc.profile(), space, {}, options);
        const core::SearchResult& got = tab.result();
        QVERIFY(!got.cancelled);
        QCOMPARE(got.top, expected.top);
        QCOMPARE(got.pareto, expected.pareto);
        QCOMPARE(got.fitting, expected.fitting);
        QVERIFY(!got.top.empty());

        // Table: the top N in rank order, then the Pareto layouts outside it.
        int paretoOnly = 0;
        for (const core::SearchEntry& p : got.pareto)
            paretoOnly += std::find_if(got.top.begin(), got.top.end(), [&](const core::SearchEntry& t) {
                              return t.choice == p.choice;
                          }) == got.top.end();
        QCOMPARE(tab.model()->rowCount(), static_cast<int>(got.top.size()) + paretoOnly);
        QCOMPARE(tab.proxy()->rowCount(), tab.model()->rowCount());
        QCOMPARE(tab.table()->model()->rowCount(), tab.model()->rowCount());
        const SearchResultModel::Row& first = tab.model()->row(0);
        QCOMPARE(first.rank, 1);
        QVERIFY(first.entry == got.top.front());
        const QModelIndex tp = tab.model()->index(0, SearchResultModel::Tp);
        QCOMPARE(tab.model()->data(tp).toInt(), got.top.front().choice.layout.tp);
        QCOMPARE(tab.model()->data(tab.model()->index(0, SearchResultModel::Mfu)).toString(),
                 ui::formatPercent(got.top.front().mfu, 1));
        // The figure columns are the core's words, as `search` prints them.
        const std::pair<int, core::SearchFigure> columns[] = {
            {SearchResultModel::Zero, core::SearchFigure::Zero},
            {SearchResultModel::SequenceParallel, core::SearchFigure::SequenceParallel},
            {SearchResultModel::StepTime, core::SearchFigure::StepTime},
            {SearchResultModel::Mfu, core::SearchFigure::Mfu},
            {SearchResultModel::TokensPerSecond, core::SearchFigure::TokensPerSecond},
            {SearchResultModel::Memory, core::SearchFigure::WorstMemory},
            {SearchResultModel::Headroom, core::SearchFigure::Headroom},
            {SearchResultModel::GpuHours, core::SearchFigure::GpuHours}};
        for (const auto& [column, figure] : columns)
            QCOMPARE(tab.model()->index(0, column).data().toString(),
                     ui::qs(core::searchFigureText(got.top.front(), figure, ui::MemoryUnit::GiB)));
        QVERIFY(tab.table()->isColumnHidden(SearchResultModel::Ep));          // dense model
        QVERIFY(tab.table()->isColumnHidden(SearchResultModel::GlobalBatch)); // one batch
        QVERIFY(tab.table()->isColumnHidden(SearchResultModel::Tp));          // in the layout's words instead
        QVERIFY(!tab.table()->isColumnHidden(SearchResultModel::Layout));

        // Scatter: every ranked layout, the front as points and as a line, the current layout.
        QCOMPARE(tab.paretoChart()->topSeries()->count(), static_cast<int>(got.top.size()));
        QCOMPARE(tab.paretoChart()->frontSeries()->count(), static_cast<int>(got.pareto.size()));
        QCOMPARE(tab.paretoChart()->frontLine()->count(), static_cast<int>(got.pareto.size()));
        QCOMPARE(tab.paretoChart()->currentSeries()->count(), 1);
        const core::Plan& plan = doc.plan();
        QCOMPARE(tab.paretoChart()->currentSeries()->at(0).y(), plan.mfu * 100);
        for (int i = 1; i < tab.paretoChart()->frontLine()->count(); ++i)
            QVERIFY(tab.paretoChart()->frontLine()->at(i).x() >=
                    tab.paretoChart()->frontLine()->at(i - 1).x());

        QVERIFY(tab.statusLabel()->text().contains(ui::formatCount(got.evaluated)));
        QVERIFY(tab.statusLabel()->text().contains(QStringLiteral("Rejected")));
        // The default scenario (Megatron style, flash attention) has selective twins of none: one row each.
        QVERIFY(got.selectiveAsNone > 0);
        QVERIFY(
            tab.statusLabel()->text().contains(QStringLiteral("%1 with selective recompute listed as none")
                                                   .arg(ui::formatCount(got.selectiveAsNone))));
        QCOMPARE(tab.searchButton()->text(), QStringLiteral("&Search again"));

        // GB or GiB, never ambiguous: the headers, the cells and the scatter follow the unit.
        tab.setUnit(ui::MemoryUnit::GB);
        QCOMPARE(tab.model()->headerData(SearchResultModel::Memory, Qt::Horizontal).toString(),
                 QStringLiteral("Memory\n(GB)"));
        QCOMPARE(tab.model()->index(0, SearchResultModel::Memory).data().toString(),
                 ui::formatNumber(got.top.front().worstStageBytes / core::kGB, 1));
        QCOMPARE(tab.paretoChart()->topSeries()->at(0).x(), got.top.front().worstStageBytes / core::kGB);
        QCOMPARE(tab.headroomSpin()->suffix(), QStringLiteral(" GB"));
    }

    void sortsAndFilters() {
        ui::ScenarioDocument doc;
        ui::ExploreTab tab(&doc);
        QAbstractItemModelTester proxyTester(tab.proxy(),
                                             QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(runSearch(tab));
        const int all = tab.proxy()->rowCount();
        QVERIFY(all > 3);

        // Sorting by clicking the MFU header: numbers, not strings.
        tab.table()->sortByColumn(SearchResultModel::Mfu, Qt::DescendingOrder);
        for (int r = 1; r < tab.proxy()->rowCount(); ++r) {
            const double a = tab.proxy()
                                 ->index(r - 1, SearchResultModel::Mfu)
                                 .data(SearchResultModel::SortRole)
                                 .toDouble();
            const double b =
                tab.proxy()->index(r, SearchResultModel::Mfu).data(SearchResultModel::SortRole).toDouble();
            QVERIFY(a >= b);
        }
        tab.table()->sortByColumn(SearchResultModel::StepTime, Qt::AscendingOrder);
        for (int r = 1; r < tab.proxy()->rowCount(); ++r) {
            const double a = tab.proxy()
                                 ->index(r - 1, SearchResultModel::StepTime)
                                 .data(SearchResultModel::SortRole)
                                 .toDouble();
            const double b = tab.proxy()
                                 ->index(r, SearchResultModel::StepTime)
                                 .data(SearchResultModel::SortRole)
                                 .toDouble();
            QVERIFY(a <= b);
        }

        // Text filter.
        const int tpOfFirst = tab.model()->row(0).entry.choice.layout.tp;
        tab.filterEdit()->setText(QStringLiteral("tp=%1").arg(tpOfFirst));
        QVERIFY(tab.proxy()->rowCount() >= 1);
        for (int r = 0; r < tab.proxy()->rowCount(); ++r)
            QCOMPARE(tab.proxy()->index(r, SearchResultModel::Tp).data().toInt(), tpOfFirst);
        tab.filterEdit()->setText(QStringLiteral("pp <= 2 full"));
        for (int r = 0; r < tab.proxy()->rowCount(); ++r) {
            QVERIFY(tab.proxy()->index(r, SearchResultModel::Pp).data().toInt() <= 2);
            QCOMPARE(tab.proxy()->index(r, SearchResultModel::Recompute).data().toString(),
                     QStringLiteral("full"));
        }
        tab.filterEdit()->setText(QStringLiteral("bogus=3")); // not understood: nothing filtered, marked
        QVERIFY(!tab.proxy()->isFilterTextValid());
        QCOMPARE(tab.proxy()->rowCount(), all);
        tab.filterEdit()->clear();
        QCOMPARE(tab.proxy()->rowCount(), all);

        // Headroom, TP within the NVLink domain, Pareto only.
        tab.headroomCheck()->setChecked(true);
        tab.headroomSpin()->setValue(20);
        for (int r = 0; r < tab.proxy()->rowCount(); ++r)
            QVERIFY(tab.proxy()
                        ->index(r, SearchResultModel::Headroom)
                        .data(SearchResultModel::SortRole)
                        .toDouble() >= 20 * core::kGiB);
        tab.headroomCheck()->setChecked(false);
        QCOMPARE(tab.proxy()->rowCount(), all);
        tab.tpNodeCheck()->setChecked(true);
        for (int r = 0; r < tab.proxy()->rowCount(); ++r)
            QVERIFY(tab.proxy()->index(r, SearchResultModel::Tp).data().toInt() <=
                    doc.scenario().cluster.nvlinkDomain);
        tab.tpNodeCheck()->setChecked(false);
        tab.paretoCheck()->setChecked(true);
        QCOMPARE(tab.proxy()->rowCount(), static_cast<int>(tab.result().pareto.size()));
        for (int r = 0; r < tab.proxy()->rowCount(); ++r)
            QVERIFY(tab.proxy()->index(r, 0).data(SearchResultModel::ParetoRole).toBool());
    }

    void blockRecomputeRowsShowAndApplyTheirLayerCount() {
        // 70B at 4K tokens on 16 GPUs: only full recompute fits, and the best layouts recompute a block.
        ui::ScenarioDocument doc;
        core::Scenario s = core::defaultScenario();
        s.cluster.nodes = 2;
        s.layout.dp = 1;
        s.layout.pp = 2;
        doc.edit(s, QStringLiteral("16 GPUs"));
        ui::ExploreTab tab(&doc);
        QVERIFY(runSearch(tab));
        const core::SearchChoice best = tab.model()->row(0).entry.choice;
        QVERIFY(best.recompute == core::Recompute::Full);
        QVERIFY(best.recomputeLayers > 0);
        QCOMPARE(tab.model()->index(0, SearchResultModel::Recompute).data().toString(),
                 QStringLiteral("full (block %1)").arg(best.recomputeLayers));
        tab.filterEdit()->setText(QStringLiteral("block"));
        QVERIFY(tab.proxy()->rowCount() >= 1);
        QVERIFY(tab.proxy()->rowCount() < tab.model()->rowCount());
        for (int r = 0; r < tab.proxy()->rowCount(); ++r)
            QVERIFY(tab.proxy()
                        ->index(r, SearchResultModel::Recompute)
                        .data()
                        .toString()
                        .startsWith(QStringLiteral("full (block ")));
        tab.filterEdit()->clear();
        if (qEnvironmentVariableIsSet("LP_EXPLORE_SCREENSHOTS")) { // for looking at the table
            tab.resize(1500, 900);
            tab.show();
            QTest::qWait(50);
            QVERIFY(tab.grab().save(qEnvironmentVariable("LP_EXPLORE_SCREENSHOTS") +
                                    QStringLiteral("/explore-block-recompute.png")));
        }
        doc.edit(core::applyChoice(doc.scenario(), best), QStringLiteral("apply"));
        QCOMPARE(doc.scenario().training.recomputeLayers, best.recomputeLayers);
        QVERIFY(core::evaluate(doc.scenario()).memory.fits);
    }

    void rowAndPointSelectEachOther() {
        ui::ScenarioDocument doc;
        ui::ExploreTab tab(&doc);
        tab.resize(1100, 900);
        tab.show();
        QVERIFY(QTest::qWaitForWindowExposed(&tab));
        QVERIFY(runSearch(tab));
        QVERIFY(!tab.pinButton()->isEnabled());

        // A click on the table selects the point.
        const QModelIndex second =
            tab.proxy()->mapFromSource(tab.model()->index(1, SearchResultModel::StepTime));
        const QRect rect = tab.table()->visualRect(second);
        QTest::mouseClick(tab.table()->viewport(), Qt::LeftButton, {}, rect.center());
        QCOMPARE(tab.selectedRow(), 1);
        QCOMPARE(tab.paretoChart()->selectedSeries()->count(), 1);
        const core::SearchEntry& e = tab.model()->row(1).entry;
        QCOMPARE(tab.paretoChart()->selectedSeries()->at(0),
                 QPointF(e.worstStageBytes / core::kGiB, e.mfu * 100));
        QVERIFY(tab.pinButton()->isEnabled());

        // A click on a point selects the row.
        const QPointF third = tab.paretoChart()->topSeries()->at(2);
        emit tab.paretoChart()->topSeries()->clicked(third);
        const int row = tab.selectedRow();
        QCOMPARE(tab.paretoChart()->rowAt(third), row);
        QVERIFY(tab.model()->row(row).rank > 0);
        const SearchResultModel::Row& picked = tab.model()->row(row);
        QCOMPARE(QPointF(picked.entry.worstStageBytes / core::kGiB, picked.entry.mfu * 100), third);
        QCOMPARE(tab.proxy()->mapToSource(tab.table()->currentIndex()).row(), row);
        QCOMPARE(tab.paretoChart()->selectedSeries()->at(0), third);
    }

    void applyingARowChangesTheLayoutAndTheSliders() {
        const auto window = test::openExploreWindow();
        ui::MainWindow& w = *window;
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* tab = w.findChild<ui::ExploreTab*>();
        QVERIFY(tab);
        QVERIFY(w.findChild<ui::AxisSweepView*>());
        w.tabs()->setCurrentWidget(tab);
        QVERIFY(runSearch(*tab));

        // The first ranked layout that differs from the planner's in TP or PP.
        ui::ScenarioDocument* doc = w.document();
        const core::Layout before = doc->scenario().layout;
        int target = -1;
        for (int r = 0; r < tab->model()->rowCount() && target < 0; ++r) {
            const core::Layout& l = tab->model()->row(r).entry.choice.layout;
            if (l.tp != before.tp || l.pp != before.pp)
                target = r;
        }
        QVERIFY(target >= 0);
        const core::SearchChoice choice = tab->model()->row(target).entry.choice;
        const QModelIndex index =
            tab->proxy()->mapFromSource(tab->model()->index(target, SearchResultModel::Layout));
        tab->table()->scrollTo(index);
        const QRect rect = tab->table()->visualRect(index);
        // A user's double-click: press, release, then the double-click press.
        QTest::mouseClick(tab->table()->viewport(), Qt::LeftButton, {}, rect.center());
        QTest::mouseDClick(tab->table()->viewport(), Qt::LeftButton, {}, rect.center());

        QCOMPARE(doc->scenario().layout, choice.layout);
        QCOMPARE(doc->scenario().training.zeroStage, choice.zeroStage);
        QVERIFY(doc->scenario().training.recompute == choice.recompute);
        QVERIFY(doc->scenario() == core::applyChoice(core::defaultScenario(), choice));
        QCOMPARE(doc->undoStack()->undoText(), QStringLiteral("Apply layout from Explore"));
        ui::LayoutSliders* sliders = w.scenarioPanel()->layoutSliders();
        QCOMPARE(sliders->control(LayoutAxis::Tp)->value(), choice.layout.tp);
        QCOMPARE(sliders->control(LayoutAxis::Pp)->value(), choice.layout.pp);
        QCOMPARE(sliders->control(LayoutAxis::Dp)->value(), choice.layout.dp);
        QCOMPARE(sliders->control(LayoutAxis::MicroBatch)->value(), choice.layout.microBatch);
        QCOMPARE(sliders->control(LayoutAxis::Accumulation)->value(), choice.layout.accumulation);
        QCOMPARE(sliders->control(LayoutAxis::Tp)->spinBox()->value(), choice.layout.tp);

        // A layout change does not make the results stale; the applied row is now the current one.
        QVERIFY(!tab->isStale());
        const int current = tab->model()->currentRow();
        QVERIFY(current >= 0);
        QCOMPARE(tab->model()->row(current).entry.choice.layout, choice.layout);
        QVERIFY(tab->model()->index(current, 0).data(SearchResultModel::CurrentRole).toBool());

        // Undo brings the old layout back.
        doc->undoStack()->undo();
        QCOMPARE(doc->scenario().layout, before);
        QCOMPARE(sliders->control(LayoutAxis::Tp)->value(), before.tp);
        doc->undoStack()->setClean();
    }

    // The tool bar's Explore (the design card's [Explore]): after Undo/Redo, before the memory unit; it shows
    // the tab and ranks the layouts of the current scenario.
    void theToolBarsExploreShowsTheTabAndSearches() {
        const auto window = test::openExploreWindow();
        ui::MainWindow& w = *window;
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* bar = w.findChild<QToolBar*>(QStringLiteral("mainToolBar"));
        QVERIFY(bar);
        QStringList texts;
        QAction* explore = nullptr;
        for (QAction* a : bar->actions()) {
            texts << a->iconText();
            if (a->objectName() == QLatin1String("exploreAction"))
                explore = a;
        }
        QVERIFY(explore);
        const auto at = [&](const QString& t) { return texts.indexOf(t); };
        QVERIFY(at(QStringLiteral("Redo")) < at(QStringLiteral("Explore")));
        QVERIFY(at(QStringLiteral("Explore")) < at(QStringLiteral("GB")));
        QVERIFY(bar->widgetForAction(explore)->isVisible());
        auto* tab = w.findChild<ui::ExploreTab*>();
        QVERIFY(tab);
        QVERIFY(w.tabs()->currentWidget() != tab);
        QSignalSpy finished(tab, &ui::ExploreTab::searchFinished);
        explore->trigger();
        QCOMPARE(w.tabs()->currentWidget(), static_cast<QWidget*>(tab));
        QVERIFY(finished.wait(60000));
        QVERIFY(tab->model()->rowCount() > 0);
    }

    void resultsGoStaleWhenTheScenarioChanges() {
        ui::ScenarioDocument doc;
        ui::ExploreTab tab(&doc);
        QVERIFY(runSearch(tab));
        QVERIFY(!tab.isStale());
        core::Scenario s = doc.scenario();
        s.model.seqLen *= 2;
        doc.edit(s, QStringLiteral("longer sequences"));
        QVERIFY(tab.isStale());
        QVERIFY(tab.model()->isStale());
        QCOMPARE(tab.paretoChart()->currentSeries()->count(), 0); // the current layout is of another scenario
        QVERIFY(runSearch(tab));
        QVERIFY(!tab.isStale());
        QCOMPARE(tab.searchedScenario().model.seqLen, s.model.seqLen);
    }

    void rankChoiceRerunsTheSearch() {
        ui::ScenarioDocument doc;
        ui::ExploreTab tab(&doc);
        QVERIFY(runSearch(tab));
        QVERIFY(tab.result().rankBy == core::RankBy::StepTime);
        QSignalSpy finished(&tab, &ui::ExploreTab::searchFinished);
        tab.rankCombo()->setCurrentIndex(tab.rankCombo()->findData(static_cast<int>(core::RankBy::Mfu)));
        QVERIFY(finished.wait(60000));
        QVERIFY(tab.result().rankBy == core::RankBy::Mfu);
        for (std::size_t i = 1; i < tab.result().top.size(); ++i)
            QVERIFY(tab.result().top[i - 1].mfu >= tab.result().top[i].mfu);
    }

    void aRangeOfGlobalBatchesShowsTheBatchColumn() {
        ui::ScenarioDocument doc;
        ui::ExploreTab tab(&doc);
        tab.batchSpin()->setValue(32);
        tab.rangeCheck()->setChecked(true);
        tab.batchMaxSpin()->setValue(128);
        QVERIFY(runSearch(tab));
        bool several = false;
        for (const core::SearchEntry& e : tab.result().top) {
            QVERIFY(e.globalBatch >= 32 && e.globalBatch <= 128);
            several = several || e.globalBatch != tab.result().top.front().globalBatch;
        }
        QCOMPARE(tab.table()->isColumnHidden(SearchResultModel::GlobalBatch), !several);
    }

    void cancelStopsEarly() {
        ui::ScenarioDocument doc;
        doc.resetTo(bigScenario(), {}, false);
        ui::ExploreTab tab(&doc);
        QSignalSpy finished(&tab, &ui::ExploreTab::searchFinished);
        // Cancel as soon as the first progress report arrives, as a user pressing Cancel would.
        connect(&tab, &ui::ExploreTab::progressChanged, &tab, [&tab] {
            if (tab.cancelButton()->isEnabled())
                QTest::mouseClick(tab.cancelButton(), Qt::LeftButton);
        });
        // Every global batch from 512 to 262,144 sequences: millions of layouts, seconds of work.
        tab.batchSpin()->setValue(512);
        tab.rangeCheck()->setChecked(true);
        tab.batchMaxSpin()->setValue(262144);
        tab.show();
        tab.startSearch();
        QVERIFY(tab.isRunning());
        QVERIFY(tab.cancelButton()->isEnabled());
        QVERIFY(finished.wait(60000));
        QCOMPARE(finished.first().first().toBool(), true);
        QVERIFY(tab.result().cancelled);
        QVERIFY(tab.result().evaluated < tab.result().candidates);
        QVERIFY(tab.statusLabel()->text().startsWith(QStringLiteral("Cancelled")));
        QVERIFY(!tab.isRunning());
        QVERIFY(!tab.cancelButton()->isEnabled());
    }

    void destroyingTheTabDuringASearchIsSafe() {
        ui::ScenarioDocument doc;
        doc.resetTo(bigScenario(), {}, false);
        auto tab = std::make_unique<ui::ExploreTab>(&doc);
        tab->batchSpin()->setValue(512);
        tab->rangeCheck()->setChecked(true);
        tab->batchMaxSpin()->setValue(262144);
        tab->startSearch();
        QVERIFY(tab->isRunning());
        tab.reset(); // cancels and waits
        QCoreApplication::processEvents();
    }

    void axisSweepShowsTheCoresNumbers() {
        ui::ScenarioDocument doc;
        ui::AxisSweepView view(&doc);
        view.resize(1100, 800);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const core::Scenario s = doc.scenario();
        for (int a = 0; a < core::kSweepAxisCount; ++a) {
            const auto axis = static_cast<core::SweepAxis>(a);
            view.setAxis(axis);
            QCOMPARE(view.axisCombo()->currentData().toInt(), a);
            const auto& points = view.points();
            QVERIFY(points.size() >= 2 || axis == core::SweepAxis::Ep); // a dense model: EP 1 only
            int current = 0;
            for (const core::SweepPoint& p : points) {
                current += p.current;
                const core::Plan expected = core::evaluate(p.scenario, doc.profile());
                QCOMPARE(p.plan.mfu, expected.mfu);
                QCOMPARE(p.plan.valid, expected.valid);
                if (p.current)
                    QVERIFY(p.scenario == s);
                // The others held: TP/PP keep the GPU count, the global batch is held where it can be.
                if (axis == core::SweepAxis::Tp || axis == core::SweepAxis::Pp ||
                    axis == core::SweepAxis::Cp) {
                    QCOMPARE(p.scenario.layout.gpus(), s.cluster.gpus());
                    QCOMPARE(p.scenario.layout.microBatch, s.layout.microBatch);
                }
                if (p.valid && axis != core::SweepAxis::Accumulation)
                    QCOMPARE(p.scenario.layout.effectiveBatch(), s.layout.effectiveBatch());
                if (axis == core::SweepAxis::Recompute || axis == core::SweepAxis::ZeroStage ||
                    axis == core::SweepAxis::ShardGroup)
                    QCOMPARE(p.scenario.layout, s.layout);
                if (axis == core::SweepAxis::Vpp) // interleaving: only v changes
                    QCOMPARE(p.scenario.layout.dp, s.layout.dp);
            }
            QCOMPARE(current, 1);
            QVERIFY2(!view.captionLabel()->text().isEmpty(), std::string(core::sweepAxisName(axis)).c_str());
            // Exactly core::sweep's points and words.
            core::SweepOptions options;
            options.rules = doc.layoutRules();
            const std::vector<core::SweepPoint> expected = core::sweep(s, doc.profile(), axis, options);
            QCOMPARE(points.size(), expected.size());
            for (std::size_t i = 0; i < points.size(); ++i) {
                QCOMPARE(points[i].label, expected[i].label);
                QCOMPARE(points[i].plan.mfu, expected[i].plan.mfu);
            }
            const core::FigureFormat format{ui::MemoryUnit::GiB};
            QCOMPARE(view.captionLabel()->text(), ui::qs(core::sweepCaption(axis, expected, format)));
            QCOMPARE(view.overallLabel()->text(),
                     ui::qs(core::bestSingleChangeCaption(
                         doc.plan(), core::bestSingleChange(s, doc.profile(), options), options, format)));
        }
        // The shard group: DP 2 gives "1" (each rank keeps the whole optimizer state) and "2 (all)", the
        // current plain sharding.
        view.setAxis(core::SweepAxis::ShardGroup);
        QCOMPARE(view.points().size(), std::size_t{2});
        QCOMPARE(view.points().back().label, std::string("2 (all)"));
        QVERIFY(view.points().back().current);
        QCOMPARE(view.points().front().scenario.training.zeroShardDegree, 1);
        const auto optimizerOf = [](const core::SweepPoint& p) {
            return p.plan.memory.stages[static_cast<std::size_t>(p.plan.memory.worstStage)].optimizerBytes;
        };
        QCOMPARE(optimizerOf(view.points().front()), 2.0 * optimizerOf(view.points().back()));
        view.setAxis(core::SweepAxis::ZeroStage);
        QCOMPARE(view.points().size(), std::size_t{4});
        // EP on a dense model: one point, and the caption says why.
        view.setAxis(core::SweepAxis::Ep);
        QCOMPARE(view.points().size(), std::size_t{1});
        QVERIFY(view.captionLabel()->text().contains(QStringLiteral("dense")));
        // CP 2 on 64 GPUs: DP 2 -> 1, the batch held by doubling accumulation.
        view.setAxis(core::SweepAxis::Cp);
        const core::SweepPoint* cp2 = pointAt(view, 2);
        QVERIFY(cp2);
        QCOMPARE(cp2->scenario.layout.dp, 1);
        QCOMPARE(cp2->scenario.layout.accumulation, 32);
        // Virtual stages: PP 4 gives each rank 20 of the 80 layers, split into 1, 2, 4 or 5 chunks, never
        // into a count that leaves part of a layer.
        view.setAxis(core::SweepAxis::Vpp);
        for (const core::SweepPoint& p : view.points())
            QCOMPARE(80 % (4 * p.value), 0);
        QVERIFY(view.points().size() >= 3);

        // TP 8 -> 4 on 64 GPUs rebalances DP to 4 and halves accumulation (batch 64 held).
        view.setAxis(core::SweepAxis::Tp);
        const core::SweepPoint* it = pointAt(view, 4);
        QVERIFY(it);
        QCOMPARE(it->scenario.layout.dp, 4);
        QCOMPARE(it->scenario.layout.accumulation, 8);

        // Without holding the batch, accumulation stays.
        view.setHoldGlobalBatch(false);
        const core::SweepPoint* it2 = pointAt(view, 4);
        QVERIFY(it2);
        QCOMPARE(it2->scenario.layout.accumulation, s.layout.accumulation);

        // A layout change redraws it.
        doc.setLayoutValue(LayoutAxis::MicroBatch, 1);
        view.setHoldGlobalBatch(true);
        for (const core::SweepPoint& p : view.points())
            if (p.current)
                QCOMPARE(p.scenario.layout.microBatch, 1);
    }

    void axisSweepVariesTheExpertsOfAMixtureOfExperts() {
        // Mixtral 8x7B on 64 GPUs: EP takes the divisors of its 8 experts; EP comes out of DP x CP, so
        // DP and the batch stay.
        ui::ScenarioDocument doc;
        core::Scenario s = doc.scenario();
        s.model = core::findModelPreset("mixtral-8x7b")->model;
        s.model.seqLen = 4096;
        s.layout.tp = 2;
        s.layout.pp = 4;
        s.layout.dp = 8;
        s.layout.microBatch = 1;
        s.layout.accumulation = 8;
        doc.edit(s, QStringLiteral("Mixtral"));
        ui::AxisSweepView view(&doc);
        view.setAxis(core::SweepAxis::Ep);
        view.refresh(); // not shown: computed on demand
        QList<int> values;
        for (const core::SweepPoint& p : view.points()) {
            values << p.value;
            QCOMPARE(p.scenario.layout.dp, 8);
            QCOMPARE(p.scenario.layout.effectiveBatch(), s.layout.effectiveBatch());
            QCOMPARE(p.plan.mfu, core::evaluate(p.scenario, doc.profile()).mfu);
        }
        QCOMPARE(values, (QList<int>{1, 2, 4, 8}));
        QVERIFY(!view.captionLabel()->text().contains(QStringLiteral("dense")));
    }

    // Renders the window with the Explore tab (and the others) after a search on the default scenario.
    // Set LP_EXPLORE_SCREENSHOTS=DIR to keep the PNGs.
    // Ranked by step time in a 1280x720 window, on a 1366x768 laptop and at 1520x950: the rank, step,
    // MFU, tokens/s and memory columns show without scrolling the table or the page sideways, and the
    // free-memory column too at 1520x950.
    void theRankingColumnsShowOnALaptop() {
        const auto window = test::openExploreWindow();
        ui::MainWindow& w = *window;
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* tab = w.findChild<ui::ExploreTab*>();
        w.tabs()->setCurrentWidget(tab);
        QVERIFY(runSearch(*tab));
        auto* scroll = tab->findChild<QScrollArea*>(QStringLiteral("pageScroll"));
        QVERIFY(scroll);
        for (const QSize size : {QSize(1280, 720), QSize(1366, 768), QSize(1520, 950)}) {
            w.resize(size);
            for (int i = 0; i < 5; ++i)
                QCoreApplication::processEvents();
            const QString where = QStringLiteral("%1x%2").arg(size.width()).arg(size.height());
            QVERIFY2(!scroll->horizontalScrollBar()->isVisible(), qPrintable(where));
            QTableView* table = tab->table();
            QCOMPARE(table->horizontalScrollBar()->value(), 0);
            QVERIFY(table->mapTo(scroll->viewport(), QPoint(table->width(), 0)).x() <=
                    scroll->viewport()->width());
            // The free memory, which the memory column implies, steps aside where the layout's words need
            // the room (ResultTableColumns), and shows in a larger window.
            const bool large = size.width() >= 1520;
            for (int column : {SearchResultModel::Rank, SearchResultModel::StepTime, SearchResultModel::Mfu,
                               SearchResultModel::TokensPerSecond, SearchResultModel::Memory,
                               SearchResultModel::Headroom}) {
                if (column == SearchResultModel::Headroom && !large)
                    continue;
                QVERIFY2(!table->isColumnHidden(column), qPrintable(where));
                const int right = table->columnViewportPosition(column) + table->columnWidth(column);
                QVERIFY2(table->columnViewportPosition(column) >= 0 && right <= table->viewport()->width(),
                         qPrintable(QStringLiteral("%1: %2 ends at %3 of %4")
                                        .arg(where, SearchResultModel::columnName(column))
                                        .arg(right)
                                        .arg(table->viewport()->width())));
                // Wide enough for its header and its numbers.
                QVERIFY(table->columnWidth(column) >= table->horizontalHeader()->sectionSizeHint(column));
            }
        }
        w.document()->undoStack()->setClean();
    }

    // "Top 50" lists the top 50 and the Pareto layouts beyond them, and says so; a filter says how many of
    // each it leaves.
    void theCountAgreesWithTheLimit() {
        ui::ScenarioDocument doc;
        ui::ExploreTab tab(&doc);
        QCOMPARE(tab.topSpin()->value(), 50);
        QVERIFY(runSearch(tab));
        const core::SearchResult& r = tab.result();
        QVERIFY(r.fitting > 50);
        QCOMPARE(static_cast<long long>(r.top.size()), 50LL);
        const long long beyond = core::paretoBeyondTop(r);
        QCOMPARE(static_cast<long long>(tab.model()->rowCount()), 50 + beyond);
        const QString text = tab.shownLabel()->text();
        QCOMPARE(text, ui::qs(core::listedLayoutsText(r, 50, beyond, core::FigureFormat{})));
        QVERIFY2(text.startsWith(QStringLiteral("Top 50 of %1 that fit").arg(ui::formatCount(r.fitting))),
                 qPrintable(text));
        QVERIFY(!text.contains(QStringLiteral("%1 of %1").arg(tab.model()->rowCount())));

        tab.paretoCheck()->setChecked(true);
        QVERIFY2(tab.shownLabel()->text().startsWith(QStringLiteral("Filter: ")),
                 qPrintable(tab.shownLabel()->text()));
        tab.paretoCheck()->setChecked(false);
        tab.topSpin()->setValue(5);
        QVERIFY(runSearch(tab));
        QVERIFY(tab.shownLabel()->text().startsWith(QStringLiteral("Top 5 of ")));
    }

    void screenshots() {
        const auto window = test::openExploreWindow();
        ui::MainWindow& w = *window;
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* tab = w.findChild<ui::ExploreTab*>();
        w.tabs()->setCurrentWidget(tab);
        QVERIFY(runSearch(*tab));
        tab->selectRow(2);
        const QString dir = qEnvironmentVariable("LP_EXPLORE_SCREENSHOTS", m_dir.path());
        QTest::qWait(50);
        QVERIFY(w.grab().save(dir + QStringLiteral("/explore.png")));
        tab->pinRow(0);
        tab->pinRow(2);
        tab->pinRow(5);
        for (int i = 0; i < w.tabs()->count(); ++i)
            if (w.tabs()->tabText(i) == QStringLiteral("&Compare"))
                w.tabs()->setCurrentIndex(i);
        QTest::qWait(50);
        QVERIFY(w.grab().save(dir + QStringLiteral("/compare.png")));
        w.tabs()->setCurrentWidget(w.findChild<ui::AxisSweepView*>());
        QTest::qWait(50);
        QVERIFY(w.grab().save(dir + QStringLiteral("/axis-sweep.png")));
        w.findChild<ui::AxisSweepView*>()->setAxis(core::SweepAxis::MicroBatch);
        QTest::qWait(50);
        QVERIFY(w.grab().save(dir + QStringLiteral("/axis-sweep-micro-batch.png")));
        w.document()->undoStack()->setClean();
    }
};

QTEST_MAIN(TestExplore)
#include "test_explore.moc"
