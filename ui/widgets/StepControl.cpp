#include "ui/widgets/StepControl.h"

#include <QSignalBlocker>
#include <QSlider>

#include <algorithm>

namespace lp::ui {

StepSpinBox::StepSpinBox(QWidget* parent) : QSpinBox(parent) {
    setKeyboardTracking(false);
    setAccelerated(false);
}

void StepSpinBox::stepBy(int steps) {
    if (m_steps.empty()) {
        QSpinBox::stepBy(steps);
        return;
    }
    const int v = value();
    // Position of the current value among the steps (between two steps when it is not one).
    auto it = std::lower_bound(m_steps.begin(), m_steps.end(), v);
    long index = it - m_steps.begin();
    if (steps > 0 && it != m_steps.end() && *it == v)
        index += steps;
    else if (steps > 0)
        index += steps - 1;
    else
        index += steps;
    index = std::clamp<long>(index, 0, static_cast<long>(m_steps.size()) - 1);
    setValue(m_steps[static_cast<std::size_t>(index)]);
    selectAll();
}

QAbstractSpinBox::StepEnabled StepSpinBox::stepEnabled() const {
    if (m_steps.empty())
        return QSpinBox::stepEnabled();
    StepEnabled flags = StepNone;
    if (isReadOnly())
        return flags;
    if (value() > m_steps.front())
        flags |= StepDownEnabled;
    if (value() < m_steps.back())
        flags |= StepUpEnabled;
    return flags;
}

StepControl::StepControl(QWidget* parentWidget, int maximum)
    : QObject(parentWidget), m_slider(new QSlider(Qt::Horizontal, parentWidget)),
      m_spin(new StepSpinBox(parentWidget)) {
    m_spin->setRange(1, maximum);
    m_spin->setMinimumWidth(m_spin->fontMetrics().horizontalAdvance(QStringLiteral("000000")) + 28);
    m_slider->setTracking(true);
    connect(m_slider, &QSlider::valueChanged, this, [this](int index) {
        if (m_updating || index < 0 || index >= static_cast<int>(m_steps.size()))
            return;
        const int v = m_steps[static_cast<std::size_t>(index)];
        if (v == m_value)
            return;
        m_value = v;
        {
            const QSignalBlocker block(m_spin);
            m_spin->setValue(v);
        }
        emit valueEdited(v, m_slider->isSliderDown());
    });
    connect(m_slider, &QSlider::sliderReleased, this, &StepControl::interactionFinished);
    connect(m_spin, &QSpinBox::valueChanged, this, [this](int v) {
        if (m_updating || v == m_value)
            return;
        m_value = v;
        emit valueEdited(v, false);
    });
}

int StepControl::indexOf(int value) const {
    auto it = std::lower_bound(m_steps.begin(), m_steps.end(), value);
    if (it == m_steps.end())
        return static_cast<int>(m_steps.size()) - 1;
    return static_cast<int>(it - m_steps.begin());
}

void StepControl::setSteps(const std::vector<int>& steps, int current) {
    m_updating = true;
    m_value = current;
    if (steps != m_steps) {
        m_steps = steps;
        m_spin->setSteps(steps);
        const int n = static_cast<int>(steps.size());
        m_slider->setRange(0, std::max(0, n - 1));
        m_slider->setPageStep(1); // a click on the track moves one notch, as the arrow keys do
        m_slider->setTickPosition(n > 1 && n <= 24 ? QSlider::TicksBelow : QSlider::NoTicks);
        m_slider->setTickInterval(1);
    }
    if (m_slider->value() != indexOf(current))
        m_slider->setValue(indexOf(current));
    if (current > m_spin->maximum()) // a file's value beyond what typing offers: shown, not clamped
        m_spin->setMaximum(current);
    if (m_spin->value() != current)
        m_spin->setValue(current);
    m_updating = false;
}

void StepControl::setReadOnly(bool readOnly) {
    if (m_spin->isReadOnly() == readOnly && m_slider->isEnabled() == !readOnly)
        return;
    m_spin->setReadOnly(readOnly);
    m_spin->setButtonSymbols(readOnly ? QAbstractSpinBox::NoButtons : QAbstractSpinBox::UpDownArrows);
    m_slider->setEnabled(!readOnly);
}

void StepControl::setToolTip(const QString& tip) {
    m_slider->setToolTip(tip);
    m_spin->setToolTip(tip);
}

void StepControl::setEnabled(bool enabled) {
    m_slider->setEnabled(enabled);
    m_spin->setEnabled(enabled);
}

} // namespace lp::ui
