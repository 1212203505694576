#include "ui/plan/PlanView.h"

#include "core/estimate/KeyFigures.h"
#include "ui/charts/MemoryChart.h"
#include "ui/charts/MfuGauge.h"
#include "ui/charts/TimeChart.h"
#include "ui/document/BundledValidationGroups.h"
#include "ui/document/ScenarioDocument.h"
#include "ui/plan/KeyFigures.h"
#include "ui/plan/PrecisionSection.h"
#include "ui/run/RunView.h"
#include "ui/widgets/ExplainTrigger.h"
#include "ui/widgets/FigureLabel.h"
#include "ui/widgets/Palette.h"
#include "ui/widgets/ScrollPage.h"

#include <QBoxLayout>
#include <QEvent>
#include <QLabel>
#include <QTimer>
#include <QVBoxLayout>

namespace lp::ui {

PlanView::PlanView(ScenarioDocument* doc, QWidget* parent)
    : QWidget(parent), m_doc(doc), m_memory(new MemoryChart(this)), m_precision(new PrecisionSection(this)),
      m_gauge(new MfuGauge(this)), m_mfuLabel(new QLabel(this)), m_figures(new KeyFigures(this)),
      m_time(new TimeChart(this)), m_trustPoll(new QTimer(this)) {
    setObjectName(QStringLiteral("planView"));
    m_trustPoll->setSingleShot(true);
    m_trustPoll->setInterval(100);
    connect(m_trustPoll, &QTimer::timeout, this, &PlanView::showTrust);
    m_mfuLabel->setObjectName(QStringLiteral("mfuLabel"));
    m_mfuLabel->setToolTip(m_gauge->toolTip());
    m_mfuLabel->setTextFormat(Qt::PlainText);
    m_mfuLabel->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Minimum);
    // A narrow gauge column (or presentation mode's large font) wraps the label, never clips it.
    m_mfuLabel->setWordWrap(true);
    m_mfuLabel->setAlignment(Qt::AlignHCenter);

    auto* gaugeBox = new QVBoxLayout;
    gaugeBox->setSpacing(0);
    gaugeBox->addWidget(m_gauge, 1, Qt::AlignHCenter);
    gaugeBox->addWidget(m_mfuLabel);

    m_middle = new QBoxLayout(QBoxLayout::LeftToRight);
    m_middle->setSpacing(12);
    m_middle->addLayout(gaugeBox, 0);
    m_middle->addWidget(m_figures, 1);

    m_content = scrollingContent(this);
    m_content->installEventFilter(this);
    auto* layout = new QVBoxLayout(m_content);
    layout->setContentsMargins(8, 8, 8, 8);
    layout->setSpacing(10);
    layout->addWidget(m_memory, 5);
    layout->addWidget(m_precision, 0);
    layout->addLayout(m_middle, 0);
    layout->addWidget(m_time, 4);
    m_run = new RunView(doc, m_content);
    layout->addWidget(m_run, 0);
    relayExplanations(m_run, this);
    m_gauge->setMinimumWidth(200);

    relayExplanations(m_memory, this);
    relayExplanations(m_precision, this);
    relayExplanations(m_gauge, this);
    relayExplanations(m_figures, this);
    relayExplanations(m_time, this);
    connect(m_doc, &ScenarioDocument::planChanged, this, &PlanView::showPlan);
    connect(m_doc, &ScenarioDocument::replaced, m_figures, &KeyFigures::forgetPrevious);
    showPlan();
}

bool PlanView::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_content && event->type() == QEvent::Resize)
        arrangeMiddle();
    return QWidget::eventFilter(watched, event);
}

void PlanView::arrangeMiddle() {
    // The gauge beside two columns of key figures where they fit, else above them (a narrow window,
    // presentation mode's large fonts on a projector), so the page never scrolls sideways.
    const QMargins m = m_content->layout()->contentsMargins();
    const int room = m_content->width() - m.left() - m.right();
    const int besideNeeds = m_gauge->minimumWidth() + m_middle->spacing() + m_figures->preferredWidth(2);
    const bool stacked = room < besideNeeds;
    if (stacked == isGaugeAboveFigures())
        return;
    m_middle->setDirection(stacked ? QBoxLayout::TopToBottom : QBoxLayout::LeftToRight);
    // Stacked, the dial keeps its own size in the middle of the row instead of spanning the page.
    m_gauge->setMaximumWidth(stacked ? m_gauge->sizeHint().width() * 3 / 2 : QWIDGETSIZE_MAX);
    m_gauge->setMinimumHeight(stacked ? m_gauge->sizeHint().height() : 0);
}

bool PlanView::isGaugeAboveFigures() const {
    return m_middle->direction() == QBoxLayout::TopToBottom;
}

void PlanView::setUnit(MemoryUnit unit) {
    m_unit = unit;
    showGauge(); // "does not fit" quotes memory in the unit
    m_memory->setUnit(unit);
    m_figures->setUnit(unit);
    m_precision->setUnit(unit);
}

void PlanView::setActiveKey(const QString& key) {
    m_figures->setActiveKey(key);
    m_precision->setActiveKey(key);
}

// The gauge and the line under it: the band, or that the plan does not fit (greyed).
void PlanView::showGauge() {
    const core::MfuGaugeState state = core::mfuGaugeState(m_doc->shownPlan(), m_unit);
    m_gauge->setState(state, m_doc->isShowingStalePlan());
    QString text = tr("MFU %1\n%2").arg(m_gauge->valueText(), m_gauge->bandText());
    if (const auto band = bundledTrustBand(m_doc->shownScenario(), m_doc->shownPlan());
        band && !state.greyed())
        text +=
            QLatin1Char('\n') + (band->available ? tr("Runs like it: %1").arg(qs(core::mfuBandText(*band)))
                                                 : tr("No comparable published runs"));
    m_mfuLabel->setText(text);
    const QColor colour = state.greyed()                       ? palette().color(QPalette::PlaceholderText)
                          : state.band == core::MfuBand::Alarm ? palette::bandAlarm()
                                                               : palette().color(QPalette::WindowText);
    if (m_mfuLabel->palette().color(QPalette::WindowText) != colour) {
        QPalette pal = m_mfuLabel->palette();
        pal.setColor(QPalette::WindowText, colour);
        m_mfuLabel->setPalette(pal);
    }
}

void PlanView::showPlan() {
    const bool stale = m_doc->isShowingStalePlan();
    const core::Plan& plan = m_doc->shownPlan();
    m_memory->setPlan(plan, stale);
    showGauge();
    m_figures->setPlan(m_doc->shownScenario(), plan);
    m_time->setPlan(plan, stale);
    showTrust();
    // The formats follow the scenario being edited (they do not depend on the layout).
    m_precision->setPlan(m_doc->scenario(), plan, stale);
}

void PlanView::showTrust() {
    const auto band = bundledTrustBand(m_doc->shownScenario(), m_doc->shownPlan());
    if (!band)
        m_trustPoll->start();
    m_gauge->setTrustBand(band);
    m_figures->setTrustBand(band);
    m_time->setTrust(band ? qs(core::trustLine(*band)) : QString(), band ? qs(band->sentence) : QString());
    if (band)
        showGauge(); // the line under the gauge
}

} // namespace lp::ui
