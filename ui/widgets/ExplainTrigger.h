#pragma once
// Asks for the explanation of a figure when the user points at, clicks or focuses its widget, or presses
// Enter or Space on it: the one way every figure of the window explains itself.
#include <QObject>
#include <QString>

#include <functional>

class QWidget;

namespace lp::ui {

class ExplainTrigger : public QObject {
    Q_OBJECT
public:
    // `key` gives the explanation key at the moment of the request.
    ExplainTrigger(QWidget* target, std::function<QString()> key);

signals:
    void explainRequested(const QString& key);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    std::function<QString()> m_key;
};

} // namespace lp::ui
