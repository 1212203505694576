#include "ui/widgets/RejectedInput.h"

#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QMainWindow>
#include <QSpinBox>
#include <QStatusBar>
#include <QToolTip>

#include <memory>

namespace lp::ui {
namespace {

// The field's range and kept value as it shows them (the suffix after the highest and the kept value).
struct RangeText {
    QString lowest, highest, kept;
};

RangeText rangeText(const QAbstractSpinBox* spin) {
    const QLocale locale = spin->locale();
    if (const auto* i = qobject_cast<const QSpinBox*>(spin))
        return {locale.toString(i->minimum()), locale.toString(i->maximum()) + i->suffix(), i->text()};
    if (const auto* d = qobject_cast<const QDoubleSpinBox*>(spin))
        return {d->textFromValue(d->minimum()), d->textFromValue(d->maximum()) + d->suffix(), d->text()};
    return {};
}

QString suffixOf(const QAbstractSpinBox* spin) {
    if (const auto* i = qobject_cast<const QSpinBox*>(spin))
        return i->suffix();
    if (const auto* d = qobject_cast<const QDoubleSpinBox*>(spin))
        return d->suffix();
    return {};
}

// What the window calls the field: its label's text (the label whose buddy it is), else its accessible name.
QString fieldName(const QAbstractSpinBox* spin) {
    for (const QLabel* label : spin->window()->findChildren<QLabel*>())
        if (label->buddy() == spin)
            return label->text().remove(QLatin1Char('&'));
    return spin->accessibleName().isEmpty() ? QObject::tr("This field") : spin->accessibleName();
}

bool readsAsNumber(const QAbstractSpinBox* spin, const QString& text) {
    bool ok = false;
    spin->locale().toDouble(text, &ok);
    if (!ok)
        QLocale::c().toDouble(text, &ok);
    return ok;
}

} // namespace

QString rejectedInputMessage(const QString& field, const QString& typed, bool number, const QString& lowest,
                             const QString& highest, const QString& kept) {
    const QString what = number ? QObject::tr("%1 is outside %2 to %3").arg(typed, lowest, highest)
                                : QObject::tr("\"%1\" is not a number").arg(typed);
    return QObject::tr("%1: %2; it stays %3.").arg(field, what, kept);
}

void explainRejectedInput(QAbstractSpinBox* spin) {
    if (!qobject_cast<QSpinBox*>(spin) && !qobject_cast<QDoubleSpinBox*>(spin))
        return;
    auto* edit = spin->findChild<QLineEdit*>();
    if (!edit)
        return;
    auto typed = std::make_shared<QString>(); // the text as the user last typed it, until the edit ends
    QObject::connect(edit, &QLineEdit::textEdited, spin, [typed](const QString& text) { *typed = text; });
    QObject::connect(spin, &QAbstractSpinBox::editingFinished, spin, [spin, typed] {
        if (typed->isNull())
            return;
        QString text = *typed;
        *typed = QString();
        int pos = 0;
        if (spin->validate(text, pos) == QValidator::Acceptable)
            return;
        QString shown = text;
        const QString suffix = suffixOf(spin);
        if (!suffix.isEmpty() && shown.endsWith(suffix))
            shown.chop(suffix.size());
        shown = shown.trimmed();
        if (shown.isEmpty())
            return; // an emptied field keeps its value: nothing was typed to refuse
        const RangeText range = rangeText(spin);
        const QString message = rejectedInputMessage(fieldName(spin), shown, readsAsNumber(spin, shown),
                                                     range.lowest, range.highest, range.kept);
        if (auto* window = qobject_cast<QMainWindow*>(spin->window()))
            window->statusBar()->showMessage(message, 8000);
        if (spin->isVisible())
            QToolTip::showText(spin->mapToGlobal(QPoint(0, spin->height())), message, spin);
    });
}

} // namespace lp::ui
