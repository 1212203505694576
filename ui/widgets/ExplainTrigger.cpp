#include "ui/widgets/ExplainTrigger.h"

#include <QEvent>
#include <QKeyEvent>
#include <QWidget>

namespace lp::ui {

ExplainTrigger::ExplainTrigger(QWidget* target, std::function<QString()> key)
    : QObject(target), m_key(std::move(key)) {
    target->installEventFilter(this);
}

bool ExplainTrigger::eventFilter(QObject* watched, QEvent* event) {
    switch (event->type()) {
    case QEvent::MouseButtonPress:
    case QEvent::Enter:
    case QEvent::FocusIn:
        emit explainRequested(m_key());
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
