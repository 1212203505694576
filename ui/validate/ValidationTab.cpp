#include "ui/validate/ValidationTab.h"

#include "core/measured/ValidationRun.h"
#include "core/measured/ValidationText.h"
#include "ui/document/ScenarioDocument.h"
#include "ui/document/ValidationSets.h"
#include "ui/validate/ValidationChart.h"
#include "ui/validate/ValidationGroups.h"
#include "ui/validate/ValidationModel.h"
#include "ui/validate/ValidationSummary.h"
#include "ui/widgets/FlowLayout.h"
#include "ui/widgets/Format.h"
#include "ui/widgets/InlineBanner.h"
#include "ui/widgets/ScrollPage.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QEvent>
#include <QFileInfo>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QSettings>
#include <QSignalBlocker>
#include <QSplitter>
#include <QStandardPaths>
#include <QStyleOptionComboBox>
#include <QStylePainter>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <functional>
#include <iterator>
#include <span>

namespace lp::ui {
namespace {

const char* const kSettingsKey = "validation/casesFile";
const char* const kConvertedCasesRelative = "tests/data/validation/reference-runs.json";
const char* const kCasesRelative = "shared/reference/published-runs.json";

// The width a column wants: room for its longest usual content.
struct ColumnSample {
    int column;
    const char* sample;
    int padding = 18;
    int width(const QFontMetrics& fm) const {
        return fm.horizontalAdvance(QString::fromUtf8(sample)) + padding;
    }
};
// Case, GPUs and layout give up room (elided) before the table scrolls; the figures keep theirs.
constexpr ColumnSample kFlexibleColumns[] = {
    {ValidationModel::CaseColumn, "korthikanti22_530B_full_recompute"},
    {ValidationModel::GpuColumn, "1,024 × A100 SXM 80 GB"},
    {ValidationModel::LayoutColumn, "TP8 · PP35 · DP1 · VPP3 · mb12*"}};
constexpr ColumnSample kFixedColumns[] = {{ValidationModel::MetricColumn, "Iteration time"},
                                          {ValidationModel::MeasuredColumn, "3,012 tokens/s"},
                                          {ValidationModel::PredictedColumn, "3,012 tokens/s"},
                                          {ValidationModel::ErrorColumn, "−10.5%", 26}};

// The set chooser: as wide as the set's whole title where the line has room, elided (the tooltip has it
// whole) where it has not; never wider than its short minimum when the page is narrow.
class SetCombo : public QComboBox {
public:
    using QComboBox::QComboBox;

    QSize sizeHint() const override {
        QStyleOptionComboBox opt;
        initStyleOption(&opt);
        const QString text = currentIndex() < 0 ? placeholderText() : currentText();
        const QSize content(fontMetrics().horizontalAdvance(text) + 8, fontMetrics().height());
        return style()
            ->sizeFromContents(QStyle::CT_ComboBox, &opt, content, this)
            .expandedTo(minimumSizeHint());
    }
    // A height for any width: the flow layout may then give it less than its preferred width.
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int) const override { return sizeHint().height(); }

protected:
    void paintEvent(QPaintEvent*) override {
        QStylePainter painter(this);
        painter.setPen(palette().color(QPalette::Text));
        QStyleOptionComboBox opt;
        initStyleOption(&opt);
        painter.drawComplexControl(QStyle::CC_ComboBox, opt);
        if (currentIndex() < 0) {
            opt.palette.setBrush(QPalette::ButtonText, opt.palette.placeholderText());
            opt.currentText = placeholderText();
        }
        const QRect field =
            style()->subControlRect(QStyle::CC_ComboBox, &opt, QStyle::SC_ComboBoxEditField, this);
        opt.currentText = fontMetrics().elidedText(opt.currentText, Qt::ElideRight, field.width() - 2);
        painter.drawControl(QStyle::CE_ComboBoxLabel, opt);
    }
};

} // namespace

