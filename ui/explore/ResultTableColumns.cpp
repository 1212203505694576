#include "ui/explore/ResultTableColumns.h"

#include <QAction>
#include <QEvent>
#include <QHeaderView>
#include <QMenu>
#include <QSettings>
#include <QStringList>
#include <QStyledItemDelegate>
#include <QTableView>

#include <algorithm>

namespace lp::ui {
namespace {

const QString kShownKey = QStringLiteral("explore/shownColumns");
const QString kHiddenKey = QStringLiteral("explore/hiddenColumns");

// Default columns left out, in this order, where the table is too narrow for them all (presentation mode,
// a small window): the ones the others imply first. A person's choice is never left out. The first two (the
// Pareto mark, which the chart, the filter and the row's tool tip also show, and the free memory, which the
// memory column implies) make room for the layout's words to be read whole on two lines; the others only
// where the layout would not even show its first parallelism.
constexpr int kLeftOutWhenNarrow[] = {SearchResultModel::Front,           SearchResultModel::Headroom,
                                      SearchResultModel::GpuHours,        SearchResultModel::GlobalBatch,
                                      SearchResultModel::TokensPerSecond, SearchResultModel::Memory};
constexpr std::size_t kLeftOutForReading = 2;

// The rows whose layout text is measured to choose one line or two: the first screens' worth is what shows.
constexpr int kMeasuredRows = 200;

// The layout in words, breakable only between its parts ("TP 4 ·" | "PP 2 ·" | "mb 1 × 8 ·" ...): where
// the column is narrow it takes a second line instead of losing its end ("selective recompute") to an
// ellipsis. Only the shown text; the model's (copied, exported) keeps its plain spaces.
class LayoutDelegate : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    QString displayText(const QVariant& value, const QLocale& locale) const override {
        QStringList parts = QStyledItemDelegate::displayText(value, locale).split(QStringLiteral(" \u00b7 "));
        for (QString& part : parts)
            part.replace(QLatin1Char(' '), QChar(0x00a0));
        return parts.join(QStringLiteral("\u00a0\u00b7 "));
    }
};

} // namespace

ResultTableColumns::ResultTableColumns(QTableView* table, QObject* parent) : QObject(parent), m_table(table) {
    QHeaderView* header = m_table->horizontalHeader();
    header->setSectionResizeMode(QHeaderView::Interactive);
    header->setStretchLastSection(false); // fit() stretches the last shown column, whichever it is
    m_table->setHorizontalScrollMode(QAbstractItemView::ScrollPerPixel);
    m_table->setTextElideMode(Qt::ElideRight);
    m_table->setItemDelegateForColumn(SearchResultModel::Layout, new LayoutDelegate(m_table));
    buildMenu();
    header->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(header, &QWidget::customContextMenuRequested, this,
            [this, header](const QPoint& at) { m_menu->popup(header->viewport()->mapToGlobal(at)); });
    m_table->viewport()->installEventFilter(this);
    load();
    fit();
}

bool ResultTableColumns::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_table->viewport() && event->type() == QEvent::Resize && !m_fitting)
        fit();
    return QObject::eventFilter(watched, event);
}

bool ResultTableColumns::shownByDefault(int column, const Context& context) {
    switch (column) {
    case SearchResultModel::Rank:
    case SearchResultModel::Front:
    case SearchResultModel::StepTime:
    case SearchResultModel::Mfu:
    case SearchResultModel::TokensPerSecond:
    case SearchResultModel::Memory:
    case SearchResultModel::Headroom:
    case SearchResultModel::Layout:
        return true;
    case SearchResultModel::GlobalBatch:
        return context.severalBatches;
    // GPU-hours follow step time for a fixed batch: shown when ranking by cost.
    case SearchResultModel::GpuHours:
        return context.rankBy == core::RankBy::Cost;
    default:
        return false; // the layout's axes: in the layout's words already
    }
}

