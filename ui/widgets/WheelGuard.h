#pragma once
// Scrolling a page must not change what the pointer happens to pass over. Inside a scroll area, a combo box,
// spin box or slider takes the mouse wheel only once it has the keyboard focus (a click or Tab gives it);
// until then the wheel scrolls the page around it, as in most desktop settings panels. The widgets keep
// every other input, and a focused one still steps with the wheel.
class QWidget;

namespace lp::ui {

// Installs the guard once for the whole application (later calls do nothing). The scenario panel and the
// tabs' scrolling pages call it; widgets outside any scroll area are left alone.
void installWheelGuard();

// Whether `w` is a value widget the guard holds back from the wheel: a combo box, spin box or slider inside
// a scroll area.
bool isWheelGuarded(const QWidget* w);

} // namespace lp::ui
