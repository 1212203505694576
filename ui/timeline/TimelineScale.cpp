#include "ui/timeline/TimelineScale.h"

#include <algorithm>

namespace lp::ui {

TimelineScale::TimelineScale(QObject* parent) : QObject(parent) {}

void TimelineScale::setTotal(double seconds) {
    const bool wasFit = isFit();
    m_total = seconds > 0 ? seconds : 1;
    if (wasFit)
        fit();
    else
        setVisible(m_start, m_span);
}

void TimelineScale::setVisible(double start, double span) {
    span = std::clamp(span, m_total * 1e-6, m_total);
    start = std::clamp(start, 0.0, m_total - span);
    if (start == m_start && span == m_span)
        return;
    m_start = start;
    m_span = span;
    emit changed();
}

void TimelineScale::zoom(double factor, double anchorSeconds) {
    if (factor <= 0)
        return;
    const double span = m_span / factor;
    const double share = m_span > 0 ? (anchorSeconds - m_start) / m_span : 0.5;
    setVisible(anchorSeconds - share * span, span);
}

} // namespace lp::ui
