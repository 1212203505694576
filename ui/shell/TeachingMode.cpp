#include "ui/shell/TeachingMode.h"

#include "ui/charts/MemoryChart.h"
#include "ui/charts/TimeChart.h"
#include "ui/document/ScenarioDocument.h"
#include "ui/plan/ExplanationPanel.h"
#include "ui/plan/KeyFigures.h"
#include "ui/plan/PlanView.h"
#include "ui/scenario/ClusterEditor.h"
#include "ui/scenario/LayoutSliders.h"
#include "ui/scenario/ModelEditor.h"
#include "ui/scenario/ScenarioPanel.h"
#include "ui/scenario/TrainingEditor.h"
#include "ui/shell/Autosave.h"
#include "ui/shell/MainWindow.h"
#include "ui/shell/PresentationPanelFit.h"
#include "ui/shell/Settings.h"
#include "ui/shell/WindowMenus.h"
#include "ui/teach/GlossaryDialog.h"
#include "ui/teach/PresentationMode.h"
#include "ui/teach/QuizDialog.h"
#include "ui/teach/TeachingTexts.h"
#include "ui/teach/Tour.h"
#include "ui/teach/TourPanel.h"
#include "ui/teach/WidgetOutline.h"
#include "ui/widgets/InlineBanner.h"

#include <QAction>
#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QDockWidget>
#include <QEvent>
#include <QLineEdit>
#include <QMenu>
#include <QShortcut>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>
#include <QUndoStack>

#include <cstdio>

namespace lp::ui {
namespace {

void name(QWidget* w, const char* objectName) {
    if (w && w->objectName().isEmpty())
        w->setObjectName(QString::fromLatin1(objectName));
}

// Brings a dock to the front now and once more when the event loop runs: before the window is shown
// (the command line), a tabified dock's tab cannot be selected yet.
void raiseSoon(QDockWidget* dock) {
    dock->raise();
    QTimer::singleShot(0, dock, [dock] { dock->raise(); });
}

// Tool tip and status tip from texts.json's "actions".
void describe(QAction* action, const char* key, bool statusTip = true) {
    const QString text = teachingText("actions", key);
    action->setToolTip(text);
    if (statusTip)
        action->setStatusTip(text);
}

const QString kTourStep = QStringLiteral("tour-step");
const QString kPresentation = QStringLiteral("presentation");

} // namespace

TeachingMode& TeachingMode::install(MainWindow& w) {
    if (TeachingMode* installed = of(w))
        return *installed;
    return *new TeachingMode(w);
}

TeachingMode* TeachingMode::of(const MainWindow& w) {
    return w.findChild<TeachingMode*>(QStringLiteral("teachingMode"), Qt::FindDirectChildrenOnly);
}

TeachingMode::TeachingMode(MainWindow& w) : QObject(&w), m_window(w) {
    setObjectName(QStringLiteral("teachingMode"));
    nameTourTargets();
    m_tour = new Tour(w.document(), this);
    m_tour->setUnit(w.settings()->memoryUnit());
    connect(w.settings(), &Settings::memoryUnitChanged, m_tour, &Tour::setUnit);
    if (!m_tour->load())
        for (const QString& e : m_tour->errors())
            std::fprintf(stderr, "layout-planner: tour: %s\n", qPrintable(e));
    m_outline = new WidgetOutline(&w);
    m_presentation = new PresentationMode(&w, this);
    createTourDock();
    connectTour();
    connectPresentation();
    addLearnMenuEntries();
    addPresentationAction();
    addToolBarButtons();
    addTourKeys();
    offerTourOnFirstRun();
    m_window.installEventFilter(this);
}

// A strip above the tabs on the first launch, once: remembered as shown whichever way the user answers.
void TeachingMode::offerTourOnFirstRun() {
    Settings* settings = m_window.settings();
    if (!m_window.options().firstRunHint || settings->tourHintShown())
        return;
    settings->setTourHintShown();
    InlineBanner* hint = m_window.hintBanner();
    hint->showMessage(InlineBanner::Kind::Info, teachingText("first_run", "title"),
                      teachingText("first_run", "details"));
    hint->addAction(QStringLiteral("tour"), teachingText("first_run", "take_tour"));
    hint->addAction(QStringLiteral("dismiss"), teachingText("first_run", "dismiss"));
    connect(hint, &InlineBanner::actionTriggered, this, [this](const QString& id) {
        if (id == QLatin1String("tour"))
            startTour(-1);
    });
    // Taken another way (F2, the Learn menu, the toolbar), the tour answers the offer: it goes, and leaves
    // the charts its height.
    const QString offer = hint->title();
    connect(m_tour, &Tour::starting, hint, [hint, offer] {
        if (hint->title() == offer)
            hint->hide();
    });
}

// Closing the window during the tour ends it first: "Save changes?" is then about the user's scenario.
bool TeachingMode::eventFilter(QObject* watched, QEvent* event) {
    if (watched == &m_window && event->type() == QEvent::Close)
        m_tour->stop();
    return QObject::eventFilter(watched, event);
}

// The tour points at widgets by objectName; these have none of their own.
void TeachingMode::nameTourTargets() {
    PlanView* plan = m_window.planView();
    name(plan->memoryChart(), "memoryChart");
    name(plan->timeChart(), "timeChart");
    name(plan->keyFigures(), "keyFigures");
    ScenarioPanel* panel = m_window.scenarioPanel();
    name(panel->layoutSliders(), "layoutSliders");
    name(panel->trainingEditor(), "trainingEditor");
    name(panel->modelEditor(), "modelEditor");
    name(panel->clusterEditor(), "clusterEditor");
}

void TeachingMode::createTourDock() {
    m_panel = new TourPanel(m_tour, m_window.document());
    m_dock = new QDockWidget(tr("Guided Tour"), &m_window);
    m_dock->setObjectName(QStringLiteral("tourDock"));
    m_dock->setWidget(m_panel);
    m_dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetClosable);
    m_window.addDockWidget(Qt::BottomDockWidgetArea, m_dock);
    m_dock->hide();
    connect(m_dock, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        if (!visible && m_dock->isHidden())
            m_tour->stop(); // closed with its title-bar button
    });
    connect(m_dock, &QDockWidget::dockLocationChanged, m_panel, [this](Qt::DockWidgetArea area) {
        m_panel->setVertical(area == Qt::LeftDockWidgetArea || area == Qt::RightDockWidgetArea);
    });
    connect(m_panel, &TourPanel::glossaryRequested, this, &TeachingMode::showGlossary);
}

