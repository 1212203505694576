#include "ui/explore/AxisSweepView.h"

#include "core/estimate/Evaluate.h"
#include "ui/charts/ChartStyle.h"
#include "ui/document/ScenarioDocument.h"
#include "ui/widgets/FlowLayout.h"
#include "ui/widgets/Palette.h"
#include "ui/widgets/ScrollPage.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCursor>
#include <QEvent>
#include <QLabel>
#include <QToolTip>
#include <QVBoxLayout>
#include <QtCharts/QCategoryAxis>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLegend>
#include <QtCharts/QLegendMarker>
#include <QtCharts/QLineSeries>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QValueAxis>

#include <algorithm>
#include <cmath>
#include <set>

namespace lp::ui {
namespace {

using Axis = AxisSweepView::Axis;

QString recomputeLabel(int v) {
    switch (static_cast<core::Recompute>(v)) {
    case core::Recompute::None:
        return AxisSweepView::tr("none");
    case core::Recompute::Selective:
        return AxisSweepView::tr("selective");
    case core::Recompute::Full:
        return AxisSweepView::tr("full");
    }
    return {};
}

int currentValue(const core::Scenario& s, Axis axis) {
    switch (axis) {
    case Axis::Tp:
        return s.layout.tp;
    case Axis::Pp:
        return s.layout.pp;
    case Axis::Dp:
        return s.layout.dp;
    case Axis::MicroBatch:
        return s.layout.microBatch;
    case Axis::Accumulation:
        return s.layout.accumulation;
    case Axis::Recompute:
        return static_cast<int>(s.training.recompute);
    case Axis::ZeroStage:
        return s.training.zeroStage;
    case Axis::ShardGroup:
        return core::effectiveShardDegree(s);
    case Axis::Cp:
        return s.layout.cp;
    case Axis::Ep:
        return s.layout.ep;
    case Axis::Vpp:
        return s.layout.vpp;
    }
    return 0;
}

// The values tried: what the axis can take around the current layout, the current one always.
std::vector<int> candidateValues(const core::Scenario& s, Axis axis, bool holdBatch) {
    const core::Layout& l = s.layout;
    const long long gpus = s.cluster.gpus();
    const long long batch = l.effectiveBatch();
    std::set<int> values{currentValue(s, axis)};
    switch (axis) {
    case Axis::Tp:
    case Axis::Pp: {
        // Values that leave a whole DP for the cluster's GPUs (the keep-GPU-count rule).
        const long long other = static_cast<long long>(axis == Axis::Tp ? l.pp : l.tp) * l.cp;
        const int limit = std::clamp(axis == Axis::Tp ? s.model.heads : s.model.layers, 1, 128);
        for (int v = 1; v <= limit; ++v)
            if (other > 0 && gpus > 0 && gpus % (other * v) == 0)
                values.insert(v);
        break;
    }
    case Axis::Dp:
        values.insert(1);
        for (int k = -3; k <= 3; ++k) {
            const double v = l.dp * std::pow(2.0, k);
            if (v >= 1 && v <= 65536 && v == std::floor(v))
                values.insert(static_cast<int>(v));
        }
        break;
    case Axis::MicroBatch:
        for (int v : {1, 2, 4, 8, 16, 32})
            if (!holdBatch || static_cast<long long>(v) * l.dp <= batch)
                values.insert(v);
        break;
    case Axis::Accumulation:
        for (int v = 1; v <= 256; v *= 2)
            values.insert(v);
        break;
    case Axis::Recompute:
        values = {0, 1, 2};
        break;
    case Axis::ZeroStage:
        values = {0, 1, 2, 3};
        break;
    case Axis::ShardGroup:
        // Hybrid sharding: the divisors of DP (the whole of DP is plain sharding), at most 16 of them.
        for (int v = 1; v <= l.dp && values.size() < 16; ++v)
            if (l.dp % v == 0)
                values.insert(v);
        values.insert(l.dp);
        break;
    case Axis::Cp:
        // Like TP and PP: the values that leave a whole DP (the core says which split the sequence well).
        for (int v = 1; v <= 32; ++v)
            if (gpus > 0 && gpus % (static_cast<long long>(l.tp) * l.pp * v) == 0)
                values.insert(v);
        break;
    case Axis::Ep:
        // Mixture of experts only: the divisors of the expert count, up to the GPUs there are.
        for (int v = 1; s.model.isMoe() && v <= s.model.moe.experts && v <= gpus; ++v)
            if (s.model.moe.experts % v == 0)
                values.insert(v);
        break;
    case Axis::Vpp:
        // Interleaving needs a pipeline; chunks of whole layers.
        for (int v = 1; l.pp > 1 && v <= 8; ++v)
            if (s.model.layers % (l.pp * v) == 0)
                values.insert(v);
        break;
    }
    return {values.begin(), values.end()};
}

QString pct(double fraction) {
    return formatPercent(fraction, 1);
}
QString pointDelta(double deltaFraction) {
    const double d = deltaFraction * 100;
    return (d >= 0 ? QStringLiteral("+") : QStringLiteral("−")) + formatNumber(std::fabs(d), 1);
}

} // namespace

AxisSweepView::AxisSweepView(ScenarioDocument* doc, QWidget* parent) : QWidget(parent), m_doc(doc) {
    setObjectName(QStringLiteral("axisSweepView"));
    auto* title = new QLabel(tr("One axis at a time"), this);
    QFont titleFont = title->font();
    titleFont.setBold(true);
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.1);
    title->setFont(titleFont);
    m_axisCombo = new QComboBox(this);
    m_axisCombo->setObjectName(QStringLiteral("sweepAxis"));
    for (int a = 0; a < kAxisCount; ++a)
        m_axisCombo->addItem(axisName(static_cast<Axis>(a)), a);
    m_axisCombo->setToolTip(
        tr("The one axis that varies; every other axis keeps the current layout's value."));
    m_holdCheck = new QCheckBox(tr("Hold the global batch"), this);
    m_holdCheck->setObjectName(QStringLiteral("sweepHoldBatch"));
    m_holdCheck->setChecked(true);
    m_holdCheck->setToolTip(
        tr("Rebalance gradient accumulation so that micro batch × accumulation × DP stays the "
           "current global batch (values that cannot are marked invalid). Off: accumulation "
           "is held too and the global batch changes with TP, PP, DP and micro batch."));
    auto* note =
        new QLabel(tr("TP, PP and CP keep the GPU count by rebalancing DP; DP changes the GPU count."), this);
    note->setWordWrap(true);
    // The title and the controls wrap in a narrow page; the note wraps under them.
    auto* header = new FlowLayout(nullptr, 12, 4);
    header->addWidget(title);
    header->addWidget(controlGroup(this, {new QLabel(tr("Vary"), this), m_axisCombo}));
    header->addWidget(m_holdCheck);

