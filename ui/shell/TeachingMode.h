#pragma once
// Teaching mode in the planner window: the Learn menu's Guided Tour, Check Yourself, Glossary and
// Presentation Mode (with Tour and Present buttons on the tool bar); the tour's panel (a dock at the
// bottom) and the outline over the widget each step talks about; keyboard control (Right/Left, Page
// Down/Up, Home, Escape; F5 for presentation mode); and the command line's --tour-step N and
// --presentation (with --screenshot FILE they render to a PNG).
#include <QObject>
#include <QPointer>

class QAction;
class QCommandLineParser;
class QDockWidget;
class QKeySequence;
class QShortcut;

namespace lp::ui {

class GlossaryDialog;
class MainWindow;
class PresentationMode;
class QuizDialog;
class Tour;
class TourPanel;
class WidgetOutline;

class TeachingMode : public QObject {
    Q_OBJECT
public:
    // Adds teaching mode to `w` (after the window is built); a second call returns the first.
    static TeachingMode& install(MainWindow& w);
    // Teaching mode of `w`, or nullptr before install().
    static TeachingMode* of(const MainWindow& w);

    // --tour-step N (1-based) and --presentation.
    static void addCommandLineOptions(QCommandLineParser& parser);
    // Applies them once the window's scenario is open (before it is shown or grabbed). With --screenshot
    // set: nothing is remembered in the settings, no full screen, a steady outline. Returns false (and
    // prints why) when N is not a step of the tour.
    bool applyCommandLine(const QCommandLineParser& parser);

    Tour* tour() const { return m_tour; }
    TourPanel* panel() const { return m_panel; }
    QDockWidget* dock() const { return m_dock; }
    WidgetOutline* outline() const { return m_outline; }
    PresentationMode* presentation() const { return m_presentation; }
    QAction* tourAction() const { return m_tourAction; }
    QAction* restartTourAction() const { return m_restartTourAction; }
    QAction* quizAction() const { return m_quizAction; }
    QAction* glossaryAction() const { return m_glossaryAction; }
    QAction* presentationAction() const { return m_presentationAction; }

    // Created when first asked for.
    GlossaryDialog* glossary();
    QuizDialog* quiz();

    // Starts the tour at `step` (0-based; -1 resumes) and shows its panel.
    void startTour(int step = -1);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    explicit TeachingMode(MainWindow& w);
    void nameTourTargets();
    void createTourDock();
    void connectTour();
    void connectPresentation();
    void moveTourDock(bool presenting);
    void addLearnMenuEntries();
    void addPresentationAction();
    void addToolBarButtons();
    void addTourKeys();
    void offerTourOnFirstRun();
    QShortcut* addTourKey(const QKeySequence& key, void (Tour::*step)());
    void showGlossary(const QString& termId = {});
    void showQuiz();

    MainWindow& m_window;
    Tour* m_tour = nullptr;
    TourPanel* m_panel = nullptr;
    QDockWidget* m_dock = nullptr;
    WidgetOutline* m_outline = nullptr;
    PresentationMode* m_presentation = nullptr;
    QAction* m_tourAction = nullptr;
    QAction* m_restartTourAction = nullptr;
    QAction* m_quizAction = nullptr;
    QAction* m_glossaryAction = nullptr;
    QAction* m_presentationAction = nullptr;
    QPointer<GlossaryDialog> m_glossary;
    QPointer<QuizDialog> m_quiz;
};

} // namespace lp::ui
