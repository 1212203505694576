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

using core::ClusterSpec;
using core::GpuSpec;
using Kind = FormField::Kind;

constexpr int kMaxCount = static_cast<int>(core::limits::kMaxCount); // what a scenario file may hold

// The units the figures are typed in.
constexpr FormField::Shown kGigabytesPerSecond{1e9, " GB/s"};
constexpr FormField::Shown kTerabytesPerSecond{1e12, " TB/s"};
constexpr FormField::Shown kMicroseconds{1e-6, " µs"};
constexpr FormField::Shown kGigabytes{1e9, " GB"};
constexpr FormField::Shown kTeraflops{1e12, " TFLOP/s"};

template <auto... Path> ScenarioValue gpu() {
    return scenarioValue<&Scenario::cluster, &ClusterSpec::gpu, Path...>();
}

const std::vector<FormField> kSizeFields = {
    {.label = "&Nodes",
     .tip = "Number of nodes (servers) in the cluster.",
     .value = scenarioValue<&Scenario::cluster, &ClusterSpec::nodes>(),
     .range = {1, kMaxCount}},
    {.label = "GPUs per n&ode",
     .tip = "GPUs in each node (8 in DGX/HGX servers, 4 in an NVL72 tray).",
     .value = scenarioValue<&Scenario::cluster, &ClusterSpec::gpusPerNode>(),
     .range = {1, 1024}},
};

// The interconnect and the GPU's own figures, under the system preset.
const std::vector<FormField> kFigureFields = {
    {.label = "NVLink &domain",
     .tip = "GPUs joined by NVLink: a node (8), or a whole rack (72 on NVL72). TP should stay inside it.",
     .value = scenarioValue<&Scenario::cluster, &ClusterSpec::nvlinkDomain>(),
     .range = {1, kMaxCount}},
    {.kind = Kind::Double,
     .label = "NVLink bandwidth",
     .tip = "NVLink bandwidth per GPU, one direction.",
     .value = gpu<&GpuSpec::nvlinkBandwidth>(),
     .range = {1, 100000, 0},
     .shown = kGigabytesPerSecond},
    {.kind = Kind::Double,
     .label = "Network bandwidth",
     .tip = "Network bandwidth per GPU (its share of the node's cards), one direction. 400 Gb/s = 50 GB/s. "
            "With stated cards, a new figure sets their speed.",
     .value = {[](const Scenario& s) { return s.cluster.gpu.networkBandwidth; },
               [](Scenario& s, double v) {
                   core::ClusterSpec& c = s.cluster;
                   if (!c.network) {
                       c.gpu.networkBandwidth = v;
                       return;
                   }
                   core::NetworkSpec n = *c.network;
                   n.cardGbps = v * 8.0 * c.gpusPerNode / n.cardsPerNode / 1e9;
                   const double latency = c.networkLatencySeconds;
                   core::setNetwork(c, n);
                   c.networkLatencySeconds = latency;
               }},
     .range = {0.1, 10000, 1},
     .shown = kGigabytesPerSecond},
    {.kind = Kind::Double,
     .label = "NVLink latency",
     .tip = "Latency of one NVLink collective step.",
     .value = scenarioValue<&Scenario::cluster, &ClusterSpec::nvlinkLatencySeconds>(),
     .range = {0, 1000, 1},
     .shown = kMicroseconds},
    {.kind = Kind::Double,
     .label = "Network latency",
     .tip = "Latency of one collective step across the network.",
     .value = scenarioValue<&Scenario::cluster, &ClusterSpec::networkLatencySeconds>(),
     .range = {0, 1000, 1},
     .shown = kMicroseconds},
    {.kind = Kind::Double,
     .label = "GPU memory",
     .tip = "Memory of one GPU as CUDA reports it, the capacity a layout must fit in (decimal GB): an \"80 "
            "GB\" H100 exposes 79.2 GiB = 85.05 GB (nvidia-smi's total less the driver's reserve).",
     .value = gpu<&GpuSpec::hbmBytes>(),
     .range = {1, 10000, 2},
     .shown = kGigabytes},
    {.kind = Kind::Double,
     .label = "Peak 16-bit",
     .tip = "Dense bf16/fp16 peak of one GPU, without sparsity.",
     .value = gpu<&GpuSpec::peakFlops16>(),
     .range = {1, 100000, 0},
     .shown = kTeraflops},
    {.kind = Kind::Double,
     .label = "Peak fp8",
     .tip = "Dense fp8 peak of one GPU; 0 where the GPU has no fp8.",
     .value = gpu<&GpuSpec::peakFlops8>(),
     .range = {0, 100000, 0},
     .shown = kTeraflops},
    {.kind = Kind::Double,
     .label = "HBM bandwidth",
     .tip = "Memory bandwidth of one GPU.",
     .value = gpu<&GpuSpec::hbmBandwidth>(),
     .range = {0.1, 100, 2},
     .shown = kTerabytesPerSecond},
    {.kind = Kind::Double,
     .label = "Host link",
     .tip = "Bandwidth between one GPU and host memory, one direction: PCIe 4.0 x16 32 GB/s, PCIe 5.0 x16 64 "
            "GB/s, NVLink-C2C on Grace (GB200) 225 GB/s. Sets the cost of offloading.",
     .value = gpu<&GpuSpec::hostLinkBandwidth>(),
     .range = {0.1, 10000, 1},
     .shown = kGigabytesPerSecond},
    {.kind = Kind::Double,
     .label = "Host memory bandwidth",
     .tip = "One GPU's share of the host's DRAM bandwidth (the node's total over its GPUs): the pace of an "
            "optimizer step run on the CPU.",
     .value = gpu<&GpuSpec::hostMemoryBandwidth>(),
     .range = {0.1, 10000, 1},
     .shown = kGigabytesPerSecond},
};