ValidationTab::ValidationTab(ScenarioDocument& doc, QWidget* parent)
    : QWidget(parent), m_doc(doc), m_model(new ValidationModel(this)),
      m_filter(new ValidationFilterModel(this)) {
    setObjectName(QStringLiteral("validationTab"));
    m_filter->setSourceModel(m_model);
    QLayout* titleRow = buildTitleRow();
    m_banner = new InlineBanner(this);
    m_summary = new ValidationSummary(this);
    auto* targets = new QLabel(qs(core::targetsSentence()), this);
    targets->setWordWrap(true);
    targets->setForegroundRole(QPalette::PlaceholderText);
    m_groups = new ValidationGroups(this);
    QLayout* filterRow = buildFilterRow();
    buildTable();
    m_chart = new ValidationChart(*m_model, *m_filter, this);
    m_splitter = new QSplitter(Qt::Horizontal, this);
    m_splitter->setChildrenCollapsible(false);
    m_splitter->addWidget(m_table);
    m_splitter->addWidget(m_chart);
    m_splitter->setStretchFactor(0, 3);
    m_splitter->setStretchFactor(1, 2);

    auto* layout = new QVBoxLayout(scrollingContent(this));
    layout->addLayout(titleRow);
    layout->addWidget(m_banner);
    layout->addWidget(m_summary);
    layout->addWidget(targets);
    layout->addWidget(m_groups);
    layout->addLayout(filterRow);
    layout->addWidget(m_splitter, 1);

    m_chartTimer = new QTimer(this);
    m_chartTimer->setSingleShot(true);
    m_chartTimer->setInterval(0);
    connectWidgets();
    rebuildSetCombo();
    rebuildMetricCombo();
    updateProfileControls();
    updateCountLabel();
    rebuildChart();
}

// What this is, which file, the bundled sets and another file: on one line where they fit.
QLayout* ValidationTab::buildTitleRow() {
    auto* title = new QLabel(tr("Published training runs: predicted against measured"), this);
    QFont titleFont = title->font();
    titleFont.setBold(true);
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.15);
    title->setFont(titleFont);
    title->setWordWrap(true); // on a narrow page (a projector's presentation fonts) it wraps
    m_titleRow.path = new QLabel(this);
    m_titleRow.path->setObjectName(QStringLiteral("casesFileLabel"));
    m_titleRow.path->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_titleRow.path->setForegroundRole(QPalette::PlaceholderText);
    // A long path never widens the page; the counts after it wrap onto the next line.
    m_titleRow.path->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_titleRow.path->setWordWrap(true);
    m_titleRow.openFile = new QPushButton(tr("Open cases &file..."), this);
    m_titleRow.openFile->setToolTip(
        tr("Read another file of measured runs (layout-planner/validation-cases@2 or @1, "
           "documented in docs/formats.md)"));
    m_titleRow.set = new SetCombo(this);
    m_titleRow.set->setObjectName(QStringLiteral("validationSet"));
    // At least a short name, the whole title where the line has room: a long title never widens the window.
    m_titleRow.set->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_titleRow.set->setMinimumContentsLength(14);
    QSizePolicy setPolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    setPolicy.setHeightForWidth(true);
    m_titleRow.set->setSizePolicy(setPolicy);
    connect(m_titleRow.set, &QComboBox::currentIndexChanged, m_titleRow.set, &QWidget::updateGeometry);
    m_titleRow.reload = new QPushButton(tr("Re&load"), this);
    m_titleRow.reload->setToolTip(tr("Read the cases file again and predict every case"));
    m_titleRow.reload->setEnabled(false);
    auto* row = new FlowLayout(nullptr, 16, 4);
    auto* titleBox = new QWidget(this);
    auto* titleText = new QVBoxLayout(titleBox);
    titleText->setContentsMargins(0, 0, 0, 0);
    titleText->setSpacing(0);
    titleText->addWidget(title);
    titleText->addWidget(m_titleRow.path);
    row->addWidget(titleBox);
    auto* setLabel = new QLabel(tr("S&et:"), this);
    setLabel->setBuddy(m_titleRow.set);
    QWidget* setChooser = controlGroup(this, {setLabel, m_titleRow.set});
    row->addWidget(setChooser);
    row->addWidget(controlGroup(this, {m_titleRow.openFile, m_titleRow.reload}));
    row->setPushRight(setChooser);
    row->setStretchItem(titleBox); // the file's path shows whole where there is room
    return row;
}