    m_caption = new QLabel(this);
    m_caption->setObjectName(QStringLiteral("sweepCaption"));
    m_caption->setWordWrap(true);
    m_caption->setTextFormat(Qt::PlainText);
    QFont captionFont = m_caption->font();
    captionFont.setPointSizeF(captionFont.pointSizeF() * 1.05);
    m_caption->setFont(captionFont);
    m_overallLabel = new QLabel(this);
    m_overallLabel->setObjectName(QStringLiteral("sweepOverall"));
    m_overallLabel->setWordWrap(true);
    m_overallLabel->setTextFormat(Qt::PlainText);

    buildChart(m_mfu, tr("MFU"), false);
    buildChart(m_memory, tr("Worst-stage memory"), true);
    m_mfuView = m_mfu.view;
    m_memoryView = m_memory.view;
    m_mfuView->setObjectName(QStringLiteral("sweepMfuChart"));
    m_memoryView->setObjectName(QStringLiteral("sweepMemoryChart"));
    m_charts = new QBoxLayout(QBoxLayout::LeftToRight);
    m_charts->setSpacing(8);
    m_charts->addWidget(m_mfuView, 1);
    m_charts->addWidget(m_memoryView, 1);

    auto* layout = new QVBoxLayout(scrollingContent(this));
    layout->setContentsMargins(8, 8, 8, 8);
    layout->setSpacing(6);
    layout->addLayout(header);
    layout->addWidget(note);
    layout->addWidget(m_caption);
    layout->addWidget(m_overallLabel);
    layout->addLayout(m_charts, 1);

