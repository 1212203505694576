#pragma once
// Typed text that a spin box refuses (beyond its range, or not a number) is not dropped in silence: when the
// edit ends and the spin box has kept its value, a message names the field (its label), what was
// typed, what the field takes and the value it keeps, in the window's status bar and beside the field.
#include <QString>

class QAbstractSpinBox;

namespace lp::ui {

// Watches one spin box (a QSpinBox or QDoubleSpinBox; others are left alone).
void explainRejectedInput(QAbstractSpinBox* spin);

// "Token budget: 0 is outside 1 to 1,000,000 B tokens; it stays 2,000 B tokens." (`typed` as typed,
// without the suffix; `number`: whether it reads as a number at all).
QString rejectedInputMessage(const QString& field, const QString& typed, bool number, const QString& lowest,
                             const QString& highest, const QString& kept);

} // namespace lp::ui
