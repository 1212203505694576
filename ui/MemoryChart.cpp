#include "ui/MemoryChart.h"

#include "ui/ChartStyle.h"
#include "ui/Palette.h"

#include <QtCharts/QBarCategoryAxis>
#include <QtCharts/QBarSet>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLegend>
#include <QtCharts/QLegendMarker>
#include <QtCharts/QLineSeries>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QStackedBarSeries>
#include <QtCharts/QValueAxis>
#include <QEvent>
#include <QLabel>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace lp::ui {
namespace {
// A "nice" axis maximum: 1, 2, 2.5, 5 x 10^k above v.
double niceCeiling(double v) {
    if (v <= 0)
        return 1;
    const double p = std::pow(10.0, std::floor(std::log10(v)));
    for (double m : {1.0, 2.0, 2.5, 4.0, 5.0, 8.0, 10.0})
        if (m * p >= v)
            return m * p;
    return 10 * p;
}
} // namespace

MemoryChart::MemoryChart(QWidget* parent)
    : QWidget(parent), m_title(new QLabel(tr("Memory per GPU, by pipeline stage"), this)),
      m_headline(new QLabel(this)), m_chart(new QChart), m_view(new QChartView(m_chart, this)),
      m_series(new QStackedBarSeries), m_capacity(new QLineSeries), m_worstMarker(new QScatterSeries),
      m_stageAxis(new QBarCategoryAxis), m_lineAxis(new QValueAxis), m_valueAxis(new QValueAxis) {
    QFont titleFont = m_title->font();
    titleFont.setBold(true);
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.1);
    m_title->setFont(titleFont);
    m_headline->setObjectName(QStringLiteral("memoryHeadline"));
    m_headline->setTextFormat(Qt::RichText);
    m_headline->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
    m_headline->setToolTip(tr("The worst (fullest) pipeline stage against the GPU's usable memory. Click a bar "
                              "segment for its formula."));
    m_view->setRenderHint(QPainter::Antialiasing, false);
    m_view->setViewportUpdateMode(QGraphicsView::MinimalViewportUpdate);
    m_view->setMinimumHeight(220);
    m_view->setToolTip(tr("Stacked memory per GPU for each pipeline stage; the line is the GPU's capacity."));
    m_view->setFocusPolicy(Qt::NoFocus);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(m_title);
    layout->addWidget(m_headline);
    layout->addWidget(m_view, 1);

    for (core::MemoryComponent c : kMemoryComponents) {
        auto* set = new QBarSet(memoryName(c));
        m_sets[static_cast<std::size_t>(c)] = set;
        m_series->append(set);
        const QString key = memoryExplainKey(c);
        const QString name = memoryName(c);
        connect(set, &QBarSet::hovered, this, [this, set, key, name](bool on, int index) {
            if (!on || index < 0 || index >= set->count())
                return;
            QToolTip::showText(QCursor::pos(),
                               tr("Stage %1 · %2: %3").arg(index).arg(name, formatNumber(set->at(index), 2) +
                                                                                QChar(0x202F) + unitName(m_unit)),
                               m_view);
            emit explainRequested(key);
        });
        connect(set, &QBarSet::clicked, this, [this, key](int) { emit explainRequested(key); });
    }
    m_series->setBarWidth(0.7);
    m_chart->addSeries(m_series);
    m_capacity->setName(tr("Usable capacity"));
    m_chart->addSeries(m_capacity);
    m_worstMarker->setName(tr("Worst stage"));
    m_worstMarker->setMarkerShape(QScatterSeries::MarkerShapeTriangle);
    m_worstMarker->setMarkerSize(12);
    m_worstMarker->setPointLabelsVisible(true);
    m_worstMarker->setPointLabelsFormat(tr("worst"));
    m_worstMarker->setPointLabelsClipping(false);
    m_chart->addSeries(m_worstMarker);

    m_chart->addAxis(m_stageAxis, Qt::AlignBottom);
    m_chart->addAxis(m_valueAxis, Qt::AlignLeft);
    m_chart->addAxis(m_lineAxis, Qt::AlignTop);
    m_lineAxis->setVisible(false);
    m_series->attachAxis(m_stageAxis);
    m_series->attachAxis(m_valueAxis);
    m_capacity->attachAxis(m_lineAxis);
    m_capacity->attachAxis(m_valueAxis);
    m_worstMarker->attachAxis(m_lineAxis);
    m_worstMarker->attachAxis(m_valueAxis);
    m_valueAxis->setLabelFormat(QStringLiteral("%.0f"));
    m_chart->legend()->setAlignment(Qt::AlignBottom);
    connect(m_capacity, &QLineSeries::hovered, this, [this](const QPointF&, bool on) {
        if (on)
            emit explainRequested(QStringLiteral("memory.headroom"));
    });
    applyTheme();
}

void MemoryChart::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::StyleChange)
        applyTheme();
}

