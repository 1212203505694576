#include "ui/timeline/TimelineView.h"

#include "core/estimate/Diagnostic.h"
#include "core/estimate/Evaluate.h"
#include "core/estimate/Timeline.h"
#include "ui/charts/ChartLegend.h"
#include "ui/document/ScenarioDocument.h"
#include "ui/timeline/TimelineLanes.h"
#include "ui/timeline/TimelineScale.h"
#include "ui/timeline/TimelineStyle.h"
#include "ui/widgets/ExplainTrigger.h"
#include "ui/widgets/Format.h"
#include "ui/widgets/ScrollPage.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollBar>
#include <QShortcut>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace lp::ui {
namespace {

constexpr double kZoomStep = 1.5;      // one press of + or -
constexpr int kPanResolution = 10'000; // scroll bar units over the whole step

QString scheduleName(const core::Scenario& s) {
    return qs(core::scheduleTitle(s.training.pipelineSchedule, s.layout.vpp));
}

// "Current layout: PP 4, 16 micro batches, 1F1B. Step 4.82 s, bubble 0.912 s (19.0 % of the step)".
QString heading(const QString& label, const core::Timeline& t) {
    return label + QStringLiteral(": ") + qs(core::timelineSummary(t));
}

// Every kind, in the order a step runs through them: the legend lists those the drawn steps hold.
constexpr core::TimelineKind kLegendKinds[] = {
    core::TimelineKind::Loader,         core::TimelineKind::Host,
    core::TimelineKind::Forward,        core::TimelineKind::Backward,
    core::TimelineKind::BackwardWeight, core::TimelineKind::Recompute,
    core::TimelineKind::PipelineSend,   core::TimelineKind::LayerComm,
    core::TimelineKind::DataParallel,   core::TimelineKind::DataParallelExposed,
    core::TimelineKind::Optimizer,      core::TimelineKind::Straggler,
    core::TimelineKind::Idle,
};

bool holds(const core::Timeline& t, core::TimelineKind kind) {
    return std::ranges::any_of(t.events, [kind](const core::TimelineEvent& e) { return e.kind == kind; });
}

// Why a layout has no timeline: its first diagnostic (the errors come first).
QString firstProblem(const core::Plan& plan) {
    const auto ordered = core::orderedDiagnostics(plan.diagnostics);
    return ordered.empty() ? TimelineView::tr("it does not evaluate")
                           : qs(core::diagnosticMessage(*ordered.front()));
}

} // namespace

TimelineView::TimelineView(ScenarioDocument* doc, QWidget* parent)
    : QWidget(parent), m_doc(doc), m_scale(new TimelineScale(this)) {
    setObjectName(QStringLiteral("timelineView"));
    QWidget* content = scrollingContent(this);
    auto* column = new QVBoxLayout(content);
    column->addWidget(buildControls());
    m_legend = new ChartLegend(content);
    m_legend->setObjectName(QStringLiteral("timelineLegend"));
    column->addWidget(m_legend);

    m_lanes = new TimelineLanes(m_scale, content);
    m_lanes->setObjectName(QStringLiteral("timelineLanes"));
    column->addWidget(m_lanes);
    m_compareProblem = new QLabel(content);
    m_compareProblem->setWordWrap(true);
    m_compareProblem->hide();
    column->addWidget(m_compareProblem);
    m_compared = new TimelineLanes(m_scale, content);
    m_compared->setObjectName(QStringLiteral("timelineComparedLanes"));
    m_compared->hide();
    column->addWidget(m_compared);
    m_panBar = new QScrollBar(Qt::Horizontal, content);
    m_panBar->setObjectName(QStringLiteral("timelinePan"));
    m_panBar->setToolTip(tr("Pan along the step (or drag the lanes)"));
    column->addWidget(m_panBar);
    column->addStretch(1);

    for (TimelineLanes* lanes : {m_lanes, m_compared}) {
        relayExplanations(lanes, this);
    }
    relayExplanations(m_legend, this);
    connect(m_scale, &TimelineScale::changed, this, &TimelineView::syncPanBar);
    connect(m_panBar, &QScrollBar::valueChanged, this, [this](int value) {
        if (!m_syncing)
            m_scale->setVisible(value * m_scale->total() / kPanResolution, m_scale->span());
    });
    connect(m_doc, &ScenarioDocument::planChanged, this, &TimelineView::refresh);
    connect(m_doc, &ScenarioDocument::scenarioChanged, this, &TimelineView::refresh);
    refresh();
}

