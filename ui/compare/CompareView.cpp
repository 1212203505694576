#include "ui/compare/CompareView.h"

#include "core/estimate/Evaluate.h"
#include "core/search/LayoutComparison.h"
#include "ui/charts/ChartLegend.h"
#include "ui/charts/ChartStyle.h"
#include "ui/document/ScenarioDocument.h"
#include "ui/widgets/Format.h"
#include "ui/widgets/Palette.h"
#include "ui/widgets/ScrollPage.h"

#include <QEvent>
#include <QFrame>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMainWindow>
#include <QPushButton>
#include <QResizeEvent>
#include <QScrollArea>
#include <QScrollBar>
#include <QStatusBar>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtCharts/QBarCategoryAxis>
#include <QtCharts/QBarSet>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QHorizontalStackedBarSeries>
#include <QtCharts/QLegend>
#include <QtCharts/QLegendMarker>
#include <QtCharts/QLineSeries>
#include <QtCharts/QStackedBarSeries>
#include <QtCharts/QValueAxis>

#include <algorithm>
#include <cmath>

namespace lp::ui {
CompareView::CompareView(ScenarioDocument* doc, QWidget* parent)
    : QWidget(parent), m_doc(doc), m_model(new CompareModel(this)) {
    setObjectName(QStringLiteral("compareView"));
    QLayout* header = buildHeader();
    m_message = new QLabel(this);
    m_message->setObjectName(QStringLiteral("compareMessage"));
    m_message->setWordWrap(true);
    m_message->hide();
    m_empty =
        new QLabel(tr("<h3>Nothing pinned yet</h3><p>Press <b>Pin current layout</b> to keep the planner's "
                      "layout here, change the layout, and pin again; or select a layout in <b>Explore</b> "
                      "and press <b>Pin</b>. Up to four layouts are compared side by side.</p>"),
                   this);
    m_empty->setObjectName(QStringLiteral("compareEmpty"));
    m_empty->setWordWrap(true);
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setMaximumWidth(560);

    // Content: cards, charts, table.
    m_content = new QWidget(this);
    m_cards.layout = new QGridLayout;
    m_cards.layout->setSpacing(8);
    m_memoryLegend = new ChartLegend(m_content);
    m_memoryLegend->setObjectName(QStringLiteral("compareMemoryLegend"));
    m_timeLegend = new ChartLegend(m_content);
    m_timeLegend->setObjectName(QStringLiteral("compareTimeLegend"));
    m_charts = new QBoxLayout(QBoxLayout::LeftToRight);
    m_charts->setSpacing(8);
    m_charts->addWidget(chartWithLegend(buildMemoryChart(), m_memoryLegend), 1);
    m_charts->addWidget(chartWithLegend(buildTimeChart(), m_timeLegend), 1);
    auto* contentLayout = new QVBoxLayout(m_content);
    contentLayout->setContentsMargins(0, 0, 0, 0);
    contentLayout->setSpacing(8);
    contentLayout->addLayout(m_cards.layout);
    contentLayout->addLayout(m_charts, 1);
    contentLayout->addWidget(buildTable());

    auto* layout = new QVBoxLayout(scrollingContent(this));
    layout->setContentsMargins(8, 8, 8, 8);
    layout->setSpacing(6);
    layout->addLayout(header);
    layout->addWidget(m_message);
    layout->addWidget(m_empty, 1, Qt::AlignCenter);
    layout->addWidget(m_content, 1);
    connect(m_doc, &ScenarioDocument::replaced, this, &CompareView::onDocumentReplaced);
    applyTheme();
}

// The title, how to read the highlights, and Pin current layout.
QLayout* CompareView::buildHeader() {
    auto* title = new QLabel(tr("Compare layouts"), this);
    QFont titleFont = title->font();
    titleFont.setBold(true);
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.1);
    title->setFont(titleFont);
    auto* hint = new QLabel(tr("Pin two to four layouts, from the planner or from Explore (Pin). Bold green: "
                               "best; red: worst (speed and cost among the layouts that fit); tinted: "
                               "differs from A."),
                            this);
    hint->setWordWrap(true);
    m_pinCurrent = new QPushButton(tr("Pin &current layout"), this);
    m_pinCurrent->setObjectName(QStringLiteral("comparePinCurrent"));
    m_pinCurrent->setToolTip(tr("Pin the planner's current layout for comparison (four at most)."));
    connect(m_pinCurrent, &QPushButton::clicked, this, [this] { pinCurrent(); });
    m_unpinAll = new QPushButton(tr("Unpin &all"), this);
    m_unpinAll->setObjectName(QStringLiteral("compareUnpinAll"));
    m_unpinAll->setToolTip(tr("Remove every pinned layout and start a new comparison."));
    connect(m_unpinAll, &QPushButton::clicked, this, &CompareView::clear);
    // The buttons beside the title, the hint under them: the hint wraps rather than pushing them out.
    auto* top = new QHBoxLayout;
    top->addWidget(title);
    top->addStretch(1);
    top->addWidget(m_unpinAll);
    top->addWidget(m_pinCurrent);
    auto* header = new QVBoxLayout;
    header->setSpacing(2);
    header->addLayout(top);
    header->addWidget(hint);
    return header;
}

