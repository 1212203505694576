#pragma once
// The Explore tab's table: the ranked layouts of a core::SearchResult (best first), then the Pareto
// layouts that are not among them, one row each with its key figures. Sorts numerically through
// SortRole (SearchFilterProxy sorts and filters it).
#include "core/search/Search.h"
#include "ui/widgets/Format.h"

#include <QAbstractTableModel>

#include <optional>
#include <vector>

namespace lp::ui {

class SearchResultModel : public QAbstractTableModel {
    Q_OBJECT
public:
    // The figures the ranking is by come first, so they show in a narrow window; the layout's axes
    // follow (hidden by default), and last the whole layout in words, which stretches and elides.
    enum Column {
        Rank,
        Front,
        StepTime,
        Mfu,
        TokensPerSecond,
        GpuHours,
        Memory,
        Headroom,
        Tp,
        Pp,
        Dp,
        Cp,
        Ep,
        Vpp,
        MicroBatch,
        Accumulation,
        GlobalBatch,
        Zero,
        Recompute,
        SequenceParallel,
        Layout,
        ColumnCount
    };
    enum Role {
        SortRole = Qt::UserRole + 1, // a number for every column (what the proxy sorts by)
        ParetoRole,                  // bool: on the Pareto front
        CurrentRole,                 // bool: the planner's current layout
    };

    struct Row {
        core::SearchEntry entry;
        int rank = 0; // 1-based place in the ranking; 0 for Pareto layouts outside the top N
        bool pareto = false;
    };

    explicit SearchResultModel(QObject* parent = nullptr);

    void setResult(const core::SearchResult& r);
    void clear();
    // The planner's current layout, shown in bold (nullopt: none matches).
    void setCurrent(const std::optional<core::SearchChoice>& current);
    void setUnit(MemoryUnit unit);
    MemoryUnit unit() const { return m_unit; }
    // Results of an earlier scenario: shown in grey.
    void setStale(bool stale);
    bool isStale() const { return m_stale; }

    const Row& row(int r) const { return m_rows[static_cast<std::size_t>(r)]; }
    const std::vector<Row>& rows() const { return m_rows; }
    int rowOf(const core::SearchChoice& c) const; // -1 when absent
    int currentRow() const { return m_currentRow; }

    static QString columnName(int column);  // the full name (header tool tip)
    static QString columnTitle(int column); // a short name that says what it is (the columns menu)
    static QString columnKey(int column);   // stable, untranslated (remembered choices)

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVariant display(const Row& r, int column) const;
    QVariant sortValue(const Row& r, int column) const;
    std::vector<Row> m_rows;
    std::optional<core::SearchChoice> m_current;
    int m_currentRow = -1;
    MemoryUnit m_unit = MemoryUnit::GiB;
    bool m_stale = false;
};

} // namespace lp::ui
