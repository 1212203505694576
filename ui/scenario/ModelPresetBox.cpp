#include "ui/scenario/ModelPresetBox.h"

#include <QStyleOptionComboBox>
#include <QStylePainter>

namespace lp::ui {

int ModelPresetBox::textWidth() const {
    QStyleOptionComboBox option;
    initStyleOption(&option);
    // The style draws the label one pixel in from each side of the edit field.
    return style()->subControlRect(QStyle::CC_ComboBox, &option, QStyle::SC_ComboBoxEditField, this).width() -
           2;
}

QString ModelPresetBox::shownText() const {
    const QString text = currentText();
    const int width = textWidth();
    const QFontMetrics metrics = fontMetrics();
    if (metrics.horizontalAdvance(text) <= width)
        return text;
    // "Name · size, active size": the name gives way and the size stays; where the name would keep
    // only a few letters, the active size goes too.
    const qsizetype dot = text.lastIndexOf(QStringLiteral(" · "));
    if (dot > 0) {
        const QString size = text.mid(dot);
        const QString total = size.left(size.indexOf(QStringLiteral(", ")));
        for (const QString& kept : {size, total}) {
            const int room = width - metrics.horizontalAdvance(kept);
            if (room > metrics.horizontalAdvance(QStringLiteral("Llama-2…")))
                return metrics.elidedText(text.left(dot), Qt::ElideRight, room) + kept;
        }
    }
    return metrics.elidedText(text, Qt::ElideRight, width);
}

void ModelPresetBox::paintEvent(QPaintEvent*) {
    QStylePainter painter(this);
    painter.setPen(palette().color(QPalette::Text));
    QStyleOptionComboBox option;
    initStyleOption(&option);
    painter.drawComplexControl(QStyle::CC_ComboBox, option);
    option.currentText = shownText();
    painter.drawControl(QStyle::CE_ComboBoxLabel, option);
}

} // namespace lp::ui