    connect(m_axisCombo, &QComboBox::currentIndexChanged, this,
            [this](int index) { setAxis(static_cast<Axis>(m_axisCombo->itemData(index).toInt())); });
    connect(m_holdCheck, &QCheckBox::toggled, this, &AxisSweepView::setHoldGlobalBatch);
    connect(m_doc, &ScenarioDocument::planChanged, this, &AxisSweepView::scheduleRefresh);
    connect(m_doc, &ScenarioDocument::profileChanged, this, &AxisSweepView::scheduleRefresh);
    applyTheme();
}

QString AxisSweepView::axisName(Axis axis) {
    switch (axis) {
    case Axis::Tp:
        return tr("TP");
    case Axis::Pp:
        return tr("PP");
    case Axis::Dp:
        return tr("DP");
    case Axis::MicroBatch:
        return tr("micro batch");
    case Axis::Accumulation:
        return tr("accumulation");
    case Axis::Recompute:
        return tr("recompute");
    case Axis::ZeroStage:
        return tr("ZeRO stage");
    case Axis::ShardGroup:
        return tr("ZeRO shard group");
    case Axis::Cp:
        return tr("CP");
    case Axis::Ep:
        return tr("EP");
    case Axis::Vpp:
        return tr("virtual stages");
    }
    return {};
}

void AxisSweepView::buildChart(ChartParts& parts, const QString& title, bool memory) {
    parts.chart = new QChart;
    parts.chart->setTitle(title);
    parts.view = new QChartView(parts.chart, this);
    parts.view->setRenderHint(QPainter::Antialiasing, true);
    parts.view->setMinimumHeight(260);
    parts.x = new QCategoryAxis;
    parts.x->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    parts.y = new QValueAxis;
    parts.chart->addAxis(parts.x, Qt::AlignBottom);
    parts.chart->addAxis(parts.y, Qt::AlignLeft);
    parts.y->setLabelFormat(QStringLiteral("%.0f"));
    if (memory) {
        parts.capacity = new QLineSeries;
        parts.capacity->setName(tr("Usable capacity"));
        parts.chart->addSeries(parts.capacity);
        parts.capacity->attachAxis(parts.x);
        parts.capacity->attachAxis(parts.y);
    }
    parts.fits = new QScatterSeries;
    parts.fits->setName(tr("fits"));
    parts.fits->setMarkerSize(10);
    parts.over = new QScatterSeries;
    parts.over->setName(tr("does not fit"));
    parts.over->setMarkerSize(10);
    parts.invalid = new QScatterSeries;
    parts.invalid->setName(tr("invalid"));
    parts.invalid->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
    parts.invalid->setMarkerSize(9);
    parts.current = new QScatterSeries;
    parts.current->setName(tr("current layout"));
    parts.current->setMarkerShape(QScatterSeries::MarkerShapeStar);
    parts.current->setMarkerSize(18);
    for (QScatterSeries* s : {parts.fits, parts.over, parts.invalid, parts.current}) {
        parts.chart->addSeries(s);
        s->attachAxis(parts.x);
        s->attachAxis(parts.y);
        connect(s, &QXYSeries::hovered, this, [this, view = parts.view](const QPointF& p, bool on) {
            const long i = std::lround(p.x());
            if (on && i >= 0 && i < static_cast<long>(m_points.size()))
                QToolTip::showText(QCursor::pos(), pointText(m_points[static_cast<std::size_t>(i)]), view);
        });
        connect(s, &QXYSeries::doubleClicked, this, [this](const QPointF& p) {
            const long i = std::lround(p.x());
            if (i < 0 || i >= static_cast<long>(m_points.size()))
                return;
            const Point& point = m_points[static_cast<std::size_t>(i)];
            if (point.valid && !point.current)
                m_doc->edit(point.scenario,
                            tr("Set %1 to %2 (one axis at a time)").arg(axisName(m_axis), point.label));
        });
    }
    parts.chart->legend()->setAlignment(Qt::AlignBottom);
    parts.view->setToolTip(
        tr("Each point changes only %1 from the current layout. Double-click a point to apply it.")
            .arg(tr("the chosen axis")));
}

