#pragma once
// The span of the step the timeline shows, shared by the lanes drawn one above the other (a comparison
// draws both in the same time scale) and the scroll bar under them.
#include <QObject>

namespace lp::ui {

class TimelineScale : public QObject {
    Q_OBJECT
public:
    explicit TimelineScale(QObject* parent = nullptr);

    double total() const { return m_total; } // the longest step shown, seconds
    double start() const { return m_start; }
    double span() const { return m_span; }
    double end() const { return m_start + m_span; }
    bool isFit() const { return m_start <= 0 && m_span >= m_total; }

    // A new longest step: the whole of it shows if the view was fit, else the span stays where it was.
    void setTotal(double seconds);
    // Clamped to the step: never before 0, never past the end, never narrower than a millionth of it.
    void setVisible(double start, double span);
    // Narrows (factor > 1) or widens the span about `anchorSeconds`, which stays where it is on screen.
    void zoom(double factor, double anchorSeconds);
    void zoomAboutCentre(double factor) { zoom(factor, m_start + m_span / 2); }
    void fit() { setVisible(0, m_total); }

signals:
    void changed();

private:
    double m_total = 1;
    double m_start = 0;
    double m_span = 1;
};

} // namespace lp::ui
