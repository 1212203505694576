#pragma once
// The published measured runs against the planner's predictions, as a table model: one row per case
// and measured metric (case, source, GPUs, layout, metric, measured, predicted, error), coloured by
// the size of the error; and a filter proxy by metric and free text. The figures come from
// core/measured/Validation.h and their words from core/measured/ValidationText.h; the model only shows them.
#include "core/measured/ValidationRun.h"

#include <QAbstractTableModel>
#include <QColor>
#include <QSortFilterProxyModel>
#include <QString>
#include <QStringList>

#include <vector>

namespace lp::ui {

class ValidationModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        CaseColumn,
        SourceColumn,
        GpuColumn,
        LayoutColumn,
        MetricColumn,
        MeasuredColumn,
        PredictedColumn,
        ErrorColumn,
        ColumnCount,
    };
    enum Role {
        SortRole = Qt::UserRole + 1, // numbers as numbers (error: its absolute value)
        CaseIndexRole,               // int: index into cases()
        CaseIdRole,                  // QString
        MetricRole,                  // QString: "iteration_time_s"
        RelativeErrorRole,           // double: (predicted - measured) / measured; invalid without prediction
        MeasuredRole,                // double
        PredictedRole,               // double (0: no prediction, the layout is invalid in the planner)
        SearchTextRole,              // QString: what the text filter searches
    };

    explicit ValidationModel(QObject* parent = nullptr);

    void setValidation(std::vector<core::ValidationCase> cases, core::ValidationReport report);
    void clear();

    const std::vector<core::ValidationCase>& cases() const { return m_cases; }
    const core::ValidationReport& report() const { return m_report; }
    int caseCount() const { return static_cast<int>(m_cases.size()); }
    // The row's report entry and its case (nullptr when out of range).
    const core::ValidationRow* rowAt(int row) const;
    const core::ValidationCase* caseForRow(int row) const;
    int caseIndexForRow(int row) const;
    int firstRowOfCase(const QString& caseId) const; // -1 when absent
    // Metrics present in the report, in the order of core::knownMetrics().
    QStringList metrics() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // The words of core/measured/ValidationText.h as QStrings.
    static QString metricName(const QString& metric);      // "Iteration time"; "All throughput metrics"
    static QString metricShortName(const QString& metric); // the table's: "HW TFLOP/s", "Tokens/s"
    static QString metricUnit(const QString& metric);      // "s", "TFLOP/s", "%", "tokens/s", "GiB"
    static QString formatMetricValue(const QString& metric, double value);
    static QString formatError(double relativeError); // "+4.2%"
    // Green within 10%, amber to 20%, red beyond (the colours of the product).
    static QColor errorColor(double relativeError);
    static const QStringList& metricOrder();

private:
    struct Row {
        int caseIndex = 0;
        QString gpu;
        QString layout;
        QString search;
    };
    QVariant displayData(const core::ValidationRow& vr, const Row& row, int column) const;
    QVariant sortData(const QModelIndex& index) const;
    QString toolTip(const core::ValidationRow& vr, const Row& row) const;
    std::vector<core::ValidationCase> m_cases;
    core::ValidationReport m_report;
    std::vector<Row> m_rows;
};

// Keeps the rows of one metric (empty: all) whose case, source, GPU, layout or notes contain the text.
class ValidationFilterModel : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit ValidationFilterModel(QObject* parent = nullptr);

    void setMetric(const QString& metric);
    QString metric() const { return m_metric; }
    void setText(const QString& text);
    QString text() const { return m_text; }
    // Only the rows of these cases (the runs behind a plan's trust band); empty: every case.
    void setCaseIds(const QStringList& caseIds);
    QStringList caseIds() const { return m_caseIds; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    QString m_metric;
    QString m_text;
    QStringList m_caseIds;
};

} // namespace lp::ui
