#pragma once
// The bar over the Calibrate tab: which hardware profile the scenario uses, and the buttons that import,
// load or save a profile or go back to the GPU's built-in one. The tab decides what it says.
#include <QFrame>

class QLabel;
class QPushButton;

namespace lp::ui {

class ProfileBar : public QFrame {
    Q_OBJECT
public:
    explicit ProfileBar(QWidget* parent = nullptr);

    // `html`: the profile in use; "Use built-in" is offered while another profile is applied.
    void showProfile(const QString& html, bool overrideActive, const QString& saveToolTip);

    QLabel* label() const { return m_text; }
    QPushButton* importButton() const { return m_import; }
    QPushButton* loadButton() const { return m_load; }
    QPushButton* saveButton() const { return m_save; }
    QPushButton* builtinButton() const { return m_builtin; }

private:
    QLabel* m_text;
    QPushButton* m_import;
    QPushButton* m_load;
    QPushButton* m_save;
    QPushButton* m_builtin;
};

} // namespace lp::ui
