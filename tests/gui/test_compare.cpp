// The Compare tab: pinning from the planner and from Explore shows each layout side by side with
// the core's numbers; the best value of a row is marked best, the worst worst, and cells that differ
// from the first pin are flagged; unpin, duplicates, the four-pin limit and invalid layouts.
#include "WindowTestSupport.h"
#include "core/estimate/Evaluate.h"
#include "core/model/Units.h"
#include "core/search/Search.h"
#include "ui/compare/CompareModel.h"
#include "ui/compare/CompareView.h"
#include "ui/document/ScenarioDocument.h"
#include "ui/explore/ExploreTab.h"
#include "ui/explore/SearchResultModel.h"
#include "ui/shell/FileController.h"
#include "ui/shell/MainWindow.h"

#include <QAbstractButton>
#include <QAbstractItemModelTester>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QUndoStack>
#include <QtCharts/QBarSet>

#include <memory>

using namespace lp;
using core::LayoutAxis;
using ui::CompareModel;

class TestCompare : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;

    static QString cell(const ui::CompareView& view, core::ComparedFigure figure, int column) {
        return view.model()->index(CompareModel::rowOf(figure), column).data().toString();
    }

private slots:
    void initTestCase() { test::isolateUserFolders(m_dir); }

    void startsEmpty() {
        ui::ScenarioDocument doc;
        ui::CompareView view(&doc);
        QAbstractItemModelTester tester(view.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QCOMPARE(view.pinnedCount(), 0);
        QCOMPARE(view.model()->columnCount(), 0);
        QVERIFY(view.findChild<QLabel*>(QStringLiteral("compareEmpty"))->isVisible());
        QVERIFY(!view.table()->isVisible());
    }

    void pinningTwoLayoutsFromThePlannerShowsBoth() {
        ui::ScenarioDocument doc;
        ui::CompareView view(&doc);
        QAbstractItemModelTester tester(view.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        view.resize(1100, 900);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QSignalSpy changed(&view, &ui::CompareView::pinnedChanged);

        QTest::mouseClick(view.pinCurrentButton(), Qt::LeftButton);
        QCOMPARE(view.pinnedCount(), 1);
        const core::Scenario a = doc.scenario();
        doc.setLayoutValue(LayoutAxis::MicroBatch, 1); // a second, different layout
        QVERIFY(doc.plan().valid);
        const core::Scenario b = doc.scenario();
        QVERIFY(view.pinCurrent());
        QCOMPARE(changed.count(), 2);
        QCOMPARE(view.pinnedCount(), 2);
        QVERIFY(!view.pinCurrent()); // already pinned
        QCOMPARE(view.pinnedCount(), 2);
        QVERIFY(view.messageLabel()->text().contains(QStringLiteral("already pinned")));

        // Both, side by side, with the core's numbers.
        QVERIFY(view.table()->isVisible());
        QCOMPARE(view.model()->columnCount(), 2);
        QVERIFY(view.model()->headerData(0, Qt::Horizontal).toString().startsWith(QStringLiteral("A")));
        QVERIFY(view.model()->headerData(1, Qt::Horizontal).toString().startsWith(QStringLiteral("B")));
        const core::Plan pa = core::evaluate(a, doc.profile());
        const core::Plan pb = core::evaluate(b, doc.profile());
        QCOMPARE(cell(view, core::ComparedFigure::Mfu, 0), ui::formatPercent(pa.mfu, 1));
        QCOMPARE(cell(view, core::ComparedFigure::Mfu, 1), ui::formatPercent(pb.mfu, 1));
        QCOMPARE(cell(view, core::ComparedFigure::StepTime, 1), ui::formatSeconds(pb.time.stepSeconds));
        QCOMPARE(cell(view, core::ComparedFigure::Batch, 0), QStringLiteral("2 × 16 × DP 2 = 64"));
        QCOMPARE(cell(view, core::ComparedFigure::Batch, 1), QStringLiteral("1 × 16 × DP 2 = 32"));
        QVERIFY(!cell(view, core::ComparedFigure::Diagnostics, 0).isEmpty());
        QCOMPARE(view.memoryCategories().size(), 2);
        QCOMPARE(view.timeCategories().size(), 2);
        const QBarSet* weights = view.memoryBarSet(core::MemoryComponent::Weights);
        QCOMPARE(weights->count(), 2);
        const core::StageMemory& wa = pa.memory.stages[static_cast<std::size_t>(pa.memory.worstStage)];
        QCOMPARE(weights->at(0), wa.weightsBytes / core::kGiB);
        QVERIFY(view.unpinButton(0) && view.unpinButton(1) && !view.unpinButton(2));
        QCoreApplication::processEvents(); // new cards show on the next event loop pass
        QVERIFY(view.unpinButton(1)->isVisible());

        // Differences: B differs from A in the batch, not in the parallelism; best and worst marked.
        QVERIFY(view.model()->differsFromFirst(core::ComparedFigure::Batch, 1));
        QVERIFY(!view.model()->differsFromFirst(core::ComparedFigure::Parallelism, 1));
        QVERIFY(!view.model()->differsFromFirst(core::ComparedFigure::Batch, 0));
        QVERIFY(view.model()
                    ->index(CompareModel::rowOf(core::ComparedFigure::Batch), 1)
                    .data(Qt::BackgroundRole)
                    .isValid());
        const int memBest = pa.memory.headroomBytes > pb.memory.headroomBytes ? 0 : 1;
        QCOMPARE(view.model()->standing(core::ComparedFigure::Headroom, memBest), core::Standing::Best);
        QCOMPARE(view.model()->standing(core::ComparedFigure::Headroom, 1 - memBest), core::Standing::Worst);
        QVERIFY(view.model()
                    ->index(CompareModel::rowOf(core::ComparedFigure::Headroom), memBest)
                    .data(Qt::FontRole)
                    .value<QFont>()
                    .bold());
        const int stepBest = pa.time.stepSeconds < pb.time.stepSeconds ? 0 : 1;
        QCOMPARE(view.model()->standing(core::ComparedFigure::StepTime, stepBest), core::Standing::Best);
        QCOMPARE(view.model()->standing(core::ComparedFigure::Parallelism, 0), core::Standing::None);
    }

    void unpinAndTheFourPinLimit() {
        ui::ScenarioDocument doc;
        ui::CompareView view(&doc);
        QAbstractItemModelTester tester(view.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        for (int mb : {1, 2, 4, 8}) {
            doc.setLayoutValue(LayoutAxis::MicroBatch, mb);
            QVERIFY(view.pinCurrent());
        }
        QCOMPARE(view.pinnedCount(), 4);
        QVERIFY(!view.pinCurrentButton()->isEnabled());
        doc.setLayoutValue(LayoutAxis::MicroBatch, 16);
        QVERIFY(!view.pinCurrent());
        QVERIFY(view.messageLabel()->text().contains(QStringLiteral("unpin")));

        // Unpin B with its button: C and D move up.
        QTest::mouseClick(view.unpinButton(1), Qt::LeftButton);
        QCoreApplication::processEvents();
        QCOMPARE(view.pinnedCount(), 3);
        QCOMPARE(view.pinned(1).scenario.layout.microBatch, 4);
        QCOMPARE(view.model()->columnCount(), 3);
        QVERIFY(view.pinCurrentButton()->isEnabled());
        QTest::mouseClick(view.unpinButton(0), Qt::LeftButton);
        QCoreApplication::processEvents();
        QCOMPARE(view.pinned(0).scenario.layout.microBatch, 4);
        view.clear();
        QCOMPARE(view.pinnedCount(), 0);
    }

    void anInvalidLayoutIsNotPinned() {
        ui::ScenarioDocument doc;
        ui::CompareView view(&doc);
        core::Scenario s = doc.scenario();
        s.layout.tp = 3; // 64 heads are not divisible by 3
        QVERIFY(!view.pin(s, QStringLiteral("test")));
        QCOMPARE(view.pinnedCount(), 0);
        QVERIFY(view.messageLabel()->text().contains(QStringLiteral("invalid")));
    }

    void pinningFromExploreShowsBothInCompare() {
        const auto window = test::openExploreWindow();
        ui::MainWindow& w = *window;
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* explore = w.findChild<ui::ExploreTab*>();
        auto* compare = w.findChild<ui::CompareView*>();
        QVERIFY(explore && compare);
        QAbstractItemModelTester tester(compare->model(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);

        // The tabs replaced the placeholders: one Explore, one Compare, "One axis" after Explore.
        QStringList titles;
        for (int i = 0; i < w.tabs()->count(); ++i)
            titles << w.tabs()->tabText(i);
        QCOMPARE(titles.count(QStringLiteral("&Explore")), 1);
        QCOMPARE(titles.count(QStringLiteral("&Compare")), 1);
        QCOMPARE(titles.indexOf(QStringLiteral("One a&xis")), titles.indexOf(QStringLiteral("&Explore")) + 1);

        w.tabs()->setCurrentWidget(explore);
        QSignalSpy finished(explore, &ui::ExploreTab::searchFinished);
        QTest::mouseClick(explore->searchButton(), Qt::LeftButton);
        QVERIFY(finished.wait(60000));
        QVERIFY(explore->model()->rowCount() >= 2);

        explore->selectRow(0);
        QTest::mouseClick(explore->pinButton(), Qt::LeftButton);
        explore->selectRow(1);
        QTest::mouseClick(explore->pinButton(), Qt::LeftButton);
        QCOMPARE(compare->pinnedCount(), 2);
        QCOMPARE(compare->model()->columnCount(), 2);
        for (int i = 0; i < 2; ++i) {
            const core::SearchEntry& e = explore->model()->row(i).entry;
            const core::Scenario expected = core::applyChoice(explore->searchedScenario(), e.choice);
            QVERIFY(compare->pinned(i).scenario == expected);
            QCOMPARE(compare->pinned(i).source, QStringLiteral("Explore #%1").arg(i + 1));
            QCOMPARE(compare->pinned(i).plan.mfu, e.mfu);
            QCOMPARE(compare->pinned(i).plan.time.stepSeconds, e.stepSeconds);
            QCOMPARE(cell(*compare, core::ComparedFigure::Mfu, i), ui::formatPercent(e.mfu, 1));
        }
        // The current layout joins them from the Compare tab itself.
        for (int i = 0; i < w.tabs()->count(); ++i)
            if (w.tabs()->widget(i) == compare)
                w.tabs()->setCurrentIndex(i);
        QVERIFY(compare->table()->isVisible());
        w.document()->setLayoutValue(LayoutAxis::MicroBatch, 1); // surely neither of the two
        QTest::mouseClick(compare->pinCurrentButton(), Qt::LeftButton);
        QCOMPARE(compare->pinnedCount(), 3);
        QCOMPARE(compare->pinned(2).source, QStringLiteral("Planner"));
        w.document()->undoStack()->setClean();
    }
};

QTEST_MAIN(TestCompare)
#include "test_compare.moc"