void CompareView::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    arrangeForWidth();
    // Once the table's columns have their new widths, its rows wrap to them.
    QMetaObject::invokeMethod(this, &CompareView::fitTableHeight, Qt::QueuedConnection);
}

// Side by side where each chart has room for its axis labels and bars, else one above the other; the
// cards four to a row where each has room for its words, else two, or one with presentation's fonts.
void CompareView::arrangeForWidth() {
    // The page's width less its vertical scroll bar, which the taller arrangement may bring.
    const auto* scroll = findChild<QScrollArea*>(QStringLiteral("pageScroll"));
    const int available = width() - (scroll ? scroll->verticalScrollBar()->sizeHint().width() : 0);
    const int em = fontMetrics().averageCharWidth();
    const int sideBySide = m_memoryView->parentWidget()->minimumSizeHint().width() +
                           m_timeView->parentWidget()->minimumSizeHint().width() + m_charts->spacing();
    const auto direction = available >= std::max(sideBySide, 2 * 48 * em) + 16 ? QBoxLayout::LeftToRight
                                                                               : QBoxLayout::TopToBottom;
    if (m_charts->direction() != direction)
        m_charts->setDirection(direction);
    int widestCard = 32 * em;
    for (const QFrame* card : m_cards.frames)
        widestCard = std::max(widestCard, card->minimumSizeHint().width());
    const int spacing = m_cards.layout->spacing();
    const int perRow = available >= kMaxPinned * widestCard + (kMaxPinned - 1) * spacing ? kMaxPinned
                       : available >= 2 * 42 * em + spacing                              ? 2
                                                                                         : 1;
    if (perRow != m_cards.perRow) {
        m_cards.perRow = perRow;
        rebuildCards();
    }
}

// The worst stage's memory of each pinned layout as stacked bars, with its GPU's capacity.
QChartView* CompareView::buildMemoryChart() {
    m_memoryChart = new QChart;
    m_memoryView = new QChartView(m_memoryChart, m_content);
    m_memoryView->setObjectName(QStringLiteral("compareMemoryChart"));
    m_memoryView->setMinimumHeight(230);
    m_memorySeries = new QStackedBarSeries;
    for (core::MemoryComponent c : kMemoryComponents) {
        auto* set = new QBarSet(memoryName(c));
        m_memorySets[static_cast<std::size_t>(c)] = set;
        m_memorySeries->append(set);
    }
    m_memorySeries->setBarWidth(0.6);
    m_memoryChart->addSeries(m_memorySeries);
    m_memoryAxis = new QBarCategoryAxis;
    m_memoryValueAxis = new QValueAxis;
    m_memoryLineAxis = new QValueAxis;
    m_memoryChart->addAxis(m_memoryAxis, Qt::AlignBottom);
    m_memoryChart->addAxis(m_memoryValueAxis, Qt::AlignLeft);
    m_memoryChart->addAxis(m_memoryLineAxis, Qt::AlignTop);
    m_memoryLineAxis->setVisible(false);
    m_memorySeries->attachAxis(m_memoryAxis);
    m_memorySeries->attachAxis(m_memoryValueAxis);
    m_memoryValueAxis->setLabelFormat(QStringLiteral("%.0f"));
    m_memoryChart->setTitle(tr("Memory per GPU, worst stage"));
    m_memoryChart->legend()->hide(); // m_memoryLegend wraps where this one would cut its names
    return m_memoryView;
}

