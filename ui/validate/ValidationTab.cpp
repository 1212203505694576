#include "ui/validate/ValidationTab.h"

#include "core/measured/ValidationRun.h"
#include "ui/charts/ChartStyle.h"
#include "ui/document/ScenarioDocument.h"
#include "ui/document/ValidationSets.h"
#include "ui/validate/ValidationGroups.h"
#include "ui/validate/ValidationModel.h"
#include "ui/widgets/FlowLayout.h"
#include "ui/widgets/Format.h"
#include "ui/widgets/InlineBanner.h"
#include "ui/widgets/Palette.h"
#include "ui/widgets/ScrollPage.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCursor>
#include <QDir>
#include <QEvent>
#include <QFileInfo>
#include <QFrame>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLayout>
#include <QLineEdit>
#include <QMouseEvent>
#include <QPushButton>
#include <QScrollBar>
#include <QSettings>
#include <QSignalBlocker>
#include <QSplitter>
#include <QStandardPaths>
#include <QTableView>
#include <QTimer>
#include <QToolTip>
#include <QVBoxLayout>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLegend>
#include <QtCharts/QLegendMarker>
#include <QtCharts/QLineSeries>
#include <QtCharts/QLogValueAxis>
#include <QtCharts/QScatterSeries>

#include <algorithm>
#include <cmath>
#include <map>

namespace lp::ui {
namespace validation {

QColor mix(const QPalette& p, double t) {
    const QColor a = p.color(QPalette::Text);
    const QColor b = p.color(QPalette::Base);
    return QColor::fromRgbF(static_cast<float>(a.redF() * t + b.redF() * (1 - t)),
                            static_cast<float>(a.greenF() * t + b.greenF() * (1 - t)),
                            static_cast<float>(a.blueF() * t + b.blueF() * (1 - t)));
}

} // namespace validation
using namespace validation;

namespace {

const char* const kSettingsKey = "validation/casesFile";
const char* const kCasesRelative = "shared/reference/published-runs.json";

// A colour between the text and the base colours (lines that should recede).

QString percentText(double fraction) {
    return formatNumber(100.0 * fraction, 1) + QStringLiteral("%");
}

} // namespace

ValidationTab::ValidationTab(ScenarioDocument& doc, QWidget* parent)
    : QWidget(parent), m_doc(doc), m_model(new ValidationModel(this)),
      m_filter(new ValidationFilterModel(this)) {
    setObjectName(QStringLiteral("validationTab"));
    m_filter->setSourceModel(m_model);

    // Title row: what this is, which file, open another.
    m_title = new QLabel(tr("Published training runs: predicted against measured"), this);
    QFont titleFont = m_title->font();
    titleFont.setBold(true);
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.15);
    m_title->setFont(titleFont);
    m_title->setWordWrap(true); // on a narrow page (a projector's presentation fonts) it wraps
    m_pathLabel = new QLabel(this);
    m_pathLabel->setObjectName(QStringLiteral("casesFileLabel"));
    m_pathLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_pathLabel->setForegroundRole(QPalette::PlaceholderText);
    m_pathLabel->setSizePolicy(QSizePolicy::Ignored,
                               QSizePolicy::Preferred); // a long path never widens the window
    m_openFile = new QPushButton(tr("Open cases &file..."), this);
    m_openFile->setToolTip(tr("Read another file of measured runs (layout-planner/validation-cases@1, "
                              "documented in shared/reference/README.md)"));
    m_set = new QComboBox(this);
    m_set->setObjectName(QStringLiteral("validationSet"));
    m_set->setToolTip(
        tr("The sets of published measured runs that come with Layout Planner; docs/validation*.md "
           "has each of them case by case"));
    // Sized to a short name, the full titles in the list: a long title must not widen the window.
    m_set->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_set->setMinimumContentsLength(14);
    m_set->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    m_reload = new QPushButton(tr("Re&load"), this);
    m_reload->setToolTip(tr("Read the cases file again and predict every case"));
    m_reload->setEnabled(false);
    // The title and the set controls share a line where they fit; the controls wrap below it otherwise.
    auto* titleRow = new FlowLayout(nullptr, 16, 4);
    auto* titleBox = new QWidget(this);
    auto* titleText = new QVBoxLayout(titleBox);
    titleText->setContentsMargins(0, 0, 0, 0);
    titleText->setSpacing(0);
    titleText->addWidget(m_title);
    titleText->addWidget(m_pathLabel);
    titleRow->addWidget(titleBox);
    auto* setLabel = new QLabel(tr("S&et:"), this);
    setLabel->setBuddy(m_set);
    QWidget* setControls = controlGroup(this, {setLabel, m_set, m_openFile, m_reload});
    titleRow->addWidget(setControls);
    titleRow->setPushRight(setControls);
    titleRow->setStretchItem(titleBox); // the file's path shows whole where there is room

