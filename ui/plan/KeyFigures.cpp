#include "ui/plan/KeyFigures.h"

#include "ui/widgets/FigureLabel.h"

#include <QGridLayout>

namespace lp::ui {

KeyFigures::KeyFigures(QWidget* parent) : QWidget(parent) {
    add(tr("HFU"), QStringLiteral("hfu"), QStringLiteral("hfu"),
        tr("Hardware FLOPs utilization: like MFU, but also counting the FLOPs spent on recomputation."));
    add(tr("MFU by 6ND"), QStringLiteral("mfu_6nd"), QStringLiteral("mfu_6nd"),
        tr("The seed's yardstick: 6 x parameters x tokens per step, over the GPUs' peak FLOP/s for the step "
           "time."));
    add(tr("Model TFLOP/s per GPU"), QStringLiteral("model_tflops_per_gpu"),
        QStringLiteral("model_tflops_per_gpu"),
        tr("Model FLOPs each GPU achieves per second, against its dense 16-bit peak."));
    add(tr("Step time"), QStringLiteral("time.step"), QStringLiteral("time.step"),
        tr("Time of one optimizer step (all micro batches of all replicas)."));
    add(tr("Throughput"), QStringLiteral("tokens_per_s"), QStringLiteral("tokens_per_s"),
        tr("Tokens trained per second by the whole cluster."));
    add(tr("Effective batch"), QStringLiteral("effective_batch"), QStringLiteral("effective_batch"),
        tr("Sequences per optimizer step: micro batch x accumulation x DP."));
    add(tr("Training state"), QStringLiteral("training_state_bytes"), QStringLiteral("training_state_bytes"),
        tr("Weights, gradients and optimizer state of the whole model before sharding (about 16 bytes per "
           "parameter with mixed-precision Adam)."));
    add(tr("Time to train"), QStringLiteral("training_time"), QStringLiteral("gpu_hours"),
        tr("Wall-clock time to train on the token budget."));
    add(tr("GPU-hours"), QStringLiteral("gpu_hours"), QStringLiteral("gpu_hours"),
        tr("GPU-hours for the token budget: GPUs x time to train."));

    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->setSpacing(6);
    arrange(3);
}

void KeyFigures::arrange(int columns) {
    if (columns == m_columns)
        return;
    m_columns = columns;
    auto* grid = static_cast<QGridLayout*>(layout());
    for (FigureLabel* f : m_figures)
        grid->removeWidget(f);
    for (std::size_t i = 0; i < m_figures.size(); ++i)
        grid->addWidget(m_figures[i], static_cast<int>(i) / columns, static_cast<int>(i) % columns);
    for (int c = 0; c < 3; ++c)
        grid->setColumnStretch(c, c < columns ? 1 : 0);
    updateGeometry(); // the height changes with the rows
}

void KeyFigures::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    if (m_figures.empty())
        return;
    arrange(columnsFor(width()));
}

int KeyFigures::columnsFor(int width) const {
    if (m_figures.empty())
        return 1;
    const int tile = m_figures.front()->comfortableWidth();
    const int spacing = layout()->spacing();
    for (int columns = 3; columns > 1; --columns)
        if (width >= columns * tile + (columns - 1) * spacing)
            return columns;
    return 1;
}

int KeyFigures::preferredWidth(int columns) const {
    if (m_figures.empty())
        return 0;
    return columns * m_figures.front()->comfortableWidth() + (columns - 1) * layout()->spacing();
}

QSize KeyFigures::minimumSizeHint() const {
    // One column of whole values; resizeEvent takes more where the width allows.
    return {preferredWidth(1), layout()->minimumSize().height()};
}

FigureLabel* KeyFigures::add(const QString& caption, const QString& id, const QString& key,
                             const QString& tip) {
    auto* f = new FigureLabel(caption, id, key, tip, this);
    connect(f, &FigureLabel::explainRequested, this, &KeyFigures::explainRequested);
    m_figures.push_back(f);
    return f;
}

FigureLabel* KeyFigures::figure(const QString& id) const {
    for (FigureLabel* f : m_figures)
        if (f->id() == id)
            return f;
    return nullptr;
}

void KeyFigures::setActiveKey(const QString& key) {
    for (FigureLabel* f : m_figures)
        f->setActive(f->explainKey() == key);
}

void KeyFigures::setPlan(const core::Scenario& s, const core::Plan& plan, bool stale) {
    m_scenario = s;
    m_plan = plan;
    m_stale = stale;
    refresh();
}

void KeyFigures::setUnit(MemoryUnit unit) {
    m_unit = unit;
    refresh();
}

void KeyFigures::refresh() {
    const core::Plan& p = m_plan;
    const core::Layout& l = p.layout;
    const double gpus = static_cast<double>(l.gpus());
    figure(QStringLiteral("hfu"))->setValue(formatPercent(p.hfu), tr("incl. recompute FLOPs"));
    figure(QStringLiteral("mfu_6nd"))
        ->setValue(formatPercent(p.mfu6nd), tr("6·N·D with N = %1").arg(formatLarge(p.params.total)));
    figure(QStringLiteral("model_tflops_per_gpu"))
        ->setValue(formatNumber(p.modelTflopsPerGpu, 0) + tr(" TFLOP/s"),
                   tr("of %1 peak").arg(formatNumber(p.intermediates.peakFlops / 1e12, 0)));
    figure(QStringLiteral("time.step"))
        ->setValue(formatSeconds(p.time.stepSeconds),
                   tr("%1 micro batches").arg(formatNumber(p.intermediates.microbatches, 0)));
    figure(QStringLiteral("tokens_per_s"))
        ->setValue(formatTokensPerSecond(p.tokensPerSecond),
                   tr("%1 per GPU").arg(formatNumber(p.tokensPerSecondPerGpu, 0)));
    figure(QStringLiteral("effective_batch"))
        ->setValue(tr("%1 × %2 × %3 = %4")
                       .arg(formatCount(l.microBatch), formatCount(l.accumulation), formatCount(l.dp),
                            formatCount(p.effectiveBatchSequences)),
                   tr("mb × acc × DP sequences\n%1 tokens per step")
                       .arg(formatCount(static_cast<long long>(p.tokensPerStep))));
    figure(QStringLiteral("training_state_bytes"))
        ->setValue(formatBytes(p.trainingStateBytes, m_unit, 0),
                   tr("%1 B/param, unsharded").arg(formatNumber(p.intermediates.bytesPerParamState, 0)));
    figure(QStringLiteral("training_time"))
        ->setValue(formatDuration(p.trainingSeconds), tr("%1 tokens, %2 GPUs")
                                                          .arg(formatLarge(m_scenario.training.tokenBudget),
                                                               formatCount(static_cast<long long>(gpus))));
    figure(QStringLiteral("gpu_hours"))->setValue(formatNumber(p.gpuHours, 0), tr("for the token budget"));
}

} // namespace lp::ui
