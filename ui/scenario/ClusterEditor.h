#pragma once
// The cluster part of the scenario panel: GPU type, nodes and GPUs per node always visible; the
// cluster preset, NVLink domain, bandwidths and GPU figures in a folding section.
#include <QWidget>

#include <vector>

class QComboBox;
class QFormLayout;

namespace lp::core {
struct ClusterSpec;
}

namespace lp::ui {

class CollapsibleSection;
class FormBinder;
class ScenarioDocument;

class ClusterEditor : public QWidget {
    Q_OBJECT
public:
    explicit ClusterEditor(ScenarioDocument* doc, QWidget* parent = nullptr);
    QComboBox* gpuCombo() const { return m_gpu; }
    QComboBox* clusterCombo() const { return m_cluster; }

private:
    void addGpuChoice(QFormLayout* form);
    void addSystemChoice(QFormLayout* form);
    void refresh();
    // The network's controls greyed on a single node (and the cards without a stated fabric).
    void showNetworkState(const core::ClusterSpec& c);
    ScenarioDocument* m_doc;
    QComboBox* m_gpu;
    QComboBox* m_cluster;
    CollapsibleSection* m_section;
    FormBinder* m_main;
    FormBinder* m_more;
    std::vector<QWidget*> m_networkControls; // fabric, cards, card speed
};

} // namespace lp::ui