void AxisSweepView::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::StyleChange)
        applyTheme();
}

void AxisSweepView::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    if (!m_charts)
        return;
    // Side by side while each chart is wide enough for its legend in one line (QLegend elides, it
    // does not wrap): the labels, a marker and a gap each.
    int legend = 0;
    for (const ChartParts* parts : {&m_mfu, &m_memory}) {
        const QFontMetrics fm(parts->chart->legend()->font());
        int line = 0;
        for (const QLegendMarker* m : parts->chart->legend()->markers())
            if (m->isVisible())
                line += fm.horizontalAdvance(m->label()) + 3 * fm.height();
        legend = std::max(legend, line);
    }
    const auto wanted = width() >= 2 * legend + 60 ? QBoxLayout::LeftToRight : QBoxLayout::TopToBottom;
    if (m_charts->direction() != wanted)
        m_charts->setDirection(wanted);
}

void AxisSweepView::applyTheme() {
    const QFont small = smallChartFont(font());
    const QFont titleFont = chartTitleFont(font());
    for (ChartParts* parts : {&m_mfu, &m_memory}) {
        applyChartTheme(parts->chart, palette());
        parts->chart->setTitleFont(titleFont);
        parts->chart->legend()->setFont(small);
        styleAxis(parts->x, palette(), small);
        styleAxis(parts->y, palette(), small);
        colourSeries(*parts);
    }
    m_dirty = true;
    if (isVisible())
        refresh();
}

void AxisSweepView::colourSeries(ChartParts& parts) {
    const QColor text = palette().color(QPalette::Text);
    const QColor blue = palette::memory(core::MemoryComponent::Weights);
    parts.fits->setColor(blue);
    parts.fits->setBorderColor(blue.darker(130));
    parts.over->setColor(palette::error());
    parts.over->setBorderColor(palette::error().darker(130));
    parts.invalid->setColor(palette::bandNeutral());
    parts.invalid->setBorderColor(palette::bandNeutral().darker(130));
    parts.current->setColor(text);
    parts.current->setBorderColor(palette().color(QPalette::Base));
    if (parts.capacity) {
        QPen pen(text);
        pen.setWidthF(1.5);
        pen.setStyle(Qt::DashLine);
        parts.capacity->setPen(pen);
    }
    QPen line(blue);
    line.setWidthF(2);
    for (QLineSeries* l : parts.lines)
        l->setPen(line);
}

void AxisSweepView::setUnit(MemoryUnit unit) {
    if (unit == m_unit)
        return;
    m_unit = unit;
    scheduleRefresh();
}

void AxisSweepView::setAxis(Axis axis) {
    if (m_axisCombo->currentData().toInt() != static_cast<int>(axis))
        m_axisCombo->setCurrentIndex(m_axisCombo->findData(static_cast<int>(axis))); // comes back here
    if (axis == m_axis && !m_dirty && !m_points.empty())
        return;
    m_axis = axis;
    scheduleRefresh();
}