QWidget* TimelineView::buildControls() {
    auto* bar = new QWidget;
    auto* row = new QHBoxLayout(bar);
    row->setContentsMargins(0, 0, 0, 0);
    const auto button = [&](const QString& text, const QString& name, const QString& tip) {
        auto* b = new QToolButton(bar);
        b->setText(text);
        b->setObjectName(name);
        b->setToolTip(tip);
        row->addWidget(b);
        return b;
    };
    QToolButton* zoomOut =
        button(QStringLiteral("\u2212"), QStringLiteral("timelineZoomOut"), tr("Zoom out (-)"));
    QToolButton* zoomIn = button(QStringLiteral("+"), QStringLiteral("timelineZoomIn"), tr("Zoom in (+)"));
    m_fit = button(tr("Fit"), QStringLiteral("timelineFit"), tr("Show the whole step (0)"));
    connect(zoomOut, &QToolButton::clicked, m_scale, [this] { m_scale->zoomAboutCentre(1 / kZoomStep); });
    connect(zoomIn, &QToolButton::clicked, m_scale, [this] { m_scale->zoomAboutCentre(kZoomStep); });
    connect(m_fit, &QToolButton::clicked, m_scale, &TimelineScale::fit);
    const auto shortcut = [this](const QKeySequence& keys, auto slot) {
        new QShortcut(keys, this, this, slot, Qt::WidgetWithChildrenShortcut);
    };
    shortcut(QKeySequence(Qt::Key_Plus), [this] { m_scale->zoomAboutCentre(kZoomStep); });
    shortcut(QKeySequence(Qt::Key_Equal), [this] { m_scale->zoomAboutCentre(kZoomStep); });
    shortcut(QKeySequence(Qt::Key_Minus), [this] { m_scale->zoomAboutCentre(1 / kZoomStep); });
    shortcut(QKeySequence(Qt::Key_0), [this] { m_scale->fit(); });
    row->addSpacing(12);
    auto* compareLabel = new QLabel(tr("Compare &with:"), bar);
    m_compareChoice = new QComboBox(bar);
    m_compareChoice->setObjectName(QStringLiteral("timelineCompareWith"));
    m_compareChoice->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_compareChoice->setToolTip(tr("Draw a second layout under this one, in the same time scale"));
    compareLabel->setBuddy(m_compareChoice);
    row->addWidget(compareLabel);
    row->addWidget(m_compareChoice);
    row->addStretch(1);
    connect(m_compareChoice, &QComboBox::activated, this, &TimelineView::refreshComparison);
    return bar;
}

void TimelineView::refreshLegend() {
    int index = 0;
    for (core::TimelineKind kind : kLegendKinds)
        if (kind == core::TimelineKind::Forward || kind == core::TimelineKind::Backward ||
            kind == core::TimelineKind::Idle || holds(m_lanes->timeline(), kind) ||
            (isComparing() && holds(m_compared->timeline(), kind)))
            m_legend->setEntry(index++, timelineColor(kind), timelineKindName(kind),
                               timelineExplainKey(kind));
    m_legend->setEntry(index++, palette::memory(core::MemoryComponent::Activations),
                       tr("Micro batches in flight (activations held)"), QStringLiteral("memory.activations"),
                       ChartLegend::Mark::Line);
    m_legend->truncate(index);
}

bool TimelineView::isComparing() const {
    return !m_compared->isHidden();
}

void TimelineView::setPinnedLayouts(std::vector<TimelineLayout> pinned) {
    m_pinned = std::move(pinned);
    refreshChoices();
    refreshComparison();
}

void TimelineView::refresh() {
    const core::Scenario& s = m_doc->shownScenario();
    const core::Plan& plan = m_doc->shownPlan();
    if (!plan.valid)
        return;
    core::Timeline timeline = core::buildTimeline(s, plan);
    const QString title = heading(tr("Current layout"), timeline);
    m_lanes->setTimeline(std::move(timeline), title);
    refreshChoices();
    refreshComparison();
}

