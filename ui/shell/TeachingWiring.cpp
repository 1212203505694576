#include "ui/shell/TeachingWiring.h"

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
#include "ui/shell/MainWindow.h"
#include "ui/teach/GlossaryDialog.h"
#include "ui/teach/Highlighter.h"
#include "ui/teach/PresentationMode.h"
#include "ui/teach/QuizDialog.h"
#include "ui/teach/TeachingTexts.h"
#include "ui/teach/Tour.h"
#include "ui/teach/TourPanel.h"

#include <QAction>
#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QDockWidget>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QShortcut>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>
#include <QUndoStack>

#include <algorithm>
#include <cstdio>

namespace lp::ui {
namespace {

QString texts(const char* section, const char* key) {
    return TeachingTexts::instance().text(QString::fromLatin1(section), QString::fromLatin1(key));
}

void name(QWidget* w, const char* objectName) {
    if (w && w->objectName().isEmpty())
        w->setObjectName(QString::fromLatin1(objectName));
}

// The tour points at widgets by objectName; these have none of their own.
void nameTargets(MainWindow& w) {
    if (PlanView* plan = w.planView()) {
        name(plan->memoryChart(), "memoryChart");
        name(plan->timeChart(), "timeChart");
        name(plan->keyFigures(), "keyFigures");
    }
    if (ScenarioPanel* panel = w.scenarioPanel()) {
        name(panel->layoutSliders(), "layoutSliders");
        name(panel->trainingEditor(), "trainingEditor");
        name(panel->modelEditor(), "modelEditor");
        name(panel->clusterEditor(), "clusterEditor");
    }
}

// Brings a dock to the front now and once more when the event loop runs: before the window is shown
// (the command line), a tabified dock's tab cannot be selected yet.
void raiseSoon(QDockWidget* dock) {
    dock->raise();
    QTimer::singleShot(0, dock, [dock] { dock->raise(); });
}

const QString kTourStep = QStringLiteral("tour-step");
const QString kPresentation = QStringLiteral("presentation");

} // namespace

GlossaryDialog* Teaching::glossary() {
    if (!m_glossary)
        m_glossary = new GlossaryDialog(m_doc, m_window);
    return m_glossary;
}

QuizDialog* Teaching::quiz() {
    if (!m_quiz)
        m_quiz = new QuizDialog(m_doc, 0, m_window);
    return m_quiz;
}

void Teaching::startTour(int step) {
    const bool resuming = step < 0 && tour->savedStep() > 0;
    dock->show();
    raiseSoon(dock);
    tour->start(step);
    panel->setResumed(resuming);
}

Teaching* teachingOf(const MainWindow& w) {
    return w.findChild<Teaching*>(QStringLiteral("teaching"), Qt::FindDirectChildrenOnly);
}

void installTeaching(MainWindow& w, ScenarioDocument& doc) {
    if (teachingOf(w))
        return;
    auto* t = new Teaching(&w);
    t->setObjectName(QStringLiteral("teaching"));
    t->m_window = &w;
    t->m_doc = &doc;
    nameTargets(w);

    t->tour = new Tour(&doc, t);
    if (!t->tour->load())
        for (const QString& e : t->tour->errors())
            std::fprintf(stderr, "layout-planner: tour: %s\n", qPrintable(e));
    t->highlighter = new Highlighter(&w);
    t->presentation = new PresentationMode(&w, t);

    t->panel = new TourPanel(t->tour, &doc);
    t->dock = new QDockWidget(QObject::tr("Guided Tour"), &w);
    t->dock->setObjectName(QStringLiteral("tourDock"));
    t->dock->setWidget(t->panel);
    t->dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetClosable);
    w.addDockWidget(Qt::BottomDockWidgetArea, t->dock);
    t->dock->hide();

