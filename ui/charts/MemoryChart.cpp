#include "ui/charts/MemoryChart.h"

#include "core/report/ChartHeadlines.h"
#include "ui/charts/ChartLegend.h"
#include "ui/charts/ChartStyle.h"
#include "ui/widgets/ExplainTrigger.h"
#include "ui/widgets/Palette.h"

#include <QGraphicsSimpleTextItem>
#include <QLayout>
#include <QToolTip>
#include <QtCharts/QBarCategoryAxis>
#include <QtCharts/QBarSet>
#include <QtCharts/QCategoryAxis>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLegend>
#include <QtCharts/QLineSeries>
#include <QtCharts/QStackedBarSeries>
#include <QtCharts/QValueAxis>

#include <algorithm>
#include <cmath>

namespace lp::ui {

MemoryChart::MemoryChart(QWidget* parent)
    : ChartPanel(tr("Memory per GPU, by pipeline stage"), QStringLiteral("memory"), parent),
      m_legend(new ChartLegend(this)), m_series(new QStackedBarSeries), m_capacity(new QLineSeries),
      m_worstMarker(new QGraphicsSimpleTextItem(m_chart)), m_stageAxis(new QBarCategoryAxis),
      m_stageTicks(new QCategoryAxis), m_lineAxis(new QValueAxis), m_valueAxis(new QValueAxis) {
    setHeadlineToolTip(tr("The worst (fullest) pipeline stage against the GPU's usable memory. Click a bar "
                          "segment for its formula."));
    m_view->setMinimumHeight(220); // raised with the font in applyTheme()
    m_view->setToolTip(tr("Stacked memory per GPU for each pipeline stage; the line is the GPU's capacity."));
    layout()->addWidget(m_legend);
    relayExplanations(m_legend, this);
    connectBars();
    m_series->setBarWidth(0.7);
    m_chart->addSeries(m_series);
    m_capacity->setName(tr("Usable capacity"));
    m_chart->addSeries(m_capacity);
    m_worstMarker->setText(tr("worst ▼"));
    m_worstMarker->setZValue(20);
    connect(m_chart, &QChart::plotAreaChanged, this, &MemoryChart::placeWorstMarker);

    m_chart->addAxis(m_stageAxis, Qt::AlignBottom);
    m_chart->addAxis(m_stageTicks, Qt::AlignBottom);
    m_stageTicks->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    m_stageTicks->setTitleText(tr("pipeline stage"));
    m_stageTicks->setVisible(false);
    m_chart->addAxis(m_valueAxis, Qt::AlignLeft);
    m_chart->addAxis(m_lineAxis, Qt::AlignTop);
    m_lineAxis->setVisible(false);
    m_series->attachAxis(m_stageAxis);
    m_series->attachAxis(m_valueAxis);
    m_capacity->attachAxis(m_lineAxis);
    m_capacity->attachAxis(m_valueAxis);
    m_valueAxis->setLabelFormat(QStringLiteral("%.0f"));
    m_chart->legend()->hide(); // m_legend wraps where this one would elide its names
    connect(m_capacity, &QLineSeries::hovered, this, [this](const QPointF&, bool on) {
        emit previewRequested(on ? QStringLiteral("memory.headroom") : QString());
    });
    applyTheme();
}

// One bar set per memory component: hovering a segment shows its size and explains the component.
void MemoryChart::connectBars() {
    for (core::MemoryComponent c : kMemoryComponents) {
        auto* set = new QBarSet(memoryName(c));
        m_sets[static_cast<std::size_t>(c)] = set;
        m_series->append(set);
        const QString key = memoryExplainKey(c);
        const QString name = memoryName(c);
        connect(set, &QBarSet::hovered, this, [this, set, key, name](bool on, int index) {
            if (!on || index < 0 || index >= set->count()) {
                emit previewRequested(QString());
                return;
            }
            QToolTip::showText(
                QCursor::pos(),
                tr("Stage %1 · %2: %3")
                    .arg(index)
                    .arg(name, formatNumber(set->at(index), 2) + QChar(0x202F) + unitName(m_unit)),
                m_view);
            emit previewRequested(key);
        });
        connect(set, &QBarSet::clicked, this, [this, key](int) { emit explainRequested(key); });
    }
}

void MemoryChart::applyTheme() {
    applyChartTheme(m_chart, palette());
    for (core::MemoryComponent c : kMemoryComponents) {
        QBarSet* set = m_sets[static_cast<std::size_t>(c)];
        set->setColor(palette::memory(c));
        set->setBorderColor(palette::memory(c).darker(115));
    }
    const QFont small = smallChartFont(font());
    // Tall enough for the value axis' six labels, the stage names and the legend in this font: a
    // shorter plot elides the labels ("..."), as presentation mode's large fonts did in a 720p window.
    m_view->setMinimumHeight(std::max(220, QFontMetrics(small).height() * 15));
    styleAxis(m_stageAxis, palette(), small);
    styleAxis(m_stageTicks, palette(), small);
    styleAxis(m_valueAxis, palette(), small);
    QFont markerFont = small;
    markerFont.setBold(true);
    m_worstMarker->setFont(markerFont);
    m_legend->setFont(small);
    rebuild();
}

void MemoryChart::setUnit(MemoryUnit unit) {
    if (unit == m_unit)
        return;
    m_unit = unit;
    rebuild();
}

void MemoryChart::setPlan(const core::Plan& plan, bool stale) {
    m_plan = plan;
    m_stale = stale;
    rebuild();
}

int MemoryChart::stageCount() const {
    return m_sets[0]->count();
}

double MemoryChart::capacityShown() const {
    return m_capacity->count() > 0 ? m_capacity->at(0).y() : 0.0;
}

// Above the fullest bar; above the capacity line instead where the bar ends just under it (the line
// would run through the text).
void MemoryChart::placeWorstMarker() {
    const core::StageMemory* worst = m_plan.memory.worst();
    if (!worst) {
        m_worstMarker->hide();
        return;
    }
    const QPointF top =
        m_chart->mapToPosition(QPointF(m_worst, worst->totalBytes / bytesPerUnit(m_unit)), m_capacity);
    const QRectF box = m_worstMarker->boundingRect();
    const double lineY = capacityLineY();
    const double gap = 2;
    double y = top.y() - box.height() - gap;
    if (y < lineY + gap && y + box.height() > lineY - gap)
        y = lineY - box.height() - gap;
    m_worstMarker->setPos(top.x() - box.width() / 2, y);
    m_worstMarker->show();
}

QRectF MemoryChart::worstMarkerRect() const {
    return m_worstMarker->isVisible() ? QRectF(m_worstMarker->pos(), m_worstMarker->boundingRect().size())
                                      : QRectF();
}

double MemoryChart::capacityLineY() const {
    return m_chart->mapToPosition(QPointF(0, capacityShown()), m_capacity).y();
}

void MemoryChart::rebuild() {
    const core::MemoryPlan& mem = m_plan.memory;
    const int n = static_cast<int>(mem.stages.size());
    rebuildStageAxis(n);
    const double tallest = rebuildBars();
    m_series->setBarWidth(n > 32 ? 0.85 : 0.7);
    m_overflow = n > 0 && !mem.fits;
    m_worst = std::clamp(mem.worstStage, 0, std::max(0, n - 1));
    rebuildCapacity(tallest);
    placeWorstMarker();
    rebuildHeadline();
    setProperty("overflow", m_overflow);
}

// The stage axis only changes with the stage count: named categories for a few stages, a numbered axis
// labelled every few stages when there are many (64 stages stay readable).
void MemoryChart::rebuildStageAxis(int n) {
    if (m_categories.size() == n)
        return;
    m_categories.clear();
    for (int i = 0; i < n; ++i)
        m_categories << tr("Stage %1").arg(i);
    const bool many = n > 8; // "Stage 12" labels would be elided
    QAbstractAxis* want = many ? static_cast<QAbstractAxis*>(m_stageTicks) : m_stageAxis;
    QAbstractAxis* other = many ? static_cast<QAbstractAxis*>(m_stageAxis) : m_stageTicks;
    if (!m_series->attachedAxes().contains(want)) {
        m_series->detachAxis(other);
        other->setVisible(false);
        m_series->attachAxis(want);
        want->setVisible(true);
    }
    if (!many) {
        m_stageAxis->clear();
        m_stageAxis->append(m_categories);
        return;
    }
    for (const QString& label : m_stageTicks->categoriesLabels())
        m_stageTicks->remove(label);
    const int every = n <= 16 ? 1 : (n <= 32 ? 4 : (n <= 64 ? 8 : 16));
    int last = -1;
    for (int i = 0; i < n - every / 2; i += every)
        m_stageTicks->append(QString::number(last = i), i);
    if (last != n - 1)
        m_stageTicks->append(QString::number(n - 1), n - 1);
    m_stageTicks->setRange(-0.5, n - 0.5);
}

double MemoryChart::rebuildBars() {
    const core::MemoryPlan& mem = m_plan.memory;
    const int n = static_cast<int>(mem.stages.size());
    const double unit = bytesPerUnit(m_unit);
    for (core::MemoryComponent c : kMemoryComponents) {
        QList<qreal> values;
        values.reserve(n);
        for (const core::StageMemory& s : mem.stages)
            values << memoryBytes(s, c) / unit;
        QBarSet* set = m_sets[static_cast<std::size_t>(c)];
        if (set->count() == n && n <= 16) {
            // Same bars, new heights: update in place (cheaper than rebuilding the bar items).
            for (int i = 0; i < n; ++i)
                if (set->at(i) != values[i])
                    set->replace(i, values[i]);
        } else {
            if (set->count() > 0)
                set->remove(0, set->count());
            set->append(values);
        }
    }
    double tallest = 0;
    for (const core::StageMemory& s : mem.stages)
        tallest = std::max(tallest, s.totalBytes / unit);
    return tallest;
}

// The capacity line, its legend entry and the value axis. Only what changed is touched: every axis or
// legend change re-lays out the whole chart.
void MemoryChart::rebuildCapacity(double tallest) {
    const core::MemoryPlan& mem = m_plan.memory;
    const int n = static_cast<int>(mem.stages.size());
    const double capacity = mem.capacityBytes / bytesPerUnit(m_unit);
    const double lo = -0.5;
    const double hi = std::max(0.5, n - 0.5);
    if (m_lineAxis->min() != lo || m_lineAxis->max() != hi)
        m_lineAxis->setRange(lo, hi);
    const QList<QPointF> capacityPoints{{lo, capacity}, {hi, capacity}};
    if (m_capacity->points() != capacityPoints)
        m_capacity->replace(capacityPoints);
    const QPen capPen =
        capacityPen(m_overflow ? palette::error() : palette().color(QPalette::Text), m_overflow ? 2.5 : 1.5);
    if (m_capacity->pen() != capPen)
        m_capacity->setPen(capPen);
    const QString capacityName =
        tr("Usable capacity %1").arg(qs(core::bytesIn(mem.capacityBytes, m_unit, 1)));
    if (m_capacity->name() != capacityName)
        m_capacity->setName(capacityName);
    int entry = 0;
    for (core::MemoryComponent c : kMemoryComponents)
        m_legend->setEntry(entry++, palette::memory(c), memoryName(c), memoryExplainKey(c));
    m_legend->setEntry(entry, capPen.color(), capacityName, QStringLiteral("memory.headroom"),
                       ChartLegend::Mark::DashedLine);
    const double top = roundAxisCeiling(std::max(capacity, tallest) * 1.1);
    if (m_valueAxis->max() != top || m_valueAxis->min() != 0) {
        m_valueAxis->setRange(0, top);
        setRoundTicks(m_valueAxis, 6);
    }
    const QString axisTitle = tr("Memory per GPU (%1)").arg(unitName(m_unit));
    if (m_valueAxis->titleText() != axisTitle)
        m_valueAxis->setTitleText(axisTitle);
    const QColor markerColour = m_overflow ? palette::error() : palette().color(QPalette::Text);
    if (m_worstMarker->brush().color() != markerColour)
        m_worstMarker->setBrush(markerColour);
}

void MemoryChart::rebuildHeadline() {
    const core::MemoryHeadline h = core::memoryHeadline(m_plan.memory, m_unit);
    QString text = qs(h.text);
    if (m_stale && !m_plan.memory.stages.empty())
        text += tr(" (last valid layout)");
    setHeadline(qs(h.verdict), text, m_overflow ? palette::error() : palette().color(QPalette::WindowText));
}

} // namespace lp::ui
