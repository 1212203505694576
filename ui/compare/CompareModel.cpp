#include "ui/compare/CompareModel.h"

#include "ui/widgets/Format.h"
#include "ui/widgets/Palette.h"

#include <QBrush>
#include <QFont>
#include <QGuiApplication>
#include <QPalette>

#include <vector>

namespace lp::ui {

CompareModel::CompareModel(QObject* parent) : QAbstractTableModel(parent) {}

void CompareModel::setPinned(const std::vector<PinnedLayout>& pinned) {
    beginResetModel();
    m_pinned = pinned;
    endResetModel();
}

void CompareModel::setUnit(MemoryUnit unit) {
    if (unit == m_unit)
        return;
    m_unit = unit;
    if (!m_pinned.empty())
        emit dataChanged(index(rowOf(core::ComparedFigure::WorstMemory), 0),
                         index(rowOf(core::ComparedFigure::Headroom), columnCount() - 1),
                         {Qt::DisplayRole, Qt::ToolTipRole});
    emit headerDataChanged(Qt::Vertical, rowOf(core::ComparedFigure::WorstMemory),
                           rowOf(core::ComparedFigure::Headroom));
}

QString CompareModel::letter(int column) {
    return QString(QChar(u'A' + column));
}

core::ComparedFigure CompareModel::figureAt(int row) {
    return static_cast<core::ComparedFigure>(row);
}

int CompareModel::rowOf(core::ComparedFigure figure) {
    return static_cast<int>(figure);
}

double CompareModel::value(core::ComparedFigure figure, int column) const {
    return core::comparedValue(m_pinned[static_cast<std::size_t>(column)].plan, figure);
}

QString CompareModel::text(core::ComparedFigure figure, int column) const {
    const PinnedLayout& pin = m_pinned[static_cast<std::size_t>(column)];
    return qs(core::comparedText(pin.scenario, pin.plan, figure, m_unit));
}

QString CompareModel::toolTip(core::ComparedFigure figure, int column) const {
    const PinnedLayout& pin = m_pinned[static_cast<std::size_t>(column)];
    if (figure == core::ComparedFigure::Diagnostics) {
        QStringList lines;
        for (const core::Diagnostic* d : core::orderedDiagnostics(pin.plan.diagnostics))
            lines << QStringLiteral("• %1 %2").arg(qs(core::diagnosticMessage(*d, m_unit)),
                                                   qs(core::diagnosticSuggestion(*d)));
        return lines.isEmpty() ? tr("No diagnostics.") : lines.join(QLatin1Char('\n'));
    }
    QString tip = QStringLiteral("%1 · %2: %3")
                      .arg(letter(column), qs(core::comparedFigureName(figure)), text(figure, column));
    switch (standing(figure, column)) {
    case core::Standing::Best:
        tip += tr("\nBest of the pinned layouts.");
        break;
    case core::Standing::Worst:
        tip += tr("\nWorst of the pinned layouts.");
        break;
    case core::Standing::None:
        break;
    }
    if (differsFromFirst(figure, column))
        tip += tr("\nDiffers from A.");
    return tip;
}

core::Standing CompareModel::standing(core::ComparedFigure figure, int column) const {
    std::vector<const core::Plan*> plans;
    for (const PinnedLayout& p : m_pinned)
        plans.push_back(&p.plan);
    return column < 0 ? core::Standing::None
                      : core::standing(plans, figure, static_cast<std::size_t>(column));
}

bool CompareModel::differsFromFirst(core::ComparedFigure figure, int column) const {
    if (column <= 0 || column >= static_cast<int>(m_pinned.size()))
        return false;
    return text(figure, column) != text(figure, 0);
}

int CompareModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : core::kComparedFigureCount;
}

int CompareModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_pinned.size());
}

QVariant CompareModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const core::ComparedFigure figure = figureAt(index.row());
    const int column = index.column();
    switch (role) {
    case Qt::DisplayRole:
        return text(figure, column);
    case Qt::ToolTipRole:
        return toolTip(figure, column);
    case MarkRole:
        return static_cast<int>(standing(figure, column));
    case DiffersRole:
        return differsFromFirst(figure, column);
    case ValueRole:
        return core::isNumeric(figure) ? QVariant(value(figure, column)) : QVariant();
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(Qt::Alignment(Qt::AlignCenter));
    case Qt::FontRole:
        if (standing(figure, column) == core::Standing::Best) {
            QFont f;
            f.setBold(true);
            return f;
        }
        return {};
    case Qt::ForegroundRole: {
        const core::Plan& p = m_pinned[static_cast<std::size_t>(column)].plan;
        const bool memory =
            figure == core::ComparedFigure::Headroom || figure == core::ComparedFigure::WorstMemory;
        if (memory && p.valid && !p.memory.fits)
            return QBrush(palette::error());
        switch (standing(figure, column)) {
        case core::Standing::Best:
            return QBrush(palette::bandGood().darker(125));
        case core::Standing::Worst:
            return QBrush(QColor(0xB8, 0x4A, 0x3E)); // red-ish, softer than "does not fit"
        case core::Standing::None:
            return {};
        }
        return {};
    }
    case Qt::BackgroundRole:
        if (differsFromFirst(figure, column)) {
            QColor tint = QGuiApplication::palette().color(QPalette::Highlight);
            tint.setAlphaF(0.14f);
            return QBrush(tint);
        }
        return {};
    default:
        return {};
    }
}

QVariant CompareModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation == Qt::Vertical) {
        if (section < 0 || section >= core::kComparedFigureCount)
            return {};
        if (role == Qt::DisplayRole)
            return qs(core::comparedFigureName(figureAt(section)));
        if (role == Qt::ToolTipRole) {
            const int dir = core::betterDirection(figureAt(section));
            return dir > 0 ? tr("Higher is better.") : dir < 0 ? tr("Lower is better.") : QVariant();
        }
        return {};
    }
    if (section < 0 || section >= columnCount())
        return {};
    const PinnedLayout& pin = m_pinned[static_cast<std::size_t>(section)];
    if (role == Qt::DisplayRole)
        return QStringLiteral("%1 · %2").arg(letter(section), pin.source);
    if (role == Qt::ToolTipRole)
        return tr("%1\nScenario: %2")
            .arg(qs(core::pinLabel(pin.scenario)), qs(core::scenarioName(pin.scenario)));
    return {};
}

} // namespace lp::ui
