#pragma once
// Core captions' figures as the rest of the screen prints them: the chosen memory unit, the locale's
// separators (ui/widgets/Format.h).
#include "core/search/FigureFormat.h"
#include "ui/widgets/Format.h"

namespace lp::ui {

core::FigureFormat screenFigureFormat(MemoryUnit unit);

} // namespace lp::ui