    // The tour drives the window: outline, explanation, panel.
    Tour* tour = t->tour;
    QObject::connect(tour, &Tour::highlightRequested, t->highlighter, [t](const QString& target) {
        if (!t->highlighter->highlight(target))
            std::fprintf(stderr, "layout-planner: tour: no widget named \"%s\" to highlight\n",
                         qPrintable(target));
    });
    QObject::connect(tour, &Tour::explainRequested, &w, [&w](const QString& key) {
        if (w.explanationPanel())
            w.explanationPanel()->showKey(key);
    });
    QObject::connect(tour, &Tour::activeChanged, t->dock, [t](bool active) {
        if (!active)
            t->dock->hide();
    });
    QObject::connect(tour, &Tour::problem, &w,
                     [&w](const QString& message) { w.statusBar()->showMessage(message, 8000); });
    QObject::connect(tour, &Tour::finished, &w,
                     [&w] { w.statusBar()->showMessage(texts("tour_panel", "finished"), 8000); });
    QObject::connect(t->dock, &QDockWidget::visibilityChanged, t, [t](bool visible) {
        if (!visible && t->dock->isHidden())
            t->tour->stop(); // closed with its title-bar button
    });
    QObject::connect(t->panel, &TourPanel::glossaryRequested, t, [t](const QString& id) {
        GlossaryDialog* g = t->glossary();
        g->showTerm(id);
        g->show();
        g->raise();
        g->activateWindow();
    });
    QObject::connect(t->dock, &QDockWidget::dockLocationChanged, t->panel, [t](Qt::DockWidgetArea area) {
        t->panel->setVertical(area == Qt::LeftDockWidgetArea || area == Qt::RightDockWidgetArea);
    });
    // On a projector the charts need the height: the tour moves to the right-hand column, as a tab
    // beside the explanation, and back to the bottom afterwards.
    QObject::connect(t->presentation, &PresentationMode::activeChanged, t, [t, &w](bool active) {
        const Qt::DockWidgetArea area = w.dockWidgetArea(t->dock);
        if (active && area == Qt::BottomDockWidgetArea) {
            auto* explanation = w.findChild<QDockWidget*>(QStringLiteral("explanationDock"));
            if (explanation && !explanation->isHidden() &&
                w.dockWidgetArea(explanation) == Qt::RightDockWidgetArea)
                w.tabifyDockWidget(explanation, t->dock);
            else
                w.addDockWidget(Qt::RightDockWidgetArea, t->dock, Qt::Vertical);
            raiseSoon(t->dock);
        } else if (!active && area == Qt::RightDockWidgetArea) {
            w.addDockWidget(Qt::BottomDockWidgetArea, t->dock);
        }
    });
    QObject::connect(&doc, &ScenarioDocument::planChanged, t->presentation, [t] {
        if (t->presentation->isActive())
            t->presentation->refreshCharts();
    });

    // The Learn menu (and the tool bar's Tour and Present buttons).
    QMenu* learn = w.learnMenu();
    if (!learn)
        learn = w.menuBar()->addMenu(QObject::tr("&Learn"));
    learn->addSeparator();
    t->tourAction = learn->addAction(QObject::tr("Guided &Tour"));
    t->tourAction->setObjectName(QStringLiteral("actionTour"));
    t->tourAction->setToolTip(texts("actions", "tour"));
    t->tourAction->setStatusTip(texts("actions", "tour"));
    t->tourAction->setShortcut(QKeySequence(Qt::Key_F2));
    QObject::connect(t->tourAction, &QAction::triggered, t, [t] { t->startTour(-1); });
    t->restartTourAction = learn->addAction(QObject::tr("&Restart the Tour"));
    t->restartTourAction->setObjectName(QStringLiteral("actionRestartTour"));
    t->restartTourAction->setToolTip(texts("actions", "restart_tour"));
    QObject::connect(t->restartTourAction, &QAction::triggered, t, [t] { t->startTour(0); });
    t->quizAction = learn->addAction(QObject::tr("&Check Yourself…"));
    t->quizAction->setObjectName(QStringLiteral("actionQuiz"));
    t->quizAction->setToolTip(texts("actions", "quiz"));
    t->quizAction->setStatusTip(texts("actions", "quiz"));
    QObject::connect(t->quizAction, &QAction::triggered, t, [t] {
        QuizDialog* q = t->quiz();
        if (!q->isVisible())
            q->newQuiz(); // about the scenario on screen now
        q->show();
        q->raise();
        q->activateWindow();
    });
    t->glossaryAction = learn->addAction(QObject::tr("&Glossary…"));
    t->glossaryAction->setObjectName(QStringLiteral("actionGlossary"));
    t->glossaryAction->setToolTip(texts("actions", "glossary"));
    t->glossaryAction->setStatusTip(texts("actions", "glossary"));
    QObject::connect(t->glossaryAction, &QAction::triggered, t, [t] {
        GlossaryDialog* g = t->glossary();
        g->show();
        g->raise();
        g->activateWindow();
        g->searchField()->setFocus();
    });
    learn->addSeparator();
    t->presentationAction = learn->addAction(QObject::tr("&Presentation Mode"));
    t->presentationAction->setObjectName(QStringLiteral("actionPresentation"));
    t->presentationAction->setToolTip(texts("actions", "presentation"));
    t->presentationAction->setStatusTip(texts("actions", "presentation"));
    t->presentationAction->setCheckable(true);
    t->presentationAction->setShortcut(QKeySequence(Qt::Key_F5));
    QObject::connect(t->presentationAction, &QAction::toggled, t->presentation, &PresentationMode::setActive);
    QObject::connect(t->presentationAction, &QAction::triggered, &w, [&w](bool on) {
        w.statusBar()->showMessage(texts("presentation", on ? "entered" : "left"), 4000);
    });
    QObject::connect(t->presentation, &PresentationMode::activeChanged, t->presentationAction,
                     &QAction::setChecked);
    if (auto* bar = w.findChild<QToolBar*>(QStringLiteral("mainToolBar"))) {
        bar->addSeparator();
        QAction* tourButton = bar->addAction(QObject::tr("Tour"));
        tourButton->setToolTip(texts("actions", "tour"));
        QObject::connect(tourButton, &QAction::triggered, t->tourAction, &QAction::trigger);
        bar->addAction(t->presentationAction);
    }

