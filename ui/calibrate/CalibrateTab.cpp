#include "ui/calibrate/CalibrateTab.h"

#include "core/estimate/Evaluate.h"
#include "core/io/Presets.h"
#include "core/io/ProfileJson.h"
#include "core/io/ScenarioJson.h"
#include "cuda/CalibrationSummary.h"
#include "cuda/Device.h"
#include "ui/calibrate/BenchmarkPanel.h"
#include "ui/calibrate/CalibrationCharts.h"
#include "ui/calibrate/GpuPanel.h"
#include "ui/calibrate/MeasuredProfileBox.h"
#include "ui/calibrate/MeasurementsTable.h"
#include "ui/calibrate/ProfileBar.h"
#include "ui/document/ScenarioDocument.h"
#include "ui/widgets/Format.h"
#include "ui/widgets/InlineBanner.h"
#include "ui/widgets/Palette.h"
#include "ui/widgets/ScrollPage.h"

#include <QCheckBox>
#include <QDateTime>
#include <QDir>
#include <QEvent>
#include <QFileInfo>
#include <QLabel>
#include <QPushButton>
#include <QRegularExpression>
#include <QSplitter>
#include <QTabWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace lp::ui {

CalibrationBackend CalibrationBackend::local() {
    CalibrationBackend b;
    b.hasCudaSupport = [] { return calib::hasCudaSupport(); };
    b.buildDescription = [] { return calib::buildDescription(); };
    b.detectGpus = [](std::string* why) { return calib::detectGpus(why); };
    b.run = [](const calib::CalibrationRequest& r, const calib::ProgressCallback& p) {
        return calib::runCalibration(r, p);
    };
    return b;
}

CalibrateTab::CalibrateTab(ScenarioDocument& doc, QWidget* parent)
    : CalibrateTab(doc, CalibrationBackend::local(), parent) {}

CalibrateTab::CalibrateTab(ScenarioDocument& doc, CalibrationBackend backend, QWidget* parent)
    : QWidget(parent), m_doc(doc), m_backend(std::move(backend)) {
    setObjectName(QStringLiteral("calibrateTab"));
    m_hasCuda = m_backend.hasCudaSupport && m_backend.hasCudaSupport();
    m_profileBar = new ProfileBar(this);
    m_banner = new InlineBanner(this);
    m_banner->setClosable(true);
    m_splitter = new QSplitter(Qt::Horizontal, this);
    m_splitter->setObjectName(QStringLiteral("calibrateSplitter"));
    m_splitter->setChildrenCollapsible(false);
    m_splitter->addWidget(buildSettingsColumn());
    m_splitter->addWidget(buildResults());
    m_splitter->setStretchFactor(0, 0);
    m_splitter->setStretchFactor(1, 1);
    m_splitter->setSizes({440, 900});
    auto* layout = new QVBoxLayout(scrollingContent(this));
    layout->addWidget(m_profileBar);
    layout->addWidget(m_banner);
    layout->addWidget(m_splitter, 1);
    connectWidgets();

    updateAvailability();
    updateProfileStatus();
    updateResultSummary();
    updateComparison();
    showResults();
}

CalibrateTab::~CalibrateTab() {
    if (m_runState)
        m_runState->cancel = true;
    for (QPointer<QThread>* t : {&m_thread, &m_detectThread}) {
        if (!t->isNull()) {
            (*t)->wait();
            delete t->data(); // its queued events (results for this tab) go with it
        }
    }
}

// The GPUs, the benchmarks and the measured profile, in a column; the page scrolls, not the column.
QWidget* CalibrateTab::buildSettingsColumn() {
    m_gpuPanel = new GpuPanel(this);
    m_benchmarks = new BenchmarkPanel(this);
    m_profileBox = new MeasuredProfileBox(this);
    auto* column = new QWidget(this);
    column->setObjectName(QStringLiteral("calibrateSettings"));
    column->setMinimumWidth(380);
    auto* layout = new QVBoxLayout(column);
    layout->setContentsMargins(0, 0, 4, 0);
    layout->addWidget(m_gpuPanel);
    layout->addWidget(m_benchmarks);
    layout->addWidget(m_profileBox);
    layout->addStretch(1);
    column->installEventFilter(this);
    m_settingsColumn = column;
    return column;
}

