#include "ui/timeline/TimelineStyle.h"

#include "ui/widgets/Format.h"

#include <QCoreApplication>

#include <algorithm>

namespace lp::ui {
namespace {
using core::TimelineKind;

QString tr(const char* text) {
    return QCoreApplication::translate("lp::ui::TimelineStyle", text);
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
    case TimelineKind::BackwardWeight: { // the backward's other half: its shade, turned to teal to tell apart
        QColor weights = base.darker(135);
        weights.setHsv(175, weights.saturation(), std::min(255, weights.value() + 40));
        return weights;
    }
    case TimelineKind::DataParallel:
        return base.lighter(135);
    default:
        return base;
    }
}

QString timelineKindName(TimelineKind kind) {
    return qs(core::timelineKindTitle(kind));
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
    text += QStringLiteral("<i>%1</i><br>%2")
                .arg(qs(core::timelineKindMeaning(event.kind)).toHtmlEscaped(),
                     qs(core::timelineFormula(event.kind)).toHtmlEscaped());
    return text;
}

} // namespace lp::ui
