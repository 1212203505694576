#include "ui/scenario/FormBinder.h"

#include "ui/document/ScenarioDocument.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QToolButton>

#include <cmath>

namespace lp::ui {
namespace {
QString plainLabel(QString label) {
    return label.remove(QLatin1Char('&'));
}

void addRow(QFormLayout* form, const QString& label, QWidget* field, const QString& tip) {
    auto* l = new QLabel(label, form->parentWidget());
    // A long label ("Host memory bandwidth") takes a second line rather than widen the panel beside the tabs.
    l->setWordWrap(true);
    l->setBuddy(field);
    l->setToolTip(tip);
    field->setToolTip(tip);
    field->setAccessibleName(plainLabel(label));
    form->addRow(l, field);
}

template <typename Spin, typename T> Spin* makeSpin(QFormLayout* form, T min, T max, const QString& suffix) {
    auto* spin = new Spin(form->parentWidget());
    spin->setRange(min, max);
    spin->setKeyboardTracking(false);
    spin->setGroupSeparatorShown(max >= 10000);
    if (!suffix.isEmpty())
        spin->setSuffix(suffix);
    return spin;
}

// A value from a file may lie beyond what the field offers for typing (the file's limits are wider,
// core/model/Limits.h): the field grows to show it rather than show a clamped number that is not the
// scenario's.
template <typename Spin, typename T> void showValue(Spin* spin, T v) {
    const QSignalBlocker block(spin);
    if (v > spin->maximum())
        spin->setMaximum(v);
    if (v < spin->minimum())
        spin->setMinimum(v);
    spin->setValue(v);
}
} // namespace

QFormLayout* makeForm(QWidget* page, int indent) {
    auto* form = new QFormLayout(page);
    form->setContentsMargins(indent, 0, 0, 0);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    return form;
}

FormBinder::FormBinder(ScenarioDocument* doc, int mergeBase, QObject* parent)
    : QObject(parent), m_doc(doc), m_mergeBase(mergeBase) {
    m_apply = [this](const core::Scenario& next, const QString& description, int mergeId) {
        m_doc->edit(next, description, mergeId);
    };
    connect(m_doc, &ScenarioDocument::scenarioChanged, this, &FormBinder::refresh);
}

void FormBinder::send(const std::function<void(core::Scenario&)>& change, const QString& label, int field) {
    core::Scenario next = m_doc->scenario();
    change(next);
    m_apply(next, tr("Edit %1").arg(plainLabel(label).toLower()), m_mergeBase + field);
}

void FormBinder::follow(std::function<void()> refresher) {
    m_refreshers.push_back(std::move(refresher));
    m_refreshers.back()();
}

std::vector<QWidget*> FormBinder::addFields(QFormLayout* form, const std::vector<FormField>& fields) {
    std::vector<QWidget*> controls;
    controls.reserve(fields.size());
    for (const FormField& field : fields) {
        QWidget* control = addField(form, field);
        if (*field.name)
            control->setObjectName(QString::fromLatin1(field.name));
        controls.push_back(control);
    }
    return controls;
}

QWidget* FormBinder::addField(QFormLayout* form, const FormField& f) {
    const QString label = tr(f.label);
    const QString tip = tr(f.tip);
    const ScenarioValue value = f.value;
    switch (f.kind) {
    case FormField::Kind::Int: {
        QSpinBox* spin = addInt(
            form, label, tip, static_cast<int>(f.range.min), static_cast<int>(f.range.max),
            [value](const core::Scenario& s) { return static_cast<int>(value.get(s)); },
            [value](core::Scenario& s, int v) { value.set(s, v); }, tr(f.shown.suffix));
        if (*f.shown.special)
            spin->setSpecialValueText(tr(f.shown.special));
        return spin;
    }
    case FormField::Kind::Double:
        return addDouble(
            form, label, tip, f.range.min, f.range.max, f.range.decimals, f.shown.scale, value.get,
            [value](core::Scenario& s, double v) { value.set(s, v); }, tr(f.shown.suffix));
    case FormField::Kind::Bool:
        return addBool(
            form, label, tip, [value](const core::Scenario& s) { return value.get(s) != 0; },
            [value](core::Scenario& s, bool v) { value.set(s, v ? 1 : 0); });
    case FormField::Kind::Choice: {
        std::vector<std::pair<QString, int>> items;
        for (const FormField::Choice& c : f.choices)
            items.emplace_back(tr(c.text), c.value);
        return addChoice(
            form, label, tip, items,
            [value](const core::Scenario& s) { return static_cast<int>(value.get(s)); },
            [value](core::Scenario& s, int v) { value.set(s, v); });
    }
    case FormField::Kind::Heading:
        break;
    }
    auto* heading = new QLabel(label, form->parentWidget());
    form->addRow(heading);
    return heading;
}

QSpinBox* FormBinder::addInt(QFormLayout* form, const QString& label, const QString& tip, int min, int max,
                             std::function<int(const core::Scenario&)> get,
                             std::function<void(core::Scenario&, int)> set, const QString& suffix) {
    auto* spin = makeSpin<QSpinBox>(form, min, max, suffix);
    addRow(form, label, spin, tip);
    const int field = m_fields++;
    connect(spin, &QSpinBox::valueChanged, this,
            [this, set, label, field](int v) { send([&](core::Scenario& s) { set(s, v); }, label, field); });
    follow([spin, get, this] {
        const int v = get(m_doc->scenario());
        if (spin->value() != v) // an unchanged control is not repainted on every slider step
            showValue(spin, v);
    });
    return spin;
}

QDoubleSpinBox* FormBinder::addDouble(QFormLayout* form, const QString& label, const QString& tip, double min,
                                      double max, int decimals, double scale,
                                      std::function<double(const core::Scenario&)> get,
                                      std::function<void(core::Scenario&, double)> set,
                                      const QString& suffix) {
    auto* spin = makeSpin<QDoubleSpinBox>(form, min, max, suffix);
    spin->setDecimals(decimals);
    addRow(form, label, spin, tip);
    const int field = m_fields++;
    connect(spin, &QDoubleSpinBox::valueChanged, this, [this, set, label, field, scale](double v) {
        send([&](core::Scenario& s) { set(s, v * scale); }, label, field);
    });
    follow([spin, get, scale, this] {
        const double v = get(m_doc->scenario()) / scale;
        if (spin->value() != spin->valueFromText(spin->textFromValue(v)))
            showValue(spin, v);
    });
    return spin;
}

QCheckBox* FormBinder::addBool(QFormLayout* form, const QString& text, const QString& tip,
                               std::function<bool(const core::Scenario&)> get,
                               std::function<void(core::Scenario&, bool)> set) {
    auto* box = new QCheckBox(text, form->parentWidget());
    box->setToolTip(tip);
    form->addRow(box);
    const int field = m_fields++;
    connect(box, &QCheckBox::toggled, this,
            [this, set, text, field](bool v) { send([&](core::Scenario& s) { set(s, v); }, text, field); });
    follow([box, get, this] {
        const bool v = get(m_doc->scenario());
        if (box->isChecked() == v)
            return;
        const QSignalBlocker block(box);
        box->setChecked(v);
    });
    return box;
}

QComboBox* FormBinder::addChoice(QFormLayout* form, const QString& label, const QString& tip,
                                 const std::vector<std::pair<QString, int>>& items,
                                 std::function<int(const core::Scenario&)> get,
                                 std::function<void(core::Scenario&, int)> set) {
    auto* combo = new QComboBox(form->parentWidget());
    for (const auto& [text, value] : items)
        combo->addItem(text, value);
    addRow(form, label, combo, tip);
    const int field = m_fields++;
    connect(combo, &QComboBox::activated, this, [this, combo, set, label, field](int index) {
        const int v = combo->itemData(index).toInt();
        send([&](core::Scenario& s) { set(s, v); }, label, field);
    });
    follow([combo, get, this] {
        const int index = combo->findData(get(m_doc->scenario()));
        if (combo->currentIndex() == index)
            return;
        const QSignalBlocker block(combo);
        combo->setCurrentIndex(index);
    });
    return combo;
}

QLineEdit* FormBinder::addText(QFormLayout* form, const QString& label, const QString& tip,
                               std::function<std::string(const core::Scenario&)> get,
                               std::function<void(core::Scenario&, const std::string&)> set) {
    auto* edit = new QLineEdit(form->parentWidget());
    addRow(form, label, edit, tip);
    const int field = m_fields++;
    connect(edit, &QLineEdit::editingFinished, this, [this, edit, set, label, field] {
        const std::string v = edit->text().toStdString();
        send([&](core::Scenario& s) { set(s, v); }, label, field);
    });
    follow([edit, get, this] {
        const QString v = QString::fromStdString(get(m_doc->scenario()));
        if (edit->text() != v) {
            const QSignalBlocker block(edit);
            edit->setText(v);
            if (!edit->hasFocus())
                edit->setCursorPosition(0); // a long name shows its beginning, not its end
        }
    });
    return edit;
}

QToolButton* FormBinder::addFlags(QFormLayout* form, const QString& label, const QString& tip,
                                  const std::vector<std::pair<QString, unsigned>>& items, const QString& none,
                                  std::function<unsigned(const core::Scenario&)> get,
                                  std::function<void(core::Scenario&, unsigned)> set) {
    auto* button = new QToolButton(form->parentWidget());
    button->setPopupMode(QToolButton::InstantPopup);
    button->setToolButtonStyle(Qt::ToolButtonTextOnly);
    button->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    auto* menu = new QMenu(button);
    std::vector<std::pair<QAction*, unsigned>> actions;
    for (const auto& [text, bit] : items) {
        QAction* a = menu->addAction(text);
        a->setCheckable(true);
        a->setData(bit);
        actions.emplace_back(a, bit);
    }
    button->setMenu(menu);
    addRow(form, label, button, tip);
    const int field = m_fields++;
    for (const auto& [action, _] : actions)
        connect(action, &QAction::triggered, this, [this, actions, set, label, field] {
            unsigned v = 0;
            for (const auto& [a, bit] : actions)
                if (a->isChecked())
                    v |= bit;
            send([&](core::Scenario& s) { set(s, v); }, label, field);
        });
    follow([button, actions, get, none, this] {
        const unsigned v = get(m_doc->scenario());
        QStringList shown;
        for (const auto& [a, bit] : actions) {
            const QSignalBlocker block(a);
            a->setChecked((v & bit) != 0);
            if (v & bit)
                shown << a->text();
        }
        button->setText(shown.isEmpty() ? none : shown.join(QStringLiteral(", ")));
    });
    return button;
}

void FormBinder::refresh() {
    for (const auto& r : m_refreshers)
        r();
}

} // namespace lp::ui
