#include "core/estimate/Evaluate.h"
#include "core/io/Presets.h"
#include "core/io/ProfileJson.h"
#include "core/model/Enums.h"
#include "cuda/Workload.h"
#include "ui/calibrate/CalibrateTab.h"
#include "ui/calibrate/CalibrateTabParts.h"
#include "ui/charts/ChartStyle.h"
#include "ui/document/ScenarioDocument.h"
#include "ui/widgets/Format.h"
#include "ui/widgets/InlineBanner.h"
#include "ui/widgets/Palette.h"

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

// The Calibrate tab's hardware profiles: load, import, save, apply, and the before/after comparison.
namespace lp::ui {
using namespace calibrate;

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
    rebuildCharts();
    return true;
}

bool CalibrateTab::importProfile(const QString& path) {
    return loadProfile(path) && applyCandidate();
}

bool CalibrateTab::saveProfile(const QString& path) {
    const core::HardwareProfile profile = m_candidate ? *m_candidate : m_doc.profile();
    auto saved = core::saveProfileFile(QDir::toNativeSeparators(path).toStdString(), profile);
    if (!saved) {
        showError(tr("Cannot write %1").arg(QDir::toNativeSeparators(path)), qs(saved.error()));
        return false;
    }
    m_errorText.clear();
    m_banner->showMessage(
        InlineBanner::Kind::Info, tr("Saved the profile to %1").arg(QDir::toNativeSeparators(path)),
        tr("Use it on the command line with --profile %1").arg(QDir::toNativeSeparators(path)));
    if (m_candidate && m_candidateSource == tr("measured on this machine"))
        m_candidateSource = tr("measured on this machine, saved as %1").arg(QDir::toNativeSeparators(path));
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
    const std::string& gpuId = p.gpuId;
    if (active && !gpuId.empty() && gpuId != m_doc.scenario().cluster.gpu.id)
        html += QStringLiteral("<br><span style='color:%1'>%2</span>")
                    .arg(palette::warning().name(), tr("It was measured for %1, but the scenario's GPU is "
                                                       "%2: its efficiencies are applied to "
                                                       "the %2 figures.")
                                                        .arg(qs(gpuId), qs(m_doc.scenario().cluster.gpu.id))
                                                        .toHtmlEscaped());
    m_profileText->setText(html);
    m_builtin->setEnabled(active);
    m_save->setEnabled(true);
    m_save->setToolTip(
        m_candidate
            ? tr("Write the %1 profile (%2) to a JSON file").arg(qs(m_candidate->name), m_candidateSource)
            : tr("Write the active profile to a JSON file"));
    const bool candidateActive = m_candidate && *m_candidate == p;
    m_apply->setEnabled(m_candidate && !candidateActive);
    m_apply->setText(candidateActive ? tr("Applied to the scenario") : tr("&Apply to scenario"));
}

QString CalibrateTab::comparisonText() const {
    return m_compare->text();
}

void CalibrateTab::updateComparison() {
    const core::Scenario& s = m_doc.scenario();
    const core::HardwareProfile builtin = core::builtinProfile(s.cluster.gpu);
    std::optional<core::Plan> before, after;
    QString heading;
    const bool active = isOverrideActive();
    const bool candidateActive = m_candidate && *m_candidate == m_doc.profile();
    if (active) {
        before = core::evaluate(s, builtin);
        after = m_doc.plan();
        heading = tr("Built-in → active profile, on this scenario:");
    } else if (m_candidate && !candidateActive) {
        before = m_doc.plan();
        after = core::evaluate(s, *m_candidate);
        heading = tr("Applying it would change, on this scenario:");
    }
    if (!before || !after) {
        m_compare->clear();
        return;
    }
    if (!before->valid || !after->valid) {
        m_compare->setText(
            heading + QStringLiteral("<br>") +
            tr("the layout is invalid, so there is no MFU to compare (fix it in the Plan tab)."));
        return;
    }
    const double dMfu = 100.0 * (after->mfu - before->mfu);
    const QColor c =
        std::fabs(dMfu) < 0.05 ? mix(palette(), 0.6) : (dMfu > 0 ? palette::bandGood() : palette::warning());
    QString html = heading + QStringLiteral("<br>");
    html +=
        tr("<span style='font-size:large'>MFU <b>%1</b> → <b>%2</b></span> <span style='color:%3'>(%4%5 "
           "points)</span>")
            .arg(formatPercent(before->mfu), formatPercent(after->mfu), c.name(),
                 dMfu >= 0 ? QStringLiteral("+") : QString(QChar(0x2212)), formatNumber(std::fabs(dMfu), 1));
    html += QStringLiteral("<br>") + tr("Step time %1 → %2; %3 → %4 per GPU")
                                         .arg(formatSeconds(before->time.stepSeconds),
                                              formatSeconds(after->time.stepSeconds),
                                              formatTokensPerSecond(before->tokensPerSecondPerGpu),
                                              formatTokensPerSecond(after->tokensPerSecondPerGpu));
    m_compare->setText(html);
}