bool CalibrateTab::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_settingsColumn &&
        (event->type() == QEvent::Resize || event->type() == QEvent::LayoutRequest)) {
        // A splitter ignores height-for-width: without this, wrapped texts would be cut at the bottom.
        const int needed = m_settingsColumn->heightForWidth(m_settingsColumn->width());
        if (needed > 0 && needed != m_settingsColumn->minimumHeight())
            m_settingsColumn->setMinimumHeight(needed);
    }
    return QWidget::eventFilter(watched, event);
}

// The charts and the measurements table, one tab each.
QWidget* CalibrateTab::buildResults() {
    m_charts = new CalibrationCharts(this);
    m_table = new MeasurementsTable(this);
    m_resultTabs = new QTabWidget(this);
    m_resultTabs->setDocumentMode(true);
    m_resultTabs->addTab(m_charts, tr("Charts"));
    m_resultTabs->addTab(m_table, tr("Measurements"));
    return m_resultTabs;
}

void CalibrateTab::connectWidgets() {
    connect(m_profileBar->importButton(), &QPushButton::clicked, this, &CalibrateTab::chooseAndImport);
    connect(m_gpuPanel->importButton(), &QPushButton::clicked, this, &CalibrateTab::chooseAndImport);
    connect(m_profileBar->loadButton(), &QPushButton::clicked, this, &CalibrateTab::chooseAndLoad);
    connect(m_profileBar->saveButton(), &QPushButton::clicked, this, &CalibrateTab::chooseAndSave);
    connect(m_profileBar->builtinButton(), &QPushButton::clicked, this, &CalibrateTab::useBuiltinProfile);
    connect(m_gpuPanel->redetectButton(), &QPushButton::clicked, this, &CalibrateTab::detectGpus);
    connect(m_benchmarks->runButton(), &QPushButton::clicked, this, &CalibrateTab::startCalibration);
    connect(m_benchmarks->cancelButton(), &QPushButton::clicked, this, &CalibrateTab::cancelCalibration);
    connect(m_benchmarks, &BenchmarkPanel::choicesChanged, this, &CalibrateTab::updateAvailability);
    connect(m_profileBox->applyButton(), &QPushButton::clicked, this, &CalibrateTab::applyCandidate);
    connect(&m_doc, &ScenarioDocument::planChanged, this, [this] {
        updateProfileStatus();
        updateComparison();
    });
    connect(&m_doc, &ScenarioDocument::scenarioChanged, this, [this] {
        updateAvailability(); // the scenario's GEMM shapes
        if (!isRunning() && !m_result)
            showResults(); // the scenario's GPU peak and profile
    });
    connect(&m_doc, &ScenarioDocument::profileChanged, this, [this] {
        updateProfileStatus();
        if (!isRunning())
            showResults();
    });
}

void CalibrateTab::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    if (!m_splitter)
        return;
    int sideBySide = m_splitter->handleWidth() + 24; // the handle and the page's margins
    for (int i = 0; i < m_splitter->count(); ++i) {
        const QWidget* w = m_splitter->widget(i);
        sideBySide += w->minimumSize().expandedTo(w->minimumSizeHint()).width();
    }
    const Qt::Orientation wanted = width() >= sideBySide ? Qt::Horizontal : Qt::Vertical;
    if (wanted == m_splitter->orientation())
        return;
    m_splitter->setOrientation(wanted);
    if (wanted == Qt::Horizontal)
        m_splitter->setSizes({440, 900});
    else // the settings as tall as they need, the charts below them
        m_splitter->setSizes({m_settingsColumn->minimumHeight(), height()});
}

void CalibrateTab::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (!m_shownOnce) {
        m_shownOnce = true;
        if (!m_detected && !m_detecting)
            detectGpus();
    }
}

// ------------------------------------------------------------------------------------------------
// GPUs

void CalibrateTab::detectGpus() {
    if (m_detecting || isRunning())
        return;
    m_detecting = true;
    updateAvailability();
    auto detect = m_backend.detectGpus;
    m_detectThread = QThread::create([this, detect] {
        std::string why;
        std::vector<calib::DeviceInfo> gpus;
        if (detect)
            gpus = detect(&why);
        else
            why = calib::kNoCudaBuildMessage;
        QMetaObject::invokeMethod(
            this,
            [this, found = std::move(gpus), reason = qs(why)]() mutable {
                onDetected(std::move(found), reason);
            },
            Qt::QueuedConnection);
    });
    connect(m_detectThread.data(), &QThread::finished, m_detectThread.data(), &QObject::deleteLater);
    m_detectThread->start();
}

