#include "ui/run/RunView.h"

#include "core/estimate/Explain.h"
#include "core/io/RunJson.h"
#include "core/io/SettingsJson.h"
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
#include <QEvent>
#include <QFormLayout>
#include <QHorizontalStackedBarSeries>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QLocale>
#include <QLogValueAxis>
#include <QMainWindow>
#include <QRegularExpression>
#include <QScatterSeries>
#include <QSignalBlocker>
#include <QStatusBar>
#include <QTimer>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <optional>

namespace lp::ui {
namespace {

using core::RunOptions;
using core::Scenario;
using core::TokenRule;
namespace json = core::json;

// The run settings a person types, each a number of the scenario's 'run' object (docs/formats.md).
struct RunField {
    const char* id;
    const char* key; // in the scenario file's "run" object, whose limits the field keeps
    double scale;    // the file's unit per the field's (bytes/s per GB/s)
    const char* label;
    const char* toolTip;
    double (*get)(const Scenario&);
    void (*set)(Scenario&, double);
    // Where 0 means something else (the preset's price, no deadline): the field shows it empty, with this
    // as its placeholder, and an emptied field sets 0.
    const char* zeroMeans = nullptr;
};

constexpr RunField kFields[] = {
    {"runPrice", "price_per_gpu_hour_usd", 1,
     QT_TRANSLATE_NOOP("lp::ui::RunView", "Price per GPU-hour (USD)"),
     QT_TRANSLATE_NOOP("lp::ui::RunView",
                       "What one GPU-hour costs; left empty (0), the cluster or GPU preset's public "
                       "on-demand price (its source and date are in the Cost explanation)."),
     [](const Scenario& s) { return s.run.pricePerGpuHourUsd; },
     [](Scenario& s, double v) { s.run.pricePerGpuHourUsd = v; },
     QT_TRANSLATE_NOOP("lp::ui::RunView", "the preset's: %1")},
    {"runFailureRate", "gpu_failures_per_hour", 1,
     QT_TRANSLATE_NOOP("lp::ui::RunView", "Failures per GPU-hour"),
     QT_TRANSLATE_NOOP("lp::ui::RunView",
                       "Unexpected interruptions per GPU-hour; the default is Llama 3 405B's: "
                       "419 in 54 days on 16,384 H100."),
     [](const Scenario& s) { return s.run.gpuFailuresPerHour; },
     [](Scenario& s, double v) { s.run.gpuFailuresPerHour = v; }},
    {"runCheckpointBandwidth", "checkpoint_bandwidth_bytes_per_s", 1e9,
     QT_TRANSLATE_NOOP("lp::ui::RunView", "Checkpoint write (GB/s per node)"),
     QT_TRANSLATE_NOOP("lp::ui::RunView", "How fast one node writes its part of a checkpoint to storage."),
     [](const Scenario& s) { return s.run.checkpointBandwidth / 1e9; },
     [](Scenario& s, double v) { s.run.checkpointBandwidth = v * 1e9; }},
    {"runRestart", "restart_s", 1, QT_TRANSLATE_NOOP("lp::ui::RunView", "Restart (s)"),
     QT_TRANSLATE_NOOP("lp::ui::RunView", "From a failure to training again: rescheduling, loading the "
                                          "checkpoint, warming up."),
     [](const Scenario& s) { return s.run.restartSeconds; },
     [](Scenario& s, double v) { s.run.restartSeconds = v; }},
    {"runDeadline", "deadline_days", 1, QT_TRANSLATE_NOOP("lp::ui::RunView", "Deadline (days)"),
     QT_TRANSLATE_NOOP("lp::ui::RunView",
                       "A diagnostic warns when the wall clock runs past it; empty (0): none."),
     [](const Scenario& s) { return s.run.deadlineDays; },
     [](Scenario& s, double v) { s.run.deadlineDays = v; }, QT_TRANSLATE_NOOP("lp::ui::RunView", "none")},
};

// The loss chart's tokens are in billions.
constexpr double kTokensPerUnit = 1e9;

constexpr TokenRule kRules[] = {TokenRule::Tokens,  TokenRule::ComputeOptimal, TokenRule::TokensPerParameter,
                                TokenRule::Compute, TokenRule::Days,           TokenRule::Money};

QString ruleName(TokenRule r) {
    QString name = qs(core::toString(r)).replace(QLatin1Char('_'), QLatin1Char(' '));
    name[0] = name[0].toUpper();
    return name;
}

// The file key of the number the rule reads, whose limits the field keeps; nullptr for compute-optimal.
const json::DoubleRange* ruleRange(TokenRule r) {
    switch (r) {
    case TokenRule::Tokens:
        return core::trainingKeyRange("token_budget_tokens");
    case TokenRule::ComputeOptimal:
        return nullptr;
    case TokenRule::TokensPerParameter:
        return core::runKeyRange("tokens_per_parameter");
    case TokenRule::Compute:
        return core::runKeyRange("compute_budget_flops");
    case TokenRule::Days:
        return core::runKeyRange("days_budget");
    case TokenRule::Money:
        return core::runKeyRange("usd_budget");
    }
    return nullptr;
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

// A number as a field shows it: a whole one with thousands separators ("2,000,000,000,000" tokens), others
// to six significant digits with a short exponent where one is needed ("1.97328e-5").
QString numberText(double v) {
    if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 1e15)
        return QLocale(QLocale::English).toString(static_cast<qlonglong>(v));
    QString text = QString::number(v, 'g', 6);
    static const QRegularExpression longExponent(QStringLiteral("e\\+?(-?)0*(\\d)"));
    return text.replace(longExponent, QStringLiteral("e\\1\\2"));
}

// A typed number: thousands separators, spaces and underscores are left out ("2,000,000", "2 000", "2e12").
std::optional<double> typedNumber(QString text) {
    text.remove(QLatin1Char(',')).remove(QLatin1Char('_')).remove(QLatin1Char(' '));
    bool ok = false;
    const double v = QLocale::c().toDouble(text, &ok);
    return ok && std::isfinite(v) ? std::optional<double>(v) : std::nullopt;
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
    m_ruleValue->setToolTip(tr("The rule's number: tokens, tokens per parameter, FLOPs, days or US dollars "
                               "(2e12, 2,000,000,000,000 and 2000000000000 all work)."));
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
    x->setTitleText(tr("Tokens (billions)")); // "100", "1000", not "1e+11", "1e+12"
    x->setLabelFormat(QStringLiteral("%g"));
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
    Scenario next = m_doc->scenario();
    if (next.run.tokenRule == TokenRule::ComputeOptimal)
        return;
    const QString typed = m_ruleValue->text().trimmed();
    const std::optional<double> v = typedNumber(typed);
    if (typed.isEmpty()) { // an emptied field keeps its value: nothing was typed to refuse
        m_ruleValue->setText(numberText(ruleNumber(next)));
        return;
    }
    if (typed == numberText(ruleNumber(next)))
        return; // as shown: the value it shows, perhaps rounded, stays exact
    // A budget of 0 is no budget: above 0, and within what the file takes.
    json::DoubleRange range = {0, false, std::numeric_limits<double>::max(), true};
    if (const json::DoubleRange* r = ruleRange(next.run.tokenRule))
        range = {std::max(r->lo, 0.0), r->lo > 0 && r->loInclusive, r->hi, r->hiInclusive};
    if (!v || !range.contains(*v)) {
        refuse(m_ruleValue, tr("Token budget"), typed, v, range, 1, numberText(ruleNumber(next)));
        return;
    }
    if (*v == ruleNumber(next))
        return;
    setRuleNumber(next, *v);
    m_doc->edit(next, tr("Token budget: %1").arg(numberText(*v)));
}

void RunView::commitField(const Field& field) {
    const RunField& f = kFields[field.index];
    Scenario next = m_doc->scenario();
    const QString typed = field.edit->text().trimmed();
    std::optional<double> v = typedNumber(typed);
    if (typed.isEmpty()) {
        if (!f.zeroMeans) { // an emptied field keeps its value: nothing was typed to refuse
            field.edit->setText(shownValue(field));
            return;
        }
        v = 0.0;
    } else if (typed == shownValue(field)) {
        return; // as shown: the value it shows, perhaps rounded, stays exact
    }
    const json::DoubleRange* range = core::runKeyRange(f.key);
    if (!v || !range || !range->contains(*v * f.scale)) {
        refuse(field.edit, tr(f.label), typed, v, range ? *range : json::DoubleRange{}, f.scale,
               shownValue(field));
        return;
    }
    if (*v == f.get(next))
        return;
    f.set(next, *v);
    m_doc->edit(next, tr("%1: %2").arg(tr(f.label), numberText(*v)));
}

// What a field shows for its value: the number, or what 0 means in words.
QString RunView::shownValue(const Field& field) const {
    const RunField& f = kFields[field.index];
    const double v = f.get(m_doc->scenario());
    return v == 0 && f.zeroMeans ? field.edit->placeholderText() : numberText(v);
}

// A typed value the field cannot take is said in the status bar and beside the field, which shows its value
// again: "Price per GPU-hour (USD): -1 is below 0; it stays 2.5." The limits are the scenario file's
// (`range`, in the file's unit: `scale` of it per the field's unit).
void RunView::refuse(QLineEdit* edit, const QString& label, const QString& typed, std::optional<double> value,
                     const json::DoubleRange& range, double scale, const QString& kept) {
    QString why;
    if (!value)
        why = tr("\"%1\" is not a number").arg(typed);
    else if (*value * scale > range.hi || (*value * scale == range.hi && !range.hiInclusive))
        why = tr("%1 is more than the most it takes, %2").arg(typed, numberText(range.hi / scale));
    else
        why = range.loInclusive ? tr("%1 is below %2").arg(typed, numberText(range.lo / scale))
                                : tr("%1 is not above %2").arg(typed, numberText(range.lo / scale));
    const QString message = tr("%1: %2; it stays %3.").arg(label, why, kept);
    m_lastRefusal = message;
    if (auto* window = qobject_cast<QMainWindow*>(this->window()))
        window->statusBar()->showMessage(message, 8000);
    if (edit->isVisible())
        QToolTip::showText(edit->mapToGlobal(QPoint(0, edit->height())), message, edit);
    edit->setText(edit == m_ruleValue ? numberText(ruleNumber(m_doc->scenario())) : kept);
    if (edit != m_ruleValue && edit->text() == edit->placeholderText())
        edit->clear();
}

void RunView::refreshSettings(const Scenario& s) {
    m_rule->setCurrentIndex(m_rule->findData(static_cast<int>(s.run.tokenRule)));
    m_ruleValue->setEnabled(s.run.tokenRule != TokenRule::ComputeOptimal);
    if (!m_ruleValue->hasFocus())
        m_ruleValue->setText(s.run.tokenRule == TokenRule::ComputeOptimal ? QString()
                                                                          : numberText(ruleNumber(s)));
    const QSignalBlocker quiet(m_async);
    m_async->setChecked(s.run.asyncCheckpoint);
    for (const Field& field : m_fields) {
        const RunField& f = kFields[field.index];
        if (f.zeroMeans) {
            QString meaning = tr(f.zeroMeans);
            if (meaning.contains(QLatin1String("%1"))) { // the price: the preset's, if it has one
                const double preset = m_doc->shownPlan().run.pricePerGpuHourUsd;
                meaning = preset > 0 ? meaning.arg(numberText(preset)) : tr("no preset price");
            }
            field.edit->setPlaceholderText(meaning);
        }
        if (field.edit->hasFocus())
            continue;
        const double v = f.get(s);
        field.edit->setText(v == 0 && f.zeroMeans ? QString() : numberText(v));
    }
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
            points.append({pt.tokens / kTokensPerUnit, pt.loss});
            lo = std::min(lo, pt.loss);
            hi = std::max(hi, pt.loss);
        }
    m_lossCurve->replace(points);
    m_chosen->replace(QList<QPointF>{{r.tokens / kTokensPerUnit, r.predictedLoss}});
    const double optimal = core::report::computeOptimalTokensForModel(r);
    m_optimal->replace(
        QList<QPointF>{{optimal / kTokensPerUnit,
                        core::predictedLoss(core::scalingFit(r.lossFit), r.scalingParameters, optimal)}});
    if (!points.isEmpty()) {
        m_lossChart->axes(Qt::Horizontal).front()->setRange(points.front().x(), points.back().x());
        QAbstractAxis* lossAxis = m_lossChart->axes(Qt::Vertical).front();
        lossAxis->setRange(lo - 0.02, hi + 0.02);
        if (auto* values = qobject_cast<QValueAxis*>(lossAxis))
            values->applyNiceNumbers(); // ticks at 1.85, 1.90, ... rather than 1.831, 1.900, 1.969
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
