#include "ui/widgets/FigureLabel.h"

#include "core/estimate/KeyFigures.h"
#include "ui/widgets/ExplainTrigger.h"
#include "ui/widgets/Format.h"

#include <QLabel>
#include <QPainter>
#include <QVBoxLayout>

#include <algorithm>

namespace lp::ui {
namespace {
// A label whose lines wrap when wider than the card, at a clause (", ") or a space; an equation
// ("2 × 16 × 32768 = 1,048,576") before its " = ", so that the result starts a line. A part still too
// wide (a 15-digit GPU-hour count) ends in "…" rather than being cut through a digit; an equation's left
// side gives way first: the result is what the card is for. The label grows by the lines it wraps.
class WrappingLabel : public QLabel {
public:
    using QLabel::QLabel;

    QStringList shownLines() const {
        const int width = contentsRect().width();
        QStringList out;
        for (const QString& line : text().split(QLatin1Char('\n'))) {
            const bool equation = line.contains(kEquals);
            for (const QString& part : wrapped(line, width)) {
                const bool leftSide = equation && !part.startsWith(QStringLiteral("= "));
                // What the wrapping measured as fitting is drawn whole: elidedText's own measure can be a
                // pixel wider than horizontalAdvance and would cut a part that fits.
                out << (fits(part, width) ? part
                                          : fontMetrics().elidedText(
                                                part, leftSide ? Qt::ElideLeft : Qt::ElideRight, width));
            }
        }
        return out;
    }

    // The height follows the lines at the current width: called when the text or the width changes.
    void fitLines() {
        const auto lines = static_cast<int>(shownLines().size());
        if (lines != m_lines) {
            m_lines = lines;
            updateGeometry();
        }
    }

    QSize sizeHint() const override {
        const int lines = std::max(1, m_lines);
        return {QLabel::sizeHint().width(),
                fontMetrics().height() + (lines - 1) * fontMetrics().lineSpacing() + 2 * margin()};
    }
    QSize minimumSizeHint() const override { return {0, sizeHint().height()}; }

protected:
    // After the layout that resized the label: a new height asked for inside it would be lost.
    void resizeEvent(QResizeEvent* event) override {
        QLabel::resizeEvent(event);
        QMetaObject::invokeMethod(this, &WrappingLabel::fitLines, Qt::QueuedConnection);
    }
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

private:
    static constexpr QLatin1StringView kEquals{" = "};

    bool fits(const QString& text, int width) const { return fontMetrics().horizontalAdvance(text) <= width; }

    // The line in parts that fit `width` where breaks allow: an equation's two sides, then clauses, then
    // words. A line fits whole before a narrow card is laid out (width 0).
    QStringList wrapped(const QString& line, int width) const {
        if (width <= 0 || fits(line, width))
            return {line};
        const qsizetype equals = line.indexOf(kEquals);
        if (equals > 0)
            return {line.left(equals), line.mid(equals + 1)};
        for (const QString& separator : {QStringLiteral(", "), QStringLiteral(" ")}) {
            const QStringList pieces = line.split(separator);
            if (pieces.size() < 2)
                continue;
            QStringList out;
            QString current;
            for (qsizetype i = 0; i < pieces.size(); ++i) {
                const QString piece = pieces[i] + (i + 1 < pieces.size() ? separator.trimmed() : QString());
                const QString joined = current.isEmpty() ? piece : current + QLatin1Char(' ') + piece;
                if (current.isEmpty() || fits(joined, width)) {
                    current = joined;
                } else {
                    out << current;
                    current = piece;
                }
            }
            out << current;
            if (separator == QStringLiteral(" ") ||
                std::all_of(out.cbegin(), out.cend(), [&](const QString& part) { return fits(part, width); }))
                return out;
        }
        return {line};
    }

    int m_lines = 1;
};
} // namespace

FigureLabel::FigureLabel(const QString& caption, const QString& id, const QString& explainKey,
                         const QString& toolTip, QWidget* parent)
    : QFrame(parent), m_id(id), m_key(explainKey), m_caption(new QLabel(caption, this)),
      m_value(new WrappingLabel(this)), m_detail(new WrappingLabel(this)) {
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
    relayExplanations(trigger, this);
}

void FigureLabel::setValue(const QString& value, const QString& detail) {
    m_value->setText(value);
    m_detail->setText(detail);
    static_cast<WrappingLabel*>(m_value)->fitLines();
    static_cast<WrappingLabel*>(m_detail)->fitLines();
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
    return static_cast<const WrappingLabel*>(m_value)->shownLines().join(QLatin1Char('\n'));
}
QString FigureLabel::detail() const {
    return m_detail->text();
}
QString FigureLabel::shownDetail() const {
    return static_cast<const WrappingLabel*>(m_detail)->shownLines().join(QLatin1Char('\n'));
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
