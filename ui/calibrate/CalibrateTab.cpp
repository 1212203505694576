#include "ui/calibrate/CalibrateTab.h"

#include "core/estimate/Evaluate.h"
#include "core/io/Presets.h"
#include "core/io/ScenarioJson.h"
#include "core/model/Enums.h"
#include "cuda/Workload.h"
#include "ui/calibrate/CalibrateTabParts.h"
#include "ui/charts/ChartStyle.h"
#include "ui/document/ScenarioDocument.h"
#include "ui/widgets/Format.h"
#include "ui/widgets/InlineBanner.h"
#include "ui/widgets/Palette.h"
#include "ui/widgets/ScrollPage.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QFrame>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QTextDocumentFragment>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLegend>
#include <QtCharts/QLegendMarker>
#include <QtCharts/QLineSeries>
#include <QtCharts/QLogValueAxis>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QValueAxis>

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <map>
#include <tuple>

namespace lp::ui {
using namespace calibrate;

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
    build();

    connect(&m_doc, &ScenarioDocument::planChanged, this, [this] {
        updateProfileStatus();
        updateComparison();
    });
    connect(&m_doc, &ScenarioDocument::scenarioChanged, this, [this] {
        updateChoices();
        if (!isRunning() && !m_result)
            rebuildCharts(); // the scenario's GPU peak and profile
    });
    connect(&m_doc, &ScenarioDocument::profileChanged, this, [this] {
        updateProfileStatus();
        if (!isRunning())
            rebuildCharts();
    });
    updateAvailability();
    updateChoices();
    updateProfileStatus();
    updateResultSummary();
    updateComparison();
    rebuildTable();
    rebuildCharts();
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

void CalibrateTab::build() {
    // ---- Profile bar: which profile the scenario uses; import, load, save, built-in.
    auto* profileBar = new QFrame(this);
    profileBar->setObjectName(QStringLiteral("profileBar"));
    profileBar->setStyleSheet(
        QStringLiteral("QFrame#profileBar { border: 1px solid %1; border-radius: 4px; }")
            .arg(mix(palette(), 0.25).name()));
    m_profileText = new QLabel(profileBar);
    m_profileText->setTextFormat(Qt::RichText);
    m_profileText->setWordWrap(true);
    m_profileText->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_import = new QPushButton(tr("&Import profile..."), profileBar);
    m_import->setToolTip(
        tr("Read a hardware profile measured on another machine (layout-planner-cli calibrate -o "
           "PROFILE.json) and apply it to the scenario"));
    m_load = new QPushButton(tr("&Load profile..."), profileBar);
    m_load->setToolTip(tr("Read a hardware profile to look at and compare before applying it"));
    m_save = new QPushButton(tr("&Save profile..."), profileBar);
    m_save->setToolTip(tr("Write the measured (or loaded) profile, or else the active one, to a JSON file"));
    m_builtin = new QPushButton(tr("Use &built-in"), profileBar);
    m_builtin->setToolTip(tr("Go back to the built-in profile of the scenario's GPU"));
    auto* barLayout = new QHBoxLayout(profileBar);
    barLayout->setContentsMargins(10, 6, 10, 6);
    barLayout->addWidget(m_profileText, 1);
    for (QPushButton* b : {m_import, m_load, m_save, m_builtin})
        barLayout->addWidget(b, 0, Qt::AlignVCenter);

    m_banner = new InlineBanner(this);
    m_banner->setClosable(true);

    // ---- GPUs.
    m_gpuBox = new QGroupBox(tr("GPUs on this machine"), this);
    m_explanation = new QFrame(m_gpuBox);
    m_explanation->setObjectName(QStringLiteral("calibrateExplanation"));
    m_explanationTitle = new QLabel(m_explanation);
    QFont bold = m_explanationTitle->font();
    bold.setBold(true);
    m_explanationTitle->setFont(bold);
    m_explanationTitle->setWordWrap(true);
    m_explanationText = new QLabel(m_explanation);
    m_explanationText->setTextFormat(Qt::RichText);
    m_explanationText->setWordWrap(true);
    m_explanationText->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_explainImport = new QPushButton(tr("Import profile..."), m_explanation);
    m_explainImport->setToolTip(m_import->toolTip());
    m_redetect = new QPushButton(tr("Detect again"), m_gpuBox);
    m_redetect->setToolTip(
        tr("Look for GPUs again (after installing a driver, or changing CUDA_VISIBLE_DEVICES)"));
    auto* explainLayout = new QVBoxLayout(m_explanation);
    explainLayout->setContentsMargins(10, 8, 10, 8);
    explainLayout->addWidget(m_explanationTitle);
    explainLayout->addWidget(m_explanationText);
    auto* explainButtons = new QHBoxLayout;
    explainButtons->addWidget(m_explainImport);
    explainButtons->addStretch(1);
    explainLayout->addLayout(explainButtons);

    m_gpuList = new QTreeWidget(m_gpuBox);
    m_gpuList->setObjectName(QStringLiteral("gpuList"));
    m_gpuList->setRootIsDecorated(false);
    m_gpuList->setHeaderLabels({tr("#"), tr("Name"), tr("SMs"), tr("Memory"), tr("CC"), tr("Driver")});
    m_gpuList->headerItem()->setToolTip(4, tr("Compute capability"));
    m_gpuList->headerItem()->setToolTip(
        5, tr("CUDA version the driver supports (the runtime's is in the tooltip)"));
    m_gpuList->header()->setStretchLastSection(false);
    m_gpuList->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_gpuList->header()->setSectionResizeMode(1, QHeaderView::Stretch);
    m_buildText = new QLabel(m_gpuBox);
    m_buildText->setWordWrap(true);
    m_buildText->setForegroundRole(QPalette::PlaceholderText);
    m_buildText->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* gpuLayout = new QVBoxLayout(m_gpuBox);
    gpuLayout->addWidget(m_explanation);
    gpuLayout->addWidget(m_gpuList);
    gpuLayout->addWidget(m_buildText);
    auto* redetectRow = new QHBoxLayout;
    redetectRow->addStretch(1);
    redetectRow->addWidget(m_redetect);
    gpuLayout->addLayout(redetectRow);

    // ---- Benchmarks.
    m_benchBox = new QGroupBox(tr("Benchmarks"), this);
    m_device = new QComboBox(m_benchBox);
    m_device->setToolTip(tr("The GPU the GEMM and HBM benchmarks run on"));
    m_scenarioGemms = new QCheckBox(m_benchBox);
    m_scenarioGemms->setChecked(true);
    m_sweep = new QCheckBox(tr("GEMM sweep (square, skinny)"), m_benchBox);
    m_sweep->setChecked(true);
    m_sweep->setToolTip(
        tr("Square GEMMs from 256 to 16384 and skinny ones against an 8192 × 8192 weight: the "
           "efficiency curve the planner interpolates in. After the GEMMs, the fastest one runs "
           "back to back for 15 s (4 s when quick): the GPU settles at its power limit, as in "
           "training, and the curve is scaled to that held throughput"));
    m_hbm = new QCheckBox(tr("HBM bandwidth"), m_benchBox);
    m_hbm->setChecked(true);
    m_hbm->setToolTip(tr("Device-to-device copy and a read-write kernel, 1 MiB to 4 GiB buffers"));
    m_nccl = new QCheckBox(m_benchBox);
    m_nccl->setChecked(true);
    m_fp8 = new QCheckBox(tr("Also in fp8"), m_benchBox);
    m_fp8->setChecked(true);
    m_quick = new QCheckBox(tr("&Quick mode"), m_benchBox);
    m_quick->setToolTip(tr("Fewer sizes and repetitions: about a minute instead of several"));
    m_run = new QPushButton(tr("&Run calibration"), m_benchBox);
    m_run->setDefault(false);
    m_cancel = new QPushButton(tr("Cancel"), m_benchBox);
    m_cancel->setEnabled(false);
    m_cancel->setToolTip(tr("Stop after the item being measured"));
    m_progress = new QProgressBar(m_benchBox);
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_progress->setFormat(QStringLiteral("%v / %m"));
    m_progressText = new QLabel(m_benchBox);
    m_progressText->setWordWrap(true);
    m_progressText->setForegroundRole(QPalette::PlaceholderText);
    auto* benchLayout = new QVBoxLayout(m_benchBox);
    auto* deviceRow = new QHBoxLayout;
    auto* deviceLabel = new QLabel(tr("&GPU:"), m_benchBox);
    deviceLabel->setBuddy(m_device);
    deviceRow->addWidget(deviceLabel);
    deviceRow->addWidget(m_device, 1);
    benchLayout->addLayout(deviceRow);
    for (QCheckBox* c : {m_scenarioGemms, m_sweep, m_fp8, m_hbm, m_nccl, m_quick})
        benchLayout->addWidget(c);
    auto* runRow = new QHBoxLayout;
    runRow->addWidget(m_run);
    runRow->addWidget(m_cancel);
    runRow->addStretch(1);
    benchLayout->addLayout(runRow);
    benchLayout->addWidget(m_progress);
    benchLayout->addWidget(m_progressText);

    // ---- Result and apply.
    m_resultBox = new QGroupBox(tr("Measured profile"), this);
    m_summary = new QLabel(m_resultBox);
    m_summary->setTextFormat(Qt::RichText);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_apply = new QPushButton(tr("&Apply to scenario"), m_resultBox);
    m_apply->setToolTip(tr("Use this profile for every estimate of the scenario (the status bar names it)"));
    m_compare = new QLabel(m_resultBox);
    m_compare->setTextFormat(Qt::RichText);
    m_compare->setWordWrap(true);
    m_compare->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* resultLayout = new QVBoxLayout(m_resultBox);
    resultLayout->addWidget(m_summary);
    auto* applyRow = new QHBoxLayout;
    applyRow->addWidget(m_apply);
    applyRow->addStretch(1);
    resultLayout->addLayout(applyRow);
    resultLayout->addWidget(m_compare);

    auto* left = new QWidget(this);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 4, 0);
    leftLayout->addWidget(m_gpuBox);
    leftLayout->addWidget(m_benchBox);
    leftLayout->addWidget(m_resultBox);
    leftLayout->addStretch(1);
    auto* leftScroll = new QScrollArea(this);
    leftScroll->setWidget(left);
    leftScroll->setWidgetResizable(true);
    leftScroll->setFrameShape(QFrame::NoFrame);
    leftScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    leftScroll->setMinimumWidth(380);

