#pragma once
// A file-name question as a replaceable function: the report, launch-settings and measured-run
// widgets ask through it, so that tests answer with a path instead of a modal QFileDialog.
#include <QFileDialog>
#include <QString>

#include <functional>

namespace lp::ui {

// Returns the chosen path, or an empty string when cancelled.
using FileChooser = std::function<QString(QWidget* parent, const QString& title, const QString& suggestedPath,
                                          const QString& filter)>;

inline FileChooser openFileDialogChooser() {
    return [](QWidget* parent, const QString& title, const QString& suggested, const QString& filter) {
        return QFileDialog::getOpenFileName(parent, title, suggested, filter);
    };
}

inline FileChooser saveFileDialogChooser() {
    return [](QWidget* parent, const QString& title, const QString& suggested, const QString& filter) {
        return QFileDialog::getSaveFileName(parent, title, suggested, filter);
    };
}

} // namespace lp::ui
