#include "ui/document/Prompter.h"

#include <QCoreApplication>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>

namespace lp::ui {
namespace {
QString tr(const char* s) {
    return QCoreApplication::translate("lp::ui::Prompter", s);
}
QString filter() {
    return tr("Scenario files (*.json);;All files (*)");
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

void DialogPrompter::showError(QWidget* parent, const QString& title, const QString& text) {
    QMessageBox::warning(parent, title, text);
}

} // namespace lp::ui