    // ---- Charts and the measurements table.
    // Each chart with a legend under it that wraps onto more lines when narrow (QLegend elides instead).
    const auto makeChart = [this](QChart*& chart, QChartView*& view, QLabel*& legend, const QString& name) {
        chart = new QChart;
        chart->legend()->hide();
        auto* box = new QWidget(this);
        box->setBackgroundRole(QPalette::Base);
        box->setAutoFillBackground(true);
        view = new QChartView(chart, box);
        view->setObjectName(name);
        view->setRenderHint(QPainter::Antialiasing);
        view->setMinimumSize(240, 200);
        legend = new QLabel(box);
        legend->setObjectName(name + QStringLiteral("Legend"));
        legend->setTextFormat(Qt::RichText);
        legend->setWordWrap(true);
        legend->setAlignment(Qt::AlignHCenter);
        auto* v = new QVBoxLayout(box);
        v->setContentsMargins(0, 0, 0, 6);
        v->setSpacing(0);
        v->addWidget(view, 1);
        v->addWidget(legend);
        return box;
    };
    QWidget* gemmBox = makeChart(m_gemmChart, m_gemmView, m_gemmLegend, QStringLiteral("gemmChart"));
    QWidget* hbmBox = makeChart(m_hbmChart, m_hbmView, m_hbmLegend, QStringLiteral("hbmChart"));
    QWidget* busBox = makeChart(m_busChart, m_busView, m_busLegend, QStringLiteral("busChart"));
    auto* charts = new QWidget(this);
    auto* chartGrid = new QGridLayout(charts);
    chartGrid->setContentsMargins(0, 0, 0, 0);
    chartGrid->setSpacing(6);
    chartGrid->addWidget(gemmBox, 0, 0, 1, 2);
    chartGrid->addWidget(hbmBox, 1, 0);
    chartGrid->addWidget(busBox, 1, 1);
    chartGrid->setRowStretch(0, 3);
    chartGrid->setRowStretch(1, 2);

