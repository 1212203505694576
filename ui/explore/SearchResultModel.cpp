#include "ui/explore/SearchResultModel.h"

#include "core/model/Enums.h"

#include <QBrush>
#include <QFont>
#include <QGuiApplication>
#include <QPalette>
#include <QRegularExpression>

#include <algorithm>

namespace lp::ui {
namespace {

// The search tries SP only with TP > 1 and the ZeRO stage only with DP x CP > 1: choices that
// differ only there are the same layout.
bool sameChoice(const core::SearchChoice& a, const core::SearchChoice& b) {
    if (a.layout != b.layout || a.recompute != b.recompute)
        return false;
    if (a.sequenceParallel != b.sequenceParallel && a.layout.tp > 1)
        return false;
    if (a.zeroStage != b.zeroStage && static_cast<long long>(a.layout.dp) * a.layout.cp > 1)
        return false;
    // A shard degree of 0 or of DP and more is plain sharding; ZeRO-0 shards nothing.
    const auto plain = [](const core::SearchChoice& c) {
        return c.zeroStage == 0 || c.zeroShardDegree <= 0 || c.zeroShardDegree >= c.layout.dp
                   ? 0
                   : c.zeroShardDegree;
    };
    return plain(a) == plain(b);
}

} // namespace

SearchResultModel::SearchResultModel(QObject* parent) : QAbstractTableModel(parent) {}

void SearchResultModel::setResult(const core::SearchResult& r) {
    beginResetModel();
    m_rows.clear();
    m_rows.reserve(r.top.size() + r.pareto.size());
    int rank = 0;
    for (const core::SearchEntry& e : r.top)
        m_rows.push_back({e, ++rank, false});
    for (const core::SearchEntry& p : r.pareto) {
        auto it = std::find_if(m_rows.begin(), m_rows.end(),
                               [&](const Row& row) { return row.entry.choice == p.choice && row.rank > 0; });
        if (it != m_rows.end())
            it->pareto = true;
        else
            m_rows.push_back({p, 0, true});
    }
    m_stale = false;
    m_currentRow = m_current ? rowOf(*m_current) : -1;
    endResetModel();
}

void SearchResultModel::clear() {
    beginResetModel();
    m_rows.clear();
    m_currentRow = -1;
    m_stale = false;
    endResetModel();
}

int SearchResultModel::rowOf(const core::SearchChoice& c) const {
    for (std::size_t i = 0; i < m_rows.size(); ++i)
        if (sameChoice(m_rows[i].entry.choice, c))
            return static_cast<int>(i);
    return -1;
}

void SearchResultModel::setCurrent(const std::optional<core::SearchChoice>& current) {
    m_current = current;
    const int before = m_currentRow;
    m_currentRow = current ? rowOf(*current) : -1;
    if (before == m_currentRow)
        return;
    for (int r : {before, m_currentRow})
        if (r >= 0)
            emit dataChanged(index(r, 0), index(r, ColumnCount - 1),
                             {Qt::FontRole, Qt::ToolTipRole, CurrentRole});
}

void SearchResultModel::setUnit(MemoryUnit unit) {
    if (unit == m_unit)
        return;
    m_unit = unit;
    emit headerDataChanged(Qt::Horizontal, Memory, Headroom);
    if (!m_rows.empty())
        emit dataChanged(index(0, Memory), index(rowCount() - 1, Headroom), {Qt::DisplayRole});
}

void SearchResultModel::setStale(bool stale) {
    if (stale == m_stale)
        return;
    m_stale = stale;
    if (!m_rows.empty())
        emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1),
                         {Qt::ForegroundRole, Qt::ToolTipRole});
}

int SearchResultModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int SearchResultModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QString SearchResultModel::recomputeText(const core::SearchChoice& c) {
    if (c.recompute == core::Recompute::Full && c.recomputeLayers > 0)
        return tr("full (block %1)").arg(c.recomputeLayers);
    return recomputeName(c.recompute);
}

QString SearchResultModel::recomputeName(core::Recompute r) {
    switch (r) {
    case core::Recompute::None:
        return tr("none");
    case core::Recompute::Selective:
        return tr("selective");
    case core::Recompute::Full:
        return tr("full");
    }
    return {};
}

