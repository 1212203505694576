// The Explore table at laptop size: every shown column fits without a horizontal scroll bar, the others
// are a right-click on the header away (and stay chosen), and presentation mode still fits.
#include "WindowTestSupport.h"
#include "ui/document/ScenarioDocument.h"
#include "ui/explore/ExploreTab.h"
#include "ui/explore/ResultTableColumns.h"
#include "ui/explore/SearchResultModel.h"
#include "ui/shell/MainWindow.h"
#include "ui/shell/TeachingMode.h"
#include "ui/teach/PresentationMode.h"
#include "ui/widgets/InlineBanner.h"

#include <QApplication>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QStyledItemDelegate>
#include <QTabWidget>
#include <QTableView>
#include <QToolButton>
#include <QUndoStack>

#include <algorithm>
#include <iterator>
#include <memory>

using namespace lp;
using ui::SearchResultModel;

namespace {

bool runSearch(ui::ExploreTab& tab) {
    QSignalSpy finished(&tab, &ui::ExploreTab::searchFinished);
    tab.startSearch();
    return finished.wait(60000);
}

void settle() {
    for (int i = 0; i < 5; ++i)
        QCoreApplication::processEvents();
}

} // namespace

class TestExploreColumns : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;

    // The planner window at 1280x720 on the Explore tab after a search of the default scenario.
    std::unique_ptr<ui::MainWindow> laptopWindowWithResults() {
        auto window = test::openExploreWindow();
        [&] { QVERIFY(QTest::qWaitForWindowExposed(window.get())); }();
        auto* tab = window->findChild<ui::ExploreTab*>();
        window->tabs()->setCurrentWidget(tab);
        window->resize(1280, 720);
        [&] { QVERIFY(runSearch(*tab)); }();
        settle();
        return window;
    }

    static void closeWindow(std::unique_ptr<ui::MainWindow>& window) {
        window->document()->undoStack()->setClean();
        window.reset();
    }