void MemoryChart::applyTheme() {
    applyChartTheme(m_chart, palette());
    for (core::MemoryComponent c : kMemoryComponents) {
        QBarSet* set = m_sets[static_cast<std::size_t>(c)];
        set->setColor(palette::memory(c));
        set->setBorderColor(palette::memory(c).darker(115));
    }
    QFont small = font();
    small.setPointSizeF(font().pointSizeF() * 0.9);
    styleAxis(m_stageAxis, palette(), small);
    styleAxis(m_valueAxis, palette(), small);
    m_worstMarker->setColor(palette().color(QPalette::Text));
    m_worstMarker->setBorderColor(palette().color(QPalette::Text));
    m_worstMarker->setPointLabelsColor(palette().color(QPalette::Text));
    m_chart->legend()->setFont(small);
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

int MemoryChart::stageCount() const { return m_sets[0]->count(); }

double MemoryChart::capacityShown() const { return m_capacity->count() > 0 ? m_capacity->at(0).y() : 0.0; }

QString MemoryChart::headline() const { return m_headline->text(); }

void MemoryChart::rebuild() {
    const core::MemoryPlan& mem = m_plan.memory;
    const int n = static_cast<int>(mem.stages.size());
    const double unit = bytesPerUnit(m_unit);

    // Categories only change with the stage count.
    if (m_categories.size() != n) {
        m_categories.clear();
        for (int i = 0; i < n; ++i)
            m_categories << (n <= 16 ? tr("Stage %1").arg(i) : QString::number(i));
        m_stageAxis->clear();
        m_stageAxis->append(m_categories);
        m_stageAxis->setLabelsAngle(n > 24 ? -90 : 0);
    }
    double maxTotal = 0;
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
    for (const core::StageMemory& s : mem.stages)
        maxTotal = std::max(maxTotal, s.totalBytes / unit);
    m_series->setBarWidth(n > 32 ? 0.85 : 0.7);

    const double capacity = mem.capacityBytes / unit;
    m_overflow = n > 0 && !mem.fits;
    m_worst = std::clamp(mem.worstStage, 0, std::max(0, n - 1));
    const double lo = -0.5;
    const double hi = std::max(0.5, n - 0.5);
    // Only what changed is touched: every axis or legend change re-lays out the whole chart.
    if (m_lineAxis->min() != lo || m_lineAxis->max() != hi)
        m_lineAxis->setRange(lo, hi);
    const QList<QPointF> capacityPoints{{lo, capacity}, {hi, capacity}};
    if (m_capacity->points() != capacityPoints)
        m_capacity->replace(capacityPoints);
    QPen capPen(m_overflow ? palette::error() : palette().color(QPalette::Text));
    capPen.setWidthF(m_overflow ? 2.5 : 1.5);
    capPen.setStyle(Qt::DashLine);
    if (m_capacity->pen() != capPen)
        m_capacity->setPen(capPen);
    const QString capacityName = tr("Usable capacity %1").arg(formatBytes(mem.capacityBytes, m_unit));
    if (m_capacity->name() != capacityName)
        m_capacity->setName(capacityName);
    const double top = niceCeiling(std::max(capacity, maxTotal) * 1.1);
    if (m_valueAxis->max() != top || m_valueAxis->min() != 0) {
        m_valueAxis->setRange(0, top);
        m_valueAxis->setTickCount(top / niceCeiling(top / 5) < 4.5 ? 5 : 6);
    }
    const QString axisTitle = tr("Memory per GPU (%1)").arg(unitName(m_unit));
    if (m_valueAxis->titleText() != axisTitle)
        m_valueAxis->setTitleText(axisTitle);
    if (n > 0) {
        const double worstTotal = mem.stages[static_cast<std::size_t>(m_worst)].totalBytes / unit;
        const QList<QPointF> marker{{static_cast<double>(m_worst), worstTotal + top * 0.03}};
        if (m_worstMarker->points() != marker)
            m_worstMarker->replace(marker);
        const QColor markerColour = m_overflow ? palette::error() : palette().color(QPalette::Text);
        if (m_worstMarker->color() != markerColour)
            m_worstMarker->setColor(markerColour);
    } else {
        m_worstMarker->clear();
    }
    for (QLegendMarker* marker : m_chart->legend()->markers(m_worstMarker))
        if (marker->isVisible())
            marker->setVisible(false);

    // The headline: worst stage, headroom or overflow, in the unit and in percent.
    QString text;
    if (n == 0) {
        text = tr("No plan yet.");
    } else {
        const core::StageMemory& w = mem.stages[static_cast<std::size_t>(m_worst)];
        const double pct = mem.capacityBytes > 0 ? std::fabs(mem.headroomBytes) / mem.capacityBytes : 0.0;
        if (m_overflow) {
            text = tr("<span style='color:%1'><b>Does not fit:</b> stage %2 needs %3 of %4 usable, "
                      "<b>%5 (%6) over</b>; largest part: %7.</span>")
                       .arg(palette::error().name())
                       .arg(m_worst)
                       .arg(formatBytes(w.totalBytes, m_unit), formatBytes(mem.capacityBytes, m_unit),
                            formatBytes(-mem.headroomBytes, m_unit), formatPercent(pct, 0),
                            memoryName(mem.largestComponent).toLower());
        } else {
            text = tr("<b>Fits.</b> Worst stage %1 uses %2 of %3 usable: headroom <b>%4 (%5)</b>.")
                       .arg(m_worst)
                       .arg(formatBytes(w.totalBytes, m_unit), formatBytes(mem.capacityBytes, m_unit),
                            formatBytes(mem.headroomBytes, m_unit), formatPercent(pct, 0));
        }
        if (m_stale)
            text += tr(" <i>(last valid layout)</i>");
    }
    m_headline->setText(text);
    setProperty("overflow", m_overflow);
}

} // namespace lp::ui