QString SearchResultModel::choiceSummary(const core::SearchChoice& c) {
    const core::Layout& l = c.layout;
    QString text = tr("TP %1 · PP %2 · DP %3").arg(l.tp).arg(l.pp).arg(l.dp);
    if (l.cp > 1)
        text += tr(" · CP %1").arg(l.cp);
    if (l.ep > 1)
        text += tr(" · EP %1").arg(l.ep);
    if (l.vpp > 1)
        text += tr(" · v %1").arg(l.vpp);
    text += tr(" · mb %1 × %2").arg(l.microBatch).arg(l.accumulation);
    text += tr(" · ZeRO-%1").arg(c.zeroStage);
    if (c.zeroStage >= 1 && c.zeroShardDegree > 0 && c.zeroShardDegree < l.dp)
        text += tr(" (HSDP %1)").arg(c.zeroShardDegree);
    text += tr(" · %1 recompute").arg(recomputeText(c));
    if (l.tp > 1)
        text += c.sequenceParallel ? tr(" · SP") : tr(" · no SP");
    return text;
}

QString SearchResultModel::columnName(int column) {
    switch (column) {
    case Rank:
        return tr("Place in the ranking (empty: on the Pareto front but not among the top layouts)");
    case Front:
        return tr("On the Pareto front of throughput against memory headroom");
    case Tp:
        return tr("Tensor parallelism");
    case Pp:
        return tr("Pipeline parallelism (stages)");
    case Dp:
        return tr("Data parallelism");
    case Cp:
        return tr("Context parallelism");
    case Ep:
        return tr("Expert parallelism");
    case Vpp:
        return tr("Virtual pipeline stages per rank (interleaving)");
    case MicroBatch:
        return tr("Micro batch (sequences)");
    case Accumulation:
        return tr("Gradient accumulation (micro batches per step)");
    case GlobalBatch:
        return tr("Global batch (sequences per optimizer step)");
    case Zero:
        return tr("ZeRO stage");
    case Recompute:
        return tr("Activation recomputation");
    case SequenceParallel:
        return tr("Sequence parallelism");
    case Memory:
        return tr("Memory per GPU of the worst pipeline stage");
    case Headroom:
        return tr("Free memory left on the worst stage");
    case StepTime:
        return tr("Time of one optimizer step");
    case Mfu:
        return tr("Model FLOPs utilisation");
    case TokensPerSecond:
        return tr("Training throughput, tokens per second (whole cluster)");
    case GpuHours:
        return tr("GPU-hours for the token budget");
    }
    return {};
}

QVariant SearchResultModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::ToolTipRole)
        return columnName(section);
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Rank:
        return tr("#");
    case Front:
        return QStringLiteral("\u25C6");
    case Tp:
        return tr("TP");
    case Pp:
        return tr("PP");
    case Dp:
        return tr("DP");
    case Cp:
        return tr("CP");
    case Ep:
        return tr("EP");
    case Vpp:
        return tr("v");
    case MicroBatch:
        return tr("mb");
    case Accumulation:
        return tr("acc");
    case GlobalBatch:
        return tr("batch");
    case Zero:
        return tr("ZeRO");
    case Recompute:
        return tr("recomp.");
    case SequenceParallel:
        return tr("SP");
    case Memory:
        return tr("Memory\n(%1)").arg(unitName(m_unit));
    case Headroom:
        return tr("Free\n(%1)").arg(unitName(m_unit));
    case StepTime:
        return tr("Step");
    case Mfu:
        return tr("MFU");
    case TokensPerSecond:
        return tr("tokens/s");
    case GpuHours:
        return tr("GPU-h");
    }
    return {};
}

