#pragma once
// The key figures beside the MFU gauge: HFU, the 6ND yardstick, model TFLOP/s per GPU, step time,
// tokens/s, effective batch with its formula, training state, and time and GPU-hours for the
// token budget. Each one explains itself on hover, click or focus.
#include "core/estimate/Plan.h"
#include "core/measured/TrustBand.h"
#include "core/model/Scenario.h"
#include "ui/widgets/Format.h"

#include <QWidget>

#include <optional>
#include <vector>

namespace lp::ui {

class FigureLabel;

class KeyFigures : public QWidget {
    Q_OBJECT
public:
    explicit KeyFigures(QWidget* parent = nullptr);

    void setPlan(const core::Scenario& s, const core::Plan& plan);
    // A new document (New, Open, a restore): the plan before it is not an earlier version of this one.
    void forgetPrevious();
    void setUnit(MemoryUnit unit);
    // The band of measured runs like the plan on the step-time and throughput cards; nullopt: none yet.
    void setTrustBand(const std::optional<core::TrustBand>& band);
    void setActiveKey(const QString& key);

    FigureLabel* figure(const QString& id) const;
    int columns() const { return m_columns; }
    // The columns that show every value whole in `width`, and the width `columns` of them need.
    int columnsFor(int width) const;
    int preferredWidth(int columns) const;
    QSize minimumSizeHint() const override;
    const std::vector<FigureLabel*>& figures() const { return m_figures; }

signals:
    void explainRequested(const QString& key);
    void previewRequested(const QString& key); // pointed at; empty: the pointer left

protected:
    // Three columns where the tiles have room for their values, two or one in a narrow window (or
    // with presentation mode's large fonts), so a value is never cut off.
    void resizeEvent(QResizeEvent* event) override;

private:
    void arrange(int columns);
    void refresh();
    int m_columns = 0;
    core::Scenario m_scenario;
    core::Plan m_plan;
    core::Plan m_previousPlan; // the plan shown before the last one: the batch card says what changed
    bool m_hasPlan = false;
    bool m_hasPrevious = false;
    MemoryUnit m_unit = MemoryUnit::GiB;
    std::optional<core::TrustBand> m_trust;
    std::vector<FigureLabel*> m_figures;
};

} // namespace lp::ui
