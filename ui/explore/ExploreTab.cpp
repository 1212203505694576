#include "ui/explore/ExploreTab.h"

#include "core/search/SearchText.h"
#include "ui/charts/ChartStyle.h"
#include "ui/document/ScenarioDocument.h"
#include "ui/explore/ParetoChart.h"
#include "ui/explore/ResultTableColumns.h"
#include "ui/explore/SearchFilterProxy.h"
#include "ui/explore/SearchResultModel.h"
#include "ui/widgets/FlowLayout.h"
#include "ui/widgets/Palette.h"
#include "ui/widgets/ScrollPage.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollBar>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QThread>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <optional>

namespace lp::ui {

struct ExploreTab::Job {
    core::Scenario scenario;
    core::HardwareProfile profile;
    core::SearchResult result;
};

namespace {

void setLabelColour(QLabel* label, const QColor& colour) {
    QPalette pal = label->palette();
    pal.setColor(QPalette::WindowText, colour);
    label->setPalette(pal);
}

} // namespace

ExploreTab::ExploreTab(ScenarioDocument* doc, QWidget* parent)
    : QWidget(parent), m_doc(doc), m_model(new SearchResultModel(this)),
      m_proxy(new SearchFilterProxy(this)) {
    setObjectName(QStringLiteral("exploreTab"));
    m_proxy->setSourceModel(m_model);
    buildControls();

    connect(m_doc, &ScenarioDocument::scenarioChanged, this, [this] {
        refreshBatchDefault();
        refreshStale();
        refreshCurrent();
        if (!m_hasResult) {
            // Counting the layouts takes milliseconds on large clusters: not on every slider step unseen.
            if (isVisible())
                refreshStatus();
            else
                m_statusDirty = true;
        }
    });
    connect(m_doc, &ScenarioDocument::planChanged, this, &ExploreTab::refreshCurrent);
    connect(m_doc, &ScenarioDocument::profileChanged, this, &ExploreTab::refreshStale);

    applyTheme();
    refreshBatchDefault();
    refreshStatus();
    refreshCurrent();
    updateFilter();
    updateColumns();
    updateButtons();
}

ExploreTab::~ExploreTab() {
    if (m_thread) {
        m_cancelFlag->store(true);
        m_thread->wait();
        delete m_thread;
        m_thread = nullptr;
    }
}

void ExploreTab::buildControls() {
    QLayout* settings = buildSettings();
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("exploreStatus"));
    m_status->setWordWrap(true);
    m_status->setTextFormat(Qt::PlainText);
    m_staleNote = new QLabel(this);
    m_staleNote->setObjectName(QStringLiteral("exploreStale"));
    m_staleNote->setWordWrap(true);
    m_staleNote->setText(
        tr("The scenario has changed since this search (model, cluster, training options or hardware "
           "profile): the results are for the earlier scenario. Search again."));
    m_staleNote->hide();

    // The filters wrap in a narrow window: above the splitter, whose panes would not grow for the lines.
    QLayout* filters = buildFilters();
    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->setObjectName(QStringLiteral("exploreSplitter"));
    splitter->setChildrenCollapsible(false);
    splitter->addWidget(buildTable());
    splitter->addWidget(buildChartPanel());
    splitter->setStretchFactor(0, 5);
    splitter->setStretchFactor(1, 4);

    auto* layout = new QVBoxLayout(scrollingContent(this));
    layout->setContentsMargins(8, 8, 8, 8);
    layout->setSpacing(6);
    layout->addLayout(settings);
    layout->addWidget(m_status);
    layout->addWidget(m_staleNote);
    layout->addLayout(filters);
    layout->addWidget(splitter, 1);
}

