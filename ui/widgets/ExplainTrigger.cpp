#include "ui/widgets/ExplainTrigger.h"

#include <QEvent>
#include <QKeyEvent>
#include <QWidget>

namespace lp::ui {

bool isChosenFocus(Qt::FocusReason reason) {
    return reason != Qt::ActiveWindowFocusReason && reason != Qt::PopupFocusReason &&
           reason != Qt::MenuBarFocusReason;
}

ExplainTrigger::ExplainTrigger(QWidget* target, std::function<QString()> key)
    : QObject(target), m_key(std::move(key)) {
    target->installEventFilter(this);
    target->setMouseTracking(true); // a move, not the window appearing under the pointer, starts a preview
}

bool ExplainTrigger::eventFilter(QObject* watched, QEvent* event) {
    switch (event->type()) {
    case QEvent::MouseButtonPress:
        emit explainRequested(m_key());
        break;
    case QEvent::FocusIn:
        if (isChosenFocus(static_cast<QFocusEvent*>(event)->reason()))
            emit explainRequested(m_key());
        break;
    case QEvent::MouseMove:
        if (!m_previewing) {
            m_previewing = true;
            emit previewRequested(m_key());
        }
        break;
    case QEvent::Leave:
        if (m_previewing) {
            m_previewing = false;
            emit previewRequested(QString());
        }
        break;
    case QEvent::KeyPress: {
        const int key = static_cast<QKeyEvent*>(event)->key();
        if (key == Qt::Key_Return || key == Qt::Key_Enter || key == Qt::Key_Space) {
            emit explainRequested(m_key());
            return true; // handled: the key does nothing else
        }
        break;
    }
    default:
        break;
    }
    return QObject::eventFilter(watched, event);
}

} // namespace lp::ui
