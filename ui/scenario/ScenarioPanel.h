#pragma once
// The scenario on the left of the window, shared by every tab: its name and notes, model, cluster, training
// options and the layout controls, in a scroll area.
#include <QScrollArea>

namespace lp::ui {

class ClusterEditor;
class LayoutSliders;
class ModelEditor;
class ScenarioDocument;
class ScenarioNameEditor;
class TrainingEditor;

class ScenarioPanel : public QScrollArea {
    Q_OBJECT
public:
    explicit ScenarioPanel(ScenarioDocument* doc, QWidget* parent = nullptr);

    ScenarioNameEditor* nameEditor() const { return m_name; }
    ModelEditor* modelEditor() const { return m_model; }
    ClusterEditor* clusterEditor() const { return m_cluster; }
    TrainingEditor* trainingEditor() const { return m_training; }
    LayoutSliders* layoutSliders() const { return m_layout; }

    QSize sizeHint() const override;
    // Never narrower than its widest row: the window shrinks the tabs (which scroll) before it clips a field.
    QSize minimumSizeHint() const override;

protected:
    // A section that opens (More training options) can widen the widest row: the panel then asks its dock
    // for the new minimum, rather than clipping the fields' right edges (its horizontal scroll bar is off).
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    ScenarioNameEditor* m_name;
    ModelEditor* m_model;
    ClusterEditor* m_cluster;
    TrainingEditor* m_training;
    LayoutSliders* m_layout;
};

} // namespace lp::ui
