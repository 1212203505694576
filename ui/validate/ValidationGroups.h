#pragma once
// The Validate tab's "By GPU, style and precision" section: the throughput figures of the loaded runs grouped
// by what the planner's parameters depend on, each group with its median error and its median planned speed
// against the measured one (+: the planner expected those runs to go faster than they did). A user planning
// an H100 FSDP run reads how far, and which way, the planner was off on the published runs most like it.
#include "core/measured/ValidationRun.h"
#include "ui/widgets/CollapsibleSection.h"

#include <vector>

class QTableWidget;

namespace lp::ui {

class ValidationGroups : public CollapsibleSection {
    Q_OBJECT
public:
    explicit ValidationGroups(QWidget* parent = nullptr);

    // Shown only when the runs fall into more than one group.
    void setGroups(const std::vector<core::GroupSummary>& groups);
    QTableWidget* table() const { return m_table; }

private:
    QTableWidget* m_table;
};

} // namespace lp::ui
