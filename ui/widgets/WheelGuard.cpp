#include "ui/widgets/WheelGuard.h"

#include <QAbstractScrollArea>
#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QEvent>
#include <QScrollBar>
#include <QWheelEvent>

namespace lp::ui {
namespace {

// The scroll area whose page holds `w` (not one that `w` is itself part of, like a combo box's popup list).
QAbstractScrollArea* enclosingScrollArea(const QWidget* w) {
    for (QWidget* p = w->parentWidget(); p; p = p->parentWidget())
        if (auto* area = qobject_cast<QAbstractScrollArea*>(p))
            return area;
    return nullptr;
}

bool isValueWidget(const QWidget* w) {
    if (qobject_cast<const QComboBox*>(w) || qobject_cast<const QAbstractSpinBox*>(w))
        return true;
    // A scroll area's own scroll bars are sliders too: they must keep the wheel.
    auto* slider = qobject_cast<const QAbstractSlider*>(w);
    return slider && !qobject_cast<const QScrollBar*>(w);
}

class WheelGuard : public QObject {
public:
    using QObject::QObject;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        const QEvent::Type type = event->type();
        if (type != QEvent::Wheel && type != QEvent::Polish)
            return false;
        auto* w = qobject_cast<QWidget*>(watched);
        if (!w || !isWheelGuarded(w))
            return false;
        // A wheel must not hand the focus over on its way past (Qt::WheelFocus), or the next notch would
        // change the value after all.
        if ((w->focusPolicy() & Qt::WheelFocus) == Qt::WheelFocus)
            w->setFocusPolicy(Qt::StrongFocus);
        if (type == QEvent::Polish || w->hasFocus())
            return false;
        QAbstractScrollArea* area = enclosingScrollArea(w);
        auto* wheel = static_cast<QWheelEvent*>(event);
        QWidget* viewport = area->viewport();
        const QPointF at = viewport->mapFromGlobal(wheel->globalPosition());
        QWheelEvent forwarded(at, wheel->globalPosition(), wheel->pixelDelta(), wheel->angleDelta(),
                              wheel->buttons(), wheel->modifiers(), wheel->phase(), wheel->inverted(),
                              wheel->source());
        QCoreApplication::sendEvent(viewport, &forwarded);
        return true; // the value widget never sees it
    }
};

} // namespace

bool isWheelGuarded(const QWidget* w) {
    return w && isValueWidget(w) && enclosingScrollArea(w) != nullptr;
}

void installWheelGuard() {
    static WheelGuard* guard = nullptr;
    if (guard || !qApp)
        return;
    guard = new WheelGuard(qApp);
    qApp->installEventFilter(guard);
}

} // namespace lp::ui