    m_banner = new InlineBanner(this);

    // Summary: one card per metric.
    m_summaryLayout = new FlowLayout(nullptr, 8, 8);
    m_targets =
        new QLabel(tr("Error = (predicted − measured) / measured. Targets: median at most 5% on throughput "
                      "metrics, none worse than 20%; peak memory within 10%."),
                   this);
    m_targets->setWordWrap(true);
    m_targets->setForegroundRole(QPalette::PlaceholderText);

    // Filter row.
    m_metric = new QComboBox(this);
    m_metric->setToolTip(tr("Show one metric, or all of them"));
    m_metric->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_search = new QLineEdit(this);
    m_search->setPlaceholderText(tr("Filter by case, source, GPU, model or notes"));
    m_search->setClearButtonEnabled(true);
    m_useProfile = new QCheckBox(tr("Use the active measured profile"), this);
    m_useProfile->setToolTip(
        tr("Predict the cases on the profile's GPU with the hardware profile active in the "
           "window (Calibrate tab); other GPUs keep their built-in profiles"));
    m_count = new QLabel(this);
    m_openCase = new QPushButton(tr("Open as &scenario"), this);
    m_openCase->setToolTip(
        tr("Make the selected case the window's scenario (a new, unsaved scenario; its "
           "micro batch resolved as the prediction used it). Double-click a row does the same."));
    m_openCase->setEnabled(false);
    m_search->setMinimumWidth(220);
    auto* filterRow = new FlowLayout(nullptr, 12, 4);
    auto* metricLabel = new QLabel(tr("&Metric:"), this);
    metricLabel->setBuddy(m_metric);
    filterRow->addWidget(controlGroup(this, {metricLabel, m_metric}));
    filterRow->addWidget(m_search);
    filterRow->addWidget(m_useProfile);
    filterRow->addWidget(m_count);
    filterRow->addWidget(m_openCase);
    filterRow->setPushRight(m_openCase);
    filterRow->setStretchItem(m_search);

