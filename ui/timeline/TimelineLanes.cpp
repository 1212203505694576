#include "ui/timeline/TimelineLanes.h"

#include "ui/charts/ChartStyle.h"
#include "ui/timeline/TimelineScale.h"
#include "ui/timeline/TimelineStyle.h"
#include "ui/widgets/Format.h"
#include "ui/widgets/PresentationStyle.h"

#include <QEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace lp::ui {
namespace {

struct TimeUnit {
    double seconds;
    const char* name;
};
// The axis' unit: the largest in which the visible span is at least 2.
TimeUnit unitFor(double span) {
    if (span >= 2)
        return {1, "s"};
    if (span >= 2e-3)
        return {1e-3, "ms"};
    return {1e-6, "µs"};
}

constexpr double kWheelStepZoom = 1.25; // one wheel notch
constexpr int kDragThreshold = 4;       // pixels before a press becomes a pan rather than a click

} // namespace

TimelineLanes::TimelineLanes(TimelineScale* scale, QWidget* parent) : QWidget(parent), m_scale(scale) {
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    setFocusPolicy(Qt::ClickFocus);
    connect(m_scale, &TimelineScale::changed, this, qOverload<>(&QWidget::update));
}

void TimelineLanes::setTimeline(core::Timeline timeline, const QString& heading) {
    m_timeline = std::move(timeline);
    m_heading = heading;
    indexEvents();
    updateGeometry();
    update();
}

void TimelineLanes::indexEvents() {
    m_rankEvents.assign(m_timeline.ranks.size(), {});
    m_peakInFlight = 1;
    for (const core::TimelineRank& r : m_timeline.ranks)
        m_peakInFlight = std::max(m_peakInFlight, r.peakInFlight);
    const auto& events = m_timeline.events;
    for (std::size_t i = 0; i < events.size();) {
        const int rank = events[i].rank;
        std::size_t j = i;
        double longest = 0;
        for (; j < events.size() && events[j].rank == rank; ++j)
            longest = std::max(longest, events[j].seconds);
        if (rank >= 0 && rank < static_cast<int>(m_rankEvents.size()))
            m_rankEvents[static_cast<std::size_t>(rank)] = {i, j, longest};
        i = j;
    }
}

TimelineLanes::Metrics TimelineLanes::metrics() const {
    MetricsKey key{width(), font(), m_heading, laneCount()};
    if (m_metrics && key == m_metricsKey)
        return *m_metrics;
    const int line = fontMetrics().height();
    Metrics m;
    m.heading = headingHeight() + line / 3;
    m.labels = fontMetrics().horizontalAdvance(tr("rank %1").arg(std::max(0, laneCount() - 1))) + line;
    m.compute = std::max(18, line + line / 3);
    m.communication = std::max(6, m.compute / 3);
    m.inFlight = std::max(14, line);
    m.gap = line / 2;
    m.axis = line * 2 + 8;
    m.right = fontMetrics().horizontalAdvance(QStringLiteral("000 ms"));
    m.digits = fontMetrics().horizontalAdvance(QStringLiteral("000"));
    m_metrics = m;
    m_metricsKey = std::move(key);
    ++m_metricsMeasured;
    return m;
}

QRect TimelineLanes::plotRect() const {
    const Metrics m = metrics();
    return QRect(m.labels, m.heading, std::max(10, width() - m.labels - m.right),
                 m.rankHeight() * std::max(1, laneCount()));
}

int TimelineLanes::rankTop(int rank) const {
    return plotRect().top() + rank * metrics().rankHeight();
}

QRect TimelineLanes::computeLaneRect(int rank) const {
    const QRect plot = plotRect();
    return QRect(plot.left(), rankTop(rank), plot.width(), metrics().compute);
}

QRect TimelineLanes::communicationLaneRect(int rank) const {
    const QRect compute = computeLaneRect(rank);
    return QRect(compute.left(), compute.bottom() + 1, compute.width(), metrics().communication);
}

double TimelineLanes::secondsAt(int x) const {
    const QRect plot = plotRect();
    return m_scale->start() + (x - plot.left()) * m_scale->span() / std::max(1, plot.width());
}

int TimelineLanes::xAt(double seconds) const {
    const QRect plot = plotRect();
    return plot.left() +
           static_cast<int>(std::lround((seconds - m_scale->start()) / m_scale->span() * plot.width()));
}

QSize TimelineLanes::sizeHint() const {
    const Metrics m = metrics();
    return {600, m.heading + m.rankHeight() * std::max(1, laneCount()) + m.axis};
}