    m_table = new QTableWidget(0, 8, this);
    m_table->setObjectName(QStringLiteral("measurementsTable"));
    m_table->setHorizontalHeaderLabels({tr("Benchmark"), tr("Item"), tr("Size"), tr("Median time"),
                                        tr("Achieved"), tr("Of peak"), tr("Spread"), tr("Note")});
    m_table->horizontalHeaderItem(6)->setToolTip(tr("(p90 − p10) / median of the timed repetitions"));
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);

    m_resultTabs = new QTabWidget(this);
    m_resultTabs->setDocumentMode(true);
    m_resultTabs->addTab(charts, tr("Charts"));
    m_resultTabs->addTab(m_table, tr("Measurements"));

    m_splitter = new QSplitter(Qt::Horizontal, this);
    m_splitter->setObjectName(QStringLiteral("calibrateSplitter"));
    m_splitter->setChildrenCollapsible(false);
    m_splitter->addWidget(leftScroll);
    m_splitter->addWidget(m_resultTabs);
    m_splitter->setStretchFactor(0, 0);
    m_splitter->setStretchFactor(1, 1);
    m_splitter->setSizes({440, 900});

    auto* layout = new QVBoxLayout(scrollingContent(this));
    layout->addWidget(profileBar);
    layout->addWidget(m_banner);
    layout->addWidget(m_splitter, 1);

    connect(m_import, &QPushButton::clicked, this, &CalibrateTab::chooseAndImport);
    connect(m_explainImport, &QPushButton::clicked, this, &CalibrateTab::chooseAndImport);
    connect(m_load, &QPushButton::clicked, this, &CalibrateTab::chooseAndLoad);
    connect(m_save, &QPushButton::clicked, this, &CalibrateTab::chooseAndSave);
    connect(m_builtin, &QPushButton::clicked, this, &CalibrateTab::useBuiltinProfile);
    connect(m_redetect, &QPushButton::clicked, this, &CalibrateTab::detectGpus);
    connect(m_run, &QPushButton::clicked, this, &CalibrateTab::startCalibration);
    connect(m_cancel, &QPushButton::clicked, this, &CalibrateTab::cancelCalibration);
    connect(m_apply, &QPushButton::clicked, this, &CalibrateTab::applyCandidate);
    connect(m_device, &QComboBox::currentIndexChanged, this, &CalibrateTab::updateChoices);
    connect(m_quick, &QCheckBox::toggled, this, &CalibrateTab::updateChoices);
    for (QCheckBox* c : {m_scenarioGemms, m_sweep, m_hbm, m_nccl})
        connect(c, &QCheckBox::toggled, this, &CalibrateTab::updateAvailability);
}

