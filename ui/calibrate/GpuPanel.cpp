#include "ui/calibrate/GpuPanel.h"

#include "core/model/Enums.h"
#include "core/model/Units.h"
#include "cuda/ProfileBuilder.h"
#include "ui/widgets/Format.h"
#include "ui/widgets/Palette.h"

#include <QFrame>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace lp::ui {
namespace {

QString deviceMemory(double bytes) {
    return formatNumber(bytes / core::kGiB, 0) + QStringLiteral(" GiB");
}

QString deviceToolTip(const calib::DeviceInfo& d) {
    QString tip =
        GpuPanel::tr("%1\n%2 SMs at %3 MHz, %4 memory, %5-bit bus at %6 MHz\nCUDA driver %7, runtime %8")
            .arg(qs(d.name))
            .arg(d.smCount)
            .arg(formatNumber(d.smClockHz / 1e6, 0), deviceMemory(d.memoryBytes))
            .arg(d.memoryBusWidthBits)
            .arg(formatNumber(d.memoryClockHz / 1e6, 0), qs(calib::cudaVersionString(d.driverVersion)),
                 qs(calib::cudaVersionString(d.runtimeVersion)));
    if (const core::GpuPreset* p = calib::matchGpuPreset(d))
        tip += GpuPanel::tr("\nData-sheet figures: %1").arg(qs(p->gpu.name));
    return tip;
}

} // namespace

GpuPanel::GpuPanel(QWidget* parent) : QGroupBox(tr("GPUs on this machine"), parent) {
    buildExplanation();
    buildList();
    m_build = new QLabel(this);
    m_build->setWordWrap(true);
    m_build->setForegroundRole(QPalette::PlaceholderText);
    m_build->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_redetect = new QPushButton(tr("Detect again"), this);
    m_redetect->setToolTip(
        tr("Look for GPUs again (after installing a driver, or changing CUDA_VISIBLE_DEVICES)"));
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_explanation.frame);
    layout->addWidget(m_list);
    layout->addWidget(m_build);
    auto* redetectRow = new QHBoxLayout;
    redetectRow->addStretch(1);
    redetectRow->addWidget(m_redetect);
    layout->addLayout(redetectRow);
}

void GpuPanel::buildExplanation() {
    m_explanation.frame = new QFrame(this);
    m_explanation.frame->setObjectName(QStringLiteral("calibrateExplanation"));
    m_explanation.title = new QLabel(m_explanation.frame);
    QFont bold = m_explanation.title->font();
    bold.setBold(true);
    m_explanation.title->setFont(bold);
    m_explanation.title->setWordWrap(true);
    m_explanation.text = new QLabel(m_explanation.frame);
    m_explanation.text->setTextFormat(Qt::RichText);
    m_explanation.text->setWordWrap(true);
    m_explanation.text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_import = new QPushButton(tr("Import profile..."), m_explanation.frame);
    m_import->setToolTip(tr("Read a hardware profile measured on another machine (layout-planner-cli "
                            "calibrate -o PROFILE.json) and apply it to the scenario"));
    auto* layout = new QVBoxLayout(m_explanation.frame);
    layout->setContentsMargins(10, 8, 10, 8);
    layout->addWidget(m_explanation.title);
    layout->addWidget(m_explanation.text);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_import);
    buttons->addStretch(1);
    layout->addLayout(buttons);
}

void GpuPanel::buildList() {
    m_list = new QTreeWidget(this);
    m_list->setObjectName(QStringLiteral("gpuList"));
    m_list->setRootIsDecorated(false);
    m_list->setHeaderLabels({tr("#"), tr("Name"), tr("SMs"), tr("Memory"), tr("CC"), tr("Driver")});
    m_list->headerItem()->setToolTip(4, tr("Compute capability"));
    m_list->headerItem()->setToolTip(
        5, tr("CUDA version the driver supports (the runtime's is in the tooltip)"));
    m_list->header()->setStretchLastSection(false);
    m_list->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_list->header()->setSectionResizeMode(1, QHeaderView::Stretch);
}