// The metric, the text filter, the measured profile, the count and "Open as scenario".
QLayout* ValidationTab::buildFilterRow() {
    m_filterRow.metric = new QComboBox(this);
    m_filterRow.metric->setToolTip(tr("Show one metric, or all of them"));
    m_filterRow.metric->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_filterRow.search = new QLineEdit(this);
    m_filterRow.search->setPlaceholderText(tr("Filter by case, source, GPU, model or notes"));
    m_filterRow.search->setClearButtonEnabled(true);
    m_filterRow.search->setMinimumWidth(220);
    m_filterRow.useProfile = new QCheckBox(tr("Use the active measured profile"), this);
    m_filterRow.useProfile->setToolTip(
        tr("Predict the cases on the profile's GPU with the hardware profile active in the "
           "window (Calibrate tab); other GPUs keep their built-in profiles"));
    m_filterRow.count = new QLabel(this);
    m_filterRow.openCase = new QPushButton(tr("Open as &scenario"), this);
    m_filterRow.openCase->setToolTip(
        tr("Make the selected case the window's scenario (a new, unsaved scenario; its "
           "micro batch resolved as the prediction used it). Double-click a row does the same."));
    m_filterRow.openCase->setEnabled(false);
    auto* row = new FlowLayout(nullptr, 12, 4);
    auto* metricLabel = new QLabel(tr("&Metric:"), this);
    metricLabel->setBuddy(m_filterRow.metric);
    row->addWidget(controlGroup(this, {metricLabel, m_filterRow.metric}));
    row->addWidget(m_filterRow.search);
    row->addWidget(m_filterRow.useProfile);
    row->addWidget(m_filterRow.count);
    row->addWidget(m_filterRow.openCase);
    row->setPushRight(m_filterRow.openCase);
    row->setStretchItem(m_filterRow.search);
    return row;
}

void ValidationTab::buildTable() {
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
    QHeaderView* header = m_table->horizontalHeader();
    header->setHighlightSections(false);
    header->setStretchLastSection(false);
    header->setSectionResizeMode(QHeaderView::Interactive);
    header->setSectionResizeMode(ValidationModel::SourceColumn, QHeaderView::Stretch);
    m_table->sortByColumn(-1, Qt::AscendingOrder); // the file's order until a header is clicked
    const QFontMetrics fm = m_table->fontMetrics();
    for (const std::span<const ColumnSample> columns :
         {std::span<const ColumnSample>(kFlexibleColumns), std::span<const ColumnSample>(kFixedColumns)})
        for (const ColumnSample& c : columns)
            m_table->setColumnWidth(c.column, c.width(fm));
    header->setMinimumSectionSize(fm.horizontalAdvance(QStringLiteral("Source")) + 24);
    // The source, the longest and least read, last and taking the room left.
    header->moveSection(ValidationModel::SourceColumn, ValidationModel::ColumnCount - 1);
    m_table->installEventFilter(this); // resized: fit the columns
}

