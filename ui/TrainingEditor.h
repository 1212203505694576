#pragma once
// The training-options part of the scenario panel.
#include <QWidget>

namespace lp::ui {

class CollapsibleSection;
class FormBinder;
class ScenarioDocument;

class TrainingEditor : public QWidget {
    Q_OBJECT
public:
    explicit TrainingEditor(ScenarioDocument* doc, QWidget* parent = nullptr);
    CollapsibleSection* moreSection() const { return m_section; }

private:
    CollapsibleSection* m_section;
    FormBinder* m_main;
    FormBinder* m_more;
};

} // namespace lp::ui
