#pragma once
// An animated outline over one widget of a window, found by objectName: the tour's way of pointing at
// the chart it talks about. An overlay child of the window masked to a ring around the target (mouse
// events pass through, the target itself never repaints for it); it follows the target as the window
// re-lays out, makes the target visible (its tab, dock, scroll position), and draws nothing while the
// target is hidden.
#include <QPointer>
#include <QRegion>
#include <QWidget>

class QTimer;

namespace lp::ui {

class WidgetOutline : public QWidget {
    Q_OBJECT
public:
    explicit WidgetOutline(QWidget* window);

    // Outlines the window's descendant named `objectName` (empty: clear). False when none is found.
    bool highlight(const QString& objectName);
    void highlightWidget(QWidget* target);
    void clear();
    QWidget* target() const { return m_target; }
    QString targetName() const { return m_name; }
    // The outline in window coordinates (empty when nothing is shown).
    QRect outlineRect() const;

    // Pulsing outline (default) or a steady one (screenshots).
    void setAnimated(bool animated);
    bool isAnimated() const { return m_animated; }

    // Makes `target` visible: selects its tab, shows its dock, scrolls it into view.
    static void reveal(QWidget* target);

protected:
    void paintEvent(QPaintEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void follow();
    void unwatch();
    int ringWidth() const;
    QPointer<QWidget> m_target;
    QString m_name;
    QTimer* m_pulse;
    int m_tick = 0;
    double m_phase = 1.0; // 0..1, the outline's glow
    QRegion m_mask;
    bool m_animated = true;
};

} // namespace lp::ui
