#pragma once
// How the timeline shows each kind of event: the step-time component it belongs to (its colour in every chart
// of the app and its explanation), its name, and the words a hover over one event says.
#include "core/estimate/Timeline.h"
#include "ui/widgets/Palette.h"

#include <QColor>
#include <QString>

namespace lp::ui {

// The step-time component an event's time is part of: forward and backward are compute, sends are pipeline
// communication, the bubble's idle is the bubble.
TimeComponent timelineComponent(core::TimelineKind kind);
// The component's colour; a backward is the compute colour darker, a hidden reduction lighter, so that
// neighbours in a lane read apart without a colour of their own.
QColor timelineColor(core::TimelineKind kind);
QString timelineKindName(core::TimelineKind kind); // "Forward", "Backward", ...
QString timelineExplainKey(core::TimelineKind kind);

// One hover line per event: what it is, micro batch, chunk, rank, start, duration, and the figure behind it.
QString timelineEventText(const core::TimelineEvent& event, const core::Timeline& timeline);

} // namespace lp::ui
