#pragma once
// File > New, Open, Open Recent, Save, Save As, and the unsaved-changes question. Problems with a
// file are shown in an inline banner (what is wrong and where), never by opening half a file.
#include <QObject>
#include <QString>

#include <memory>

class QMenu;
class QWidget;

namespace lp::ui {

class InlineBanner;
class Prompter;
class ScenarioDocument;
class Settings;

class FileController : public QObject {
    Q_OBJECT
public:
    FileController(ScenarioDocument* doc, Settings* settings, InlineBanner* banner, QWidget* window);
    ~FileController() override;

    // Tests install scripted answers here; the default asks with QMessageBox/QFileDialog.
    void setPrompter(std::unique_ptr<Prompter> prompter);
    Prompter* prompter() const { return m_prompter.get(); }

    QMenu* recentMenu() const { return m_recent; }

    bool maybeSave(); // true: the caller may discard the current scenario
    bool newScenario();
    bool open();                        // asks for a file
    bool openPath(const QString& path); // after maybeSave(); a malformed file changes nothing
    bool loadPath(const QString& path); // without asking (start-up); shows problems in the banner
    bool save();
    bool saveAs();
    bool saveTo(const QString& path);

signals:
    void statusMessage(const QString& text);

private:
    void rebuildRecentMenu();
    ScenarioDocument* m_doc;
    Settings* m_settings;
    InlineBanner* m_banner;
    QWidget* m_window;
    std::unique_ptr<Prompter> m_prompter;
    QMenu* m_recent;
    QString m_lastDir;
};

} // namespace lp::ui