void ValidationTab::connectWidgets() {
    connect(m_chartTimer, &QTimer::timeout, this, &ValidationTab::rebuildChart);
    connect(m_chart, &ValidationChart::rowClicked, this, &ValidationTab::selectSourceRow);
    connect(m_chart, &ValidationChart::rowDoubleClicked, this, &ValidationTab::openCase);
    connect(m_summary, &ValidationSummary::metricClicked, this, [this](const QString& metric) {
        setMetricFilter(m_filter->metric() == metric ? QString() : metric);
    });
    connect(m_titleRow.openFile, &QPushButton::clicked, this, &ValidationTab::chooseCasesFile);
    connect(m_titleRow.set, &QComboBox::activated, this, [this](int index) {
        const QString path = m_titleRow.set->itemData(index).toString();
        if (!path.isEmpty() && path != m_path)
            loadCasesFile(path);
    });
    connect(m_titleRow.reload, &QPushButton::clicked, this, [this] {
        if (!m_path.isEmpty())
            loadCasesFile(m_path);
    });
    connect(m_banner, &InlineBanner::actionTriggered, this, [this](const QString& id) {
        if (id == QLatin1String("openCases"))
            chooseCasesFile();
        if (id == QLatin1String("allRuns"))
            m_filter->setCaseIds({});
        if (id.startsWith(QLatin1String("bandSet:")))
            showRuns(m_bandRuns, id.mid(QStringLiteral("bandSet:").size()));
    });
    connect(m_filterRow.metric, &QComboBox::currentIndexChanged, this,
            [this] { m_filter->setMetric(m_filterRow.metric->currentData().toString()); });
    connect(m_filterRow.search, &QLineEdit::textChanged, m_filter, &ValidationFilterModel::setText);
    connect(m_filterRow.useProfile, &QCheckBox::toggled, this, [this] { rerun(); });
    connect(m_filterRow.openCase, &QPushButton::clicked, this, &ValidationTab::openSelected);
    connect(m_table, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
        if (index.isValid())
            openCase(m_filter->mapToSource(index).row());
    });
    const auto selectionChanged = [this] {
        m_filterRow.openCase->setEnabled(currentSourceRow() >= 0);
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
    // Beside or above the executable (build/app/layout-planner -> ../..) and the working folder: the
    // repository's converted reference set first, then the shared one it was converted from.
    for (const QString& path : pathsUpwards(QLatin1String(kConvertedCasesRelative)))
        add(path);
    for (const QString& path : pathsUpwards(QLatin1String(kCasesRelative)))
        add(path);
    for (const QString& base : QStandardPaths::standardLocations(QStandardPaths::GenericDataLocation))
        add(QDir(base).filePath(QStringLiteral("layout-planner/validation/reference-runs.json")));
    for (const QString& base : QStandardPaths::standardLocations(QStandardPaths::AppDataLocation))
        add(QDir(base).filePath(QStringLiteral("published-runs.json")));
    for (const QString& base : QStandardPaths::standardLocations(QStandardPaths::GenericDataLocation))
        add(QDir(base).filePath(QStringLiteral("layout-planner/published-runs.json")));
    return out;
}

void ValidationTab::setDataLookup(DataLookup lookup) {
    m_lookup = std::move(lookup);
    rebuildSetCombo();
}

bool ValidationTab::loadDefaultCases() {
    m_triedDefault = true;
    const QStringList candidates = m_lookup.referenceCandidates();
    for (const QString& path : candidates)
        if (QFileInfo(path).isFile())
            return loadCasesFile(path);
    showReferenceNotFound(candidates);
    return false;
}

// Says plainly that no set is loaded, where the reference set was looked for and how to point to one.
void ValidationTab::showReferenceNotFound(const QStringList& searched) {
    const bool others = !m_lookup.sets().empty();
    m_errorText = tr("The reference set of published runs (published-runs.json) was not found, so no runs "
                     "are shown.");
    QStringList shown;
    for (const QString& path : searched)
        shown << QStringLiteral("&nbsp;&nbsp;") + QDir::toNativeSeparators(path).toHtmlEscaped();
    const QString choose = others ? tr("Choose another set in the Set box, or open a file of measured runs")
                                  : tr("Open a file of measured runs");
    m_banner->showMessage(
        InlineBanner::Kind::Warning, m_errorText,
        tr("%1 (layout-planner/validation-cases@2 or @1), for example "
           "tests/data/validation/reference-runs.json from the project's sources; it is then looked for "
           "first at the next start. Running from a build "
           "folder, keep shared/ beside or above it, or install the data in %2.<br>Looked in:<br>%3")
            .arg(choose,
                 QDir::toNativeSeparators(
                     QDir(QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation))
                         .filePath(QStringLiteral("layout-planner")))
                     .toHtmlEscaped(),
                 shown.join(QStringLiteral("<br>"))));
    m_banner->addAction(QStringLiteral("openCases"), tr("Open cases file..."));
    m_titleRow.path->setText(tr("No set loaded"));
    m_titleRow.path->setToolTip(QString());
    rebuildSetCombo();
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
    m_titleRow.reload->setEnabled(true);
    m_filter->setCaseIds({}); // another set: every run again
    predict(std::move(*cases));
    rebuildSetCombo();
    emit casesLoaded();
    return true;
}

