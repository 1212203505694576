#include "ui/shell/ToolsWiring.h"

#include "ui/calibrate/CalibrateTab.h"
#include "ui/document/ScenarioDocument.h"
#include "ui/plan/PlanView.h"
#include "ui/shell/FileController.h"
#include "ui/shell/MainWindow.h"
#include "ui/validate/ValidationTab.h"

#include <QAction>
#include <QMenu>
#include <QPointer>
#include <QStatusBar>
#include <QTabWidget>

namespace lp::ui {
namespace {

// The index of the tab titled `title` (mnemonic ampersands ignored), or -1.
int findTab(QTabWidget* tabs, const QString& title) {
    for (int i = 0; i < tabs->count(); ++i) {
        QString text = tabs->tabText(i);
        text.remove(QLatin1Char('&'));
        if (text == title)
            return i;
    }
    return -1;
}

// Replaces the placeholder called `plainTitle`, or adds the page; returns its index.
int placeTab(MainWindow& w, QWidget* page, const QString& plainTitle, const QString& title,
             const QString& toolTip) {
    QTabWidget* tabs = w.tabs();
    const int placeholder = tabs ? findTab(tabs, plainTitle) : -1;
    if (placeholder < 0)
        return w.addTab(page, title, toolTip);
    w.replaceTab(placeholder, page);
    tabs->setTabText(placeholder, title);
    tabs->setTabToolTip(placeholder, toolTip);
    return placeholder;
}

} // namespace

void installToolTabs(MainWindow& w, ScenarioDocument& doc) {
    struct {
        CalibrateTab* calibrate = nullptr;
        ValidationTab* validation = nullptr;
    } out;
    QPointer<MainWindow> window(&w);

    out.calibrate = new CalibrateTab(doc);
    placeTab(w, out.calibrate, QStringLiteral("Calibrate"), MainWindow::tr("C&alibrate"),
             MainWindow::tr(
                 "Measure what your own GPUs achieve (GEMM, HBM and NCCL micro-benchmarks), or import a "
                 "hardware profile measured elsewhere, and apply it to the scenario."));
    out.validation = new ValidationTab(doc);
    placeTab(
        w, out.validation, QStringLiteral("Validate"), MainWindow::tr("&Validate"),
        MainWindow::tr("The planner's predictions against published measured training runs; open any of them "
                       "as the scenario."));

    // Opening a case replaces the scenario: ask about unsaved changes first, then show its Plan.
    out.validation->setReplaceGuard(
        [window] { return !window || !window->files() || window->files()->maybeSave(); });
    QObject::connect(out.validation, &ValidationTab::caseOpened, &w, [window](const QString& id) {
        if (!window)
            return;
        if (window->tabs() && window->planView())
            window->tabs()->setCurrentWidget(window->planView());
        window->statusBar()->showMessage(
            MainWindow::tr("Opened the published run %1 as an unsaved scenario").arg(id), 6000);
    });
    QObject::connect(out.calibrate, &CalibrateTab::profileApplied, &w,
                     [window, tab = QPointer<CalibrateTab>(out.calibrate)] {
                         if (window && tab)
                             window->statusBar()->showMessage(tab->activeProfileText(), 6000);
                     });

    // Tools menu entries.
    if (QMenu* tools = w.toolsMenu()) {
        const auto show = [window](QWidget* page) {
            return [window, p = QPointer<QWidget>(page)] {
                if (window && p && window->tabs())
                    window->tabs()->setCurrentWidget(p);
            };
        };
        QAction* calibrate = tools->addAction(MainWindow::tr("&Calibrate GPUs..."));
        calibrate->setObjectName(QStringLiteral("actionCalibrate"));
        calibrate->setStatusTip(MainWindow::tr("Measure the local GPUs or import a hardware profile"));
        QObject::connect(calibrate, &QAction::triggered, &w, show(out.calibrate));
        QAction* validate = tools->addAction(MainWindow::tr("&Validate against published runs"));
        validate->setObjectName(QStringLiteral("actionValidate"));
        validate->setStatusTip(MainWindow::tr("Compare predictions with published measured training runs"));
        QObject::connect(validate, &QAction::triggered, &w, show(out.validation));
    }
}

CalibrateTab* calibrateTabOf(const MainWindow& w) {
    return w.tabs() ? w.tabs()->findChild<CalibrateTab*>(QStringLiteral("calibrateTab")) : nullptr;
}

ValidationTab* validationTabOf(const MainWindow& w) {
    return w.tabs() ? w.tabs()->findChild<ValidationTab*>(QStringLiteral("validationTab")) : nullptr;
}

} // namespace lp::ui
