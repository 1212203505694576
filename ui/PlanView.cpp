#include "ui/PlanView.h"

#include "ui/FigureLabel.h"
#include "ui/KeyFigures.h"
#include "ui/MemoryChart.h"
#include "ui/MfuGauge.h"
#include "ui/Palette.h"
#include "ui/PrecisionSection.h"
#include "ui/ScenarioDocument.h"
#include "ui/ScrollPage.h"
#include "ui/TimeChart.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace lp::ui {

PlanView::PlanView(ScenarioDocument* doc, QWidget* parent)
    : QWidget(parent), m_doc(doc), m_memory(new MemoryChart(this)),
      m_precision(new PrecisionSection(this)), m_gauge(new MfuGauge(this)),
      m_mfuLabel(new QLabel(this)), m_figures(new KeyFigures(this)),
      m_time(new TimeChart(this)) {
    setObjectName(QStringLiteral("planView"));
    m_mfuLabel->setObjectName(QStringLiteral("mfuLabel"));
    m_mfuLabel->setToolTip(m_gauge->toolTip());
    m_mfuLabel->setTextFormat(Qt::PlainText);
    m_mfuLabel->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Minimum);
    m_mfuLabel->setWordWrap(true);  // a narrow gauge column (or presentation mode's large font) wraps, never clips
    m_mfuLabel->setAlignment(Qt::AlignHCenter);

    auto* gaugeBox = new QVBoxLayout;
    gaugeBox->setSpacing(0);
    gaugeBox->addWidget(m_gauge, 1);
    gaugeBox->addWidget(m_mfuLabel);

    auto* middle = new QHBoxLayout;
    middle->setSpacing(12);
    middle->addLayout(gaugeBox, 0);
    middle->addWidget(m_figures, 1);

    auto* layout = new QVBoxLayout(scrollingContent(this));
    layout->setContentsMargins(8, 8, 8, 8);
    layout->setSpacing(10);
    layout->addWidget(m_memory, 5);
    layout->addWidget(m_precision, 0);
    layout->addLayout(middle, 0);
    layout->addWidget(m_time, 4);
    m_gauge->setMinimumWidth(200);

    connect(m_memory, &MemoryChart::explainRequested, this, &PlanView::explainRequested);
    connect(m_precision, &PrecisionSection::explainRequested, this, &PlanView::explainRequested);
    connect(m_gauge, &MfuGauge::explainRequested, this, &PlanView::explainRequested);
    connect(m_figures, &KeyFigures::explainRequested, this, &PlanView::explainRequested);
    connect(m_time, &TimeChart::explainRequested, this, &PlanView::explainRequested);
    connect(m_doc, &ScenarioDocument::planChanged, this, &PlanView::refresh);
    refresh();
}

void PlanView::setUnit(MemoryUnit unit) {
    m_memory->setUnit(unit);
    m_figures->setUnit(unit);
    m_precision->setUnit(unit);
}

void PlanView::setActiveKey(const QString& key) {
    m_figures->setActiveKey(key);
    m_precision->setActiveKey(key);
}

void PlanView::refresh() {
    const bool stale = m_doc->isShowingStalePlan();
    const core::Plan& plan = m_doc->shownPlan();
    m_memory->setPlan(plan, stale);
    m_gauge->setMfu(plan.mfu, stale);
    m_mfuLabel->setText(tr("MFU %1\n%2").arg(m_gauge->valueText(), m_gauge->bandText()));
    const QColor colour = plan.mfu < 0.20 ? palette::bandAlarm() : palette().color(QPalette::WindowText);
    if (m_mfuLabel->palette().color(QPalette::WindowText) != colour) {
        QPalette pal = m_mfuLabel->palette();
        pal.setColor(QPalette::WindowText, colour);
        m_mfuLabel->setPalette(pal);
    }
    m_figures->setPlan(m_doc->shownScenario(), plan, stale);
    m_time->setPlan(plan, stale);
    // The formats follow the scenario being edited (they do not depend on the layout).
    m_precision->setPlan(m_doc->scenario(), plan, stale);
}

} // namespace lp::ui