// ------------------------------------------------------------------------------------------------
// GPUs

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
    else
        m_splitter->setSizes({height() * 2 / 5, height() * 3 / 5});
}

void CalibrateTab::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (!m_shownOnce) {
        m_shownOnce = true;
        if (!m_detected && !m_detecting)
            detectGpus();
    }
}

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
    m_gpuList->clear();
    const QSignalBlocker block(m_device);
    m_device->clear();
    for (const calib::DeviceInfo& d : m_gpus) {
        auto* item = new QTreeWidgetItem(m_gpuList);
        item->setText(0, QString::number(d.index));
        item->setText(1, qs(d.name));
        item->setText(2, QString::number(d.smCount));
        item->setText(3, deviceMemory(d.memoryBytes));
        item->setText(4, qs(d.computeCapability()));
        item->setText(5, qs(calib::cudaVersionString(d.driverVersion)));
        for (int c : {2, 3, 4})
            item->setTextAlignment(c, Qt::AlignRight | Qt::AlignVCenter);
        QString tip =
            tr("%1\n%2 SMs at %3 MHz, %4 memory, %5-bit bus at %6 MHz\nCUDA driver %7, runtime %8")
                .arg(qs(d.name))
                .arg(d.smCount)
                .arg(formatNumber(d.smClockHz / 1e6, 0), deviceMemory(d.memoryBytes))
                .arg(d.memoryBusWidthBits)
                .arg(formatNumber(d.memoryClockHz / 1e6, 0), qs(calib::cudaVersionString(d.driverVersion)),
                     qs(calib::cudaVersionString(d.runtimeVersion)));
        if (const core::GpuPreset* p = calib::matchGpuPreset(d))
            tip += tr("\nData-sheet figures: %1").arg(qs(p->gpu.name));
        for (int c = 0; c < 6; ++c)
            item->setToolTip(c, tip);
        m_device->addItem(QStringLiteral("%1: %2").arg(d.index).arg(qs(d.name)), d.index);
    }
    // As tall as its rows (up to eight), no empty box under two GPUs.
    const int rows = std::clamp(static_cast<int>(m_gpus.size()), 1, 8);
    const int rowHeight =
        std::max(m_gpuList->fontMetrics().height() + 6,
                 m_gpus.empty() ? 0 : m_gpuList->visualItemRect(m_gpuList->topLevelItem(0)).height());
    m_gpuList->setFixedHeight(m_gpuList->header()->sizeHint().height() + rows * rowHeight +
                              2 * m_gpuList->frameWidth() + 4);
    updateAvailability();
    updateChoices();
    rebuildCharts();
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
    const bool running = isRunning();
    const bool usable = canCalibrate();
    m_buildText->setText(m_backend.buildDescription ? tr("Build: %1").arg(qs(m_backend.buildDescription()))
                                                    : QString());
    m_redetect->setEnabled(m_hasCuda && !m_detecting && !running);

    // The explanation when no calibration can run here.
    const QColor accent = m_detecting || !m_detected ? palette::info() : palette::warning();
    QColor fill = accent;
    fill.setAlpha(30);
    m_explanation->setStyleSheet(
        QStringLiteral("QFrame#calibrateExplanation { border: 1px solid %1; border-left: 4px "
                       "solid %1; border-radius: 3px; background: %2; }")
            .arg(accent.name(), fill.name(QColor::HexArgb)));
    const QString elsewhere =
        tr("<p>You can still calibrate: on a machine with NVIDIA GPUs run <code>layout-planner-cli calibrate "
           "--quick -o profile.json</code> (add <code>--scenario FILE</code> for the scenario's own GEMM "
           "shapes), "
           "then import the file here.</p>");
    if (!m_hasCuda) {
        m_explanationTitle->setText(tr("This build has no CUDA support"));
        m_explanationText->setText(
            tr("<p>The micro-benchmarks are compiled only when the CUDA toolkit (nvcc, cuBLAS, NCCL) is "
               "found at "
               "build time. To measure on this machine, install the NVIDIA driver and the CUDA toolkit, then "
               "rebuild with <code>cmake -DLP_BUILD_CUDA=ON</code>.</p>") +
            elsewhere);
    } else if (m_detecting || !m_detected) {
        m_explanationTitle->setText(tr("Looking for NVIDIA GPUs…"));
        m_explanationText->setText(tr("<p>Asking the CUDA driver which GPUs this machine has.</p>"));
    } else if (m_gpus.empty()) {
        m_explanationTitle->setText(tr("No usable NVIDIA GPU on this machine"));
        m_explanationText->setText(
            tr("<p>%1.</p><p>To measure here: install or update the NVIDIA driver (<code>nvidia-smi</code> "
               "should "
               "list the GPU) and check that <code>CUDA_VISIBLE_DEVICES</code> does not hide it, then press "
               "<i>Detect again</i>.</p>")
                .arg(m_whyNot.isEmpty() ? tr("The CUDA runtime reports no device")
                                        : m_whyNot.toHtmlEscaped()) +
            elsewhere);
    }
    m_explanation->setVisible(!usable);
    m_explainImport->setVisible(m_detected || !m_hasCuda);
    m_gpuList->setVisible(usable);

    const bool anyChosen = m_scenarioGemms->isChecked() || m_sweep->isChecked() || m_hbm->isChecked() ||
                           (m_nccl->isChecked() && m_nccl->isEnabled());
    m_benchBox->setEnabled(usable);
    for (QWidget* w : std::initializer_list<QWidget*>{m_device, m_scenarioGemms, m_sweep, m_hbm, m_quick})
        w->setEnabled(usable && !running);
    m_run->setEnabled(usable && !running && anyChosen);
    m_run->setToolTip(usable ? (anyChosen ? tr("Run the chosen benchmarks in the background")
                                          : tr("Choose a benchmark first"))
                             : tr("Not available: %1").arg(unavailableReason()));
    m_cancel->setEnabled(running);
    m_progress->setVisible(running || m_result.has_value());
    if (!usable && !running)
        m_progressText->setText(m_detecting || !m_detected
                                    ? tr("Looking for GPUs…")
                                    : tr("Not available on this machine (see above)."));
    else if (!running && (m_progressText->text().startsWith(tr("Not available")) ||
                          m_progressText->text().startsWith(tr("Looking for"))))
        m_progressText->clear();
    updateChoices();
}