// Each pinned layout's step time by component, as horizontal stacked bars.
QChartView* CompareView::buildTimeChart() {
    m_timeChart = new QChart;
    m_timeView = new QChartView(m_timeChart, m_content);
    m_timeView->setObjectName(QStringLiteral("compareTimeChart"));
    m_timeView->setMinimumHeight(230);
    m_timeSeries = new QHorizontalStackedBarSeries;
    m_timeSeries->setBarWidth(0.6);
    m_timeChart->addSeries(m_timeSeries);
    m_timeAxis = new QBarCategoryAxis;
    m_timeValueAxis = new QValueAxis;
    m_timeChart->addAxis(m_timeAxis, Qt::AlignLeft);
    m_timeChart->addAxis(m_timeValueAxis, Qt::AlignBottom);
    m_timeSeries->attachAxis(m_timeAxis);
    m_timeSeries->attachAxis(m_timeValueAxis);
    m_timeValueAxis->setTitleText(tr("seconds per step"));
    m_timeChart->setTitle(tr("Step-time breakdown"));
    m_timeChart->legend()->hide(); // m_timeLegend wraps where this one would cut its names
    return m_timeView;
}

// A chart with its legend under it, in lines that wrap in a narrow window.
QWidget* CompareView::chartWithLegend(QChartView* view, ChartLegend* legend) {
    auto* column = new QWidget(m_content);
    auto* layout = new QVBoxLayout(column);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(view, 1);
    layout->addWidget(legend);
    view->setMinimumWidth(0);
    return column;
}

QTableView* CompareView::buildTable() {
    m_table = new QTableView(m_content);
    m_table->setObjectName(QStringLiteral("compareTable"));
    m_table->setModel(m_model);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionMode(QAbstractItemView::NoSelection);
    m_table->setFocusPolicy(Qt::NoFocus);
    m_table->setWordWrap(true);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->setCornerButtonEnabled(false);
    // Every row shows: the page scrolls down, and the row names stay beside their values.
    m_table->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_table->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    return m_table;
}

void CompareView::fitTableHeight() {
    m_table->resizeRowsToContents();
    int height = m_table->horizontalHeader()->sizeHint().height() + 2 * m_table->frameWidth();
    for (int row = 0; row < m_model->rowCount(); ++row)
        height += m_table->rowHeight(row);
    m_table->setFixedHeight(height);
}

void CompareView::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::StyleChange)
        applyTheme();
    if (event->type() == QEvent::FontChange) { // presentation mode: larger words, taller rows
        arrangeForWidth();
        QMetaObject::invokeMethod(this, &CompareView::fitTableHeight, Qt::QueuedConnection);
    }
}

void CompareView::applyTheme() {
    const QFont small = smallChartFont(font());
    const QFont titleFont = chartTitleFont(font());
    for (QChart* chart : {m_memoryChart, m_timeChart}) {
        applyChartTheme(chart, palette());
        chart->setTitleFont(titleFont);
    }
    m_memoryLegend->setFont(small);
    m_timeLegend->setFont(small);
    styleAxis(m_memoryAxis, palette(), small);
    styleAxis(m_memoryValueAxis, palette(), small);
    styleAxis(m_timeAxis, palette(), small);
    styleAxis(m_timeValueAxis, palette(), small);
    for (core::MemoryComponent c : kMemoryComponents) {
        QBarSet* set = m_memorySets[static_cast<std::size_t>(c)];
        set->setColor(palette::memory(c));
        set->setBorderColor(palette::memory(c).darker(115));
    }
    rebuild();
}

void CompareView::setUnit(MemoryUnit unit) {
    if (unit == m_unit)
        return;
    m_unit = unit;
    m_model->setUnit(unit);
    rebuild();
}

void CompareView::showMessage(const QString& text) {
    m_message->setText(text);
    m_message->setVisible(!text.isEmpty());
}

// The window's status bar says it too: pinning from another tab or with a keyboard shortcut shows there.
void CompareView::showStatus(const QString& text) {
    if (auto* mainWindow = qobject_cast<QMainWindow*>(window()))
        mainWindow->statusBar()->showMessage(text, 6000);
}

