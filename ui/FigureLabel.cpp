#include "ui/FigureLabel.h"

#include <QKeyEvent>
#include <QLabel>
#include <QVBoxLayout>

namespace lp::ui {

FigureLabel::FigureLabel(const QString& caption, const QString& id, const QString& explainKey, const QString& toolTip,
                         QWidget* parent)
    : QFrame(parent), m_id(id), m_key(explainKey), m_caption(new QLabel(caption, this)), m_value(new QLabel(this)),
      m_detail(new QLabel(this)) {
    setObjectName(QStringLiteral("figure_") + QString(id).replace(QLatin1Char('.'), QLatin1Char('_')));
    setFocusPolicy(Qt::StrongFocus);
    setToolTip(toolTip);
    setAccessibleName(caption);
    setAccessibleDescription(toolTip);
    setCursor(Qt::PointingHandCursor);
    m_caption->setForegroundRole(QPalette::PlaceholderText);
    QFont valueFont = m_value->font();
    valueFont.setPointSizeF(valueFont.pointSizeF() * 1.35);
    valueFont.setBold(true);
    m_value->setFont(valueFont);
    m_value->setTextFormat(Qt::PlainText);
    m_detail->setForegroundRole(QPalette::PlaceholderText);
    m_detail->setTextFormat(Qt::PlainText);
    // The texts change on every slider step; the grid, not the texts, decides the widths.
    for (QLabel* l : {m_caption, m_value, m_detail})
        l->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
    setMinimumWidth(150);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 4, 8, 4);
    layout->setSpacing(0);
    layout->addWidget(m_caption);
    layout->addWidget(m_value);
    layout->addWidget(m_detail);
    layout->addStretch(1);
    setFrameShape(QFrame::StyledPanel);
    updateFrame();
}

void FigureLabel::setValue(const QString& value, const QString& detail) {
    m_value->setText(value);
    m_detail->setText(detail);
    m_detail->setVisible(!detail.isEmpty());
    setAccessibleDescription(value + QStringLiteral(". ") + detail);
}

QString FigureLabel::value() const { return m_value->text(); }
QString FigureLabel::detail() const { return m_detail->text(); }

void FigureLabel::setActive(bool active) {
    if (m_active == active)
        return;
    m_active = active;
    updateFrame();
}

void FigureLabel::updateFrame() {
    const QColor accent = palette().color(QPalette::Highlight);
    QColor border = palette().color(QPalette::Text);
    border.setAlpha(45);
    const QString style = QStringLiteral("lp--ui--FigureLabel { border: 1px solid %1; border-radius: 4px; }")
                              .arg((m_active || hasFocus() ? accent : border).name(QColor::HexArgb));
    if (style == m_style)
        return;
    m_style = style;
    m_styling = true;
    setStyleSheet(style);
    m_styling = false;
}

void FigureLabel::changeEvent(QEvent* event) {
    QFrame::changeEvent(event);
    if (event->type() == QEvent::PaletteChange && !m_styling)
        updateFrame();  // light/dark switch
}

void FigureLabel::mousePressEvent(QMouseEvent* event) {
    emit explainRequested(m_key);
    QFrame::mousePressEvent(event);
}

void FigureLabel::enterEvent(QEnterEvent* event) {
    emit explainRequested(m_key);
    QFrame::enterEvent(event);
}

void FigureLabel::keyPressEvent(QKeyEvent* event) {
    if (event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter || event->key() == Qt::Key_Space) {
        emit explainRequested(m_key);
        return;
    }
    QFrame::keyPressEvent(event);
}

void FigureLabel::focusInEvent(QFocusEvent* event) {
    emit explainRequested(m_key);
    updateFrame();
    QFrame::focusInEvent(event);
}

void FigureLabel::focusOutEvent(QFocusEvent* event) {
    updateFrame();
    QFrame::focusOutEvent(event);
}

} // namespace lp::ui
