#pragma once
// Help > Keyboard Shortcuts: every command of the window's menus that has keys, with its menu and its keys,
// read from the actions themselves so the list cannot drift from what the keys do.
#include <QDialog>

class QMenuBar;
class QTableWidget;

namespace lp::ui {

class ShortcutsDialog : public QDialog {
    Q_OBJECT
public:
    explicit ShortcutsDialog(QMenuBar* menus, QWidget* parent = nullptr);

    // Reads the menus again (teaching mode and the tabs add their commands after the window is built).
    void refresh();
    QTableWidget* table() const { return m_table; }

private:
    QMenuBar* m_menus = nullptr;
    QTableWidget* m_table = nullptr;
};

} // namespace lp::ui
