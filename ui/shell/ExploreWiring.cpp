#include "ui/shell/ExploreWiring.h"

#include "ui/compare/CompareView.h"
#include "ui/document/ScenarioDocument.h"
#include "ui/explore/AxisSweepView.h"
#include "ui/explore/ExploreTab.h"
#include "ui/shell/MainWindow.h"
#include "ui/shell/Settings.h"

#include <QAction>
#include <QStatusBar>
#include <QTabBar>
#include <QTabWidget>

namespace lp::ui {
namespace {

// Replaces the page titled `title` (a placeholder) or appends a new tab; returns its index.
int placeTab(MainWindow& w, QWidget* page, const QString& title, const QString& toolTip) {
    QTabWidget* tabs = w.tabs();
    for (int i = 0; tabs && i < tabs->count(); ++i) {
        if (tabs->tabText(i) == title) {
            w.replaceTab(i, page);
            tabs->setTabToolTip(i, toolTip);
            return i;
        }
    }
    return w.addTab(page, title, toolTip);
}

} // namespace

void installExploreTabs(MainWindow& w, ScenarioDocument& doc) {
    auto* explore = new ExploreTab(&doc);
    auto* sweep = new AxisSweepView(&doc);
    auto* compare = new CompareView(&doc);

    const int exploreIndex = placeTab(
        w, explore, MainWindow::tr("&Explore"),
        MainWindow::tr("Search every valid layout of this scenario, rank them, and see the memory-against-"
                       "MFU Pareto front."));
    const int sweepIndex = placeTab(
        w, sweep, MainWindow::tr("One a&xis"),
        MainWindow::tr("MFU and worst-stage memory as one axis (TP, PP, DP, micro batch, accumulation, "
                       "recompute) varies with the others held."));
    if (QTabWidget* tabs = w.tabs(); tabs && sweepIndex != exploreIndex + 1 && exploreIndex >= 0)
        tabs->tabBar()->moveTab(sweepIndex, sweepIndex > exploreIndex ? exploreIndex + 1 : exploreIndex);
    // The tool bar's Explore: this tab, and a fresh search of every layout of the current scenario unless one
    // is running.
    auto* searchAll = new QAction(MainWindow::tr("Explore"), &w);
    searchAll->setObjectName(QStringLiteral("exploreAction"));
    searchAll->setToolTip(
        MainWindow::tr("Search every valid layout of this scenario and rank them (Explore tab)"));
    QObject::connect(searchAll, &QAction::triggered, &w, [&w, explore] {
        w.tabs()->setCurrentWidget(explore);
        if (!explore->isRunning())
            explore->startSearch();
    });
    w.insertToolBarAction(searchAll);
    placeTab(w, compare, MainWindow::tr("&Compare"),
             MainWindow::tr(
                 "Pin two to four layouts and compare their memory, step time, MFU and diagnostics side "
                 "by side."));

    QObject::connect(explore, &ExploreTab::pinRequested, compare,
                     [&w, compare](const core::Scenario& scenario, const QString& label) {
                         if (compare->pin(scenario, label))
                             w.statusBar()->showMessage(MainWindow::tr("Pinned to Compare (%1 of %2).")
                                                            .arg(compare->pinnedCount())
                                                            .arg(CompareView::kMaxPinned),
                                                        4000);
                     });

    if (Settings* settings = w.settings()) {
        const auto applyUnit = [explore, sweep, compare](MemoryUnit unit) {
            explore->setUnit(unit);
            sweep->setUnit(unit);
            compare->setUnit(unit);
        };
        applyUnit(settings->memoryUnit());
        QObject::connect(settings, &Settings::memoryUnitChanged, explore, applyUnit);
    }
}

} // namespace lp::ui
