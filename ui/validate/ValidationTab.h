#pragma once
// The "Validate" tab: the published measured runs (layout-planner/validation-cases@2 or @1) against the
// planner's predictions. A summary per metric, the table of every case and metric (error coloured,
// filter by metric and text), a predicted-against-measured scatter on log axes with the 1:1 line, and
// "Open as scenario", which makes a case (its micro batch resolved) the window's scenario.
// Figures come from core (core/measured/Validation.h) and their words from core/measured/ValidationText.h;
// the tab only shows them.
#include "core/measured/Validation.h"
#include "core/model/Hardware.h"
#include "ui/document/FileChooser.h"
#include "ui/document/ValidationSets.h"

#include <QString>
#include <QStringList>
#include <QWidget>

#include <functional>
#include <optional>
#include <vector>

class QChartView;
class QCheckBox;
class QComboBox;
class QLabel;
class QLayout;
class QLineEdit;
class QPushButton;
class QSplitter;
class QTableView;
class QTimer;

namespace lp::ui {

class InlineBanner;
class ScenarioDocument;
class ValidationChart;
class ValidationFilterModel;
class ValidationGroups;
class ValidationModel;
class ValidationSummary;

class ValidationTab : public QWidget {
    Q_OBJECT
public:
    explicit ValidationTab(ScenarioDocument& doc, QWidget* parent = nullptr);
    ~ValidationTab() override;

    // Where the published runs are looked for, in order: the file opened last (QSettings), then
    // shared/reference/published-runs.json beside or above the executable's folder, then beside or
    // above the working folder, then the application data folders (QStandardPaths).
    static QStringList defaultCasesCandidates();

    // Reads a cases file and predicts every case. False (the banner says why, nothing changes) when
    // the file cannot be read or is malformed.
    bool loadCasesFile(const QString& path);
    // The first of defaultCasesCandidates() that exists; false (and an explanation) when none does.
    bool loadDefaultCases();
    // Predicts the loaded cases again (after a profile change).
    void rerun();

    QString casesPath() const { return m_path; }
    QString errorText() const { return m_errorText; }
    int caseCount() const;

    // Filters (also what the controls set).
    void setMetricFilter(const QString& metric); // "" all, "throughput", or a metric id
    void setTextFilter(const QString& text);
    // Predict with the window's measured profile (only offered while one is active).
    void setUseActiveProfile(bool use);
    bool usesActiveProfile() const;

    // Makes a case the window's scenario (a new, unsaved document). False when the guard declines
    // (unsaved changes kept) or the row does not exist.
    bool openCase(int sourceRow);
    bool openCaseById(const QString& caseId);
    bool openSelected();
    // Shows the runs behind a plan's trust band: loads the bundled set at `setPath`, or without one the set
    // that holds most of them, and lists only their throughput figures; the banner says so, offers every run
    // again and one button per other set that holds some of them. The rows shown; 0 when no set holds any.
    int showRuns(const QStringList& caseIds, const QString& setPath = {});
    // Where the reference set and the other sets are looked for (tests point these at empty folders).
    struct DataLookup {
        std::function<QStringList()> referenceCandidates = &ValidationTab::defaultCasesCandidates;
        std::function<std::vector<ValidationSet>()> sets = &bundledValidationSets;
    };
    void setDataLookup(DataLookup lookup);
    // Asked before the document is replaced; false keeps it (the window's "save changes?" question).
    void setReplaceGuard(std::function<bool()> guard) { m_replaceGuard = std::move(guard); }
    void setOpenFileChooser(FileChooser chooser) { m_chooseFile = std::move(chooser); }

    ValidationModel* model() const { return m_model; }
    ValidationFilterModel* filterModel() const { return m_filter; }
    QTableView* table() const { return m_table; }
    QChartView* chartView() const;
    QComboBox* metricCombo() const { return m_filterRow.metric; }
    // The sets of published runs that came with the program (ui/document/ValidationSets.h), and any other
    // file opened.
    QComboBox* setCombo() const { return m_titleRow.set; }
    QLineEdit* searchEdit() const { return m_filterRow.search; }
    QPushButton* openButton() const { return m_filterRow.openCase; }
    InlineBanner* banner() const { return m_banner; }
    // The summary as shown: one line per metric ("Iteration time: median 5.5%, max 33.5%, 59 values").
    QStringList summaryLines() const;
    int plottedPoints() const;
    // Table beside the chart when wide, above it when narrow (the window with its side panels).
    Qt::Orientation splitOrientation() const;

public slots:
    void chooseCasesFile(); // "Open cases file..."

signals:
    void caseOpened(const QString& caseId);
    void casesLoaded();

protected:
    void showEvent(QShowEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QLayout* buildTitleRow();
    QLayout* buildFilterRow();
    void buildTable();
    void connectWidgets();
    void predict(std::vector<core::ValidationCase> cases);
    void runAndShow();
    void rebuildMetricCombo();
    void scheduleChart();
    void rebuildChart();
    void updateSelectionMarker();
    void updateCountLabel();
    void updateProfileControls();
    void rebuildSetCombo();
    void showReferenceNotFound(const QStringList& searched);
    void selectSourceRow(int sourceRow);
    int currentSourceRow() const;
    int tableWidthNeeded() const;
    void fitColumns();

    // Beside the title: which file, the bundled sets, another file.
    struct TitleRow {
        QLabel* path = nullptr;
        QComboBox* set = nullptr;
        QPushButton* openFile = nullptr;
        QPushButton* reload = nullptr;
    };
    // Above the table: what it shows, and the selected case.
    struct FilterRow {
        QComboBox* metric = nullptr;
        QLineEdit* search = nullptr;
        QCheckBox* useProfile = nullptr;
        QLabel* count = nullptr;
        QPushButton* openCase = nullptr;
    };

    ScenarioDocument& m_doc;
    ValidationModel* m_model;
    ValidationFilterModel* m_filter;
    InlineBanner* m_banner = nullptr;
    ValidationSummary* m_summary = nullptr; // cards that wrap onto more lines when narrow
    ValidationGroups* m_groups = nullptr;   // the throughput figures by GPU, style and precision
    TitleRow m_titleRow;
    FilterRow m_filterRow;
    QTableView* m_table = nullptr;
    QSplitter* m_splitter = nullptr;
    ValidationChart* m_chart = nullptr;
    QTimer* m_chartTimer = nullptr;

    QString m_path;
    QStringList m_bandRuns; // the runs behind the band last shown (showRuns), for its other sets' buttons
    QString m_errorText;
    std::optional<core::HardwareProfile> m_usedProfile; // the profile the shown predictions used
    bool m_triedDefault = false;
    bool m_splitPlaced = false;
    std::function<bool()> m_replaceGuard;
    DataLookup m_lookup;
    FileChooser m_chooseFile = openFileDialogChooser();
};

} // namespace lp::ui