void CalibrateTab::updateChoices() {
    const bool running = isRunning();
    const bool usable = canCalibrate();
    const auto shapes = calib::scenarioGemms(m_doc.scenario());
    m_scenarioGemms->setText(tr("Scenario's GEMM shapes (%n)", nullptr, static_cast<int>(shapes.size())));
    m_scenarioGemms->setToolTip(
        tr("QKV, attention output, MLP up and down and LM head of %1 under TP %2 and micro "
           "batch %3, forward and both backward shapes")
            .arg(qs(m_doc.scenario().model.name))
            .arg(m_doc.scenario().layout.tp)
            .arg(m_doc.scenario().layout.microBatch));
    const int gpus = static_cast<int>(m_gpus.size());
    const bool ncclPossible = usable && gpus >= 2;
    m_nccl->setEnabled(ncclPossible && !running);
    m_nccl->setText(ncclPossible ? tr("NCCL collectives on %n GPUs", nullptr, gpus)
                                 : tr("NCCL (needs 2 or more GPUs)"));
    m_nccl->setToolTip(
        tr("All-reduce, all-gather, reduce-scatter and send/recv bus bandwidth from 8 KiB to 1 GiB, "
           "with the scenario's message sizes"));
    const int device = m_device->currentIndex();
    bool fp8 = false;
    if (device >= 0 && device < gpus) {
        const auto& d = m_gpus[static_cast<std::size_t>(device)];
        fp8 = d.ccMajor > 8 || (d.ccMajor == 8 && d.ccMinor >= 9);
    }
    m_fp8->setEnabled(usable && fp8 && !running);
    m_fp8->setToolTip(fp8 || !usable ? tr("Measure every GEMM in fp8 too (compute capability 8.9 and later)")
                                     : tr("This GPU has no fp8 tensor cores (needs compute capability 8.9)"));
}

