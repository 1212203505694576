#pragma once
// A message strip shown inside the window (not a modal dialog): an icon, a title, details, and
// optional action buttons. Used for invalid layouts, malformed files and the autosave restore offer.
#include <QColor>
#include <QFrame>
#include <QString>

class QLabel;
class QHBoxLayout;
class QPushButton;
class QToolButton;

namespace lp::ui {

class InlineBanner : public QFrame {
    Q_OBJECT
public:
    enum class Kind { Info, Warning, Error };
    explicit InlineBanner(QWidget* parent = nullptr);

    void showMessage(Kind kind, const QString& title, const QString& details = {});
    Kind kind() const { return m_kind; }
    QString title() const;
    QString details() const;

    // Adds a button that emits actionTriggered(id) and hides the banner; cleared by showMessage().
    QPushButton* addAction(const QString& id, const QString& text, const QString& toolTip = {});
    void setClosable(bool closable);

signals:
    void actionTriggered(const QString& id);
    void closed();

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    void clearActions();
    Kind m_kind = Kind::Info;
    QColor m_accent;
    QLabel* m_icon;
    QLabel* m_title;
    QLabel* m_details;
    QHBoxLayout* m_actions;
    QToolButton* m_close;
};

} // namespace lp::ui