void CalibrateTab::updateResultSummary() {
    QStringList lines;
    if (m_candidate) {
        const core::HardwareProfile& p = *m_candidate;
        lines << QStringLiteral("<b>%1</b>").arg(qs(p.name).toHtmlEscaped()) +
                     (p.date.empty() ? QString() : QStringLiteral(", %1").arg(qs(p.date))) +
                     QStringLiteral("<br><span style='color:%1'>%2</span>")
                         .arg(mix(palette(), 0.6).name(), m_candidateSource.toHtmlEscaped());
    }
    if (m_result && (m_result->ok || !m_result->gemms.empty())) {
        const calib::CalibrationResult& r = *m_result;
        const core::GpuSpec gpu = referenceGpu();
        double best16 = 0, best8 = 0;
        double scenarioFlops = 0, scenarioSeconds = 0;
        for (const auto& g : r.gemms) {
            if (!g.ok())
                continue;
            (g.dtype == calib::GemmDtype::Bf16 ? best16 : best8) =
                std::max(g.dtype == calib::GemmDtype::Bf16 ? best16 : best8, g.flopsPerSecond);
            if (g.dtype == calib::GemmDtype::Bf16 && !isSweepShape(g.shape)) {
                scenarioFlops += g.shape.flops();
                scenarioSeconds += g.seconds.median;
            }
        }
        if (best16 > 0)
            lines << tr("bf16 GEMM: up to %1 (%2 of %3)")
                         .arg(tflops(best16), formatPercent(best16 / gpu.peakFlops16),
                              peakText(gpu.peakFlops16));
        if (scenarioSeconds > 0)
            lines << tr("Scenario's GEMMs: %1 on average (%2 of peak)")
                         .arg(tflops(scenarioFlops / scenarioSeconds),
                              formatPercent(scenarioFlops / scenarioSeconds / gpu.peakFlops16));
        if (best8 > 0 && gpu.peakFlops8 > 0)
            lines << tr("fp8 GEMM: up to %1 (%2 of %3)")
                         .arg(tflops(best8), formatPercent(best8 / gpu.peakFlops8), peakText(gpu.peakFlops8));
        for (const auto& h : r.sustained)
            if (h.ok() && h.burstFlopsPerSecond > 0)
                lines << tr("%1 GEMM held back to back: %2, %3 of the short samples (the power limit)")
                             .arg(QString::fromLatin1(calib::toString(h.dtype)), tflops(h.heldFlopsPerSecond),
                                  formatPercent(h.ratio()));
        double hbm = 0;
        for (const auto& h : r.hbm)
            if (h.ok())
                hbm = std::max(hbm, h.bytesPerSecond);
        if (hbm > 0)
            lines << tr("HBM: up to %1 (%2 of %3)")
                         .arg(formatBandwidth(hbm), formatPercent(hbm / gpu.hbmBandwidth),
                              formatBandwidth(gpu.hbmBandwidth));
        double bus = 0;
        for (const auto& c : r.comm)
            if (c.ok() && c.op == calib::Collective::AllReduce)
                bus = std::max(bus, c.busBytesPerSecond);
        if (bus > 0)
            lines << tr("NCCL all-reduce on %1 GPUs: up to %2 bus bandwidth (%3 of %4 NVLink)")
                         .arg(r.gpuCount)
                         .arg(formatBandwidth(bus), formatPercent(bus / gpu.nvlinkBandwidth),
                              formatBandwidth(gpu.nvlinkBandwidth));
        QStringList notes;
        for (const auto& n : r.notes)
            notes << qs(n).toHtmlEscaped();
        if (!notes.isEmpty())
            lines << QStringLiteral("<span style='color:%1'>%2</span>")
                         .arg(mix(palette(), 0.6).name(), notes.join(QStringLiteral("<br>")));
    }
    if (!m_profileNotes.isEmpty()) {
        QStringList notes;
        for (const QString& n : m_profileNotes)
            notes << n.toHtmlEscaped();
        lines << QStringLiteral("<span style='color:%1'>%2</span>")
                     .arg(mix(palette(), 0.6).name(), notes.join(QStringLiteral("<br>")));
    }
    if (lines.isEmpty())
        lines << tr("<i>No measured profile yet.</i> Run the benchmarks, or load or import a profile: what "
                    "it changes "
                    "on this scenario shows here.");
    m_summary->setText(lines.join(QStringLiteral("<br>")));
}

QString CalibrateTab::summaryText() const {
    return QTextDocumentFragment::fromHtml(m_summary->text()).toPlainText();
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
// Results: table and charts

core::GpuSpec CalibrateTab::referenceGpu() const {
    if (m_reference)
        return m_reference->gpu;
    return m_doc.scenario().cluster.gpu;
}

} // namespace lp::ui