// What to search: the ranking, the global batch (or a range), how many to list, and Search / Cancel.
QLayout* ExploreTab::buildSettings() {
    m_settings.rank = new QComboBox(this);
    m_settings.rank->setObjectName(QStringLiteral("exploreRank"));
    for (core::RankBy by : core::kRankings) {
        QString name = qs(core::rankByName(by));
        name[0] = name[0].toUpper();
        m_settings.rank->addItem(name, static_cast<int>(by));
    }
    m_settings.rank->setToolTip(
        tr("What \"best\" means: the shortest step (per sequence), the highest MFU, the fewest GPU-hours for "
           "the token budget, the most free memory on the worst stage, the lowest price of the run or the "
           "fewest "
           "wall-clock days (failures and checkpoints included; the Run settings)."));
    m_settings.batch.size = new QSpinBox(this);
    m_settings.batch.size->setObjectName(QStringLiteral("exploreBatch"));
    m_settings.batch.size->setRange(1, 10'000'000);
    m_settings.batch.size->setGroupSeparatorShown(true);
    m_settings.batch.size->setToolTip(
        tr("Global batch in sequences per optimizer step. Follows the planner's effective "
           "batch until you change it."));
    m_settings.batch.range = new QCheckBox(tr("to"), this);
    m_settings.batch.range->setObjectName(QStringLiteral("exploreRange"));
    m_settings.batch.range->setToolTip(
        tr("Search a range of global batches: every accumulation whose batch lies in the range."));
    m_settings.batch.max = new QSpinBox(this);
    m_settings.batch.max->setObjectName(QStringLiteral("exploreBatchMax"));
    m_settings.batch.max->setRange(1, 10'000'000);
    m_settings.batch.max->setGroupSeparatorShown(true);
    m_settings.batch.max->setEnabled(false);
    m_settings.top = new QSpinBox(this);
    m_settings.top->setObjectName(QStringLiteral("exploreTop"));
    m_settings.top->setRange(5, 1000);
    m_settings.top->setValue(50);
    m_settings.top->setToolTip(
        tr("How many of the best layouts to list (the Pareto front is always listed too)."));
    m_settings.run = new QPushButton(tr("&Search"), this);
    m_settings.run->setObjectName(QStringLiteral("exploreSearch"));
    m_settings.run->setToolTip(tr("Try every layout of this scenario's GPUs and rank the ones that fit."));
    m_settings.run->setDefault(true);
    m_settings.cancel = new QPushButton(tr("Cancel"), this);
    m_settings.cancel->setObjectName(QStringLiteral("exploreCancel"));
    m_settings.cancel->setToolTip(tr("Stop the search; the layouts tried so far are kept."));
    m_settings.progress = new QProgressBar(this);
    m_settings.progress->setObjectName(QStringLiteral("exploreProgress"));
    m_settings.progress->setRange(0, 1000);
    m_settings.progress->setValue(0);
    m_settings.progress->setFormat(QStringLiteral("%p%"));
    m_settings.progress->setFixedWidth(140);
    connectSettings();

    // Wraps onto a second line in a narrow window; the search buttons keep to the right.
    auto* settings = new FlowLayout(nullptr, 16, 4);
    settings->addWidget(controlGroup(this, {new QLabel(tr("Rank by"), this), m_settings.rank}));
    settings->addWidget(controlGroup(this, {new QLabel(tr("Global batch"), this), m_settings.batch.size,
                                            m_settings.batch.range, m_settings.batch.max}));
    settings->addWidget(controlGroup(this, {new QLabel(tr("Top"), this), m_settings.top}));
    QWidget* searchButtons = controlGroup(this, {m_settings.progress, m_settings.cancel, m_settings.run});
    settings->addWidget(searchButtons);
    settings->setPushRight(searchButtons);
    return settings;
}

void ExploreTab::connectSettings() {
    connect(m_settings.rank, &QComboBox::currentIndexChanged, this, [this] {
        if (m_hasResult || isRunning())
            startSearch(); // a new ranking is a new top N: cheap, so just search again
    });
    connect(m_settings.batch.size, &QSpinBox::valueChanged, this, [this](int v) {
        if (!m_settings.batch.settingDefault)
            m_settings.batch.touched = v != m_doc->scenario().layout.effectiveBatch();
        if (m_settings.batch.max->value() < v)
            m_settings.batch.max->setValue(v);
    });
    connect(m_settings.batch.range, &QCheckBox::toggled, m_settings.batch.max, &QWidget::setEnabled);
    connect(m_settings.run, &QPushButton::clicked, this, &ExploreTab::startSearch);
    connect(m_settings.cancel, &QPushButton::clicked, this, &ExploreTab::cancelSearch);
}

