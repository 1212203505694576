#pragma once
// The Compare tab's figures: one column per pinned layout (A-D), one row per figure (layout, memory,
// time, MFU, throughput, cost, diagnostics). Highlights what differs: the best value of a row bold
// and green, the worst red-ish, and cells that differ from the first pinned layout tinted.
// Every number is the pinned core::Plan's; the rows, which way is better and the words are core's
// (core/search/LayoutComparison.h); the model formats and colours them.
#include "core/estimate/Plan.h"
#include "core/model/Scenario.h"
#include "core/search/LayoutComparison.h"
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
    enum Role {
        MarkRole = Qt::UserRole + 1, // int: core::Standing, compared with the other pinned layouts
        DiffersRole,                 // bool: differs from the first pinned layout
        ValueRole,                   // double: the compared number (rows that have one)
    };

    explicit CompareModel(QObject* parent = nullptr);

    void setPinned(const std::vector<PinnedLayout>& pinned);
    void setUnit(MemoryUnit unit);
    MemoryUnit unit() const { return m_unit; }

    static QString letter(int column); // "A" ... "D"
    // One row per core::ComparedFigure, in its order.
    static core::ComparedFigure figureAt(int row);
    static int rowOf(core::ComparedFigure figure);

    core::Standing standing(core::ComparedFigure figure, int column) const;
    bool differsFromFirst(core::ComparedFigure figure, int column) const;
    QString text(core::ComparedFigure figure, int column) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    double value(core::ComparedFigure figure, int column) const;
    QString toolTip(core::ComparedFigure figure, int column) const;
    std::vector<PinnedLayout> m_pinned;
    MemoryUnit m_unit = MemoryUnit::GiB;
};

} // namespace lp::ui
