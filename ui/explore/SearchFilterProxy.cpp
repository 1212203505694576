#include "ui/explore/SearchFilterProxy.h"

#include "core/search/SearchText.h"

#include <QRegularExpression>

#include <algorithm>

namespace lp::ui {

SearchFilterProxy::SearchFilterProxy(QObject* parent) : QSortFilterProxyModel(parent) {
    setSortRole(SearchResultModel::SortRole);
    setDynamicSortFilter(true);
}

bool SearchFilterProxy::setFilterText(const QString& text) {
    static const QRegularExpression term(
        QStringLiteral("^([a-z]+)\\s*(<=|>=|!=|=|<|>)\\s*(\\d+(?:\\.\\d+)?)$"));
    struct Key {
        const char* name;
        int column;
    };
    static const Key keys[] = {
        {"tp", SearchResultModel::Tp},
        {"pp", SearchResultModel::Pp},
        {"dp", SearchResultModel::Dp},
        {"cp", SearchResultModel::Cp},
        {"ep", SearchResultModel::Ep},
        {"v", SearchResultModel::Vpp},
        {"vpp", SearchResultModel::Vpp},
        {"mb", SearchResultModel::MicroBatch},
        {"acc", SearchResultModel::Accumulation},
        {"batch", SearchResultModel::GlobalBatch},
        {"zero", SearchResultModel::Zero},
        {"rank", SearchResultModel::Rank},
    };
    std::vector<Term> terms;
    bool valid = true;
    // "tp = 8" and "tp=8" alike: glue operators to their neighbours before splitting.
    QString glued = text.toLower();
    glued.replace(QRegularExpression(QStringLiteral("\\s*(<=|>=|!=|=|<|>)\\s*")), QStringLiteral("\\1"));
    for (const QString& token : glued.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        Term t;
        const QRegularExpressionMatch m = term.match(token);
        if (m.hasMatch()) {
            const QString name = m.captured(1);
            const auto key = std::find_if(std::begin(keys), std::end(keys),
                                          [&](const Key& k) { return name == QLatin1String(k.name); });
            if (key == std::end(keys)) {
                valid = false;
                continue;
            }
            t.column = key->column;
            t.op = m.captured(2);
            t.value = m.captured(3).toDouble();
        } else if (token.contains(QRegularExpression(QStringLiteral("[<>=!]")))) {
            valid = false;
            continue;
        } else {
            t.word = token;
        }
        terms.push_back(t);
    }
    m_valid = valid;
    m_terms = valid ? std::move(terms) : std::vector<Term>{};
    invalidateFilter();
    return valid;
}

void SearchFilterProxy::setMinHeadroomBytes(std::optional<double> bytes) {
    m_minHeadroom = bytes;
    invalidateFilter();
}

void SearchFilterProxy::setMaxTp(std::optional<int> tp) {
    m_maxTp = tp;
    invalidateFilter();
}

void SearchFilterProxy::setParetoOnly(bool only) {
    m_paretoOnly = only;
    invalidateFilter();
}

bool SearchFilterProxy::matches(const SearchResultModel::Row& r, const Term& t) const {
    const auto* model = static_cast<const SearchResultModel*>(sourceModel());
    if (t.column < 0) {
        const core::SearchChoice& c = r.entry.choice;
        if (t.word == QLatin1String("pareto") || t.word == QLatin1String("front"))
            return r.pareto;
        if (t.word == QLatin1String("current")) {
            const int row = static_cast<int>(&r - model->rows().data());
            return row == model->currentRow();
        }
        if (t.word == QLatin1String("sp"))
            return c.layout.tp > 1 && c.sequenceParallel;
        if (t.word == QLatin1String("nosp"))
            return c.layout.tp == 1 || !c.sequenceParallel;
        if (t.word == QLatin1String("none") || t.word == QLatin1String("selective") ||
            t.word == QLatin1String("full"))
            return qs(core::toString(c.recompute)) == t.word;
        if (t.word == QLatin1String("block"))
            return c.recompute == core::Recompute::Full && c.recomputeLayers > 0;
        return qs(core::choiceText(c)).toLower().contains(t.word);
    }
    const int row = static_cast<int>(&r - model->rows().data());
    const double v = model->data(model->index(row, t.column), SearchResultModel::SortRole).toDouble();
    if (t.op == QLatin1String("="))
        return v == t.value;
    if (t.op == QLatin1String("!="))
        return v != t.value;
    if (t.op == QLatin1String("<"))
        return v < t.value;
    if (t.op == QLatin1String(">"))
        return v > t.value;
    if (t.op == QLatin1String("<="))
        return v <= t.value;
    return v >= t.value;
}

bool SearchFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const {
    if (sourceParent.isValid())
        return false;
    const auto* model = qobject_cast<const SearchResultModel*>(sourceModel());
    if (!model || sourceRow < 0 || sourceRow >= model->rowCount())
        return false;
    const SearchResultModel::Row& r = model->row(sourceRow);
    if (m_paretoOnly && !r.pareto)
        return false;
    if (m_minHeadroom && r.entry.headroomBytes < *m_minHeadroom)
        return false;
    if (m_maxTp && r.entry.choice.layout.tp > *m_maxTp)
        return false;
    return std::all_of(m_terms.begin(), m_terms.end(), [&](const Term& t) { return matches(r, t); });
}

} // namespace lp::ui
