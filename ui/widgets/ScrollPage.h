#pragma once
// Tab pages that fit any window: the page's content sits in a frameless scroll area that fills the
// page, so a window smaller than the content (a 1366x768 laptop, a 1280x720 projector, presentation
// mode's large fonts) scrolls the page instead of growing past the screen or squeezing the docks.
class QWidget;

namespace lp::ui {

// Fills `page` with the scroll area and returns the widget to lay the page's content on. Widgets
// keep `page` as an ancestor, so findChild and the tabs' setCurrentWidget(page) work as before.
QWidget* scrollingContent(QWidget* page);

} // namespace lp::ui
