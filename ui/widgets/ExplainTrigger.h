#pragma once
// Asks for the explanation of a figure when the user clicks its widget, reaches it with Tab, or presses
// Enter or Space on it; moving the pointer onto it asks for a preview, which ends when the pointer
// leaves (a window opening under a still pointer previews nothing). The one way every figure of the
// window explains itself.
#include <QObject>
#include <QString>
#include <Qt>

#include <functional>

class QWidget;

namespace lp::ui {

// Focus moved to a widget on purpose (Tab, a click, the program), not given back by a window's
// activation or a closing menu: only the former chooses what the explanation shows.
bool isChosenFocus(Qt::FocusReason reason);

class ExplainTrigger : public QObject {
    Q_OBJECT
public:
    // `key` gives the explanation key at the moment of the request.
    ExplainTrigger(QWidget* target, std::function<QString()> key);

signals:
    void explainRequested(const QString& key);
    void previewRequested(const QString& key); // pointed at; empty: the pointer left

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    std::function<QString()> m_key;
    bool m_previewing = false;
};

// Every widget that shows figures carries the pair of signals above. relayExplanations passes one widget's
// requests on as another's own (a figure's to its section, a section's to its view), or, given two slots,
// hands them to where they end (the explanation panel's showKey and previewKey).
template <typename From, typename To> void relayExplanations(From* from, To* to) {
    QObject::connect(from, &From::explainRequested, to, &To::explainRequested);
    QObject::connect(from, &From::previewRequested, to, &To::previewRequested);
}

template <typename From, typename Receiver>
void relayExplanations(From* from, Receiver* receiver, void (Receiver::*explain)(const QString&),
                       void (Receiver::*preview)(const QString&)) {
    QObject::connect(from, &From::explainRequested, receiver, explain);
    QObject::connect(from, &From::previewRequested, receiver, preview);
}

} // namespace lp::ui
