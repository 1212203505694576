#pragma once
// The scenario's name and notes at the top of the scenario panel. An empty name field shows the
// automatic name (after the model, GPU and GPU count) greyed; what the user types is kept as theirs.
#include <QWidget>

class QLineEdit;
class QToolButton;

namespace lp::ui {

class ScenarioDocument;

class ScenarioNameEditor : public QWidget {
    Q_OBJECT
public:
    explicit ScenarioNameEditor(ScenarioDocument* doc, QWidget* parent = nullptr);
    QLineEdit* nameEdit() const { return m_name; }
    QToolButton* notesButton() const { return m_notes; }
    // Opens the notes dialog; OK makes an undoable edit.
    void editNotes();

private:
    void commitName();
    void refresh();
    ScenarioDocument* m_doc;
    QLineEdit* m_name;
    QToolButton* m_notes;
};

} // namespace lp::ui