// ------------------------------------------------------------------------------------------------
// Benchmarks

calib::CalibrationRequest CalibrateTab::currentRequest() const {
    const bool quick = m_quick->isChecked();
    const core::Scenario& s = m_doc.scenario();
    calib::CalibrationRequest r = calib::makeRequest(nullptr, quick); // repetitions and warm-up
    r.gemms.clear();
    r.hbmBytes.clear();
    r.commBytes.clear();
    if (m_scenarioGemms->isChecked())
        r.gemms = calib::scenarioGemms(s);
    if (m_sweep->isChecked())
        for (auto& g : calib::sweepGemms(quick)) {
            const bool dup = std::any_of(r.gemms.begin(), r.gemms.end(), [&](const calib::GemmShape& o) {
                return o.m == g.m && o.n == g.n && o.k == g.k;
            });
            if (!dup)
                r.gemms.push_back(std::move(g));
        }
    r.fp8 = m_fp8->isChecked() && m_fp8->isEnabled();
    if (m_hbm->isChecked())
        r.hbmBytes = calib::hbmSizes(quick);
    r.nccl = m_nccl->isChecked() && m_nccl->isEnabled();
    if (r.nccl)
        r.commBytes = calib::commSizes(quick, &s);
    r.device = m_device->currentData().isValid() ? m_device->currentData().toInt() : 0;
    return r;
}

