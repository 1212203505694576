#include "ui/scenario/ClusterEditor.h"

#include "core/io/Presets.h"
#include "core/model/Limits.h"
#include "ui/document/ScenarioDocument.h"
#include "ui/scenario/FormBinder.h"
#include "ui/widgets/CollapsibleSection.h"

#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QVBoxLayout>

namespace lp::ui {

using core::Scenario;

namespace {
constexpr int kMaxCount = static_cast<int>(core::limits::kMaxCount); // what a scenario file may hold
}

ClusterEditor::ClusterEditor(ScenarioDocument* doc, QWidget* parent)
    : QWidget(parent), m_doc(doc), m_gpu(new QComboBox(this)), m_cluster(new QComboBox(this)),
      m_section(new CollapsibleSection(tr("Interconnect and GPU figures"), this)),
      m_main(new FormBinder(doc, mergeIdFor(EditKind::Cluster), this)),
      m_more(new FormBinder(doc, mergeIdFor(EditKind::Cluster, 50), this)) {
    const auto apply = [this](const Scenario& next, const QString& description, int mergeId) {
        core::ClusterSpec c = next.cluster;
        core::syncClusterName(c);
        m_doc->editCluster(c, description, mergeId);
    };
    m_main->setApply(apply);
    m_more->setApply(apply);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* top = new QWidget(this);
    auto* form = new QFormLayout(top);
    form->setContentsMargins(0, 0, 0, 0);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_gpu->setObjectName(QStringLiteral("gpuPreset"));
    m_gpu->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_gpu->setMinimumContentsLength(14);
    for (const core::GpuPreset& p : core::gpuPresets())
        m_gpu->addItem(QString::fromStdString(p.gpu.name), QString::fromStdString(p.gpu.id));
    m_gpu->addItem(tr("Custom GPU"), QString());
    auto* gpuLabel = new QLabel(tr("&GPU"), top);
    gpuLabel->setBuddy(m_gpu);
    const QString gpuTip =
        tr("The GPU type: its peak FLOP/s, memory and bandwidths, and its built-in efficiency profile.");
    m_gpu->setToolTip(gpuTip);
    gpuLabel->setToolTip(gpuTip);
    m_gpu->setAccessibleName(tr("GPU type"));
    form->addRow(gpuLabel, m_gpu);
    connect(m_gpu, &QComboBox::activated, this, [this](int index) {
        const core::GpuPreset* p = core::findGpuPreset(m_gpu->itemData(index).toString().toStdString());
        if (!p)
            return;
        core::ClusterSpec c = m_doc->scenario().cluster;
        c.gpu = p->gpu;
        m_doc->editCluster(c, tr("Choose GPU %1").arg(QString::fromStdString(p->gpu.name)));
    });
    m_main->addInt(
        form, tr("&Nodes"), tr("Number of nodes (servers) in the cluster."), 1, kMaxCount,
        [](const Scenario& s) { return s.cluster.nodes; }, [](Scenario& s, int v) { s.cluster.nodes = v; });
    m_main->addInt(
        form, tr("GPUs per n&ode"), tr("GPUs in each node (8 in DGX/HGX servers, 4 in an NVL72 tray)."), 1,
        1024, [](const Scenario& s) { return s.cluster.gpusPerNode; },
        [](Scenario& s, int v) { s.cluster.gpusPerNode = v; });
    layout->addWidget(top);

    auto* body = new QWidget(m_section);
    auto* more = new QFormLayout(body);
    more->setContentsMargins(16, 0, 0, 0);
    more->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_cluster->setObjectName(QStringLiteral("clusterPreset"));
    m_cluster->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_cluster->setMinimumContentsLength(12);
    m_cluster->addItem(tr("(choose a system)"), QString());
    for (const core::ClusterPreset& p : core::clusterPresets())
        m_cluster->addItem(QString::fromStdString(p.name), QString::fromStdString(p.id));
    auto* clusterLabel = new QLabel(tr("S&ystem"), body);
    clusterLabel->setBuddy(m_cluster);
    const QString clusterTip =
        tr("A server or rack type: sets the GPU, GPUs per node, NVLink domain and network "
           "bandwidth, keeping the node count.");
    m_cluster->setToolTip(clusterTip);
    clusterLabel->setToolTip(clusterTip);
    m_cluster->setAccessibleName(tr("System preset"));
    more->addRow(clusterLabel, m_cluster);
    connect(m_cluster, &QComboBox::activated, this, [this](int index) {
        const core::ClusterPreset* p =
            core::findClusterPreset(m_cluster->itemData(index).toString().toStdString());
        if (!p)
            return;
        m_doc->editCluster(core::makeCluster(*p, m_doc->scenario().cluster.nodes),
                           tr("Choose system %1").arg(QString::fromStdString(p->name)));
    });
    m_more->addInt(
        more, tr("NVLink &domain"),
        tr("GPUs joined by NVLink: a node (8), or a whole rack (72 on NVL72). TP should stay inside it."), 1,
        kMaxCount, [](const Scenario& s) { return s.cluster.nvlinkDomain; },
        [](Scenario& s, int v) { s.cluster.nvlinkDomain = v; });
    m_more->addDouble(
        more, tr("NVLink bandwidth"), tr("NVLink bandwidth per GPU, one direction."), 1, 100000, 0, 1e9,
        [](const Scenario& s) { return s.cluster.gpu.nvlinkBandwidth; },
        [](Scenario& s, double v) { s.cluster.gpu.nvlinkBandwidth = v; }, tr(" GB/s"));
    m_more->addDouble(
        more, tr("Network bandwidth"),
        tr("Network bandwidth per GPU (its network card's share), one direction. 400 Gb/s = 50 GB/s."), 0.1,
        10000, 1, 1e9, [](const Scenario& s) { return s.cluster.gpu.networkBandwidth; },
        [](Scenario& s, double v) { s.cluster.gpu.networkBandwidth = v; }, tr(" GB/s"));
    m_more->addDouble(
        more, tr("NVLink latency"), tr("Latency of one NVLink collective step."), 0, 1000, 1, 1e-6,
        [](const Scenario& s) { return s.cluster.nvlinkLatencySeconds; },
        [](Scenario& s, double v) { s.cluster.nvlinkLatencySeconds = v; }, tr(" µs"));
    m_more->addDouble(
        more, tr("Network latency"), tr("Latency of one collective step across the network."), 0, 1000, 1,
        1e-6, [](const Scenario& s) { return s.cluster.networkLatencySeconds; },
        [](Scenario& s, double v) { s.cluster.networkLatencySeconds = v; }, tr(" µs"));
    m_more->addDouble(
        more, tr("GPU memory"),
        tr("Memory of one GPU as CUDA reports it, the capacity a layout must fit in (decimal GB): an "
           "\"80 GB\" H100 exposes 79.2 GiB = 85.05 GB (nvidia-smi's total less the driver's reserve)."),
        1, 10000, 2, 1e9, [](const Scenario& s) { return s.cluster.gpu.hbmBytes; },
        [](Scenario& s, double v) { s.cluster.gpu.hbmBytes = v; }, tr(" GB"));
    m_more->addDouble(
        more, tr("Peak 16-bit"), tr("Dense bf16/fp16 peak of one GPU, without sparsity."), 1, 100000, 0, 1e12,
        [](const Scenario& s) { return s.cluster.gpu.peakFlops16; },
        [](Scenario& s, double v) { s.cluster.gpu.peakFlops16 = v; }, tr(" TFLOP/s"));
    m_more->addDouble(
        more, tr("Peak fp8"), tr("Dense fp8 peak of one GPU; 0 where the GPU has no fp8."), 0, 100000, 0,
        1e12, [](const Scenario& s) { return s.cluster.gpu.peakFlops8; },
        [](Scenario& s, double v) { s.cluster.gpu.peakFlops8 = v; }, tr(" TFLOP/s"));
    m_more->addDouble(
        more, tr("HBM bandwidth"), tr("Memory bandwidth of one GPU."), 0.1, 100, 2, 1e12,
        [](const Scenario& s) { return s.cluster.gpu.hbmBandwidth; },
        [](Scenario& s, double v) { s.cluster.gpu.hbmBandwidth = v; }, tr(" TB/s"));
    m_more->addDouble(
        more, tr("Host link"),
        tr("Bandwidth between one GPU and host memory, one direction: PCIe 4.0 x16 32 GB/s, PCIe 5.0 "
           "x16 64 GB/s, NVLink-C2C on Grace (GB200) 225 GB/s. Sets the cost of offloading."),
        0.1, 10000, 1, 1e9, [](const Scenario& s) { return s.cluster.gpu.hostLinkBandwidth; },
        [](Scenario& s, double v) { s.cluster.gpu.hostLinkBandwidth = v; }, tr(" GB/s"));
    m_more->addDouble(
        more, tr("Host memory bandwidth"),
        tr("One GPU's share of the host's DRAM bandwidth (the node's total over its GPUs): the pace "
           "of an optimizer step run on the CPU."),
        0.1, 10000, 1, 1e9, [](const Scenario& s) { return s.cluster.gpu.hostMemoryBandwidth; },
        [](Scenario& s, double v) { s.cluster.gpu.hostMemoryBandwidth = v; }, tr(" GB/s"));
    m_section->setContent(body);
    layout->addWidget(m_section);

    connect(m_doc, &ScenarioDocument::scenarioChanged, this, &ClusterEditor::refresh);
    refresh();
}

void ClusterEditor::refresh() {
    const core::ClusterSpec& c = m_doc->scenario().cluster;
    int index = m_gpu->count() - 1;
    for (int i = 0; i < m_gpu->count() - 1; ++i) {
        const core::GpuPreset* p = core::findGpuPreset(m_gpu->itemData(i).toString().toStdString());
        if (p && p->gpu.id == c.gpu.id && p->gpu.peakFlops16 == c.gpu.peakFlops16 &&
            p->gpu.hbmBytes == c.gpu.hbmBytes) {
            index = i;
            break;
        }
    }
    if (m_gpu->currentIndex() != index) {
        const QSignalBlocker block(m_gpu);
        m_gpu->setCurrentIndex(index);
    }
    int system = 0;
    for (int i = 1; i < m_cluster->count(); ++i) {
        const core::ClusterPreset* p =
            core::findClusterPreset(m_cluster->itemData(i).toString().toStdString());
        if (!p || p->gpuId != c.gpu.id || p->gpusPerNode != c.gpusPerNode)
            continue;
        // The network tells systems of one GPU apart (a DGX H100's 400 Gb/s per GPU, an A3 High's 100).
        const core::ClusterSpec shape = core::makeCluster(*p, c.nodes);
        if (shape.nvlinkDomain == c.nvlinkDomain && shape.gpu.networkBandwidth == c.gpu.networkBandwidth) {
            system = i;
            break;
        }
    }
    if (m_cluster->currentIndex() != system) {
        const QSignalBlocker blockCluster(m_cluster);
        m_cluster->setCurrentIndex(system);
    }
}

} // namespace lp::ui