void CalibrateTab::onDetected(std::vector<calib::DeviceInfo> gpus, QString whyNot) {
    m_detectThread = nullptr;
    m_detecting = false;
    m_detected = true;
    m_gpus = std::move(gpus);
    m_whyNot = whyNot;
    m_gpuPanel->showGpus(m_gpus);
    m_benchmarks->setDevices(m_gpus);
    updateAvailability();
    showResults();
    emit gpusDetected();
}

QString CalibrateTab::unavailableReason() const {
    if (!m_hasCuda)
        return QString::fromLatin1(calib::kNoCudaBuildMessage);
    if (m_detecting || !m_detected)
        return tr("looking for GPUs");
    if (m_gpus.empty())
        return m_whyNot.isEmpty() ? tr("no NVIDIA GPU found") : m_whyNot;
    return {};
}

bool CalibrateTab::canCalibrate() const {
    return m_hasCuda && m_detected && !m_gpus.empty();
}

void CalibrateTab::updateAvailability() {
    const bool usable = canCalibrate();
    GpuSearch search;
    search.buildHasCuda = m_hasCuda;
    search.detecting = m_detecting;
    search.detected = m_detected;
    search.whyNone = m_whyNot;
    search.running = isRunning();
    search.build = m_backend.buildDescription ? qs(m_backend.buildDescription()) : QString();
    m_gpuPanel->showSearch(search, usable);
    BenchmarkContext context;
    context.usable = usable;
    context.running = isRunning();
    context.lookingForGpus = m_detecting || !m_detected;
    context.unavailableReason = unavailableReason();
    context.hasResult = m_result.has_value();
    context.scenario = &m_doc.scenario();
    context.gpus = &m_gpus;
    m_benchmarks->showContext(context);
}

// ------------------------------------------------------------------------------------------------
// Benchmarks

calib::CalibrationRequest CalibrateTab::currentRequest() const {
    return m_benchmarks->request(m_doc.scenario());
}

bool CalibrateTab::startCalibration() {
    if (isRunning() || !canCalibrate())
        return false;
    const calib::CalibrationRequest request = currentRequest();
    if (request.gemms.empty() && request.hbmBytes.empty() && request.commBytes.empty())
        return false;
    const auto device = std::find_if(m_gpus.begin(), m_gpus.end(),
                                     [&](const calib::DeviceInfo& d) { return d.index == request.device; });
    if (device == m_gpus.end())
        return false;
    auto reference = calib::chooseReference(*device, &m_doc.scenario());
    if (!reference) {
        showError(tr("Cannot calibrate %1").arg(qs(device->name)), qs(reference.error()));
        return false;
    }
    m_reference = *reference;
    m_result.reset();
    m_errorText.clear();
    m_banner->hide();
    m_runState = std::make_shared<RunState>();
    m_lastRedrawMs = -1;
    m_benchmarks->startProgress(tr("Starting on %1…").arg(qs(device->name)));
    runInWorker(request);
    updateAvailability();
    return true;
}

// Runs the benchmarks in a worker thread that reports back to this tab through queued calls.
void CalibrateTab::runInWorker(const calib::CalibrationRequest& request) {
    auto state = m_runState;
    auto run = m_backend.run;
    m_thread = QThread::create([this, state, run, request] {
        const calib::ProgressCallback progress = [this, state](const calib::Progress& p) {
            std::optional<calib::CalibrationResult> snapshot;
            if (p.partial)
                snapshot = *p.partial;
            QMetaObject::invokeMethod(
                this,
                [this, done = p.done, total = p.total, phase = qs(p.phase), item = qs(p.item),
                 copy = std::move(snapshot)]() mutable {
                    onProgress(done, total, phase, item, std::move(copy));
                },
                Qt::QueuedConnection);
            return !state->cancel.load();
        };
        calib::CalibrationResult result = run ? run(request, progress) : calib::CalibrationResult{};
        if (!run)
            result.error = calib::kNoCudaBuildMessage;
        if (state->cancel.load() && !result.ok)
            result.cancelled = true;
        QMetaObject::invokeMethod(
            this, [this, finished = std::move(result)]() mutable { onFinished(std::move(finished)); },
            Qt::QueuedConnection);
    });
    connect(m_thread.data(), &QThread::finished, m_thread.data(), &QObject::deleteLater);
    m_thread->start();
}

void CalibrateTab::cancelCalibration() {
    if (!m_runState || !isRunning())
        return;
    m_runState->cancel = true;
    m_benchmarks->cancelButton()->setEnabled(false);
    m_benchmarks->setProgressText(tr("Cancelling after the current item…"));
}

