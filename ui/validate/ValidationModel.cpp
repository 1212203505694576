#include "ui/validate/ValidationModel.h"

#include "core/model/Enums.h"
#include "ui/widgets/Format.h"
#include "ui/widgets/Palette.h"

#include <QHash>

#include <cmath>
#include <limits>

namespace lp::ui {
namespace {

constexpr double kGoodError = 0.10; // |error| up to 10%: green
constexpr double kBadError = 0.20;  // beyond 20%: red

} // namespace

ValidationModel::ValidationModel(QObject* parent) : QAbstractTableModel(parent) {}

const QStringList& ValidationModel::metricOrder() {
    static const QStringList order = {QStringLiteral("iteration_time_s"),
                                      QStringLiteral("model_tflops_per_gpu"),
                                      QStringLiteral("hardware_tflops_per_gpu"),
                                      QStringLiteral("mfu"),
                                      QStringLiteral("hfu"),
                                      QStringLiteral("tokens_per_s_per_gpu"),
                                      QStringLiteral("peak_memory_gib")};
    return order;
}

QString ValidationModel::metricName(const QString& metric) {
    if (metric == QLatin1String("iteration_time_s"))
        return tr("Iteration time");
    if (metric == QLatin1String("model_tflops_per_gpu"))
        return tr("Model TFLOP/s per GPU");
    if (metric == QLatin1String("hardware_tflops_per_gpu"))
        return tr("Hardware TFLOP/s per GPU");
    if (metric == QLatin1String("mfu"))
        return tr("MFU");
    if (metric == QLatin1String("hfu"))
        return tr("HFU");
    if (metric == QLatin1String("tokens_per_s_per_gpu"))
        return tr("Tokens/s per GPU");
    if (metric == QLatin1String("peak_memory_gib"))
        return tr("Peak memory");
    if (metric == QLatin1String("throughput"))
        return tr("All throughput metrics");
    return metric;
}

QString ValidationModel::metricShortName(const QString& metric) {
    if (metric == QLatin1String("model_tflops_per_gpu"))
        return tr("Model TFLOP/s");
    if (metric == QLatin1String("hardware_tflops_per_gpu"))
        return tr("HW TFLOP/s");
    if (metric == QLatin1String("tokens_per_s_per_gpu"))
        return tr("Tokens/s");
    return metricName(metric);
}

QString ValidationModel::metricUnit(const QString& metric) {
    if (metric == QLatin1String("iteration_time_s"))
        return QStringLiteral("s");
    if (metric.endsWith(QLatin1String("tflops_per_gpu")))
        return QStringLiteral("TFLOP/s");
    if (metric == QLatin1String("mfu") || metric == QLatin1String("hfu"))
        return QStringLiteral("%");
    if (metric == QLatin1String("tokens_per_s_per_gpu"))
        return QStringLiteral("tokens/s");
    if (metric == QLatin1String("peak_memory_gib"))
        return QStringLiteral("GiB");
    return {};
}

QString ValidationModel::formatMetricValue(const QString& metric, double value) {
    if (!std::isfinite(value) || value <= 0)
        return QStringLiteral("–");
    if (metric == QLatin1String("iteration_time_s"))
        return formatNumber(value, value >= 100 ? 1 : (value >= 1 ? 2 : 3)) + QStringLiteral(" s");
    if (metric.endsWith(QLatin1String("tflops_per_gpu")))
        return formatNumber(value, 1) + QStringLiteral(" TFLOP/s");
    if (metric == QLatin1String("mfu") || metric == QLatin1String("hfu"))
        return formatPercent(value, 1);
    if (metric == QLatin1String("tokens_per_s_per_gpu"))
        return formatNumber(value, 0) + QStringLiteral(" tokens/s");
    if (metric == QLatin1String("peak_memory_gib"))
        return formatNumber(value, 1) + QStringLiteral(" GiB");
    return formatNumber(value, 3);
}

QString ValidationModel::formatError(double e) {
    if (!std::isfinite(e))
        return QStringLiteral("–");
    const QString number = formatNumber(100.0 * std::fabs(e), 1) + QStringLiteral("%");
    return (e >= 0 ? QStringLiteral("+") : QString(QChar(0x2212))) + number;
}

QColor ValidationModel::errorColor(double e) {
    const double a = std::fabs(e);
    if (!std::isfinite(a) || a > kBadError)
        return palette::error();
    if (a <= kGoodError)
        return palette::bandGood();
    return palette::warning();
}

QString ValidationModel::gpuText(const core::Scenario& s) {
    QString name = qs(s.cluster.gpu.name);
    if (name.startsWith(QLatin1String("NVIDIA ")))
        name = name.mid(7);
    if (name.isEmpty())
        name = qs(s.cluster.gpu.id);
    return QStringLiteral("%1 × %2").arg(formatCount(s.layout.gpus()), name);
}

QString ValidationModel::layoutText(const core::Scenario& s, int microBatch, bool microBatchGiven) {
    const core::Layout& l = s.layout;
    QStringList parts = {QStringLiteral("TP%1").arg(l.tp), QStringLiteral("PP%1").arg(l.pp),
                         QStringLiteral("DP%1").arg(l.dp)};
    if (l.cp > 1)
        parts << QStringLiteral("CP%1").arg(l.cp);
    if (l.ep > 1)
        parts << QStringLiteral("EP%1").arg(l.ep);
    if (l.vpp > 1)
        parts << QStringLiteral("VPP%1").arg(l.vpp);
    parts << (microBatchGiven ? QStringLiteral("mb%1").arg(microBatch)
                              : QStringLiteral("mb%1*").arg(microBatch));
    return parts.join(QStringLiteral(" · "));
}

void ValidationModel::setValidation(std::vector<core::ValidationCase> cases, core::ValidationReport report) {
    beginResetModel();
    m_cases = std::move(cases);
    m_report = std::move(report);
    m_rows.clear();
    QHash<QString, int> index;
    for (int i = 0; i < static_cast<int>(m_cases.size()); ++i)
        index.insert(qs(m_cases[static_cast<std::size_t>(i)].id), i);
    m_rows.reserve(m_report.rows.size());
    for (const core::ValidationRow& r : m_report.rows) {
        Row row;
        row.caseIndex = index.value(qs(r.caseId), -1);
        if (row.caseIndex >= 0) {
            const core::ValidationCase& c = m_cases[static_cast<std::size_t>(row.caseIndex)];
            row.gpu = gpuText(c.scenario);
            row.layout = layoutText(c.scenario, r.microBatch, c.microBatchGiven);
            row.search = QStringList{qs(c.id),    qs(c.source),
                                     row.gpu,     qs(c.scenario.cluster.gpu.id),
                                     row.layout,  qs(c.scenario.model.name),
                                     qs(c.notes), metricName(qs(r.metric))}
                             .join(QLatin1Char('\n'));
        } else {
            row.search = qs(r.caseId);
        }
        m_rows.push_back(std::move(row));
    }
    endResetModel();
}

void ValidationModel::clear() {
    setValidation({}, {});
}

const core::ValidationRow* ValidationModel::rowAt(int row) const {
    if (row < 0 || row >= static_cast<int>(m_report.rows.size()))
        return nullptr;
    return &m_report.rows[static_cast<std::size_t>(row)];
}

int ValidationModel::caseIndexForRow(int row) const {
    if (row < 0 || row >= static_cast<int>(m_rows.size()))
        return -1;
    return m_rows[static_cast<std::size_t>(row)].caseIndex;
}

const core::ValidationCase* ValidationModel::caseForRow(int row) const {
    const int i = caseIndexForRow(row);
    return i < 0 ? nullptr : &m_cases[static_cast<std::size_t>(i)];
}

int ValidationModel::firstRowOfCase(const QString& caseId) const {
    for (int i = 0; i < static_cast<int>(m_report.rows.size()); ++i)
        if (qs(m_report.rows[static_cast<std::size_t>(i)].caseId) == caseId)
            return i;
    return -1;
}

QStringList ValidationModel::metrics() const {
    QStringList out;
    for (const QString& m : metricOrder())
        for (const auto& r : m_report.rows)
            if (qs(r.metric) == m) {
                out << m;
                break;
            }
    for (const auto& r : m_report.rows) // metrics this version does not know, last
        if (!out.contains(qs(r.metric)))
            out << qs(r.metric);
    return out;
}

int ValidationModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int ValidationModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ValidationModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
        case CaseColumn:
            return tr("Case");
        case SourceColumn:
            return tr("Source");
        case GpuColumn:
            return tr("GPUs");
        case LayoutColumn:
            return tr("Layout");
        case MetricColumn:
            return tr("Metric");
        case MeasuredColumn:
            return tr("Measured");
        case PredictedColumn:
            return tr("Predicted");
        case ErrorColumn:
            return tr("Error");
        default:
            return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case LayoutColumn:
            return tr("Tensor, pipeline and data parallel sizes and the micro batch; "
                      "* marks a micro batch the source does not state (the fastest that fits)");
        case MeasuredColumn:
            return tr("The figure the source publishes");
        case PredictedColumn:
            return tr("The planner's prediction for the same run");
        case ErrorColumn:
            return tr("(predicted − measured) / measured: green within 10%, amber to 20%, red beyond");
        default:
            return {};
        }
    }
    if (role == Qt::TextAlignmentRole && section >= MeasuredColumn)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant ValidationModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const int r = index.row();
    const core::ValidationRow& vr = m_report.rows[static_cast<std::size_t>(r)];
    const Row& row = m_rows[static_cast<std::size_t>(r)];
    const core::ValidationCase* c =
        row.caseIndex >= 0 ? &m_cases[static_cast<std::size_t>(row.caseIndex)] : nullptr;
    const QString metric = qs(vr.metric);
    const bool predicted = vr.predicted > 0 && std::isfinite(vr.predicted);
    const int col = index.column();

    switch (role) {
    case Qt::DisplayRole:
        switch (col) {
        case CaseColumn:
            return qs(vr.caseId);
        case SourceColumn:
            return c ? qs(c->source) : QString();
        case GpuColumn:
            return row.gpu;
        case LayoutColumn:
            return row.layout;
        case MetricColumn:
            return metricShortName(metric);
        case MeasuredColumn:
            return formatMetricValue(metric, vr.measured);
        case PredictedColumn:
            return predicted ? formatMetricValue(metric, vr.predicted) : tr("invalid");
        case ErrorColumn:
            return predicted ? formatError(vr.relativeError) : QStringLiteral("–");
        default:
            return {};
        }
    case SortRole:
        switch (col) {
        case GpuColumn:
            return c ? QVariant(static_cast<qlonglong>(c->scenario.layout.gpus())) : QVariant();
        case MeasuredColumn:
            return vr.measured;
        case PredictedColumn:
            return vr.predicted;
        case ErrorColumn:
            return predicted ? std::fabs(vr.relativeError) : 1e9;
        case MetricColumn:
            return metricOrder().indexOf(metric);
        default:
            return data(index, Qt::DisplayRole);
        }
    case Qt::TextAlignmentRole:
        if (col >= MeasuredColumn)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return QVariant::fromValue(Qt::AlignLeft | Qt::AlignVCenter);
    case Qt::BackgroundRole:
        if (col == ErrorColumn) {
            QColor tint = errorColor(predicted ? vr.relativeError : std::numeric_limits<double>::infinity());
            tint.setAlpha(56);
            return tint;
        }
        return {};
    case Qt::ForegroundRole:
        if (col == PredictedColumn && !predicted)
            return palette::error();
        return {};
    case Qt::ToolTipRole: {
        if (!c)
            return qs(vr.caseId);
        QString tip =
            QStringLiteral("<b>%1</b><br>%2").arg(qs(c->id).toHtmlEscaped(), qs(c->source).toHtmlEscaped());
        tip += QStringLiteral("<br>%1, %2")
                   .arg(qs(c->scenario.model.name).toHtmlEscaped(), row.gpu.toHtmlEscaped());
        const core::TrainingOptions& t = c->scenario.training;
        tip +=
            tr("<br>%1; global batch %2; recompute %3; ZeRO %4; %5%6")
                .arg(row.layout, formatCount(c->globalBatch),
                     qs(core::toString(t.recompute)) + QString::fromStdString(core::recomputeDetailText(t)))
                .arg(t.zeroStage)
                .arg(qs(core::toString(t.precision)),
                     t.sequenceParallel ? tr("; sequence parallel") : QString());
        // What the format does not record and the planner inferred (docs/estimation.md, section 12).
        QStringList read = {tr("%1 style").arg(qs(core::toString(core::resolvedStyle(t)))),
                            t.flashAttention ? tr("flash attention") : tr("no flash attention")};
        if (t.torchCompile)
            read << tr("torch.compile");
        if (t.fusedKernels)
            read << tr("fused kernels");
        if (t.fp8ParamGather)
            read << tr("fp8 weight gathers");
        if (t.crossEntropy != core::CrossEntropy::Auto)
            read << tr("%1 loss").arg(qs(core::toString(t.crossEntropy)));
        if (t.optimizerPrecision != core::OptimizerPrecision::Fp32)
            read << tr("%1 optimizer state").arg(qs(core::toString(t.optimizerPrecision)));
        if (t.logitsMetricPasses > 0)
            read << (t.logitsMetricPasses == 1
                         ? tr("1 metric pass over the logits")
                         : tr("%1 metric passes over the logits").arg(t.logitsMetricPasses));
        if (!c->scenario.model.dropout && c->scenario.model.mlp == core::MlpKind::Gelu)
            read << tr("no dropout");
        if (t.moeDispatcher == core::MoeDispatcher::Deduplicated)
            read << tr("DeepEP MoE dispatch");
        for (const std::string_view name : core::overlapsOn(t))
            read << tr("%1 overlap").arg(qs(std::string(name)));
        if (!c->architectureFrom.empty())
            read << tr("the attention and norms of the built-in %1")
                        .arg(qs(c->architectureFrom).toHtmlEscaped());
        tip += tr("<br>Planned with: %1").arg(read.join(QStringLiteral(", ")));
        if (!c->microBatchGiven)
            tip += tr("<br>* micro batch not stated: the fastest that fits");
        for (const std::string& a : c->adjustments)
            tip += tr("<br>Adjusted: %1").arg(qs(a).toHtmlEscaped());
        if (!c->confidence.empty())
            tip += tr("<br>Confidence: %1").arg(qs(c->confidence).toHtmlEscaped());
        if (!predicted)
            tip += tr("<br><b>No prediction:</b> the layout is invalid in the planner");
        if (!c->notes.empty())
            tip += QStringLiteral("<br><i>%1</i>").arg(qs(c->notes).toHtmlEscaped());
        tip += tr("<br>Double-click to open it as the scenario.");
        return QStringLiteral("<div style='max-width: 480px'>%1</div>").arg(tip);
    }
    case CaseIndexRole:
        return row.caseIndex;
    case CaseIdRole:
        return qs(vr.caseId);
    case MetricRole:
        return metric;
    case RelativeErrorRole:
        return predicted ? QVariant(vr.relativeError) : QVariant();
    case MeasuredRole:
        return vr.measured;
    case PredictedRole:
        return vr.predicted;
    case SearchTextRole:
        return row.search;
    default:
        return {};
    }
}

