#include "ui/plan/DiagnosticsModel.h"

#include <algorithm>

namespace lp::ui {

DiagnosticsModel::DiagnosticsModel(QObject* parent) : QAbstractListModel(parent) {
    // Loaded once: the view asks for them on every repaint.
    for (core::Severity s : {core::Severity::Info, core::Severity::Warning, core::Severity::Error})
        m_icons[static_cast<std::size_t>(s)] = severityIcon(s);
}

QIcon DiagnosticsModel::severityIcon(core::Severity s) {
    switch (s) {
    case core::Severity::Error:
        return QIcon(QStringLiteral(":/icons/severity-error.svg"));
    case core::Severity::Warning:
        return QIcon(QStringLiteral(":/icons/severity-warning.svg"));
    case core::Severity::Info:
        return QIcon(QStringLiteral(":/icons/severity-info.svg"));
    }
    return {};
}

QString DiagnosticsModel::explainKeyFor(core::DiagnosticId id) {
    using core::DiagnosticId;
    switch (id) {
    case DiagnosticId::TpOverSlowLinks:
        return QStringLiteral("time.tp_comm");
    case DiagnosticId::PipelineBubble:
        return QStringLiteral("time.bubble");
    case DiagnosticId::LoaderNotPrefetching:
        return QStringLiteral("time.loader");
    case DiagnosticId::Stragglers:
        return QStringLiteral("time.straggler");
    case DiagnosticId::ShardingTrafficContendsWithTp:
        return QStringLiteral("time.dp_comm");
    case DiagnosticId::MfuBelow20:
        return QStringLiteral("mfu");
    case DiagnosticId::DoesNotFit:
    case DiagnosticId::LittleMemoryHeadroom:
        return QStringLiteral("memory.total");
    case DiagnosticId::ExposedDpComm:
        return QStringLiteral("time.dp_comm");
    case DiagnosticId::EpCrossesNodes:
        return QStringLiteral("time.ep_comm");
    case DiagnosticId::CpExchangeExposed:
    case DiagnosticId::CpCrossesNodes:
        return QStringLiteral("time.cp_comm");
    case DiagnosticId::UnfusedSoftmax:
        return QStringLiteral("time.compute");
    case DiagnosticId::CpuOffloadCost:
        return QStringLiteral("time.offload");
    case DiagnosticId::HostMemoryExceeded:
        return QStringLiteral("memory.host_offload");
    default:
        return {};
    }
}

void DiagnosticsModel::setDiagnostics(const std::vector<core::Diagnostic>& diagnostics) {
    std::vector<Row> rows;
    rows.reserve(diagnostics.size());
    for (const core::Diagnostic* d : core::orderedDiagnostics(diagnostics))
        rows.push_back({*d, QString::fromUtf8(core::diagnosticIdString(d->id)),
                        QString::fromStdString(core::diagnosticMessage(*d, m_unit)),
                        QString::fromStdString(core::diagnosticSuggestion(*d)), core::shownSeverity(*d)});
    const bool sameShape =
        rows.size() == m_rows.size() && std::equal(rows.begin(), rows.end(), m_rows.begin(),
                                                   [](const Row& a, const Row& b) { return a.id == b.id; });
    if (sameShape) {
        // Same diagnostics, new figures: tell the view only about the rows whose texts changed.
        for (std::size_t i = 0; i < rows.size(); ++i) {
            const bool changed =
                rows[i].message != m_rows[i].message || rows[i].suggestion != m_rows[i].suggestion;
            m_rows[i] = std::move(rows[i]);
            if (changed)
                emit dataChanged(index(static_cast<int>(i)), index(static_cast<int>(i)));
        }
        return;
    }
    beginResetModel();
    m_rows = std::move(rows);
    endResetModel();
}

QStringList DiagnosticsModel::ids() const {
    QStringList out;
    for (const Row& r : m_rows)
        out << r.id;
    return out;
}

int DiagnosticsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

QVariant DiagnosticsModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row& r = m_rows[static_cast<std::size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        return r.message;
    case Qt::ToolTipRole:
        return r.message + QStringLiteral("\n\n") + tr("Suggestion: %1").arg(r.suggestion);
    case Qt::DecorationRole:
        return m_icons[static_cast<std::size_t>(r.severity)];
    case Qt::AccessibleTextRole:
        return QString::fromUtf8(core::toString(r.severity)) + QStringLiteral(": ") + r.message;
    case SuggestionRole:
        return r.suggestion;
    case SeverityRole:
        return static_cast<int>(r.severity);
    case IdRole:
        return r.id;
    case CostRole:
        return r.d.costSeconds;
    case ExplainKeyRole:
        return explainKeyFor(r.d.id);
    default:
        return {};
    }
}

QHash<int, QByteArray> DiagnosticsModel::roleNames() const {
    QHash<int, QByteArray> names = QAbstractListModel::roleNames();
    names.insert(SuggestionRole, "suggestion");
    names.insert(SeverityRole, "severity");
    names.insert(IdRole, "id");
    names.insert(CostRole, "cost");
    names.insert(ExplainKeyRole, "explainKey");
    return names;
}

} // namespace lp::ui