void GpuPanel::showGpus(const std::vector<calib::DeviceInfo>& gpus) {
    m_list->clear();
    for (const calib::DeviceInfo& d : gpus) {
        auto* item = new QTreeWidgetItem(m_list);
        item->setText(0, QString::number(d.index));
        item->setText(1, qs(d.name));
        item->setText(2, QString::number(d.smCount));
        item->setText(3, deviceMemory(d.memoryBytes));
        item->setText(4, qs(d.computeCapability()));
        item->setText(5, qs(calib::cudaVersionString(d.driverVersion)));
        for (int c : {2, 3, 4})
            item->setTextAlignment(c, Qt::AlignRight | Qt::AlignVCenter);
        const QString tip = deviceToolTip(d);
        for (int c = 0; c < 6; ++c)
            item->setToolTip(c, tip);
    }
    // As tall as its rows (up to eight), no empty box under two GPUs.
    const int rows = std::clamp(static_cast<int>(gpus.size()), 1, 8);
    const int rowHeight =
        std::max(m_list->fontMetrics().height() + 6,
                 gpus.empty() ? 0 : m_list->visualItemRect(m_list->topLevelItem(0)).height());
    m_list->setFixedHeight(m_list->header()->sizeHint().height() + rows * rowHeight +
                           2 * m_list->frameWidth() + 4);
}

void GpuPanel::showSearch(const GpuSearch& search, bool usable) {
    m_build->setText(search.build.isEmpty() ? QString() : tr("Build: %1").arg(search.build));
    m_redetect->setEnabled(search.buildHasCuda && !search.detecting && !search.running);
    if (!usable)
        explain(search);
    m_explanation.frame->setVisible(!usable);
    m_import->setVisible(search.detected || !search.buildHasCuda);
    m_list->setVisible(usable);
}

// What is missing and how to get it, in a frame coloured as information while looking, as a warning after.
void GpuPanel::explain(const GpuSearch& search) {
    const bool looking = search.detecting || !search.detected;
    const QColor accent = looking ? palette::info() : palette::warning();
    QColor fill = accent;
    fill.setAlpha(30);
    m_explanation.frame->setStyleSheet(
        QStringLiteral("QFrame#calibrateExplanation { border: 1px solid %1; border-left: 4px solid %1; "
                       "border-radius: 3px; background: %2; }")
            .arg(accent.name(), fill.name(QColor::HexArgb)));
    const QString elsewhere =
        tr("<p>You can still calibrate: on a machine with NVIDIA GPUs run <code>layout-planner-cli calibrate "
           "--quick -o profile.json</code> (add <code>--scenario FILE</code> for the scenario's own GEMM "
           "shapes), then import the file here.</p>");
    if (!search.buildHasCuda) {
        m_explanation.title->setText(tr("This build has no CUDA support"));
        m_explanation.text->setText(
            tr("<p>The micro-benchmarks are compiled only when the CUDA toolkit (nvcc, cuBLAS, NCCL) is "
               "found at build time. To measure on this machine, install the NVIDIA driver and the CUDA "
               "toolkit, then rebuild with <code>cmake -DLP_BUILD_CUDA=ON</code>.</p>") +
            elsewhere);
    } else if (looking) {
        m_explanation.title->setText(tr("Looking for NVIDIA GPUs…"));
        m_explanation.text->setText(tr("<p>Asking the CUDA driver which GPUs this machine has.</p>"));
    } else {
        m_explanation.title->setText(tr("No usable NVIDIA GPU on this machine"));
        m_explanation.text->setText(
            tr("<p>%1.</p><p>To measure here: install or update the NVIDIA driver (<code>nvidia-smi</code> "
               "should list the GPU) and check that <code>CUDA_VISIBLE_DEVICES</code> does not hide it, then "
               "press <i>Detect again</i>.</p>")
                .arg(search.whyNone.isEmpty() ? tr("The CUDA runtime reports no device")
                                              : search.whyNone.toHtmlEscaped()) +
            elsewhere);
    }
}

} // namespace lp::ui