void AxisSweepView::setHoldGlobalBatch(bool hold) {
    if (m_holdCheck->isChecked() != hold)
        m_holdCheck->setChecked(hold);
    if (hold == m_holdBatch)
        return;
    m_holdBatch = hold;
    scheduleRefresh();
}

void AxisSweepView::scheduleRefresh() {
    m_dirty = true;
    if (isVisible())
        refresh();
}

void AxisSweepView::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (m_dirty)
        refresh();
}

std::vector<AxisSweepView::Point> AxisSweepView::sweep(const core::Scenario& s,
                                                       const core::HardwareProfile& profile, Axis axis,
                                                       bool holdGlobalBatch, const core::LayoutRules& rules) {
    std::vector<Point> out;
    const long long batch = s.layout.effectiveBatch();
    const int current = currentValue(s, axis);
    core::LayoutRules keep = rules;
    keep.keepGpuCount = true;
    for (int v : candidateValues(s, axis, holdGlobalBatch)) {
        Point p;
        p.value = v;
        p.current = v == current;
        p.label = axis == Axis::Recompute ? recomputeLabel(v) : QString::number(v);
        if (axis == Axis::ShardGroup && v == s.layout.dp)
            p.label = tr("%1 (all)").arg(v);
        core::Scenario n = s;
        switch (axis) {
        case Axis::Tp:
            n = core::withLayoutValue(s, core::LayoutAxis::Tp, v, keep);
            break;
        case Axis::Pp:
            n = core::withLayoutValue(s, core::LayoutAxis::Pp, v, keep);
            break;
        case Axis::Dp:
            n = core::withLayoutValue(s, core::LayoutAxis::Dp, v, rules);
            break;
        case Axis::MicroBatch:
            n.layout.microBatch = v;
            break;
        case Axis::Accumulation:
            n.layout.accumulation = v;
            break;
        case Axis::Recompute:
            n.training.recompute = static_cast<core::Recompute>(v);
            break;
        case Axis::ZeroStage:
            n.training.zeroStage = v;
            break;
        case Axis::ShardGroup:
            if (!p.current)
                n.training.zeroShardDegree = v >= s.layout.dp ? 0 : v;
            break;
        case Axis::Cp:
            n = core::withLayoutValue(s, core::LayoutAxis::Cp, v, keep);
            break;
        case Axis::Ep:
            n.layout.ep = v;
            break;
        case Axis::Vpp:
            n.layout.vpp = v;
            break;
        }
        const bool layoutAxis =
            axis != Axis::Recompute && axis != Axis::ZeroStage && axis != Axis::ShardGroup;
        bool batchOk = true;
        if (holdGlobalBatch && layoutAxis && axis != Axis::Accumulation && !p.current) {
            const long long perStep = static_cast<long long>(n.layout.microBatch) * n.layout.dp;
            if (perStep > 0 && batch % perStep == 0 && batch / perStep >= 1)
                n.layout.accumulation = static_cast<int>(batch / perStep);
            else
                batchOk = false;
        }
        p.scenario = n;
        p.plan = core::evaluate(n, profile);
        p.valid = p.plan.valid && batchOk;
        p.fits = p.valid && p.plan.memory.fits;
        if (!batchOk) {
            p.reason = tr("the global batch of %1 does not split into micro batch %2 × DP %3")
                           .arg(formatCount(batch))
                           .arg(n.layout.microBatch)
                           .arg(n.layout.dp);
        } else if (!p.plan.valid) {
            for (const core::Diagnostic& d : p.plan.diagnostics)
                if (d.severity == core::Severity::Error) {
                    p.reason = QString::fromStdString(core::diagnosticMessage(d));
                    break;
                }
        }
        out.push_back(std::move(p));
    }
    return out;
}

