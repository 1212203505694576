#pragma once
// The planner window's frame: the scenario panel (left), the tabs with the Plan view (centre),
// diagnostics and explanation (right), inline banners above the tabs, the menus (WindowMenus) and the
// status bar. It connects the views to the ScenarioDocument; it computes nothing itself. The other
// tabs come from WindowTabs; PlannerWindow.h builds the window as the program shows it.
#include <QMainWindow>

class QDockWidget;
class QLabel;
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
class WindowMenus;

struct WindowOptions {
    bool persistentSettings = true; // read and write QSettings (geometry, units, recent files)
    bool autosave = true;           // autosave and the restore offer
    QString autosaveDirectory;      // empty: QStandardPaths::AppDataLocation
    bool firstRunHint = false;      // point to the guided tour once (the program asks for it; tests may)
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
    WindowMenus* menus() const { return m_menus; }
    ScenarioPanel* scenarioPanel() const { return m_scenario.panel; }
    PlanView* planView() const { return m_planView; }
    DiagnosticsPanel* diagnosticsPanel() const { return m_diagnostics.panel; }
    ExplanationPanel* explanationPanel() const { return m_explanation.panel; }
    QDockWidget* scenarioDock() const { return m_scenario.dock; }
    QDockWidget* diagnosticsDock() const { return m_diagnostics.dock; }
    QDockWidget* explanationDock() const { return m_explanation.dock; }
    InlineBanner* layoutBanner() const { return m_banners.layout; }
    InlineBanner* fileBanner() const { return m_banners.file; }
    InlineBanner* restoreBanner() const { return m_banners.restore; }
    InlineBanner* hintBanner() const { return m_banners.hint; }
    const WindowOptions& options() const { return m_options; }
    QTabWidget* tabs() const { return m_tabs; }
    QLabel* statusLabel(int which) const; // 0 profile, 1 GPUs, 2 evaluation time, 3 saved state

protected:
    void closeEvent(QCloseEvent* event) override;
    void showEvent(QShowEvent* event) override;

private:
    // A panel beside the tabs and the dock that holds it.
    template <typename Panel> struct Docked {
        Panel* panel = nullptr;
        QDockWidget* dock = nullptr;
    };

    void createCentre();
    void createDocks();
    QDockWidget* addPanelDock(QWidget* panel, const QString& title, const QString& objectName,
                              Qt::DockWidgetArea area);
    void createStatusBar();
    void connectViews();
    void restoreWindowLayout();
    void updateTitle();
    void updateStatus();
    void updateLayoutBanner();
    void offerRestore();
    void applyUnit();

    // Above the tabs, top to bottom: an autosave to restore, a file problem, a layout that cannot run.
    struct Banners {
        InlineBanner* restore = nullptr;
        InlineBanner* file = nullptr;
        InlineBanner* layout = nullptr;
        InlineBanner* hint = nullptr; // the first-run pointer to the guided tour (TeachingMode)
    };

    WindowOptions m_options;
    Settings* m_settings;
    ScenarioDocument* m_doc;
    Autosave* m_autosave = nullptr;
    FileController* m_files = nullptr;
    WindowMenus* m_menus = nullptr;
    Docked<ScenarioPanel> m_scenario;
    Docked<DiagnosticsPanel> m_diagnostics;
    Docked<ExplanationPanel> m_explanation;
    Banners m_banners;
    QTabWidget* m_tabs = nullptr;
    PlanView* m_planView = nullptr;
    QLabel* m_status[4] = {};
    QTimer* m_statusThrottle = nullptr;
    bool m_dockSizesPending = true; // first show without a saved window state: default dock sizes
};

} // namespace lp::ui