bool CompareView::pin(const core::Scenario& scenario, const QString& source) {
    if (pinnedCount() >= kMaxPinned) {
        showMessage(tr("Four layouts are pinned: unpin one first."));
        return false;
    }
    for (int i = 0; i < pinnedCount(); ++i) {
        if (m_pinned[static_cast<std::size_t>(i)].scenario == scenario) {
            showMessage(tr("This layout is already pinned as %1.").arg(CompareModel::letter(i)));
            return false;
        }
    }
    PinnedLayout p;
    p.scenario = scenario;
    p.plan = core::evaluate(scenario, m_doc->profile());
    p.source = source;
    if (!p.plan.valid) {
        showMessage(tr("This layout is invalid (see the diagnostics): fix it before pinning."));
        return false;
    }
    m_pinned.push_back(std::move(p));
    m_highlighted = pinnedCount() - 1;
    const QString pinned =
        tr("Pinned %1: %2.").arg(CompareModel::letter(m_highlighted), qs(core::pinLabel(scenario)));
    showMessage(pinnedCount() == 1 ? tr("%1 Pin at least one more layout to compare.").arg(pinned) : pinned);
    rebuild();
    showStatus(pinned);
    emit pinnedChanged();
    return true;
}

bool CompareView::pinCurrent() {
    return pin(m_doc->scenario(), tr("Planner"));
}

void CompareView::unpin(int index) {
    if (index < 0 || index >= pinnedCount())
        return;
    m_pinned.erase(m_pinned.begin() + index);
    m_highlighted = -1;
    showMessage(pinnedCount() == 1 ? tr("Pin at least one more layout to compare.") : QString());
    rebuild();
    emit pinnedChanged();
}

void CompareView::clear() {
    m_pinned.clear();
    m_highlighted = -1;
    showMessage({});
    rebuild();
    emit pinnedChanged();
}

// File > New or Open: the pins stay, each with its own model; say so when that is not the planner's.
void CompareView::onDocumentReplaced() {
    m_highlighted = -1;
    rebuildCards();
    showMessage(pinsOfOtherModelsText());
}

// "The planner now plans Llama-3-8B on 64 H100; A and B are of Llama-2-70B on 64 H100 (...)", or empty.
QString CompareView::pinsOfOtherModelsText() const {
    QStringList models; // each other model once, in pin order
    QList<QStringList> letters;
    for (int i = 0; i < pinnedCount(); ++i) {
        const core::Scenario& s = m_pinned[static_cast<std::size_t>(i)].scenario;
        if (core::sameModelAndCluster(s, m_doc->scenario()))
            continue;
        const QString model = qs(core::pinnedModelText(s));
        if (!models.contains(model)) {
            models << model;
            letters << QStringList();
        }
        letters[models.indexOf(model)] << CompareModel::letter(i);
    }
    if (models.isEmpty())
        return {};
    QStringList groups;
    for (qsizetype m = 0; m < models.size(); ++m)
        groups << tr("%1 %2 of %3")
                      .arg(letters[m].join(tr(" and ")), letters[m].size() == 1 ? tr("is") : tr("are"),
                           models[m]);
    return tr("The planner now plans %1; %2. The pins keep the model they were pinned with: Pin current "
              "layout adds this one beside them, Unpin all starts a new comparison.")
        .arg(qs(core::pinnedModelText(m_doc->scenario())), groups.join(QStringLiteral("; ")));
}

QAbstractButton* CompareView::unpinButton(int index) const {
    return index >= 0 && index < static_cast<int>(m_cards.unpinButtons.size())
               ? m_cards.unpinButtons[static_cast<std::size_t>(index)]
               : nullptr;
}

QFrame* CompareView::card(int index) const {
    return index >= 0 && index < static_cast<int>(m_cards.frames.size())
               ? m_cards.frames[static_cast<std::size_t>(index)]
               : nullptr;
}

QStringList CompareView::memoryCategories() const {
    return m_memoryAxis->categories();
}

QStringList CompareView::timeCategories() const {
    return m_timeAxis->categories();
}