    // Table.
    m_table = new QTableView(this);
    m_table->setObjectName(QStringLiteral("validationTable"));
    m_table->setModel(m_filter);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSortingEnabled(true);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->setTextElideMode(Qt::ElideRight);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 8);
    m_table->horizontalHeader()->setHighlightSections(false);
    m_table->horizontalHeader()->setStretchLastSection(false);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_table->horizontalHeader()->setSectionResizeMode(ValidationModel::SourceColumn, QHeaderView::Stretch);
    m_table->sortByColumn(-1, Qt::AscendingOrder); // the file's order until a header is clicked
    const QFontMetrics fm = m_table->fontMetrics();
    const auto width = [&fm](const char* sample, int pad = 18) {
        return fm.horizontalAdvance(QString::fromUtf8(sample)) + pad;
    };
    m_table->setColumnWidth(ValidationModel::CaseColumn, width("korthikanti22_530B_full_recompute"));
    m_table->setColumnWidth(ValidationModel::GpuColumn, width("1,024 × A100 SXM 80 GB"));
    m_table->setColumnWidth(ValidationModel::LayoutColumn, width("TP8 · PP35 · DP1 · VPP3 · mb12*"));
    m_table->setColumnWidth(ValidationModel::MetricColumn, width("Iteration time"));
    m_table->setColumnWidth(ValidationModel::MeasuredColumn, width("3,012 tokens/s"));
    m_table->setColumnWidth(ValidationModel::PredictedColumn, width("3,012 tokens/s"));
    m_table->setColumnWidth(ValidationModel::ErrorColumn, width("−10.5%", 26));
    m_table->horizontalHeader()->setMinimumSectionSize(fm.horizontalAdvance(QStringLiteral("Source")) + 24);
    // The source, the longest and least read, last and taking the room left.
    m_table->horizontalHeader()->moveSection(ValidationModel::SourceColumn, ValidationModel::ColumnCount - 1);

    // Chart.
    m_chart = new QChart;
    m_chart->legend()->hide(); // a wrapping legend under the chart (m_legend) instead
    m_chartView = new QChartView(m_chart, this);
    m_chartView->setObjectName(QStringLiteral("validationChart"));
    m_chartView->setRenderHint(QPainter::Antialiasing);
    m_chartView->setMinimumSize(320, 240);
    m_legend = new QLabel(this);
    m_legend->setObjectName(QStringLiteral("validationLegend"));
    m_legend->setTextFormat(Qt::RichText);
    m_legend->setWordWrap(true);
    m_chartNote = new QLabel(this);
    m_chartNote->setWordWrap(true);
    m_chartNote->setForegroundRole(QPalette::PlaceholderText);
    auto* chartBox = new QWidget(this);
    auto* chartLayout = new QVBoxLayout(chartBox);
    chartLayout->setContentsMargins(0, 0, 0, 0);
    chartLayout->addWidget(m_chartView, 1);
    chartLayout->addWidget(m_legend);
    chartLayout->addWidget(m_chartNote);

    m_splitter = new QSplitter(Qt::Horizontal, this);
    m_splitter->setChildrenCollapsible(false);
    m_splitter->addWidget(m_table);
    m_splitter->addWidget(chartBox);
    m_splitter->setStretchFactor(0, 3);
    m_splitter->setStretchFactor(1, 2);

    m_table->installEventFilter(this); // resized: fit the columns

    auto* layout = new QVBoxLayout(scrollingContent(this));
    layout->addLayout(titleRow);
    layout->addWidget(m_banner);
    layout->addLayout(m_summaryLayout);
    layout->addWidget(m_targets);
    m_groups = new ValidationGroups(this);
    layout->addWidget(m_groups);
    layout->addLayout(filterRow);
    layout->addWidget(m_splitter, 1);

    m_chartTimer = new QTimer(this);
    m_chartTimer->setSingleShot(true);
    m_chartTimer->setInterval(0);
    connect(m_chartTimer, &QTimer::timeout, this, &ValidationTab::rebuildChart);

    connect(m_openFile, &QPushButton::clicked, this, &ValidationTab::chooseCasesFile);
    connect(m_set, &QComboBox::activated, this, [this](int index) {
        const QString path = m_set->itemData(index).toString();
        if (!path.isEmpty() && path != m_path)
            loadCasesFile(path);
    });
    connect(m_reload, &QPushButton::clicked, this, [this] {
        if (!m_path.isEmpty())
            loadCasesFile(m_path);
    });
    connect(m_banner, &InlineBanner::actionTriggered, this, [this](const QString& id) {
        if (id == QLatin1String("openCases"))
            chooseCasesFile();
    });
    connect(m_metric, &QComboBox::currentIndexChanged, this,
            [this] { m_filter->setMetric(m_metric->currentData().toString()); });
    connect(m_search, &QLineEdit::textChanged, m_filter, &ValidationFilterModel::setText);
    connect(m_useProfile, &QCheckBox::toggled, this, [this] { rerun(); });
    connect(m_openCase, &QPushButton::clicked, this, &ValidationTab::openSelected);
    connect(m_table, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
        if (index.isValid())
            openCase(m_filter->mapToSource(index).row());
    });
    const auto selectionChanged = [this] {
        m_openCase->setEnabled(currentSourceRow() >= 0);
        updateSelectionMarker();
    };
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, selectionChanged);
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, selectionChanged);
    connect(m_filter, &QAbstractItemModel::modelReset, this, &ValidationTab::scheduleChart);
    connect(m_filter, &QAbstractItemModel::layoutChanged, this, &ValidationTab::scheduleChart);
    connect(m_filter, &QAbstractItemModel::rowsInserted, this, &ValidationTab::scheduleChart);
    connect(m_filter, &QAbstractItemModel::rowsRemoved, this, &ValidationTab::scheduleChart);
    connect(&m_doc, &ScenarioDocument::profileChanged, this, [this] {
        updateProfileControls();
        const std::optional<core::HardwareProfile> wanted =
            usesActiveProfile() ? std::optional(m_doc.profile()) : std::nullopt;
        if (wanted != m_usedProfile)
            rerun();
    });

    applyChartTheme(m_chart, palette());
    rebuildSetCombo();
    rebuildMetricCombo();
    updateProfileControls();
    updateCountLabel();
    rebuildChart();
}