// Sets one part of the cluster's network over its stated (or implied) cards; a new fabric brings its latency.
template <typename Change> void changeNetwork(Scenario& s, Change change) {
    core::ClusterSpec& c = s.cluster;
    core::NetworkSpec n = core::statedOrImpliedNetwork(c);
    const core::NetworkSpec before = n;
    const bool stated = c.network.has_value();
    change(n);
    const double latency = c.networkLatencySeconds;
    core::setNetwork(c, n);
    if (stated && before.fabric == n.fabric)
        c.networkLatencySeconds = latency;
}

constexpr const char* kSingleNodeTip = "A single node uses no network: these matter from two nodes on.";

// The node's network cards (core::NetworkSpec): the fabric, how many, how fast.
const std::vector<FormField> kNetworkFields = {
    {.kind = Kind::Choice,
     .name = "networkFabric",
     .label = "Network &fabric",
     .tip = "What carries NCCL's traffic between nodes: InfiniBand, RoCE, AWS EFA and GPUDirect-TCPX with "
            "GPUDirect RDMA, Omni-Path (through host memory) or plain TCP sockets. 'Per-GPU figure' plans "
            "on the bandwidth below with InfiniBand's physics.",
     .value = {[](const Scenario& s) {
                   return s.cluster.network ? static_cast<double>(s.cluster.network->fabric) : -1.0;
               },
               [](Scenario& s, double v) {
                   if (v < 0) {
                       s.cluster.network.reset();
                       return;
                   }
                   changeNetwork(s, [v](core::NetworkSpec& n) { n.fabric = static_cast<core::Fabric>(v); });
               }},
     .choices = {{"Per-GPU figure", -1},
                 {"InfiniBand", 0},
                 {"RoCE", 1},
                 {"AWS EFA", 2},
                 {"GPUDirect-TCPX", 3},
                 {"Omni-Path", 4},
                 {"TCP/Ethernet", 5}}},
    {.name = "networkCards",
     .label = "Network cards",
     .tip = "Network cards per node that carry GPU traffic (8 on a DGX, 4 on many 2021-2022 A100 servers).",
     .value = {[](const Scenario& s) {
                   return static_cast<double>(core::statedOrImpliedNetwork(s.cluster).cardsPerNode);
               },
               [](Scenario& s, double v) {
                   changeNetwork(s, [v](core::NetworkSpec& n) { n.cardsPerNode = static_cast<int>(v); });
               }},
     .range = {1, 10000}},
    {.kind = Kind::Double,
     .name = "networkCardGbps",
     .label = "Card speed",
     .tip = "Speed of one network card, one direction: HDR InfiniBand 200 Gb/s, NDR 400, Omni-Path 100.",
     .value = {
         [](const Scenario& s) { return core::statedOrImpliedNetwork(s.cluster).cardGbps; },
         [](Scenario& s, double v) { changeNetwork(s, [v](core::NetworkSpec& n) { n.cardGbps = v; }); }},
     .range = {1, 100000, 0},
     .shown = {1, " Gb/s"}},
};

// A preset box with its label and tooltip, as one row of `form`.
void addPresetRow(QFormLayout* form, QComboBox* box, const QString& label, const QString& tip,
                  const QString& accessibleName, int shownLength) {
    box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    box->setMinimumContentsLength(shownLength);
    auto* l = new QLabel(label, form->parentWidget());
    l->setBuddy(box);
    box->setToolTip(tip);
    l->setToolTip(tip);
    box->setAccessibleName(accessibleName);
    form->addRow(l, box);
}

} // namespace

