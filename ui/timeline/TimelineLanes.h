#pragma once
// One layout's step drawn in time: per pipeline rank a compute lane, a thin communication lane beneath it and
// the activations in flight (micro batches the rank holds) with their peak, over a time axis with units. The
// bubble is shaded. Only the events inside the visible span are painted, and those narrower than a pixel once
// per pixel, so pp 64 with hundreds of micro batches draws as fast as pp 4. Pointing at an event says what it
// is and previews its explanation; a click explains it; a drag pans, the wheel zooms about the pointer.
#include "core/estimate/Timeline.h"

#include <QFont>
#include <QString>
#include <QWidget>

#include <optional>
#include <vector>

namespace lp::ui {

class TimelineScale;

class TimelineLanes : public QWidget {
    Q_OBJECT
public:
    explicit TimelineLanes(TimelineScale* scale, QWidget* parent = nullptr);

    // The step to draw and its heading ("Current layout: PP 4, 16 micro batches, 1F1B").
    void setTimeline(core::Timeline timeline, const QString& heading);
    const core::Timeline& timeline() const { return m_timeline; }
    QString heading() const { return m_heading; }
    // The heading as drawn: broken between its sentences when it is wider than the widget.
    QString shownHeading() const;
    int laneCount() const { return static_cast<int>(m_timeline.ranks.size()); }
    // Events painted by the last paint (for tests: zooming in paints fewer).
    int paintedEvents() const { return m_painted; }
    // Times the layout's text was measured (for tests: once per size, font and heading, not per event).
    int metricsMeasured() const { return m_metricsMeasured; }

    // Where things are, in this widget's coordinates (for tests and the tour).
    QRect computeLaneRect(int rank) const;
    QRect communicationLaneRect(int rank) const;
    double secondsAt(int x) const;
    int xAt(double seconds) const;
    // The event under `pos`, and the hover text there (empty: none).
    std::optional<core::TimelineEvent> eventAt(QPoint pos) const;
    QString textAt(QPoint pos) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void explainRequested(const QString& key);
    void previewRequested(const QString& key); // pointed at; empty: the pointer left

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    struct Metrics {
        int heading = 0;
        int labels = 0; // the rank labels' column
        int compute = 0;
        int communication = 0;
        int inFlight = 0;
        int gap = 0;
        int axis = 0;
        int right = 0;  // the column right of the plot ("000 ms")
        int digits = 0; // three digits: an event wider than this shows its micro batch
        int rankHeight() const { return compute + communication + inFlight + gap; }
    };
    // What the metrics were measured for: they lay out text (the wrapped heading), far too slow to repeat
    // for each of the thousands of events a paint places.
    struct MetricsKey {
        int width = -1;
        QFont font;
        QString heading;
        int lanes = -1;
        bool operator==(const MetricsKey&) const = default;
    };
    struct RankEvents {
        std::size_t begin = 0;
        std::size_t end = 0;
        double longest = 0; // the longest event: where a search for the visible ones starts
    };
    Metrics metrics() const;
    QFont headingFont() const;
    int headingHeight() const;
    QRect plotRect() const;
    int rankTop(int rank) const;
    void indexEvents();
    void paintHeading(QPainter& p) const;
    void paintRank(QPainter& p, int rank);
    void paintInFlight(QPainter& p, int rank) const;
    void paintAxis(QPainter& p) const;
    void updateHover(QPoint pos);

    TimelineScale* m_scale;
    core::Timeline m_timeline;
    QString m_heading;
    std::vector<RankEvents> m_rankEvents;
    double m_peakInFlight = 1; // the curves' common height
    int m_painted = 0;
    std::optional<QPoint> m_dragFrom;
    double m_dragStart = 0;
    bool m_dragged = false;
    QString m_previewKey;
    mutable std::optional<Metrics> m_metrics;
    mutable MetricsKey m_metricsKey;
    mutable int m_metricsMeasured = 0;
};

} // namespace lp::ui