ValidationTab::~ValidationTab() = default;

QStringList ValidationTab::defaultCasesCandidates() {
    QStringList out;
    const auto add = [&out](const QString& path) {
        const QString clean = QDir::cleanPath(QFileInfo(path).absoluteFilePath());
        if (!path.isEmpty() && !out.contains(clean))
            out << clean;
    };
    const QString last = QSettings().value(QLatin1String(kSettingsKey)).toString();
    if (!last.isEmpty())
        add(last);
    // Beside or above the executable (build/app/layout-planner -> ../../../shared) and the working folder.
    for (const QString& path : pathsUpwards(QLatin1String(kCasesRelative)))
        add(path);
    for (const QString& base : QStandardPaths::standardLocations(QStandardPaths::AppDataLocation))
        add(QDir(base).filePath(QStringLiteral("published-runs.json")));
    for (const QString& base : QStandardPaths::standardLocations(QStandardPaths::GenericDataLocation))
        add(QDir(base).filePath(QStringLiteral("layout-planner/published-runs.json")));
    return out;
}

bool ValidationTab::loadDefaultCases() {
    m_triedDefault = true;
    const QStringList candidates = defaultCasesCandidates();
    for (const QString& path : candidates)
        if (QFileInfo(path).isFile())
            return loadCasesFile(path);
    m_errorText = tr("The published runs (published-runs.json) were not found.");
    QStringList shown;
    for (int i = 0; i < std::min<qsizetype>(candidates.size(), 4); ++i)
        shown << QDir::toNativeSeparators(candidates[i]);
    m_banner->showMessage(
        InlineBanner::Kind::Info, m_errorText,
        tr("Open a file of measured runs (layout-planner/validation-cases@1), for example "
           "shared/reference/published-runs.json from the project's sources. Looked in: %1%2")
            .arg(shown.join(QStringLiteral(", ")),
                 candidates.size() > 4 ? QStringLiteral(", …") : QString()));
    m_banner->addAction(QStringLiteral("openCases"), tr("Open cases file..."));
    m_pathLabel->setText(tr("No cases loaded"));
    return false;
}

bool ValidationTab::loadCasesFile(const QString& path) {
    m_triedDefault = true;
    core::InputErrors skipped;
    auto cases = core::loadValidationCases(QDir::toNativeSeparators(path).toStdString(), &skipped);
    const auto problemList = [](const core::InputErrors& errors) {
        QStringList problems;
        for (const auto& e : errors)
            problems << qs(e.message()).toHtmlEscaped();
        return problems.mid(0, 6).join(QStringLiteral("<br>")) +
               (problems.size() > 6 ? tr("<br>… and %n more", nullptr, static_cast<int>(problems.size() - 6))
                                    : QString());
    };
    if (!cases) {
        m_errorText = tr("Cannot read %1").arg(QDir::toNativeSeparators(path));
        m_banner->showMessage(InlineBanner::Kind::Error, m_errorText, problemList(cases.error()));
        m_banner->addAction(QStringLiteral("openCases"), tr("Open another file..."));
        return false;
    }
    m_errorText.clear();
    m_banner->hide();
    // The readable cases are listed; the banner names the others and what could not be read in them.
    if (!skipped.empty())
        m_banner->showMessage(
            InlineBanner::Kind::Warning,
            tr("Some cases in %1 cannot be read and are left out").arg(QFileInfo(path).fileName()),
            problemList(skipped));
    m_path = QFileInfo(path).absoluteFilePath();
    QSettings().setValue(QLatin1String(kSettingsKey), m_path);
    m_reload->setEnabled(true);
    const core::HardwareProfile* profile = usesActiveProfile() ? &m_doc.profile() : nullptr;
    m_usedProfile = profile ? std::optional(*profile) : std::nullopt;
    core::ValidationReport report = core::runValidation(*cases, profile);
    m_model->setValidation(std::move(*cases), std::move(report));
    runAndShow();
    rebuildSetCombo();
    emit casesLoaded();
    return true;
}

