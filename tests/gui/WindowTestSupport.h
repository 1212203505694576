#pragma once
// The planner window as the GUI tests that drive it open and close it: fresh settings, the default
// scenario, 1600 x 1000, scripted answers to every question, autosave in the test's folder.
#include "GuiTestSupport.h"
#include "ui/document/ScenarioDocument.h"
#include "ui/shell/FileController.h"
#include "ui/shell/MainWindow.h"
#include "ui/shell/PlannerWindow.h"

#include <QUndoStack>

#include <memory>

namespace lp::test {

// Scripted answers, 1600 x 1000, started on the default scenario (or the last one, when settings persist).
inline void startTestWindow(ui::MainWindow& window, ScriptedPrompter** prompter = nullptr) {
    auto scripted = std::make_unique<ScriptedPrompter>();
    if (prompter)
        *prompter = scripted.get();
    window.files()->setPrompter(std::move(scripted));
    window.resize(1600, 1000);
    window.startup();
}

inline ui::WindowOptions quietOptions() {
    ui::WindowOptions options;
    options.persistentSettings = false;
    options.autosave = false;
    return options;
}

// A bare MainWindow (the Plan tab, the panels and the menus, no other tab) with cleared settings and
// autosave in `dir`. Shown and started; wait with QTest::qWaitForWindowExposed. *prompter, when asked
// for, is the window's scripted prompter.
inline std::unique_ptr<ui::MainWindow> openTestWindow(QTemporaryDir& dir,
                                                      ScriptedPrompter** prompter = nullptr) {
    QSettings().clear();
    ui::WindowOptions options;
    options.autosaveDirectory = dir.filePath(QStringLiteral("autosave"));
    auto window = std::make_unique<ui::MainWindow>(options);
    startTestWindow(*window, prompter);
    window->show();
    return window;
}

// Closes without questions (the document is marked clean first).
inline void closeTestWindow(std::unique_ptr<ui::MainWindow>& window) {
    if (!window)
        return;
    window->document()->undoStack()->setClean();
    window->close();
    window.reset();
}

// A bare MainWindow (the Plan tab, the panels and the menus, no other tab) that keeps no settings and
// no autosave, answers questions from a script, sized 1600 x 1000 and started on the default scenario;
// not shown yet.
inline std::unique_ptr<ui::MainWindow> makeQuietWindow() {
    auto window = std::make_unique<ui::MainWindow>(quietOptions());
    startTestWindow(*window);
    return window;
}

// makeQuietWindow as the program builds it (makePlannerWindow): every tab, menu and tool-bar button, for
// screenshots and size checks.
inline std::unique_ptr<ui::MainWindow> makeFullQuietWindow() {
    auto window = ui::makePlannerWindow(quietOptions());
    startTestWindow(*window);
    return window;
}

// makeFullQuietWindow, shown; wait with QTest::qWaitForWindowExposed. The Explore and Compare tests drive
// their tabs in it.
inline std::unique_ptr<ui::MainWindow> openExploreWindow() {
    auto window = makeFullQuietWindow();
    window->show();
    return window;
}

} // namespace lp::test
