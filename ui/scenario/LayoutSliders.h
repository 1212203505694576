#pragma once
// The layout controls: TP, PP, DP, CP, EP, virtual stages, micro batch and accumulation, each a
// slider with a spin box over its valid values; the experts' TP (a choice among the values that fit);
// the "keep GPU count" and "hold the global batch" switches, and the summary line (GPUs used, effective
// batch).
#include "core/search/LayoutSteps.h"

#include <QString>
#include <QWidget>

#include <array>

class QCheckBox;
class QComboBox;
class QLabel;

namespace lp::ui {

class ScenarioDocument;
class StepControl;

class LayoutSliders : public QWidget {
    Q_OBJECT
public:
    explicit LayoutSliders(ScenarioDocument* doc, QWidget* parent = nullptr);

    StepControl* control(core::LayoutAxis axis) const { return m_controls[static_cast<std::size_t>(axis)]; }
    QCheckBox* keepGpuCountBox() const { return m_keep; }
    QCheckBox* holdGlobalBatchBox() const { return m_holdBatch; }
    QComboBox* expertTpBox() const { return m_etp; }

signals:
    void keepGpuCountToggled(bool keep);
    void holdGlobalBatchToggled(bool hold);

private:
    void refresh();
    void showApplies(core::LayoutAxis axis, const QString& whyNot);
    void refreshExpertTp(const core::Scenario& s, const QString& dense);
    ScenarioDocument* m_doc;
    std::array<StepControl*, core::kLayoutAxisCount> m_controls{};
    std::array<QLabel*, core::kLayoutAxisCount> m_labels{};
    QCheckBox* m_keep;
    QCheckBox* m_holdBatch;
    QLabel* m_summary;
    QComboBox* m_etp;
    QLabel* m_etpLabel = nullptr;
    QString m_etpTip;
};

} // namespace lp::ui