QSize TimelineLanes::minimumSizeHint() const {
    return {200, sizeHint().height()};
}

void TimelineLanes::paintEvent(QPaintEvent* /*event*/) {
    QPainter p(this);
    p.fillRect(rect(), palette().color(QPalette::Base));
    paintHeading(p);
    m_painted = 0;
    const QRect plot = plotRect();
    p.setClipRect(QRect(0, plot.top(), width(), plot.height()));
    for (int rank = 0; rank < laneCount(); ++rank)
        paintRank(p, rank);
    p.setClipping(false);
    paintAxis(p);
}

QFont TimelineLanes::headingFont() const {
    QFont bold = font();
    bold.setBold(true);
    return bold;
}

// The heading wraps in a narrow window or presentation mode's large fonts rather than being cut: first
// between its sentences (the layout, then the step's figures), then between words.
QString TimelineLanes::shownHeading() const {
    const QFontMetrics fm(headingFont());
    const qsizetype sentenceEnd = m_heading.indexOf(QStringLiteral(". "));
    if (sentenceEnd < 0 || fm.horizontalAdvance(m_heading) <= std::max(50, width() - 8))
        return m_heading;
    return m_heading.left(sentenceEnd + 1) + QLatin1Char('\n') + m_heading.mid(sentenceEnd + 2);
}