void TimelineView::refreshChoices() {
    const int chosen =
        m_compareChoice->currentData().isValid() ? m_compareChoice->currentData().toInt() : kNone;
    const core::Scenario& s = m_doc->shownScenario();
    m_compareChoice->clear();
    m_compareChoice->addItem(tr("Nothing"), kNone);
    m_compareChoice->addItem(tr("Accumulation %1 (twice)").arg(s.layout.accumulation * 2), kMoreAccumulation);
    if (s.layout.accumulation > 1)
        m_compareChoice->addItem(tr("Accumulation %1 (half)").arg(s.layout.accumulation / 2),
                                 kLessAccumulation);
    if (s.layout.pp > 1)
        m_compareChoice->addItem(s.layout.vpp > 1 ? tr("No interleaving (VPP 1)") : tr("Interleaved (VPP 2)"),
                                 kInterleaving);
    const std::pair<core::PipelineSchedule, int> schedules[] = {
        {core::PipelineSchedule::GPipe, kGPipe},
        {core::PipelineSchedule::OneFOneB, kOneFOneB},
        {core::PipelineSchedule::ZeroBubbleH1, kZeroBubble}};
    for (const auto& [schedule, choice] : schedules)
        if (schedule != s.training.pipelineSchedule) {
            core::Scenario other = s;
            other.training.pipelineSchedule = schedule;
            other.layout.vpp = 1;
            m_compareChoice->addItem(tr("Schedule %1").arg(scheduleName(other)), choice);
        }
    for (std::size_t i = 0; i < m_pinned.size(); ++i)
        m_compareChoice->addItem(tr("Pinned %1").arg(m_pinned[i].label), kPinned + static_cast<int>(i));
    const int index = m_compareChoice->findData(chosen);
    m_compareChoice->setCurrentIndex(std::max(0, index));
}

std::optional<core::Scenario> TimelineView::variant(int choice) const {
    core::Scenario s = m_doc->shownScenario();
    switch (choice) {
    case kMoreAccumulation:
        s.layout.accumulation *= 2;
        return s;
    case kLessAccumulation:
        s.layout.accumulation = std::max(1, s.layout.accumulation / 2);
        return s;
    case kInterleaving:
        s.layout.vpp = s.layout.vpp > 1 ? 1 : 2;
        return s;
    case kGPipe:
    case kOneFOneB:
    case kZeroBubble:
        s.training.pipelineSchedule = choice == kGPipe      ? core::PipelineSchedule::GPipe
                                      : choice == kOneFOneB ? core::PipelineSchedule::OneFOneB
                                                            : core::PipelineSchedule::ZeroBubbleH1;
        s.layout.vpp = 1;
        return s;
    default:
        return std::nullopt;
    }
}

void TimelineView::refreshComparison() {
    showComparison();
    refreshLegend();
}

void TimelineView::showComparison() {
    const int choice = m_compareChoice->currentData().toInt();
    m_compareProblem->hide();
    double total = m_lanes->timeline().makespanSeconds;
    if (choice == kNone) {
        m_compared->hide();
        m_scale->setTotal(total);
        return;
    }
    core::Scenario scenario;
    core::Plan plan;
    const QString label = m_compareChoice->currentText();
    if (choice >= kPinned && choice - kPinned < static_cast<int>(m_pinned.size())) {
        const TimelineLayout& pin = m_pinned[static_cast<std::size_t>(choice - kPinned)];
        scenario = pin.scenario;
        plan = pin.plan;
    } else if (const auto v = variant(choice)) {
        scenario = *v;
        plan = core::evaluate(scenario, m_doc->profile());
    }
    if (!plan.valid) {
        m_compared->hide();
        m_compareProblem->setText(
            tr("%1 is not a valid layout of this scenario: %2").arg(label, firstProblem(plan)));
        m_compareProblem->show();
        m_scale->setTotal(total);
        return;
    }
    core::Timeline timeline = core::buildTimeline(scenario, plan);
    total = std::max(total, timeline.makespanSeconds);
    const QString title = heading(label, timeline);
    m_compared->setTimeline(std::move(timeline), title);
    m_compared->show();
    m_scale->setTotal(total);
}

void TimelineView::syncPanBar() {
    m_syncing = true;
    const double total = m_scale->total();
    const int page = static_cast<int>(std::lround(m_scale->span() / total * kPanResolution));
    m_panBar->setRange(0, kPanResolution - page);
    m_panBar->setPageStep(std::max(1, page));
    m_panBar->setSingleStep(std::max(1, page / 10));
    m_panBar->setValue(static_cast<int>(std::lround(m_scale->start() / total * kPanResolution)));
    // Only a zoomed step has somewhere to pan to: the whole step shows no scroll bar.
    m_panBar->setVisible(page < kPanResolution);
    m_syncing = false;
}

} // namespace lp::ui