double AxisSweepView::yValue(const Point& p, bool memory) const {
    return memory ? p.plan.memory.worstTotalBytes() / bytesPerUnit(m_unit) : p.plan.mfu * 100;
}

QString AxisSweepView::pointText(const Point& p) const {
    const core::Layout& l = p.scenario.layout;
    QString text = tr("%1 = %2").arg(axisName(m_axis), p.label);
    if (p.current)
        text += tr(" (current)");
    text += tr("\nTP %1 · PP %2 · DP %3 · mb %4 × %5 = %6")
                .arg(l.tp)
                .arg(l.pp)
                .arg(l.dp)
                .arg(l.microBatch)
                .arg(l.accumulation)
                .arg(formatCount(l.effectiveBatch()));
    if (!p.valid)
        return text + tr("\nInvalid: %1").arg(p.reason);
    text += tr("\nMFU %1 · %2 · worst stage %3 of %4")
                .arg(pct(p.plan.mfu), formatSeconds(p.plan.time.stepSeconds),
                     formatBytes(p.plan.memory.worstTotalBytes(), m_unit),
                     formatBytes(p.plan.memory.capacityBytes, m_unit));
    if (!p.fits)
        text += tr("\nDoes not fit.");
    return text;
}

void AxisSweepView::refresh() {
    m_dirty = false;
    const core::Scenario& s = m_doc->scenario();
    m_points = sweep(s, m_doc->profile(), m_axis, m_holdBatch, m_doc->layoutRules());
    rebuildChart(m_mfu, false);
    rebuildChart(m_memory, true);
    m_mfu.chart->setTitle(tr("MFU as %1 varies").arg(axisName(m_axis)));
    m_memory.chart->setTitle(tr("Worst-stage memory as %1 varies").arg(axisName(m_axis)));
    m_caption->setText(caption());

    // The best single change over all axes.
    const core::Plan& now = m_doc->plan();
    const bool nowFits = now.valid && now.memory.fits;
    double bestMfu = nowFits ? now.mfu : -1;
    QString best;
    for (int a = 0; a < kAxisCount; ++a) {
        const auto axis = static_cast<Axis>(a);
        if (axis == Axis::Accumulation && m_holdBatch)
            continue; // it changes the global batch the user holds
        const std::vector<Point> pts =
            axis == m_axis ? m_points : sweep(s, m_doc->profile(), axis, m_holdBatch, m_doc->layoutRules());
        const auto from = std::find_if(pts.begin(), pts.end(), [](const Point& p) { return p.current; });
        if (from == pts.end())
            continue;
        for (const Point& p : pts) {
            if (!p.fits || p.current || p.plan.mfu <= bestMfu + 1e-9)
                continue;
            bestMfu = p.plan.mfu;
            best = changeText(axis, *from, p);
        }
    }
    if (!now.valid)
        m_overall = tr("The current layout is invalid: fix it in the planner first.");
    else if (best.isEmpty())
        m_overall = nowFits ? tr("Over all axes: no single change raises MFU; this layout is the best of its "
                                 "one-at-a-time neighbours (changing several axes at once may still help).")
                            : tr("Over all axes: no single change makes this layout fit.");
    else if (nowFits)
        m_overall = tr("Over all axes, the best single change is %1: MFU %2 → %3 (%4 points).")
                        .arg(best, pct(now.mfu), pct(bestMfu), pointDelta(bestMfu - now.mfu));
    else
        m_overall = tr("Over all axes, the best single change that makes the layout fit is %1: MFU %2.")
                        .arg(best, pct(bestMfu));
    if (m_holdBatch && now.valid)
        m_overall += tr(" Accumulation is left out while the global batch is held.");
    m_overallLabel->setText(m_overall);
}

