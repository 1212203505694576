#pragma once
// One key figure: a caption, a value and an optional detail line. Click, focus (Tab) or Enter ask the
// explanation panel to explain it (its core explanation key); hovering previews the explanation.
#include "core/estimate/KeyFigures.h"

#include <QFrame>

class QLabel;

namespace lp::ui {

class FigureLabel : public QFrame {
    Q_OBJECT
public:
    // id names the figure (tests, object name); explainKey is the core explanation it shows.
    FigureLabel(const QString& caption, const QString& id, const QString& explainKey, const QString& toolTip,
                QWidget* parent = nullptr);

    void setValue(const QString& value, const QString& detail = {});
    // The core's card: its caption, meaning (the tooltip), value and detail.
    void setFigure(const core::KeyFigure& figure);
    QString caption() const;
    QString value() const;
    // As painted: a line wider than the card wraps ("\n") at a clause or space (an equation before " = "),
    // and a part still too wide ends (an equation: starts) in "…".
    QString shownValue() const;
    QString detail() const;
    QString shownDetail() const; // as painted, like shownValue()
    QString explainKey() const { return m_key; }
    QString id() const { return m_id; }
    void setActive(bool active);
    // Greyed: the plan does not fit, the value is what it would reach (the core's KeyFigure::greyed).
    bool isGreyed() const { return m_greyed; }
    // The width at which a typical value ("373 TFLOP/s", "53.8 k tokens/s") shows whole in the current font.
    int comfortableWidth() const;

signals:
    void explainRequested(const QString& key);
    void previewRequested(const QString& key); // pointed at; empty: the pointer left

protected:
    void focusInEvent(QFocusEvent* event) override;
    void focusOutEvent(QFocusEvent* event) override;
    void paintEvent(QPaintEvent* event) override;

private:
    QString m_id;
    QString m_key;
    QLabel* m_caption;
    QLabel* m_value;
    QLabel* m_detail;
    bool m_active = false;
    bool m_greyed = false;
};

} // namespace lp::ui