private slots:
    void initTestCase() { test::isolateUserFolders(m_dir); }
    void init() { QSettings().clear(); }

    // Twenty figures side by side would scroll sideways; the default columns fit, the layout's words last.
    void theDefaultColumnsFitALaptopWithoutScrollingSideways() {
        auto window = laptopWindowWithResults();
        auto* tab = window->findChild<ui::ExploreTab*>();
        QTableView* table = tab->table();
        QCOMPARE(table->horizontalScrollBar()->maximum(), 0);
        QVERIFY(!table->horizontalScrollBar()->isVisible());
        for (int column :
             {SearchResultModel::Rank, SearchResultModel::StepTime, SearchResultModel::Mfu,
              SearchResultModel::TokensPerSecond, SearchResultModel::Memory, SearchResultModel::Layout})
            QVERIFY2(!table->isColumnHidden(column), qPrintable(SearchResultModel::columnName(column)));
        for (int column : {SearchResultModel::Tp, SearchResultModel::Pp, SearchResultModel::Zero})
            QVERIFY(table->isColumnHidden(column));
        // The layout in words takes what is left, ends at the table's edge, and says it all in its tool tip.
        const int right = table->columnViewportPosition(SearchResultModel::Layout) +
                          table->columnWidth(SearchResultModel::Layout);
        QCOMPARE(right, table->viewport()->width());
        const QModelIndex layout = table->model()->index(0, SearchResultModel::Layout);
        QVERIFY(
            table->model()->data(layout, Qt::ToolTipRole).toString().startsWith(layout.data().toString()));
        // Where its words are wider than their column the rows take two lines, and the words break only
        // between the layout's parts ("TP 1 ·" | "PP 4 ·" ...), never inside one; the Pareto mark steps aside
        // for them before the free memory does (the chart and the memory column say what they say).
        int widest = 0;
        for (int row = 0; row < table->model()->rowCount(); ++row)
            widest = std::max(widest,
                              table->fontMetrics().horizontalAdvance(
                                  table->model()->index(row, SearchResultModel::Layout).data().toString()));
        const int column = table->columnWidth(SearchResultModel::Layout);
        if (widest > column)
            QCOMPARE(tab->columns()->layoutLines(), 2);
        if (widest + 4 * table->fontMetrics().averageCharWidth() < column)
            QCOMPARE(tab->columns()->layoutLines(), 1);
        QCOMPARE(table->wordWrap(), tab->columns()->layoutLines() == 2);
        QVERIFY(table->rowHeight(0) >= tab->columns()->layoutLines() * table->fontMetrics().height());
        if (table->isColumnHidden(SearchResultModel::Headroom))
            QVERIFY(table->isColumnHidden(SearchResultModel::Front));
        auto* delegate =
            qobject_cast<QStyledItemDelegate*>(table->itemDelegateForColumn(SearchResultModel::Layout));
        QVERIFY(delegate);
        const QString words = layout.data().toString();
        const QString shown = delegate->displayText(words, QLocale());
        QCOMPARE(shown.count(QLatin1Char(' ')), words.count(QStringLiteral(" \u00b7 ")));
        QCOMPARE(QString(shown).replace(QChar(0x00a0), QLatin1Char(' ')), words);
        closeWindow(window);
    }

    // The header's menu (a right-click, or the Columns button) brings a hidden column back and remembers it;
    // "Default columns" forgets; "Show all columns" shows every figure, scrolling sideways to reach them.
    // Each column's words come from one table: a stable key (remembered in QSettings, so never renamed), a
    // heading, a menu title and a full name, all present and the keys unique.
    void everyColumnHasItsWords() {
        const char* const keys[] = {"rank",     "front",  "step", "mfu",       "tokensPerSecond",
                                    "gpuHours", "memory", "free", "tp",        "pp",
                                    "dp",       "cp",     "ep",   "v",         "mb",
                                    "acc",      "batch",  "zero", "recompute", "sp",
                                    "layout"};
        QCOMPARE(int(std::size(keys)), int(SearchResultModel::ColumnCount));
        SearchResultModel model;
        for (int column = 0; column < SearchResultModel::ColumnCount; ++column) {
            QCOMPARE(SearchResultModel::columnKey(column), QString::fromLatin1(keys[column]));
            QVERIFY(!SearchResultModel::columnTitle(column).isEmpty());
            QVERIFY(!SearchResultModel::columnName(column).isEmpty());
            QVERIFY(!model.headerData(column, Qt::Horizontal).toString().isEmpty());
            QVERIFY(model.headerData(column, Qt::Horizontal, Qt::ToolTipRole)
                        .toString()
                        .startsWith(SearchResultModel::columnName(column)));
        }
        QVERIFY(SearchResultModel::columnKey(SearchResultModel::ColumnCount).isEmpty());
        QVERIFY(SearchResultModel::columnName(-1).isEmpty());
        QCOMPARE(model.headerData(SearchResultModel::Tp, Qt::Horizontal).toString(), QStringLiteral("TP"));
        QCOMPARE(SearchResultModel::columnTitle(SearchResultModel::Vpp),
                 QStringLiteral("v (virtual stages)"));
        // The memory headings name the unit and follow it.
        model.setUnit(ui::MemoryUnit::GB);
        QCOMPARE(model.headerData(SearchResultModel::Memory, Qt::Horizontal).toString(),
                 QStringLiteral("Memory\n(GB)"));
        model.setUnit(ui::MemoryUnit::GiB);
        QCOMPARE(model.headerData(SearchResultModel::Headroom, Qt::Horizontal).toString(),
                 QStringLiteral("Free\n(GiB)"));
    }

    void hiddenColumnsComeBackFromTheHeadersMenu() {
        auto window = laptopWindowWithResults();
        auto* tab = window->findChild<ui::ExploreTab*>();
        QTableView* table = tab->table();
        QHeaderView* header = table->horizontalHeader();
        QCOMPARE(header->contextMenuPolicy(), Qt::CustomContextMenu);
        emit header->customContextMenuRequested(QPoint(10, 5));
        QMenu* menu = tab->columns()->menu();
        QTRY_VERIFY(menu->isVisible());
        QCOMPARE(tab->columnsButton()->menu(), menu);
        QAction* tp = menu->findChild<QAction*>(QStringLiteral("exploreColumn_tp"));
        QVERIFY(tp);
        QVERIFY(!tp->isChecked());
        tp->trigger();
        menu->close();
        QVERIFY(!table->isColumnHidden(SearchResultModel::Tp));
        QVERIFY(tp->isChecked());
        QVERIFY(QSettings()
                    .value(QStringLiteral("explore/shownColumns"))
                    .toStringList()
                    .contains(QStringLiteral("tp")));
        {
            ui::ScenarioDocument doc;
            ui::ExploreTab another(&doc); // a new window keeps the choice
            QVERIFY(!another.table()->isColumnHidden(SearchResultModel::Tp));
            QVERIFY(another.table()->isColumnHidden(SearchResultModel::Pp));
        }
        // Sorting by a shown column still sorts the rows.
        table->sortByColumn(SearchResultModel::Tp, Qt::DescendingOrder);
        const QAbstractItemModel* shown = table->model();
        for (int row = 1; row < shown->rowCount(); ++row)
            QVERIFY(shown->index(row - 1, SearchResultModel::Tp).data().toInt() >=
                    shown->index(row, SearchResultModel::Tp).data().toInt());

        menu->findChild<QAction*>(QStringLiteral("exploreColumnsAll"))->trigger();
        for (int column = 0; column < SearchResultModel::ColumnCount; ++column)
            QVERIFY(!table->isColumnHidden(column));
        settle();
        QVERIFY(table->horizontalScrollBar()->maximum() > 0);

        menu->findChild<QAction*>(QStringLiteral("exploreColumnsDefault"))->trigger();
        settle();
        QVERIFY(table->isColumnHidden(SearchResultModel::Tp));
        QCOMPARE(table->horizontalScrollBar()->maximum(), 0);
        QVERIFY(!QSettings().contains(QStringLiteral("explore/shownColumns")));

        // The only column shown stays.
        for (int column = 0; column < SearchResultModel::ColumnCount; ++column)
            if (column != SearchResultModel::StepTime)
                tab->columns()->setShown(column, false);
        tab->columns()->setShown(SearchResultModel::StepTime, false);
        QVERIFY(!table->isColumnHidden(SearchResultModel::StepTime));
        QVERIFY(!tab->columns()->action(SearchResultModel::StepTime)->isEnabled());
        tab->columns()->restoreDefaults();
        closeWindow(window);
    }

    // Larger type in the same window: default figures the others imply step aside rather than scroll.
    void presentationModeFitsToo() {
        auto window = laptopWindowWithResults();
        QTableView* table = window->findChild<ui::ExploreTab*>()->table();
        ui::PresentationMode* presentation = ui::TeachingMode::of(*window)->presentation();
        ui::PresentationOptions o = presentation->options();
        o.fullScreen = false; // means little on the offscreen platform
        presentation->setOptions(o);
        QList<bool> hiddenBefore;
        for (int column = 0; column < SearchResultModel::ColumnCount; ++column)
            hiddenBefore << table->isColumnHidden(column);
        presentation->setActive(true);
        settle();
        QCOMPARE(table->horizontalScrollBar()->maximum(), 0);
        for (int column : {SearchResultModel::Rank, SearchResultModel::StepTime, SearchResultModel::Layout})
            QVERIFY(!table->isColumnHidden(column));
        presentation->setActive(false);
        settle();
        for (int column = 0; column < SearchResultModel::ColumnCount; ++column) // back as they were
            QCOMPARE(table->isColumnHidden(column), hiddenBefore.at(column));
        QCOMPARE(table->horizontalScrollBar()->maximum(), 0);
        closeWindow(window);
    }

    // A banner's words follow presentation mode in and out, whether it showed before or during it (a style
    // sheet had fixed them at the size of the moment: large after leaving, small during).
    void bannersFollowPresentationModeInAndOut() {
        auto window = test::openExploreWindow();
        QVERIFY(QTest::qWaitForWindowExposed(window.get()));
        const double normal = QApplication::font().pointSizeF();
        auto titleSize = [](ui::InlineBanner* banner) {
            for (QLabel* label : banner->findChildren<QLabel*>())
                if (label->text() == banner->title())
                    return label->fontInfo().pointSizeF();
            return 0.0;
        };
        window->fileBanner()->showMessage(ui::InlineBanner::Kind::Warning, QStringLiteral("Before"));
        ui::PresentationMode* presentation = ui::TeachingMode::of(*window)->presentation();
        ui::PresentationOptions o = presentation->options();
        o.fullScreen = false;
        presentation->setOptions(o);
        presentation->setActive(true);
        settle();
        window->layoutBanner()->showMessage(ui::InlineBanner::Kind::Error, QStringLiteral("During"));
        QVERIFY(titleSize(window->fileBanner()) > normal * 1.3);
        QVERIFY(titleSize(window->layoutBanner()) > normal * 1.3);
        presentation->setActive(false);
        settle();
        QCOMPARE(titleSize(window->fileBanner()), normal);
        QCOMPARE(titleSize(window->layoutBanner()), normal);
        closeWindow(window);
    }

    // Set LP_EXPLORE_SCREENSHOTS=DIR to keep the PNGs: 1280x720, normal and in presentation mode.
    void screenshots() {
        auto window = laptopWindowWithResults();
        ui::MainWindow& w = *window;
        w.findChild<ui::ExploreTab*>()->selectRow(2);
        const QString dir = qEnvironmentVariable("LP_EXPLORE_SCREENSHOTS", m_dir.path());
        QTest::qWait(50);
        QVERIFY(w.grab().save(dir + QStringLiteral("/explore-1280.png")));
        ui::PresentationMode* presentation = ui::TeachingMode::of(w)->presentation();
        ui::PresentationOptions o = presentation->options();
        o.fullScreen = false;
        presentation->setOptions(o);
        presentation->setActive(true);
        settle();
        QTest::qWait(50);
        QVERIFY(w.grab().save(dir + QStringLiteral("/explore-1280-presentation.png")));
        presentation->setActive(false);
        closeWindow(window);
    }
};

QTEST_MAIN(TestExploreColumns)
#include "test_explore_columns.moc"
