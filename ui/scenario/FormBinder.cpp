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
    l->setBuddy(field);
    l->setToolTip(tip);
    field->setToolTip(tip);
    field->setAccessibleName(plainLabel(label));
    form->addRow(l, field);
}

// A value from a file may lie beyond what the field offers for typing (the file's limits are wider,
// core/model/Limits.h): the field grows to show it rather than show a clamped number that is not the
// scenario's.
template <typename Spin, typename T> void widenToShow(Spin* spin, T v) {
    if (v > spin->maximum())
        spin->setMaximum(v);
    if (v < spin->minimum())
        spin->setMinimum(v);
}
} // namespace

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

QSpinBox* FormBinder::addInt(QFormLayout* form, const QString& label, const QString& tip, int min, int max,
                             std::function<int(const core::Scenario&)> get,
                             std::function<void(core::Scenario&, int)> set, const QString& suffix) {
    auto* spin = new QSpinBox(form->parentWidget());
    spin->setRange(min, max);
    spin->setKeyboardTracking(false);
    spin->setGroupSeparatorShown(max >= 10000);
    if (!suffix.isEmpty())
        spin->setSuffix(suffix);
    addRow(form, label, spin, tip);
    const int field = m_fields++;
    connect(spin, &QSpinBox::valueChanged, this,
            [this, set, label, field](int v) { send([&](core::Scenario& s) { set(s, v); }, label, field); });
    m_refreshers.push_back([spin, get, this] {
        const int v = get(m_doc->scenario());
        if (spin->value() == v)
            return; // an unchanged control is not repainted on every slider step
        const QSignalBlocker block(spin);
        widenToShow(spin, v);
        spin->setValue(v);
    });
    m_refreshers.back()();
    return spin;
}

QDoubleSpinBox* FormBinder::addDouble(QFormLayout* form, const QString& label, const QString& tip, double min,
                                      double max, int decimals, double scale,
                                      std::function<double(const core::Scenario&)> get,
                                      std::function<void(core::Scenario&, double)> set,
                                      const QString& suffix) {
    auto* spin = new QDoubleSpinBox(form->parentWidget());
    spin->setRange(min, max);
    spin->setDecimals(decimals);
    spin->setKeyboardTracking(false);
    spin->setGroupSeparatorShown(max >= 10000);
    if (!suffix.isEmpty())
        spin->setSuffix(suffix);
    addRow(form, label, spin, tip);
    const int field = m_fields++;
    connect(spin, &QDoubleSpinBox::valueChanged, this, [this, set, label, field, scale](double v) {
        send([&](core::Scenario& s) { set(s, v * scale); }, label, field);
    });
    m_refreshers.push_back([spin, get, scale, this] {
        const double v = get(m_doc->scenario()) / scale;
        if (spin->value() == spin->valueFromText(spin->textFromValue(v)))
            return;
        const QSignalBlocker block(spin);
        widenToShow(spin, v);
        spin->setValue(v);
    });
    m_refreshers.back()();
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
    m_refreshers.push_back([box, get, this] {
        const bool v = get(m_doc->scenario());
        if (box->isChecked() == v)
            return;
        const QSignalBlocker block(box);
        box->setChecked(v);
    });
    m_refreshers.back()();
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
    m_refreshers.push_back([combo, get, this] {
        const int index = combo->findData(get(m_doc->scenario()));
        if (combo->currentIndex() == index)
            return;
        const QSignalBlocker block(combo);
        combo->setCurrentIndex(index);
    });
    m_refreshers.back()();
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
    m_refreshers.push_back([edit, get, this] {
        const QString v = QString::fromStdString(get(m_doc->scenario()));
        if (edit->text() != v) {
            const QSignalBlocker block(edit);
            edit->setText(v);
        }
    });
    m_refreshers.back()();
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
    m_refreshers.push_back([button, actions, get, none, this] {
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
    m_refreshers.back()();
    return button;
}

void FormBinder::refresh() {
    for (const auto& r : m_refreshers)
        r();
}

} // namespace lp::ui
