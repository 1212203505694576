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

namespace lp::ui {

class ParetoChart;
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
    QProgressBar* progressBar() const { return m_progress; }
    QPushButton* searchButton() const { return m_run; }
    QPushButton* cancelButton() const { return m_cancel; }
    QPushButton* pinButton() const { return m_pin; }
    QComboBox* rankCombo() const { return m_rank; }
    QSpinBox* batchSpin() const { return m_batch; }
    QCheckBox* rangeCheck() const { return m_range; }
    QSpinBox* batchMaxSpin() const { return m_batchMax; }
    QSpinBox* topSpin() const { return m_top; }
    QLineEdit* filterEdit() const { return m_filter; }
    QCheckBox* headroomCheck() const { return m_headroomCheck; }
    QDoubleSpinBox* headroomSpin() const { return m_headroomSpin; }
    QCheckBox* tpNodeCheck() const { return m_tpNode; }
    QCheckBox* paretoCheck() const { return m_paretoOnly; }
    QLabel* statusLabel() const { return m_status; }
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
    QWidget* buildTablePanel();
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
    int m_selected = -1;
    bool m_batchTouched = false;
    bool m_settingBatch = false;
    bool m_statusDirty = false;

    // Controls.
    QComboBox* m_rank = nullptr;
    QSpinBox* m_batch = nullptr;
    QCheckBox* m_range = nullptr;
    QSpinBox* m_batchMax = nullptr;
    QSpinBox* m_top = nullptr;
    QPushButton* m_run = nullptr;
    QPushButton* m_cancel = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_status = nullptr;
    QLabel* m_staleLabel = nullptr;
    QLineEdit* m_filter = nullptr;
    QCheckBox* m_headroomCheck = nullptr;
    QDoubleSpinBox* m_headroomSpin = nullptr;
    QCheckBox* m_tpNode = nullptr;
    QCheckBox* m_paretoOnly = nullptr;
    QLabel* m_shown = nullptr;
    QPushButton* m_apply = nullptr;
    QPushButton* m_pin = nullptr;
    QTableView* m_table = nullptr;

    ParetoChart* m_chart = nullptr;
};

} // namespace lp::ui