    // Keys while the tour runs: a presenter's clicker sends Page Down / Page Up.
    const auto tourKey = [&w, t](QKeySequence key, auto slot) {
        auto* s = new QShortcut(key, &w);
        s->setContext(Qt::WindowShortcut);
        s->setEnabled(false);
        QObject::connect(s, &QShortcut::activated, t->tour, slot);
        QObject::connect(t->tour, &Tour::activeChanged, s, &QShortcut::setEnabled);
        return s;
    };
    tourKey(QKeySequence(Qt::Key_Right), &Tour::next)->setObjectName(QStringLiteral("tourKeyNext"));
    tourKey(QKeySequence(Qt::Key_PageDown), &Tour::next);
    tourKey(QKeySequence(Qt::Key_Left), &Tour::back)->setObjectName(QStringLiteral("tourKeyBack"));
    tourKey(QKeySequence(Qt::Key_PageUp), &Tour::back);
    tourKey(QKeySequence(Qt::Key_Home), &Tour::restart);
    // Escape ends the tour first, then presentation mode.
    auto* escape = new QShortcut(QKeySequence(Qt::Key_Escape), &w);
    escape->setObjectName(QStringLiteral("teachingEscape"));
    escape->setContext(Qt::WindowShortcut);
    escape->setEnabled(false);
    const auto updateEscape = [t, escape] {
        escape->setEnabled(t->tour->isActive() || t->presentation->isActive());
    };
    QObject::connect(t->tour, &Tour::activeChanged, escape, updateEscape);
    QObject::connect(t->presentation, &PresentationMode::activeChanged, escape, updateEscape);
    QObject::connect(escape, &QShortcut::activated, t, [t] {
        if (t->tour->isActive())
            t->tour->stop();
        else
            t->presentation->setActive(false);
    });
}

void addTeachingOptions(QCommandLineParser& parser) {
    parser.addOption(QCommandLineOption(
        kTourStep,
        QObject::tr("Start the guided tour at step N (1-based); with --screenshot, render that step."),
        QStringLiteral("N")));
    parser.addOption(QCommandLineOption(
        kPresentation, QObject::tr("Start in presentation mode (large fonts, thick lines, high contrast).")));
}

bool applyTeachingOptions(MainWindow& w, ScenarioDocument& doc, const QCommandLineParser& parser) {
    installTeaching(w, doc);
    Teaching* t = teachingOf(w);
    const bool screenshot = parser.optionNames().contains(QStringLiteral("screenshot"));
    if (parser.isSet(kTourStep)) {
        bool ok = false;
        const int step = parser.value(kTourStep).toInt(&ok);
        if (!ok || step < 1 || step > t->tour->count()) {
            std::fprintf(stderr,
                         "layout-planner: --tour-step must be a step of the tour, 1 to %d; got \"%s\"\n",
                         t->tour->count(), qPrintable(parser.value(kTourStep)));
            return false;
        }
        if (screenshot) {
            t->tour->setPersistent(false);
            t->highlighter->setAnimated(false);
        }
        t->startTour(step - 1);
        // A rendering leaves nothing to save: closing after the grab must not ask about the step's edit.
        if (screenshot)
            doc.undoStack()->setClean();
    }
    if (parser.isSet(kPresentation)) {
        if (screenshot) {
            PresentationOptions o = t->presentation->options();
            o.fullScreen = false; // the screenshot keeps the size it was asked for
            t->presentation->setOptions(o);
        }
        t->presentation->setActive(true);
    }
    return true;
}

} // namespace lp::ui