int TimelineLanes::headingHeight() const {
    const QFontMetrics fm(headingFont());
    return fm.boundingRect(QRect(0, 0, std::max(50, width() - 8), 10'000), Qt::TextWordWrap, shownHeading())
        .height();
}

void TimelineLanes::paintHeading(QPainter& p) const {
    p.setFont(headingFont());
    p.setPen(palette().color(QPalette::Text));
    p.drawText(QRect(4, 0, width() - 8, metrics().heading),
               Qt::AlignLeft | Qt::AlignVCenter | Qt::TextWordWrap, shownHeading());
    p.setFont(font());
}

void TimelineLanes::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    if (height() != sizeHint().height())
        updateGeometry();
}

void TimelineLanes::paintRank(QPainter& p, int rank) {
    const QRect computeLane = computeLaneRect(rank);
    const QRect commLane = communicationLaneRect(rank);
    p.setPen(palette().color(QPalette::Text));
    p.drawText(QRect(0, computeLane.top(), metrics().labels - 6, computeLane.height()),
               Qt::AlignRight | Qt::AlignVCenter, tr("rank %1").arg(rank));
    const QColor laneBack = palette().color(QPalette::AlternateBase);
    p.fillRect(computeLane, laneBack);
    p.fillRect(commLane, laneBack.darker(104));
    const RankEvents& range = m_rankEvents[static_cast<std::size_t>(rank)];
    const auto& events = m_timeline.events;
    const double from = m_scale->start() - range.longest;
    // Events are by start within a rank: the first that may reach the visible span, then on until past it.
    auto first = std::lower_bound(events.begin() + static_cast<std::ptrdiff_t>(range.begin),
                                  events.begin() + static_cast<std::ptrdiff_t>(range.end), from,
                                  [](const core::TimelineEvent& e, double t) { return e.startSeconds < t; });
    int lastX[2] = {-1,
                    -1}; // per lane: the last pixel column painted, so sub-pixel events paint once per pixel
    const QColor bubble = timelineColor(core::TimelineKind::Idle);
    const int digits = metrics().digits;
    for (auto it = first; it != events.begin() + static_cast<std::ptrdiff_t>(range.end); ++it) {
        const core::TimelineEvent& e = *it;
        if (e.startSeconds > m_scale->end())
            break;
        if (e.endSeconds() < m_scale->start() || e.seconds <= 0)
            continue;
        const bool compute = e.lane == core::TimelineLane::Compute;
        const QRect& lane = compute ? computeLane : commLane;
        const int left = std::max(xAt(e.startSeconds), lane.left() - 1);
        const int right = std::min(xAt(e.endSeconds()), lane.right() + 1);
        int& last = lastX[compute ? 0 : 1];
        if (right <= last)
            continue;
        const QRect box(std::max(left, last + 1), lane.top(), std::max(1, right - std::max(left, last + 1)),
                        lane.height());
        last = box.right();
        ++m_painted;
        if (e.kind == core::TimelineKind::Idle) {
            QColor shade = bubble;
            shade.setAlpha(70);
            p.fillRect(box, shade);
            p.fillRect(box, QBrush(bubble, Qt::BDiagPattern));
            continue;
        }
        p.fillRect(box, timelineColor(e.kind));
        if (box.width() > 3 && compute)
            p.fillRect(QRect(box.right(), box.top(), 1, box.height()), palette().color(QPalette::Base));
        if (box.width() > digits && e.microBatch >= 0 && compute) {
            p.setPen(e.kind == core::TimelineKind::Forward ? Qt::black : Qt::white);
            p.drawText(box, Qt::AlignCenter, QString::number(e.microBatch + 1));
        }
    }
    paintInFlight(p, rank);
}

void TimelineLanes::paintInFlight(QPainter& p, int rank) const {
    const core::TimelineRank& r = m_timeline.ranks[static_cast<std::size_t>(rank)];
    const Metrics m = metrics();
    const int bottom = communicationLaneRect(rank).bottom() + m.inFlight;
    const double perMicroBatch = (m.inFlight - 2) / m_peakInFlight;
    const auto yOf = [&](double held) {
        return bottom - static_cast<int>(std::lround(held * perMicroBatch));
    };
    const QColor colour = palette::memory(core::MemoryComponent::Activations);
    auto it = std::upper_bound(r.inFlight.begin(), r.inFlight.end(), m_scale->start(),
                               [](double t, const core::InFlightStep& s) { return t < s.startSeconds; });
    if (it != r.inFlight.begin())
        --it;
    QPolygon line;
    std::optional<QPoint> peak;
    for (; it != r.inFlight.end() && it->startSeconds <= m_scale->end(); ++it) {
        const int x = std::max(xAt(it->startSeconds), plotRect().left());
        if (!line.isEmpty())
            line << QPoint(x, line.last().y());
        line << QPoint(x, yOf(it->microBatches));
        if (!peak && it->microBatches >= r.peakInFlight && r.peakInFlight > 0)
            peak = line.last();
    }
    if (line.isEmpty())
        return;
    // The count holds until the step ends (the optimizer's end), not past it.
    const int stepEnd = std::min(plotRect().right(), xAt(m_timeline.makespanSeconds));
    if (stepEnd > line.last().x())
        line << QPoint(stepEnd, line.last().y());
    p.setPen(QPen(colour, presentation::penWidth(1.5)));
    p.drawPolyline(line);
    if (peak) {
        p.setPen(palette().color(QPalette::Text));
        QFont small = smallChartFont(font());
        p.setFont(small);
        p.drawText(
            QRect(peak->x() + 3, bottom - m.inFlight, width(), m.inFlight), Qt::AlignLeft | Qt::AlignTop,
            tr("peak %1 in flight")
                .arg(formatNumber(r.peakInFlight, r.peakInFlight == std::floor(r.peakInFlight) ? 0 : 2)));
        p.setFont(font());
    }
}

void TimelineLanes::paintAxis(QPainter& p) const {
    const QRect plot = plotRect();
    const TimeUnit unit = unitFor(m_scale->span());
    const int maxTicks =
        std::max(2, plot.width() / (fontMetrics().horizontalAdvance(QStringLiteral("0000.0")) * 2));
    const double step = roundTickStep(m_scale->span() / unit.seconds / maxTicks);
    const int decimals = stepDecimals(step);
    const QColor grid = palette().color(QPalette::Mid);
    const int y = plot.bottom() + 1;
    p.setPen(palette().color(QPalette::Text));
    p.drawLine(plot.left(), y, plot.right(), y);
    for (double v = std::ceil(m_scale->start() / unit.seconds / step) * step;
         v * unit.seconds <= m_scale->end(); v += step) {
        const int x = xAt(v * unit.seconds);
        p.setPen(QPen(grid, 1, Qt::DotLine));
        p.drawLine(x, plot.top(), x, y);
        p.setPen(palette().color(QPalette::Text));
        p.drawLine(x, y, x, y + 4);
        const QString label = QString::number(v, 'f', decimals);
        p.drawText(QRect(x - 50, y + 4, 100, fontMetrics().height()), Qt::AlignHCenter | Qt::AlignTop, label);
    }
    p.drawText(QRect(plot.right() - 200, y + 4 + fontMetrics().height(), 200 + 40, fontMetrics().height()),
               Qt::AlignRight | Qt::AlignTop, tr("time (%1)").arg(QString::fromUtf8(unit.name)));
    // The step's end, where the optimizer finishes: the plan's step time.
    if (m_timeline.makespanSeconds > m_scale->start() && m_timeline.makespanSeconds <= m_scale->end()) {
        const int x = xAt(m_timeline.makespanSeconds);
        p.setPen(QPen(palette().color(QPalette::Text), presentation::penWidth(1.0), Qt::DashLine));
        p.drawLine(x, plot.top(), x, y);
    }
}

std::optional<core::TimelineEvent> TimelineLanes::eventAt(QPoint pos) const {
    const Metrics m = metrics();
    const QRect plot = plotRect();
    if (!plot.contains(pos) || laneCount() == 0)
        return std::nullopt;
    const int rank = (pos.y() - plot.top()) / m.rankHeight();
    if (rank < 0 || rank >= laneCount())
        return std::nullopt;
    core::TimelineLane lane = core::TimelineLane::Compute;
    if (communicationLaneRect(rank).contains(pos))
        lane = core::TimelineLane::Communication;
    else if (!computeLaneRect(rank).contains(pos))
        return std::nullopt;
    const double t = secondsAt(pos.x());
    const double slack = 2 * m_scale->span() / std::max(1, plot.width()); // events thinner than a pixel
    const RankEvents& range = m_rankEvents[static_cast<std::size_t>(rank)];
    const auto& events = m_timeline.events;
    std::optional<core::TimelineEvent> nearest;
    for (std::size_t i = range.begin; i < range.end; ++i) {
        const core::TimelineEvent& e = events[i];
        if (e.startSeconds > t + slack)
            break;
        if (e.lane != lane || e.endSeconds() + slack < t)
            continue;
        if (e.startSeconds <= t && t <= e.endSeconds())
            return e;
        if (!nearest)
            nearest = e;
    }
    return nearest;
}

QString TimelineLanes::textAt(QPoint pos) const {
    const auto event = eventAt(pos);
    return event ? timelineEventText(*event, m_timeline) : QString();
}

void TimelineLanes::updateHover(QPoint pos) {
    const auto event = eventAt(pos);
    const QString key = event ? timelineExplainKey(event->kind) : QString();
    if (event)
        QToolTip::showText(mapToGlobal(pos), timelineEventText(*event, m_timeline), this);
    else
        QToolTip::hideText();
    if (key != m_previewKey) {
        m_previewKey = key;
        emit previewRequested(key);
    }
}

void TimelineLanes::mousePressEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton)
        return QWidget::mousePressEvent(event);
    m_dragFrom = event->position().toPoint();
    m_dragStart = m_scale->start();
    m_dragged = false;
}