ClusterEditor::ClusterEditor(ScenarioDocument* doc, QWidget* parent)
    : QWidget(parent), m_doc(doc), m_gpu(new QComboBox(this)), m_cluster(new QComboBox(this)),
      m_section(new CollapsibleSection(tr("Interconnect and GPU figures"), this)),
      m_main(new FormBinder(doc, mergeIdFor(EditKind::Cluster), this)),
      m_more(new FormBinder(doc, mergeIdFor(EditKind::Cluster, 50), this)) {
    // An edited cluster keeps the name of the system it still is.
    const auto apply = [this](const Scenario& next, const QString& description, int mergeId) {
        core::ClusterSpec c = next.cluster;
        core::refreshNetworkShare(c); // the cards stay; a new node size shares them differently
        core::syncClusterName(c);
        m_doc->editCluster(c, description, mergeId);
    };
    m_main->setApply(apply);
    m_more->setApply(apply);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* top = new QWidget(this);
    auto* form = makeForm(top);
    addGpuChoice(form);
    m_main->addFields(form, kSizeFields);
    layout->addWidget(top);

    auto* body = new QWidget(m_section);
    auto* more = makeForm(body, 16);
    addSystemChoice(more);
    m_networkControls = m_more->addFields(more, kNetworkFields);
    m_more->addFields(more, kFigureFields);
    m_section->setContent(body);
    layout->addWidget(m_section);

    connect(m_doc, &ScenarioDocument::scenarioChanged, this, &ClusterEditor::refresh);
    refresh();
}

void ClusterEditor::addGpuChoice(QFormLayout* form) {
    m_gpu->setObjectName(QStringLiteral("gpuPreset"));
    for (const core::GpuPreset& p : core::gpuPresets())
        m_gpu->addItem(QString::fromStdString(p.gpu.name), QString::fromStdString(p.gpu.id));
    m_gpu->addItem(tr("Custom GPU"), QString());
    addPresetRow(
        form, m_gpu, tr("&GPU"),
        tr("The GPU type: its peak FLOP/s, memory and bandwidths, and its built-in efficiency profile."),
        tr("GPU type"), 14);
    connect(m_gpu, &QComboBox::activated, this, [this](int index) {
        const core::GpuPreset* p = core::findGpuPreset(m_gpu->itemData(index).toString().toStdString());
        if (!p)
            return;
        core::ClusterSpec c = m_doc->scenario().cluster;
        c.gpu = p->gpu;
        c.network.reset(); // the GPU's own figure, from its usual server's cards
        m_doc->editCluster(c, tr("Choose GPU %1").arg(QString::fromStdString(p->gpu.name)));
    });
}

void ClusterEditor::addSystemChoice(QFormLayout* form) {
    m_cluster->setObjectName(QStringLiteral("clusterPreset"));
    m_cluster->addItem(tr("(choose a system)"), QString());
    for (const core::ClusterPreset& p : core::clusterPresets())
        m_cluster->addItem(QString::fromStdString(p.name), QString::fromStdString(p.id));
    addPresetRow(form, m_cluster, tr("S&ystem"),
                 tr("A server or rack type: sets the GPU, GPUs per node, NVLink domain and network "
                    "bandwidth, keeping the node count."),
                 tr("System preset"), 12);
    connect(m_cluster, &QComboBox::activated, this, [this](int index) {
        const core::ClusterPreset* p =
            core::findClusterPreset(m_cluster->itemData(index).toString().toStdString());
        if (!p)
            return;
        m_doc->editCluster(core::makeCluster(*p, m_doc->scenario().cluster.nodes),
                           tr("Choose system %1").arg(QString::fromStdString(p->name)));
    });
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
    if (const core::ClusterPreset* match = core::matchingClusterPreset(c))
        system = m_cluster->findData(QString::fromStdString(match->id));
    if (m_cluster->currentIndex() != system) {
        const QSignalBlocker blockCluster(m_cluster);
        m_cluster->setCurrentIndex(system);
    }
    showNetworkState(c);
}

void ClusterEditor::showNetworkState(const core::ClusterSpec& c) {
    const bool singleNode = c.nodes <= 1;
    for (std::size_t i = 0; i < m_networkControls.size(); ++i) {
        QWidget* control = m_networkControls[i];
        // The cards and their speed are the fabric's: without one stated, the per-GPU figure stands.
        control->setEnabled(!singleNode && (i == 0 || c.network.has_value()));
        const QString tip = control->property("fullTip").toString();
        if (tip.isEmpty())
            control->setProperty("fullTip", control->toolTip());
        const QString full = control->property("fullTip").toString();
        control->setToolTip(singleNode ? tr(kSingleNodeTip) + QStringLiteral("\n\n") + full : full);
    }
}

} // namespace lp::ui
