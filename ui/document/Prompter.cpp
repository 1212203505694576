#include "ui/document/Prompter.h"

#include <QCoreApplication>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QRegularExpression>

namespace lp::ui {
namespace {
QString tr(const char* s) {
    return QCoreApplication::translate("lp::ui::Prompter", s);
}
QString filter() {
    return tr("Scenario files (*.json);;All files (*)");
}
// The extension a name filter asks for: "pdf" for "PDF (*.pdf)".
QString suffixOf(const QString& nameFilter) {
    const qsizetype star = nameFilter.indexOf(QStringLiteral("*."));
    if (star < 0)
        return {};
    QString suffix = nameFilter.mid(star + 2);
    return suffix.left(suffix.indexOf(QRegularExpression(QStringLiteral("[^A-Za-z0-9]"))));
}
} // namespace

Prompter::SaveChoice DialogPrompter::askSaveChanges(QWidget* parent, const QString& documentName) {
    QMessageBox box(QMessageBox::Warning, tr("Unsaved changes"),
                    tr("The scenario \"%1\" has unsaved changes.").arg(documentName),
                    QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, parent);
    box.setInformativeText(tr("Save them before continuing?"));
    box.setDefaultButton(QMessageBox::Save);
    switch (box.exec()) {
    case QMessageBox::Save:
        return SaveChoice::Save;
    case QMessageBox::Discard:
        return SaveChoice::Discard;
    default:
        return SaveChoice::Cancel;
    }
}

QString DialogPrompter::askOpenFile(QWidget* parent, const QString& directory) {
    return QFileDialog::getOpenFileName(parent, tr("Open scenario"), directory, filter());
}

QString DialogPrompter::askSaveFile(QWidget* parent, const QString& suggestedPath) {
    QString path = QFileDialog::getSaveFileName(parent, tr("Save scenario"), suggestedPath, filter());
    if (!path.isEmpty() && QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".json");
    return path;
}

QString DialogPrompter::askImportFile(QWidget* parent, const QString& title, const QString& directory,
                                      const QString& filter) {
    return QFileDialog::getOpenFileName(parent, title, directory, filter);
}

QString DialogPrompter::askExportFile(QWidget* parent, const QString& title, const QString& suggestedPath,
                                      const QStringList& formats, int* chosen) {
    QFileDialog dialog(parent, title);
    dialog.setAcceptMode(QFileDialog::AcceptSave);
    dialog.setNameFilters(formats);
    const int first = chosen && *chosen >= 0 && *chosen < formats.size() ? *chosen : 0;
    dialog.selectNameFilter(formats.value(first));
    dialog.setDefaultSuffix(suffixOf(formats.value(first)));
    dialog.setDirectory(QFileInfo(suggestedPath).absolutePath());
    dialog.selectFile(QFileInfo(suggestedPath).fileName());
    // Another format renames the file to its extension, as the name typed so far.
    QObject::connect(&dialog, &QFileDialog::filterSelected, &dialog, [&dialog](const QString& nameFilter) {
        const QString suffix = suffixOf(nameFilter);
        dialog.setDefaultSuffix(suffix);
        const QStringList typed = dialog.selectedFiles();
        if (!typed.isEmpty() && !suffix.isEmpty())
            dialog.selectFile(QFileInfo(typed.front()).completeBaseName() + QLatin1Char('.') + suffix);
    });
    if (dialog.exec() != QDialog::Accepted || dialog.selectedFiles().isEmpty())
        return {};
    if (chosen)
        *chosen = static_cast<int>(formats.indexOf(dialog.selectedNameFilter()));
    return dialog.selectedFiles().front();
}

void DialogPrompter::showError(QWidget* parent, const QString& title, const QString& text) {
    QMessageBox::warning(parent, title, text);
}

} // namespace lp::ui