QString AxisSweepView::changeText(Axis axis, const Point& from, const Point& to) const {
    QString text = tr("%1 %2 → %3").arg(axisName(axis), from.label, to.label);
    const core::Layout& a = from.scenario.layout;
    const core::Layout& b = to.scenario.layout;
    QStringList also;
    if (axis != Axis::Dp && a.dp != b.dp)
        also << tr("DP %1 → %2").arg(a.dp).arg(b.dp);
    if (axis != Axis::Accumulation && a.accumulation != b.accumulation)
        also << tr("accumulation %1 → %2").arg(a.accumulation).arg(b.accumulation);
    if (a.gpus() != b.gpus())
        also << tr("%1 → %2 GPUs").arg(formatCount(a.gpus()), formatCount(b.gpus()));
    if (a.effectiveBatch() != b.effectiveBatch())
        also << tr("global batch %1 → %2")
                    .arg(formatCount(a.effectiveBatch()), formatCount(b.effectiveBatch()));
    if (!also.isEmpty())
        text += QStringLiteral(" (%1)").arg(also.join(QStringLiteral(", ")));
    return text;
}

QString AxisSweepView::caption() const {
    const QString name = axisName(m_axis);
    const Point* cur = nullptr;
    const Point* best = nullptr;
    const Point* runnerUp = nullptr;
    for (const Point& p : m_points) {
        if (p.current)
            cur = &p;
        if (p.fits && (!best || p.plan.mfu > best->plan.mfu))
            best = &p;
    }
    for (const Point& p : m_points)
        if (p.fits && !p.current && (!runnerUp || p.plan.mfu > runnerUp->plan.mfu))
            runnerUp = &p;
    if (!cur)
        return {};
    if (m_points.size() == 1 && m_axis == Axis::Ep)
        return tr("EP splits the experts of a mixture-of-experts model; this model is dense.");
    if (m_points.size() == 1 && m_axis == Axis::Vpp)
        return tr("Virtual stages interleave a pipeline: with PP %1 there is none to interleave.")
            .arg(m_doc->scenario().layout.pp);
    if (!best)
        return tr("No value of %1 fits with the other axes held.").arg(name);
    const auto change = [&](const Point& to) { return changeText(m_axis, *cur, to); };
    const double capacity = best->plan.memory.capacityBytes;
    if (!cur->fits) {
        return tr("The current layout %1. Changing %2 makes it fit: MFU %3, worst stage %4 of %5.")
            .arg(cur->valid ? tr("does not fit") : tr("is invalid"), change(*best), pct(best->plan.mfu),
                 formatBytes(best->plan.memory.worstTotalBytes(), m_unit), formatBytes(capacity, m_unit));
    }
    if (best == cur || best->plan.mfu <= cur->plan.mfu + 1e-9) {
        if (!runnerUp)
            return tr("%1 %2 is the only value that fits with the other axes held.").arg(name, cur->label);
        return tr("%1 %2 is already the best value with the other axes held. Next best: %3, MFU %4 (%5 "
                  "points), "
                  "worst stage %6.")
            .arg(name, cur->label, change(*runnerUp), pct(runnerUp->plan.mfu),
                 pointDelta(runnerUp->plan.mfu - cur->plan.mfu),
                 formatBytes(runnerUp->plan.memory.worstTotalBytes(), m_unit));
    }
    const double memNow = cur->plan.memory.worstTotalBytes();
    const double memBest = best->plan.memory.worstTotalBytes();
    return tr("Best change: %1 raises MFU from %2 to %3 (%4 points, step %5 → %6); the worst stage needs %7 "
              "instead of %8 (of %9).")
        .arg(change(*best), pct(cur->plan.mfu), pct(best->plan.mfu),
             pointDelta(best->plan.mfu - cur->plan.mfu), formatSeconds(cur->plan.time.stepSeconds),
             formatSeconds(best->plan.time.stepSeconds), formatBytes(memBest, m_unit),
             formatBytes(memNow, m_unit))
        .arg(formatBytes(capacity, m_unit));
}