void ValidationTab::rebuildSetCombo() {
    QComboBox* combo = m_titleRow.set;
    const QSignalBlocker block(combo);
    combo->clear();
    const QString current = m_path.isEmpty() ? QString() : QDir::cleanPath(m_path);
    int selected = -1;
    for (const ValidationSet& set : m_lookup.sets()) {
        combo->addItem(set.title, set.path);
        combo->setItemData(combo->count() - 1, QDir::toNativeSeparators(set.path), Qt::ToolTipRole);
        if (QDir::cleanPath(set.path) == current)
            selected = combo->count() - 1;
    }
    if (selected < 0 && !current.isEmpty()) {
        combo->addItem(tr("Other file: %1").arg(QFileInfo(current).fileName()), current);
        selected = combo->count() - 1;
    }
    // Nothing loaded: no set is shown as chosen, the placeholder says so.
    combo->setPlaceholderText(combo->count() == 0 ? tr("No sets found") : tr("No set loaded: choose one"));
    combo->setCurrentIndex(selected);
    combo->setEnabled(combo->count() > 1 || (combo->count() == 1 && selected < 0));
    const QString about = tr("The sets of published measured runs that come with Layout Planner; "
                             "docs/validation*.md has each of them case by case");
    combo->setToolTip(selected < 0
                          ? about
                          : QStringLiteral("%1\n%2\n\n%3")
                                .arg(combo->itemText(selected),
                                     QDir::toNativeSeparators(combo->itemData(selected).toString()), about));
    combo->updateGeometry();
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
    predict(m_model->cases());
    if (!keep.isEmpty())
        for (int r = 0; r < m_model->rowCount(); ++r)
            if (m_model->index(r, 0).data(ValidationModel::CaseIdRole).toString() == keep &&
                m_model->index(r, 0).data(ValidationModel::MetricRole).toString() == keepMetric) {
                selectSourceRow(r);
                break;
            }
}

// Predicts the cases (with the active profile when asked) and shows them.
void ValidationTab::predict(std::vector<core::ValidationCase> cases) {
    const core::HardwareProfile* profile = usesActiveProfile() ? &m_doc.profile() : nullptr;
    m_usedProfile = profile ? std::optional(*profile) : std::nullopt;
    core::ValidationReport report = core::runValidation(cases, profile);
    m_model->setValidation(std::move(cases), std::move(report));
    runAndShow();
}

void ValidationTab::runAndShow() {
    const int values = m_model->rowCount();
    QString where = QDir::toNativeSeparators(m_path);
    const auto adjusted = std::count_if(m_model->cases().begin(), m_model->cases().end(),
                                        [](const core::ValidationCase& c) { return !c.adjustments.empty(); });
    m_titleRow.path->setText(
        tr("%1 — %n cases, ", nullptr, m_model->caseCount()).arg(where) +
        tr("%n measured values", nullptr, values) +
        (adjusted > 0
             ? tr("; %n adjusted to be planned (see their tooltips)", nullptr, static_cast<int>(adjusted))
             : QString()) +
        (usesActiveProfile() ? tr("; predicted with %1").arg(qs(m_doc.profile().name)) : QString()));
    m_titleRow.path->setToolTip(where);
    m_summary->showReport(m_model->report());
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
    const int i = m_filterRow.metric->findData(metric);
    m_filterRow.metric->setCurrentIndex(i >= 0 ? i : 0);
    m_filter->setMetric(m_filterRow.metric->currentData().toString());
}

void ValidationTab::setTextFilter(const QString& text) {
    m_filterRow.search->setText(text);
}