QVariant SearchResultModel::display(const Row& r, int column) const {
    const core::SearchEntry& e = r.entry;
    const core::Layout& l = e.choice.layout;
    const double unit = bytesPerUnit(m_unit);
    switch (column) {
    case Rank:
        return r.rank > 0 ? QString::number(r.rank) : QString();
    case Front:
        return r.pareto ? QStringLiteral("\u25C6") : QString();
    case Tp:
        return l.tp;
    case Pp:
        return l.pp;
    case Dp:
        return l.dp;
    case Cp:
        return l.cp;
    case Ep:
        return l.ep;
    case Vpp:
        return l.vpp;
    case MicroBatch:
        return l.microBatch;
    case Accumulation:
        return l.accumulation;
    case GlobalBatch:
        return formatCount(e.globalBatch);
    case Zero:
        if (e.choice.zeroStage >= 1 && e.choice.zeroShardDegree > 0 && e.choice.zeroShardDegree < l.dp)
            return tr("%1 (HSDP %2)").arg(e.choice.zeroStage).arg(e.choice.zeroShardDegree);
        return e.choice.zeroStage;
    case Recompute:
        return recomputeText(e.choice);
    case SequenceParallel:
        return l.tp > 1 ? (e.choice.sequenceParallel ? tr("on") : tr("off")) : QStringLiteral("–");
    case Memory:
        return formatNumber(e.worstStageBytes / unit, 1);
    case Headroom:
        return formatNumber(e.headroomBytes / unit, 1);
    case StepTime:
        return formatSeconds(e.stepSeconds);
    case Mfu:
        return formatPercent(e.mfu, 1);
    case TokensPerSecond:
        return formatLarge(e.tokensPerSecond);
    case GpuHours:
        return formatLarge(e.gpuHours);
    }
    return {};
}

QVariant SearchResultModel::sortValue(const Row& r, int column) const {
    const core::SearchEntry& e = r.entry;
    const core::Layout& l = e.choice.layout;
    switch (column) {
    case Rank:
        return r.rank > 0 ? r.rank : 1'000'000; // Pareto-only rows after the ranked ones
    case Front:
        return r.pareto ? 0 : 1;
    case Tp:
        return l.tp;
    case Pp:
        return l.pp;
    case Dp:
        return l.dp;
    case Cp:
        return l.cp;
    case Ep:
        return l.ep;
    case Vpp:
        return l.vpp;
    case MicroBatch:
        return l.microBatch;
    case Accumulation:
        return l.accumulation;
    case GlobalBatch:
        return e.globalBatch;
    case Zero:
        return e.choice.zeroStage * 1'000'000 + e.choice.zeroShardDegree;
    // Block recompute sorts between selective and full of every layer, fewer layers first.
    case Recompute:
        return e.choice.recompute == core::Recompute::Full && e.choice.recomputeLayers > 0
                   ? static_cast<double>(core::Recompute::Selective) + 1.0 -
                         1.0 / (1.0 + e.choice.recomputeLayers)
                   : static_cast<double>(e.choice.recompute);
    case SequenceParallel:
        return l.tp > 1 && e.choice.sequenceParallel ? 1 : 0;
    case Memory:
        return e.worstStageBytes;
    case Headroom:
        return e.headroomBytes;
    case StepTime:
        return e.stepSeconds;
    case Mfu:
        return e.mfu;
    case TokensPerSecond:
        return e.tokensPerSecond;
    case GpuHours:
        return e.gpuHours;
    }
    return {};
}

QVariant SearchResultModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row& r = m_rows[static_cast<std::size_t>(index.row())];
    const int column = index.column();
    switch (role) {
    case Qt::DisplayRole:
        return display(r, column);
    case SortRole:
        return sortValue(r, column);
    case ParetoRole:
        return r.pareto;
    case CurrentRole:
        return index.row() == m_currentRow;
    case Qt::TextAlignmentRole:
        if (column == Recompute || column == SequenceParallel || column == Front)
            return QVariant::fromValue(Qt::Alignment(Qt::AlignCenter));
        return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
    case Qt::FontRole:
        if (index.row() == m_currentRow) {
            QFont f;
            f.setBold(true);
            return f;
        }
        return {};
    case Qt::ForegroundRole:
        if (m_stale)
            return QBrush(QGuiApplication::palette().color(QPalette::Disabled, QPalette::Text));
        return {};
    case Qt::ToolTipRole: {
        QString tip = choiceSummary(r.entry.choice);
        if (r.pareto)
            tip += tr("\nOn the Pareto front: no other layout has both more throughput and more headroom.");
        if (index.row() == m_currentRow)
            tip += tr("\nThe planner's current layout.");
        if (m_stale)
            tip += tr("\nFrom a search of an earlier scenario: run the search again.");
        tip += tr("\nDouble-click to apply it to the planner.");
        return tip;
    }
    default:
        return {};
    }
}

// ---------------------------------------------------------------------------------------------

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
            return SearchResultModel::recomputeName(c.recompute) == t.word;
        if (t.word == QLatin1String("block"))
            return c.recompute == core::Recompute::Full && c.recomputeLayers > 0;
        return SearchResultModel::choiceSummary(c).toLower().contains(t.word);
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