bool CalibrateTab::startCalibration() {
    if (isRunning() || !canCalibrate())
        return false;
    const calib::CalibrationRequest request = currentRequest();
    if (request.gemms.empty() && request.hbmBytes.empty() && request.commBytes.empty())
        return false;
    const calib::DeviceInfo* device = nullptr;
    for (const auto& d : m_gpus)
        if (d.index == request.device)
            device = &d;
    if (!device)
        return false;
    auto ref = calib::chooseReference(*device, &m_doc.scenario());
    if (!ref) {
        showError(tr("Cannot calibrate %1").arg(qs(device->name)), qs(ref.error()));
        return false;
    }
    m_reference = *ref;
    m_result.reset();
    m_errorText.clear();
    m_banner->hide();
    m_runState = std::make_shared<RunState>();
    m_lastRedrawMs = -1;
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_progressText->setText(tr("Starting on %1…").arg(qs(device->name)));

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
    updateAvailability();
    return true;
}

void CalibrateTab::cancelCalibration() {
    if (!m_runState || !isRunning())
        return;
    m_runState->cancel = true;
    m_cancel->setEnabled(false);
    m_progressText->setText(tr("Cancelling after the current item…"));
}

void CalibrateTab::onProgress(int done, int total, QString phase, QString item,
                              std::optional<calib::CalibrationResult> partial) {
    if (!isRunning())
        return;
    m_progress->setRange(0, std::max(1, total));
    m_progress->setValue(std::clamp(done, 0, std::max(1, total)));
    if (!m_runState || !m_runState->cancel)
        m_progressText->setText(done >= total
                                    ? tr("Finishing…")
                                    : tr("%1 %2 of %3: %4").arg(phase).arg(done + 1).arg(total).arg(item));
    if (partial)
        m_result = std::move(partial);
    emit calibrationProgress(done, total);
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    if (m_lastRedrawMs < 0 || now - m_lastRedrawMs >= 150 || done >= total) {
        m_lastRedrawMs = now;
        rebuildTable();
        rebuildCharts();
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
        m_progressText->setText(tr("Cancelled after %n measurements; no profile was made.", nullptr, items));
    } else if (!m_result->ok) {
        m_progressText->setText(tr("Failed: %1").arg(qs(m_result->error)));
        showError(tr("The calibration failed"), qs(m_result->error));
    } else {
        m_progress->setValue(m_progress->maximum());
        m_progressText->setText(tr("Finished: %n measurements in %1.", nullptr, items)
                                    .arg(formatDuration(m_result->elapsedSeconds)));
        const core::HardwareProfile base = core::builtinProfile(m_reference->gpu);
        auto built = calib::buildProfile(*m_result, *m_reference, base);
        if (built) {
            m_candidate = built->profile;
            m_candidateSource = tr("measured on this machine");
            m_profileNotes.clear();
            for (const auto& n : built->notes)
                m_profileNotes << qs(n);
            ok = true;
        } else {
            showError(tr("No profile from these measurements"), qs(built.error()));
        }
    }
    updateAvailability();
    rebuildTable();
    rebuildCharts();
    updateResultSummary();
    updateComparison();
    updateProfileStatus();
    emit calibrationFinished(ok);
}

// ------------------------------------------------------------------------------------------------
// Profiles

void CalibrateTab::showError(const QString& title, const QString& details) {
    m_errorText = details.isEmpty() ? title : title + QStringLiteral(": ") + details;
    m_banner->showMessage(InlineBanner::Kind::Error, title, details.toHtmlEscaped());
}

} // namespace lp::ui