void ValidationTab::rebuildSetCombo() {
    const QSignalBlocker block(m_set);
    m_set->clear();
    const QString current = m_path.isEmpty() ? QString() : QDir::cleanPath(m_path);
    int selected = -1;
    for (const ValidationSet& set : bundledValidationSets()) {
        m_set->addItem(set.title, set.path);
        m_set->setItemData(m_set->count() - 1, QDir::toNativeSeparators(set.path), Qt::ToolTipRole);
        if (QDir::cleanPath(set.path) == current)
            selected = m_set->count() - 1;
    }
    if (selected < 0 && !current.isEmpty()) {
        m_set->addItem(tr("Other file: %1").arg(QFileInfo(current).fileName()), current);
        selected = m_set->count() - 1;
    }
    if (m_set->count() == 0)
        m_set->addItem(tr("No sets found"), QString());
    m_set->setCurrentIndex(std::max(0, selected));
    m_set->setEnabled(m_set->count() > 1);
}

void ValidationTab::rerun() {
    if (m_model->cases().empty())
        return;
    const QString keep =
        currentSourceRow() >= 0
            ? m_model->index(currentSourceRow(), 0).data(ValidationModel::CaseIdRole).toString()
            : QString();
    const QString keepMetric =
        currentSourceRow() >= 0
            ? m_model->index(currentSourceRow(), 0).data(ValidationModel::MetricRole).toString()
            : QString();
    std::vector<core::ValidationCase> cases = m_model->cases();
    const core::HardwareProfile* profile = usesActiveProfile() ? &m_doc.profile() : nullptr;
    m_usedProfile = profile ? std::optional(*profile) : std::nullopt;
    core::ValidationReport report = core::runValidation(cases, profile);
    m_model->setValidation(std::move(cases), std::move(report));
    runAndShow();
    if (!keep.isEmpty())
        for (int r = 0; r < m_model->rowCount(); ++r)
            if (m_model->index(r, 0).data(ValidationModel::CaseIdRole).toString() == keep &&
                m_model->index(r, 0).data(ValidationModel::MetricRole).toString() == keepMetric) {
                selectSourceRow(r);
                break;
            }
}

void ValidationTab::runAndShow() {
    const int values = m_model->rowCount();
    QString where = QDir::toNativeSeparators(m_path);
    const auto adjusted = std::count_if(m_model->cases().begin(), m_model->cases().end(),
                                        [](const core::ValidationCase& c) { return !c.adjustments.empty(); });
    m_pathLabel->setText(
        tr("%1 — %n cases, ", nullptr, m_model->caseCount()).arg(where) +
        tr("%n measured values", nullptr, values) +
        (adjusted > 0
             ? tr("; %n adjusted to be planned (see their tooltips)", nullptr, static_cast<int>(adjusted))
             : QString()) +
        (usesActiveProfile() ? tr("; predicted with %1").arg(qs(m_doc.profile().name)) : QString()));
    m_pathLabel->setToolTip(where);
    rebuildSummary();
    m_groups->setGroups(m_model->report().groups);
    rebuildMetricCombo();
    updateCountLabel();
    scheduleChart();
}

int ValidationTab::caseCount() const {
    return m_model->caseCount();
}

void ValidationTab::chooseCasesFile() {
    const QString start = m_path.isEmpty() ? QDir::homePath() : QFileInfo(m_path).absolutePath();
    const QString path =
        m_chooseFile(this, tr("Open measured runs"), start, tr("Validation cases (*.json);;All files (*)"));
    if (!path.isEmpty())
        loadCasesFile(path);
}

void ValidationTab::setMetricFilter(const QString& metric) {
    const int i = m_metric->findData(metric);
    m_metric->setCurrentIndex(i >= 0 ? i : 0);
    m_filter->setMetric(m_metric->currentData().toString());
}

void ValidationTab::setTextFilter(const QString& text) {
    m_search->setText(text);
}

void ValidationTab::setUseActiveProfile(bool use) {
    m_useProfile->setChecked(use && m_useProfile->isEnabled());
}

bool ValidationTab::usesActiveProfile() const {
    return m_useProfile->isEnabled() && m_useProfile->isChecked();
}

void ValidationTab::updateProfileControls() {
    const core::HardwareProfile& p = m_doc.profile();
    const bool measured = p.origin != "built-in";
    m_useProfile->setEnabled(measured);
    m_useProfile->setVisible(measured);
    if (measured)
        m_useProfile->setText(tr("Use the active profile (%1)").arg(qs(p.name)));
}

QStringList ValidationTab::summaryLines() const {
    return m_summaryLines;
}

