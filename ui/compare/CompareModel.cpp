#include "ui/compare/CompareModel.h"

#include "ui/widgets/Palette.h"

#include <QBrush>
#include <QFont>
#include <QGuiApplication>
#include <QPalette>

#include <algorithm>
#include <cmath>

namespace lp::ui {
namespace {

QString recomputeText(core::Recompute r) {
    switch (r) {
    case core::Recompute::None:
        return CompareModel::tr("no recompute");
    case core::Recompute::Selective:
        return CompareModel::tr("selective recompute");
    case core::Recompute::Full:
        return CompareModel::tr("full recompute");
    }
    return {};
}

QString diagnosticName(const core::Diagnostic& d) {
    QString s = QString::fromStdString(std::string(core::diagnosticIdString(d.id)));
    s.replace(QLatin1Char('_'), QLatin1Char(' '));
    if (!s.isEmpty())
        s[0] = s[0].toUpper();
    return s;
}

// Warnings and errors count against a layout; information does not.
int seriousCount(const core::Plan& p) {
    int n = 0;
    for (const core::Diagnostic& d : p.diagnostics)
        n += d.severity != core::Severity::Info || d.id == core::DiagnosticId::DoesNotFit;
    return n;
}

} // namespace

CompareModel::CompareModel(QObject* parent) : QAbstractTableModel(parent) {}

void CompareModel::setPinned(const std::vector<PinnedLayout>& pinned) {
    beginResetModel();
    m_pinned = pinned;
    endResetModel();
}

void CompareModel::setUnit(MemoryUnit unit) {
    if (unit == m_unit)
        return;
    m_unit = unit;
    if (!m_pinned.empty())
        emit dataChanged(index(WorstMemory, 0), index(Headroom, columnCount() - 1),
                         {Qt::DisplayRole, Qt::ToolTipRole});
    emit headerDataChanged(Qt::Vertical, WorstMemory, Headroom);
}

QString CompareModel::letter(int column) {
    return QString(QChar(u'A' + column));
}

QString CompareModel::metricName(int metric) {
    switch (metric) {
    case Parallelism:
        return tr("Parallelism");
    case VirtualStages:
        return tr("Virtual stages");
    case Batch:
        return tr("Batch: mb × acc × DP");
    case Training:
        return tr("ZeRO, recompute");
    case Gpus:
        return tr("GPUs");
    case WorstMemory:
        return tr("Worst-stage memory");
    case Headroom:
        return tr("Free memory");
    case StepTime:
        return tr("Step time");
    case Mfu:
        return tr("MFU");
    case Hfu:
        return tr("HFU");
    case TokensPerSecond:
        return tr("Tokens/s");
    case TokensPerSecondPerGpu:
        return tr("Tokens/s per GPU");
    case Bubble:
        return tr("Pipeline bubble");
    case ExposedDp:
        return tr("Exposed DP comm.");
    case TrainingTime:
        return tr("Training time");
    case GpuHours:
        return tr("GPU-hours");
    case Diagnostics:
        return tr("Diagnostics");
    }
    return {};
}

int CompareModel::direction(int metric) {
    switch (metric) {
    case WorstMemory:
    case StepTime:
    case Bubble:
    case ExposedDp:
    case TrainingTime:
    case GpuHours:
    case Diagnostics:
        return -1;
    case Headroom:
    case Mfu:
    case TokensPerSecond:
    case TokensPerSecondPerGpu:
        return +1;
    default:
        return 0;
    }
}

bool CompareModel::hasValue(int metric) const {
    return direction(metric) != 0 || metric == Hfu || metric == Gpus;
}

double CompareModel::value(int metric, int column) const {
    const core::Plan& p = m_pinned[static_cast<std::size_t>(column)].plan;
    switch (metric) {
    case Gpus:
        return static_cast<double>(p.layout.gpus());
    case WorstMemory:
        return p.memory.worstTotalBytes();
    case Headroom:
        return p.memory.headroomBytes;
    case StepTime:
        return p.time.stepSeconds;
    case Mfu:
        return p.mfu;
    case Hfu:
        return p.hfu;
    case TokensPerSecond:
        return p.tokensPerSecond;
    case TokensPerSecondPerGpu:
        return p.tokensPerSecondPerGpu;
    case Bubble:
        return p.time.bubbleSeconds;
    case ExposedDp:
        return p.time.dpCommExposedSeconds;
    case TrainingTime:
        return p.trainingSeconds;
    case GpuHours:
        return p.gpuHours;
    case Diagnostics:
        return seriousCount(p);
    default:
        return 0;
    }
}

QString CompareModel::text(int metric, int column) const {
    const PinnedLayout& pin = m_pinned[static_cast<std::size_t>(column)];
    const core::Plan& p = pin.plan;
    const core::Layout& l = pin.scenario.layout;
    const core::TrainingOptions& t = pin.scenario.training;
    if (!p.valid && metric > Gpus && metric != Diagnostics)
        return tr("invalid");
    switch (metric) {
    case Parallelism: {
        QString s = tr("TP %1 × PP %2 × CP %3 × DP %4").arg(l.tp).arg(l.pp).arg(l.cp).arg(l.dp);
        if (l.ep > 1)
            s += tr(", EP %1").arg(l.ep);
        return s;
    }
    case VirtualStages:
        return QString::number(l.vpp);
    case Batch:
        return tr("%1 × %2 × DP %3 = %4")
            .arg(l.microBatch)
            .arg(l.accumulation)
            .arg(l.dp)
            .arg(formatCount(l.effectiveBatch()));
    case Training: {
        QString s =
            tr("ZeRO-%1, %2%3")
                .arg(t.zeroStage)
                .arg(recomputeText(t.recompute), QString::fromStdString(core::recomputeDetailText(t)));
        if (const int degree = core::effectiveShardDegree(pin.scenario); degree < l.dp)
            s += tr(" (HSDP over %1)").arg(degree);
        if (t.crossEntropy != core::CrossEntropy::Auto)
            s += tr(", %1 cross-entropy").arg(QString::fromUtf8(core::toString(t.crossEntropy)));
        if (t.optimizerPrecision != core::OptimizerPrecision::Fp32)
            s += tr(", %1 optimizer state").arg(QString::fromUtf8(core::toString(t.optimizerPrecision)));
        if (t.logitsMetricPasses > 0)
            s += t.logitsMetricPasses == 1 ? tr(", 1 metric pass on the logits")
                                           : tr(", %1 metric passes on the logits").arg(t.logitsMetricPasses);
        if (l.tp > 1)
            s += t.sequenceParallel ? tr(", SP") : tr(", no SP");
        if (l.cp > 1 && t.cpExchange != core::CpExchange::Auto)
            s += tr(", CP %1").arg(QString::fromUtf8(core::toString(t.cpExchange)));
        return s;
    }
    case Gpus:
        return formatCount(l.gpus());
    case WorstMemory:
        return formatBytes(p.memory.worstTotalBytes(), m_unit);
    case Headroom:
        return p.memory.fits ? formatBytes(p.memory.headroomBytes, m_unit)
                             : tr("%1 over").arg(formatBytes(-p.memory.headroomBytes, m_unit));
    case StepTime:
        return formatSeconds(p.time.stepSeconds);
    case Mfu:
        return formatPercent(p.mfu, 1);
    case Hfu:
        return formatPercent(p.hfu, 1);
    case TokensPerSecond:
        return formatLarge(p.tokensPerSecond);
    case TokensPerSecondPerGpu:
        return formatNumber(p.tokensPerSecondPerGpu, 0);
    case Bubble:
        return tr("%1 (%2)").arg(formatSeconds(p.time.bubbleSeconds),
                                 formatPercent(p.time.bubbleFraction, 0));
    case ExposedDp:
        return formatSeconds(p.time.dpCommExposedSeconds);
    case TrainingTime:
        return formatDuration(p.trainingSeconds);
    case GpuHours:
        return formatLarge(p.gpuHours);
    case Diagnostics: {
        QStringList names;
        for (const core::Diagnostic& d : p.diagnostics)
            if (d.severity != core::Severity::Info || d.id == core::DiagnosticId::DoesNotFit)
                names << diagnosticName(d);
        return names.isEmpty() ? tr("none") : names.join(QLatin1Char('\n'));
    }
    }
    return {};
}

QString CompareModel::toolTip(int metric, int column) const {
    const PinnedLayout& pin = m_pinned[static_cast<std::size_t>(column)];
    if (metric == Diagnostics) {
        QStringList lines;
        for (const core::Diagnostic& d : pin.plan.diagnostics)
            lines << QStringLiteral("• %1 %2").arg(QString::fromStdString(core::diagnosticMessage(d)),
                                                   QString::fromStdString(core::diagnosticSuggestion(d)));
        return lines.isEmpty() ? tr("No diagnostics.") : lines.join(QLatin1Char('\n'));
    }
    QString tip = QStringLiteral("%1 · %2: %3").arg(letter(column), metricName(metric), text(metric, column));
    switch (mark(metric, column)) {
    case Mark::Best:
        tip += tr("\nBest of the pinned layouts.");
        break;
    case Mark::Worst:
        tip += tr("\nWorst of the pinned layouts.");
        break;
    case Mark::None:
        break;
    }
    if (differsFromFirst(metric, column))
        tip += tr("\nDiffers from A.");
    return tip;
}

CompareModel::Mark CompareModel::mark(int metric, int column) const {
    const int n = static_cast<int>(m_pinned.size());
    const int dir = direction(metric);
    if (n < 2 || dir == 0 || column < 0 || column >= n)
        return Mark::None;
    for (const PinnedLayout& p : m_pinned)
        if (!p.plan.valid)
            return Mark::None;
    double lo = value(metric, 0);
    double hi = lo;
    for (int c = 1; c < n; ++c) {
        lo = std::min(lo, value(metric, c));
        hi = std::max(hi, value(metric, c));
    }
    // Differences under 0.5% (or none at all) are not worth a colour.
    const double scale = std::max(std::fabs(lo), std::fabs(hi));
    if (hi - lo <= 0.005 * scale || hi == lo)
        return Mark::None;
    const double v = value(metric, column);
    const double best = dir > 0 ? hi : lo;
    const double worst = dir > 0 ? lo : hi;
    if (v == best)
        return Mark::Best;
    if (v == worst)
        return Mark::Worst;
    return Mark::None;
}

bool CompareModel::differsFromFirst(int metric, int column) const {
    if (column <= 0 || column >= static_cast<int>(m_pinned.size()))
        return false;
    return text(metric, column) != text(metric, 0);
}

int CompareModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : MetricCount;
}

int CompareModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_pinned.size());
}

QVariant CompareModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const int metric = index.row();
    const int column = index.column();
    switch (role) {
    case Qt::DisplayRole:
        return text(metric, column);
    case Qt::ToolTipRole:
        return toolTip(metric, column);
    case MarkRole:
        return static_cast<int>(mark(metric, column));
    case DiffersRole:
        return differsFromFirst(metric, column);
    case ValueRole:
        return hasValue(metric) ? QVariant(value(metric, column)) : QVariant();
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(Qt::Alignment(Qt::AlignCenter));
    case Qt::FontRole:
        if (mark(metric, column) == Mark::Best) {
            QFont f;
            f.setBold(true);
            return f;
        }
        return {};
    case Qt::ForegroundRole: {
        const core::Plan& p = m_pinned[static_cast<std::size_t>(column)].plan;
        if ((metric == Headroom || metric == WorstMemory) && p.valid && !p.memory.fits)
            return QBrush(palette::error());
        switch (mark(metric, column)) {
        case Mark::Best:
            return QBrush(palette::bandGood().darker(125));
        case Mark::Worst:
            return QBrush(QColor(0xB8, 0x4A, 0x3E)); // red-ish, softer than "does not fit"
        case Mark::None:
            return {};
        }
        return {};
    }
    case Qt::BackgroundRole:
        if (differsFromFirst(metric, column)) {
            QColor tint = QGuiApplication::palette().color(QPalette::Highlight);
            tint.setAlphaF(0.14f);
            return QBrush(tint);
        }
        return {};
    default:
        return {};
    }
}

QVariant CompareModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation == Qt::Vertical) {
        if (section < 0 || section >= MetricCount)
            return {};
        if (role == Qt::DisplayRole)
            return metricName(section);
        if (role == Qt::ToolTipRole) {
            const int dir = direction(section);
            return dir > 0 ? tr("Higher is better.") : dir < 0 ? tr("Lower is better.") : QVariant();
        }
        return {};
    }
    if (section < 0 || section >= columnCount())
        return {};
    const PinnedLayout& pin = m_pinned[static_cast<std::size_t>(section)];
    if (role == Qt::DisplayRole)
        return QStringLiteral("%1 · %2").arg(letter(section), pin.source);
    if (role == Qt::ToolTipRole)
        return QString::fromStdString(pin.scenario.name);
    return {};
}

} // namespace lp::ui
