#pragma once
// "Number formats", folded under the memory chart: which tensors the run keeps in which number
// format (core::precisionTable), one row per tensor with the reason as its tooltip, and with FP8 the
// two figures it adds to the weights bar (core::fp8Figures: cached fp8 weight copies, scaling state).
#include "core/estimate/KeyFigures.h"
#include "core/estimate/Plan.h"
#include "core/estimate/Precision.h"
#include "core/model/Scenario.h"
#include "ui/widgets/CollapsibleSection.h"
#include "ui/widgets/Format.h"

#include <vector>

class QTableWidget;

namespace lp::ui {

class FigureLabel;

class PrecisionSection : public CollapsibleSection {
    Q_OBJECT
public:
    explicit PrecisionSection(QWidget* parent = nullptr);

    // `scenario` decides the table (it does not depend on the layout); `plan` the fp8 figures, which
    // are marked as the last valid layout's while `stale`.
    void setPlan(const core::Scenario& scenario, const core::Plan& plan, bool stale);
    void setUnit(MemoryUnit unit);
    void setActiveKey(const QString& key);

    QTableWidget* table() const { return m_table; }
    FigureLabel* fp8WeightCopies() const { return m_copies; }
    FigureLabel* fp8ScalingState() const { return m_scaling; }
    bool fp8FiguresShown() const { return m_fp8Active; }
    // For tests and the summary: the rows as shown.
    const std::vector<core::TensorPrecision>& rows() const { return m_rows; }
    int rowOf(const QString& tensorPrefix) const; // -1 when no row starts with it

signals:
    void explainRequested(const QString& key);
    void previewRequested(const QString& key); // pointed at; empty: the pointer left

private:
    void fillTable();
    void refreshFigures();
    void fitTableHeight();
    std::vector<core::TensorPrecision> m_rows;
    core::Scenario m_scenario;
    core::Plan m_plan;
    bool m_stale = false;
    bool m_fp8Active = false;
    MemoryUnit m_unit = MemoryUnit::GiB;
    QWidget* m_fp8Row;
    FigureLabel* m_copies;
    FigureLabel* m_scaling;
    QTableWidget* m_table;
};

} // namespace lp::ui
