#include "ui/calibrate/BenchmarkPanel.h"

#include "cuda/Workload.h"
#include "ui/widgets/Format.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include <algorithm>
#include <initializer_list>

namespace lp::ui {
namespace {

QCheckBox* checkedBox(const QString& text, QWidget* parent) {
    auto* box = new QCheckBox(text, parent);
    box->setChecked(true);
    return box;
}

// fp8 tensor cores from compute capability 8.9 (Ada, Hopper and later).
bool hasFp8(const calib::DeviceInfo& d) {
    return d.ccMajor > 8 || (d.ccMajor == 8 && d.ccMinor >= 9);
}

} // namespace

BenchmarkPanel::BenchmarkPanel(QWidget* parent) : QGroupBox(tr("Benchmarks"), parent) {
    buildChoices();
    m_run = new QPushButton(tr("&Run calibration"), this);
    m_run->setDefault(false);
    m_cancel = new QPushButton(tr("Cancel"), this);
    m_cancel->setEnabled(false);
    m_cancel->setToolTip(tr("Stop after the item being measured"));
    m_progress.bar = new QProgressBar(this);
    m_progress.bar->setRange(0, 1);
    m_progress.bar->setValue(0);
    m_progress.bar->setFormat(QStringLiteral("%v / %m"));
    m_progress.text = new QLabel(this);
    m_progress.text->setWordWrap(true);
    m_progress.text->setForegroundRole(QPalette::PlaceholderText);
    layOut();
    connect(m_device, &QComboBox::currentIndexChanged, this, &BenchmarkPanel::choicesChanged);
    for (QCheckBox* c : {m_gemms.scenarioShapes, m_gemms.sweep, m_hbm, m_nccl, m_quick})
        connect(c, &QCheckBox::toggled, this, &BenchmarkPanel::choicesChanged);
}

void BenchmarkPanel::buildChoices() {
    m_device = new QComboBox(this);
    m_device->setToolTip(tr("The GPU the GEMM and HBM benchmarks run on"));
    m_gemms.scenarioShapes = checkedBox(QString(), this);
    m_gemms.sweep = checkedBox(tr("GEMM sweep (square, skinny)"), this);
    m_gemms.sweep->setToolTip(
        tr("Square GEMMs from 256 to 16384 and skinny ones against an 8192 × 8192 weight: "
           "the efficiency curve the planner interpolates in. After the GEMMs, the fastest "
           "one runs back to back for 15 s (4 s when quick): the GPU settles at its power "
           "limit, as in training, and the curve is scaled to that held throughput"));
    m_hbm = checkedBox(tr("HBM bandwidth"), this);
    m_hbm->setToolTip(tr("Device-to-device copy and a read-write kernel, 1 MiB to 4 GiB buffers"));
    m_nccl = checkedBox(QString(), this);
    m_nccl->setToolTip(tr("All-reduce, all-gather, reduce-scatter and send/recv bus bandwidth from 8 KiB to "
                          "1 GiB, with the scenario's message sizes"));
    m_gemms.fp8 = checkedBox(tr("Also in fp8"), this);
    m_quick = new QCheckBox(tr("&Quick mode"), this);
    m_quick->setToolTip(tr("Fewer sizes and repetitions: about a minute instead of several"));
}

void BenchmarkPanel::layOut() {
    auto* layout = new QVBoxLayout(this);
    auto* deviceRow = new QHBoxLayout;
    auto* deviceLabel = new QLabel(tr("&GPU:"), this);
    deviceLabel->setBuddy(m_device);
    deviceRow->addWidget(deviceLabel);
    deviceRow->addWidget(m_device, 1);
    layout->addLayout(deviceRow);
    for (QCheckBox* c : {m_gemms.scenarioShapes, m_gemms.sweep, m_gemms.fp8, m_hbm, m_nccl, m_quick})
        layout->addWidget(c);
    auto* runRow = new QHBoxLayout;
    runRow->addWidget(m_run);
    runRow->addWidget(m_cancel);
    runRow->addStretch(1);
    layout->addLayout(runRow);
    layout->addWidget(m_progress.bar);
    layout->addWidget(m_progress.text);
}

void BenchmarkPanel::setDevices(const std::vector<calib::DeviceInfo>& gpus) {
    const QSignalBlocker block(m_device);
    m_device->clear();
    for (const calib::DeviceInfo& d : gpus)
        m_device->addItem(QStringLiteral("%1: %2").arg(d.index).arg(qs(d.name)), d.index);
}

void BenchmarkPanel::showContext(const BenchmarkContext& context) {
    showAvailability(context);
    showChoices(context);
}

void BenchmarkPanel::showAvailability(const BenchmarkContext& context) {
    const bool usable = context.usable;
    const bool running = context.running;
    const bool anyChosen = m_gemms.scenarioShapes->isChecked() || m_gemms.sweep->isChecked() ||
                           m_hbm->isChecked() || (m_nccl->isChecked() && m_nccl->isEnabled());
    setEnabled(usable);
    for (QWidget* w :
         std::initializer_list<QWidget*>{m_device, m_gemms.scenarioShapes, m_gemms.sweep, m_hbm, m_quick})
        w->setEnabled(usable && !running);
    m_run->setEnabled(usable && !running && anyChosen);
    m_run->setToolTip(usable ? (anyChosen ? tr("Run the chosen benchmarks in the background")
                                          : tr("Choose a benchmark first"))
                             : tr("Not available: %1").arg(context.unavailableReason));
    m_cancel->setEnabled(running);
    m_progress.bar->setVisible(running || context.hasResult);
    const QString looking = tr("Looking for GPUs…");
    const QString notHere = tr("Not available on this machine (see above).");
    if (!usable && !running)
        m_progress.text->setText(context.lookingForGpus ? looking : notHere);
    else if (!running && (m_progress.text->text() == looking || m_progress.text->text() == notHere))
        m_progress.text->clear();
}

void BenchmarkPanel::showChoices(const BenchmarkContext& context) {
    const bool usable = context.usable;
    const bool running = context.running;
    const core::Scenario& s = *context.scenario;
    const auto shapes = calib::scenarioGemms(s);
    m_gemms.scenarioShapes->setText(
        tr("Scenario's GEMM shapes (%n)", nullptr, static_cast<int>(shapes.size())));
    m_gemms.scenarioShapes->setToolTip(
        tr("QKV, attention output, MLP up and down and LM head of %1 under TP %2 and "
           "micro batch %3, forward and both backward shapes")
            .arg(qs(s.model.name))
            .arg(s.layout.tp)
            .arg(s.layout.microBatch));
    const int gpus = static_cast<int>(context.gpus->size());
    const bool ncclPossible = usable && gpus >= 2;
    m_nccl->setEnabled(ncclPossible && !running);
    m_nccl->setText(ncclPossible ? tr("NCCL collectives on %n GPUs", nullptr, gpus)
                                 : tr("NCCL (needs 2 or more GPUs)"));
    const int device = m_device->currentIndex();
    const bool fp8 =
        device >= 0 && device < gpus && hasFp8((*context.gpus)[static_cast<std::size_t>(device)]);
    m_gemms.fp8->setEnabled(usable && fp8 && !running);
    m_gemms.fp8->setToolTip(fp8 || !usable
                                ? tr("Measure every GEMM in fp8 too (compute capability 8.9 and later)")
                                : tr("This GPU has no fp8 tensor cores (needs compute capability 8.9)"));
}

calib::CalibrationRequest BenchmarkPanel::request(const core::Scenario& scenario) const {
    const bool quick = m_quick->isChecked();
    calib::CalibrationRequest r = calib::makeRequest(nullptr, quick); // repetitions and warm-up
    r.gemms.clear();
    r.hbmBytes.clear();
    r.commBytes.clear();
    if (m_gemms.scenarioShapes->isChecked())
        r.gemms = calib::scenarioGemms(scenario);
    if (m_gemms.sweep->isChecked())
        for (auto& g : calib::sweepGemms(quick)) {
            const bool dup = std::any_of(r.gemms.begin(), r.gemms.end(), [&](const calib::GemmShape& o) {
                return o.m == g.m && o.n == g.n && o.k == g.k;
            });
            if (!dup)
                r.gemms.push_back(std::move(g));
        }
    r.fp8 = m_gemms.fp8->isChecked() && m_gemms.fp8->isEnabled();
    if (m_hbm->isChecked())
        r.hbmBytes = calib::hbmSizes(quick);
    r.nccl = m_nccl->isChecked() && m_nccl->isEnabled();
    if (r.nccl)
        r.commBytes = calib::commSizes(quick, &scenario);
    r.device = m_device->currentData().isValid() ? m_device->currentData().toInt() : 0;
    return r;
}

void BenchmarkPanel::startProgress(const QString& text) {
    m_progress.bar->setRange(0, 1);
    m_progress.bar->setValue(0);
    m_progress.text->setText(text);
}

void BenchmarkPanel::showProgress(int done, int total) {
    m_progress.bar->setRange(0, std::max(1, total));
    m_progress.bar->setValue(std::clamp(done, 0, std::max(1, total)));
}

void BenchmarkPanel::showFinished(const QString& text, bool complete) {
    if (complete)
        m_progress.bar->setValue(m_progress.bar->maximum());
    m_progress.text->setText(text);
}

void BenchmarkPanel::setProgressText(const QString& text) {
    m_progress.text->setText(text);
}

} // namespace lp::ui
