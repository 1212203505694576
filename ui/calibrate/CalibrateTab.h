#pragma once
// The "Calibrate" tab: the local GPUs, the CUDA micro-benchmarks (GEMM shapes of the scenario, a GEMM
// sweep, HBM bandwidth, NCCL collectives) run in a worker thread with progress, live results and
// cancel; charts of what they measured against the data sheet; the measured hardware profile, applied to
// the scenario with its before/after MFU; save, load and import of profiles. Without CUDA in the build, a
// driver or a GPU it explains what is missing and how to get it, and offers to import a profile measured
// elsewhere. Never a crash.
//
// Measuring is cuda/Calibrate.h (a stub without CUDA); turning results into a profile is
// cuda/ProfileBuilder.h and into words cuda/CalibrationSummary.h; the tab only runs and shows them.
#include "core/model/Hardware.h"
#include "cuda/Calibrate.h"
#include "cuda/ProfileBuilder.h"
#include "ui/document/FileChooser.h"

#include <QPointer>
#include <QString>
#include <QStringList>
#include <QThread>
#include <QWidget>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

class QChartView;
class QCheckBox;
class QFrame;
class QLabel;
class QProgressBar;
class QPushButton;
class QSplitter;
class QTabWidget;
class QTableWidget;
class QTreeWidget;

namespace lp::ui {

class BenchmarkPanel;
class CalibrationCharts;
class GpuPanel;
class InlineBanner;
class MeasuredProfileBox;
class MeasurementsTable;
class ProfileBar;
class ScenarioDocument;

// What the tab measures with: the local GPUs by default; tests put in a pretend machine.
struct CalibrationBackend {
    std::function<bool()> hasCudaSupport;
    std::function<std::string()> buildDescription;
    std::function<std::vector<calib::DeviceInfo>(std::string* whyNot)> detectGpus;
    // Runs on a worker thread; must honour the progress callback's false (cancel).
    std::function<calib::CalibrationResult(const calib::CalibrationRequest&, const calib::ProgressCallback&)>
        run;

    static CalibrationBackend local(); // cuda/Calibrate.h
};

class CalibrateTab : public QWidget {
    Q_OBJECT
public:
    explicit CalibrateTab(ScenarioDocument& doc, QWidget* parent = nullptr);
    CalibrateTab(ScenarioDocument& doc, CalibrationBackend backend, QWidget* parent = nullptr);
    ~CalibrateTab() override; // cancels a running calibration and waits for its current item

    // ---- GPUs
    // Looks for GPUs in a worker thread (first shown, or "Detect again"); gpusDetected() when done.
    void detectGpus();
    bool isDetecting() const { return m_detecting; }
    bool detectionDone() const { return m_detected; }
    const std::vector<calib::DeviceInfo>& gpus() const { return m_gpus; }
    bool buildHasCuda() const { return m_hasCuda; }
    // Why no calibration can run here (no CUDA in the build, no driver, no GPU); empty when one can.
    QString unavailableReason() const;
    bool canCalibrate() const;

    // ---- Benchmarks
    // What the checkboxes ask for, on the chosen GPU.
    calib::CalibrationRequest currentRequest() const;
    bool startCalibration(); // false when one cannot start (no GPU, nothing chosen, already running)
    void cancelCalibration();
    bool isRunning() const { return !m_thread.isNull(); }
    const std::optional<calib::CalibrationResult>& result() const { return m_result; }

    // ---- Profiles
    // The measured or loaded profile not applied yet (or the one applied last).
    const std::optional<core::HardwareProfile>& candidateProfile() const { return m_candidate; }
    bool loadProfile(const QString& path);   // becomes the candidate (shown, previewed, not applied)
    bool importProfile(const QString& path); // load and apply
    bool saveProfile(const QString& path);   // the candidate, else the active profile
    bool applyCandidate();                   // ScenarioDocument::setProfileOverride
    void useBuiltinProfile();                // back to the GPU's built-in profile
    bool isOverrideActive() const;           // the document's profile is not the GPU's built-in one
    QString activeProfileText() const;       // "Active profile: built-in NVIDIA H100 SXM 80 GB"
    QString comparisonText() const;          // "MFU 41.2% → 44.0% (+2.8 points) ..."
    QString errorText() const { return m_errorText; }
    QString summaryText() const; // the result summary as plain text

