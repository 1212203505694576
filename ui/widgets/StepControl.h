#pragma once
// A slider and a spin box that step through a list of valid values only (e.g. the divisors of the
// head count for TP). The spin box also accepts any typed value, so an invalid layout can be entered
// on purpose and explained by the diagnostics.
#include <QObject>
#include <QSpinBox>

#include <vector>

class QSlider;

namespace lp::ui {

class StepSpinBox : public QSpinBox {
    Q_OBJECT
public:
    explicit StepSpinBox(QWidget* parent = nullptr);
    void setSteps(std::vector<int> steps) { m_steps = std::move(steps); }
    void stepBy(int steps) override;

protected:
    StepEnabled stepEnabled() const override;

private:
    std::vector<int> m_steps;
};

class StepControl : public QObject {
    Q_OBJECT
public:
    StepControl(QWidget* parentWidget, int maximum);

    QSlider* slider() const { return m_slider; }
    StepSpinBox* spinBox() const { return m_spin; }

    // Updates the offered values and the shown value without emitting valueEdited.
    void setSteps(const std::vector<int>& steps, int current);
    const std::vector<int>& steps() const { return m_steps; }
    int value() const { return m_value; }
    void setReadOnly(bool readOnly);
    void setToolTip(const QString& tip);
    void setEnabled(bool enabled);

signals:
    void valueEdited(int value, bool interactive); // interactive: during a slider drag
    void interactionFinished();

private:
    int indexOf(int value) const;
    QSlider* m_slider;
    StepSpinBox* m_spin;
    std::vector<int> m_steps;
    int m_value = 0;
    bool m_updating = false;
};

} // namespace lp::ui
