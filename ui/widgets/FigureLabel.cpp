#include "ui/widgets/FigureLabel.h"

#include "core/estimate/KeyFigures.h"
#include "ui/widgets/ExplainTrigger.h"
#include "ui/widgets/Format.h"

#include <QLabel>
#include <QPainter>
#include <QVBoxLayout>

namespace lp::ui {
namespace {
// A label whose lines end in "…" when wider than the card (a 15-digit GPU-hour count, a batch of a
// million sequences) rather than being cut through a digit. An equation ("2 × 16 × 32768 = 1,048,576")
// gives up its left side first: the result is what the card is for.
class ElidingLabel : public QLabel {
public:
    using QLabel::QLabel;

    QStringList shownLines() const {
        QStringList out;
        for (const QString& line : text().split(QLatin1Char('\n'))) {
            const Qt::TextElideMode mode =
                line.contains(QStringLiteral(" = ")) ? Qt::ElideLeft : Qt::ElideRight;
            out << fontMetrics().elidedText(line, mode, contentsRect().width());
        }
        return out;
    }

protected:
    void paintEvent(QPaintEvent*) override {
        QPainter p(this);
        p.setPen(palette().color(foregroundRole()));
        const QRect r = contentsRect();
        const int height = fontMetrics().height();
        int y = r.top();
        for (const QString& line : shownLines()) {
            p.drawText(QRect(r.left(), y, r.width(), height), static_cast<int>(alignment()), line);
            y += fontMetrics().lineSpacing();
        }
    }
};
} // namespace

FigureLabel::FigureLabel(const QString& caption, const QString& id, const QString& explainKey,
                         const QString& toolTip, QWidget* parent)
    : QFrame(parent), m_id(id), m_key(explainKey), m_caption(new QLabel(caption, this)),
      m_value(new ElidingLabel(this)), m_detail(new ElidingLabel(this)) {
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
    // The card, not its texts, receives the pointer's moves (they start the explanation's preview).
    for (QLabel* l : {m_caption, m_value, m_detail}) {
        l->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
        l->setAttribute(Qt::WA_TransparentForMouseEvents);
    }
    setMinimumWidth(150);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 4, 8, 4);
    layout->setSpacing(0);
    layout->addWidget(m_caption);
    layout->addWidget(m_value);
    layout->addWidget(m_detail);
    layout->addStretch(1);
    setFrameShape(QFrame::NoFrame);
    auto* trigger = new ExplainTrigger(this, [this] { return m_key; });
    connect(trigger, &ExplainTrigger::explainRequested, this, &FigureLabel::explainRequested);
    connect(trigger, &ExplainTrigger::previewRequested, this, &FigureLabel::previewRequested);
}

void FigureLabel::setValue(const QString& value, const QString& detail) {
    m_value->setText(value);
    m_detail->setText(detail);
    m_detail->setVisible(!detail.isEmpty());
    setAccessibleDescription(value + QStringLiteral(". ") + detail);
}

void FigureLabel::setFigure(const core::KeyFigure& figure) {
    const QString caption = qs(figure.caption);
    if (m_caption->text() != caption) {
        m_caption->setText(caption);
        setAccessibleName(caption);
    }
    setToolTip(qs(figure.meaning));
    setValue(qs(figure.valueText), qs(figure.detail));
    if (figure.greyed != m_greyed) {
        m_greyed = figure.greyed;
        m_value->setForegroundRole(m_greyed ? QPalette::PlaceholderText : QPalette::WindowText);
    }
}

QString FigureLabel::caption() const {
    return m_caption->text();
}

QString FigureLabel::value() const {
    return m_value->text();
}
QString FigureLabel::shownValue() const {
    return static_cast<const ElidingLabel*>(m_value)->shownLines().join(QLatin1Char('\n'));
}
QString FigureLabel::detail() const {
    return m_detail->text();
}
QString FigureLabel::shownDetail() const {
    return static_cast<const ElidingLabel*>(m_detail)->shownLines().join(QLatin1Char('\n'));
}

void FigureLabel::setActive(bool active) {
    if (m_active == active)
        return;
    m_active = active;
    update();
}

int FigureLabel::comfortableWidth() const {
    const QMargins m = layout()->contentsMargins();
    return m_value->fontMetrics().horizontalAdvance(QStringLiteral("00.0 k tokens/s")) + m.left() +
           m.right() + 4;
}

void FigureLabel::paintEvent(QPaintEvent*) {
    // A rounded frame from the current palette (no style sheet: it follows light and dark themes).
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    QColor border = palette().color(QPalette::WindowText);
    border.setAlpha(50);
    const bool highlighted = m_active || hasFocus();
    p.setPen(QPen(highlighted ? palette().color(QPalette::Highlight) : border, highlighted ? 1.5 : 1.0));
    p.setBrush(Qt::NoBrush);
    p.drawRoundedRect(QRectF(rect()).adjusted(0.75, 0.75, -0.75, -0.75), 4, 4);
}

void FigureLabel::focusInEvent(QFocusEvent* event) {
    update(); // the frame shows the focus
    QFrame::focusInEvent(event);
}

void FigureLabel::focusOutEvent(QFocusEvent* event) {
    update();
    QFrame::focusOutEvent(event);
}

} // namespace lp::ui