// The filters over the table, Apply and Pin.
QLayout* ExploreTab::buildFilters() {
    m_filterRow.text = new QLineEdit(this);
    m_filterRow.text->setObjectName(QStringLiteral("exploreFilter"));
    m_filterRow.text->setClearButtonEnabled(true);
    m_filterRow.text->setPlaceholderText(tr("Filter: tp=8 pp<=4 full"));
    m_filterRow.text->setToolTip(
        tr("Conditions that must all hold: tp, pp, dp, cp, ep, v, mb, acc, batch, zero or "
           "rank with =, !=, <, >, <=, >=; none, selective, full or block (recompute); sp "
           "or nosp; pareto; current. Other words match the layout's description."));
    m_filterRow.text->setMinimumWidth(220);
    m_filterRow.headroom.check = new QCheckBox(tr("Free ≥"), this);
    m_filterRow.headroom.check->setObjectName(QStringLiteral("exploreHeadroomCheck"));
    m_filterRow.headroom.check->setToolTip(
        tr("Only layouts that leave at least this much free memory on the worst stage."));
    m_filterRow.headroom.amount = new QDoubleSpinBox(this);
    m_filterRow.headroom.amount->setObjectName(QStringLiteral("exploreHeadroom"));
    m_filterRow.headroom.amount->setRange(0, 1000);
    m_filterRow.headroom.amount->setDecimals(0);
    m_filterRow.headroom.amount->setValue(8);
    m_filterRow.tpNode = new QCheckBox(this);
    m_filterRow.tpNode->setObjectName(QStringLiteral("exploreTpNode"));
    m_filterRow.tpNode->setToolTip(
        tr("Only layouts whose tensor-parallel group stays inside one NVLink domain."));
    m_filterRow.paretoOnly = new QCheckBox(tr("Pareto front only"), this);
    m_filterRow.paretoOnly->setObjectName(QStringLiteral("exploreParetoOnly"));
    m_filterRow.paretoOnly->setToolTip(
        tr("Only layouts that no other layout beats in both throughput and free memory."));
    m_filterRow.shown = new QLabel(this);
    m_filterRow.shown->setObjectName(QStringLiteral("exploreShown"));
    m_apply = new QPushButton(tr("&Apply"), this);
    m_apply->setObjectName(QStringLiteral("exploreApply"));
    m_apply->setToolTip(
        tr("Apply the selected layout to the planner (also: double-click a row or a point)."));
    m_pin = new QPushButton(tr("&Pin"), this);
    m_pin->setObjectName(QStringLiteral("explorePin"));
    m_pin->setToolTip(tr("Pin the selected layout to the Compare tab."));
    m_columnsButton = new QToolButton(this);
    m_columnsButton->setObjectName(QStringLiteral("exploreColumns"));
    m_columnsButton->setText(tr("Columns"));
    m_columnsButton->setToolTip(tr("Choose the table's columns (also: right-click a heading)."));
    m_columnsButton->setPopupMode(QToolButton::InstantPopup);
    for (QCheckBox* check : {m_filterRow.headroom.check, m_filterRow.tpNode, m_filterRow.paretoOnly})
        connect(check, &QCheckBox::toggled, this, &ExploreTab::updateFilter);
    connect(m_filterRow.text, &QLineEdit::textChanged, this, &ExploreTab::updateFilter);
    connect(m_filterRow.headroom.amount, &QDoubleSpinBox::valueChanged, this, &ExploreTab::updateFilter);
    connect(m_apply, &QPushButton::clicked, this, [this] { applyRow(m_selected); });
    connect(m_pin, &QPushButton::clicked, this, [this] { pinRow(m_selected); });

    auto* filters = new FlowLayout(nullptr, 12, 4);
    filters->addWidget(m_filterRow.text);
    filters->addWidget(controlGroup(this, {m_filterRow.headroom.check, m_filterRow.headroom.amount}));
    filters->addWidget(m_filterRow.tpNode);
    filters->addWidget(m_filterRow.paretoOnly);
    filters->addWidget(m_filterRow.shown);
    QWidget* rowButtons = controlGroup(this, {m_columnsButton, m_apply, m_pin});
    filters->addWidget(rowButtons);
    filters->setPushRight(rowButtons);
    filters->setStretchItem(m_filterRow.text);
    return filters;
}

// The ranked table: a row selects the layout, a double-click applies it.
QTableView* ExploreTab::buildTable() {
    m_table = new QTableView(this);
    m_table->setObjectName(QStringLiteral("exploreTable"));
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(SearchResultModel::Rank, Qt::AscendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setAlternatingRowColors(true);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setHighlightSections(false);
    m_table->setWordWrap(false);
    m_table->setCornerButtonEnabled(false);
    m_columns = new ResultTableColumns(m_table, this);
    m_columnsButton->setMenu(m_columns->menu());
    connect(m_columns, &ResultTableColumns::layoutLinesChanged, this, &ExploreTab::fitTableHeight);
    connect(m_proxy, &QAbstractItemModel::modelReset, this, &ExploreTab::updateFilter);
    connect(m_proxy, &QAbstractItemModel::layoutChanged, this, &ExploreTab::refreshSelection);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                if (!current.isValid())
                    return;
                const int row = m_proxy->mapToSource(current).row();
                if (row == m_selected)
                    return;
                m_selected = row;
                refreshSelection();
                updateButtons();
            });
    connect(m_table, &QTableView::doubleClicked, this,
            [this](const QModelIndex& index) { applyRow(m_proxy->mapToSource(index).row()); });

    fitTableToFont();
    return m_table;
}

