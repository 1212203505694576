#pragma once
// Sorts the Explore tab's table by SearchResultModel::SortRole and filters it by a small "tp=8 pp<=4 full"
// syntax, by free memory and by the TP range.
#include "ui/explore/SearchResultModel.h"

#include <QSortFilterProxyModel>

#include <optional>
#include <vector>

namespace lp::ui {

// Filters the table: text tokens (each must hold) and the checkboxes' limits.
//   tp=8  pp<=4  dp>2  zero=1  mb=2  acc>=8  v=2  cp=1  ep=1  batch=64   (=, <, >, <=, >=, !=)
//   none | selective | full | block   (recompute; block: full of the first N layers)   sp | nosp   pareto
//   current
// Any other word must appear in the row's summary text.
class SearchFilterProxy : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit SearchFilterProxy(QObject* parent = nullptr);

    // Returns false (and filters nothing by text) when the text does not parse.
    bool setFilterText(const QString& text);
    bool isFilterTextValid() const { return m_valid; }
    void setMinHeadroomBytes(std::optional<double> bytes);
    void setMaxTp(std::optional<int> tp);
    void setParetoOnly(bool only);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    struct Term {
        int column = -1; // a SearchResultModel column, or -1 for a word
        QString op;      // "=", "<", ">", "<=", ">=", "!="
        double value = 0;
        QString word; // lower case
    };
    bool matches(const SearchResultModel::Row& r, const Term& t) const;
    std::vector<Term> m_terms;
    bool m_valid = true;
    std::optional<double> m_minHeadroom;
    std::optional<int> m_maxTp;
    bool m_paretoOnly = false;
};

} // namespace lp::ui
