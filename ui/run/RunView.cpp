#include "ui/run/RunView.h"

#include "core/estimate/Explain.h"
#include "core/report/RunFigures.h"
#include "ui/charts/ChartStyle.h"
#include "ui/document/ScenarioDocument.h"
#include "ui/widgets/ExplainTrigger.h"
#include "ui/widgets/FigureLabel.h"
#include "ui/widgets/FlowLayout.h"
#include "ui/widgets/Format.h"

#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleValidator>
#include <QEvent>
#include <QFormLayout>
#include <QHorizontalStackedBarSeries>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QSignalBlocker>
#include <QTimer>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <iterator>

namespace lp::ui {
namespace {

using core::RunOptions;
using core::Scenario;
using core::TokenRule;

// The run settings a person types, each a number of the scenario's 'run' object (docs/formats.md).
struct RunField {
    const char* id;
    const char* label;
    const char* toolTip;
    double (*get)(const Scenario&);
    void (*set)(Scenario&, double);
    double minimum;
};

constexpr RunField kFields[] = {
    {"runPrice", QT_TRANSLATE_NOOP("lp::ui::RunView", "Price per GPU-hour (USD)"),
     QT_TRANSLATE_NOOP("lp::ui::RunView",
                       "What one GPU-hour costs; 0 uses the cluster or GPU preset's public "
                       "on-demand price (its source and date are in the Cost explanation)."),
     [](const Scenario& s) { return s.run.pricePerGpuHourUsd; },
     [](Scenario& s, double v) { s.run.pricePerGpuHourUsd = v; }, 0},
    {"runFailureRate", QT_TRANSLATE_NOOP("lp::ui::RunView", "Failures per GPU-hour"),
     QT_TRANSLATE_NOOP("lp::ui::RunView",
                       "Unexpected interruptions per GPU-hour; the default is Llama 3 405B's: "
                       "419 in 54 days on 16,384 H100."),
     [](const Scenario& s) { return s.run.gpuFailuresPerHour; },
     [](Scenario& s, double v) { s.run.gpuFailuresPerHour = v; }, 0},
    {"runCheckpointBandwidth", QT_TRANSLATE_NOOP("lp::ui::RunView", "Checkpoint write (GB/s per node)"),
     QT_TRANSLATE_NOOP("lp::ui::RunView", "How fast one node writes its part of a checkpoint to storage."),
     [](const Scenario& s) { return s.run.checkpointBandwidth / 1e9; },
     [](Scenario& s, double v) { s.run.checkpointBandwidth = v * 1e9; }, 1e-6},
    {"runRestart", QT_TRANSLATE_NOOP("lp::ui::RunView", "Restart (s)"),
     QT_TRANSLATE_NOOP("lp::ui::RunView", "From a failure to training again: rescheduling, loading the "
                                          "checkpoint, warming up."),
     [](const Scenario& s) { return s.run.restartSeconds; },
     [](Scenario& s, double v) { s.run.restartSeconds = v; }, 0},
    {"runDeadline", QT_TRANSLATE_NOOP("lp::ui::RunView", "Deadline (days)"),
     QT_TRANSLATE_NOOP("lp::ui::RunView", "A diagnostic warns when the wall clock runs past it; 0: none."),
     [](const Scenario& s) { return s.run.deadlineDays; },
     [](Scenario& s, double v) { s.run.deadlineDays = v; }, 0},
};

constexpr TokenRule kRules[] = {TokenRule::Tokens,  TokenRule::ComputeOptimal, TokenRule::TokensPerParameter,
                                TokenRule::Compute, TokenRule::Days,           TokenRule::Money};

QString ruleName(TokenRule r) {
    QString name = qs(core::toString(r)).replace(QLatin1Char('_'), QLatin1Char(' '));
    name[0] = name[0].toUpper();
    return name;
}

// The number the rule reads, and where it lives in the scenario.
double ruleNumber(const Scenario& s) {
    switch (s.run.tokenRule) {
    case TokenRule::Tokens:
        return s.training.tokenBudget;
    case TokenRule::ComputeOptimal:
        return 0;
    case TokenRule::TokensPerParameter:
        return s.run.tokensPerParameter;
    case TokenRule::Compute:
        return s.run.computeBudgetFlops;
    case TokenRule::Days:
        return s.run.daysBudget;
    case TokenRule::Money:
        return s.run.moneyBudgetUsd;
    }
    return 0;
}

void setRuleNumber(Scenario& s, double v) {
    switch (s.run.tokenRule) {
    case TokenRule::Tokens:
        s.training.tokenBudget = v;
        break;
    case TokenRule::ComputeOptimal:
        break;
    case TokenRule::TokensPerParameter:
        s.run.tokensPerParameter = v;
        break;
    case TokenRule::Compute:
        s.run.computeBudgetFlops = v;
        break;
    case TokenRule::Days:
        s.run.daysBudget = v;
        break;
    case TokenRule::Money:
        s.run.moneyBudgetUsd = v;
        break;
    }
}

// A rule switched to with no value of its own gets the one that reproduces the current tokens.
void seedRuleValue(Scenario& s, const core::Plan& p) {
    const core::RunPlan& r = p.run;
    if (ruleNumber(s) > 0 || !p.valid)
        return;
    const double days = r.wallClockSeconds / 86400.0;
    switch (s.run.tokenRule) {
    case TokenRule::Compute:
        s.run.computeBudgetFlops = r.computeFlops;
        break;
    case TokenRule::Days:
        s.run.daysBudget = std::isfinite(days) ? std::round(days) : 0;
        break;
    case TokenRule::Money:
        s.run.moneyBudgetUsd = std::isfinite(r.costUsd) ? std::round(r.costUsd) : 0;
        break;
    default:
        break;
    }
}

QString numberText(double v) {
    return QString::number(v, 'g', 6);
}

} // namespace

RunView::RunView(ScenarioDocument* doc, QWidget* parent) : QWidget(parent), m_doc(doc) {
    setObjectName(QStringLiteral("runView"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(buildSettings());
    layout->addWidget(buildFigures());
    layout->addWidget(buildCharts(), 1);
    connect(m_doc, &ScenarioDocument::planChanged, this, &RunView::refresh);
    connect(m_doc, &ScenarioDocument::scenarioChanged, this, &RunView::refresh);
    refresh();
}

QWidget* RunView::buildSettings() {
    auto* box = new QWidget(this);
    auto* form = new QFormLayout(box);
    form->setRowWrapPolicy(QFormLayout::WrapLongRows);
    m_rule = new QComboBox(box);
    m_rule->setObjectName(QStringLiteral("runTokenRule"));
    for (TokenRule r : kRules)
        m_rule->addItem(ruleName(r), static_cast<int>(r));
    m_rule->setToolTip(
        tr("How the tokens to train are stated: a number, compute-optimal (20 per parameter), "
           "tokens per parameter, or the compute (FLOPs), days or dollars the run may spend."));
    m_ruleValue = new QLineEdit(box);
    m_ruleValue->setObjectName(QStringLiteral("runRuleValue"));
    m_ruleValue->setValidator(new QDoubleValidator(0, 1e30, 6, m_ruleValue));
    m_ruleValue->setToolTip(tr("The rule's number: tokens, tokens per parameter, FLOPs, days or US dollars "
                               "(2e12 and 2000000000000 both work)."));
    auto* ruleRow = new QHBoxLayout;
    ruleRow->addWidget(m_rule);
    ruleRow->addWidget(m_ruleValue, 1);
    form->addRow(tr("Token budget"), ruleRow);
    connect(m_rule, &QComboBox::activated, this, [this] {
        Scenario next = m_doc->scenario();
        next.run.tokenRule = static_cast<TokenRule>(m_rule->currentData().toInt());
        if (next.run.tokenRule == m_doc->scenario().run.tokenRule)
            return;
        seedRuleValue(next, m_doc->shownPlan());
        m_doc->edit(next, tr("Token rule: %1").arg(m_rule->currentText()));
    });
    connect(m_ruleValue, &QLineEdit::editingFinished, this, &RunView::commitRuleValue);
    for (int i = 0; i < static_cast<int>(std::size(kFields)); ++i) {
        const RunField& f = kFields[i];
        auto* edit = new QLineEdit(box);
        edit->setObjectName(QString::fromLatin1(f.id));
        edit->setValidator(new QDoubleValidator(f.minimum, 1e30, 9, edit));
        edit->setToolTip(tr(f.toolTip));
        form->addRow(tr(f.label), edit);
        m_fields.push_back({edit, i});
        connect(edit, &QLineEdit::editingFinished, this,
                [this, field = m_fields.back()] { commitField(field); });
    }
    m_async = new QCheckBox(tr("Asynchronous checkpoints"), box);
    m_async->setObjectName(QStringLiteral("runAsyncCheckpoint"));
    m_async->setToolTip(tr("Checkpoints copied to host memory and written in the background "
                           "(torch.distributed.checkpoint async_save, Megatron-LM --async-save): training "
                           "pauses only for the copy."));
    form->addRow(QString(), m_async);
    connect(m_async, &QCheckBox::toggled, this, [this](bool on) {
        if (on == m_doc->scenario().run.asyncCheckpoint)
            return;
        Scenario next = m_doc->scenario();
        next.run.asyncCheckpoint = on;
        m_doc->edit(next, on ? tr("Asynchronous checkpoints") : tr("Synchronous checkpoints"));
    });
    return box;
}

QWidget* RunView::buildFigures() {
    auto* box = new QWidget(this);
    auto* flow = new FlowLayout(box, 8, 8);
    const auto cards = core::report::runCards(m_doc->shownPlan());
    for (std::size_t i = 0; i < cards.size(); ++i) {
        const core::report::RunCard& card = cards[i];
        const auto e = core::explainFigure(m_doc->shownScenario(), m_doc->shownPlan(), card.key);
        auto* f = new FigureLabel(qs(card.caption), QStringLiteral("run_%1").arg(i), qs(card.key),
                                  e ? qs(e->words) : QString(), box);
        relayExplanations(f, this);
        flow->addWidget(f);
        m_figures.push_back(f);
    }
    fitFigures();
    return box;
}

// Each card wide enough for its caption and a typical value, in the current font (presentation mode's
// large one included): nothing is clipped.
void RunView::fitFigures() {
    for (FigureLabel* f : m_figures)
        f->setMinimumWidth(
            std::max(f->comfortableWidth(), f->fontMetrics().horizontalAdvance(f->caption()) + 24));
}

void RunView::changeEvent(QEvent* event) {
    // After the cards themselves took the new font.
    if (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange)
        QTimer::singleShot(0, this, &RunView::fitFigures);
    QWidget::changeEvent(event);
}

QWidget* RunView::buildCharts() {
    auto* box = new QWidget(this);
    auto* layout = new QVBoxLayout(box);
    m_lossChart = new QChart;
    applyChartTheme(m_lossChart, palette());
    m_lossChart->setTitle(tr("Predicted loss against tokens"));
    m_lossCurve = new QLineSeries(m_lossChart);
    m_lossCurve->setName(tr("This model"));
    m_chosen = new QScatterSeries(m_lossChart);
    m_chosen->setName(tr("Chosen budget"));
    m_optimal = new QScatterSeries(m_lossChart);
    m_optimal->setName(tr("Compute-optimal (20 per parameter)"));
    for (QXYSeries* series : {static_cast<QXYSeries*>(m_lossCurve), static_cast<QXYSeries*>(m_chosen),
                              static_cast<QXYSeries*>(m_optimal)})
        m_lossChart->addSeries(series);
    auto* x = new QLogValueAxis(m_lossChart);
    x->setTitleText(tr("Tokens"));
    x->setLabelFormat(QStringLiteral("%.0e"));
    auto* y = new QValueAxis(m_lossChart);
    y->setTitleText(tr("Loss (nats/token)"));
    m_lossChart->addAxis(x, Qt::AlignBottom);
    m_lossChart->addAxis(y, Qt::AlignLeft);
    for (QAbstractSeries* series : m_lossChart->series()) {
        series->attachAxis(x);
        series->attachAxis(y);
    }
    auto* lossView = new QChartView(m_lossChart, box);
    lossView->setObjectName(QStringLiteral("runLossChart"));
    lossView->setMinimumHeight(240);
    layout->addWidget(lossView, 2);

    m_goodputChart = new QChart;
    applyChartTheme(m_goodputChart, palette());
    m_goodputChart->setTitle(tr("Wall clock: ideal and lost time (days)"));
    m_goodput = new QHorizontalStackedBarSeries(m_goodputChart);
    for (std::string_view label :
         {core::report::kIdealTimeLabel, core::report::kCheckpointTimeLabel, core::report::kFailureTimeLabel})
        m_goodput->append(new QBarSet(qs(label), m_goodput));
    m_goodputChart->addSeries(m_goodput);
    m_goodputChart->createDefaultAxes();
    auto* goodputView = new QChartView(m_goodputChart, box);
    goodputView->setObjectName(QStringLiteral("runGoodputChart"));
    goodputView->setMinimumHeight(150);
    layout->addWidget(goodputView, 1);
    return box;
}

FigureLabel* RunView::figure(const QString& key) const {
    for (FigureLabel* f : m_figures)
        if (f->explainKey() == key)
            return f;
    return nullptr;
}

void RunView::commitRuleValue() {
    bool ok = false;
    const double v = m_ruleValue->text().toDouble(&ok);
    Scenario next = m_doc->scenario();
    if (!ok || next.run.tokenRule == TokenRule::ComputeOptimal || v == ruleNumber(next))
        return;
    setRuleNumber(next, v);
    m_doc->edit(next, tr("Token budget: %1").arg(m_ruleValue->text()));
}

void RunView::commitField(const Field& field) {
    const RunField& f = kFields[field.index];
    bool ok = false;
    const double v = field.edit->text().toDouble(&ok);
    Scenario next = m_doc->scenario();
    if (!ok || v < f.minimum || v == f.get(next))
        return;
    f.set(next, v);
    m_doc->edit(next, tr("%1: %2").arg(tr(f.label), field.edit->text()));
}

void RunView::refreshSettings(const Scenario& s) {
    m_rule->setCurrentIndex(m_rule->findData(static_cast<int>(s.run.tokenRule)));
    m_ruleValue->setEnabled(s.run.tokenRule != TokenRule::ComputeOptimal);
    if (!m_ruleValue->hasFocus())
        m_ruleValue->setText(s.run.tokenRule == TokenRule::ComputeOptimal ? QString()
                                                                          : numberText(ruleNumber(s)));
    const QSignalBlocker quiet(m_async);
    m_async->setChecked(s.run.asyncCheckpoint);
    for (const Field& field : m_fields)
        if (!field.edit->hasFocus())
            field.edit->setText(numberText(kFields[field.index].get(s)));
}

void RunView::refresh() {
    const Scenario& s = m_doc->scenario();
    refreshSettings(s);
    const auto cards = core::report::runCards(m_doc->shownPlan());
    for (std::size_t i = 0; i < m_figures.size() && i < cards.size(); ++i)
        m_figures[i]->setValue(qs(cards[i].value), qs(cards[i].detail));
    refreshCharts();
}

void RunView::refreshCharts() {
    const core::RunPlan& r = m_doc->shownPlan().run;
    const auto curve = core::report::lossCurve(r);
    QList<QPointF> points;
    double lo = 1e9, hi = 0;
    for (const auto& pt : curve)
        if (std::isfinite(pt.loss)) {
            points.append({pt.tokens, pt.loss});
            lo = std::min(lo, pt.loss);
            hi = std::max(hi, pt.loss);
        }
    m_lossCurve->replace(points);
    m_chosen->replace(QList<QPointF>{{r.tokens, r.predictedLoss}});
    const double optimal = core::report::computeOptimalTokensForModel(r);
    m_optimal->replace(QList<QPointF>{
        {optimal, core::predictedLoss(core::scalingFit(r.lossFit), r.scalingParameters, optimal)}});
    if (!points.isEmpty()) {
        m_lossChart->axes(Qt::Horizontal).front()->setRange(points.front().x(), points.back().x());
        m_lossChart->axes(Qt::Vertical).front()->setRange(lo - 0.02, hi + 0.02);
    }
    const core::report::GoodputSplit g = core::report::goodputSplit(r);
    const QList<QBarSet*> sets = m_goodput->barSets();
    const double days[] = {g.idealDays, g.checkpointDays, g.failureDays};
    for (int i = 0; i < sets.size() && i < 3; ++i) {
        if (sets[i]->count() == 0)
            sets[i]->append(days[i]);
        else
            sets[i]->replace(0, days[i]);
    }
    if (const auto axes = m_goodputChart->axes(Qt::Horizontal); !axes.isEmpty())
        axes.front()->setRange(0, std::max(1.0, g.wallClockDays()));
}

} // namespace lp::ui
