#include "ui/scenario/ScenarioNameEditor.h"

#include "core/model/Scenario.h"
#include "ui/document/ScenarioDocument.h"
#include "ui/widgets/Format.h"

#include <QDialog>
#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QToolButton>
#include <QVBoxLayout>

namespace lp::ui {

ScenarioNameEditor::ScenarioNameEditor(ScenarioDocument* doc, QWidget* parent)
    : QWidget(parent), m_doc(doc), m_name(new QLineEdit(this)), m_notes(new QToolButton(this)) {
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* label = new QLabel(tr("Na&me"), this);
    label->setBuddy(m_name);
    m_name->setObjectName(QStringLiteral("scenarioName"));
    m_name->setClearButtonEnabled(true);
    m_name->setToolTip(tr("The scenario's name, for its file and reports. Left empty, it is named after "
                          "its model, GPU and GPU count, and follows them."));
    m_notes->setObjectName(QStringLiteral("scenarioNotes"));
    m_notes->setText(tr("&Notes…"));
    layout->addWidget(label);
    layout->addWidget(m_name, 1);
    layout->addWidget(m_notes);
    connect(m_name, &QLineEdit::editingFinished, this, &ScenarioNameEditor::commitName);
    connect(m_notes, &QToolButton::clicked, this, &ScenarioNameEditor::editNotes);
    connect(m_doc, &ScenarioDocument::scenarioChanged, this, &ScenarioNameEditor::refresh);
    refresh();
}

void ScenarioNameEditor::commitName() {
    core::Scenario next = m_doc->scenario();
    core::setScenarioName(next, m_name->text().toStdString());
    m_name->setModified(false);
    if (next.name != m_doc->scenario().name)
        m_doc->edit(next, tr("Rename scenario"));
    else
        refresh(); // the automatic name typed out returns to the placeholder
}

void ScenarioNameEditor::editNotes() {
    QDialog dialog(this);
    dialog.setObjectName(QStringLiteral("scenarioNotesDialog"));
    dialog.setWindowTitle(tr("Scenario notes"));
    auto* layout = new QVBoxLayout(&dialog);
    auto* text = new QPlainTextEdit(&dialog);
    text->setObjectName(QStringLiteral("scenarioNotesText"));
    text->setPlainText(qs(m_doc->scenario().notes));
    text->setPlaceholderText(tr("What this scenario is for, where its figures come from…"));
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    layout->addWidget(text);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    dialog.resize(480, 280);
    if (dialog.exec() != QDialog::Accepted)
        return;
    core::Scenario next = m_doc->scenario();
    next.notes = text->toPlainText().trimmed().toStdString();
    if (next.notes != m_doc->scenario().notes)
        m_doc->edit(next, tr("Edit scenario notes"));
}

void ScenarioNameEditor::refresh() {
    const core::Scenario& s = m_doc->scenario();
    m_name->setPlaceholderText(qs(core::automaticScenarioName(s)));
    const QString written = s.name ? qs(*s.name) : QString();
    if (m_name->text() != written && !m_name->isModified()) { // never over what the user is typing
        m_name->setText(written);
        if (!m_name->hasFocus())
            m_name->setCursorPosition(0); // a long name shows its beginning, not its end
    }
    const QString notes = qs(s.notes);
    m_notes->setToolTip(notes.isEmpty()
                            ? tr("Write notes about this scenario (none yet).")
                            : notes.toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br>")));
    m_notes->setText(notes.isEmpty() ? tr("&Notes…") : tr("&Notes ✎"));
}

} // namespace lp::ui
