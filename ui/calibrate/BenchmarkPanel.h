#pragma once
// The Calibrate tab's "Benchmarks": the GPU to measure, which benchmarks to run (the scenario's GEMM shapes,
// the GEMM sweep, fp8, HBM, NCCL, quick mode), run and cancel, and the progress of a run.
#include "core/model/Scenario.h"
#include "cuda/Calibrate.h"

#include <QGroupBox>
#include <QString>

#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;

namespace lp::ui {

// What the panel offers depends on.
struct BenchmarkContext {
    bool usable = false;         // a calibration can run here
    bool running = false;        // one is running
    bool lookingForGpus = false; // the GPUs are not known yet
    QString unavailableReason;   // why none can run
    bool hasResult = false;      // a run has measured something
    const core::Scenario* scenario = nullptr;
    const std::vector<calib::DeviceInfo>* gpus = nullptr;
};

class BenchmarkPanel : public QGroupBox {
    Q_OBJECT
public:
    explicit BenchmarkPanel(QWidget* parent = nullptr);

    void setDevices(const std::vector<calib::DeviceInfo>& gpus);
    void showContext(const BenchmarkContext& context);
    // What the checkboxes ask for, on the chosen GPU.
    calib::CalibrationRequest request(const core::Scenario& scenario) const;

    void startProgress(const QString& text);
    void showProgress(int done, int total);
    void showFinished(const QString& text, bool complete);
    void setProgressText(const QString& text);

    QComboBox* deviceCombo() const { return m_device; }
    QCheckBox* scenarioGemmsBox() const { return m_gemms.scenarioShapes; }
    QCheckBox* sweepBox() const { return m_gemms.sweep; }
    QCheckBox* hbmBox() const { return m_hbm; }
    QCheckBox* ncclBox() const { return m_nccl; }
    QCheckBox* fp8Box() const { return m_gemms.fp8; }
    QCheckBox* quickBox() const { return m_quick; }
    QPushButton* runButton() const { return m_run; }
    QPushButton* cancelButton() const { return m_cancel; }
    QProgressBar* progressBar() const { return m_progress.bar; }
    QLabel* progressLabel() const { return m_progress.text; }

signals:
    void choicesChanged(); // a benchmark or the GPU chosen

private:
    void buildChoices();
    void layOut();
    void showAvailability(const BenchmarkContext& context);
    void showChoices(const BenchmarkContext& context);

    QComboBox* m_device = nullptr; // the GPU to measure
    // The GEMMs: the scenario's shapes and the sweep, each in fp8 too where the GPU has fp8 tensor cores.
    struct {
        QCheckBox* scenarioShapes = nullptr;
        QCheckBox* sweep = nullptr;
        QCheckBox* fp8 = nullptr;
    } m_gemms;
    QCheckBox* m_hbm = nullptr;
    QCheckBox* m_nccl = nullptr;
    QCheckBox* m_quick = nullptr; // fewer sizes and repetitions for every benchmark
    QPushButton* m_run = nullptr;
    QPushButton* m_cancel = nullptr;
    // Below Run and Cancel: how far a run has come.
    struct {
        QProgressBar* bar = nullptr;
        QLabel* text = nullptr;
    } m_progress;
};

} // namespace lp::ui
