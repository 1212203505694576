#include "ui/validate/ValidationGroups.h"

#include "core/measured/ValidationText.h"
#include "ui/validate/ValidationModel.h"
#include "ui/widgets/Format.h"

#include <QHeaderView>
#include <QScrollBar>
#include <QTableWidget>

namespace lp::ui {
namespace {

enum Column {
    GpuColumn,
    StyleColumn,
    PrecisionColumn,
    CountColumn,
    MedianColumn,
    SpeedColumn,
    BeyondColumn,
    ColumnCount
};

QTableWidgetItem* item(const QString& text, bool number) {
    auto* it = new QTableWidgetItem(text);
    it->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    if (number)
        it->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return it;
}

} // namespace

ValidationGroups::ValidationGroups(QWidget* parent)
    : CollapsibleSection(tr("By GPU, style and precision"), parent), m_table(new QTableWidget(this)) {
    setObjectName(QStringLiteral("validationGroups"));
    m_table->setObjectName(QStringLiteral("validationGroupsTable"));
    m_table->setColumnCount(ColumnCount);
    m_table->setHorizontalHeaderLabels({tr("GPU"), tr("Style"), tr("Precision"), tr("Figures"),
                                        tr("Median error"), tr("Planned speed"), tr("Off by >20%")});
    m_table->horizontalHeaderItem(SpeedColumn)
        ->setToolTip(
            tr("Median of the planned speed over the measured one, minus 1 (iteration times inverted): +10% "
               "means the planner expected these runs to go 10% faster than they did."));
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionMode(QAbstractItemView::NoSelection);
    m_table->setFocusPolicy(Qt::NoFocus);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(false);
    m_table->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    m_table->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_table->setToolTip(tr("The throughput figures of the runs alike in what the planner's parameters depend "
                           "on (docs/estimation.md): how far, and which way, it was off on the published "
                           "runs most like your own."));
    setContent(m_table);
    hide();
}

void ValidationGroups::setGroups(const std::vector<core::GroupSummary>& groups) {
    setVisible(groups.size() > 1);
    m_table->setRowCount(static_cast<int>(groups.size()));
    for (std::size_t i = 0; i < groups.size(); ++i) {
        const core::GroupSummary& g = groups[i];
        const int row = static_cast<int>(i);
        m_table->setItem(row, GpuColumn, item(QString::fromStdString(g.gpu), false));
        m_table->setItem(row, StyleColumn, item(QString::fromStdString(g.style), false));
        m_table->setItem(row, PrecisionColumn, item(QString::fromStdString(g.precision), false));
        m_table->setItem(row, CountColumn, item(QString::number(g.count), true));
        QTableWidgetItem* median = item(qs(core::errorText(g.medianAbsError)), true);
        median->setForeground(ValidationModel::errorColor(g.medianAbsError));
        m_table->setItem(row, MedianColumn, median);
        QTableWidgetItem* speed = item(ValidationModel::formatError(g.medianSpeedError), true);
        speed->setForeground(ValidationModel::errorColor(g.medianSpeedError));
        m_table->setItem(row, SpeedColumn, speed);
        m_table->setItem(row, BeyondColumn, item(QString::number(g.beyond20), true));
    }
    // Tall enough for every group: the page scrolls, not the table.
    int height = m_table->horizontalHeader()->sizeHint().height() + 2 * m_table->frameWidth();
    for (int r = 0; r < m_table->rowCount(); ++r)
        height += m_table->rowHeight(r);
    // Room for the sideways scroll bar that a narrow page (presentation fonts) shows under the rows.
    m_table->setFixedHeight(height + m_table->horizontalScrollBar()->sizeHint().height());
    // As wide as its columns (a narrow page scrolls it sideways), not the page.
    m_table->resizeColumnsToContents();
    int width = 2 * m_table->frameWidth();
    for (int c = 0; c < m_table->columnCount(); ++c)
        width += m_table->columnWidth(c);
    m_table->setMaximumWidth(width);
    setSummary(qs(core::groupsSummary(groups)));
}

} // namespace lp::ui
