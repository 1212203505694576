#include "ui/shell/PlannerWindow.h"

#include "ui/shell/ExportImportActions.h"
#include "ui/shell/TeachingMode.h"
#include "ui/shell/WindowTabs.h"

namespace lp::ui {

std::unique_ptr<MainWindow> makePlannerWindow(const WindowOptions& options) {
    auto window = std::make_unique<MainWindow>(options);
    WindowTabs::install(*window);
    installExportImportActions(*window);
    TeachingMode::install(*window);
    return window;
}

} // namespace lp::ui