    void setOpenFileChooser(FileChooser chooser) { m_chooseOpen = std::move(chooser); }
    void setSaveFileChooser(FileChooser chooser) { m_chooseSave = std::move(chooser); }

    // Widgets, for tests and screenshots.
    QFrame* explanationPanel() const;
    QLabel* explanationLabel() const;
    QPushButton* importButton() const; // in the profile bar
    QPushButton* explanationImportButton() const;
    QPushButton* loadButton() const;
    QPushButton* saveButton() const;
    QPushButton* builtinButton() const;
    QPushButton* runButton() const;
    QPushButton* cancelButton() const;
    QPushButton* applyButton() const;
    QProgressBar* progressBar() const;
    QLabel* progressLabel() const;
    QLabel* profileLabel() const;
    QLabel* comparisonLabel() const;
    QTreeWidget* gpuList() const;
    QTableWidget* measurementsTable() const;
    QCheckBox* scenarioGemmsBox() const;
    QCheckBox* sweepBox() const;
    QCheckBox* hbmBox() const;
    QCheckBox* ncclBox() const;
    QCheckBox* fp8Box() const;
    QCheckBox* quickBox() const;
    QChartView* gemmChartView() const;
    QChartView* hbmChartView() const;
    QChartView* busChartView() const;
    QTabWidget* resultTabs() const { return m_resultTabs; }

signals:
    void gpusDetected();
    void calibrationProgress(int done, int total);
    void calibrationFinished(bool ok);
    void profileApplied();

protected:
    void showEvent(QShowEvent* event) override;
    // Side by side where both columns fit, the settings above the charts in a narrow window.
    void resizeEvent(QResizeEvent* event) override;
    // The settings column: as tall as its wrapped texts need at its width (the page scrolls for it).
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    struct RunState {
        std::atomic<bool> cancel{false};
    };
    QWidget* buildSettingsColumn();
    QWidget* buildResults();
    void connectWidgets();
    void onDetected(std::vector<calib::DeviceInfo> gpus, QString whyNot);
    void onProgress(int done, int total, QString phase, QString item,
                    std::optional<calib::CalibrationResult> partial);
    void onFinished(calib::CalibrationResult result);
    void runInWorker(const calib::CalibrationRequest& request);
    bool makeCandidate();
    void updateAvailability();
    void updateProfileStatus();
    void updateComparison();
    void updateResultSummary();
    void showResults();
    void showError(const QString& title, const QString& details);
    void chooseAndImport();
    void chooseAndLoad();
    void chooseAndSave();
    core::GpuSpec referenceGpu() const;

    ScenarioDocument& m_doc;
    CalibrationBackend m_backend;

    // state
    bool m_hasCuda = false;
    bool m_detecting = false;
    bool m_detected = false;
    bool m_shownOnce = false;
    std::vector<calib::DeviceInfo> m_gpus;
    QString m_whyNot;
    QPointer<QThread> m_detectThread;
    QPointer<QThread> m_thread;
    std::shared_ptr<RunState> m_runState;
    std::optional<calib::CalibrationResult> m_result; // the latest (partial while running)
    std::optional<calib::Reference> m_reference;      // the figures the latest run is divided by
    std::optional<core::HardwareProfile> m_candidate;
    QString m_candidateSource; // "measured on this machine", or the file
    QStringList m_profileNotes;
    QString m_activeSource;     // where the applied override came from
    qint64 m_lastRedrawMs = -1; // live redraws at most every 150 ms
    QString m_errorText;

    // widgets
    ProfileBar* m_profileBar = nullptr;
    InlineBanner* m_banner = nullptr;
    GpuPanel* m_gpuPanel = nullptr;
    BenchmarkPanel* m_benchmarks = nullptr;
    MeasuredProfileBox* m_profileBox = nullptr;
    QTabWidget* m_resultTabs = nullptr;
    CalibrationCharts* m_charts = nullptr;
    MeasurementsTable* m_table = nullptr;
    QSplitter* m_splitter = nullptr;
    QWidget* m_settingsColumn = nullptr;

    FileChooser m_chooseOpen = openFileDialogChooser();
    FileChooser m_chooseSave = saveFileDialogChooser();
};

} // namespace lp::ui
