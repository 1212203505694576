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
    // Without asking (start-up); shows problems in the banner. A Hugging Face config is not opened:
    // hfConfigOpened() lets the window offer to import its model.
    bool loadPath(const QString& path);
    bool save();
    bool saveAs();
    bool saveTo(const QString& path);

signals:
    void statusMessage(const QString& text);
    void hfConfigOpened(const QString& path);

private:
    void rebuildRecentMenu();
    ScenarioDocument* m_doc;
    Settings* m_settings;
    InlineBanner* m_banner;
    QWidget* m_window;
    std::unique_ptr<Prompter> m_prompter;
    QMenu* m_recent;
};

} // namespace lp::ui