// The tour drives the window: outline, explanation, panel, status bar.
void TeachingMode::connectTour() {
    connect(m_tour, &Tour::highlightRequested, m_outline, [this](const QString& target) {
        if (!m_outline->highlight(target))
            std::fprintf(stderr, "layout-planner: tour: no widget named \"%s\" to highlight\n",
                         qPrintable(target));
    });
    connect(m_tour, &Tour::explainRequested, &m_window,
            [this](const QString& key) { m_window.explanationPanel()->showKey(key); });
    connect(m_tour, &Tour::activeChanged, m_dock, [this](bool active) {
        if (!active)
            m_dock->hide();
    });
    if (Autosave* autosave = m_window.autosave()) {
        connect(m_tour, &Tour::starting, autosave, [autosave] { autosave->setTourRunning(true); });
        connect(m_tour, &Tour::activeChanged, autosave, [autosave](bool active) {
            if (!active)
                autosave->setTourRunning(false);
        });
    }
    connect(m_tour, &Tour::problem, &m_window,
            [this](const QString& message) { m_window.statusBar()->showMessage(message, 8000); });
    connect(m_tour, &Tour::finished, &m_window,
            [this] { m_window.statusBar()->showMessage(teachingText("tour_panel", "finished"), 8000); });
}

void TeachingMode::connectPresentation() {
    new PresentationPanelFit(m_window, *m_presentation, this);
    connect(m_presentation, &PresentationMode::activeChanged, this, &TeachingMode::moveTourDock);
    connect(m_window.document(), &ScenarioDocument::planChanged, m_presentation, [this] {
        if (m_presentation->isActive())
            m_presentation->refreshCharts();
    });
}

