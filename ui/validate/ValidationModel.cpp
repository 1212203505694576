#include "ui/validate/ValidationModel.h"

#include "core/measured/ValidationText.h"
#include "core/model/Enums.h"
#include "ui/widgets/Format.h"
#include "ui/widgets/Palette.h"

#include <QHash>

#include <cmath>
#include <limits>

namespace lp::ui {

ValidationModel::ValidationModel(QObject* parent) : QAbstractTableModel(parent) {}

const QStringList& ValidationModel::metricOrder() {
    static const QStringList order = [] {
        QStringList out;
        for (const std::string& metric : core::knownMetrics())
            out << qs(metric);
        return out;
    }();
    return order;
}

QString ValidationModel::metricName(const QString& metric) {
    return qs(core::metricName(metric.toStdString()));
}

QString ValidationModel::metricShortName(const QString& metric) {
    return qs(core::metricShortName(metric.toStdString()));
}

QString ValidationModel::metricUnit(const QString& metric) {
    return qs(core::metricUnit(metric.toStdString()));
}

QString ValidationModel::formatMetricValue(const QString& metric, double value) {
    return qs(core::metricValueText(metric.toStdString(), value));
}

QString ValidationModel::formatError(double relativeError) {
    return qs(core::signedErrorText(relativeError));
}

QColor ValidationModel::errorColor(double relativeError) {
    switch (core::errorBand(relativeError)) {
    case core::ErrorBand::Good:
        return palette::bandGood();
    case core::ErrorBand::Fair:
        return palette::warning();
    case core::ErrorBand::Bad:
        break;
    }
    return palette::error();
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
            row.gpu = qs(core::gpusText(c.scenario));
            row.layout = qs(core::layoutText(c.scenario, r.microBatch, c.microBatchGiven));
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
            return tr("Tensor, pipeline and data parallel sizes and the micro batch; * marks a micro batch "
                      "the source does not state (the fastest that fits)");
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
    const core::ValidationRow& vr = m_report.rows[static_cast<std::size_t>(index.row())];
    const Row& row = m_rows[static_cast<std::size_t>(index.row())];
    const bool predicted = core::hasPrediction(vr);
    const int col = index.column();
    switch (role) {
    case Qt::DisplayRole:
        return displayData(vr, row, col);
    case SortRole:
        return sortData(index);
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(col >= MeasuredColumn ? Qt::AlignRight | Qt::AlignVCenter
                                                         : Qt::AlignLeft | Qt::AlignVCenter);
    case Qt::BackgroundRole: {
        if (col != ErrorColumn)
            return {};
        QColor tint = errorColor(predicted ? vr.relativeError : std::numeric_limits<double>::infinity());
        tint.setAlpha(56);
        return tint;
    }
    case Qt::ForegroundRole:
        return col == PredictedColumn && !predicted ? QVariant(palette::error()) : QVariant();
    case Qt::ToolTipRole:
        return toolTip(vr, row);
    case CaseIndexRole:
        return row.caseIndex;
    case CaseIdRole:
        return qs(vr.caseId);
    case MetricRole:
        return qs(vr.metric);
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

QVariant ValidationModel::displayData(const core::ValidationRow& vr, const Row& row, int column) const {
    const bool predicted = core::hasPrediction(vr);
    const QString metric = qs(vr.metric);
    switch (column) {
    case CaseColumn:
        return qs(vr.caseId);
    case SourceColumn:
        return row.caseIndex >= 0 ? qs(m_cases[static_cast<std::size_t>(row.caseIndex)].source) : QString();
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
}

// Numbers as numbers; an error by its size, a missing prediction last.
QVariant ValidationModel::sortData(const QModelIndex& index) const {
    const core::ValidationRow& vr = m_report.rows[static_cast<std::size_t>(index.row())];
    switch (index.column()) {
    case GpuColumn: {
        const core::ValidationCase* c = caseForRow(index.row());
        return c ? QVariant(static_cast<qlonglong>(c->scenario.layout.gpus())) : QVariant();
    }
    case MeasuredColumn:
        return vr.measured;
    case PredictedColumn:
        return vr.predicted;
    case ErrorColumn:
        return core::hasPrediction(vr) ? std::fabs(vr.relativeError) : 1e9;
    case MetricColumn:
        return core::metricRank(vr.metric);
    default:
        return data(index, Qt::DisplayRole);
    }
}

// The case: its source, model, GPUs and settings, what the planner assumed, and what was adjusted.
QString ValidationModel::toolTip(const core::ValidationRow& vr, const Row& row) const {
    if (row.caseIndex < 0)
        return qs(vr.caseId);
    const core::ValidationCase& c = m_cases[static_cast<std::size_t>(row.caseIndex)];
    QString tip =
        QStringLiteral("<b>%1</b><br>%2").arg(qs(c.id).toHtmlEscaped(), qs(c.source).toHtmlEscaped());
    tip +=
        QStringLiteral("<br>%1, %2").arg(qs(c.scenario.model.name).toHtmlEscaped(), row.gpu.toHtmlEscaped());
    const core::TrainingOptions& t = c.scenario.training;
    tip +=
        tr("<br>%1; global batch %2; recompute %3; ZeRO %4; %5%6")
            .arg(row.layout, formatCount(c.globalBatch),
                 qs(core::toString(t.recompute)) + qs(core::recomputeDetailText(t)))
            .arg(t.zeroStage)
            .arg(qs(core::toString(t.precision)), t.sequenceParallel ? tr("; sequence parallel") : QString());
    QStringList assumed;
    for (const std::string& words : core::plannedWith(c))
        assumed << qs(words).toHtmlEscaped();
    tip += tr("<br>Planned with: %1").arg(assumed.join(QStringLiteral(", ")));
    if (!c.microBatchGiven)
        tip += tr("<br>* micro batch not stated: the fastest that fits");
    for (const std::string& a : c.adjustments)
        tip += tr("<br>Adjusted: %1").arg(qs(a).toHtmlEscaped());
    for (const std::string& d : c.derived)
        tip += tr("<br>Stated from its words: %1").arg(qs(d).toHtmlEscaped());
    if (!c.confidence.empty())
        tip += tr("<br>Confidence: %1").arg(qs(c.confidence).toHtmlEscaped());
    if (!core::hasPrediction(vr))
        tip += tr("<br><b>No prediction:</b> the layout is invalid in the planner");
    if (!c.notes.empty())
        tip += QStringLiteral("<br><i>%1</i>").arg(qs(c.notes).toHtmlEscaped());
    tip += tr("<br>Double-click to open it as the scenario.");
    return QStringLiteral("<div style='max-width: 480px'>%1</div>").arg(tip);
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

void ValidationFilterModel::setCaseIds(const QStringList& caseIds) {
    if (caseIds == m_caseIds)
        return;
    m_caseIds = caseIds;
    invalidateFilter();
}

bool ValidationFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const {
    const QModelIndex i = sourceModel()->index(sourceRow, 0, sourceParent);
    if (!m_caseIds.isEmpty() && !m_caseIds.contains(i.data(ValidationModel::CaseIdRole).toString()))
        return false;
    if (!m_metric.isEmpty()) {
        const QString metric = i.data(ValidationModel::MetricRole).toString();
        if (m_metric == QLatin1String("throughput") ? !core::isThroughputMetric(metric.toStdString())
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
