#pragma once
// The model part of the scenario panel: a preset list, a one-line summary, and a folding editor
// for every architecture field (dense and mixture-of-experts).
#include <QWidget>

class QComboBox;
class QLabel;
class QVBoxLayout;

namespace lp::ui {

class CollapsibleSection;
class FormBinder;
class ScenarioDocument;

class ModelEditor : public QWidget {
    Q_OBJECT
public:
    explicit ModelEditor(ScenarioDocument* doc, QWidget* parent = nullptr);
    QComboBox* presetCombo() const { return m_preset; }
    CollapsibleSection* architectureSection() const { return m_section; }

private:
    void addPresetChoice(QVBoxLayout* layout);
    void refresh();
    void fillPresetList();
    void refreshSummary();
    ScenarioDocument* m_doc;
    QComboBox* m_preset;
    QLabel* m_summary;
    CollapsibleSection* m_section;
    FormBinder* m_binder;
};

} // namespace lp::ui
