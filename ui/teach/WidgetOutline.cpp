#include "ui/teach/WidgetOutline.h"

#include "ui/widgets/PresentationStyle.h"

#include <QDockWidget>
#include <QEvent>
#include <QPainter>
#include <QPainterPath>
#include <QScrollArea>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTimer>

#include <cmath>
#include <numbers>

namespace lp::ui {
namespace {
// The outline's colour: a saturated amber that reads on light and dark themes and on projectors,
// and means none of the product's data colours (red is "does not fit", green the MFU band).
const QColor kOutline(255, 153, 0);
constexpr int kMargin = 6;
} // namespace

WidgetOutline::WidgetOutline(QWidget* window) : QWidget(window), m_pulse(new QTimer(this)) {
    setObjectName(QStringLiteral("tourOutline"));
    setAttribute(Qt::WA_TransparentForMouseEvents);
    setAttribute(Qt::WA_NoSystemBackground);
    setFocusPolicy(Qt::NoFocus);
    // 20 frames a second: the overlay is masked to its ring, so only a thin strip repaints.
    m_pulse->setInterval(50);
    connect(m_pulse, &QTimer::timeout, this, [this] {
        m_tick = (m_tick + 1) % 32; // one breath every 1.6 s
        m_phase = 0.5 - 0.5 * std::cos(2.0 * std::numbers::pi * m_tick / 32.0);
        update();
    });
    window->installEventFilter(this);
    hide();
}

bool WidgetOutline::highlight(const QString& objectName) {
    if (objectName.isEmpty()) {
        clear();
        return true;
    }
    QWidget* window = parentWidget();
    auto* target = window->findChild<QWidget*>(objectName);
    if (!target) {
        clear();
        return false;
    }
    highlightWidget(target);
    return true;
}

void WidgetOutline::unwatch() {
    for (QWidget* w = m_target; w && w != parentWidget(); w = w->parentWidget())
        w->removeEventFilter(this);
}

void WidgetOutline::highlightWidget(QWidget* target) {
    unwatch();
    m_target = target;
    m_name = target ? target->objectName() : QString();
    if (!target) {
        clear();
        return;
    }
    reveal(target);
    // Once the window has re-laid out around what just appeared (the tour's panel takes room from
    // the tabs), scroll again so the target is still in view.
    QTimer::singleShot(0, this, [this, t = QPointer<QWidget>(target)] {
        if (t && t == m_target) {
            reveal(t);
            follow();
        }
    });
    // Re-layouts anywhere between the window and the target move it: watch every level.
    for (QWidget* w = target; w && w != parentWidget(); w = w->parentWidget())
        w->installEventFilter(this);
    follow();
    raise();
    if (m_animated)
        m_pulse->start();
    update();
}

void WidgetOutline::clear() {
    unwatch();
    m_target = nullptr;
    m_name.clear();
    m_pulse->stop();
    hide();
}

void WidgetOutline::setAnimated(bool animated) {
    m_animated = animated;
    if (!animated) {
        m_pulse->stop();
        m_phase = 1.0;
    } else if (m_target) {
        m_pulse->start();
    }
    update();
}

QRect WidgetOutline::outlineRect() const {
    QWidget* window = parentWidget();
    if (!m_target || !window || !m_target->isVisibleTo(window))
        return {};
    // Only the part of the target its ancestors show (a scroll area's viewport clips what lies beyond).
    QRect visible(m_target->mapTo(window, QPoint(0, 0)), m_target->size());
    for (QWidget* w = m_target->parentWidget(); w && w != window; w = w->parentWidget())
        visible &= QRect(w->mapTo(window, QPoint(0, 0)), w->size());
    if (visible.isEmpty())
        return {};
    return visible.adjusted(-kMargin, -kMargin, kMargin, kMargin).intersected(window->rect());
}

void WidgetOutline::reveal(QWidget* target) {
    QWidget* child = target;
    for (QWidget* w = target->parentWidget(); w; child = w, w = w->parentWidget()) {
        if (auto* stack = qobject_cast<QStackedWidget*>(w)) {
            if (auto* tabs = qobject_cast<QTabWidget*>(stack->parentWidget())) {
                const int index = tabs->indexOf(child);
                if (index >= 0)
                    tabs->setCurrentIndex(index);
            } else {
                stack->setCurrentWidget(child);
            }
        }
        if (auto* dock = qobject_cast<QDockWidget*>(w); dock && dock->isHidden())
            dock->show();
        if (auto* scroll = qobject_cast<QScrollArea*>(w);
            scroll && scroll->widget() && scroll->widget()->isAncestorOf(target))
            scroll->ensureWidgetVisible(target, 8, 8);
    }
}

int WidgetOutline::ringWidth() const {
    return static_cast<int>(std::ceil(12.0 * presentation::lineScale())) + kMargin;
}

void WidgetOutline::follow() {
    const QRect r = outlineRect();
    if (r.isEmpty() || !m_target) {
        if (isVisible())
            hide();
        return;
    }
    if (geometry() != r)
        setGeometry(r);
    // Only the ring belongs to the overlay: the target underneath never repaints for it.
    const int ring = ringWidth();
    const QRegion mask = QRegion(QRect(QPoint(0, 0), r.size())) -
                         QRegion(QRect(QPoint(0, 0), r.size()).adjusted(ring, ring, -ring, -ring));
    if (mask != m_mask) {
        m_mask = mask;
        setMask(mask);
    }
    if (!isVisible()) {
        show();
        raise();
    }
}

bool WidgetOutline::eventFilter(QObject* watched, QEvent* event) {
    switch (event->type()) {
    case QEvent::Resize:
    case QEvent::Move:
    case QEvent::Show:
    case QEvent::Hide:
    case QEvent::LayoutRequest:
        if (m_target && watched != this) {
            follow();
            update();
        }
        break;
    case QEvent::ChildAdded:
        if (watched == parentWidget() && m_target)
            raise(); // stay above docks and panels added later
        break;
    default:
        break;
    }
    return QWidget::eventFilter(watched, event);
}

void WidgetOutline::paintEvent(QPaintEvent*) {
    if (!m_target)
        return;
    const QRect r = rect();
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const double scale = presentation::lineScale();
    const double width = 3.0 * scale;
    // A soft glow that breathes with the animation, then the outline itself.
    for (int i = 3; i >= 1; --i) {
        QColor glow = kOutline;
        glow.setAlphaF(static_cast<float>(0.10 + 0.12 * m_phase) / static_cast<float>(i));
        p.setPen(QPen(glow, width + 3.0 * i * scale));
        p.setBrush(Qt::NoBrush);
        p.drawRoundedRect(QRectF(r).adjusted(width, width, -width, -width), 8, 8);
    }
    QColor line = kOutline;
    line.setAlphaF(static_cast<float>(0.75 + 0.25 * m_phase));
    p.setPen(QPen(line, width));
    p.drawRoundedRect(QRectF(r).adjusted(width / 2, width / 2, -width / 2, -width / 2), 8, 8);
}

} // namespace lp::ui
