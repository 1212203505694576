#include "ui/explore/SearchResultModel.h"

#include "core/model/Enums.h"
#include "core/search/LayoutSteps.h"
#include "core/search/SearchText.h"

#include <QBrush>
#include <QFont>
#include <QGuiApplication>
#include <QPalette>

#include <algorithm>
#include <optional>
#include <utility>

namespace lp::ui {
namespace {

// The layout axis a column shows, if it shows one.
std::optional<core::LayoutAxis> layoutAxisOf(int column) {
    static const std::pair<int, core::LayoutAxis> columns[] = {
        {SearchResultModel::Tp, core::LayoutAxis::Tp},
        {SearchResultModel::Pp, core::LayoutAxis::Pp},
        {SearchResultModel::Dp, core::LayoutAxis::Dp},
        {SearchResultModel::Cp, core::LayoutAxis::Cp},
        {SearchResultModel::Ep, core::LayoutAxis::Ep},
        {SearchResultModel::Vpp, core::LayoutAxis::Vpp},
        {SearchResultModel::MicroBatch, core::LayoutAxis::MicroBatch},
        {SearchResultModel::Accumulation, core::LayoutAxis::Accumulation},
    };
    for (const auto& [c, axis] : columns)
        if (c == column)
            return axis;
    return std::nullopt;
}

// The layout's axes as one text that sorts like the numbers do (each padded to the same width).
QString layoutSortKey(const core::Layout& layout) {
    QString key;
    for (core::LayoutAxis axis : {core::LayoutAxis::Tp, core::LayoutAxis::Pp, core::LayoutAxis::Dp,
                                  core::LayoutAxis::Cp, core::LayoutAxis::Ep, core::LayoutAxis::Vpp,
                                  core::LayoutAxis::MicroBatch, core::LayoutAxis::Accumulation})
        key += QStringLiteral("%1 ").arg(core::layoutValue(layout, axis), 9, 10, QLatin1Char('0'));
    return key;
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
        if (core::sameLayoutChoice(m_rows[i].entry.choice, c))
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
    case Layout:
        return tr("The layout: parallelism, micro batch × accumulation, ZeRO stage, recompute and sequence "
                  "parallelism");
    }
    return {};
}

QString SearchResultModel::columnTitle(int column) {
    switch (column) {
    case Rank:
        return tr("Rank");
    case Front:
        return tr("Pareto front");
    case Tp:
        return tr("TP (tensor parallel)");
    case Pp:
        return tr("PP (pipeline stages)");
    case Dp:
        return tr("DP (data parallel)");
    case Cp:
        return tr("CP (context parallel)");
    case Ep:
        return tr("EP (expert parallel)");
    case Vpp:
        return tr("v (virtual stages)");
    case MicroBatch:
        return tr("Micro batch");
    case Accumulation:
        return tr("Gradient accumulation");
    case GlobalBatch:
        return tr("Global batch");
    case Zero:
        return tr("ZeRO stage");
    case Recompute:
        return tr("Recompute");
    case SequenceParallel:
        return tr("Sequence parallelism");
    case Memory:
        return tr("Memory per GPU");
    case Headroom:
        return tr("Free memory");
    case StepTime:
        return tr("Step time");
    case Mfu:
        return tr("MFU");
    case TokensPerSecond:
        return tr("Tokens per second");
    case GpuHours:
        return tr("GPU-hours");
    case Layout:
        return tr("Layout (in words)");
    }
    return {};
}

QString SearchResultModel::columnKey(int column) {
    static const char* const keys[ColumnCount] = {
        "rank",     "front",  "step", "mfu",       "tokensPerSecond",
        "gpuHours", "memory", "free", "tp",        "pp",
        "dp",       "cp",     "ep",   "v",         "mb",
        "acc",      "batch",  "zero", "recompute", "sp",
        "layout"};
    return column >= 0 && column < ColumnCount ? QLatin1String(keys[column]) : QString();
}

QVariant SearchResultModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::ToolTipRole)
        return tr("%1\n(Right-click the headings to choose the columns.)").arg(columnName(section));
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
    case Layout:
        return tr("Layout");
    }
    return {};
}

QVariant SearchResultModel::display(const Row& r, int column) const {
    const core::SearchEntry& e = r.entry;
    const core::Layout& l = e.choice.layout;
    const double unit = bytesPerUnit(m_unit);
    if (const std::optional<core::LayoutAxis> axis = layoutAxisOf(column))
        return core::layoutValue(l, *axis);
    switch (column) {
    case Rank:
        return r.rank > 0 ? QString::number(r.rank) : QString();
    case Front:
        return r.pareto ? QStringLiteral("\u25C6") : QString();
    case GlobalBatch:
        return formatCount(e.globalBatch);
    case Zero:
        if (const int group = core::hybridShardDegree(e.choice); group > 0)
            return tr("%1 (HSDP %2)").arg(e.choice.zeroStage).arg(group);
        return e.choice.zeroStage;
    case Recompute:
        return qs(core::recomputeChoiceText(e.choice));
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
    case Layout:
        return qs(core::choiceText(e.choice));
    }
    return {};
}

QVariant SearchResultModel::sortValue(const Row& r, int column) const {
    const core::SearchEntry& e = r.entry;
    const core::Layout& l = e.choice.layout;
    if (const std::optional<core::LayoutAxis> axis = layoutAxisOf(column))
        return core::layoutValue(l, *axis);
    switch (column) {
    case Rank:
        return r.rank > 0 ? r.rank : 1'000'000; // Pareto-only rows after the ranked ones
    case Front:
        return r.pareto ? 0 : 1;
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
    case Layout: // by TP, then PP, DP, CP, EP, v, micro batch and accumulation: numbers, not their text
        return layoutSortKey(l);
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
        if (column == Layout)
            return QVariant::fromValue(Qt::Alignment(Qt::AlignLeft | Qt::AlignVCenter));
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
        QString tip = qs(core::choiceText(r.entry.choice));
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

} // namespace lp::ui