// Rows as tall as the font, eight of them at the least (the page scrolls down to the chart rather than
// squeezing the ranking), and columns as wide as their contents: again when presentation mode enlarges it.
void ExploreTab::fitTableToFont() {
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    if (m_hasResult)
        m_columns->fit();
    fitTableHeight();
}

// Eight rows at the least, of one line or of two where the layout's words wrap.
void ExploreTab::fitTableHeight() {
    const int rowHeight = m_columns->layoutLines() * m_table->fontMetrics().height() + 6;
    m_table->setMinimumHeight(8 * rowHeight + 2 * m_table->fontMetrics().height() + 12 +
                              m_table->horizontalScrollBar()->sizeHint().height());
}

QWidget* ExploreTab::buildChartPanel() {
    auto* chartTitle = new QLabel(tr("Memory of the worst stage against MFU"), this);
    QFont titleFont = chartTitle->font();
    titleFont.setBold(true);
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.1);
    chartTitle->setFont(titleFont);
    m_chart = new ParetoChart(this);
    connect(m_chart, &ParetoChart::rowClicked, this, &ExploreTab::selectRow);
    connect(m_chart, &ParetoChart::rowDoubleClicked, this, &ExploreTab::applyRow);
    auto* chartPanel = new QWidget(this);
    auto* chartLayout = new QVBoxLayout(chartPanel);
    chartLayout->setContentsMargins(0, 4, 0, 0);
    chartLayout->setSpacing(2);
    chartLayout->addWidget(chartTitle);
    chartLayout->addWidget(m_chart, 1);
    return chartPanel;
}

void ExploreTab::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (m_statusDirty)
        refreshStatus();
}

void ExploreTab::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::StyleChange)
        applyTheme();
    if (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange)
        fitTableToFont();
}

void ExploreTab::applyTheme() {
    setLabelColour(m_staleNote, palette::warning().darker(isDarkPalette(palette()) ? 70 : 120));
}

void ExploreTab::setUnit(MemoryUnit unit) {
    if (unit == m_unit)
        return;
    const double bytes = m_filterRow.headroom.amount->value() * bytesPerUnit(m_unit);
    m_unit = unit;
    m_model->setUnit(unit);
    m_filterRow.headroom.amount->setValue(std::round(bytes / bytesPerUnit(unit)));
    updateFilter();
    m_chart->setUnit(unit);
}

// ---------------------------------------------------------------------------------------------
// The search

void ExploreTab::startSearch() {
    if (m_thread) {
        m_restartPending = true; // start again once the running one has stopped
        m_cancelFlag->store(true);
        return;
    }
    auto job = std::make_shared<Job>();
    job->scenario = m_doc->scenario();
    job->profile = m_doc->profile();
    core::SearchSpace space = core::defaultSearchSpace(job->scenario);
    space.globalBatchMin = m_settings.batch.size->value();
    space.globalBatchMax = m_settings.batch.range->isChecked()
                               ? std::max(m_settings.batch.max->value(), m_settings.batch.size->value())
                               : 0;
    core::SearchOptions options;
    options.threads = 0;
    options.topN = m_settings.top->value();
    options.rankBy = static_cast<core::RankBy>(m_settings.rank->currentData().toInt());
    auto cancel = std::make_shared<std::atomic_bool>(false);
    m_cancelFlag = cancel;
    const int generation = ++m_generation;
    // Runs on the worker thread: hand the fraction to the GUI thread, answer from the flag.
    options.progress = [this, cancel, generation](double fraction) {
        QMetaObject::invokeMethod(
            this, [this, generation, fraction] { onProgress(generation, fraction); }, Qt::QueuedConnection);
        return !cancel->load();
    };
    m_thread = QThread::create([job, space, options] {
        job->result = core::search(job->scenario, job->profile, space, {}, options);
    });
    m_thread->setObjectName(QStringLiteral("layoutSearch"));
    connect(m_thread, &QThread::finished, this, [this, generation, job] { onFinished(generation, job); });
    m_fraction = 0;
    m_settings.progress->setValue(0);
    m_status->setText(
        tr("Searching %1 layouts…").arg(formatCount(core::countCandidates(job->scenario, space))));
    m_thread->start();
    updateButtons();
    emit searchStarted();
}

