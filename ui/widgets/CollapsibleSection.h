#pragma once
// A titled group whose body can be folded away (keyboard: the header is a focusable tool button).
#include <QWidget>

class QToolButton;
class QLabel;
class QVBoxLayout;

namespace lp::ui {

class CollapsibleSection : public QWidget {
    Q_OBJECT
public:
    CollapsibleSection(const QString& title, QWidget* parent = nullptr);

    void setContent(QWidget* content);
    QWidget* content() const { return m_content; }
    void setExpanded(bool expanded);
    bool isExpanded() const;
    QToolButton* header() const { return m_header; }
    void setSummary(const QString& summary); // shown beside the title when folded

signals:
    void expandedChanged(bool expanded);

private:
    QToolButton* m_header;
    QLabel* m_summary;
    QWidget* m_content = nullptr;
    QVBoxLayout* m_layout;
};

} // namespace lp::ui