// On a projector the charts need the height: the tour moves to the right-hand column, as a tab beside
// the explanation, and back to the bottom afterwards.
void TeachingMode::moveTourDock(bool presenting) {
    const Qt::DockWidgetArea area = m_window.dockWidgetArea(m_dock);
    if (presenting && area == Qt::BottomDockWidgetArea) {
        QDockWidget* explanation = m_window.explanationDock();
        if (!explanation->isHidden() && m_window.dockWidgetArea(explanation) == Qt::RightDockWidgetArea)
            m_window.tabifyDockWidget(explanation, m_dock);
        else
            m_window.addDockWidget(Qt::RightDockWidgetArea, m_dock, Qt::Vertical);
        raiseSoon(m_dock);
    } else if (!presenting && area == Qt::RightDockWidgetArea) {
        m_window.addDockWidget(Qt::BottomDockWidgetArea, m_dock);
    }
}

void TeachingMode::addLearnMenuEntries() {
    QMenu* learn = m_window.menus()->learnMenu();
    learn->addSeparator();
    m_tourAction = learn->addAction(tr("Guided &Tour"));
    m_tourAction->setObjectName(QStringLiteral("actionTour"));
    describe(m_tourAction, "tour");
    m_tourAction->setShortcut(QKeySequence(Qt::Key_F2));
    connect(m_tourAction, &QAction::triggered, this, [this] { startTour(-1); });
    m_restartTourAction = learn->addAction(tr("&Restart the Tour"));
    m_restartTourAction->setObjectName(QStringLiteral("actionRestartTour"));
    describe(m_restartTourAction, "restart_tour", false);
    connect(m_restartTourAction, &QAction::triggered, this, [this] { startTour(0); });
    m_quizAction = learn->addAction(tr("&Check Yourself…"));
    m_quizAction->setObjectName(QStringLiteral("actionQuiz"));
    describe(m_quizAction, "quiz");
    connect(m_quizAction, &QAction::triggered, this, &TeachingMode::showQuiz);
    m_glossaryAction = learn->addAction(tr("&Glossary…"));
    m_glossaryAction->setObjectName(QStringLiteral("actionGlossary"));
    describe(m_glossaryAction, "glossary");
    connect(m_glossaryAction, &QAction::triggered, this, [this] { showGlossary(); });
    learn->addSeparator();
}

void TeachingMode::addPresentationAction() {
    m_presentationAction = m_window.menus()->learnMenu()->addAction(tr("&Presentation Mode"));
    m_presentationAction->setObjectName(QStringLiteral("actionPresentation"));
    describe(m_presentationAction, "presentation");
    m_presentationAction->setCheckable(true);
    m_presentationAction->setShortcut(QKeySequence(Qt::Key_F5));
    connect(m_presentationAction, &QAction::toggled, m_presentation, &PresentationMode::setActive);
    connect(m_presentationAction, &QAction::triggered, &m_window, [this](bool on) {
        m_window.statusBar()->showMessage(teachingText("presentation", on ? "entered" : "left"), 4000);
    });
    connect(m_presentation, &PresentationMode::activeChanged, m_presentationAction, &QAction::setChecked);
}

void TeachingMode::addToolBarButtons() {
    QToolBar* bar = m_window.menus()->toolBar();
    bar->addSeparator();
    QAction* tourButton = bar->addAction(tr("Tour"));
    tourButton->setToolTip(teachingText("actions", "tour"));
    connect(tourButton, &QAction::triggered, m_tourAction, &QAction::trigger);
    bar->addAction(m_presentationAction);
}

// Keys while the tour runs: a presenter's clicker sends Page Down / Page Up.
QShortcut* TeachingMode::addTourKey(const QKeySequence& key, void (Tour::*step)()) {
    auto* shortcut = new QShortcut(key, &m_window);
    shortcut->setContext(Qt::WindowShortcut);
    shortcut->setEnabled(false);
    connect(shortcut, &QShortcut::activated, m_tour, step);
    connect(m_tour, &Tour::activeChanged, shortcut, &QShortcut::setEnabled);
    return shortcut;
}