void ValidationTab::setUseActiveProfile(bool use) {
    m_filterRow.useProfile->setChecked(use && m_filterRow.useProfile->isEnabled());
}

bool ValidationTab::usesActiveProfile() const {
    return m_filterRow.useProfile->isEnabled() && m_filterRow.useProfile->isChecked();
}

void ValidationTab::updateProfileControls() {
    const core::HardwareProfile& p = m_doc.profile();
    const bool measured = p.origin != "built-in";
    m_filterRow.useProfile->setEnabled(measured);
    m_filterRow.useProfile->setVisible(measured);
    if (measured)
        m_filterRow.useProfile->setText(tr("Use the active profile (%1)").arg(qs(p.name)));
}

QStringList ValidationTab::summaryLines() const {
    return m_summary->lines();
}

QChartView* ValidationTab::chartView() const {
    return m_chart->chartView();
}

int ValidationTab::plottedPoints() const {
    return m_chart->plottedPoints();
}

bool ValidationTab::eventFilter(QObject* watched, QEvent* event) {
    // After the table lays out its viewport anew; presentation mode's fonts need wider figures.
    if (watched == m_table && (event->type() == QEvent::Resize || event->type() == QEvent::FontChange))
        QMetaObject::invokeMethod(this, &ValidationTab::fitColumns, Qt::QueuedConnection);
    return QWidget::eventFilter(watched, event);
}

void ValidationTab::rebuildMetricCombo() {
    const QString current = m_filterRow.metric->currentData().toString();
    const QSignalBlocker block(m_filterRow.metric);
    m_filterRow.metric->clear();
    m_filterRow.metric->addItem(tr("All metrics"), QString());
    const QStringList metrics = m_model->metrics();
    if (metrics.size() > 1 && metrics.contains(QStringLiteral("peak_memory_gib")))
        m_filterRow.metric->addItem(tr("Throughput metrics"), QStringLiteral("throughput"));
    for (const QString& m : metrics)
        m_filterRow.metric->addItem(ValidationModel::metricName(m), m);
    const int i = m_filterRow.metric->findData(current);
    m_filterRow.metric->setCurrentIndex(i >= 0 ? i : 0);
    m_filter->setMetric(m_filterRow.metric->currentData().toString());
}

void ValidationTab::updateCountLabel() {
    const int shown = m_filter->rowCount();
    const int all = m_model->rowCount();
    m_filterRow.count->setText(shown == all ? tr("%n values", nullptr, all)
                                            : tr("%1 of %n values", nullptr, all).arg(shown));
}

void ValidationTab::scheduleChart() {
    updateCountLabel();
    m_chartTimer->start();
}

void ValidationTab::rebuildChart() {
    m_chart->rebuild();
    updateSelectionMarker();
}