void AxisSweepView::rebuildChart(ChartParts& parts, bool memory) {
    const int n = static_cast<int>(m_points.size());
    // The x axis: one labelled position per value.
    for (const QString& label : parts.x->categoriesLabels())
        parts.x->remove(label);
    parts.x->setStartValue(-0.5);
    for (int i = 0; i < n; ++i)
        parts.x->append(m_points[static_cast<std::size_t>(i)].label, i);
    parts.x->setRange(-0.5, std::max(0.5, n - 0.5));
    parts.x->setTitleText(axisName(m_axis));

    double lo = 1e300;
    double hi = 0;
    double capacity = 0;
    for (const Point& p : m_points) {
        if (!p.valid)
            continue;
        lo = std::min(lo, yValue(p, memory));
        hi = std::max(hi, yValue(p, memory));
        capacity = p.plan.memory.capacityBytes / bytesPerUnit(m_unit);
    }
    if (memory && capacity > 0)
        hi = std::max(hi, capacity);
    if (hi <= 0) {
        lo = 0;
        hi = memory ? 80 : 60;
    }
    const double pad = std::max(1.0, (hi - lo) * 0.1);
    parts.y->setRange(std::max(0.0, lo - pad), hi + pad);
    parts.y->applyNiceNumbers();
    parts.y->setTitleText(memory ? tr("Worst stage (%1)").arg(unitName(m_unit)) : tr("MFU (%)"));
    const double floor = parts.y->min();

    QList<QPointF> fits;
    QList<QPointF> over;
    QList<QPointF> invalid;
    QList<QPointF> current;
    for (QLineSeries* line : parts.lines) {
        parts.chart->removeSeries(line);
        delete line;
    }
    parts.lines.clear();
    QLineSeries* run = nullptr;
    for (int i = 0; i < n; ++i) {
        const Point& p = m_points[static_cast<std::size_t>(i)];
        if (!p.valid) {
            invalid << QPointF(i, floor);
            run = nullptr;
            continue;
        }
        const QPointF pt(i, yValue(p, memory));
        (p.fits ? fits : over) << pt;
        if (p.current)
            current << pt;
        if (!run) {
            run = new QLineSeries;
            QPen pen(palette::memory(core::MemoryComponent::Weights));
            pen.setWidthF(2);
            run->setPen(pen);
            parts.chart->addSeries(run);
            run->attachAxis(parts.x);
            run->attachAxis(parts.y);
            for (QLegendMarker* m : parts.chart->legend()->markers(run))
                m->setVisible(false);
            parts.lines.push_back(run);
        }
        run->append(pt);
    }
    // Markers above the lines.
    for (QScatterSeries* s : {parts.fits, parts.over, parts.invalid, parts.current}) {
        parts.chart->removeSeries(s);
        parts.chart->addSeries(s);
        s->attachAxis(parts.x);
        s->attachAxis(parts.y);
    }
    parts.fits->replace(fits);
    parts.over->replace(over);
    parts.invalid->replace(invalid);
    parts.current->replace(current);
    if (parts.capacity) {
        if (capacity > 0) {
            parts.capacity->replace({QPointF(-0.5, capacity), QPointF(n - 0.5, capacity)});
            parts.capacity->setName(
                tr("Usable capacity %1").arg(formatBytes(capacity * bytesPerUnit(m_unit), m_unit)));
        } else {
            parts.capacity->clear();
        }
    }
    // Legend entries only for what is there.
    const auto showMarker = [&](QScatterSeries* s, bool on) {
        for (QLegendMarker* m : parts.chart->legend()->markers(s))
            m->setVisible(on);
    };
    showMarker(parts.fits, !fits.isEmpty());
    showMarker(parts.over, !over.isEmpty());
    showMarker(parts.invalid, !invalid.isEmpty());
    showMarker(parts.current, !current.isEmpty());
    colourSeries(parts); // re-added series may take the theme's colours: restore ours
}

} // namespace lp::ui