void CompareView::rebuild() {
    const bool any = !m_pinned.empty();
    m_empty->setVisible(!any);
    m_content->setVisible(any);
    m_pinCurrent->setEnabled(pinnedCount() < kMaxPinned);
    m_unpinAll->setEnabled(any);
    m_model->setPinned(m_pinned);
    rebuildCards();
    rebuildMemory();
    rebuildTime();
    fitTableHeight();
}

void CompareView::rebuildCards() {
    // deleteLater: an Unpin button may be the sender that got us here.
    while (QLayoutItem* item = m_cards.layout->takeAt(0))
        delete item;
    for (QWidget* card : m_cards.frames) {
        card->hide();
        card->deleteLater();
    }
    m_cards.frames.clear();
    m_cards.unpinButtons.clear();
    for (int i = 0; i < pinnedCount(); ++i) {
        QFrame* card = buildCard(i);
        m_cards.layout->addWidget(card, i / m_cards.perRow, i % m_cards.perRow);
        m_cards.frames.push_back(card);
        m_cards.unpinButtons.push_back(card->findChild<QAbstractButton*>());
    }
    for (int column = 0; column < kMaxPinned; ++column)
        m_cards.layout->setColumnStretch(column, column < m_cards.perRow ? 1 : 0);
}

// A pin's card: its letter, the model and cluster it is of, its layout, where it came from, and Unpin.
// The newest pin's card is framed in the highlight colour.
QFrame* CompareView::buildCard(int index) {
    const PinnedLayout& p = m_pinned[static_cast<std::size_t>(index)];
    auto* card = new QFrame(m_content);
    card->setObjectName(QStringLiteral("compareCard%1").arg(index));
    card->setFrameShape(QFrame::StyledPanel);
    if (index == m_highlighted)
        card->setStyleSheet(QStringLiteral("QFrame#%1 { border: 2px solid %2; border-radius: 3px; }")
                                .arg(card->objectName(), palette().color(QPalette::Highlight).name()));
    auto* letter = new QLabel(CompareModel::letter(index), card);
    QFont big = letter->font();
    big.setBold(true);
    big.setPointSizeF(big.pointSizeF() * 1.5);
    letter->setFont(big);
    auto* title = new QLabel(qs(core::pinnedModelText(p.scenario)), card);
    title->setObjectName(QStringLiteral("compareCardTitle%1").arg(index));
    title->setTextFormat(Qt::PlainText);
    title->setWordWrap(true);
    QFont bold = title->font();
    bold.setBold(true);
    title->setFont(bold);
    auto* text = new QLabel(card);
    text->setTextFormat(Qt::PlainText);
    text->setWordWrap(true);
    text->setText(qs(core::pinSummary(p.scenario)) + QLatin1Char('\n') + tr("from %1").arg(p.source));
    card->setToolTip(
        tr("%1\nScenario: %2").arg(qs(core::pinLabel(p.scenario)), qs(core::scenarioName(p.scenario))));
    auto* unpinButton = new QToolButton(card);
    unpinButton->setObjectName(QStringLiteral("compareUnpin%1").arg(index));
    unpinButton->setText(tr("Unpin"));
    unpinButton->setToolTip(tr("Remove %1 from the comparison.").arg(CompareModel::letter(index)));
    connect(unpinButton, &QToolButton::clicked, this, [this, index] { unpin(index); });
    auto* words = new QVBoxLayout;
    words->setSpacing(2);
    words->addWidget(title);
    words->addWidget(text);
    auto* row = new QHBoxLayout(card);
    row->setContentsMargins(8, 4, 4, 4);
    row->setSpacing(8);
    row->addWidget(letter, 0, Qt::AlignTop);
    row->addLayout(words, 1);
    row->addWidget(unpinButton, 0, Qt::AlignTop);
    return card;
}

