#pragma once
// The planner window's commands: the File, Edit, View, Tools, Learn and Help menus and the main tool
// bar (New, Open, Save, Undo, Redo, the memory unit). The tabs, the exports and teaching mode add their
// own entries and buttons to these.
#include "ui/widgets/Format.h"

#include <QObject>
#include <QPointer>

class QAction;
class QActionGroup;
class QMenu;
class QToolBar;
class QEvent;

namespace lp::ui {

class MainWindow;
class ShortcutsDialog;
class UserGuideViewer;

class WindowMenus : public QObject {
    Q_OBJECT
public:
    // Builds the menus and the tool bar into `window`, whose panels and file controller exist already.
    explicit WindowMenus(MainWindow& window);

    QMenu* fileMenu() const { return m_fileMenu; }
    QMenu* toolsMenu() const { return m_toolsMenu; }
    QMenu* learnMenu() const { return m_learnMenu; }
    QToolBar* toolBar() const { return m_toolBar; }
    QAction* undoAction() const { return m_undo; }
    QAction* redoAction() const { return m_redo; }

    // A tool-bar button that leads to a tab or a dialog (Explore, Export): after Undo/Redo, before the
    // memory unit, in the order they are added.
    void addToolButton(QAction* action);

    QAction* userGuideAction() const { return m_userGuide; }
    QAction* shortcutsAction() const { return m_shortcuts; }
    // Help > User Guide and Help > Keyboard Shortcuts (each window made once, shown again after).
    void showUserGuide();
    void showShortcuts();

protected:
    // Keeps Quit the last entry of the File menu whatever is added to the menu later.
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void createFileActions();
    void createEditActions();
    void createUnitActions();
    void createFileMenu();
    void createEditMenu();
    void createViewMenu();
    void createToolsMenu();
    void createLearnMenu();
    void createHelpMenu();
    void createToolBar();
    void addUndoRedoButtons();
    void showUnit(MemoryUnit unit);

    MainWindow& m_window;
    QAction* m_new = nullptr;
    QAction* m_open = nullptr;
    QAction* m_save = nullptr;
    QAction* m_saveAs = nullptr;
    QAction* m_quit = nullptr;
    QAction* m_quitSeparator = nullptr;
    QAction* m_userGuide = nullptr;
    QAction* m_shortcuts = nullptr;
    QPointer<UserGuideViewer> m_guideViewer;
    QPointer<ShortcutsDialog> m_shortcutsDialog;
    QAction* m_undo = nullptr;
    QAction* m_redo = nullptr;
    QAction* m_keepGpus = nullptr;
    QActionGroup* m_units = nullptr;
    QAction* m_unitGB = nullptr;
    QAction* m_unitGiB = nullptr;
    QMenu* m_fileMenu = nullptr;
    QMenu* m_toolsMenu = nullptr;
    QMenu* m_learnMenu = nullptr;
    QToolBar* m_toolBar = nullptr;
    QAction* m_toolButtonsEnd = nullptr; // the separator before the memory unit
    bool m_toolButtonsStarted = false;
};

} // namespace lp::ui
