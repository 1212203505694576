#pragma once
// The planner window as the GUI tests that drive it open and close it: fresh settings, the default
// scenario, 1600 x 1000, scripted answers to every question, autosave in the test's folder.
#include "GuiTestSupport.h"
#include "ui/document/ScenarioDocument.h"
#include "ui/shell/ExploreWiring.h"
#include "ui/shell/FileController.h"
#include "ui/shell/InteropWiring.h"
#include "ui/shell/MainWindow.h"
#include "ui/shell/TeachingWiring.h"
#include "ui/shell/ToolsWiring.h"

#include <QUndoStack>

#include <memory>

namespace lp::test {

// Shown and started; wait with QTest::qWaitForWindowExposed. *prompter, when asked for, is the
// window's scripted prompter.
inline std::unique_ptr<ui::MainWindow> openTestWindow(QTemporaryDir& dir,
                                                      ScriptedPrompter** prompter = nullptr) {
    QSettings().clear();
    ui::WindowOptions options;
    options.autosaveDirectory = dir.filePath(QStringLiteral("autosave"));
    auto window = std::make_unique<ui::MainWindow>(options);
    auto scripted = std::make_unique<ScriptedPrompter>();
    if (prompter)
        *prompter = scripted.get();
    window->files()->setPrompter(std::move(scripted));
    window->resize(1600, 1000);
    window->startup();
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

// A window that keeps no settings and no autosave, answers questions from a script, sized 1600 x 1000 and
// started on the default scenario; not shown yet, and with no tab beyond the Plan view.
inline std::unique_ptr<ui::MainWindow> makeQuietWindow() {
    ui::WindowOptions options;
    options.persistentSettings = false;
    options.autosave = false;
    auto window = std::make_unique<ui::MainWindow>(options);
    window->files()->setPrompter(std::make_unique<ScriptedPrompter>());
    window->resize(1600, 1000);
    window->startup();
    return window;
}

// makeQuietWindow with every tab, menu and tool-bar button the program installs (app/gui/main.cpp's order):
// the window as a user sees it, for screenshots and size checks.
inline std::unique_ptr<ui::MainWindow> makeFullQuietWindow() {
    auto window = makeQuietWindow();
    ui::ScenarioDocument& doc = *window->document();
    ui::installExploreTabs(*window, doc);
    ui::installToolTabs(*window, doc);
    ui::installInterop(*window, doc);
    ui::installTeaching(*window, doc);
    return window;
}

// A window that keeps no settings and no autosave, with the Explore, One axis and Compare tabs, at
// 1600 x 1000 and shown; wait with QTest::qWaitForWindowExposed.
inline std::unique_ptr<ui::MainWindow> openExploreWindow() {
    auto window = makeQuietWindow();
    ui::installExploreTabs(*window, *window->document());
    window->show();
    return window;
}

} // namespace lp::test
