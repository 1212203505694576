#include "ui/explore/AxisSweepView.h"

#include "ui/document/ScenarioDocument.h"
#include "ui/explore/SweepChart.h"
#include "ui/widgets/FlowLayout.h"
#include "ui/widgets/ScrollPage.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QVBoxLayout>
#include <QtCharts/QChart>

#include <algorithm>

namespace lp::ui {

AxisSweepView::AxisSweepView(ScenarioDocument* doc, QWidget* parent) : QWidget(parent), m_doc(doc) {
    setObjectName(QStringLiteral("axisSweepView"));
    QLayout* header = buildHeader();
    auto* note =
        new QLabel(tr("TP, PP and CP keep the GPU count by rebalancing DP; DP changes the GPU count."), this);
    note->setWordWrap(true);
    buildCaptions();
    m_charts.mfu = new SweepChart(SweepChart::Quantity::Mfu, this);
    m_charts.memory = new SweepChart(SweepChart::Quantity::WorstStageMemory, this);
    m_charts.mfu->setObjectName(QStringLiteral("sweepMfuChart"));
    m_charts.memory->setObjectName(QStringLiteral("sweepMemoryChart"));
    m_charts.layout = new QBoxLayout(QBoxLayout::LeftToRight);
    m_charts.layout->setSpacing(8);
    m_charts.layout->addWidget(m_charts.mfu, 1);
    m_charts.layout->addWidget(m_charts.memory, 1);

    auto* layout = new QVBoxLayout(scrollingContent(this));
    layout->setContentsMargins(8, 8, 8, 8);
    layout->setSpacing(6);
    layout->addLayout(header);
    layout->addWidget(note);
    layout->addWidget(m_caption);
    layout->addWidget(m_overallLabel);
    layout->addLayout(m_charts.layout, 1);

    for (SweepChart* chart : {m_charts.mfu, m_charts.memory}) {
        connect(chart, &SweepChart::pointDoubleClicked, this, &AxisSweepView::applyPoint);
        connect(chart->chart(), &QChart::plotAreaChanged, this, &AxisSweepView::alignPlotAreas);
    }
    connect(m_doc, &ScenarioDocument::planChanged, this, &AxisSweepView::scheduleRefresh);
    connect(m_doc, &ScenarioDocument::profileChanged, this, &AxisSweepView::scheduleRefresh);
}

// The title and the controls; they wrap in a narrow page.
QLayout* AxisSweepView::buildHeader() {
    auto* title = new QLabel(tr("One axis at a time"), this);
    QFont titleFont = title->font();
    titleFont.setBold(true);
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.1);
    title->setFont(titleFont);
    m_axisCombo = new QComboBox(this);
    m_axisCombo->setObjectName(QStringLiteral("sweepAxis"));
    for (int a = 0; a < core::kSweepAxisCount; ++a)
        m_axisCombo->addItem(qs(core::sweepAxisName(static_cast<core::SweepAxis>(a))), a);
    m_axisCombo->setToolTip(
        tr("The one axis that varies; every other axis keeps the current layout's value."));
    m_holdCheck = new QCheckBox(tr("Hold the global batch"), this);
    m_holdCheck->setObjectName(QStringLiteral("sweepHoldBatch"));
    m_holdCheck->setChecked(m_options.holdGlobalBatch);
    m_holdCheck->setToolTip(
        tr("Rebalance gradient accumulation so that micro batch × accumulation × DP stays the current global "
           "batch (values that cannot are marked invalid). Off: accumulation is held too and the global "
           "batch changes with TP, PP, DP and micro batch."));
    connect(m_axisCombo, &QComboBox::currentIndexChanged, this, [this](int index) {
        setAxis(static_cast<core::SweepAxis>(m_axisCombo->itemData(index).toInt()));
    });
    connect(m_holdCheck, &QCheckBox::toggled, this, &AxisSweepView::setHoldGlobalBatch);
    auto* header = new FlowLayout(nullptr, 12, 4);
    header->addWidget(title);
    header->addWidget(controlGroup(this, {new QLabel(tr("Vary"), this), m_axisCombo}));
    header->addWidget(m_holdCheck);
    return header;
}

void AxisSweepView::buildCaptions() {
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
}

void AxisSweepView::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    if (!m_charts.layout)
        return;
    const int legend = std::max(m_charts.mfu->legendWidth(), m_charts.memory->legendWidth());
    const auto wanted = width() >= 2 * legend + 60 ? QBoxLayout::LeftToRight : QBoxLayout::TopToBottom;
    if (m_charts.layout->direction() != wanted)
        m_charts.layout->setDirection(wanted);
    alignPlotAreas();
}

void AxisSweepView::alignPlotAreas() {
    const qreal mfu = m_charts.mfu->naturalPlotLeft(), memory = m_charts.memory->naturalPlotLeft();
    const bool stacked = m_charts.layout->direction() == QBoxLayout::TopToBottom;
    const qreal left = std::max(mfu, memory);
    m_charts.mfu->setExtraLeftMargin(stacked ? left - mfu : 0);
    m_charts.memory->setExtraLeftMargin(stacked ? left - memory : 0);
}

void AxisSweepView::setUnit(MemoryUnit unit) {
    if (unit == m_unit)
        return;
    m_unit = unit;
    scheduleRefresh();
}

void AxisSweepView::setAxis(core::SweepAxis axis) {
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
    if (hold == m_options.holdGlobalBatch)
        return;
    m_options.holdGlobalBatch = hold;
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

void AxisSweepView::refresh() {
    m_dirty = false;
    const core::Scenario& s = m_doc->scenario();
    m_options.rules = m_doc->layoutRules();
    m_points = core::sweep(s, m_doc->profile(), m_axis, m_options);
    m_charts.mfu->setPoints(m_points, m_axis, m_unit);
    m_charts.memory->setPoints(m_points, m_axis, m_unit);
    const core::FigureFormat format{m_unit};
    m_caption->setText(qs(core::sweepCaption(m_axis, m_points, format)));
    const std::optional<core::SingleChange> best = core::bestSingleChange(s, m_doc->profile(), m_options);
    m_overallLabel->setText(qs(core::bestSingleChangeCaption(m_doc->plan(), best, m_options, format)));
}

void AxisSweepView::applyPoint(int index) {
    if (index < 0 || index >= static_cast<int>(m_points.size()))
        return;
    const core::SweepPoint& point = m_points[static_cast<std::size_t>(index)];
    if (point.valid && !point.current)
        m_doc->edit(
            point.scenario,
            tr("Set %1 to %2 (one axis at a time)").arg(qs(core::sweepAxisName(m_axis)), qs(point.label)));
}

} // namespace lp::ui