void ExploreTab::cancelSearch() {
    m_restartPending = false;
    if (m_cancelFlag)
        m_cancelFlag->store(true);
}

void ExploreTab::onProgress(int generation, double fraction) {
    if (generation != m_generation || !m_thread)
        return;
    m_fraction = fraction;
    m_settings.progress->setValue(static_cast<int>(std::lround(fraction * 1000)));
    emit progressChanged(fraction);
}

void ExploreTab::onFinished(int generation, const std::shared_ptr<Job>& job) {
    if (m_thread) {
        m_thread->wait(); // finished() comes just before run() returns
        m_thread->deleteLater();
        m_thread = nullptr;
    }
    if (generation != m_generation)
        return;
    if (m_restartPending) {
        m_restartPending = false;
        startSearch();
        return;
    }
    m_result = job->result;
    m_base = job->scenario;
    m_baseProfile = job->profile;
    m_hasResult = true;
    m_selected = -1;
    m_model->setResult(m_result);
    m_settings.progress->setValue(m_result.cancelled ? static_cast<int>(std::lround(m_fraction * 1000))
                                                     : 1000);
    m_filterRow.tpNode->setText(tr("TP within NVLink domain (%1)").arg(m_base.cluster.nvlinkDomain));
    refreshStale();
    refreshCurrent();
    updateColumns();
    updateFilter();
    m_columns->fit();
    m_chart->setRows(m_model->rows());
    refreshStatus();
    updateButtons();
    emit searchFinished(m_result.cancelled);
}

// ---------------------------------------------------------------------------------------------
// State shown

void ExploreTab::refreshBatchDefault() {
    const long long batch = m_doc->scenario().layout.effectiveBatch();
    if (m_settings.batch.touched || batch <= 0 || batch > m_settings.batch.size->maximum())
        return;
    m_settings.batch.settingDefault = true;
    m_settings.batch.size->setValue(static_cast<int>(batch));
    m_settings.batch.settingDefault = false;
    if (!m_settings.batch.range->isChecked())
        m_settings.batch.max->setValue(
            static_cast<int>(std::min<long long>(batch * 4, m_settings.batch.max->maximum())));
    if (!m_hasResult)
        m_filterRow.tpNode->setText(
            tr("TP within NVLink domain (%1)").arg(m_doc->scenario().cluster.nvlinkDomain));
}

void ExploreTab::refreshStale() {
    if (!m_hasResult)
        return;
    const bool stale =
        !core::sameSearchInputs(m_doc->scenario(), m_base) || !(m_doc->profile() == m_baseProfile);
    m_stale = stale;
    m_model->setStale(stale);
    m_staleNote->setVisible(stale);
}

void ExploreTab::refreshCurrent() {
    m_model->setCurrent(core::choiceOf(m_doc->scenario()));
    m_chart->setCurrent(m_doc->plan(), !m_stale);
}

void ExploreTab::refreshStatus() {
    if (isRunning())
        return;
    m_statusDirty = false;
    if (!m_hasResult) {
        const core::Scenario& s = m_doc->scenario();
        m_status->setText(tr("Search tries every layout of TP, PP, DP, CP, virtual stages, micro batch, ZeRO "
                             "stage, recompute and sequence parallelism on this scenario's %1 GPUs (%2 "
                             "layouts), keeps the ones that are valid and fit, and ranks them.")
                              .arg(formatCount(s.cluster.gpus()),
                                   formatCount(core::countCandidates(s, core::defaultSearchSpace(s)))));
        m_status->setToolTip({});
        return;
    }
    const core::FigureFormat format{m_unit};
    m_status->setText(qs(core::searchSummary(m_result, format)));
    QStringList lines;
    for (const std::string& line : core::rejectionLines(m_result, format))
        lines << qs(line);
    m_status->setToolTip(lines.isEmpty()
                             ? QString()
                             : tr("Rejected layouts, by reason:\n%1").arg(lines.join(QLatin1Char('\n'))));
}

