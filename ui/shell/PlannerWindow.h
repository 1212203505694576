#pragma once
// The window as the program shows it: a MainWindow (the Plan tab, the scenario, diagnostics and
// explanation panels, the menus), then every other tab in order (WindowTabs), the File menu's exports
// and imports (ExportImportActions) and teaching mode (TeachingMode). app/gui/main.cpp and the GUI
// tests build it here.
#include "ui/shell/MainWindow.h"

#include <memory>

namespace lp::ui {

std::unique_ptr<MainWindow> makePlannerWindow(const WindowOptions& options = {});

} // namespace lp::ui