void ValidationTab::rebuildSummary() {
    while (QLayoutItem* item = m_summaryLayout->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    m_summaryLines.clear();
    // "throughput" first, then the metrics in their usual order.
    std::vector<const core::MetricSummary*> ordered;
    const auto& summary = m_model->report().summary;
    const auto find = [&](const QString& m) -> const core::MetricSummary* {
        for (const auto& s : summary)
            if (qs(s.metric) == m)
                return &s;
        return nullptr;
    };
    if (auto* t = find(QStringLiteral("throughput")))
        ordered.push_back(t);
    for (const QString& m : ValidationModel::metricOrder())
        if (auto* s = find(m))
            ordered.push_back(s);
    for (const auto& s : summary)
        if (std::find(ordered.begin(), ordered.end(), &s) == ordered.end())
            ordered.push_back(&s);

    const QColor border = mix(palette(), 0.25);
    for (const core::MetricSummary* s : ordered) {
        const QString metric = qs(s->metric);
        const bool throughput = metric == QLatin1String("throughput");
        const bool memory = metric == QLatin1String("peak_memory_gib");
        // Targets: throughput median <= 5% and none beyond 20%; memory within 10%.
        const bool medianOk = memory ? s->medianAbsError <= 0.10 : s->medianAbsError <= 0.05;
        const bool maxOk = memory ? s->maxAbsError <= 0.10 : s->maxAbsError <= 0.20;
        QFrame* card = addSummaryCard(
            QStringLiteral("summaryCard"), border,
            throughput ? tr("Throughput (all)") : ValidationModel::metricName(metric),
            percentText(s->medianAbsError),
            medianOk ? palette::bandGood() : ValidationModel::errorColor(s->medianAbsError),
            tr("median<br>max <span style='color:%1'>%2</span> · %n values", nullptr, s->count)
                .arg((maxOk ? palette::bandGood() : ValidationModel::errorColor(s->maxAbsError)).name(),
                     percentText(s->maxAbsError)));
        card->setProperty("metric", throughput ? QStringLiteral("throughput") : metric);
        card->setCursor(Qt::PointingHandCursor);
        card->installEventFilter(this);
        card->setToolTip(
            tr("%1: median absolute error %2 (target %3), largest %4 (target %5) over %n values. "
               "Click to show only these rows.",
               nullptr, s->count)
                .arg(throughput ? tr("All throughput metrics") : ValidationModel::metricName(metric),
                     percentText(s->medianAbsError),
                     memory ? QStringLiteral("≤ 10%") : QStringLiteral("≤ 5%"), percentText(s->maxAbsError),
                     memory ? QStringLiteral("≤ 10%") : QStringLiteral("≤ 20%")));
        m_summaryLines << QStringLiteral("%1: median %2, max %3, %4 values")
                              .arg(throughput ? QStringLiteral("throughput") : metric,
                                   percentText(s->medianAbsError), percentText(s->maxAbsError))
                              .arg(s->count);
    }
    addMemoryFitCard(border);
}

// One summary card: a caption over a large coloured value and a small (rich-text) detail, added to the
// summary.
QFrame* ValidationTab::addSummaryCard(const QString& objectName, const QColor& border, const QString& caption,
                                      const QString& value, const QColor& valueColor, const QString& detail) {
    auto* card = new QFrame(this);
    card->setObjectName(objectName);
    card->setStyleSheet(QStringLiteral("QFrame#%1 { border: 1px solid %2; border-radius: 4px; }")
                            .arg(objectName, border.name()));
    auto* v = new QGridLayout(card);
    v->setContentsMargins(10, 5, 10, 5);
    v->setHorizontalSpacing(8);
    v->setVerticalSpacing(0);
    auto* captionLabel = new QLabel(caption, card);
    captionLabel->setForegroundRole(QPalette::PlaceholderText);
    auto* valueLabel = new QLabel(value, card);
    QFont big = valueLabel->font();
    big.setPointSizeF(big.pointSizeF() * 1.3);
    big.setBold(true);
    valueLabel->setFont(big);
    valueLabel->setStyleSheet(QStringLiteral("color: %1").arg(valueColor.name()));
    auto* detailLabel = new QLabel(detail, card);
    detailLabel->setTextFormat(Qt::RichText);
    QFont small = detailLabel->font();
    small.setPointSizeF(small.pointSizeF() * 0.9);
    detailLabel->setFont(small);
    v->addWidget(captionLabel, 0, 0, 1, 2);
    v->addWidget(valueLabel, 1, 0, Qt::AlignVCenter);
    v->addWidget(detailLabel, 1, 1, Qt::AlignVCenter);
    m_summaryLayout->addWidget(card);
    return card;
}

// Every run ran, so its plan should fit its GPUs: how many do, and which do not (by how much).
void ValidationTab::addMemoryFitCard(const QColor& border) {
    const core::ValidationReport& report = m_model->report();
    if (report.plannedCases == 0)
        return;
    const int over = static_cast<int>(report.overCapacity.size());
    const bool ok = core::beyondFitTolerance(report) == 0;
    QFrame* card =
        addSummaryCard(QStringLiteral("memoryFitCard"), border, tr("Memory fit"),
                       QStringLiteral("%1/%2").arg(report.plannedCases - over).arg(report.plannedCases),
                       ok ? palette::bandGood() : ValidationModel::errorColor(0.2),
                       tr("runs fit<br>%n planned over", nullptr, over));
    QStringList lines{qs(core::memoryFitSentence(report))};
    for (const core::OverCapacity& o : report.overCapacity)
        lines << tr("%1: %2 of capacity").arg(qs(o.caseId), percentText(o.usedFraction));
    card->setToolTip(lines.join(QLatin1Char('\n')));
    m_summaryLines << QStringLiteral("memory fit: ") + lines.front();
}

bool ValidationTab::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_table && event->type() == QEvent::Resize) {
        // After the table has laid out its viewport for the new size.
        QMetaObject::invokeMethod(this, &ValidationTab::fitColumns, Qt::QueuedConnection);
        return false;
    }
    if (event->type() == QEvent::MouseButtonRelease &&
        watched->objectName() == QLatin1String("summaryCard")) {
        const QString metric = watched->property("metric").toString();
        setMetricFilter(m_filter->metric() == metric ? QString() : metric);
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

void ValidationTab::rebuildMetricCombo() {
    const QString current = m_metric->currentData().toString();
    const QSignalBlocker block(m_metric);
    m_metric->clear();
    m_metric->addItem(tr("All metrics"), QString());
    const QStringList metrics = m_model->metrics();
    if (metrics.size() > 1 && metrics.contains(QStringLiteral("peak_memory_gib")))
        m_metric->addItem(tr("Throughput metrics"), QStringLiteral("throughput"));
    for (const QString& m : metrics)
        m_metric->addItem(ValidationModel::metricName(m), m);
    const int i = m_metric->findData(current);
    m_metric->setCurrentIndex(i >= 0 ? i : 0);
    m_filter->setMetric(m_metric->currentData().toString());
}

void ValidationTab::updateCountLabel() {
    const int shown = m_filter->rowCount();
    const int all = m_model->rowCount();
    m_count->setText(shown == all ? tr("%n values", nullptr, all)
                                  : tr("%1 of %n values", nullptr, all).arg(shown));
}

void ValidationTab::scheduleChart() {
    updateCountLabel();
    m_chartTimer->start();
}

void ValidationTab::updateSelectionMarker() {
    if (!m_selectedMarker)
        return;
    m_selectedMarker->clear();
    const core::ValidationRow* row = m_model->rowAt(currentSourceRow());
    if (row && row->predicted > 0 && row->measured > 0)
        m_selectedMarker->append(row->measured, row->predicted);
}

int ValidationTab::currentSourceRow() const {
    const QItemSelectionModel* sel = m_table->selectionModel();
    const QModelIndex current = sel->currentIndex();
    if (current.isValid() && sel->isRowSelected(current.row(), current.parent()))
        return m_filter->mapToSource(current).row();
    const QModelIndexList rows = sel->selectedRows();
    return rows.isEmpty() ? -1 : m_filter->mapToSource(rows.front()).row();
}

void ValidationTab::selectSourceRow(int sourceRow) {
    QModelIndex proxy = m_filter->mapFromSource(m_model->index(sourceRow, 0));
    if (!proxy.isValid()) { // filtered out: show every row again
        m_search->clear();
        setMetricFilter(QString());
        proxy = m_filter->mapFromSource(m_model->index(sourceRow, 0));
    }
    if (!proxy.isValid())
        return;
    m_table->selectionModel()->setCurrentIndex(proxy, QItemSelectionModel::ClearAndSelect |
                                                          QItemSelectionModel::Rows);
    m_table->scrollTo(proxy);
}

bool ValidationTab::openCase(int sourceRow) {
    const core::ValidationCase* c = m_model->caseForRow(sourceRow);
    if (!c)
        return false;
    if (m_replaceGuard && !m_replaceGuard())
        return false;
    // The profile the prediction used for this case (runValidation's rule: a profile describes one GPU).
    const core::HardwareProfile& active = m_doc.profile();
    const bool useProfile =
        usesActiveProfile() && (active.gpuId.empty() || active.gpuId == c->scenario.cluster.gpu.id);
    const core::Scenario s = core::resolveCase(*c, useProfile ? &active : nullptr);
    const QString id = qs(c->id);
    m_doc.resetTo(s, QString(), true);
    emit caseOpened(id);
    return true;
}

bool ValidationTab::openCaseById(const QString& caseId) {
    const int row = m_model->firstRowOfCase(caseId);
    return row >= 0 && openCase(row);
}

bool ValidationTab::openSelected() {
    const int row = currentSourceRow();
    return row >= 0 && openCase(row);
}

Qt::Orientation ValidationTab::splitOrientation() const {
    return m_splitter->orientation();
}

int ValidationTab::tableWidthNeeded() const {
    int w =
        2 * m_table->frameWidth() + m_table->verticalScrollBar()->sizeHint().width() + 120; // 120: the source
    for (int c = 0; c < ValidationModel::ColumnCount; ++c)
        if (c != ValidationModel::SourceColumn)
            w += m_table->columnWidth(c);
    return w;
}

void ValidationTab::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    // Side by side when the whole table fits beside a chart of useful size; else the chart goes under it.
    constexpr int kChartWidth = 420;
    const int needed = tableWidthNeeded();
    const Qt::Orientation wanted = width() >= needed + kChartWidth + 30 ? Qt::Horizontal : Qt::Vertical;
    if (m_splitter->orientation() == wanted && m_splitPlaced)
        return;
    m_splitPlaced = true;
    m_splitter->setOrientation(wanted);
    // Shared once the page has laid the splitter out at its new size (before, its height is the old one's).
    QTimer::singleShot(0, this, [this, needed] {
        const bool across = m_splitter->orientation() == Qt::Horizontal;
        const int total = std::max(1, across ? m_splitter->width() : m_splitter->height());
        const int first = across ? std::min(needed, total - kChartWidth) : total * 11 / 20;
        m_splitter->setSizes({first, total - first});
    });
}

