#pragma once
// The Calibrate tab's "Measurements": every item a run measured (GEMMs, GEMMs held at the power limit, HBM,
// NCCL) with its size, median time, achieved rate, share of the data-sheet peak and spread.
#include "core/model/Hardware.h"
#include "cuda/Calibrate.h"

#include <QTableWidget>

namespace lp::ui {

class MeasurementsTable : public QTableWidget {
    Q_OBJECT
public:
    explicit MeasurementsTable(QWidget* parent = nullptr);

    // Empty without a result; `gpu`: the figures the shares are of.
    void showResult(const calib::CalibrationResult* result, const core::GpuSpec& gpu);

private:
    void addRow(const QList<QTableWidgetItem*>& cells);
    void addGemms(const calib::CalibrationResult& r, const core::GpuSpec& gpu);
    void addHeldGemms(const calib::CalibrationResult& r, const core::GpuSpec& gpu);
    void addHbm(const calib::CalibrationResult& r, const core::GpuSpec& gpu);
    void addCollectives(const calib::CalibrationResult& r, const core::GpuSpec& gpu);
};

} // namespace lp::ui
