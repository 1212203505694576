#include "ui/timeline/TimelineStyle.h"

#include "ui/widgets/Format.h"

#include <QCoreApplication>

namespace lp::ui {
namespace {
using core::TimelineKind;

QString tr(const char* text) {
    return QCoreApplication::translate("lp::ui::TimelineStyle", text);
}

// What the event's duration is made of, in the plan's own words (the explanation behind it says how).
QString figureBehind(TimelineKind kind) {
    switch (kind) {
    case TimelineKind::Forward:
        return tr(
            "One micro batch's forward through this stage: its share of the plan's compute time per micro "
            "batch and stage.");
    case TimelineKind::Backward:
        return tr("One micro batch's backward through this stage (about twice its forward).");
    case TimelineKind::BackwardWeight:
        return tr("The weight-gradient half of the backward, moved into the bubble (zero-bubble schedule).");
    case TimelineKind::Recompute:
        return tr("The forward re-run before the backward, as the recompute setting asks.");
    case TimelineKind::PipelineSend:
        return tr("Activations or gradients sent point to point to the next stage.");
    case TimelineKind::LayerComm:
        return tr("Tensor, context or expert parallel communication inside the layers that nothing hides.");
    case TimelineKind::DataParallel:
        return tr("The data-parallel gradient reduction, overlapped with the backward.");
    case TimelineKind::DataParallelExposed:
        return tr("The data-parallel reduction's tail that no backward hides.");
    case TimelineKind::Optimizer:
        return tr("The optimizer step over this stage's parameters.");
    case TimelineKind::Loader:
        return tr("Waiting for the data loader.");
    case TimelineKind::Host:
        return tr("Host overhead: kernel launches not hidden behind GPU work.");
    case TimelineKind::Straggler:
        return tr("Waiting for the slowest data-parallel replica.");
    case TimelineKind::Idle:
        return tr("The pipeline bubble: this rank waits for a neighbour, (p - 1) / (v x m) of the ideal time "
                  "in all.");
    }
    return {};
}
} // namespace

TimeComponent timelineComponent(TimelineKind kind) {
    switch (kind) {
    case TimelineKind::Forward:
    case TimelineKind::Backward:
    case TimelineKind::BackwardWeight:
        return TimeComponent::Compute;
    case TimelineKind::Recompute:
        return TimeComponent::Recompute;
    case TimelineKind::PipelineSend:
        return TimeComponent::PpComm;
    case TimelineKind::LayerComm:
        return TimeComponent::TpComm;
    case TimelineKind::DataParallel:
    case TimelineKind::DataParallelExposed:
        return TimeComponent::DpExposed;
    case TimelineKind::Optimizer:
        return TimeComponent::Optimizer;
    case TimelineKind::Loader:
        return TimeComponent::Loader;
    case TimelineKind::Host:
        return TimeComponent::Overhead;
    case TimelineKind::Straggler:
        return TimeComponent::Straggler;
    case TimelineKind::Idle:
        return TimeComponent::Bubble;
    }
    return TimeComponent::Compute;
}

QColor timelineColor(TimelineKind kind) {
    const QColor base = palette::time(timelineComponent(kind));
    switch (kind) {
    case TimelineKind::Backward:
        return base.darker(135);
    case TimelineKind::BackwardWeight:
        return base.darker(165);
    case TimelineKind::DataParallel:
        return base.lighter(135);
    default:
        return base;
    }
}

QString timelineKindName(TimelineKind kind) {
    switch (kind) {
    case TimelineKind::Forward:
        return tr("Forward");
    case TimelineKind::Backward:
        return tr("Backward");
    case TimelineKind::BackwardWeight:
        return tr("Backward (weights)");
    case TimelineKind::Recompute:
        return tr("Recompute");
    case TimelineKind::PipelineSend:
        return tr("Pipeline send");
    case TimelineKind::LayerComm:
        return tr("Layer communication");
    case TimelineKind::DataParallel:
        return tr("Data-parallel reduction (overlapped)");
    case TimelineKind::DataParallelExposed:
        return tr("Data-parallel reduction (exposed)");
    case TimelineKind::Optimizer:
        return tr("Optimizer step");
    case TimelineKind::Loader:
        return tr("Data loader");
    case TimelineKind::Host:
        return tr("Host overhead");
    case TimelineKind::Straggler:
        return tr("Straggler wait");
    case TimelineKind::Idle:
        return tr("Idle (bubble)");
    }
    return {};
}

QString timelineExplainKey(TimelineKind kind) {
    if (kind == TimelineKind::Idle)
        return QStringLiteral("bubble_fraction");
    return timeExplainKey(timelineComponent(kind));
}

QString timelineEventText(const core::TimelineEvent& event, const core::Timeline& timeline) {
    QString head = timelineKindName(event.kind);
    if (event.microBatch >= 0)
        head += tr(" of micro batch %1 of %2").arg(event.microBatch + 1).arg(timeline.microBatches);
    if (event.chunk >= 0 && timeline.virtualStages > 1)
        head += tr(", chunk %1 of %2").arg(event.chunk + 1).arg(timeline.virtualStages);
    QString text = QStringLiteral("<b>%1</b><br>").arg(head.toHtmlEscaped());
    text += tr("Pipeline rank %1 of %2").arg(event.rank).arg(timeline.pipelineRanks) + QStringLiteral("<br>");
    text += tr("%1, from %2 to %3")
                .arg(formatSeconds(event.seconds), formatSeconds(event.startSeconds),
                     formatSeconds(event.endSeconds())) +
            QStringLiteral("<br>");
    text += QStringLiteral("<i>%1</i>").arg(figureBehind(event.kind).toHtmlEscaped());
    return text;
}

} // namespace lp::ui
