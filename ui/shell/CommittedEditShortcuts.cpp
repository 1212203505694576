#include "ui/shell/CommittedEditShortcuts.h"

#include <QAbstractSpinBox>
#include <QApplication>
#include <QKeyEvent>
#include <QLineEdit>
#include <QVariant>

namespace lp::ui {
namespace {

constexpr const char* kCommittedText = "lpCommittedText"; // the field's text when it was last committed
constexpr const char* kWatched = "lpCommitWatched";

// The text field of a focus widget: a line edit, or the one inside a spin box.
QLineEdit* textFieldOf(QObject* object) {
    if (auto* edit = qobject_cast<QLineEdit*>(object))
        return edit;
    if (auto* spin = qobject_cast<QAbstractSpinBox*>(object))
        return spin->findChild<QLineEdit*>();
    return nullptr;
}

// Remembers the text each time the field commits it (Enter, or leaving it).
template <typename Field> void watchCommits(Field* field, QLineEdit* edit) {
    if (field->property(kWatched).toBool())
        return;
    field->setProperty(kWatched, true);
    QObject::connect(field, &Field::editingFinished, edit,
                     [edit] { edit->setProperty(kCommittedText, edit->text()); });
}

// Whether the field holds typing that Enter has not committed: only then is Ctrl+Z the field's.
bool hasUncommittedTyping(const QLineEdit& edit) {
    if (!edit.isUndoAvailable() && !edit.isRedoAvailable())
        return false;
    const QVariant committed = edit.property(kCommittedText);
    return !committed.isValid() || committed.toString() != edit.text();
}

} // namespace

CommittedEditShortcuts::CommittedEditShortcuts(QObject* parent) : QObject(parent) {
    qApp->installEventFilter(this);
}

CommittedEditShortcuts::~CommittedEditShortcuts() {
    qApp->removeEventFilter(this);
}

bool CommittedEditShortcuts::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() == QEvent::FocusIn) {
        if (auto* spin = qobject_cast<QAbstractSpinBox*>(watched); spin && textFieldOf(spin))
            watchCommits(spin, textFieldOf(spin));
        else if (auto* edit = qobject_cast<QLineEdit*>(watched))
            watchCommits(edit, edit);
        return false;
    }
    if (event->type() != QEvent::ShortcutOverride)
        return false;
    auto* key = static_cast<QKeyEvent*>(event);
    if (!key->matches(QKeySequence::Undo) && !key->matches(QKeySequence::Redo))
        return false;
    const QLineEdit* edit = textFieldOf(watched);
    if (!edit || edit->isReadOnly() || hasUncommittedTyping(*edit))
        return false;
    key->ignore(); // not the field's: the window's Undo/Redo shortcut takes it
    return true;
}

} // namespace lp::ui
