#pragma once
// The Calibrate tab's "Measured profile": the profile measured here or loaded (its name, where it came from,
// what the measurements reached against the data sheet, the notes), the button that applies it, and what
// applying it changes on the scenario (MFU, step time, tokens/s before and after).
#include "core/estimate/Plan.h"
#include "core/model/Hardware.h"

#include <QGroupBox>
#include <QStringList>

#include <optional>

class QLabel;
class QPushButton;

namespace lp::ui {

class MeasuredProfileBox : public QGroupBox {
    Q_OBJECT
public:
    explicit MeasuredProfileBox(QWidget* parent = nullptr);

    // `findings`: what the measurements reached (calib::measurementSummary); `notes`: the run's and the
    // profile's remarks.
    void showProfile(const std::optional<core::HardwareProfile>& profile, const QString& source,
                     const QStringList& findings, const QStringList& notes);
    QString summaryText() const; // as plain text
    // "Applied to the scenario" once it is the active profile.
    void showApplyState(bool available, bool applied);
    // Nothing to compare (no plans), or the plans before and after under `heading`.
    void showComparison(const QString& heading, const core::Plan* before, const core::Plan* after);

    QPushButton* applyButton() const { return m_apply; }
    QLabel* comparisonLabel() const { return m_compare; }

private:
    QLabel* m_summary;
    QPushButton* m_apply;
    QLabel* m_compare;
};

} // namespace lp::ui