void ValidationTab::fitColumns() {
    // The figures keep their width; case, GPUs and layout give up room (elided) before the table scrolls.
    const QFontMetrics fm = m_table->fontMetrics();
    const auto width = [&fm](const char* sample, int pad = 18) {
        return fm.horizontalAdvance(QString::fromUtf8(sample)) + pad;
    };
    struct Flexible {
        int column;
        int ideal;
    };
    const Flexible flexible[] = {{ValidationModel::CaseColumn, width("korthikanti22_530B_full_recompute")},
                                 {ValidationModel::GpuColumn, width("1,024 × A100 SXM 80 GB")},
                                 {ValidationModel::LayoutColumn, width("TP8 · PP35 · DP1 · VPP3 · mb12*")}};
    const int fixed = m_table->columnWidth(ValidationModel::MetricColumn) +
                      m_table->columnWidth(ValidationModel::MeasuredColumn) +
                      m_table->columnWidth(ValidationModel::PredictedColumn) +
                      m_table->columnWidth(ValidationModel::ErrorColumn);
    constexpr int kSource = 90;
    int ideal = 0;
    for (const Flexible& f : flexible)
        ideal += f.ideal;
    const int available = m_table->viewport()->width() - fixed - kSource;
    const double scale = std::clamp(static_cast<double>(available) / ideal, 0.6, 1.0);
    for (const Flexible& f : flexible)
        m_table->setColumnWidth(f.column, static_cast<int>(f.ideal * scale));
}

void ValidationTab::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (!m_triedDefault) {
        m_triedDefault = true;
        // After the first paint: the tab shows at once, the cases follow.
        QTimer::singleShot(0, this, [this] {
            if (m_model->cases().empty())
                loadDefaultCases();
        });
    }
}

} // namespace lp::ui
