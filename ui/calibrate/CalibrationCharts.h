#pragma once
// The Calibrate tab's charts: achieved GEMM TFLOP/s against GEMM size with the data-sheet peaks, HBM
// bandwidth against buffer size, and NCCL bus bandwidth against message size; each with the efficiency of
// the active profile, the built-in one while another is applied, and the measured one before it is applied.
// Each chart has its legend under it, wrapping when narrow.
#include "core/model/Hardware.h"
#include "cuda/Calibrate.h"

#include <QWidget>

class QChart;
class QChartView;
class QLabel;
class QLineSeries;
class QLogValueAxis;
class QValueAxis;

namespace lp::ui {

// The profiles a chart draws the efficiency of; nullptr for one not drawn.
struct ProfilesShown {
    const core::HardwareProfile* active = nullptr;
    const core::HardwareProfile* builtin = nullptr;  // while another profile is applied
    const core::HardwareProfile* measured = nullptr; // measured or loaded, not applied
};

class CalibrationCharts : public QWidget {
    Q_OBJECT
public:
    explicit CalibrationCharts(QWidget* parent = nullptr);

    // `result`: what a run measured, nullptr before one; `gpu`: the data-sheet figures to draw against.
    void showMeasurements(const calib::CalibrationResult* result, const core::GpuSpec& gpu,
                          const ProfilesShown& profiles);

    QChartView* gemmView() const { return m_gemm.view; }
    QChartView* hbmView() const { return m_hbm.view; }
    QChartView* busView() const { return m_bus.view; }

private:
    struct Panel {
        QChart* chart = nullptr;
        QChartView* view = nullptr;
        QLabel* legend = nullptr;
    };
    QWidget* makePanel(Panel& panel, const QString& name);
    void startChart(const Panel& panel, const QString& title);
    void addAxes(QChart* chart, QLogValueAxis* x, QValueAxis* y);
    void showGemms(const calib::CalibrationResult* result, const core::GpuSpec& gpu,
                   const ProfilesShown& profiles);
    void showHbm(const calib::CalibrationResult* result, const core::GpuSpec& gpu,
                 const ProfilesShown& profiles);
    void showBus(const calib::CalibrationResult* result, const core::GpuSpec& gpu,
                 const ProfilesShown& profiles);

    Panel m_gemm;
    Panel m_hbm;
    Panel m_bus;
};

} // namespace lp::ui
