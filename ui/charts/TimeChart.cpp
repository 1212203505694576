#include "ui/charts/TimeChart.h"

#include "core/report/ChartHeadlines.h"
#include "ui/charts/ChartStyle.h"
#include "ui/widgets/Format.h"

#include <QFontMetricsF>
#include <QGraphicsSimpleTextItem>
#include <QToolTip>
#include <QtCharts/QBarCategoryAxis>
#include <QtCharts/QBarSet>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QHorizontalStackedBarSeries>
#include <QtCharts/QLegend>
#include <QtCharts/QValueAxis>

#include <algorithm>
#include <array>
#include <cmath>

namespace lp::ui {
namespace {
// Round numbers for the value axis' maximum: one of these x 10^k.
constexpr std::array kRoundMantissas{1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0};
} // namespace

TimeChart::TimeChart(QWidget* parent)
    : ChartPanel(tr("Step-time breakdown"), QStringLiteral("time"), parent),
      m_series(new QHorizontalStackedBarSeries), m_axis(new QBarCategoryAxis), m_valueAxis(new QValueAxis) {
    m_view->setMinimumHeight(180);
    m_view->setToolTip(tr("Where one optimizer step's time goes; hover or click a bar for its formula."));
    connectBars();
    m_series->setBarWidth(0.72);
    m_chart->addSeries(m_series);
    m_chart->addAxis(m_axis, Qt::AlignLeft);
    m_chart->addAxis(m_valueAxis, Qt::AlignBottom);
    m_series->attachAxis(m_axis);
    m_series->attachAxis(m_valueAxis);
    m_valueAxis->setLabelFormat(QStringLiteral("%.0f"));
    m_longAxisTitle = tr("milliseconds per optimizer step");
    m_valueAxis->setTitleText(m_longAxisTitle);
    m_chart->legend()->setVisible(false); // the category labels name each bar
    for (auto& label : m_valueLabels) {
        label = new QGraphicsSimpleTextItem(m_chart);
        label->setZValue(20);
    }
    for (int i = 0; i < kTimeComponentCount; ++i) {
        auto* name = new QGraphicsSimpleTextItem(timeName(static_cast<TimeComponent>(i)), m_chart);
        name->setZValue(20);
        name->hide();
        m_nameLabels[static_cast<std::size_t>(i)] = name;
    }
    m_axis->setLabelsVisible(false);
    m_chart->setMargins(QMargins(8, 4, 8, 4)); // the left one is the names' room (applyTheme)
    connect(m_chart, &QChart::plotAreaChanged, this, &TimeChart::placeValueLabels);
    applyTheme();
}

// One bar set per time component: hovering a bar shows its time and explains the component.
void TimeChart::connectBars() {
    for (int i = 0; i < kTimeComponentCount; ++i) {
        const auto c = static_cast<TimeComponent>(i);
        auto* set = new QBarSet(timeName(c));
        m_sets[static_cast<std::size_t>(i)] = set;
        m_series->append(set);
        const QString key = timeExplainKey(c);
        connect(set, &QBarSet::hovered, this, [this, c, key](bool on, int) {
            if (!on) {
                emit previewRequested(QString());
                return;
            }
            const QString share =
                qs(core::timeShareText(timeSeconds(m_plan.time, c), m_plan.time.stepSeconds));
            QToolTip::showText(QCursor::pos(), tr("%1: %2").arg(timeName(c), share), m_view);
            emit previewRequested(key);
        });
        connect(set, &QBarSet::clicked, this, [this, key](int) { emit explainRequested(key); });
    }
}

void TimeChart::applyTheme() {
    applyChartTheme(m_chart, palette());
    for (int i = 0; i < kTimeComponentCount; ++i) {
        const QColor colour = palette::time(static_cast<TimeComponent>(i));
        m_sets[static_cast<std::size_t>(i)]->setColor(colour);
        m_sets[static_cast<std::size_t>(i)]->setBorderColor(colour.darker(115));
    }
    const QFont small = smallChartFont(font());
    styleAxis(m_axis, palette(), font());
    styleAxis(m_valueAxis, palette(), small);
    m_axis->setGridLineVisible(false);
    for (QGraphicsSimpleTextItem* label : m_valueLabels) {
        label->setBrush(palette().color(QPalette::Text));
        label->setFont(small);
    }
    // Room on the left for the names: the longest one decides.
    qreal widest = 0;
    for (QGraphicsSimpleTextItem* name : m_nameLabels) {
        name->setBrush(palette().color(QPalette::Text));
        name->setFont(font());
        widest = std::max(widest, name->boundingRect().width());
    }
    m_chart->setMargins(QMargins(static_cast<int>(widest) + 12, 4, m_chart->margins().right(), 4));
    rebuild();
}

void TimeChart::setPlan(const core::Plan& plan, bool stale) {
    m_plan = plan;
    m_stale = stale;
    rebuild();
}

void TimeChart::setTrust(const QString& line, const QString& sentence) {
    if (line == m_trustLine && sentence == m_trustSentence)
        return;
    m_trustLine = line;
    m_trustSentence = sentence;
    rebuild();
}

double TimeChart::shownMilliseconds(TimeComponent c) const {
    const auto it = std::find(m_shown.begin(), m_shown.end(), c);
    if (it == m_shown.end())
        return 0;
    const auto row = static_cast<int>(m_shown.size() - 1 - static_cast<std::size_t>(it - m_shown.begin()));
    const QBarSet* set = m_sets[static_cast<std::size_t>(c)];
    return row < set->count() ? set->at(row) : 0;
}

void TimeChart::placeValueLabels() {
    const int n = static_cast<int>(m_shown.size());
    for (int i = 0; i < kTimeComponentCount; ++i) {
        QGraphicsSimpleTextItem* label = m_valueLabels[static_cast<std::size_t>(i)];
        const auto c = static_cast<TimeComponent>(i);
        const auto it = std::find(m_shown.begin(), m_shown.end(), c);
        if (it == m_shown.end()) {
            label->hide();
            m_nameLabels[static_cast<std::size_t>(i)]->hide();
            continue;
        }
        const int row = n - 1 - static_cast<int>(it - m_shown.begin());
        const QPointF end = m_chart->mapToPosition(QPointF(timeSeconds(m_plan.time, c) * 1e3, row), m_series);
        const QRectF box = label->boundingRect();
        label->setPos(end.x() + 6, end.y() - box.height() / 2);
        label->show();
        QGraphicsSimpleTextItem* name = m_nameLabels[static_cast<std::size_t>(i)];
        const QRectF nameBox = name->boundingRect();
        name->setPos(m_chart->plotArea().left() - nameBox.width() - 6, end.y() - nameBox.height() / 2);
        name->show();
    }
    fitToWidth();
}

void TimeChart::fitToWidth() {
    // A narrow chart (a small window, presentation mode's fonts on a projector) keeps its numbers whole:
    // the right margin grows until the longest bar's label ends inside the chart, and the value axis
    // takes fewer ticks, as many as its widest number leaves room for.
    const QRectF plot = m_chart->plotArea();
    if (plot.width() <= 0)
        return;
    const QMargins margins = m_chart->margins();
    double needed = -1e9; // the right margin's change that puts every label inside the chart
    for (int i = 0; i < kTimeComponentCount; ++i) {
        const QGraphicsSimpleTextItem* label = m_valueLabels[static_cast<std::size_t>(i)];
        if (!label->isVisible())
            continue;
        const double share = (label->pos().x() - 6 - plot.left()) / plot.width();
        if (share < 0.05)
            continue;
        const double overflow =
            label->pos().x() + label->boundingRect().width() - (m_chart->size().width() - 4);
        needed = std::max(needed, overflow / share);
    }
    int right = needed > -1e9 ? std::max(8, static_cast<int>(std::ceil(margins.right() + needed))) : 8;
    right = std::min(right, std::max(8, static_cast<int>(m_chart->size().width() / 2))); // bars keep half
    if (std::abs(right - margins.right()) > 1)
        m_chart->setMargins(QMargins(margins.left(), margins.top(), right, margins.bottom()));

    const QFontMetricsF fm(m_valueAxis->labelsFont());
    const double number =
        fm.horizontalAdvance(QString::number(m_valueAxis->max(), 'f', 0)) + 2 * fm.averageCharWidth();
    // As many ticks as fit, at a round step (0, 1000, 2000 rather than 0, 1333, 2667 for a 4000 ms axis).
    setRoundTicks(m_valueAxis, std::clamp(static_cast<int>(plot.width() / number) + 1, 2, 6));
    const QString title =
        plot.width() >= QFontMetricsF(m_valueAxis->titleFont()).horizontalAdvance(m_longAxisTitle)
            ? m_longAxisTitle
            : tr("ms per step");
    if (m_valueAxis->titleText() != title)
        m_valueAxis->setTitleText(title);
}

void TimeChart::rebuild() {
    const core::TimeBreakdown& t = m_plan.time;
    // Components with time, in palette order (compute first); compute is always shown.
    std::vector<TimeComponent> shown;
    for (int i = 0; i < kTimeComponentCount; ++i) {
        const auto c = static_cast<TimeComponent>(i);
        if (c == TimeComponent::Compute || timeSeconds(t, c) > 0)
            shown.push_back(c);
    }
    const int n = static_cast<int>(shown.size());
    // Horizontal categories run bottom to top: the first component goes last. The category labels
    // only change when the set of components does, so the chart's layout stays put during a drag.
    if (shown != m_shown) {
        QStringList categories;
        for (int row = 0; row < n; ++row)
            categories << timeName(shown[static_cast<std::size_t>(n - 1 - row)]);
        m_axis->clear();
        m_axis->append(categories);
        m_shown = shown;
    }
    rebuildValueAxis(rebuildBars(shown));
    placeValueLabels();
    QString text = qs(core::stepTimeHeadline(t));
    if (m_stale)
        text += tr(" (last valid layout)");
    if (!m_trustLine.isEmpty() && m_plan.valid)
        text += QLatin1Char('\n') + m_trustLine;
    setHeadline({}, text, palette().color(QPalette::WindowText));
    setHeadlineToolTip(m_trustSentence);
}

double TimeChart::rebuildBars(const std::vector<TimeComponent>& shown) {
    const core::TimeBreakdown& t = m_plan.time;
    const int n = static_cast<int>(shown.size());
    double longestMs = 0;
    for (int i = 0; i < kTimeComponentCount; ++i) {
        const auto c = static_cast<TimeComponent>(i);
        QList<qreal> values(n, 0.0);
        for (int row = 0; row < n; ++row)
            if (shown[static_cast<std::size_t>(n - 1 - row)] == c)
                values[row] = timeSeconds(t, c) * 1e3;
        QBarSet* set = m_sets[static_cast<std::size_t>(i)];
        if (set->count() == n) {
            for (int row = 0; row < n; ++row)
                if (set->at(row) != values[row])
                    set->replace(row, values[row]);
        } else {
            if (set->count() > 0)
                set->remove(0, set->count());
            set->append(values);
        }
        longestMs = std::max(longestMs, timeSeconds(t, c) * 1e3);
        m_valueLabels[static_cast<std::size_t>(i)]->setText(
            qs(core::timeShareText(timeSeconds(t, c), t.stepSeconds)));
    }
    return longestMs;
}

// Room on the right for the value labels. Hysteresis: the axis stays while the longest bar stays
// between 40% and 100% of it.
void TimeChart::rebuildValueAxis(double longestMs) {
    const double step = std::max(1.0, longestMs * 1.3);
    const double mag = std::pow(10.0, std::floor(std::log10(step)));
    double top = mag;
    for (double m : kRoundMantissas)
        if ((top = m * mag) >= step)
            break;
    const double current = m_valueAxis->max();
    if (current < longestMs * 1.25 || current > 2.5 * longestMs * 1.3 || current <= 0)
        m_valueAxis->setRange(0, top);
}

} // namespace lp::ui
