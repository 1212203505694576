#pragma once
// File > Export launch settings: the current layout as Megatron-LM arguments, a DeepSpeed config and
// torchtitan TOML (core/export/LaunchExport.h), one read-only tab each, with what the framework cannot
// express listed under the text, a Copy button (the current tab to the clipboard) and Save as.
#include "core/export/LaunchExport.h"
#include "core/model/Scenario.h"
#include "ui/document/FileChooser.h"

#include <QDialog>

#include <array>

class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTabWidget;

namespace lp::ui {

class LaunchSettingsDialog : public QDialog {
    Q_OBJECT
public:
    explicit LaunchSettingsDialog(const core::Scenario& scenario, QWidget* parent = nullptr);

    void setScenario(const core::Scenario& scenario);
    QString text(core::LaunchTarget target) const;  // what the tab shows (and Copy copies)
    QString notes(core::LaunchTarget target) const; // the notes under it, one per line
    core::LaunchTarget currentTarget() const;
    void setCurrentTarget(core::LaunchTarget target);
    QTabWidget* tabs() const { return m_tabs; }
    QPushButton* copyButton() const { return m_copy; }
    QPushButton* saveButton() const { return m_save; }
    // Replaces the save dialog (tests).
    void setSaveFileChooser(FileChooser chooser) { m_chooseFile = std::move(chooser); }

public slots:
    void copyCurrent(); // the current tab's text to the clipboard
    bool saveCurrent(); // asks for a file name (suggesting the framework's usual one) and writes it

signals:
    void copied(const QString& what); // for a status-bar message

private:
    struct Page {
        QPlainTextEdit* text = nullptr;
        QLabel* notes = nullptr;
        core::LaunchSettings settings;
    };
    static int indexOf(core::LaunchTarget target);

    QTabWidget* m_tabs = nullptr;
    QPushButton* m_copy = nullptr;
    QPushButton* m_save = nullptr;
    QLabel* m_status = nullptr;
    QString m_layoutWarning; // kept in the status line while the layout is invalid
    std::array<Page, 3> m_pages;
    FileChooser m_chooseFile = saveFileDialogChooser();
};

} // namespace lp::ui