void CalibrateTab::onProgress(int done, int total, QString phase, QString item,
                              std::optional<calib::CalibrationResult> partial) {
    if (!isRunning())
        return;
    m_benchmarks->showProgress(done, total);
    if (!m_runState || !m_runState->cancel)
        m_benchmarks->setProgressText(
            done >= total ? tr("Finishing…")
                          : tr("%1 %2 of %3: %4").arg(phase).arg(done + 1).arg(total).arg(item));
    if (partial)
        m_result = std::move(partial);
    emit calibrationProgress(done, total);
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    if (m_lastRedrawMs < 0 || now - m_lastRedrawMs >= 150 || done >= total) {
        m_lastRedrawMs = now;
        showResults();
    }
}

void CalibrateTab::onFinished(calib::CalibrationResult result) {
    m_thread = nullptr;
    const bool cancelled = result.cancelled || (m_runState && m_runState->cancel && !result.ok);
    m_runState.reset();
    m_result = std::move(result);
    const int items = static_cast<int>(m_result->gemms.size() + m_result->sustained.size() +
                                       m_result->hbm.size() + m_result->comm.size());
    bool ok = false;
    if (cancelled) {
        m_benchmarks->showFinished(
            tr("Cancelled after %n measurements; no profile was made.", nullptr, items), false);
    } else if (!m_result->ok) {
        m_benchmarks->showFinished(tr("Failed: %1").arg(qs(m_result->error)), false);
        showError(tr("The calibration failed"), qs(m_result->error));
    } else {
        m_benchmarks->showFinished(tr("Finished: %n measurements in %1.", nullptr, items)
                                       .arg(formatDuration(m_result->elapsedSeconds)),
                                   true);
        ok = makeCandidate();
    }
    updateAvailability();
    showResults();
    updateResultSummary();
    updateComparison();
    updateProfileStatus();
    emit calibrationFinished(ok);
}

// The finished run's profile becomes the candidate; false (and the banner says why) when none can be made.
bool CalibrateTab::makeCandidate() {
    const core::HardwareProfile base = core::builtinProfile(m_reference->gpu);
    auto built = calib::buildProfile(*m_result, *m_reference, base);
    if (!built) {
        showError(tr("No profile from these measurements"), qs(built.error()));
        return false;
    }
    m_candidate = built->profile;
    m_candidateSource = tr("measured on this machine");
    m_profileNotes.clear();
    for (const auto& n : built->notes)
        m_profileNotes << qs(n);
    return true;
}

core::GpuSpec CalibrateTab::referenceGpu() const {
    if (m_reference)
        return m_reference->gpu;
    return m_doc.scenario().cluster.gpu;
}

void CalibrateTab::showResults() {
    const calib::CalibrationResult* result = m_result ? &*m_result : nullptr;
    const core::GpuSpec gpu = referenceGpu();
    m_table->showResult(result, gpu);
    m_resultTabs->setTabText(1,
                             result ? tr("Measurements (%1)").arg(m_table->rowCount()) : tr("Measurements"));
    const core::HardwareProfile& active = m_doc.profile();
    const core::HardwareProfile builtin = core::builtinProfile(m_doc.scenario().cluster.gpu);
    ProfilesShown profiles;
    profiles.active = &active;
    profiles.builtin = isOverrideActive() ? &builtin : nullptr;
    profiles.measured = m_candidate && !(*m_candidate == active) ? &*m_candidate : nullptr;
    m_charts->showMeasurements(result, gpu, profiles);
}

void CalibrateTab::showError(const QString& title, const QString& details) {
    m_errorText = details.isEmpty() ? title : title + QStringLiteral(": ") + details;
    m_banner->showMessage(InlineBanner::Kind::Error, title, details.toHtmlEscaped());
}

// ------------------------------------------------------------------------------------------------
// Profiles

bool CalibrateTab::loadProfile(const QString& path) {
    auto loaded = core::loadProfileFile(QDir::toNativeSeparators(path).toStdString());
    if (!loaded) {
        QStringList problems;
        for (const auto& e : loaded.error())
            problems << qs(e.message());
        showError(tr("Cannot read the profile %1").arg(QDir::toNativeSeparators(path)),
                  problems.mid(0, 6).join(QLatin1Char('\n')));
        return false;
    }
    m_errorText.clear();
    m_banner->hide();
    m_candidate = std::move(*loaded);
    m_candidateSource = QDir::toNativeSeparators(QFileInfo(path).absoluteFilePath());
    m_profileNotes.clear();
    updateResultSummary();
    updateComparison();
    updateProfileStatus();
    showResults();
    return true;
}