// ------------------------------------------------------------------------------------------------

ValidationFilterModel::ValidationFilterModel(QObject* parent) : QSortFilterProxyModel(parent) {
    setSortRole(ValidationModel::SortRole);
    setSortCaseSensitivity(Qt::CaseInsensitive);
}

void ValidationFilterModel::setMetric(const QString& metric) {
    if (metric == m_metric)
        return;
    m_metric = metric;
    invalidateFilter();
}

void ValidationFilterModel::setText(const QString& text) {
    const QString t = text.trimmed();
    if (t == m_text)
        return;
    m_text = t;
    invalidateFilter();
}

bool ValidationFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const {
    const QModelIndex i = sourceModel()->index(sourceRow, 0, sourceParent);
    if (!m_metric.isEmpty()) {
        const QString metric = i.data(ValidationModel::MetricRole).toString();
        if (m_metric == QLatin1String("throughput") ? metric == QLatin1String("peak_memory_gib")
                                                    : metric != m_metric)
            return false;
    }
    if (m_text.isEmpty())
        return true;
    const QString haystack = i.data(ValidationModel::SearchTextRole).toString();
    const auto words = m_text.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    for (const QString& w : words)
        if (!haystack.contains(w, Qt::CaseInsensitive))
            return false;
    return true;
}

} // namespace lp::ui
