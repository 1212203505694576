#pragma once
// The glossary (resources/teaching/glossary.json): a searchable list of the terms of distributed
// training with a short definition, a longer explanation, the formula, related terms as links, and -
// where the term is a figure of the plan - the core's explanation of it with the current values.
#include "ui/widgets/Format.h"

#include <QDialog>
#include <QString>
#include <QStringList>

#include <vector>

class QLineEdit;
class QListWidget;
class QTextBrowser;

namespace lp::ui {

class ScenarioDocument;

struct GlossaryTerm {
    QString id;
    QString term;
    QStringList aliases;
    QString shortText;
    QString longText;
    QString formula;
    QString explainKey; // core explanation key, empty when none
    QStringList see;
};

// Reads glossary.json; problems (missing fields, bad JSON) go to `errors` when given.
std::vector<GlossaryTerm> parseGlossary(const QByteArray& json, QStringList* errors = nullptr);

class GlossaryDialog : public QDialog {
    Q_OBJECT
public:
    // `doc` may be null (then no live explanation is shown).
    explicit GlossaryDialog(ScenarioDocument* doc, QWidget* parent = nullptr);

    const std::vector<GlossaryTerm>& terms() const { return m_terms; }
    QLineEdit* searchField() const { return m_search; }
    QListWidget* list() const { return m_list; }
    QTextBrowser* details() const { return m_details; }

    // Terms whose name, aliases or definitions contain `text` (case-insensitive): those that hold it in
    // their name, id or aliases first, then those that hold it only in their definitions.
    QStringList matching(const QString& text) const;
    // Selects a term (clearing the search if it hides it). False when the id is unknown.
    bool showTerm(const QString& id);
    QString currentTermId() const;
    // The unit the current plan's memory figures are shown in (the window's choice).
    void setUnit(MemoryUnit unit);

private:
    void filter(const QString& text);
    void showDetails();
    QString html(const GlossaryTerm& t) const;
    ScenarioDocument* m_doc;
    MemoryUnit m_unit = MemoryUnit::GiB;
    std::vector<GlossaryTerm> m_terms;
    QLineEdit* m_search;
    QListWidget* m_list;
    QTextBrowser* m_details;
};

} // namespace lp::ui
