#pragma once
// The tour's text panel: the step counter and title, the step's text (its figures filled in from the
// current Plan, glossary terms as links), the claims the planner checked, and Back / Next / End.
#include <QWidget>

class QBoxLayout;
class QLabel;
class QPushButton;
class QTextBrowser;

namespace lp::ui {

class ScenarioDocument;
class Tour;

class TourPanel : public QWidget {
    Q_OBJECT
public:
    TourPanel(Tour* tour, ScenarioDocument* doc, QWidget* parent = nullptr);

    QLabel* counterLabel() const { return m_counter; }
    QLabel* titleLabel() const { return m_title; }
    QTextBrowser* textView() const { return m_text; }
    QLabel* checksLabel() const { return m_checks; }
    QPushButton* backButton() const { return m_back; }
    QPushButton* nextButton() const { return m_next; }
    QPushButton* endButton() const { return m_end; }
    // Shown once after resuming in the middle of the tour.
    void setResumed(bool resumed);
    // Text above the claims and buttons (a dock at the side) or beside them (a strip at the bottom).
    void setVertical(bool vertical);
    bool isVertical() const;

signals:
    void glossaryRequested(const QString& termId);

protected:
    void changeEvent(QEvent* event) override;

private:
    void setUpWidgets();
    void layOut();
    void fitToFont();
    void refresh();
    void refreshFigures(); // the plan changed under the same step (e.g. the user moved a slider)
    Tour* m_tour;
    ScenarioDocument* m_doc;
    QLabel* m_counter;
    QLabel* m_title;
    QLabel* m_resumed;
    QTextBrowser* m_text;
    QLabel* m_checks;
    QPushButton* m_back;
    QPushButton* m_next;
    QPushButton* m_end;
    QBoxLayout* m_layout = nullptr;
};

} // namespace lp::ui
