#pragma once
// The training-options part of the scenario panel.
#include <QWidget>

class QCheckBox;

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
    QCheckBox* overlapTpBox() const { return m_overlapTp; }
    QCheckBox* overlapPpBox() const { return m_overlapPp; }
    QCheckBox* overlapDpBox() const { return m_overlapDp; }
    QCheckBox* overlapEpBox() const { return m_overlapEp; }

private:
    CollapsibleSection* m_section;
    FormBinder* m_main;
    FormBinder* m_more;
    QCheckBox* m_overlapTp = nullptr;
    QCheckBox* m_overlapPp = nullptr;
    QCheckBox* m_overlapDp = nullptr;
    QCheckBox* m_overlapEp = nullptr;
};

} // namespace lp::ui
