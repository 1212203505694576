#include "ui/scenario/LayoutSliders.h"

#include "ui/document/ScenarioDocument.h"
#include "ui/widgets/Format.h"
#include "ui/widgets/StepControl.h"

#include <QCheckBox>
#include <QComboBox>
#include <QGridLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>

namespace lp::ui {
namespace {

struct AxisText {
    core::LayoutAxis axis;
    const char* label;
    const char* tip;
};

// Labels and tooltips, translated where they are shown (tr()).
constexpr AxisText kAxes[] = {
    {.axis = core::LayoutAxis::Tp,
     .label = "&TP",
     .tip = "Tensor parallelism: each layer's matrices are split across this many GPUs, which all-reduce "
            "every layer (keep it inside the NVLink domain)."},
    {.axis = core::LayoutAxis::Pp,
     .label = "&PP",
     .tip = "Pipeline parallelism: the layers are cut into this many consecutive stages on different GPUs; "
            "it must divide the layer count."},
    {.axis = core::LayoutAxis::Dp,
     .label = "&DP",
     .tip = "Data parallelism: replicas of the model that each process different sequences and average their "
            "gradients."},
    {.axis = core::LayoutAxis::Cp,
     .label = "&CP",
     .tip = "Context parallelism: each sequence is split across this many GPUs (ring attention), for long "
            "contexts."},
    {.axis = core::LayoutAxis::Ep,
     .label = "&EP",
     .tip = "Expert parallelism: a mixture-of-experts layer's experts are spread over this many GPUs, carved "
            "out of DP x CP (or, with expert TP below TP, out of TP x CP x DP); MoE models only."},
    {.axis = core::LayoutAxis::Vpp,
     .label = "&Virtual stages",
     .tip = "Interleaved pipeline: each GPU holds this many non-adjacent chunks of layers, shrinking the "
            "bubble at the cost of more point-to-point traffic."},
    {.axis = core::LayoutAxis::MicroBatch,
     .label = "&Micro batch",
     .tip = "Sequences per micro batch on each pipeline: larger ones run GEMMs more efficiently but hold "
            "more activations."},
    {.axis = core::LayoutAxis::Accumulation,
     .label = "&Accumulation",
     .tip = "Gradient accumulation: micro batches per optimizer step; more of them shrink the pipeline "
            "bubble and grow the effective batch."},
};

} // namespace

LayoutSliders::LayoutSliders(ScenarioDocument* doc, QWidget* parent)
    : QWidget(parent), m_doc(doc), m_keep(new QCheckBox(tr("&Keep GPU count"), this)),
      m_holdBatch(new QCheckBox(tr("Hold the global batch"), this)), m_summary(new QLabel(this)),
      m_etp(new QComboBox(this)) {
    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->setHorizontalSpacing(8);
    grid->setVerticalSpacing(4);
    int row = 0;
    for (const AxisText& a : kAxes) {
        const auto i = static_cast<std::size_t>(a.axis);
        auto* control = new StepControl(this, core::axisMaximum(a.axis));
        auto* label = new QLabel(tr(a.label), this);
        label->setBuddy(control->spinBox());
        label->setToolTip(tr(a.tip));
        control->setToolTip(tr(a.tip));
        control->slider()->setObjectName(QStringLiteral("slider_") +
                                         qs(core::axisName(a.axis)).remove(QLatin1Char(' ')));
        control->spinBox()->setObjectName(QStringLiteral("spin_") +
                                          qs(core::axisName(a.axis)).remove(QLatin1Char(' ')));
        control->slider()->setAccessibleName(qs(core::axisName(a.axis)));
        control->spinBox()->setAccessibleName(qs(core::axisName(a.axis)));
        grid->addWidget(label, row, 0);
        grid->addWidget(control->slider(), row, 1);
        grid->addWidget(control->spinBox(), row, 2);
        const core::LayoutAxis axis = a.axis;
        connect(control, &StepControl::valueEdited, this, [this, axis](int value, bool interactive) {
            m_doc->setLayoutValue(axis, value, interactive);
        });
        connect(control, &StepControl::interactionFinished, m_doc, &ScenarioDocument::endInteraction);
        m_controls[i] = control;
        m_labels[i] = label;
        ++row;
        if (a.axis == core::LayoutAxis::Ep) {
            // The experts' own tensor parallelism, right under EP: a choice among the values that fit.
            m_etpLabel = new QLabel(tr("E&xpert TP"), this);
            m_etpLabel->setBuddy(m_etp);
            m_etpTip =
                tr("Expert tensor parallelism (MoE): how many GPUs split each expert. The expert layers "
                   "regroup the stage's TP x CP x DP GPUs as expert TP x EP x expert DP, so EP x expert TP "
                   "must divide TP x CP x DP. Auto: Megatron-Core's default (expert TP = TP) when EP divides "
                   "DP x CP, else the largest that fits; 1 keeps experts whole, lets EP span the TP ranks "
                   "and removes the TP collectives of the MLP half (Megatron-Core "
                   "--expert-tensor-parallel-size, torchtitan expert_tensor_parallel_degree).");
            m_etp->setObjectName(QStringLiteral("expertTp"));
            m_etp->setAccessibleName(tr("Expert TP"));
            grid->addWidget(m_etpLabel, row, 0);
            grid->addWidget(m_etp, row, 1, 1, 2);
            connect(m_etp, &QComboBox::activated, this, [this](int index) {
                core::Scenario next = m_doc->scenario();
                next.layout.etp = m_etp->itemData(index).toInt();
                if (next.layout.etp != m_doc->scenario().layout.etp)
                    m_doc->edit(next, tr("Expert TP"));
            });
            ++row;
        }
    }
    m_keep->setToolTip(tr("On: changing TP, PP or CP rebalances DP so that TP x PP x CP x DP stays equal to "
                          "the cluster's GPUs. Off: the cluster's node count follows the layout."));
    m_keep->setChecked(m_doc->keepGpuCount());
    connect(m_keep, &QCheckBox::toggled, this, [this](bool keep) {
        m_doc->setKeepGpuCount(keep);
        emit keepGpuCountToggled(keep);
    });
    grid->addWidget(m_keep, row++, 0, 1, 3);
    m_holdBatch->setObjectName(QStringLiteral("holdGlobalBatch"));
    m_holdBatch->setToolTip(tr("On: when TP, PP, CP, DP or the micro batch changes DP x micro batch, "
                               "accumulation follows so that micro batch x accumulation x DP stays the same "
                               "(where it divides). Off: the global batch changes with DP."));
    m_holdBatch->setChecked(m_doc->holdGlobalBatch());
    connect(m_holdBatch, &QCheckBox::toggled, this, [this](bool hold) {
        m_doc->setHoldGlobalBatch(hold);
        emit holdGlobalBatchToggled(hold);
    });
    grid->addWidget(m_holdBatch, row++, 0, 1, 3);
    m_summary->setTextFormat(Qt::PlainText);
    m_summary->setWordWrap(true); // a narrow panel wraps the sums instead of cutting them off
    m_summary->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_summary->setObjectName(QStringLiteral("layoutSummary"));
    m_summary->setToolTip(tr("GPUs the layout uses (TP x PP x CP x DP) and the effective batch (micro batch "
                             "x accumulation x DP)."));
    grid->addWidget(m_summary, row++, 0, 1, 3);
    grid->setColumnStretch(1, 1);

    connect(m_doc, &ScenarioDocument::scenarioChanged, this, &LayoutSliders::refresh);
    refresh();
}

void LayoutSliders::refresh() {
    const core::Scenario& s = m_doc->scenario();
    for (int i = 0; i < core::kLayoutAxisCount; ++i) {
        const auto axis = static_cast<core::LayoutAxis>(i);
        StepControl* c = m_controls[static_cast<std::size_t>(i)];
        c->setSteps(m_doc->steps(axis), core::layoutValue(s.layout, axis));
    }
    const bool keep = m_doc->keepGpuCount();
    {
        const QSignalBlocker block(m_keep);
        m_keep->setChecked(keep);
    }
    {
        const QSignalBlocker block(m_holdBatch);
        m_holdBatch->setChecked(m_doc->holdGlobalBatch());
    }
    control(core::LayoutAxis::Dp)->setReadOnly(keep);
    const QString dpTip = keep ? tr("DP follows from the cluster: GPUs / (TP x PP x CP). Turn off \"Keep GPU "
                                    "count\" to set it and let the cluster follow.")
                               : tr(kAxes[2].tip);
    control(core::LayoutAxis::Dp)->setToolTip(dpTip);
    // Every row stays shown; one that does not apply to this scenario is disabled and says why.
    const QString dense = s.model.isMoe() ? QString()
                                          : tr("Not used: %1 is a dense model, not a mixture of "
                                               "experts.")
                                                .arg(qs(s.model.name));
    showApplies(core::LayoutAxis::Ep, dense);
    refreshExpertTp(s, dense);
    showApplies(core::LayoutAxis::Vpp, s.layout.pp > 1 || s.layout.vpp > 1
                                           ? QString()
                                           : tr("Not used: interleaving needs a pipeline (PP above 1)."));

    const core::Layout& l = s.layout;
    const QString x = QStringLiteral(" × ");
    const QString gpus = QString::number(l.tp) + x + QString::number(l.pp) + x + QString::number(l.cp) + x +
                         QString::number(l.dp);
    const QString batch =
        QString::number(l.microBatch) + x + QString::number(l.accumulation) + x + QString::number(l.dp);
    QString text = tr("%1 GPUs = TP × PP × CP × DP = %2").arg(formatCount(l.gpus()), gpus);
    if (l.gpus() != s.cluster.gpus())
        text += tr(" (the cluster has %1)").arg(formatCount(s.cluster.gpus()));
    text += QLatin1Char('\n') +
            tr("Effective batch = %1 = %2 sequences").arg(batch, formatCount(l.effectiveBatch()));
    m_summary->setText(text);
}

// Enables an axis's row, or disables it with `whyNot` before its tooltip.
void LayoutSliders::showApplies(core::LayoutAxis axis, const QString& whyNot) {
    const auto i = static_cast<std::size_t>(axis);
    const QString tip = tr(kAxes[i].tip);
    const QString shown = whyNot.isEmpty() ? tip : whyNot + QStringLiteral("\n\n") + tip;
    m_controls[i]->setEnabled(whyNot.isEmpty());
    m_controls[i]->setToolTip(shown);
    m_labels[i]->setEnabled(whyNot.isEmpty());
    m_labels[i]->setToolTip(shown);
}

void LayoutSliders::refreshExpertTp(const core::Scenario& s, const QString& dense) {
    const core::Layout& l = s.layout;
    const bool moe = s.model.isMoe();
    const QSignalBlocker block(m_etp);
    m_etp->clear();
    const int resolved = core::expertTensorParallel(s);
    m_etp->addItem(moe && resolved > 0 ? tr("Auto (%1)").arg(resolved) : tr("Auto"), 0);
    for (int e = l.tp; e >= 1; --e) {
        const bool fits = core::expertTensorParallelFits(s, e);
        if (fits || e == l.etp)
            m_etp->addItem(fits ? (e == 1 ? tr("1 (whole experts)") : QString::number(e))
                                : tr("%1 (does not fit)").arg(e),
                           e);
    }
    if (l.etp > l.tp)
        m_etp->addItem(tr("%1 (does not fit)").arg(l.etp), l.etp);
    m_etp->setCurrentIndex(std::max(0, m_etp->findData(l.etp)));
    const QString whyNot = !dense.isEmpty() ? dense
                           : (l.tp > 1 || l.etp > 1)
                               ? QString()
                               : tr("Not used: with TP 1 every expert is whole on one GPU.");
    const QString shown = whyNot.isEmpty() ? m_etpTip : whyNot + QStringLiteral("\n\n") + m_etpTip;
    m_etp->setEnabled(whyNot.isEmpty());
    m_etp->setToolTip(shown);
    m_etpLabel->setEnabled(whyNot.isEmpty());
    m_etpLabel->setToolTip(shown);
}

} // namespace lp::ui