void ExploreTab::updateFilter() {
    const bool ok = m_proxy->setFilterText(m_filterRow.text->text());
    m_filterRow.text->setStyleSheet(
        ok ? QString() : QStringLiteral("QLineEdit { color: %1; }").arg(palette::error().name()));
    m_filterRow.headroom.amount->setSuffix(QLatin1Char(' ') + unitName(m_unit));
    m_filterRow.headroom.amount->setEnabled(m_filterRow.headroom.check->isChecked());
    m_proxy->setMinHeadroomBytes(
        m_filterRow.headroom.check->isChecked()
            ? std::optional<double>(m_filterRow.headroom.amount->value() * bytesPerUnit(m_unit))
            : std::nullopt);
    const int domain = m_hasResult ? m_base.cluster.nvlinkDomain : m_doc->scenario().cluster.nvlinkDomain;
    m_proxy->setMaxTp(m_filterRow.tpNode->isChecked() ? std::optional<int>(domain) : std::nullopt);
    m_proxy->setParetoOnly(m_filterRow.paretoOnly->isChecked());
    refreshShown();
    // Keep the selection visible in the table when it passes the filter.
    if (m_selected >= 0) {
        const QModelIndex proxyIndex = m_proxy->mapFromSource(m_model->index(m_selected, 0));
        if (proxyIndex.isValid() && m_table->currentIndex().row() != proxyIndex.row())
            m_table->selectionModel()->setCurrentIndex(proxyIndex, QItemSelectionModel::ClearAndSelect |
                                                                       QItemSelectionModel::Rows);
    }
}

// How many of the ranked and of the further Pareto layouts the filter leaves, in the core's words.
void ExploreTab::refreshShown() {
    long long ranked = 0;
    long long pareto = 0;
    for (int row = 0; row < m_proxy->rowCount(); ++row) {
        if (m_model->row(m_proxy->mapToSource(m_proxy->index(row, 0)).row()).rank > 0)
            ++ranked;
        else
            ++pareto;
    }
    m_filterRow.shown->setText(
        m_hasResult ? qs(core::listedLayoutsText(m_result, ranked, pareto, core::FigureFormat{m_unit}))
                    : QString());
}

void ExploreTab::updateColumns() {
    ResultTableColumns::Context context;
    for (const SearchResultModel::Row& r : m_model->rows())
        context.severalBatches =
            context.severalBatches || r.entry.globalBatch != m_model->rows().front().entry.globalBatch;
    context.rankBy = m_hasResult ? m_result.rankBy : core::RankBy::StepTime;
    m_columns->setContext(context);
}

void ExploreTab::updateButtons() {
    const bool running = isRunning();
    m_settings.cancel->setEnabled(running);
    m_settings.run->setText(m_hasResult ? tr("&Search again") : tr("&Search"));
    const bool selected = m_selected >= 0 && m_selected < m_model->rowCount();
    m_apply->setEnabled(selected);
    m_pin->setEnabled(selected);
}

// ---------------------------------------------------------------------------------------------
// Selection, apply, pin

void ExploreTab::selectRow(int sourceRow) {
    if (sourceRow < 0 || sourceRow >= m_model->rowCount())
        return;
    m_selected = sourceRow;
    const QModelIndex proxyIndex = m_proxy->mapFromSource(m_model->index(sourceRow, 0));
    if (proxyIndex.isValid()) {
        m_table->selectionModel()->setCurrentIndex(proxyIndex, QItemSelectionModel::ClearAndSelect |
                                                                   QItemSelectionModel::Rows);
        m_table->scrollTo(proxyIndex);
    } else {
        m_table->selectionModel()->clearSelection();
    }
    refreshSelection();
    updateButtons();
}

void ExploreTab::refreshSelection() {
    m_chart->setSelectedRow(m_selected);
}

void ExploreTab::applyRow(int sourceRow) {
    if (sourceRow < 0 || sourceRow >= m_model->rowCount())
        return;
    selectRow(sourceRow);
    const core::SearchChoice choice = m_model->row(sourceRow).entry.choice;
    m_doc->edit(core::applyChoice(m_doc->scenario(), choice), tr("Apply layout from Explore"));
}

void ExploreTab::pinRow(int sourceRow) {
    if (sourceRow < 0 || sourceRow >= m_model->rowCount())
        return;
    const SearchResultModel::Row& r = m_model->row(sourceRow);
    const QString label = r.rank > 0 ? tr("Explore #%1").arg(r.rank) : tr("Explore, Pareto front");
    emit pinRequested(core::applyChoice(m_base, r.entry.choice), label);
}

} // namespace lp::ui