void CompareView::rebuildMemory() {
    const double unit = bytesPerUnit(m_unit);
    const int n = pinnedCount();
    QStringList categories;
    double top = 0;
    for (int i = 0; i < n; ++i) {
        const core::Plan& plan = m_pinned[static_cast<std::size_t>(i)].plan;
        // Two lines, the unit in the axis title ("A", "48.7"): four pins' "A: 48.7 GiB" were cut to
        // "A: 48...".
        categories << tr("%1<br>%2")
                          .arg(CompareModel::letter(i),
                               formatNumber(plan.memory.worstTotalBytes() / unit, 1));
        top = std::max({top, plan.memory.worstTotalBytes() / unit, plan.memory.capacityBytes / unit});
    }
    for (core::MemoryComponent c : kMemoryComponents) {
        QBarSet* set = m_memorySets[static_cast<std::size_t>(c)];
        if (set->count() > 0)
            set->remove(0, set->count());
        for (const PinnedLayout& p : m_pinned) {
            const core::StageMemory* w = p.plan.memory.worst();
            set->append(w ? memoryBytes(*w, c) / unit : 0.0);
        }
    }
    m_memoryAxis->clear();
    m_memoryAxis->append(categories);
    m_memoryLineAxis->setRange(-0.5, std::max(0.5, n - 0.5));
    const double axisTop = roundAxisCeiling(top * 1.08);
    m_memoryValueAxis->setRange(0, axisTop);
    setRoundTicks(m_memoryValueAxis, 6);
    m_memoryValueAxis->setTitleText(tr("GPU memory (%1)").arg(unitName(m_unit)));

    // One capacity segment per layout (pins may come from different GPUs).
    for (QLineSeries* s : m_capacityLines) {
        m_memoryChart->removeSeries(s);
        delete s;
    }
    m_capacityLines.clear();
    for (int i = 0; i < n; ++i) {
        const core::Plan& plan = m_pinned[static_cast<std::size_t>(i)].plan;
        auto* line = new QLineSeries;
        const double cap = plan.memory.capacityBytes / unit;
        line->append(i - 0.42, cap);
        line->append(i + 0.42, cap);
        line->setPen(capacityPen(plan.memory.fits ? palette().color(QPalette::Text) : palette::error(),
                                 plan.memory.fits ? 1.5 : 2.5));
        line->setName(tr("Usable capacity"));
        m_memoryChart->addSeries(line);
        line->attachAxis(m_memoryLineAxis);
        line->attachAxis(m_memoryValueAxis);
        m_capacityLines.push_back(line);
    }
    int entry = 0;
    for (core::MemoryComponent c : kMemoryComponents)
        m_memoryLegend->setEntry(entry++, palette::memory(c), memoryName(c), {});
    m_memoryLegend->setEntry(entry, palette().color(QPalette::Text), tr("Usable capacity"), {},
                             ChartLegend::Mark::DashedLine);
}

void CompareView::rebuildTime() {
    const int n = pinnedCount();
    m_timeSeries->clear(); // deletes the sets
    m_timeSets.clear();
    // Horizontal bars list categories bottom-up: append D..A so that A is on top.
    QStringList categories;
    double top = 0;
    for (int i = n - 1; i >= 0; --i) {
        const core::Plan& plan = m_pinned[static_cast<std::size_t>(i)].plan;
        categories << tr("%1: %2").arg(CompareModel::letter(i), formatSeconds(plan.time.stepSeconds));
        double sum = 0;
        for (int c = 0; c < kTimeComponentCount; ++c)
            sum += timeSeconds(plan.time, static_cast<TimeComponent>(c));
        top = std::max({top, sum, plan.time.stepSeconds});
    }
    for (int c = 0; c < kTimeComponentCount; ++c) {
        const auto component = static_cast<TimeComponent>(c);
        bool shown = false;
        for (const PinnedLayout& p : m_pinned)
            shown = shown || timeSeconds(p.plan.time, component) > 0;
        if (!shown)
            continue;
        auto* set = new QBarSet(timeName(component));
        set->setColor(palette::time(component));
        set->setBorderColor(palette::time(component).darker(115));
        for (int i = n - 1; i >= 0; --i)
            set->append(timeSeconds(m_pinned[static_cast<std::size_t>(i)].plan.time, component));
        m_timeSeries->append(set);
        m_timeLegend->setEntry(static_cast<int>(m_timeSets.size()), palette::time(component),
                               timeName(component), {});
        m_timeSets.push_back(set);
    }
    m_timeLegend->truncate(static_cast<int>(m_timeSets.size()));
    m_timeAxis->clear();
    m_timeAxis->append(categories);
    m_timeValueAxis->setRange(0, roundAxisCeiling(top * 1.05));
    setRoundTicks(m_timeValueAxis, 5);
}

} // namespace lp::ui
