#pragma once
// Puts teaching mode into the main window: the Learn menu's Guided Tour, Check Yourself, Glossary and
// Presentation Mode; the tour's panel (a dock at the bottom) and the outline over the widget each step
// talks about; keyboard control (Right/Left, Page Down/Up, Home, Escape; F5 for presentation mode).
// Also the command line: --tour-step N and --presentation (with --screenshot FILE they render to a PNG).
#include <QObject>
#include <QPointer>

class QAction;
class QCommandLineParser;
class QDockWidget;

namespace lp::ui {

class GlossaryDialog;
class Highlighter;
class MainWindow;
class PresentationMode;
class QuizDialog;
class ScenarioDocument;
class Tour;
class TourPanel;

// What installTeaching built, a child of the window named "teaching" (find it with teachingOf()).
class Teaching : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;
    Tour* tour = nullptr;
    TourPanel* panel = nullptr;
    QDockWidget* dock = nullptr;
    Highlighter* highlighter = nullptr;
    PresentationMode* presentation = nullptr;
    QAction* tourAction = nullptr;
    QAction* restartTourAction = nullptr;
    QAction* quizAction = nullptr;
    QAction* glossaryAction = nullptr;
    QAction* presentationAction = nullptr;

    // Created when first asked for.
    GlossaryDialog* glossary();
    QuizDialog* quiz();

    // Starts the tour at `step` (0-based; -1 resumes) and shows its panel.
    void startTour(int step = -1);

private:
    friend void installTeaching(MainWindow&, ScenarioDocument&);
    MainWindow* m_window = nullptr;
    ScenarioDocument* m_doc = nullptr;
    QPointer<GlossaryDialog> m_glossary;
    QPointer<QuizDialog> m_quiz;
};

// Call once, after the MainWindow is built: installTeaching(window, *window.document()).
void installTeaching(MainWindow& w, ScenarioDocument& doc);
// The teaching objects of a window, or nullptr before installTeaching.
Teaching* teachingOf(const MainWindow& w);

// --tour-step N (1-based) and --presentation.
void addTeachingOptions(QCommandLineParser& parser);
// Applies them after the window is built and its scenario opened (before it is shown or grabbed).
// With --screenshot set: nothing is remembered in the settings, no full screen, a steady outline.
// Returns false (and prints why) when N is not a step of the tour.
bool applyTeachingOptions(MainWindow& w, ScenarioDocument& doc, const QCommandLineParser& parser);

} // namespace lp::ui
