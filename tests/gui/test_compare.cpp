// The Compare tab: pinning from the planner and from Explore shows each layout side by side with
// the core's numbers; the best value of a row is marked best, the worst worst, and cells that differ
// from the first pin are flagged; unpin, duplicates, the four-pin limit and invalid layouts. Pins name
// their model and GPUs, keep them when File > New or Open replaces the scenario, and the tab fits a
// laptop and a projector without scrolling sideways.
#include "WindowTestSupport.h"
#include "core/estimate/Evaluate.h"
#include "core/io/Presets.h"
#include "core/io/ScenarioJson.h"
#include "core/model/Units.h"
#include "core/search/LayoutComparison.h"
#include "core/search/Search.h"
#include "ui/charts/ChartLegend.h"
#include "ui/compare/CompareModel.h"
#include "ui/compare/CompareView.h"
#include "ui/document/ScenarioDocument.h"
#include "ui/explore/ExploreTab.h"
#include "ui/explore/SearchResultModel.h"
#include "ui/shell/FileController.h"
#include "ui/shell/MainWindow.h"
#include "ui/shell/TeachingMode.h"
#include "ui/teach/PresentationMode.h"

#include <QAbstractButton>
#include <QAbstractItemModelTester>
#include <QApplication>
#include <QFrame>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QUndoStack>
#include <QtCharts/QBarSet>
#include <QtCharts/QChartView>

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

    static void settle() {
        for (int i = 0; i < 5; ++i)
            QApplication::processEvents();
    }

    static void showCompare(ui::MainWindow& w, ui::CompareView* compare) {
        for (int i = 0; i < w.tabs()->count(); ++i)
            if (w.tabs()->widget(i)->isAncestorOf(compare) || w.tabs()->widget(i) == compare)
                w.tabs()->setCurrentIndex(i);
    }

    // `widget` lies inside the page's scroll area horizontally, as it is (no scrolling needed).
    static bool inView(QScrollArea* scroll, QWidget* widget) {
        const QRect r(widget->mapTo(scroll->viewport(), QPoint(0, 0)), widget->size());
        return widget->isVisible() && r.left() >= 0 && r.right() < scroll->viewport()->width();
    }

    // No sideways scrolling: the page fits, the pins, Pin and the charts are in view, no legend name is cut,
    // and the table's columns fit beside its row names.
    static void verifyFitsSideways(ui::CompareView* compare, const QString& where) {
        auto* scroll = compare->findChild<QScrollArea*>(QStringLiteral("pageScroll"));
        QVERIFY(scroll);
        QVERIFY2(!scroll->horizontalScrollBar()->isVisible() &&
                     scroll->widget()->minimumSizeHint().width() <= scroll->viewport()->width(),
                 qPrintable(QStringLiteral("%1: the page needs %2 px of %3")
                                .arg(where)
                                .arg(scroll->widget()->minimumSizeHint().width())
                                .arg(scroll->viewport()->width())));
        QVERIFY2(inView(scroll, compare->pinCurrentButton()), qPrintable(where));
        QVERIFY2(inView(scroll, compare->unpinAllButton()), qPrintable(where));
        for (int i = 0; i < compare->pinnedCount(); ++i) {
            QVERIFY2(inView(scroll, compare->card(i)),
                     qPrintable(QStringLiteral("%1: pin %2").arg(where).arg(i)));
            QVERIFY2(inView(scroll, compare->unpinButton(i)), qPrintable(where));
        }
        QVERIFY2(inView(scroll, compare->memoryChartView()), qPrintable(where));
        QVERIFY2(inView(scroll, compare->timeChartView()), qPrintable(where));
        for (ui::ChartLegend* legend : {compare->memoryLegend(), compare->timeLegend()}) {
            QVERIFY(legend->count() >= 3);
            for (int i = 0; i < legend->count(); ++i) {
                QWidget* entry = legend->entry(i);
                QVERIFY2(entry->isVisible() && legend->rect().contains(entry->geometry()) &&
                             entry->width() >= entry->sizeHint().width(),
                         qPrintable(QStringLiteral("%1: %2").arg(where, legend->entryName(i))));
            }
            QVERIFY2(inView(scroll, legend), qPrintable(where));
        }
        QTableView* table = compare->table();
        QVERIFY2(inView(scroll, table), qPrintable(where));
        QVERIFY(table->verticalHeader()->isVisible());
        QVERIFY(!table->horizontalScrollBar()->isVisible());
        for (int row = 0; row < table->model()->rowCount(); ++row) // every row tall enough for its words
            QVERIFY2(table->rowHeight(row) >= static_cast<QAbstractItemView*>(table)->sizeHintForRow(row),
                     qPrintable(QStringLiteral("%1: row %2").arg(where).arg(row)));
        const int last = compare->pinnedCount() - 1;
        QVERIFY2(table->columnViewportPosition(last) + table->columnWidth(last) <= table->viewport()->width(),
                 qPrintable(where));
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
        // Every cell is the core's words of it, in the window's memory unit.
        for (int row = 0; row < core::kComparedFigureCount; ++row) {
            const auto figure = CompareModel::figureAt(row);
            QCOMPARE(cell(view, figure, 0), ui::qs(core::comparedText(a, pa, figure, ui::MemoryUnit::GiB)));
            QCOMPARE(cell(view, figure, 1), ui::qs(core::comparedText(b, pb, figure, ui::MemoryUnit::GiB)));
        }
        QCOMPARE(view.memoryCategories().size(), 2);
        // Letter and value on two lines, the unit in the axis title: short enough not to be cut.
        QCOMPARE(view.memoryCategories().at(1),
                 QStringLiteral("B<br>") + ui::formatNumber(pb.memory.worstTotalBytes() / core::kGiB, 1));
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

    // Four pins on a 1280x720 projector, a 1366x768 laptop, 1520x950 and in presentation mode: nothing
    // scrolls sideways, every pin, Pin, the charts with their legends and the table's row names in view.
    void fitsALaptopWithoutScrollingSideways() {
        const auto window = test::openExploreWindow();
        ui::MainWindow& w = *window;
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* explore = w.findChild<ui::ExploreTab*>();
        auto* compare = w.findChild<ui::CompareView*>();
        QSignalSpy finished(explore, &ui::ExploreTab::searchFinished);
        explore->startSearch();
        QVERIFY(finished.wait(60000));
        for (int row : {0, 2, 5})
            explore->pinRow(row);
        compare->pinCurrent();
        QCOMPARE(compare->pinnedCount(), 4);
        showCompare(w, compare);
        for (const QSize size : {QSize(1280, 720), QSize(1366, 768), QSize(1520, 950)}) {
            w.resize(size);
            settle();
            verifyFitsSideways(compare, QStringLiteral("%1x%2").arg(size.width()).arg(size.height()));
        }
        ui::TeachingMode::of(w)->presentationAction()->trigger();
        settle();
        w.setWindowState(Qt::WindowNoState); // a projector's 1280x720, not the test screen
        w.resize(1280, 720);
        settle();
        verifyFitsSideways(compare, QStringLiteral("presentation"));
        ui::TeachingMode::of(w)->presentationAction()->trigger();
        w.document()->undoStack()->setClean();
    }

    // A pin names its model, GPU and GPU count (taken when pinned), and pinning says so and frames it.
    void pinsNameTheirModelAndPinningShowsIt() {
        const auto window = test::openExploreWindow();
        ui::MainWindow& w = *window;
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* compare = w.findChild<ui::CompareView*>();
        showCompare(w, compare);
        const core::Scenario a = w.document()->scenario();
        QTest::mouseClick(compare->pinCurrentButton(), Qt::LeftButton);
        settle();
        const QString label = ui::qs(core::pinLabel(a)); // "Llama-2-70B on 64 H100, TP 8 × PP 4 × ..."
        QVERIFY(label.contains(QStringLiteral(" on 64 H100")));
        QVERIFY(compare->messageLabel()->text().contains(QStringLiteral("Pinned A: %1.").arg(label)));
        QVERIFY(w.statusBar()->currentMessage().contains(label));
        QCOMPARE(compare->highlightedPin(), 0);
        auto* title = compare->card(0)->findChild<QLabel*>(QStringLiteral("compareCardTitle0"));
        QVERIFY(title && title->isVisible());
        QCOMPARE(title->text(), ui::qs(core::pinnedModelText(a)));
        QCOMPARE(cell(*compare, core::ComparedFigure::Model, 0), ui::qs(core::pinnedModelText(a)));

        w.document()->setLayoutValue(LayoutAxis::MicroBatch, 1);
        QTest::mouseClick(compare->pinCurrentButton(), Qt::LeftButton);
        settle();
        QCOMPARE(compare->highlightedPin(), 1); // the new one framed, the earlier one not
        QVERIFY(compare->card(1)->styleSheet().contains(QStringLiteral("border")));
        QVERIFY(compare->card(0)->styleSheet().isEmpty());
        QVERIFY(compare->messageLabel()->text().startsWith(QStringLiteral("Pinned B: ")));
        w.document()->undoStack()->setClean();
    }

    // File > New or Open of another model keeps the pins, each with its own model, and says that they are
    // not the planner's; Pin current layout adds the new model beside them, Unpin all starts over.
    void pinsKeepTheirModelWhenAnotherIsOpened() {
        const auto window = test::openExploreWindow();
        ui::MainWindow& w = *window;
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* compare = w.findChild<ui::CompareView*>();
        showCompare(w, compare);
        const QString seventy = ui::qs(core::pinnedModelText(w.document()->scenario()));
        QVERIFY(compare->pinCurrent());
        w.document()->setLayoutValue(LayoutAxis::MicroBatch, 1);
        QVERIFY(compare->pinCurrent());

        // File > New: the same model and cluster, so nothing to say.
        w.document()->undoStack()->setClean();
        QVERIFY(w.files()->newScenario());
        settle();
        QCOMPARE(compare->pinnedCount(), 2);
        QVERIFY(!compare->messageLabel()->isVisible());

        // Open a Llama-3.1-8B scenario.
        core::Scenario other = core::defaultScenario();
        other.model = core::findModelPreset("llama3.1-8b")->model;
        other.layout.tp = 1;
        other.layout.dp = 16;
        const QString path = m_dir.filePath(QStringLiteral("eight-b.json"));
        QVERIFY(core::saveScenarioFile(path.toStdString(), other).has_value());
        QVERIFY(w.files()->openPath(path));
        settle();
        const QString eight = ui::qs(core::pinnedModelText(w.document()->scenario()));
        QVERIFY(eight != seventy);
        QCOMPARE(compare->pinnedCount(), 2);
        for (int i = 0; i < 2; ++i) {
            QCOMPARE(cell(*compare, core::ComparedFigure::Model, i), seventy);
            QCOMPARE(
                compare->card(i)->findChild<QLabel*>(QStringLiteral("compareCardTitle%1").arg(i))->text(),
                seventy);
        }
        QVERIFY(compare->messageLabel()->isVisible());
        const QString note = compare->messageLabel()->text();
        QVERIFY2(note.contains(QStringLiteral("now plans %1").arg(eight)) &&
                     note.contains(QStringLiteral("A and B are of %1").arg(seventy)),
                 qPrintable(note));

        // The new model joins as C, its own model named, the difference tinted.
        QVERIFY(compare->pinCurrent());
        QCOMPARE(cell(*compare, core::ComparedFigure::Model, 2), eight);
        QVERIFY(compare->model()->differsFromFirst(core::ComparedFigure::Model, 2));
        QTest::mouseClick(compare->unpinAllButton(), Qt::LeftButton);
        QCOMPARE(compare->pinnedCount(), 0);
        w.document()->undoStack()->setClean();
    }
};

QTEST_MAIN(TestCompare)
#include "test_compare.moc"