bool CalibrateTab::importProfile(const QString& path) {
    return loadProfile(path) && applyCandidate();
}

bool CalibrateTab::saveProfile(const QString& path) {
    const core::HardwareProfile profile = m_candidate ? *m_candidate : m_doc.profile();
    const QString shown = QDir::toNativeSeparators(path);
    auto saved = core::saveProfileFile(shown.toStdString(), profile);
    if (!saved) {
        showError(tr("Cannot write %1").arg(shown), qs(saved.error()));
        return false;
    }
    m_errorText.clear();
    m_banner->showMessage(InlineBanner::Kind::Info, tr("Saved the profile to %1").arg(shown),
                          tr("Use it on the command line with --profile %1").arg(shown));
    if (m_candidate && m_candidateSource == tr("measured on this machine"))
        m_candidateSource = tr("measured on this machine, saved as %1").arg(shown);
    updateProfileStatus();
    return true;
}

bool CalibrateTab::applyCandidate() {
    if (!m_candidate)
        return false;
    m_activeSource = m_candidateSource;
    m_doc.setProfileOverride(*m_candidate);
    updateProfileStatus();
    updateComparison();
    emit profileApplied();
    return true;
}

void CalibrateTab::useBuiltinProfile() {
    m_activeSource.clear();
    m_doc.setProfileOverride(std::nullopt);
    updateProfileStatus();
    updateComparison();
}

bool CalibrateTab::isOverrideActive() const {
    return !(m_doc.profile() == core::builtinProfile(m_doc.scenario().cluster.gpu));
}

QString CalibrateTab::activeProfileText() const {
    const core::HardwareProfile& p = m_doc.profile();
    if (!isOverrideActive())
        return tr("Active profile: %1 (the GPU's data-sheet figures and published efficiencies)")
            .arg(qs(p.name));
    QString text = tr("Active profile: %1").arg(qs(p.name));
    if (!p.date.empty())
        text += QStringLiteral(", %1").arg(qs(p.date));
    if (!m_activeSource.isEmpty())
        text += tr(" — from %1").arg(m_activeSource);
    return text;
}

void CalibrateTab::updateProfileStatus() {
    const bool active = isOverrideActive();
    const core::HardwareProfile& p = m_doc.profile();
    QString html = QStringLiteral("<b>%1</b> ").arg(tr("Hardware profile in use:"));
    html += activeProfileText().section(QStringLiteral(": "), 1).toHtmlEscaped();
    const std::string& scenarioGpu = m_doc.scenario().cluster.gpu.id;
    if (active && !p.gpuId.empty() && p.gpuId != scenarioGpu)
        html += QStringLiteral("<br><span style='color:%1'>%2</span>")
                    .arg(palette::warning().name(), tr("It was measured for %1, but the scenario's GPU is "
                                                       "%2: its efficiencies are applied to the %2 figures.")
                                                        .arg(qs(p.gpuId), qs(scenarioGpu))
                                                        .toHtmlEscaped());
    m_profileBar->showProfile(
        html, active,
        m_candidate
            ? tr("Write the %1 profile (%2) to a JSON file").arg(qs(m_candidate->name), m_candidateSource)
            : tr("Write the active profile to a JSON file"));
    m_profileBox->showApplyState(m_candidate.has_value(), m_candidate && *m_candidate == p);
}

QString CalibrateTab::comparisonText() const {
    return m_profileBox->comparisonLabel()->text();
}

// Built-in against active while a profile is applied, else active against the candidate.
void CalibrateTab::updateComparison() {
    const core::Scenario& s = m_doc.scenario();
    const bool candidateActive = m_candidate && *m_candidate == m_doc.profile();
    if (isOverrideActive()) {
        const core::Plan before = core::evaluate(s, core::builtinProfile(s.cluster.gpu));
        m_profileBox->showComparison(tr("Built-in → active profile, on this scenario:"), &before,
                                     &m_doc.plan());
    } else if (m_candidate && !candidateActive) {
        const core::Plan after = core::evaluate(s, *m_candidate);
        m_profileBox->showComparison(tr("Applying it would change, on this scenario:"), &m_doc.plan(),
                                     &after);
    } else {
        m_profileBox->showComparison(QString(), nullptr, nullptr);
    }
}

