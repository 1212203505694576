#pragma once
// The training-options part of the scenario panel: precision, ZeRO, recompute and the token budget, and
// the other options folded under them, each a row of a table of fields.
#include <QWidget>

class QCheckBox;
class QFormLayout;

namespace lp::core {
struct Scenario;
}

namespace lp::ui {

class CollapsibleSection;
class FormBinder;
class ScenarioDocument;

class TrainingEditor : public QWidget {
    Q_OBJECT
public:
    explicit TrainingEditor(ScenarioDocument* doc, QWidget* parent = nullptr);
    CollapsibleSection* moreSection() const { return m_section; }
    // The communication-overlap switches (TrainingOptions::overlapTpComm, overlapPpComm, overlapDpComm,
    // overlapEpComm).
    QCheckBox* overlapTpBox() const { return option("overlapTpComm"); }
    QCheckBox* overlapPpBox() const { return option("overlapPpComm"); }
    QCheckBox* overlapDpBox() const { return option("overlapDpComm"); }
    QCheckBox* overlapEpBox() const { return option("overlapEpComm"); }

private:
    QWidget* moreOptions();                    // the folded options' form
    void addMemoryFields(QFormLayout* form);   // the optimizer, sharding and recompute rows
    QCheckBox* option(const char* name) const; // a switch, by its object name
    // The boxes that apply to some layouts only: the schedule with PP > 1, the ZeRO-3 gathers with stage 3.
    void followLayout(ScenarioDocument* doc);
    // Enables the box `name` while `applies` holds for the scenario; otherwise its tip starts with `why`.
    void enableWhen(ScenarioDocument* doc, const char* name, const char* tip, const char* why,
                    bool (*applies)(const core::Scenario&));
    CollapsibleSection* m_section;
    FormBinder* m_main;
    FormBinder* m_more;
};

} // namespace lp::ui
