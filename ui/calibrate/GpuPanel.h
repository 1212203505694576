#pragma once
// The Calibrate tab's "GPUs on this machine": the GPUs the CUDA driver reports, or, when no calibration can
// run here, what is missing (no CUDA in the build, no driver, no GPU), how to get it, and the way to import a
// profile measured elsewhere.
#include "cuda/DeviceInfo.h"

#include <QGroupBox>
#include <QString>

#include <vector>

class QFrame;
class QLabel;
class QPushButton;
class QTreeWidget;

namespace lp::ui {

// Where the search for GPUs stands.
struct GpuSearch {
    bool buildHasCuda = false;
    bool detecting = false;
    bool detected = false;
    QString whyNone; // the driver's reason when it found no GPU
    bool running = false;
    QString build; // what the build links against
};

class GpuPanel : public QGroupBox {
    Q_OBJECT
public:
    explicit GpuPanel(QWidget* parent = nullptr);

    void showGpus(const std::vector<calib::DeviceInfo>& gpus);
    // The explanation when no calibration can run, else the list; `usable`: one can run.
    void showSearch(const GpuSearch& search, bool usable);

    QFrame* explanationPanel() const { return m_explanation.frame; }
    QLabel* explanationLabel() const { return m_explanation.text; }
    QPushButton* importButton() const { return m_import; }
    QPushButton* redetectButton() const { return m_redetect; }
    QTreeWidget* gpuList() const { return m_list; }

private:
    void buildExplanation();
    void buildList();
    void explain(const GpuSearch& search);

    // Shown when no calibration can run here: what is missing and how to get it.
    struct {
        QFrame* frame = nullptr;
        QLabel* title = nullptr;
        QLabel* text = nullptr;
    } m_explanation;
    QPushButton* m_import = nullptr; // in the explanation: a profile measured elsewhere instead
    QTreeWidget* m_list = nullptr;   // the GPUs, shown when one can run
    QLabel* m_build = nullptr;       // what the build links against
    QPushButton* m_redetect = nullptr;
};

} // namespace lp::ui
