#include "ui/explore/SearchResultModel.h"

#include "core/model/Enums.h"
#include "core/search/LayoutSteps.h"
#include "core/search/SearchText.h"

#include <QBrush>
#include <QFont>
#include <QGuiApplication>
#include <QPalette>

#include <algorithm>
#include <iterator>
#include <optional>
#include <utility>

namespace lp::ui {
namespace {

// Each column's words, in the order of SearchResultModel::Column: its stable key (remembered choices), its
// heading, the short title of the columns menu and the full name of the heading's tool tip.
struct ColumnText {
    SearchResultModel::Column column;
    const char* key;
    const char* heading;
    const char* title;
    const char* name;
};

constexpr ColumnText kColumns[] = {
    {SearchResultModel::Rank, "rank", QT_TRANSLATE_NOOP("lp::ui::SearchResultModel", "#"),
     QT_TRANSLATE_NOOP("lp::ui::SearchResultModel", "Rank"),
     QT_TRANSLATE_NOOP("lp::ui::SearchResultModel",
                       "Place in the ranking (empty: on the Pareto front but not among the top layouts)")},
    {SearchResultModel::Front, "front", "", QT_TRANSLATE_NOOP("lp::ui::SearchResultModel", "Pareto front"),
     QT_TRANSLATE_NOOP("lp::ui::SearchResultModel",
                       "On the Pareto front of throughput against memory headroom")},
    {SearchResultModel::StepTime, "step", QT_TRANSLATE_NOOP("lp::ui::SearchResultModel", "Step"),
     QT_TRANSLATE_NOOP("lp::ui::SearchResultModel", "Step time"),
     QT_TRANSLATE_NOOP("lp::ui::SearchResultModel", "Time of one optimizer step")},
    {SearchResultModel::Mfu, "mfu", QT_TRANSLATE_NOOP("lp::ui::SearchResultModel", "MFU"),
     QT_TRANSLATE_NOOP("lp::ui::SearchResultModel", "MFU"),
     QT_TRANSLATE_NOOP("lp::ui::SearchResultModel", "Model FLOPs utilisation")},
    {SearchResultModel::TokensPerSecond, "tokensPerSecond",
     QT_TRANSLATE_NOOP("lp::ui::SearchResultModel", "tokens/s"),
     QT_TRANSLATE_NOOP("lp::ui::SearchResultModel", "Tokens per second"),
     QT_TRANSLATE_NOOP("lp::ui::SearchResultModel",
                       "Training throughput, tokens per second (whole cluster)")},
    {SearchResultModel::GpuHours, "gpuHours", QT_TRANSLATE_NOOP("lp::ui::SearchResultModel", "GPU-h"),
     QT_TRANSLATE_NOOP("lp::ui::SearchResultModel", "GPU-hours"),
     QT_TRANSLATE_NOOP("lp::ui::SearchResultModel", "GPU-hours for the token budget")},
    {SearchResultModel::Memory, "memory", QT_TRANSLATE_NOOP("lp::ui::SearchResultModel", "Memory\n(%1)"),
     QT_TRANSLATE_NOOP("lp::ui::SearchResultModel", "Memory per GPU"),
     QT_TRANSLATE_NOOP("lp::ui::SearchResultModel", "Memory per GPU of the worst pipeline stage")},
    {SearchResultModel::Headroom, "free", QT_TRANSLATE_NOOP("lp::ui::SearchResultModel", "Free\n(%1)"),
     QT_TRANSLATE_NOOP("lp::ui::SearchResultModel", "Free memory"),
     QT_TRANSLATE_NOOP("lp::ui::SearchResultModel", "Free memory left on the worst stage")},
    {SearchResultModel::Tp, "tp", QT_TRANSLATE_NOOP("lp::ui::SearchResultModel", "TP"),
     QT_TRANSLATE_NOOP("lp::ui::SearchResultModel", "TP (tensor parallel)"),
     QT_TRANSLATE_NOOP("lp::ui::SearchResultModel", "Tensor parallelism")},
    {SearchResultModel::Pp, "pp", QT_TRANSLATE_NOOP("lp::ui::SearchResultModel", "PP"),
     QT_TRANSLATE_NOOP("lp::ui::SearchResultModel", "PP (pipeline stages)"),
     QT_TRANSLATE_NOOP("lp::ui::SearchResultModel", "Pipeline parallelism (stages)")},
    {SearchResultModel::Dp, "dp", QT_TRANSLATE_NOOP("lp::ui::SearchResultModel", "DP"),
     QT_TRANSLATE_NOOP("lp::ui::SearchResultModel", "DP (data parallel)"),
     QT_TRANSLATE_NOOP("lp::ui::SearchResultModel", "Data parallelism")},
    {SearchResultModel::Cp, "cp", QT_TRANSLATE_NOOP("lp::ui::SearchResultModel", "CP"),
     QT_TRANSLATE_NOOP("lp::ui::SearchResultModel", "CP (context parallel)"),
     QT_TRANSLATE_NOOP("lp::ui::SearchResultModel", "Context parallelism")},
    {SearchResultModel::Ep, "ep", QT_TRANSLATE_NOOP("lp::ui::SearchResultModel", "EP"),
     QT_TRANSLATE_NOOP("lp::ui::SearchResultModel", "EP (expert parallel)"),
     QT_TRANSLATE_NOOP("lp::ui::SearchResultModel", "Expert parallelism")},
    {SearchResultModel::Vpp, "v", QT_TRANSLATE_NOOP("lp::ui::SearchResultModel", "v"),
     QT_TRANSLATE_NOOP("lp::ui::SearchResultModel", "v (virtual stages)"),
     QT_TRANSLATE_NOOP("lp::ui::SearchResultModel", "Virtual pipeline stages per rank (interleaving)")},
    {SearchResultModel::MicroBatch, "mb", QT_TRANSLATE_NOOP("lp::ui::SearchResultModel", "mb"),
     QT_TRANSLATE_NOOP("lp::ui::SearchResultModel", "Micro batch"),
     QT_TRANSLATE_NOOP("lp::ui::SearchResultModel", "Micro batch (sequences)")},
    {SearchResultModel::Accumulation, "acc", QT_TRANSLATE_NOOP("lp::ui::SearchResultModel", "acc"),
     QT_TRANSLATE_NOOP("lp::ui::SearchResultModel", "Gradient accumulation"),
     QT_TRANSLATE_NOOP("lp::ui::SearchResultModel", "Gradient accumulation (micro batches per step)")},
    {SearchResultModel::GlobalBatch, "batch", QT_TRANSLATE_NOOP("lp::ui::SearchResultModel", "batch"),
     QT_TRANSLATE_NOOP("lp::ui::SearchResultModel", "Global batch"),
     QT_TRANSLATE_NOOP("lp::ui::SearchResultModel", "Global batch (sequences per optimizer step)")},
    {SearchResultModel::Zero, "zero", QT_TRANSLATE_NOOP("lp::ui::SearchResultModel", "ZeRO"),
     QT_TRANSLATE_NOOP("lp::ui::SearchResultModel", "ZeRO stage"),
     QT_TRANSLATE_NOOP("lp::ui::SearchResultModel", "ZeRO stage")},
    {SearchResultModel::Recompute, "recompute", QT_TRANSLATE_NOOP("lp::ui::SearchResultModel", "recomp."),
     QT_TRANSLATE_NOOP("lp::ui::SearchResultModel", "Recompute"),
     QT_TRANSLATE_NOOP("lp::ui::SearchResultModel", "Activation recomputation")},
    {SearchResultModel::SequenceParallel, "sp", QT_TRANSLATE_NOOP("lp::ui::SearchResultModel", "SP"),
     QT_TRANSLATE_NOOP("lp::ui::SearchResultModel", "Sequence parallelism"),
     QT_TRANSLATE_NOOP("lp::ui::SearchResultModel", "Sequence parallelism")},
    {SearchResultModel::Layout, "layout", QT_TRANSLATE_NOOP("lp::ui::SearchResultModel", "Layout"),
     QT_TRANSLATE_NOOP("lp::ui::SearchResultModel", "Layout (in words)"),
     QT_TRANSLATE_NOOP(
         "lp::ui::SearchResultModel",
         "The layout: parallelism, micro batch × accumulation, ZeRO stage, recompute and sequence "
         "parallelism")},
};
static_assert(std::size(kColumns) == SearchResultModel::ColumnCount, "one entry per column");

constexpr bool inColumnOrder() {
    for (std::size_t i = 0; i < std::size(kColumns); ++i)
        if (kColumns[i].column != static_cast<int>(i))
            return false;
    return true;
}
static_assert(inColumnOrder(), "kColumns follows the Column enum");

const ColumnText* columnText(int column) {
    return column >= 0 && column < SearchResultModel::ColumnCount ? &kColumns[column] : nullptr;
}

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
    const ColumnText* c = columnText(column);
    return c ? tr(c->name) : QString();
}

QString SearchResultModel::columnTitle(int column) {
    const ColumnText* c = columnText(column);
    return c ? tr(c->title) : QString();
}

QString SearchResultModel::columnKey(int column) {
    const ColumnText* c = columnText(column);
    return c ? QLatin1String(c->key) : QString();
}

QVariant SearchResultModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::ToolTipRole)
        return tr("%1\n(Right-click the headings to choose the columns.)").arg(columnName(section));
    if (role != Qt::DisplayRole)
        return {};
    if (section == Front)
        return QStringLiteral("\u25C6");
    if (section == Memory || section == Headroom)
        return tr(columnText(section)->heading).arg(unitName(m_unit));
    return tr(columnText(section)->heading);
}

QVariant SearchResultModel::display(const Row& r, int column) const {
    const core::SearchEntry& e = r.entry;
    const core::Layout& l = e.choice.layout;
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
        return qs(core::searchFigureText(e, core::SearchFigure::Zero, m_unit));
    case Recompute:
        return qs(core::recomputeChoiceText(e.choice));
    case SequenceParallel:
        return qs(core::searchFigureText(e, core::SearchFigure::SequenceParallel, m_unit));
    case Memory:
        return qs(core::searchFigureText(e, core::SearchFigure::WorstMemory, m_unit));
    case Headroom:
        return qs(core::searchFigureText(e, core::SearchFigure::Headroom, m_unit));
    case StepTime:
        return qs(core::searchFigureText(e, core::SearchFigure::StepTime, m_unit));
    case Mfu:
        return qs(core::searchFigureText(e, core::SearchFigure::Mfu, m_unit));
    case TokensPerSecond:
        return qs(core::searchFigureText(e, core::SearchFigure::TokensPerSecond, m_unit));
    case GpuHours:
        return qs(core::searchFigureText(e, core::SearchFigure::GpuHours, m_unit));
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
