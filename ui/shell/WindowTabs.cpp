#include "ui/shell/WindowTabs.h"

#include "ui/calibrate/CalibrateTab.h"
#include "ui/compare/CompareView.h"
#include "ui/document/ScenarioDocument.h"
#include "ui/explore/AxisSweepView.h"
#include "ui/explore/ExploreTab.h"
#include "ui/measured/MeasuredRunPanel.h"
#include "ui/plan/ExplanationPanel.h"
#include "ui/plan/PlanView.h"
#include "ui/shell/FileController.h"
#include "ui/shell/MainWindow.h"
#include "ui/shell/Settings.h"
#include "ui/shell/WindowMenus.h"
#include "ui/timeline/TimelineView.h"
#include "ui/validate/ValidationTab.h"
#include "ui/widgets/ExplainTrigger.h"

#include <QAction>
#include <QMenu>
#include <QStatusBar>
#include <QTabWidget>

#include <iterator>

namespace lp::ui {
namespace {

struct TabText {
    WindowTab tab;
    const char* title;
    const char* toolTip;
};

// The tab bar, left to right.
constexpr TabText kTabs[] = {
    {WindowTab::Plan, QT_TRANSLATE_NOOP("lp::ui::WindowTabs", "&Plan"),
     QT_TRANSLATE_NOOP("lp::ui::WindowTabs",
                       "Memory per stage, MFU and the step-time breakdown of the current layout.")},
    {WindowTab::Timeline, QT_TRANSLATE_NOOP("lp::ui::WindowTabs", "T&imeline"),
     QT_TRANSLATE_NOOP(
         "lp::ui::WindowTabs",
         "The step laid out in time per pipeline rank: forward, backward, communication, the bubble "
         "and the micro batches each rank holds; compare it with another layout.")},
    {WindowTab::Explore, QT_TRANSLATE_NOOP("lp::ui::WindowTabs", "&Explore"),
     QT_TRANSLATE_NOOP("lp::ui::WindowTabs", "Search every valid layout of this scenario, rank them, and see "
                                             "the memory-against-MFU Pareto front.")},
    {WindowTab::OneAxis, QT_TRANSLATE_NOOP("lp::ui::WindowTabs", "One a&xis"),
     QT_TRANSLATE_NOOP("lp::ui::WindowTabs", "MFU and worst-stage memory as one axis (TP, PP, DP, micro "
                                             "batch, accumulation, recompute) varies with the others held.")},
    {WindowTab::Compare, QT_TRANSLATE_NOOP("lp::ui::WindowTabs", "&Compare"),
     QT_TRANSLATE_NOOP(
         "lp::ui::WindowTabs",
         "Pin two to four layouts and compare their memory, step time, MFU and diagnostics side by side.")},
    {WindowTab::Calibrate, QT_TRANSLATE_NOOP("lp::ui::WindowTabs", "C&alibrate"),
     QT_TRANSLATE_NOOP("lp::ui::WindowTabs",
                       "Measure what your own GPUs achieve (GEMM, HBM and NCCL micro-benchmarks), or import "
                       "a hardware profile measured elsewhere, and apply it to the scenario.")},
    {WindowTab::Validate, QT_TRANSLATE_NOOP("lp::ui::WindowTabs", "&Validate"),
     QT_TRANSLATE_NOOP("lp::ui::WindowTabs", "The planner's predictions against published measured training "
                                             "runs; open any of them as the scenario.")},
    {WindowTab::MeasuredRun, QT_TRANSLATE_NOOP("lp::ui::WindowTabs", "&Measured run"),
     QT_TRANSLATE_NOOP("lp::ui::WindowTabs",
                       "Load the step times of a real run and compare them with the plan")},
};
static_assert(std::size(kTabs) == std::size_t{kWindowTabCount});

constexpr bool inOrder() {
    for (int i = 0; i < kWindowTabCount; ++i)
        if (static_cast<int>(kTabs[i].tab) != i)
            return false;
    return true;
}
static_assert(inOrder(), "kTabs lists the tabs in WindowTab's order");

const TabText& textOf(WindowTab tab) {
    return kTabs[static_cast<int>(tab)];
}

} // namespace

QString WindowTabs::title(WindowTab tab) {
    return tr(textOf(tab).title);
}

QString WindowTabs::toolTip(WindowTab tab) {
    return tr(textOf(tab).toolTip);
}

QStringList WindowTabs::names() {
    QStringList out;
    for (const TabText& t : kTabs)
        out << QString::fromLatin1(t.title).remove(QLatin1Char('&'));
    return out;
}

std::optional<WindowTab> WindowTabs::fromName(const QString& name) {
    const QStringList all = names();
    for (int i = 0; i < all.size(); ++i)
        if (all[i].compare(name, Qt::CaseInsensitive) == 0)
            return static_cast<WindowTab>(i);
    return std::nullopt;
}

void WindowTabs::append(QTabWidget& tabs, WindowTab tab, QWidget* page) {
    Q_ASSERT(tabs.count() == static_cast<int>(tab));
    const int index = tabs.addTab(page, title(tab));
    tabs.setTabToolTip(index, toolTip(tab));
}

WindowTabs& WindowTabs::install(MainWindow& w) {
    if (WindowTabs* installed = of(w))
        return *installed;
    return *new WindowTabs(w);
}

WindowTabs* WindowTabs::of(const MainWindow& w) {
    return w.findChild<WindowTabs*>(QStringLiteral("windowTabs"), Qt::FindDirectChildrenOnly);
}

WindowTabs::WindowTabs(MainWindow& w) : QObject(&w), m_window(w) {
    setObjectName(QStringLiteral("windowTabs"));
    createTabs();
    connectExplore();
    connectTimeline();
    connectCalibrateAndValidate();
    addToolsMenuEntries();
}

void WindowTabs::createTabs() {
    ScenarioDocument& doc = *m_window.document();
    QTabWidget& tabs = *m_window.tabs();
    m_layoutTabs.timeline = new TimelineView(&doc);
    append(tabs, WindowTab::Timeline, m_layoutTabs.timeline);
    m_layoutTabs.explore = new ExploreTab(&doc);
    append(tabs, WindowTab::Explore, m_layoutTabs.explore);
    m_layoutTabs.oneAxis = new AxisSweepView(&doc);
    append(tabs, WindowTab::OneAxis, m_layoutTabs.oneAxis);
    m_layoutTabs.compare = new CompareView(&doc);
    append(tabs, WindowTab::Compare, m_layoutTabs.compare);
    m_measurementTabs.calibrate = new CalibrateTab(doc);
    append(tabs, WindowTab::Calibrate, m_measurementTabs.calibrate);
    m_measurementTabs.validation = new ValidationTab(doc);
    append(tabs, WindowTab::Validate, m_measurementTabs.validation);
    m_measurementTabs.measuredRun = new MeasuredRunPanel();
    m_measurementTabs.measuredRun->attach(&doc);
    append(tabs, WindowTab::MeasuredRun, m_measurementTabs.measuredRun);
}

QWidget* WindowTabs::page(WindowTab tab) const {
    switch (tab) {
    case WindowTab::Plan:
        return m_window.planView();
    case WindowTab::Timeline:
        return m_layoutTabs.timeline;
    case WindowTab::Explore:
        return m_layoutTabs.explore;
    case WindowTab::OneAxis:
        return m_layoutTabs.oneAxis;
    case WindowTab::Compare:
        return m_layoutTabs.compare;
    case WindowTab::Calibrate:
        return m_measurementTabs.calibrate;
    case WindowTab::Validate:
        return m_measurementTabs.validation;
    case WindowTab::MeasuredRun:
        return m_measurementTabs.measuredRun;
    }
    return nullptr;
}

void WindowTabs::showPage(QWidget* page) const {
    m_window.tabs()->setCurrentWidget(page);
}

void WindowTabs::showStatus(const QString& message, int milliseconds) const {
    m_window.statusBar()->showMessage(message, milliseconds);
}

void WindowTabs::connectExplore() {
    // The tool bar's Explore: this tab, and a fresh search of every layout of the current scenario unless
    // one is running.
    auto* searchAll = new QAction(tr("Explore"), &m_window);
    searchAll->setObjectName(QStringLiteral("exploreAction"));
    searchAll->setToolTip(tr("Search every valid layout of this scenario and rank them (Explore tab)"));
    connect(searchAll, &QAction::triggered, this, [this] {
        showPage(m_layoutTabs.explore);
        if (!m_layoutTabs.explore->isRunning())
            m_layoutTabs.explore->startSearch();
    });
    m_window.menus()->addToolButton(searchAll);

    connect(m_layoutTabs.explore, &ExploreTab::pinRequested, m_layoutTabs.compare,
            [this](const core::Scenario& scenario, const QString& label) {
                if (m_layoutTabs.compare->pin(scenario, label))
                    showStatus(tr("Pinned to Compare (%1 of %2).")
                                   .arg(m_layoutTabs.compare->pinnedCount())
                                   .arg(CompareView::kMaxPinned),
                               4000);
            });

    const auto applyUnit = [this](MemoryUnit unit) {
        m_layoutTabs.explore->setUnit(unit);
        m_layoutTabs.oneAxis->setUnit(unit);
        m_layoutTabs.compare->setUnit(unit);
    };
    applyUnit(m_window.settings()->memoryUnit());
    connect(m_window.settings(), &Settings::memoryUnitChanged, m_layoutTabs.explore, applyUnit);
}

// The timeline explains its events in the explanation panel, and offers the layouts pinned in Compare.
void WindowTabs::connectTimeline() {
    TimelineView* timeline = m_layoutTabs.timeline;
    ExplanationPanel* explanation = m_window.explanationPanel();
    relayExplanations(timeline, explanation, &ExplanationPanel::showKey, &ExplanationPanel::previewKey);
    const auto offerPins = [this, timeline] {
        std::vector<TimelineLayout> pins;
        const CompareView* compare = m_layoutTabs.compare;
        for (int i = 0; i < compare->pinnedCount(); ++i) {
            const PinnedLayout& pin = compare->pinned(i);
            const core::Layout& l = pin.scenario.layout;
            const QString label = tr("%1 (TP %2, PP %3, DP %4, accumulation %5)")
                                      .arg(CompareModel::letter(i))
                                      .arg(l.tp)
                                      .arg(l.pp)
                                      .arg(l.dp)
                                      .arg(l.accumulation);
            pins.push_back({label, pin.scenario, pin.plan});
        }
        timeline->setPinnedLayouts(std::move(pins));
    };
    connect(m_layoutTabs.compare, &CompareView::pinnedChanged, timeline, offerPins);
    offerPins();
}

void WindowTabs::connectCalibrateAndValidate() {
    // Opening a published run replaces the scenario: ask about unsaved changes first, then show its Plan.
    m_measurementTabs.validation->setReplaceGuard([this] { return m_window.files()->maybeSave(); });
    connect(m_measurementTabs.validation, &ValidationTab::caseOpened, this, [this](const QString& id) {
        showPage(m_window.planView());
        showStatus(tr("Opened the published run %1 as an unsaved scenario").arg(id), 6000);
    });
    // The runs behind a throughput figure's trust band, from the explanation's link.
    connect(m_window.explanationPanel(), &ExplanationPanel::validationRunsRequested, this,
            [this](const QStringList& ids) {
                showPage(m_measurementTabs.validation);
                m_measurementTabs.validation->showRuns(ids);
            });
    connect(m_measurementTabs.calibrate, &CalibrateTab::profileApplied, this,
            [this] { showStatus(m_measurementTabs.calibrate->activeProfileText(), 6000); });
}

void WindowTabs::addToolsMenuEntries() {
    QMenu* tools = m_window.menus()->toolsMenu();
    QAction* calibrate = tools->addAction(tr("&Calibrate GPUs..."));
    calibrate->setObjectName(QStringLiteral("actionCalibrate"));
    calibrate->setStatusTip(tr("Measure the local GPUs or import a hardware profile"));
    connect(calibrate, &QAction::triggered, this, [this] { showPage(m_measurementTabs.calibrate); });
    QAction* validate = tools->addAction(tr("&Validate against published runs"));
    validate->setObjectName(QStringLiteral("actionValidate"));
    validate->setStatusTip(tr("Compare predictions with published measured training runs"));
    connect(validate, &QAction::triggered, this, [this] { showPage(m_measurementTabs.validation); });
}

} // namespace lp::ui