void CalibrateTab::updateResultSummary() {
    QStringList findings;
    QStringList notes;
    if (m_result) {
        for (const std::string& line : calib::measurementSummary(*m_result, referenceGpu()))
            findings << qs(line);
        if (m_result->ok || !m_result->gemms.empty())
            for (const std::string& note : m_result->notes)
                notes << qs(note);
    }
    notes << m_profileNotes;
    m_profileBox->showProfile(m_candidate, m_candidateSource, findings, notes);
}

QString CalibrateTab::summaryText() const {
    return m_profileBox->summaryText();
}

void CalibrateTab::chooseAndImport() {
    const QString path = m_chooseOpen(this, tr("Import a hardware profile"), QDir::homePath(),
                                      tr("Hardware profiles (*.json);;All files (*)"));
    if (!path.isEmpty())
        importProfile(path);
}

void CalibrateTab::chooseAndLoad() {
    const QString path = m_chooseOpen(this, tr("Load a hardware profile"), QDir::homePath(),
                                      tr("Hardware profiles (*.json);;All files (*)"));
    if (!path.isEmpty())
        loadProfile(path);
}

void CalibrateTab::chooseAndSave() {
    const core::HardwareProfile& p = m_candidate ? *m_candidate : m_doc.profile();
    QString name = qs(p.measuredOn.empty() ? p.name : p.measuredOn).toLower();
    name.replace(QRegularExpression(QStringLiteral("[^a-z0-9]+")), QStringLiteral("-"));
    if (!p.date.empty())
        name += QLatin1Char('-') + qs(p.date);
    const QString suggested = QDir(QDir::homePath()).filePath(QStringLiteral("profile-%1.json").arg(name));
    const QString path = m_chooseSave(this, tr("Save the hardware profile"), suggested,
                                      tr("Hardware profiles (*.json);;All files (*)"));
    if (!path.isEmpty())
        saveProfile(path);
}

// ------------------------------------------------------------------------------------------------
// Widgets, for tests and screenshots

QFrame* CalibrateTab::explanationPanel() const {
    return m_gpuPanel->explanationPanel();
}
QLabel* CalibrateTab::explanationLabel() const {
    return m_gpuPanel->explanationLabel();
}
QPushButton* CalibrateTab::importButton() const {
    return m_profileBar->importButton();
}
QPushButton* CalibrateTab::explanationImportButton() const {
    return m_gpuPanel->importButton();
}
QPushButton* CalibrateTab::loadButton() const {
    return m_profileBar->loadButton();
}
QPushButton* CalibrateTab::saveButton() const {
    return m_profileBar->saveButton();
}
QPushButton* CalibrateTab::builtinButton() const {
    return m_profileBar->builtinButton();
}
QPushButton* CalibrateTab::runButton() const {
    return m_benchmarks->runButton();
}
QPushButton* CalibrateTab::cancelButton() const {
    return m_benchmarks->cancelButton();
}
QPushButton* CalibrateTab::applyButton() const {
    return m_profileBox->applyButton();
}
QProgressBar* CalibrateTab::progressBar() const {
    return m_benchmarks->progressBar();
}
QLabel* CalibrateTab::progressLabel() const {
    return m_benchmarks->progressLabel();
}
QLabel* CalibrateTab::profileLabel() const {
    return m_profileBar->label();
}
QLabel* CalibrateTab::comparisonLabel() const {
    return m_profileBox->comparisonLabel();
}
QTreeWidget* CalibrateTab::gpuList() const {
    return m_gpuPanel->gpuList();
}
QTableWidget* CalibrateTab::measurementsTable() const {
    return m_table;
}
QCheckBox* CalibrateTab::scenarioGemmsBox() const {
    return m_benchmarks->scenarioGemmsBox();
}
QCheckBox* CalibrateTab::sweepBox() const {
    return m_benchmarks->sweepBox();
}
QCheckBox* CalibrateTab::hbmBox() const {
    return m_benchmarks->hbmBox();
}
QCheckBox* CalibrateTab::ncclBox() const {
    return m_benchmarks->ncclBox();
}
QCheckBox* CalibrateTab::fp8Box() const {
    return m_benchmarks->fp8Box();
}
QCheckBox* CalibrateTab::quickBox() const {
    return m_benchmarks->quickBox();
}
QChartView* CalibrateTab::gemmChartView() const {
    return m_charts->gemmView();
}
QChartView* CalibrateTab::hbmChartView() const {
    return m_charts->hbmView();
}
QChartView* CalibrateTab::busChartView() const {
    return m_charts->busView();
}

} // namespace lp::ui
