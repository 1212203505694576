#include "ui/document/EditCommand.h"

#include "ui/document/ScenarioDocument.h"

namespace lp::ui {

EditCommand::EditCommand(ScenarioDocument* doc, core::Scenario before, core::Scenario after,
                         const QString& text, int mergeId, bool interactive)
    : m_doc(doc), m_before(std::move(before)), m_after(std::move(after)), m_mergeId(mergeId),
      m_open(interactive && mergeId != -1) {
    setText(text);
}

void EditCommand::undo() {
    m_doc->applyFromCommand(m_before);
}

void EditCommand::redo() {
    m_doc->applyFromCommand(m_after);
}

bool EditCommand::mergeWith(const QUndoCommand* other) {
    const auto* next = dynamic_cast<const EditCommand*>(other);
    if (!next || !m_open || next->m_mergeId != m_mergeId)
        return false;
    m_after = next->m_after;
    m_open = next->m_open;
    setText(next->text());
    setObsolete(m_after == m_before);
    return true;
}

} // namespace lp::ui
