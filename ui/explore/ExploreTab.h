#pragma once
// The Explore tab: runs core::search for the document's scenario in a worker thread (progress bar,
// Cancel), shows the ranked layouts in a sortable, filterable table and as a memory-against-MFU
// scatter (ParetoChart); a row or a point selects the layout in both, a double-click applies it to the
// planner, "Pin" sends it to Compare. It only presents the core's result: ranking, validity, the front
// and the summary's words are core's.
#include "core/search/Search.h"
#include "ui/widgets/Format.h"

#include <QWidget>

#include <atomic>
#include <memory>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLayout;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableView;
class QThread;
class QToolButton;

namespace lp::ui {

class ParetoChart;
class ResultTableColumns;
class ScenarioDocument;
class SearchFilterProxy;
class SearchResultModel;

class ExploreTab : public QWidget {
    Q_OBJECT
public:
    explicit ExploreTab(ScenarioDocument* doc, QWidget* parent = nullptr);
    ~ExploreTab() override; // cancels a running search and waits for it

    void setUnit(MemoryUnit unit);

    // Starts a search of the document's current scenario with the controls' settings (a running
    // one is cancelled and the new one starts when it has stopped).
    void startSearch();
    void cancelSearch();
    bool isRunning() const { return m_thread != nullptr; }
    bool hasResult() const { return m_hasResult; }
    bool isStale() const { return m_stale; }
    const core::SearchResult& result() const { return m_result; }
    const core::Scenario& searchedScenario() const { return m_base; }

    // Rows are the model's (source) rows.
    void selectRow(int sourceRow);
    int selectedRow() const { return m_selected; }
    void applyRow(int sourceRow); // ScenarioDocument::edit with the row's layout
    void pinRow(int sourceRow);   // emits pinRequested

    // For tests and the screenshot.
    SearchResultModel* model() const { return m_model; }
    SearchFilterProxy* proxy() const { return m_proxy; }
    QTableView* table() const { return m_table; }
    ResultTableColumns* columns() const { return m_columns; }
    QToolButton* columnsButton() const { return m_columnsButton; }
    QProgressBar* progressBar() const { return m_settings.progress; }
    QPushButton* searchButton() const { return m_settings.run; }
    QPushButton* cancelButton() const { return m_settings.cancel; }
    QPushButton* pinButton() const { return m_pin; }
    QComboBox* rankCombo() const { return m_settings.rank; }
    QSpinBox* batchSpin() const { return m_settings.batch.size; }
    QCheckBox* rangeCheck() const { return m_settings.batch.range; }
    QSpinBox* batchMaxSpin() const { return m_settings.batch.max; }
    QSpinBox* topSpin() const { return m_settings.top; }
    QLineEdit* filterEdit() const { return m_filterRow.text; }
    QCheckBox* headroomCheck() const { return m_filterRow.headroom.check; }
    QDoubleSpinBox* headroomSpin() const { return m_filterRow.headroom.amount; }
    QCheckBox* tpNodeCheck() const { return m_filterRow.tpNode; }
    QCheckBox* paretoCheck() const { return m_filterRow.paretoOnly; }
    QLabel* statusLabel() const { return m_status; }
    QLabel* shownLabel() const { return m_filterRow.shown; } // how many layouts the table lists
    ParetoChart* paretoChart() const { return m_chart; }

signals:
    void searchStarted();
    void progressChanged(double fraction);
    void searchFinished(bool cancelled);
    void pinRequested(const lp::core::Scenario& scenario, const QString& label);

protected:
    void showEvent(QShowEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void buildControls();
    QLayout* buildSettings();
    void connectSettings();
    QLayout* buildFilters();
    QTableView* buildTable();
    void fitTableToFont();
    void fitTableHeight();
    QWidget* buildChartPanel();
    void applyTheme();
    void onProgress(int generation, double fraction);
    struct Job;
    void onFinished(int generation, const std::shared_ptr<Job>& job);
    void refreshStale();
    void refreshCurrent();
    void refreshStatus();
    void refreshSelection();
    void refreshBatchDefault();
    void updateFilter();
    void refreshShown();
    void updateColumns();
    void updateButtons();

    ScenarioDocument* m_doc;
    SearchResultModel* m_model;
    SearchFilterProxy* m_proxy;
    MemoryUnit m_unit = MemoryUnit::GiB;

    // The search in flight.
    QThread* m_thread = nullptr;
    std::shared_ptr<std::atomic_bool> m_cancelFlag;
    int m_generation = 0;
    bool m_restartPending = false;
    double m_fraction = 0;

    // The latest result and the scenario it searched.
    core::SearchResult m_result;
    core::Scenario m_base;
    core::HardwareProfile m_baseProfile;
    bool m_hasResult = false;
    bool m_stale = false;

    // The row at the top (buildSettings): what to search, then the progress, Cancel and Search.
    struct {
        QComboBox* rank = nullptr;
        // One global batch, or with "to" checked a range of them; the planner's batch until set by hand.
        struct {
            QSpinBox* size = nullptr;
            QCheckBox* range = nullptr;
            QSpinBox* max = nullptr;
            bool touched = false;
            bool settingDefault = false; // the planner's batch is being set, not a person's
        } batch;
        QSpinBox* top = nullptr;
        QProgressBar* progress = nullptr;
        QPushButton* cancel = nullptr;
        QPushButton* run = nullptr;
    } m_settings;
    // Below the settings: what the search found (redone when shown after a change), or that the scenario has
    // changed since.
    QLabel* m_status = nullptr;
    bool m_statusDirty = false;
    QLabel* m_staleNote = nullptr;
    // Above the table (buildFilters): which layouts it lists, and how many that leaves.
    struct {
        QLineEdit* text = nullptr;
        // "Free ≥ N GiB" on the worst stage.
        struct {
            QCheckBox* check = nullptr;
            QDoubleSpinBox* amount = nullptr;
        } headroom;
        QCheckBox* tpNode = nullptr;
        QCheckBox* paretoOnly = nullptr;
        QLabel* shown = nullptr;
    } m_filterRow;
    // The selected row (the model's), what Apply and Pin act on.
    int m_selected = -1;
    QPushButton* m_apply = nullptr; // to the planner
    QPushButton* m_pin = nullptr;   // to Compare
    QTableView* m_table = nullptr;
    ResultTableColumns* m_columns = nullptr; // which columns show, and their widths
    QToolButton* m_columnsButton = nullptr;  // the columns' menu (also a right-click on the headings)

    ParetoChart* m_chart = nullptr;
};

} // namespace lp::ui