void TimelineLanes::mouseMoveEvent(QMouseEvent* event) {
    const QPoint pos = event->position().toPoint();
    if (m_dragFrom && (event->buttons() & Qt::LeftButton)) {
        const int dx = pos.x() - m_dragFrom->x();
        if (std::abs(dx) >= kDragThreshold)
            m_dragged = true;
        if (m_dragged) {
            setCursor(Qt::ClosedHandCursor);
            m_scale->setVisible(m_dragStart - dx * m_scale->span() / std::max(1, plotRect().width()),
                                m_scale->span());
            return;
        }
    }
    updateHover(pos);
}

void TimelineLanes::mouseReleaseEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton && m_dragFrom && !m_dragged) {
        if (const auto e = eventAt(event->position().toPoint()))
            emit explainRequested(timelineExplainKey(e->kind));
    }
    m_dragFrom.reset();
    m_dragged = false;
    unsetCursor();
}

void TimelineLanes::wheelEvent(QWheelEvent* event) {
    const QPoint delta = event->angleDelta();
    if (delta.y() == 0 || (event->modifiers() & Qt::ShiftModifier)) {
        // Sideways (a touchpad, or Shift with the wheel): pan by a tenth of the span per notch.
        const int d = delta.x() != 0 ? delta.x() : delta.y();
        m_scale->setVisible(m_scale->start() - d / 120.0 * m_scale->span() / 10, m_scale->span());
        event->accept();
        return;
    }
    const double factor = std::pow(kWheelStepZoom, delta.y() / 120.0);
    m_scale->zoom(factor, secondsAt(static_cast<int>(event->position().x())));
    event->accept();
}

void TimelineLanes::leaveEvent(QEvent* event) {
    QWidget::leaveEvent(event);
    if (!m_previewKey.isEmpty()) {
        m_previewKey.clear();
        emit previewRequested(QString());
    }
}

void TimelineLanes::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange || event->type() == QEvent::ApplicationFontChange)
        updateGeometry();
}

} // namespace lp::ui
