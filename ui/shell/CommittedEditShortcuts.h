#pragma once
// Undo and Redo reach the window after an edit is committed. A line edit (and a spin box's) claims Ctrl+Z for
// its own typing history even after Enter committed the value to the scenario, so the window's Undo never
// fired while a field had the focus. This application-wide filter lets the field keep Ctrl+Z only while it
// holds typing that is not committed yet.
#include <QObject>

namespace lp::ui {

class CommittedEditShortcuts : public QObject {
    Q_OBJECT
public:
    // Installs itself on the application; removed when `parent` goes.
    explicit CommittedEditShortcuts(QObject* parent);
    ~CommittedEditShortcuts() override;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
};

} // namespace lp::ui
