#pragma once
// The Plan's diagnostics as a list model: errors first, then warnings, then information; each row
// carries the core's message, its suggestion, severity and stable id.
#include "core/estimate/Plan.h"

#include <QAbstractListModel>
#include <QIcon>

#include <array>
#include <vector>

namespace lp::ui {

class DiagnosticsModel : public QAbstractListModel {
    Q_OBJECT
public:
    enum Role {
        SuggestionRole = Qt::UserRole + 1,
        SeverityRole,   // int: core::Severity as shown (does_not_fit shows as an error)
        IdRole,         // QString: "pipeline_bubble"
        CostRole,       // double: seconds per step
        ExplainKeyRole, // QString: the explanation key of the figure it concerns (may be empty)
    };

    explicit DiagnosticsModel(QObject* parent = nullptr);

    void setDiagnostics(const std::vector<core::Diagnostic>& diagnostics);
    // Memory in the messages ("needs 83.5 GiB of the GPU's 79.2 GiB"); takes effect at the next
    // setDiagnostics().
    void setUnit(core::MemoryUnit unit) { m_unit = unit; }
    const core::Diagnostic& diagnostic(int row) const { return m_rows[static_cast<std::size_t>(row)].d; }
    QStringList ids() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

    static QIcon severityIcon(core::Severity s);
    static QString explainKeyFor(core::DiagnosticId id);

private:
    struct Row {
        core::Diagnostic d;
        QString id;
        QString message;
        QString suggestion;
        core::Severity severity;
    };
    std::vector<Row> m_rows;
    core::MemoryUnit m_unit = core::MemoryUnit::GiB;
    std::array<QIcon, 3> m_icons;
};

} // namespace lp::ui
