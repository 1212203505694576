#include "ui/LayoutSliders.h"

#include "ui/Format.h"
#include "ui/ScenarioDocument.h"
#include "ui/StepControl.h"

#include <QCheckBox>
#include <QGridLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>

namespace lp::ui {
namespace {

struct AxisText {
    LayoutAxis axis;
    const char* label;
    const char* tip;
};

constexpr AxisText kAxes[] = {
    {LayoutAxis::Tp, QT_TRANSLATE_NOOP("lp::ui::LayoutSliders", "&TP"),
     QT_TRANSLATE_NOOP("lp::ui::LayoutSliders",
                       "Tensor parallelism: each layer's matrices are split across this many GPUs, which "
                       "all-reduce every layer (keep it inside the NVLink domain).")},
    {LayoutAxis::Pp, QT_TRANSLATE_NOOP("lp::ui::LayoutSliders", "&PP"),
     QT_TRANSLATE_NOOP("lp::ui::LayoutSliders",
                       "Pipeline parallelism: the layers are cut into this many consecutive stages on "
                       "different GPUs; it must divide the layer count.")},
    {LayoutAxis::Dp, QT_TRANSLATE_NOOP("lp::ui::LayoutSliders", "&DP"),
     QT_TRANSLATE_NOOP("lp::ui::LayoutSliders",
                       "Data parallelism: replicas of the model that each process different sequences "
                       "and average their gradients.")},
    {LayoutAxis::Cp, QT_TRANSLATE_NOOP("lp::ui::LayoutSliders", "&CP"),
     QT_TRANSLATE_NOOP("lp::ui::LayoutSliders",
                       "Context parallelism: each sequence is split across this many GPUs (ring attention), "
                       "for long contexts.")},
    {LayoutAxis::Ep, QT_TRANSLATE_NOOP("lp::ui::LayoutSliders", "&EP"),
     QT_TRANSLATE_NOOP("lp::ui::LayoutSliders",
                       "Expert parallelism: a mixture-of-experts layer's experts are spread over this many "
                       "GPUs of the DP x CP group (MoE models only).")},
    {LayoutAxis::Vpp, QT_TRANSLATE_NOOP("lp::ui::LayoutSliders", "&Virtual stages"),
     QT_TRANSLATE_NOOP("lp::ui::LayoutSliders",
                       "Interleaved pipeline: each GPU holds this many non-adjacent chunks of layers, "
                       "shrinking the bubble at the cost of more point-to-point traffic.")},
    {LayoutAxis::MicroBatch, QT_TRANSLATE_NOOP("lp::ui::LayoutSliders", "&Micro batch"),
     QT_TRANSLATE_NOOP("lp::ui::LayoutSliders",
                       "Sequences per micro batch on each pipeline: larger ones run GEMMs more efficiently "
                       "but hold more activations.")},
    {LayoutAxis::Accumulation, QT_TRANSLATE_NOOP("lp::ui::LayoutSliders", "&Accumulation"),
     QT_TRANSLATE_NOOP("lp::ui::LayoutSliders",
                       "Gradient accumulation: micro batches per optimizer step; more of them shrink the "
                       "pipeline bubble and grow the effective batch.")},
};

} // namespace

LayoutSliders::LayoutSliders(ScenarioDocument* doc, QWidget* parent)
    : QWidget(parent), m_doc(doc), m_keep(new QCheckBox(tr("&Keep GPU count"), this)), m_summary(new QLabel(this)) {
    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->setHorizontalSpacing(8);
    grid->setVerticalSpacing(4);
    int row = 0;
    for (const AxisText& a : kAxes) {
        const auto i = static_cast<std::size_t>(a.axis);
        auto* control = new StepControl(this, axisMaximum(a.axis));
        auto* label = new QLabel(tr(a.label), this);
        label->setBuddy(control->spinBox());
        label->setToolTip(tr(a.tip));
        control->setToolTip(tr(a.tip));
        control->slider()->setObjectName(QStringLiteral("slider_") + axisName(a.axis).remove(QLatin1Char(' ')));
        control->spinBox()->setObjectName(QStringLiteral("spin_") + axisName(a.axis).remove(QLatin1Char(' ')));
        control->slider()->setAccessibleName(axisName(a.axis));
        control->spinBox()->setAccessibleName(axisName(a.axis));
        grid->addWidget(label, row, 0);
        grid->addWidget(control->slider(), row, 1);
        grid->addWidget(control->spinBox(), row, 2);
        const LayoutAxis axis = a.axis;
        connect(control, &StepControl::valueEdited, this,
                [this, axis](int value, bool interactive) { m_doc->setLayoutValue(axis, value, interactive); });
        connect(control, &StepControl::interactionFinished, m_doc, &ScenarioDocument::endInteraction);
        m_controls[i] = control;
        m_labels[i] = label;
        ++row;
    }
    m_keep->setToolTip(tr("On: changing TP, PP or CP rebalances DP so that TP x PP x CP x DP stays equal to the "
                          "cluster's GPUs. Off: the cluster's node count follows the layout."));
    m_keep->setChecked(m_doc->keepGpuCount());
    connect(m_keep, &QCheckBox::toggled, this, [this](bool keep) {
        m_doc->setKeepGpuCount(keep);
        emit keepGpuCountToggled(keep);
    });
    grid->addWidget(m_keep, row++, 0, 1, 3);
    m_summary->setTextFormat(Qt::PlainText);
    m_summary->setWordWrap(true);  // a narrow panel wraps the sums instead of cutting them off
    m_summary->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_summary->setObjectName(QStringLiteral("layoutSummary"));
    m_summary->setToolTip(tr("GPUs the layout uses (TP x PP x CP x DP) and the effective batch "
                             "(micro batch x accumulation x DP)."));
    grid->addWidget(m_summary, row++, 0, 1, 3);
    grid->setColumnStretch(1, 1);

    connect(m_doc, &ScenarioDocument::scenarioChanged, this, &LayoutSliders::refresh);
    refresh();
}

void LayoutSliders::refresh() {
    const core::Scenario& s = m_doc->scenario();
    for (int i = 0; i < kLayoutAxisCount; ++i) {
        const auto axis = static_cast<LayoutAxis>(i);
        StepControl* c = m_controls[static_cast<std::size_t>(i)];
        c->setSteps(m_doc->steps(axis), layoutValue(s.layout, axis));
    }
    const bool keep = m_doc->keepGpuCount();
    {
        const QSignalBlocker block(m_keep);
        m_keep->setChecked(keep);
    }
    control(LayoutAxis::Dp)->setReadOnly(keep);
    const QString dpTip = keep ? tr("DP follows from the cluster: GPUs / (TP x PP x CP). Turn off \"Keep GPU "
                                    "count\" to set it and let the cluster follow.")
                               : tr(kAxes[2].tip);
    control(LayoutAxis::Dp)->setToolTip(dpTip);
    const bool moe = s.model.isMoe();
    control(LayoutAxis::Ep)->setEnabled(moe);
    m_labels[static_cast<std::size_t>(LayoutAxis::Ep)]->setEnabled(moe);
    control(LayoutAxis::Vpp)->setEnabled(s.layout.pp > 1 || s.layout.vpp > 1);
    m_labels[static_cast<std::size_t>(LayoutAxis::Vpp)]->setEnabled(s.layout.pp > 1 || s.layout.vpp > 1);

    const core::Layout& l = s.layout;
    const QString x = QStringLiteral(" × ");
    const QString gpus = QString::number(l.tp) + x + QString::number(l.pp) + x + QString::number(l.cp) + x +
                         QString::number(l.dp);
    const QString batch = QString::number(l.microBatch) + x + QString::number(l.accumulation) + x +
                          QString::number(l.dp);
    QString text = tr("%1 GPUs = TP × PP × CP × DP = %2").arg(formatCount(l.gpus()), gpus);
    if (l.gpus() != s.cluster.gpus())
        text += tr(" (the cluster has %1)").arg(formatCount(s.cluster.gpus()));
    text += QLatin1Char('\n') + tr("Effective batch = %1 = %2 sequences").arg(batch, formatCount(l.effectiveBatch()));
    m_summary->setText(text);
}

} // namespace lp::ui
