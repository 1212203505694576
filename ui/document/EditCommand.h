#pragma once
// One undoable edit of the scenario: the scenario before and after. Consecutive edits with the same
// merge id merge while the interaction (a slider drag) is open, so a drag is one undo step.
#include "core/model/Scenario.h"

#include <QUndoCommand>

namespace lp::ui {

class ScenarioDocument;

class EditCommand : public QUndoCommand {
public:
    EditCommand(ScenarioDocument* doc, core::Scenario before, core::Scenario after, const QString& text,
                int mergeId, bool interactive);

    void undo() override;
    void redo() override;
    int id() const override { return m_mergeId; }
    bool mergeWith(const QUndoCommand* other) override;

    const core::Scenario& before() const { return m_before; }
    const core::Scenario& after() const { return m_after; }
    void close() { m_open = false; }
    bool isOpen() const { return m_open; }

private:
    ScenarioDocument* m_doc;
    core::Scenario m_before;
    core::Scenario m_after;
    int m_mergeId;
    bool m_open;
};

} // namespace lp::ui
