#pragma once
// The Compare tab's figures: one column per pinned layout (A-D), one row per figure (layout, memory,
// time, MFU, throughput, cost, diagnostics). Highlights what differs: the best value of a row bold
// and green, the worst red-ish, and cells that differ from the first pinned layout tinted.
// Every number is the pinned core::Plan's; the model only compares them.
#include "core/estimate/Plan.h"
#include "core/model/Scenario.h"
#include "ui/widgets/Format.h"

#include <QAbstractTableModel>

#include <vector>

namespace lp::ui {

struct PinnedLayout {
    core::Scenario scenario;
    core::Plan plan;
    QString source; // "Planner", "Explore #3"
};

class CompareModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Metric {
        Parallelism,
        VirtualStages,
        Batch,
        Training,
        Gpus,
        WorstMemory,
        Headroom,
        StepTime,
        Mfu,
        Hfu,
        TokensPerSecond,
        TokensPerSecondPerGpu,
        Bubble,
        ExposedDp,
        TrainingTime,
        GpuHours,
        Diagnostics,
        MetricCount
    };
    // What a cell is, compared with the other pinned layouts (Qt::UserRole + 1).
    enum class Mark { None, Best, Worst };
    enum Role {
        MarkRole = Qt::UserRole + 1, // int: Mark
        DiffersRole,                 // bool: differs from the first pinned layout
        ValueRole,                   // double: the compared number (rows that have one)
    };

    explicit CompareModel(QObject* parent = nullptr);

    void setPinned(const std::vector<PinnedLayout>& pinned);
    void setUnit(MemoryUnit unit);
    MemoryUnit unit() const { return m_unit; }

    static QString letter(int column); // "A" ... "D"
    static QString metricName(int metric);

    Mark mark(int metric, int column) const;
    bool differsFromFirst(int metric, int column) const;
    QString text(int metric, int column) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    // +1: higher is better, -1: lower is better, 0: not ranked.
    static int direction(int metric);
    bool hasValue(int metric) const;
    double value(int metric, int column) const;
    QString toolTip(int metric, int column) const;
    std::vector<PinnedLayout> m_pinned;
    MemoryUnit m_unit = MemoryUnit::GiB;
};

} // namespace lp::ui
