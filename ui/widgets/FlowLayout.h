#pragma once
// A row of widgets that wraps onto more lines when the page is narrower than the row: tool rows above
// tables and charts (the Explore tab's search settings and filters) keep every control whole in a
// small window and stay one line in a wide one. Items keep their preferred widths (one may take its
// line's spare width); group controls that belong together (a label and its field) in one widget so
// they wrap as one.
#include <QLayout>
#include <QList>

#include <initializer_list>

namespace lp::ui {

class FlowLayout : public QLayout {
public:
    explicit FlowLayout(QWidget* parent = nullptr, int hSpacing = 6, int vSpacing = 4);
    ~FlowLayout() override;

    void addItem(QLayoutItem* item) override;
    int count() const override;
    QLayoutItem* itemAt(int index) const override;
    QLayoutItem* takeAt(int index) override;
    Qt::Orientations expandingDirections() const override;
    bool hasHeightForWidth() const override;
    int heightForWidth(int width) const override;
    QSize minimumSize() const override;
    QSize sizeHint() const override;
    void setGeometry(const QRect& rect) override;

    // Items that begin a group pushed to the right end of the line they land on (buttons after a
    // field); everything from that item to the end of the line moves right together.
    void setPushRight(QWidget* widget);
    // An item that takes the spare width of the line it lands on (a search field, a title).
    void setStretchItem(QWidget* widget);
    // Each line centred in the width (a chart's legend) instead of starting at the left.
    void setCentered(bool centered);

private:
    int arrange(const QRect& rect, bool apply) const;
    QList<QLayoutItem*> m_items;
    QWidget* m_pushRight = nullptr;
    QWidget* m_stretch = nullptr;
    bool m_centered = false;
    int m_hSpacing;
    int m_vSpacing;
};

// Controls that wrap as one (a label and its field, a pair of buttons): a widget laying them out in a row.
QWidget* controlGroup(QWidget* parent, std::initializer_list<QWidget*> widgets);

} // namespace lp::ui