void ValidationTab::updateSelectionMarker() {
    m_chart->showSelected(m_model->rowAt(currentSourceRow()));
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
        m_filterRow.search->clear();
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

int ValidationTab::showRuns(const QStringList& caseIds, const QString& setPath) {
    // How many of the runs each bundled set holds; the one asked for, else the one holding most, is shown.
    struct SetCount {
        const ValidationSet* set;
        qsizetype count;
    };
    std::vector<SetCount> holding;
    const std::vector<ValidationSet> sets = m_lookup.sets();
    for (const ValidationSet& set : sets) {
        core::InputErrors skipped;
        const auto cases =
            core::loadValidationCases(QDir::toNativeSeparators(set.path).toStdString(), &skipped);
        if (!cases)
            continue;
        const auto count = std::ranges::count_if(
            *cases, [&](const core::ValidationCase& c) { return caseIds.contains(qs(c.id)); });
        if (count > 0)
            holding.push_back({&set, count});
    }
    std::ranges::stable_sort(holding, std::greater{}, &SetCount::count);
    const auto shown = std::ranges::find_if(
        holding, [&](const SetCount& h) { return QDir::cleanPath(h.set->path) == QDir::cleanPath(setPath); });
    const SetCount* pick = shown != holding.end() ? &*shown : (holding.empty() ? nullptr : &holding.front());
    if (!pick ||
        (QDir::cleanPath(pick->set->path) != QDir::cleanPath(m_path) && !loadCasesFile(pick->set->path)))
        return 0;
    setTextFilter({});
    setMetricFilter(QStringLiteral("throughput"));
    m_filter->setCaseIds(caseIds);
    const qsizetype elsewhere = caseIds.size() - pick->count;
    m_banner->showMessage(InlineBanner::Kind::Info,
                          tr("%n of the published runs behind the plan's band, in this set", nullptr,
                             static_cast<int>(pick->count)),
                          elsewhere > 0 ? tr("The others are in the sets offered beside.") : QString());
    m_banner->addAction(QStringLiteral("allRuns"), tr("Show every run"));
    // One click to each other set that holds some of them.
    m_bandRuns = caseIds;
    for (const SetCount& other : holding)
        if (&other != pick)
            m_banner->addAction(QStringLiteral("bandSet:") + other.set->path,
                                tr("%1 (%n)", nullptr, static_cast<int>(other.count))
                                    .arg(QFileInfo(other.set->path).completeBaseName()),
                                other.set->title);
    return m_filter->rowCount();
}

bool ValidationTab::openSelected() {
    const int row = currentSourceRow();
    return row >= 0 && openCase(row);
}

Qt::Orientation ValidationTab::splitOrientation() const {
    return m_splitter->orientation();
}

int ValidationTab::tableWidthNeeded() const {
    // Every column at its full width (not as fitColumns shrank them), the source at 120.
    const QFontMetrics fm = m_table->fontMetrics();
    int w = 2 * m_table->frameWidth() + m_table->verticalScrollBar()->sizeHint().width() + 120;
    for (const std::span<const ColumnSample> columns :
         {std::span<const ColumnSample>(kFlexibleColumns), std::span<const ColumnSample>(kFixedColumns)})
        for (const ColumnSample& c : columns)
            w += c.width(fm);
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

// The figures keep the width their text needs in the current font. Where the table is narrower than all of
// it, the others give way in turn: the source, then the GPUs and the layout are left out, and what is left
// of case, GPUs and layout shrinks (elided) to a floor; every row's tooltip has them all whole. Only below
// that does the table scroll sideways.
void ValidationTab::fitColumns() {
    const QFontMetrics fm = m_table->fontMetrics();
    int fixed = 0;
    for (const ColumnSample& c : kFixedColumns) {
        m_table->setColumnWidth(c.column, c.width(fm));
        fixed += c.width(fm);
    }
    constexpr double kFloor = 0.6; // below this share of their width a column is left out
    const int viewport = m_table->viewport()->width();
    const int source = fm.horizontalAdvance(QStringLiteral("Megatron-LM paper")) + 18;
    std::vector<ColumnSample> flexible(std::begin(kFlexibleColumns), std::end(kFlexibleColumns));
    const auto ideal = [&] {
        int sum = 0;
        for (const ColumnSample& c : flexible)
            sum += c.width(fm);
        return sum;
    };
    const bool showSource = viewport >= fixed + ideal() * 3 / 4 + source;
    m_table->setColumnHidden(ValidationModel::SourceColumn, !showSource);
    const int available = viewport - fixed - (showSource ? source : 0);
    for (const int leftOut : {ValidationModel::GpuColumn, ValidationModel::LayoutColumn}) {
        const bool hide = flexible.size() > 1 && available < ideal() * kFloor;
        m_table->setColumnHidden(leftOut, hide);
        if (hide)
            std::erase_if(flexible, [leftOut](const ColumnSample& c) { return c.column == leftOut; });
    }
    const double scale = std::clamp(static_cast<double>(available) / ideal(), 0.0, 1.0);
    for (const ColumnSample& c : flexible) {
        const int heading =
            fm.horizontalAdvance(m_filter->headerData(c.column, Qt::Horizontal).toString()) + 24;
        m_table->setColumnWidth(c.column, std::max(heading, static_cast<int>(c.width(fm) * scale)));
    }
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
