#pragma once
// The questions the window asks the user (unsaved changes, file names). Tests replace the
// default dialogs with scripted answers so they never block on a modal dialog.
#include <QString>
#include <QStringList>

class QWidget;

namespace lp::ui {

class Prompter {
public:
    enum class SaveChoice { Save, Discard, Cancel };
    virtual ~Prompter() = default;
    virtual SaveChoice askSaveChanges(QWidget* parent, const QString& documentName) = 0;
    // Empty string: cancelled.
    virtual QString askOpenFile(QWidget* parent, const QString& directory) = 0;
    virtual QString askSaveFile(QWidget* parent, const QString& suggestedPath) = 0;
    // A file of another kind to read (a Hugging Face config), starting in `directory`.
    virtual QString askImportFile(QWidget* parent, const QString& title, const QString& directory,
                                  const QString& filter) = 0;
    // A file to write in one of `formats` (name filters such as "PDF (*.pdf)"), starting from `suggestedPath`
    // in the format *chosen; the name's extension follows the format chosen, and *chosen becomes its index.
    virtual QString askExportFile(QWidget* parent, const QString& title, const QString& suggestedPath,
                                  const QStringList& formats, int* chosen) = 0;
    virtual void showError(QWidget* parent, const QString& title, const QString& text) = 0;
};

// QMessageBox and QFileDialog.
class DialogPrompter : public Prompter {
public:
    SaveChoice askSaveChanges(QWidget* parent, const QString& documentName) override;
    QString askOpenFile(QWidget* parent, const QString& directory) override;
    QString askSaveFile(QWidget* parent, const QString& suggestedPath) override;
    QString askImportFile(QWidget* parent, const QString& title, const QString& directory,
                          const QString& filter) override;
    QString askExportFile(QWidget* parent, const QString& title, const QString& suggestedPath,
                          const QStringList& formats, int* chosen) override;
    void showError(QWidget* parent, const QString& title, const QString& text) override;
};

} // namespace lp::ui