void ResultTableColumns::buildMenu() {
    m_menu = new QMenu(m_table);
    m_menu->setObjectName(QStringLiteral("exploreColumnsMenu"));
    m_menu->setToolTipsVisible(true);
    for (int column = 0; column < SearchResultModel::ColumnCount; ++column) {
        QAction* action = m_menu->addAction(SearchResultModel::columnTitle(column));
        action->setObjectName(QStringLiteral("exploreColumn_") + SearchResultModel::columnKey(column));
        action->setToolTip(SearchResultModel::columnName(column));
        action->setCheckable(true);
        connect(action, &QAction::triggered, this, [this, column](bool on) { setShown(column, on); });
        m_actions[static_cast<std::size_t>(column)] = action;
        // The figures, then the layout's axes, then the layout in words.
        if (column == SearchResultModel::Headroom || column == SearchResultModel::SequenceParallel)
            m_menu->addSeparator();
    }
    m_menu->addSeparator();
    QAction* all = m_menu->addAction(tr("Show all columns"));
    all->setObjectName(QStringLiteral("exploreColumnsAll"));
    connect(all, &QAction::triggered, this, &ResultTableColumns::showAll);
    QAction* defaults = m_menu->addAction(tr("Default columns"));
    defaults->setObjectName(QStringLiteral("exploreColumnsDefault"));
    defaults->setToolTip(tr("The figures a search is judged by and the layout in words: they fit a laptop's "
                            "window."));
    connect(defaults, &QAction::triggered, this, &ResultTableColumns::restoreDefaults);
}

void ResultTableColumns::setContext(const Context& context) {
    m_context = context;
    fit();
}

bool ResultTableColumns::isShown(int column) const {
    if (column < 0 || column >= SearchResultModel::ColumnCount)
        return false;
    return m_choice[static_cast<std::size_t>(column)].value_or(shownByDefault(column, m_context));
}

int ResultTableColumns::shownCount() const {
    int count = 0;
    for (int column = 0; column < SearchResultModel::ColumnCount; ++column)
        count += isShown(column) ? 1 : 0;
    return count;
}

void ResultTableColumns::setShown(int column, bool shown) {
    if (column < 0 || column >= SearchResultModel::ColumnCount)
        return;
    if (!shown && isShown(column) && shownCount() == 1) {
        fit(); // the menu's tick back on
        return;
    }
    m_choice[static_cast<std::size_t>(column)] = shown;
    save();
    fit();
}

void ResultTableColumns::showAll() {
    m_choice.fill(true);
    save();
    fit();
}

void ResultTableColumns::restoreDefaults() {
    m_choice.fill(std::nullopt);
    save();
    fit();
}

// The menu ticks what the table shows (a default column left out where narrow is unticked).
void ResultTableColumns::refreshMenu() {
    int shown = 0;
    for (int column = 0; column < SearchResultModel::ColumnCount; ++column)
        shown += m_table->isColumnHidden(column) ? 0 : 1;
    for (int column = 0; column < SearchResultModel::ColumnCount; ++column) {
        QAction* action = m_actions[static_cast<std::size_t>(column)];
        action->setChecked(!m_table->isColumnHidden(column));
        action->setEnabled(!(action->isChecked() && shown == 1));
    }
}

void ResultTableColumns::fit() {
    m_fitting = true;
    for (int column = 0; column < SearchResultModel::ColumnCount; ++column)
        m_table->setColumnHidden(column, !isShown(column));
    resizeToContents();
    // Where the shown columns leave the layout too little room, leave out default ones (once the table has a
    // width of its own: shown): for the layout read whole on two lines, the ones the others imply; for it to
    // begin at all ("TP 8 · PP…"), the rest.
    const int begins = m_table->fontMetrics().horizontalAdvance(QStringLiteral("TP 8 · PP…"));
    const int readable = std::max(begins, widestLayoutText() / 2 + cellMargins());
    int width = 0;
    for (int column = 0; column < SearchResultModel::ColumnCount; ++column)
        if (!m_table->isColumnHidden(column) && column != SearchResultModel::Layout)
            width += m_table->columnWidth(column);
    for (std::size_t i = 0; i < std::size(kLeftOutWhenNarrow); ++i) {
        const int column = kLeftOutWhenNarrow[i];
        const int room = i < kLeftOutForReading ? readable : begins;
        if (!m_table->isVisible() || width + room <= m_table->viewport()->width())
            continue;
        if (m_table->isColumnHidden(column) || m_choice[static_cast<std::size_t>(column)])
            continue;
        width -= m_table->columnWidth(column);
        m_table->setColumnHidden(column, true);
    }
    resizeToContents();
    fitLayoutLines();
    refreshMenu();
    m_fitting = false;
}