void TeachingMode::addTourKeys() {
    addTourKey(QKeySequence(Qt::Key_Right), &Tour::next)->setObjectName(QStringLiteral("tourKeyNext"));
    addTourKey(QKeySequence(Qt::Key_PageDown), &Tour::next);
    addTourKey(QKeySequence(Qt::Key_Left), &Tour::back)->setObjectName(QStringLiteral("tourKeyBack"));
    addTourKey(QKeySequence(Qt::Key_PageUp), &Tour::back);
    addTourKey(QKeySequence(Qt::Key_Home), &Tour::restart);
    // Escape ends the tour first, then presentation mode.
    auto* escape = new QShortcut(QKeySequence(Qt::Key_Escape), &m_window);
    escape->setObjectName(QStringLiteral("teachingEscape"));
    escape->setContext(Qt::WindowShortcut);
    escape->setEnabled(false);
    const auto updateEscape = [this, escape] {
        escape->setEnabled(m_tour->isActive() || m_presentation->isActive());
    };
    connect(m_tour, &Tour::activeChanged, escape, updateEscape);
    connect(m_presentation, &PresentationMode::activeChanged, escape, updateEscape);
    connect(escape, &QShortcut::activated, this, [this] {
        if (m_tour->isActive())
            m_tour->stop();
        else
            m_presentation->setActive(false);
    });
}

GlossaryDialog* TeachingMode::glossary() {
    if (!m_glossary) {
        m_glossary = new GlossaryDialog(m_window.document(), &m_window);
        m_glossary->setUnit(m_window.settings()->memoryUnit());
        connect(m_window.settings(), &Settings::memoryUnitChanged, m_glossary, &GlossaryDialog::setUnit);
    }
    return m_glossary;
}

QuizDialog* TeachingMode::quiz() {
    if (!m_quiz)
        m_quiz = new QuizDialog(m_window.document(), 0, &m_window);
    return m_quiz;
}

// With a term (a link in the tour's text) the glossary opens on it; without, on its search field.
void TeachingMode::showGlossary(const QString& termId) {
    GlossaryDialog* g = glossary();
    if (!termId.isEmpty())
        g->showTerm(termId);
    g->show();
    g->raise();
    g->activateWindow();
    if (termId.isEmpty())
        g->searchField()->setFocus();
}

void TeachingMode::showQuiz() {
    QuizDialog* q = quiz();
    if (!q->isVisible())
        q->newQuiz(); // about the scenario on screen now
    q->show();
    q->raise();
    q->activateWindow();
}

void TeachingMode::startTour(int step) {
    const bool resuming = step < 0 && m_tour->savedStep() > 0;
    const bool wasHidden = m_dock->isHidden();
    m_dock->show();
    raiseSoon(m_dock);
    if (wasHidden && m_window.dockWidgetArea(m_dock) == Qt::BottomDockWidgetArea)
        // Under the plan, the tour takes the height its text needs (five lines, its claims and buttons), not
        // its preferred size: on a laptop's 720 pixels that left the charts a third of the window.
        QTimer::singleShot(0, m_dock, [this] {
            m_window.resizeDocks({m_dock}, {m_dock->minimumSizeHint().height()}, Qt::Vertical);
        });
    m_tour->start(step);
    m_panel->setResumed(resuming);
}

void TeachingMode::addCommandLineOptions(QCommandLineParser& parser) {
    parser.addOption(QCommandLineOption(
        kTourStep,
        QObject::tr("Start the guided tour at step N (1-based); with --screenshot, render that step."),
        QStringLiteral("N")));
    parser.addOption(QCommandLineOption(
        kPresentation, QObject::tr("Start in presentation mode (large fonts, thick lines, high contrast).")));
}

bool TeachingMode::applyCommandLine(const QCommandLineParser& parser) {
    const bool screenshot = parser.optionNames().contains(QStringLiteral("screenshot"));
    if (parser.isSet(kTourStep)) {
        bool ok = false;
        const int step = parser.value(kTourStep).toInt(&ok);
        if (!ok || step < 1 || step > m_tour->count()) {
            std::fprintf(stderr,
                         "layout-planner: --tour-step must be a step of the tour, 1 to %d; got \"%s\"\n",
                         m_tour->count(), qPrintable(parser.value(kTourStep)));
            return false;
        }
        if (screenshot) {
            m_tour->setPersistent(false);
            m_outline->setAnimated(false);
        }
        startTour(step - 1);
        // A rendering leaves nothing to save: closing after the grab must not ask about the step's edit.
        if (screenshot) {
            m_tour->keepScenarioOnEnd();
            m_window.document()->undoStack()->setClean();
        }
    }
    if (parser.isSet(kPresentation)) {
        if (screenshot) {
            PresentationOptions o = m_presentation->options();
            o.fullScreen = false; // the screenshot keeps the size it was asked for
            m_presentation->setOptions(o);
        }
        m_presentation->setActive(true);
    }
    return true;
}

} // namespace lp::ui
