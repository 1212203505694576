#include "ui/widgets/FlowLayout.h"

#include <QHBoxLayout>
#include <QWidget>

#include <algorithm>

namespace lp::ui {

FlowLayout::FlowLayout(QWidget* parent, int hSpacing, int vSpacing)
    : QLayout(parent), m_hSpacing(hSpacing), m_vSpacing(vSpacing) {
    setContentsMargins(0, 0, 0, 0);
}

FlowLayout::~FlowLayout() {
    while (QLayoutItem* item = takeAt(0))
        delete item;
}

void FlowLayout::addItem(QLayoutItem* item) {
    m_items.append(item);
}
int FlowLayout::count() const {
    return static_cast<int>(m_items.size());
}
QLayoutItem* FlowLayout::itemAt(int index) const {
    return index >= 0 && index < count() ? m_items.at(index) : nullptr;
}
QLayoutItem* FlowLayout::takeAt(int index) {
    return index >= 0 && index < count() ? m_items.takeAt(index) : nullptr;
}
Qt::Orientations FlowLayout::expandingDirections() const {
    return {};
}
bool FlowLayout::hasHeightForWidth() const {
    return true;
}
int FlowLayout::heightForWidth(int width) const {
    return arrange(QRect(0, 0, width, 0), false);
}
QSize FlowLayout::sizeHint() const {
    // One line: every item side by side.
    int w = 0;
    int h = 0;
    for (QLayoutItem* item : m_items) {
        if (item->isEmpty())
            continue;
        const QSize s = item->sizeHint();
        w += (w > 0 ? m_hSpacing : 0) + s.width();
        h = std::max(h, s.height());
    }
    const QMargins m = contentsMargins();
    return {w + m.left() + m.right(), h + m.top() + m.bottom()};
}

QSize FlowLayout::minimumSize() const {
    // As narrow as the widest single item: everything else wraps. An item that wraps its own text
    // (a title) goes down to its minimum; the others keep their preferred widths.
    QSize size;
    for (QLayoutItem* item : m_items)
        if (!item->isEmpty())
            size = size.expandedTo(item->hasHeightForWidth()
                                       ? item->minimumSize()
                                       : item->minimumSize().expandedTo(QSize(item->sizeHint().width(), 0)));
    const QMargins m = contentsMargins();
    return size + QSize(m.left() + m.right(), m.top() + m.bottom());
}

void FlowLayout::setGeometry(const QRect& rect) {
    QLayout::setGeometry(rect);
    arrange(rect, true);
}

void FlowLayout::setPushRight(QWidget* widget) {
    m_pushRight = widget;
    invalidate();
}

void FlowLayout::setStretchItem(QWidget* widget) {
    m_stretch = widget;
    invalidate();
}

void FlowLayout::setCentered(bool centered) {
    m_centered = centered;
    invalidate();
}

int FlowLayout::arrange(const QRect& rect, bool apply) const {
    const QRect r = rect.marginsRemoved(contentsMargins());
    // Break the items into lines by their preferred widths.
    struct Line {
        int first = 0;
        int last = -1; // inclusive
        int width = 0;
        int height = 0;
    };
    // An item wider than the whole line that wraps its own text takes the line's width, and the
    // height its text needs there.
    const auto sizeOf = [&](QLayoutItem* item) {
        QSize s = item->sizeHint();
        if (s.width() > r.width() && item->hasHeightForWidth()) {
            const int w = std::max(r.width(), item->minimumSize().width());
            s = QSize(w, item->heightForWidth(w));
        }
        return s;
    };
    std::vector<Line> lines(1);
    for (int i = 0; i < count(); ++i) {
        QLayoutItem* item = m_items.at(i);
        if (item->isEmpty())
            continue;
        const QSize s = sizeOf(item);
        Line* line = &lines.back();
        const int next = line->width + (line->width > 0 ? m_hSpacing : 0) + s.width();
        if (line->width > 0 && next > r.width()) {
            lines.push_back({i, i - 1, 0, 0});
            line = &lines.back();
        }
        if (line->last < line->first)
            line->first = i;
        line->width += (line->width > 0 ? m_hSpacing : 0) + s.width();
        line->height = std::max(line->height, s.height());
        line->last = i;
    }
    int y = r.y();
    for (const Line& line : lines) {
        if (line.last < line.first)
            continue;
        int x = r.x() + (m_centered ? std::max(0, r.width() - line.width) / 2 : 0);
        int natural = 0; // where the item would start with every item at its preferred width
        const int spare = std::max(0, r.width() - line.width);
        for (int i = line.first; i <= line.last; ++i) {
            QLayoutItem* item = m_items.at(i);
            if (item->isEmpty())
                continue;
            if (m_pushRight && item->widget() == m_pushRight) // what follows ends at the line's end
                x = std::max(x, r.x() + r.width() - (line.width - natural));
            const QSize preferred = sizeOf(item);
            QSize s = preferred;
            if (m_stretch && item->widget() == m_stretch) // the items after it move right with it
                s.setWidth(std::max(preferred.width(),
                                    std::min(preferred.width() + spare, item->maximumSize().width())));
            if (apply)
                item->setGeometry(QRect(QPoint(x, y + (line.height - s.height()) / 2), s));
            x += s.width() + m_hSpacing;
            natural += preferred.width() + m_hSpacing;
        }
        y += line.height + m_vSpacing;
    }
    return y - m_vSpacing - r.y() + contentsMargins().top() + contentsMargins().bottom();
}

QWidget* controlGroup(QWidget* parent, std::initializer_list<QWidget*> widgets) {
    auto* group = new QWidget(parent);
    auto* row = new QHBoxLayout(group);
    row->setContentsMargins(0, 0, 0, 0);
    row->setSpacing(6);
    for (QWidget* w : widgets)
        row->addWidget(w);
    return group;
}

} // namespace lp::ui
