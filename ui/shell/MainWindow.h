#pragma once
// The planner window: the scenario panel (left), the tabs (Plan, and room for Explore, Compare,
// Calibrate, Validate), diagnostics and explanation (right), inline banners, menus, the status bar.
// It wires widgets to the ScenarioDocument; it computes nothing itself.
#include <QMainWindow>

#include <memory>

class QAction;
class QActionGroup;
class QDockWidget;
class QLabel;
class QMenu;
class QTabWidget;
class QTimer;

namespace lp::ui {

class Autosave;
class DiagnosticsPanel;
class ExplanationPanel;
class FileController;
class InlineBanner;
class PlanView;
class ScenarioDocument;
class ScenarioPanel;
class Settings;

struct WindowOptions {
    bool persistentSettings = true; // read and write QSettings (geometry, units, recent files)
    bool autosave = true;           // autosave and the restore offer
    QString autosaveDirectory;      // empty: QStandardPaths::AppDataLocation
};

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(const WindowOptions& options = {}, QWidget* parent = nullptr);
    ~MainWindow() override;

    // Opens `scenarioPath` (or, when empty and settings persist, the last scenario), then offers to
    // restore an autosave left by a session that did not close. Problems show in banners.
    // Returns false when `scenarioPath` was given and could not be opened (the banner says why).
    bool startup(const QString& scenarioPath = {});
    // Renders the laid-out window into a PNG. Returns false when the file cannot be written.
    bool renderScreenshot(const QString& path);

    ScenarioDocument* document() const { return m_doc; }
    Settings* settings() const { return m_settings; }
    FileController* files() const { return m_files; }
    Autosave* autosave() const { return m_autosave; }
    ScenarioPanel* scenarioPanel() const { return m_scenarioPanel; }
    PlanView* planView() const { return m_planView; }
    DiagnosticsPanel* diagnosticsPanel() const { return m_diagnostics; }
    ExplanationPanel* explanationPanel() const { return m_explanation; }
    InlineBanner* layoutBanner() const { return m_layoutBanner; }
    InlineBanner* fileBanner() const { return m_fileBanner; }
    InlineBanner* restoreBanner() const { return m_restoreBanner; }
    QTabWidget* tabs() const { return m_tabs; }
    QLabel* statusLabel(int which) const; // 0 profile, 1 GPUs, 2 evaluation time, 3 saved state

    // Room for the later tabs and menus (Explore, Compare, Calibrate, Validate; Tools, Learn).
    int addTab(QWidget* page, const QString& title, const QString& toolTip);
    void replaceTab(int index, QWidget* page);
    // A tool-bar button for a later tab or menu (Explore, Export): after Undo/Redo, before the memory unit.
    void insertToolBarAction(QAction* action);
    QMenu* toolsMenu() const { return m_toolsMenu; }
    QMenu* learnMenu() const { return m_learnMenu; }
    QAction* undoAction() const { return m_undo; }
    QAction* redoAction() const { return m_redo; }

protected:
    void closeEvent(QCloseEvent* event) override;
    void showEvent(QShowEvent* event) override;

private:
    void createActions();
    void createMenus();
    void createToolBar();
    void createDocks();
    void createStatusBar();
    void createPlaceholderTabs();
    void updateTitle();
    void updateStatus();
    void updateLayoutBanner();
    void offerRestore();
    void applyUnit();

    WindowOptions m_options;
    Settings* m_settings;
    ScenarioDocument* m_doc;
    Autosave* m_autosave = nullptr;
    FileController* m_files = nullptr;
    ScenarioPanel* m_scenarioPanel = nullptr;
    PlanView* m_planView = nullptr;
    DiagnosticsPanel* m_diagnostics = nullptr;
    ExplanationPanel* m_explanation = nullptr;
    InlineBanner* m_layoutBanner = nullptr;
    InlineBanner* m_fileBanner = nullptr;
    InlineBanner* m_restoreBanner = nullptr;
    QTabWidget* m_tabs = nullptr;
    QDockWidget* m_scenarioDock = nullptr;
    QDockWidget* m_diagnosticsDock = nullptr;
    QDockWidget* m_explanationDock = nullptr;
    QLabel* m_status[4] = {};
    QTimer* m_statusThrottle = nullptr;
    bool m_dockSizesPending = true; // first show without a saved window state: default dock sizes

    QAction* m_new = nullptr;
    QAction* m_open = nullptr;
    QAction* m_save = nullptr;
    QAction* m_saveAs = nullptr;
    QAction* m_quit = nullptr;
    QAction* m_undo = nullptr;
    QAction* m_redo = nullptr;
    QAction* m_keepGpus = nullptr;
    QActionGroup* m_units = nullptr;
    QAction* m_unitGB = nullptr;
    QAction* m_unitGiB = nullptr;
    QMenu* m_fileMenu = nullptr;
    QMenu* m_editMenu = nullptr;
    QMenu* m_viewMenu = nullptr;
    QMenu* m_toolsMenu = nullptr;
    QMenu* m_learnMenu = nullptr;
    QMenu* m_helpMenu = nullptr;
};

} // namespace lp::ui