// The widest layout text of the first rows (what shows), in the table's font.
int ResultTableColumns::widestLayoutText() const {
    const QAbstractItemModel* model = m_table->model();
    if (!model)
        return 0;
    const QFontMetrics metrics = m_table->fontMetrics();
    int widest = 0;
    const int rows = std::min(model->rowCount(), kMeasuredRows);
    for (int row = 0; row < rows; ++row)
        widest = std::max(widest, metrics.horizontalAdvance(
                                      model->index(row, SearchResultModel::Layout).data().toString()));
    return widest;
}

// A cell's text margins: the style's focus frame on each side, and a little more.
int ResultTableColumns::cellMargins() const {
    return 3 * m_table->fontMetrics().averageCharWidth();
}

// One line per row where the layout's words fit their column, two where they do not (its parts wrap, the rest
// elides at the end of the second line).
void ResultTableColumns::fitLayoutLines() {
    const bool twoLines =
        !m_table->isColumnHidden(SearchResultModel::Layout) &&
        widestLayoutText() + cellMargins() > m_table->columnWidth(SearchResultModel::Layout);
    const int lines = twoLines ? 2 : 1;
    m_table->setWordWrap(twoLines);
    m_table->verticalHeader()->setDefaultSectionSize(lines * m_table->fontMetrics().height() + 6);
    if (lines != m_lines) {
        m_lines = lines;
        emit layoutLinesChanged(lines);
    }
}

void ResultTableColumns::resizeToContents() {
    QHeaderView* header = m_table->horizontalHeader();
    int last = -1;
    for (int visual = header->count() - 1; visual >= 0 && last < 0; --visual)
        if (!header->isSectionHidden(header->logicalIndex(visual)))
            last = header->logicalIndex(visual);
    for (int column = 0; column < header->count(); ++column) {
        header->setSectionResizeMode(column,
                                     column == last ? QHeaderView::Stretch : QHeaderView::Interactive);
        if (column != last && !header->isSectionHidden(column))
            m_table->resizeColumnToContents(column);
    }
}

void ResultTableColumns::load() {
    QSettings settings;
    const QStringList shown = settings.value(kShownKey).toStringList();
    const QStringList hidden = settings.value(kHiddenKey).toStringList();
    for (int column = 0; column < SearchResultModel::ColumnCount; ++column) {
        const QString key = SearchResultModel::columnKey(column);
        if (shown.contains(key))
            m_choice[static_cast<std::size_t>(column)] = true;
        else if (hidden.contains(key))
            m_choice[static_cast<std::size_t>(column)] = false;
    }
    if (shownCount() == 0) // a stored choice that hides everything: the defaults instead
        m_choice.fill(std::nullopt);
}

void ResultTableColumns::save() const {
    QStringList shown;
    QStringList hidden;
    for (int column = 0; column < SearchResultModel::ColumnCount; ++column)
        if (const std::optional<bool> choice = m_choice[static_cast<std::size_t>(column)])
            (*choice ? shown : hidden) << SearchResultModel::columnKey(column);
    QSettings settings;
    if (shown.isEmpty() && hidden.isEmpty()) {
        settings.remove(kShownKey);
        settings.remove(kHiddenKey);
        return;
    }
    settings.setValue(kShownKey, shown);
    settings.setValue(kHiddenKey, hidden);
}

} // namespace lp::ui
